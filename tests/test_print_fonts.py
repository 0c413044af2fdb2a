"""Printed names come out as typed: the sheets and cards embed DejaVu Sans (shipped with the
package) for Latin, Greek and Cyrillic, and a system font for the rest; the filled sheet keeps
counts and points in separate, labelled rows.  The PDFs are real: read back with pypdf, and
rendered by pdftoppm where it is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

pypdf = pytest.importorskip("pypdf")

from handfoot.cli.main import main  # noqa: E402
from handfoot.print import fonts  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CJK = "山田 & 李"
EMOJI = "Fête 🎉"


def embedded_fonts(path: Path) -> set[str]:
    reader = pypdf.PdfReader(str(path))
    names = set()
    for page in reader.pages:
        resources = page["/Resources"]
        for font in resources.get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


def text_of(path: Path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(str(path)).pages)


def test_the_shipped_font_and_its_licence_are_in_the_package() -> None:
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
                 "LICENSE-DejaVu.txt"):
        assert (fonts.FONT_DIR / name).is_file(), name
    assert "Bitstream" in (fonts.FONT_DIR / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("word", ["Fête", "Ελλάδα", "Москва", "Ærøskøbing", "Łódź", "Ñandú"])
def test_dejavu_covers_latin_greek_and_cyrillic(word: str) -> None:
    assert not fonts.needs_fallback(word)


def test_a_blank_sheet_prints_greek_and_cyrillic_team_names(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    assert main(["print", "sheet", "--team", "Ελλάδα", "--team", "Москва", "-o",
                 str(out)]) == 0
    text = text_of(out)
    assert "Ελλάδα" in text and "Москва" in text
    used = embedded_fonts(out)
    assert any(name.endswith("+DejaVuSans") for name in used), used
    assert not any("Helvetica" in name for name in used), used


def _fallback_available(text: str) -> bool:
    return all(fonts.has_glyph(ch) or fonts.fallback_for(ch) for ch in text)


def test_other_scripts_use_a_system_font_that_has_them(tmp_path: Path) -> None:
    if not _fallback_available(CJK + EMOJI):
        pytest.skip("no system font with Chinese and emoji here (scripts/test-all installs "
                    "fonts-droid-fallback and fonts-symbola)")
    runs = fonts.runs(f"{EMOJI} {CJK}")
    assert [chunk for font, chunk in runs if font is not None] == ["🎉", "山田", "李"]
    out = tmp_path / "sheet.pdf"
    assert main(["print", "sheet", "--team", EMOJI, "--team", CJK, "-o", str(out)]) == 0
    used = embedded_fonts(out)
    assert {name.split("+")[-1] for name in used} - {"DejaVuSans", "DejaVuSans-Bold"}, used
    text = text_of(out)
    assert "山田" in text and "李" in text


def test_the_filled_sheet_has_count_and_points_rows(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    assert main(["score", "new", "--rules", "hand-knee-foot", "--team", "Ann & Bob",
                 "--team", "Cy & Di", "--name", "Москва", "--db", db]) == 0
    assert main(["score", "add", "1", "--file", str(EXAMPLES / "score-hkf-12245.toml"),
                 "--db", db]) == 0
    out = tmp_path / "filled.pdf"
    assert main(["print", "sheet", "1", "--db", db, "-o", str(out)]) == 0
    text = text_of(out)
    assert text.count("count") >= 2 and text.count("points") >= 2
    # Read cell by cell: the counts (one canasta of each kind, three red threes, 35 cards
    # melded, Bob out) in the count row, what they score in the points row.
    cells = [c.strip() for c in text.splitlines()]
    i = cells.index("count")
    j = cells.index("points", i)
    assert cells[i + 1:j] == ["1", "1", "1", "1", "1", "3", "35 cards", "Bob"]
    assert cells[j + 1:j + 12] == ["5,000", "3,000", "500", "300", "2,500", "300", "460", "200",
                                   "-15", "12,245", "12,245"]
    assert "Москва" in text


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) absent")
def test_the_sheet_renders_to_an_image(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    assert main(["print", "sheet", "--team", "Ελλάδα", "--team", "Москва", "-o",
                 str(out)]) == 0
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(out), str(tmp_path / "page")],
                   check=True, capture_output=True, timeout=60)
    png = tmp_path / "page-1.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
