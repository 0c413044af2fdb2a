"""Printable PDFs: read back with pypdf, they carry the rule set's minimums, canasta values and
the game's teams and scores; the rules card fits one page."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

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


# ---------------------------------------------------------------- names fit their column
LONG_NAMES = {
    "short": "Ann & Bob",
    "20": "The Card Sharks Club",
    "40": "The Friday Night Canasta and Cookie Club",
    "80": ("The Extraordinarily Long-Named Friday Night Card Club of Elm Street, "
           "Springfield"),
    "one-word": "Supercalifragilisticexpialidocious-Canasta-Champions-Of-Elm",
    "accents": "Zoë, Amélie, Søren & Łucja: the Ærøskøbing Crew",
    "cjk": "山田太郎と李小龍の最強チーム東京支部・大阪支部合同練習会チーム",
    "emoji": "🎉🎉 Fête & Zoë 👩\u200d👩\u200d👧 the family with a long emoji name 🃏🃏",
}


@pytest.mark.parametrize("room", [60.0, 80.0, 95.0, 120.0])
@pytest.mark.parametrize("key", list(LONG_NAMES))
def test_a_fitted_name_stays_within_its_room(key: str, room: float) -> None:
    from handfoot.print.pdf import ELLIPSIS, NAME_SIZES, fit_name, text_width

    name = LONG_NAMES[key]
    for font in ("HF-Sans", "HF-Sans-Bold"):
        size, lines = fit_name(name, room, font)
        assert NAME_SIZES[-1] <= size <= NAME_SIZES[0]
        assert 1 <= len(lines) <= 2
        assert all(text_width(line, size, font) <= room for line in lines), (size, lines)
        if lines[-1].endswith(ELLIPSIS):  # cut short: what is shown is the name's start
            shown = "".join(lines)[:-1].replace(" ", "")
            assert name.replace(" ", "").startswith(shown) and len(shown) >= 10
        else:
            assert "".join(lines).replace(" ", "") == name.replace(" ", "")
    assert fit_name("Ann & Bob", 95.0) == (9.0, ["Ann & Bob"])  # a short name is left alone


def _page_layout(path: Path) -> tuple[list[float], list[tuple[float, float, float, str]]]:
    """The page's vertical grid lines (x) and each line of text: its start x, y, right edge
    (the width of its runs, in their fonts, from ReportLab's metrics) and its text."""
    from reportlab.pdfbase import pdfmetrics

    from handfoot.print import fonts

    fonts.register()
    by_face = {pdfmetrics.getFont(n).face.name.decode(): n
               for n in (fonts.SANS, fonts.SANS_BOLD, fonts.SANS_OBLIQUE,
                         *(name for name, _ in fonts._loaded))}
    page = pypdf.PdfReader(str(path)).pages[0]
    verticals: set[float] = set()
    start: list[tuple[float, float]] = []
    lines: dict[tuple[float, float], list[Any]] = {}

    def before(op: bytes, args: list[Any], cm: list[float], tm: list[float]) -> None:
        if op == b"m":
            start[:] = [(float(args[0]), float(args[1]))]
        elif op == b"l" and start:
            (x0, y0), x1, y1 = start[0], float(args[0]), float(args[1])
            if abs(x0 - x1) < 0.01 and abs(y0 - y1) > 1:
                verticals.add(round(cm[0] * x0 + cm[4], 1))

    def text(chunk: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        chunk = chunk.strip("\n")
        if not chunk or not font:
            return
        face = str(font["/BaseFont"]).split("+")[-1]
        width = pdfmetrics.stringWidth(chunk, by_face[face], size)
        # pypdf gives every run of a line the line's start: the runs' widths add up.
        key = (round(cm[4] + tm[4], 1), round(cm[5] + tm[5], 1))
        line = lines.setdefault(key, [key[0], key[1], key[0], ""])
        line[2] += width
        line[3] += chunk

    page.extract_text(visitor_text=text, visitor_operand_before=before)
    return sorted(verticals), [tuple(line) for line in lines.values()]


@pytest.mark.parametrize("filled", [False, True], ids=["blank", "filled"])
@pytest.mark.parametrize("pair", [
    pytest.param(("short", "20"), marks=pytest.mark.slow), ("40", "80"),
    pytest.param(("one-word", "accents"), marks=pytest.mark.slow), ("cjk", "80")])
def test_team_names_stay_within_their_column_on_the_sheet(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], filled: bool,
        pair: tuple[str, str]) -> None:
    names = [LONG_NAMES[k] for k in pair]
    out = tmp_path / "sheet.pdf"
    teams = ["--team", names[0], "--team", names[1]]
    if filled:
        db = str(tmp_path / "s.db")
        blank = tmp_path / "r.toml"
        blank.write_text("[[teams]]\n[[teams]]\n", encoding="utf-8")
        assert main(["score", "new", "--rules", "hand-knee-foot", *teams, "--db", db]) == 0
        assert main(["score", "add", "1", "--file", str(blank), "--db", db]) == 0
        assert main(["print", "sheet", "1", "--db", db, "-o", str(out)]) == 0
    else:
        assert main(["print", "sheet", "--rules", "hand-knee-foot", *teams, "-o",
                     str(out)]) == 0
    capsys.readouterr()
    edges, lines = _page_layout(out)
    left, right = edges[1], edges[2]  # the team's column: the second between grid lines
    inside = [ln for ln in lines if left < ln[0] < right]
    assert len(inside) >= 8  # every round's (and the totals') names were found
    for _x, _y, end, text in inside:
        assert end <= right + 0.5, f"{text!r} runs {end - right:.1f} pt past its column"
    shown = "".join(t for *_, t in inside).replace(" ", "")
    for name in names:  # each name is there, whole or as its start
        assert name[:12].replace(" ", "") in shown


# ---------------------------------------------------------------- print's arguments
class _Pipe(io.TextIOWrapper):
    """Standard output as a pipe (or, with ``tty``, a terminal), its bytes kept."""

    def __init__(self, tty: bool = False) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8")
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty

    def written(self) -> bytes:
        self.flush()
        raw = self.buffer
        assert isinstance(raw, io.BytesIO)
        return raw.getvalue()


@pytest.mark.parametrize("argv", [
    pytest.param(["print", "sheet", "--team", "Ann & Bob", "--team", "Cy"], id="sheet"),
    pytest.param(["print", "card", "--rules", "hand-knee-foot"], id="card",
                 marks=pytest.mark.slow),  # the card is set in several sizes: over a second
])
def test_output_dash_writes_the_pdf_to_standard_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    pipe = _Pipe()
    monkeypatch.setattr("sys.stdout", pipe)
    assert main([*argv, "-o", "-"]) == 0
    data = pipe.written()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert not (tmp_path / "-").exists()  # no file called "-"
    (tmp_path / "out.pdf").write_bytes(data)
    assert pypdf.PdfReader(str(tmp_path / "out.pdf")).pages


def test_output_dash_to_a_terminal_is_refused_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    pipe = _Pipe(tty=True)
    monkeypatch.setattr("sys.stdout", pipe)
    assert main(["print", "sheet", "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("handfoot: error: ") and err.count("\n") == 1 and "terminal" in err
    assert pipe.written() == b"" and not (tmp_path / "-").exists()


@pytest.mark.parametrize("teams", [
    ["Ann\x1b[31m", "Cy"], ["Ann\u202e", "Cy"], ["Ann\nBob", "Cy"], ["Ann", ""], ["Ann", "ann"],
    ["A" * 81, "Cy"], ["Ann"],
], ids=["escape", "direction-override", "newline", "empty", "same", "81-chars", "one-team"])
def test_print_sheet_team_names_are_checked_as_score_new_checks_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], teams: list[str]) -> None:
    out = tmp_path / "sheet.pdf"
    argv = [a for t in teams for a in ("--team", t)]
    assert main(["score", "new", *argv, "--db", str(tmp_path / "s.db")]) == 2
    refused = capsys.readouterr().err
    assert main(["print", "sheet", *argv, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == refused  # the one check, the same words
    assert err.startswith("handfoot: error: --team") and err.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize("extra", [["--team", "X", "--team", "Y"], ["--rules", "hand-knee-foot"],
                                   ["--set", "pile_take=7"], ["--players", "6"]],
                         ids=["team", "rules", "set", "players"])
def test_a_kept_games_sheet_refuses_a_blank_sheets_options_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    db = str(tmp_path / "s.db")
    assert main(["score", "new", "--team", "Ann & Bob", "--team", "Cy & Di", "--db", db]) == 0
    capsys.readouterr()
    out = tmp_path / "sheet.pdf"
    assert main(["print", "sheet", "1", *extra, "--db", db, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("handfoot: error: ") and err.count("\n") == 1
    assert extra[0] in err and "kept game" in err
    assert not out.exists()


def test_a_blank_sheet_refuses_db_without_a_game(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.pdf"
    assert main(["print", "sheet", "--db", str(tmp_path / "s.db"), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("handfoot: error: ") and "--db" in err and "GAME" in err
    assert not out.exists()
