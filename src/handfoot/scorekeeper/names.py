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


# Past any game, round, team, player or count a score file holds, and within SQLite's 64-bit
# integers; Python's own limit (4,300 digits) is never reached either.
MOST_DIGITS = 18


def shown(text: str, most: int = 40) -> str:
    """Text to quote in a message: whole when short, else its start and its length."""
    return text if len(text) <= most else f"{text[:most - 10]}... ({len(text):,} characters)"


def whole_number(text: str, what: str) -> int | None:
    """The whole number typed (in any script's digits), or None when the text is not one.
    A number of more digits than any ``what`` could have is refused here, in one line."""
    text = text.strip()
    if not text.isdecimal():  # not isdigit: "²" is a digit that int() refuses
        return None
    if len(text.lstrip("0")) > MOST_DIGITS:
        raise ScoreError(f"there is no {what} {shown(text)}: {len(text):,} digits is more "
                         f"than any {what} has")
    return int(text)
