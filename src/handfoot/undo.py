"""Taking back steps within a turn: which steps teach the player something new.

A person may take back their own steps of a turn (a meld, an addition, a lay-down) until they
learn something they did not know before it: a card drawn, the pile taken, a red three
replaced, a packet picked up, a partner's answer, or the turn's end.  Taking back a step after
that would let them act on knowledge they should not have had, so every table (the terminal
game, the web table) keeps its steps in a :class:`TurnUndo`, which asks :func:`teaches` after
each step and forgets the steps before when it says yes.
"""

from __future__ import annotations

from collections.abc import Iterable

from .actions import Action, Answer, Ask, Discard, Draw, Knock, Stop, TakePile
from .engine import Game
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


class TurnUndo:
    """The steps of one seat's turn that may still be taken back, each kept as the game was
    before it: the one undo stack of every table (the terminal game, the web server).

    :meth:`step` applies an action and remembers the game before it, unless the step taught
    the seat something (:func:`teaches`): then nothing before it may be taken back and the
    stack is emptied.  :meth:`undo` hands back the game as it was before the last step; the
    caller puts it in place of its own (and takes the step out of any record it keeps).

    A whole copy per step costs a few microseconds a step and nothing elsewhere; the engine
    need not learn to reverse each transition, and a restored game is exactly the old one.
    """

    __slots__ = ("_before", "seat")

    def __init__(self) -> None:
        self._before: list[Game] = []
        self.seat = -1  # whose steps the stack holds (-1: nobody's yet)

    def __len__(self) -> int:
        return len(self._before)

    @property
    def can_undo(self) -> bool:
        return bool(self._before)

    def step(self, game: Game, action: Action, seat: int | None = None) -> list[Event]:
        """Apply ``action`` to ``game`` (``seat`` as for ``Game.apply``) and remember the game
        before it, unless the step teaches: then forget every step before it too."""
        actor = game.actor
        before = game.clone(history=game.history is not None)
        events = game.apply(action, seat)
        if actor != self.seat:
            # Another seat's steps never mix with this one's: a take-back is the stepper's own.
            self._before.clear()
            self.seat = actor
        if teaches(action, events):
            self._before.clear()
        else:
            self._before.append(before)
        return events

    def undo(self) -> Game:
        """The game as it was before the last step still held (the step is forgotten);
        raises IndexError when there is none (see :attr:`can_undo`)."""
        return self._before.pop()

    def clear(self) -> None:
        """Forget every step: a step not taken through :meth:`step` (a bot's, say) came
        between, or the seat passed to someone else."""
        self._before.clear()
