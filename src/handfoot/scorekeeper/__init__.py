"""Keeping score of games played with real cards: entries, checks, storage and export.

A round is entered per team as what lies on the table and what is still held; the entries are
checked against the table's rules and scored by :func:`handfoot.scoring.score_team`, the same
function the engine uses, so a kept game and an engine game can never add up differently.
"""

from __future__ import annotations

from handfoot.errors import HandfootError


class ScoreError(HandfootError):
    """An entry, file or request the scorekeeper refuses; the message says what is wrong."""
