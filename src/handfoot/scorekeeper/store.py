"""Kept games in an SQLite file: games, each team's round entries, and an append-only table of
every change made to them."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from handfoot.rules import Rules

from . import ScoreError
from .edit import changes
from .entry import Seating, check_round
from .game import KeptGame

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    rules TEXT NOT NULL,          -- the complete rules mapping, JSON
    base TEXT,                    -- the preset the rules were built on, if any
    teams TEXT NOT NULL,          -- JSON list of team names
    players TEXT NOT NULL         -- JSON list of lists of player names
);
CREATE TABLE IF NOT EXISTS entries (
    game INTEGER NOT NULL REFERENCES games(id),
    round INTEGER NOT NULL,
    team INTEGER NOT NULL,        -- 0-based, in the order the teams were named
    entry TEXT NOT NULL,          -- the team's entry for the round, JSON
    PRIMARY KEY (game, round, team)
);
CREATE TABLE IF NOT EXISTS edits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL REFERENCES games(id),
    round INTEGER NOT NULL,
    team INTEGER NOT NULL,
    at TEXT NOT NULL,             -- UTC, ISO 8601
    field TEXT NOT NULL,
    old TEXT,                     -- JSON, NULL when the round was first entered
    new TEXT,
    note TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS edits_no_update BEFORE UPDATE ON edits
BEGIN SELECT RAISE(ABORT, 'the edit history is append-only'); END;
CREATE TRIGGER IF NOT EXISTS edits_no_delete BEFORE DELETE ON edits
BEGIN SELECT RAISE(ABORT, 'the edit history is append-only'); END;
"""


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/handfoot/scores.sqlite3``, by default under ~/.local/share."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "handfoot" / "scores.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    def __init__(self, path: Path, clock: Callable[[], str] = _now) -> None:
        self.path = path
        self.clock = clock
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(path)
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as err:
            raise ScoreError(f"{path}: not a handfoot score file ({err})") from None

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self.db:
            yield self.db

    # -------------------------------------------------------------- games
    def create(self, name: str, rules: Rules, base: str | None, seating: Seating) -> KeptGame:
        created = self.clock()
        with self._transaction() as db:
            cur = db.execute(
                "INSERT INTO games (name, created, rules, base, teams, players) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, created, json.dumps(rules.to_mapping()), base,
                 json.dumps(list(seating.teams)),
                 json.dumps([list(p) for p in seating.players])))
            game_id = int(cur.lastrowid or 0)
            if not name:
                name = f"game {game_id}"
                db.execute("UPDATE games SET name = ? WHERE id = ?", (name, game_id))
        return KeptGame(game_id, name, created, rules, base, seating)

    def games(self) -> list[tuple[int, str, str, str]]:
        """(id, name, created, teams) of every game, oldest first."""
        rows = self.db.execute("SELECT id, name, created, teams FROM games ORDER BY id")
        return [(i, n, c, " vs ".join(json.loads(t))) for i, n, c, t in rows]

    def find(self, ref: str) -> int:
        """A game's id from its number or its name."""
        text = ref.strip()
        if text.isdigit():
            row = self.db.execute("SELECT id FROM games WHERE id = ?", (int(text),)).fetchone()
        else:
            row = self.db.execute("SELECT id FROM games WHERE lower(name) = lower(?) "
                                  "ORDER BY id DESC", (text,)).fetchone()
        if row is None:
            count = self.db.execute("SELECT count(*) FROM games").fetchone()[0]
            hint = "`handfoot score list` shows them" if count else \
                "start one with `handfoot score new`"
            raise ScoreError(f"no kept game {ref!r} in {self.path} ({hint})")
        return int(row[0])

    def load(self, ref: str) -> KeptGame:
        game_id = self.find(ref)
        name, created, rules, base, teams, players = self.db.execute(
            "SELECT name, created, rules, base, teams, players FROM games WHERE id = ?",
            (game_id,)).fetchone()
        seating = Seating(tuple(json.loads(teams)),
                          tuple(tuple(p) for p in json.loads(players)))
        game = KeptGame(game_id, name, created, Rules.from_mapping(json.loads(rules)), base,
                        seating)
        for r, _team, entry in self.db.execute(
                "SELECT round, team, entry FROM entries WHERE game = ? ORDER BY round, team",
                (game_id,)):
            game.rounds.setdefault(r, []).append(json.loads(entry))
        return game

    # -------------------------------------------------------------- rounds
    def add_round(self, game: KeptGame, round_no: int | None,
                  entries: list[dict[str, Any]]) -> int:
        """Store a checked round; returns its number."""
        nxt = game.next_round
        r = nxt if round_no is None else round_no
        if r in game.rounds:
            raise ScoreError(f"round {r} of {game.name} is already entered; change it with "
                             f"`handfoot score edit {game.id} {r} TEAM --set FIELD=VALUE`")
        if r != nxt:
            raise ScoreError(f"round {r}: the next round to enter is {nxt}")
        if r > game.rules.rounds:
            raise ScoreError(f"{game.name} is over: these rules play {game.rules.rounds} "
                             "rounds (rules: rounds)")
        check_round(game.rules, game.seating, entries, r)
        at = self.clock()
        with self._transaction() as db:
            for team, entry in enumerate(entries):
                db.execute("INSERT INTO entries (game, round, team, entry) VALUES (?, ?, ?, ?)",
                           (game.id, r, team, json.dumps(entry)))
                db.execute("INSERT INTO edits (game, round, team, at, field, old, new, note) "
                           "VALUES (?, ?, ?, ?, ?, NULL, ?, ?)",
                           (game.id, r, team, at, "*", json.dumps(entry), "round entered"))
        game.rounds[r] = entries
        return r

    def replace_entry(self, game: KeptGame, round_no: int, team: int,
                      new: dict[str, Any], note: str = "edit") -> list[tuple[str, Any, Any]]:
        """Store a changed entry after checking the whole round again; every changed field is
        appended to the history.  Returns the changes."""
        if round_no not in game.rounds:
            entered = ", ".join(map(str, sorted(game.rounds))) or "none yet"
            raise ScoreError(f"round {round_no} of {game.name} is not entered "
                             f"(rounds entered: {entered})")
        entries = [dict(e) for e in game.rounds[round_no]]
        old = entries[team]
        entries[team] = new
        check_round(game.rules, game.seating, entries, round_no)
        diff = changes(game.seating, team, old, new)
        if not diff:
            return []
        at = self.clock()
        with self._transaction() as db:
            db.execute("UPDATE entries SET entry = ? WHERE game = ? AND round = ? AND team = ?",
                       (json.dumps(new), game.id, round_no, team))
            for field, before, after in diff:
                db.execute("INSERT INTO edits (game, round, team, at, field, old, new, note) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (game.id, round_no, team, at, field, json.dumps(before),
                            json.dumps(after), note))
        game.rounds[round_no] = entries
        return diff

    def history(self, game: KeptGame) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT id, round, team, at, field, old, new, note FROM edits WHERE game = ? "
            "ORDER BY id", (game.id,))
        return [{
            "id": i, "round": r, "team": game.seating.teams[t], "at": at, "field": f,
            "old": json.loads(o) if o is not None else None,
            "new": json.loads(n) if n is not None else None, "note": note,
        } for i, r, t, at, f, o, n, note in rows]
