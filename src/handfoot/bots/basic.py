"""Melds whatever it can, takes the pile when it may, discards its least useful card."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import (
    Action,
    Add,
    Answer,
    Ask,
    BlackThreeBook,
    Discard,
    Draw,
    Knock,
    PickUpPile,
    Retract,
    Start,
    Stop,
    TakeOnto,
    TakePile,
)
from ..cards import BLACK_THREE, JOKER, RED_THREE, TWO
from ..state import Phase
from ..views import SeatView
from .knowledge import can_go_out_now, derived, quota_met


class BasicBot:
    name = "basic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"basic/{seed}")

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        v = view
        if v.phase is Phase.ANSWER:
            return Answer(True) if Answer(True) in legal else legal[0]
        if v.phase is Phase.DRAW:
            takes = [a for a in legal if isinstance(a, TakePile | TakeOnto | PickUpPile)]
            if takes:
                return takes[0]
            return next(a for a in legal if isinstance(a, Draw | Stop))
        books = [a for a in legal if isinstance(a, BlackThreeBook)]
        if books:
            return books[0]
        melds = [a for a in legal if isinstance(a, Start | Add)]
        natural = [a for a in melds if (isinstance(a, Start) and a.naturals == 3)
                   or (isinstance(a, Add) and a.kind not in (TWO, JOKER))]
        if natural:
            return self.rng.choice(natural)
        if melds:
            return self.rng.choice(melds)
        if Ask() in legal and quota_met(v, v.team) and can_go_out_now(v):
            return Ask()
        if Retract() in legal:
            return Retract()
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            values = derived(v).values
            hand = v.hand

            def keep(a: Discard) -> tuple[bool, bool, int]:
                k = a.kind
                return (k not in (BLACK_THREE, RED_THREE), k in (TWO, JOKER),
                        hand[k] * 100 + values[k])

            return min(discards, key=keep)
        if Knock() in legal:
            return Knock()
        return legal[0]
