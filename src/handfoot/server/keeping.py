"""A table's game and its record, kept together: the server's one contact with the record API.

The stored form of a game is a record (docs/RECORD-FORMAT.md) written a piece at a time: its
header when the game starts, each round's deal when the round begins, each action as it is
applied.  ``record_mapping`` puts the pieces back together and ``GameKeeper.rebuild`` replays
them with ``handfoot.record.replay``, the same path as ``handfoot replay``, so a stored game is
also its own backup and its export.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from handfoot.actions import Action
from handfoot.deal import Deal
from handfoot.engine import Game
from handfoot.errors import HandfootError
from handfoot.events import Event
from handfoot.record import (
    FORMAT,
    VERSION,
    Record,
    Step,
    record_from_mapping,
    record_to_json,
    replay,
)
from handfoot.rules import Rules
from handfoot.undo import TurnUndo


class KeepingError(HandfootError):
    """A stored game that does not replay."""


@dataclass(frozen=True, slots=True)
class Applied:
    """One applied action: who took it, in which round, what happened, and the deals of any
    rounds it began (to be stored with it)."""

    seat: int
    round: int
    action: Action
    events: list[Event]
    new_deals: list[tuple[int, Deal]]


class GameKeeper:
    """The game of one table, its seats' names and its description: all a record needs (the
    game keeps its own deals and, for an export, its history).

    A table's live game keeps no history: the database holds the record, and a history of
    hundreds of actions per table is memory the server's collector would walk for nothing."""

    def __init__(self, game: Game, names: list[str], description: str) -> None:
        self.game = game
        self.undo = TurnUndo()  # a person's steps of this turn that may be taken back
        self.names = list(names)
        self.description = description

    @classmethod
    def new(cls, rules: Rules, seed: int, names: list[str], description: str) -> GameKeeper:
        return cls(Game.new(rules, seed=seed, history=False), names, description)

    @classmethod
    def rebuild(cls, data: dict[str, Any],
                history: bool = False) -> tuple[GameKeeper, list[Step]]:
        """The game a stored record mapping describes, replayed; and the replay's steps.
        ``history``: keep the game's history (to write its record out)."""
        try:
            record = record_from_mapping(data)
        except ValueError as err:
            raise KeepingError(f"the stored record does not read: {err}") from None
        result = replay(record)
        if result.illegal is not None:
            raise KeepingError(f"the stored record does not replay: {result.illegal.message()}")
        game = result.game if history else result.game.clone()
        return cls(game, [s.name for s in record.seats], record.description), result.steps

    # ------------------------------------------------------------------ reading
    @property
    def actions(self) -> int:
        """How many actions the game has applied (its record's length)."""
        return self.game.version

    def deals(self) -> list[tuple[int, Deal]]:
        """Every round begun so far with its deal."""
        g = self.game
        return [(g.first_round + i, deal) for i, deal in enumerate(g.round_deals)]

    def record(self) -> Record:
        return Record.from_game(self.game, self.names, self.description)

    def record_json(self) -> str:
        return record_to_json(self.record())

    # ------------------------------------------------------------------ changing
    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` has a step of this turn it may take back."""
        return self.undo.can_undo and self.undo.seat == seat

    def apply(self, seat: int, action: Action, undoable: bool = False) -> Applied:
        """Apply an action the engine has just allowed (``game.refusal`` was None).
        ``undoable``: a person's step, which they may take back until it teaches them
        something; any other step (a bot's) ends what may be taken back."""
        g = self.game
        begun = len(g.round_deals)
        round_no = g.round_no
        if undoable:
            events = self.undo.step(g, action, seat)
        else:
            self.undo.clear()
            events = g.apply(action, seat)
        new = [(g.first_round + i, deal) for i, deal in enumerate(g.round_deals)][begun:]
        return Applied(seat, round_no, action, events, new)

    def restore(self, before: Game) -> int:
        """Back to a game ``self.undo.undo()`` gave (undo never crosses a round); the number
        of actions taken back."""
        steps = self.actions - before.version
        self.game = before
        return steps


def header_mapping(rules: Rules, seed: int, names: list[str], teams: list[int],
                   description: str) -> dict[str, Any]:
    """A record's header: everything but its rounds."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "description": description,
        "rules": rules.to_mapping(),
        "seed": seed,
        "first_dealer": 0,
        "first_round": 1,
        "seats": [({"name": n} if n else {}) | {"team": t}
                  for n, t in zip(names, teams, strict=True)],
    }


def record_mapping(header: dict[str, Any], deals: list[tuple[int, dict[str, Any]]],
                   actions: list[tuple[int, int, str]]) -> dict[str, Any]:
    """A record mapping (results left out: replay computes them) from the stored pieces:
    (round, deal mapping) and (round, seat, action text) in order."""
    by_round: dict[int, list[list[Any]]] = {r: [] for r, _ in deals}
    for r, seat, text in actions:
        if r not in by_round:
            raise KeepingError(f"an action of round {r}, which has no stored deal")
        by_round[r].append([seat, text])
    rounds = [{"round": r, "deal": deal, "actions": by_round[r]}
              for r, deal in sorted(deals, key=lambda d: d[0])]
    return {**header, "rounds": rounds}


def export_json(header: dict[str, Any], deals: list[tuple[int, dict[str, Any]]],
                actions: list[tuple[int, int, str]]) -> str:
    """A stored game's record as ``handfoot replay`` reads it: replayed, results included."""
    keeper, _ = GameKeeper.rebuild(record_mapping(header, deals, actions), history=True)
    return keeper.record_json()
