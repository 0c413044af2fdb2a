"""Taking back steps within a turn: which steps teach the player something new.

A person may take back their own steps of a turn (a meld, an addition, a lay-down) until they
learn something they did not know before it: a card drawn, the pile taken, a red three
replaced, a packet picked up, a partner's answer, or the turn's end.  Taking back a step after
that would let them act on knowledge they should not have had, so every table (the terminal
game, the web table) asks :func:`teaches` after each step and forgets its undo stack when it
says yes.
"""

from __future__ import annotations

from collections.abc import Iterable

from .actions import Action, Answer, Ask, Discard, Draw, Knock, Stop, TakePile
from .events import Event

# Events after which taking back a step would undo something the player has since learned.
NEWS = frozenset({"draw", "take_pile", "pile_to_hand", "pick_up", "replace", "red_three",
                  "answer", "turn", "round_end", "went_out", "deal"})

# Events that show nothing new: a step that made only these may still be taken back (the
# action itself may teach, as a discard does).  Every event is in one of the two sets.
QUIET = frozenset({"upcard", "upcard_rejected", "stock_empty", "meld", "canasta", "penny",
                   "opening", "discard", "knock", "retract", "ask", "pass", "reshuffle",
                   "final_lap", "no_draw", "game_end"})

# Actions that reveal something or hand the move to someone else, whatever their events.
_NEWS_ACTIONS = (Draw, TakePile, Ask, Answer, Discard, Knock, Stop)


def teaches(action: Action, events: Iterable[Event]) -> bool:
    """Whether applying ``action`` (which gave ``events``) showed the player something new:
    then neither it nor any step before it may be taken back."""
    return isinstance(action, _NEWS_ACTIONS) or any(e.name in NEWS for e in events)
