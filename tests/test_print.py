"""Printable PDFs: read back with pypdf, they carry the rule set's minimums, canasta values and
the game's teams and scores; the rules card fits one page."""

from __future__ import annotations

from pathlib import Path

import pytest

pypdf = pytest.importorskip("pypdf")

from handfoot.cli.main import main  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def text_of(path: Path) -> tuple[int, str]:
    reader = pypdf.PdfReader(str(path))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_blank_sheet_carries_minimums_and_canasta_values(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    assert main(["print", "sheet", "--rules", "hand-knee-foot-club", "-o", str(out)]) == 0
    pages, text = text_of(out)
    assert pages == 1
    for minimum in ("min 60", "min 90", "min 120", "min 150"):
        assert minimum in text
    for value in ("2,000", "1,500", "500", "300"):
        assert value in text
    assert "Team 1" in text and "Team 2" in text and "Round 4" in text


def test_blank_sheet_for_hand_and_foot_names_its_teams(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    assert main(["print", "sheet", "--rules", "hand-and-foot", "--team", "Ann & Bob",
                 "--team", "Cy & Di", "-o", str(out)]) == 0
    _, text = text_of(out)
    assert "Ann & Bob" in text and "Cy & Di" in text and "1,500" in text and "min 50" in text


def test_filled_sheet_from_a_kept_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    assert main(["score", "new", "--rules", "hand-knee-foot", "--team", "Ann & Bob", "--team",
                 "Cy & Di", "--db", db]) == 0
    assert main(["score", "add", "1", "--file", str(EXAMPLES / "score-hkf-12245.toml"),
                 "--db", db]) == 0
    out = tmp_path / "filled.pdf"
    assert main(["print", "sheet", "1", "--db", db, "-o", str(out)]) == 0
    _, text = text_of(out)
    assert "Ann & Bob" in text and "Cy & Di" in text
    assert "12,245" in text and "5,000" in text and "min 50" in text and "min 90" in text


def test_rules_card_is_one_page_with_the_rules(tmp_path: Path) -> None:
    out = tmp_path / "card.pdf"
    assert main(["print", "card", "--rules", "hand-knee-foot", "--set", "pile_take=7",
                 "-o", str(out)]) == 0
    pages, text = text_of(out)
    assert pages == 1
    flat = " ".join(text.split())
    assert "5,000" in flat and "2,500" in flat and "Opening minimums by round" in flat
    assert "house rule" in flat


def test_missing_game_is_a_plain_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["print", "sheet", "7", "--db", str(tmp_path / "s.db"), "-o",
                 str(tmp_path / "x.pdf")])
    assert code == 2 and "no kept game '7'" in capsys.readouterr().err
