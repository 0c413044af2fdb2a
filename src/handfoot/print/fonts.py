"""The type of the printable sheets and cards: DejaVu Sans, shipped with the package (Latin,
Greek, Cyrillic and many symbols), and for a character it lacks (Chinese, Japanese, emoji...)
the first font on this system that has it.

PDF base fonts (Helvetica) know only Latin-1, so a team called ``Москва`` or ``山田 & 李``
printed as boxes.  Names are the players' own: a sheet must print them as typed.  Nothing is
fetched: the fallback fonts are the ones the system already has.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
SANS = "HF-Sans"
SANS_BOLD = "HF-Sans-Bold"
SANS_OBLIQUE = "HF-Sans-Oblique"

# Fonts known to fill what DejaVu lacks, tried first (TrueType outlines only: ReportLab cannot
# embed PostScript-outline fonts such as Noto CJK's .otc).
KNOWN_FALLBACKS = (
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
    "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
    "/usr/share/fonts/truetype/unifont/unifont.ttf",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/seguisym.ttf",
    "C:/Windows/Fonts/seguiemj.ttf",
)
FONT_FOLDERS = (
    "/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts",
    "/System/Library/Fonts", "/Library/Fonts", "~/Library/Fonts", "C:/Windows/Fonts",
)
MOST_SCANNED = 100  # font files looked at for a character no known fallback has


@cache
def register() -> str:
    """Register the shipped DejaVu Sans (regular, bold, oblique) as one family; its name."""
    for name, file in ((SANS, "DejaVuSans.ttf"), (SANS_BOLD, "DejaVuSans-Bold.ttf"),
                       (SANS_OBLIQUE, "DejaVuSans-Oblique.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    # <b> and <i> in paragraphs pick the family's faces; bold oblique falls back to bold.
    addMapping(SANS, 0, 0, SANS)
    addMapping(SANS, 1, 0, SANS_BOLD)
    addMapping(SANS, 0, 1, SANS_OBLIQUE)
    addMapping(SANS, 1, 1, SANS_BOLD)
    return SANS


def _chars(name: str) -> frozenset[int]:
    font = pdfmetrics.getFont(name)
    assert isinstance(font, TTFont)
    return frozenset(font.face.charToGlyph)


@cache
def _sans_chars() -> frozenset[int]:
    register()
    return _chars(SANS)


def has_glyph(ch: str) -> bool:
    """Whether DejaVu Sans draws this character (spaces and controls count as drawn)."""
    return ord(ch) in _sans_chars() or ch.isspace() or not ch.isprintable()


_loaded: list[tuple[str, frozenset[int]]] = []  # fallback fonts registered so far
_tried: set[str] = set()
_missing: set[int] = set()  # characters no font here has: looked for once


def _candidates() -> Iterator[str]:
    yield from KNOWN_FALLBACKS
    scanned = 0
    for folder in FONT_FOLDERS:
        root = Path(os.path.expanduser(folder))
        if not root.is_dir():
            continue
        for dirpath, _dirs, files in sorted(os.walk(root)):
            for file in sorted(files):
                if file.lower().endswith((".ttf", ".ttc")):
                    scanned += 1
                    if scanned > MOST_SCANNED:
                        return
                    yield os.path.join(dirpath, file)


def fallback_for(ch: str) -> str | None:
    """The registered name of a system font that draws ``ch``, or None if none does."""
    code = ord(ch)
    for name, chars in _loaded:
        if code in chars:
            return name
    if code in _missing:
        return None
    for path in _candidates():
        if path in _tried or not os.path.isfile(path):
            continue
        _tried.add(path)
        name = f"HF-Fallback-{len(_loaded) + 1}"
        try:
            pdfmetrics.registerFont(TTFont(name, path))
        except (TTFError, OSError, ValueError, KeyError, IndexError, struct.error):
            continue  # a font ReportLab cannot embed (PostScript outlines, a damaged file)
        chars = _chars(name)
        _loaded.append((name, chars))
        if code in chars:
            return name
    _missing.add(code)
    return None


def runs(text: str) -> list[tuple[str | None, str]]:
    """The text cut where the font changes: (None for DejaVu Sans, or a fallback's name,
    the characters)."""
    out: list[tuple[str | None, str]] = []
    for ch in text:
        font = None if has_glyph(ch) else fallback_for(ch)
        if out and out[-1][0] == font:
            out[-1] = (font, out[-1][1] + ch)
        else:
            out.append((font, ch))
    return out


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def markup(text: str) -> str:
    """Paragraph markup for plain text: escaped, and each run DejaVu lacks set in a font
    that has it."""
    return "".join(escape(chunk) if font is None else f'<font name="{font}">{escape(chunk)}'
                   "</font>" for font, chunk in runs(text))


def needs_fallback(text: str) -> bool:
    return not all(has_glyph(ch) for ch in text)
