"""The pile as one seat sees it: whether it may take it, why not, and what a take would need.

Every table that shows a person the pile (the terminal game, the web table) asks this rather
than judging the pile itself.  Between the seat's turns it is asked as if it were the seat's
draw: every check of a take looks only at the taker's own hand, its team's melds and the
pile, so the answer is the one the seat will get when its turn comes (unless those change).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import PickUpPile, TakeOnto, TakePile
from .cards import JOKER, TWO
from .engine import Game
from .events import Melded, Refusal
from .narrate import meld_text
from .state import Phase


@dataclass(frozen=True, slots=True)
class PileStatus:
    """``refusal`` is None when the seat may take the pile (or could, were it its draw)."""

    refusal: Refusal | None
    # The take the engine allows: the plain pair first, then a wild card's, then the house
    # rules' other ways (the top card onto a meld, picking the pile up: 4.7, 4.8).
    take: TakePile | TakeOnto | PickUpPile | None = None
    uses: str = ""  # the cards a take lays from the hand with the top card, e.g. "9 9"
    short: int = 0  # opening points still missing after the take (0: none, or opened)

    @property
    def open(self) -> bool:
        return self.refusal is None

    @property
    def needs(self) -> str:
        """What a take needs, in words: "9 9 from your hand; then 40 more points to open"."""
        if self.refusal is not None:
            return self.refusal.reason
        text = f"{self.uses} from your hand" if self.uses else ""
        if self.short > 0:
            text += f"; then {self.short} more points to open"
        return text


def pile_status(game: Game, seat: int) -> PileStatus:
    """Whether ``seat`` may take the pile now, or would at its draw; the engine's reason if
    not, and what the take would lay and leave owing if so."""
    g = game
    if not g.pile:
        return PileStatus(Refusal("4.1", "the pile is empty"))
    if g.over:
        return PileStatus(Refusal("10.8", "the game is over"))
    trial = g.clone()
    if not (g.seat == seat and g.phase is Phase.DRAW):
        trial.seat = trial.actor = seat
        trial.phase = Phase.DRAW
        trial.took_pile = trial.retracted = False
        trial.staged = 0
        trial.snapshot = None
        trial.minimum = g.opening_minimum(seat % g.rules.teams)
    first: Refusal | None = None
    takes: tuple[TakePile | TakeOnto | PickUpPile, ...] = (
        TakePile(), TakePile(TWO), TakePile(JOKER), *_other_takes(trial))
    for take in takes:
        refusal = trial.refusal(take)
        if refusal is None:
            return _taken(trial, seat, take)
        first = first or refusal
    return PileStatus(first)


def _other_takes(g: Game) -> tuple[TakeOnto | PickUpPile, ...]:
    return tuple(a for a in g.derived.other_takes if isinstance(a, TakeOnto | PickUpPile))


def _taken(trial: Game, seat: int, take: TakePile | TakeOnto | PickUpPile) -> PileStatus:
    """Apply the take to the trial copy and read what it laid and what the opening lacks."""
    events = trial.apply(take)
    uses = ""
    for e in events:
        if isinstance(e, Melded) and e.seat == seat:
            uses = meld_text(e.slot, e.naturals, e.twos, e.jokers)
            break
    short = trial.minimum - trial.staged if trial.phase is Phase.PILE_OPENING else 0
    return PileStatus(None, take, uses, max(0, short))
