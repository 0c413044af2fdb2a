"""Bots at scale: the arena (bots against bots on duplicate deals) and simulations (what a rule
set or a house rule does to the game).  Not part of the pure core: these modules use processes,
clocks and files."""

from .runner import SimError, derive_seed

__all__ = ["SimError", "derive_seed"]
