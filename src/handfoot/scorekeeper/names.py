"""Names a person types (teams, players, games, reasons): one printable line each."""

from __future__ import annotations

import unicodedata

from . import ScoreError

# Joiners that scripts and emoji need inside a word; every other format character (the
# direction overrides among them) could make a name print as something it is not.
_JOINERS = frozenset("\u200c\u200d")


def check_text(field: str, text: str, most: int = 80) -> str:
    """The text, stripped, if it is one printable line of at most ``most`` characters."""
    for ch in text:
        category = unicodedata.category(ch)
        if ch in "\n\r\v\f\u2028\u2029" or category in ("Zl", "Zp"):
            raise ScoreError(f"{field}: {text!r} spans several lines; a name is one line")
        if category in ("Cc", "Cs") or (category == "Cf" and ch not in _JOINERS):
            raise ScoreError(f"{field}: {text!r} holds a control character "
                             f"(U+{ord(ch):04X}); use letters, digits, spaces and "
                             "punctuation")
    clean = text.strip()
    if len(clean) > most:
        raise ScoreError(f"{field}: {len(clean)} characters is too long (at most {most})")
    return clean
