"""Uniformly random among the legal actions: the floor of the strength ladder."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..views import SeatView


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"random/{seed}")

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return self.rng.choice(legal)
