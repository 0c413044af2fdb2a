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
from handfoot.events import Event
from handfoot.record import (
    FORMAT,
    VERSION,
    Record,
    Recorder,
    ReplayResult,
    Step,
    record_from_mapping,
    record_to_json,
    replay,
)
from handfoot.rules import Rules


class KeepingError(ValueError):
    """A stored game that does not replay."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """What undo restores: the game as it was and how long its record was."""

    game: Game
    actions: int


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
    """The game of one table and its record."""

    def __init__(self, recorder: Recorder) -> None:
        self._recorder = recorder
        # (round, seat, action) of every action, in order: the stored rows.
        self.actions: list[tuple[int, int, Action]] = [
            (r.round, seat, action) for r in recorder.rounds for seat, action in r.actions]

    @classmethod
    def new(cls, rules: Rules, seed: int, names: list[str], description: str) -> GameKeeper:
        return cls(Recorder.new(rules, seed=seed, names=names, description=description))

    @classmethod
    def rebuild(cls, data: dict[str, Any]) -> tuple[GameKeeper, list[Step]]:
        """The game a stored record mapping describes, replayed; and the replay's steps."""
        try:
            record = record_from_mapping(data)
        except ValueError as err:
            raise KeepingError(f"the stored record does not read: {err}") from None
        result: ReplayResult = replay(record)
        if result.illegal is not None:
            raise KeepingError(f"the stored record does not replay: {result.illegal.message()}")
        names = [s.name for s in record.seats]
        recorder = Recorder(record.new_game(), names, record.description)
        for step in result.steps:
            recorder.apply(step.action, step.seat)
        return cls(recorder), result.steps

    # ------------------------------------------------------------------ reading
    @property
    def game(self) -> Game:
        return self._recorder.game

    @property
    def names(self) -> list[str]:
        return [s.name for s in self._recorder.seats]

    def deals(self) -> list[tuple[int, Deal]]:
        """Every round begun so far with its deal."""
        return [(r.round, r.deal) for r in self._recorder.rounds]

    def record(self) -> Record:
        return self._recorder.record()

    def record_json(self) -> str:
        return record_to_json(self.record())

    # ------------------------------------------------------------------ changing
    def apply(self, seat: int, action: Action) -> Applied:
        """Apply an action the engine has just allowed (``game.refusal`` was None)."""
        begun = len(self._recorder.rounds)
        round_no = self._recorder.rounds[-1].round
        events = self._recorder.apply(action, seat)
        self.actions.append((round_no, seat, action))
        new = [(r.round, r.deal) for r in self._recorder.rounds[begun:]]
        return Applied(seat, round_no, action, events, new)

    def checkpoint(self) -> Checkpoint:
        return Checkpoint(self.game.clone(), len(self.actions))

    def restore(self, point: Checkpoint) -> None:
        """Back to a checkpoint of this turn (undo never crosses a round)."""
        rec = self._recorder
        rec.game = point.game.clone()
        del self.actions[point.actions:]
        kept = point.actions - sum(len(r.actions) for r in rec.rounds[:-1])
        del rec.rounds[-1].actions[kept:]


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
