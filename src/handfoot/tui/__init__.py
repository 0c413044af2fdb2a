"""``handfoot play``: a game against bots in the terminal (Textual).  Not part of the core."""

from __future__ import annotations

from .session import PlayError, Session

__all__ = ["PlayError", "Session"]
