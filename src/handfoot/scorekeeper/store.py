"""Kept games in an SQLite file: games, each team's round entries, and an append-only table of
every change made to them."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from handfoot.files.folder import data_folder
from handfoot.rules import Rules

from . import ScoreError
from .edit import changes
from .entry import Seating, check_round
from .game import KeptGame
from .names import shown, whole_number

T = TypeVar("T")

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


# Marks a handfoot score file (PRAGMA application_id: "HFsk"), so that another program's
# SQLite file is never mistaken for one, nor given our tables.
APPLICATION_ID = 0x48467368
TABLES = frozenset({"games", "entries", "edits"})
# Each try at a lock waits this long inside SQLite before we say so and try again.
BUSY_SECONDS = 0.5
# How long a command waits for a score file that another program is writing.
DEFAULT_WAIT = 5.0


class ScoreFileBusy(ScoreError):
    """The score file is locked by another program (or cannot be written): nothing was saved,
    and whatever was typed must be kept elsewhere."""


def default_db_path() -> Path:
    """``scores.sqlite3`` in handfoot's data folder ($XDG_DATA_HOME/handfoot on Linux)."""
    return data_folder() / "scores.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _busy(err: sqlite3.Error) -> bool:
    text = str(err).lower()
    return "locked" in text or "busy" in text


class Store:
    """A score file.  Reading needs no lock (the file is in write-ahead-log mode, so ``list``
    and ``show`` work while another program writes); a write that finds the file locked waits
    up to ``wait`` seconds, telling ``on_wait`` once, then gives up with :class:`ScoreFileBusy`.
    """

    def __init__(self, path: Path, clock: Callable[[], str] = _now, wait: float = DEFAULT_WAIT,
                 on_wait: Callable[[str], None] | None = None) -> None:
        self.path = path
        self.clock = clock
        self.wait = wait
        self.on_wait = on_wait
        if path.is_dir():
            raise ScoreError(f"{path}: is a folder, not a score file; give a file with --db")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ScoreError(f"cannot make the folder of the score file {path}: "
                             f"{err.strerror or err}") from None
        try:
            # Autocommit: every write is an explicit BEGIN IMMEDIATE ... COMMIT (_write).
            self.db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as err:
            raise ScoreError(f"cannot open the score file {path}: {err}") from None
        try:
            self._open()
        except BaseException:
            self.db.close()
            raise

    def _open(self) -> None:
        app, tables = self._read(self._identity)
        if app not in (0, APPLICATION_ID):
            raise ScoreError(f"{self.path}: an SQLite file of another program (application id "
                             f"{app:#x}), not a handfoot score file; give another --db")
        tables = {t for t in tables if not t.startswith("sqlite_")}  # SQLite's own
        ours = tables >= TABLES and not tables - TABLES
        if tables and not ours:
            listed = ", ".join(sorted(tables)[:5])
            raise ScoreError(f"{self.path}: another SQLite database (tables: {listed}), not a "
                             "handfoot score file; it was left as it was: give another --db")
        if not tables:
            self._write(self._create)
        elif app == 0 or self._journal() != "wal":
            # A score file from before the mark and the log: add them when the file is free.
            with contextlib.suppress(ScoreFileBusy):
                self._write(self._mark, wait=0.0)

    def _identity(self) -> tuple[int, set[str]]:
        app = int(self.db.execute("PRAGMA application_id").fetchone()[0])
        tables = {r[0] for r in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        return app, tables

    def _journal(self) -> str:
        return str(self.db.execute("PRAGMA journal_mode").fetchone()[0]).lower()

    def _create(self, db: sqlite3.Connection) -> None:
        for statement in SCHEMA.split(";\n"):
            if statement.strip():
                db.execute(statement)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    def _mark(self, db: sqlite3.Connection) -> None:
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    def close(self) -> None:
        self.db.close()

    # -------------------------------------------------------------- locks
    def _read(self, work: Callable[[], T]) -> T:
        """A read, tried again while another program holds the file (only a file not yet in
        write-ahead-log mode blocks readers)."""
        deadline = time.monotonic() + self.wait
        told = False
        while True:
            try:
                return work()
            except sqlite3.DatabaseError as err:
                if not _busy(err):
                    raise ScoreError(f"{self.path}: not a handfoot score file ({err})") \
                        from None
                if time.monotonic() >= deadline:
                    raise ScoreFileBusy(self._locked_text(writing=False)) from None
                told = self._tell(told)

    def _write(self, work: Callable[[sqlite3.Connection], T], wait: float | None = None) -> T:
        """``work`` in one transaction, holding the write lock; waits for another program's
        lock up to ``wait`` seconds (default: the store's)."""
        deadline = time.monotonic() + (self.wait if wait is None else wait)
        told = False
        while True:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError as err:
                if not _busy(err):
                    raise ScoreFileBusy(self._unwritable_text(err)) from None
                if time.monotonic() >= deadline:
                    raise ScoreFileBusy(self._locked_text()) from None
                told = self._tell(told)
        try:
            result = work(self.db)
            self.db.execute("COMMIT")
        except sqlite3.Error as err:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            if _busy(err):
                raise ScoreFileBusy(self._locked_text()) from None
            raise ScoreFileBusy(self._unwritable_text(err)) from None
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        if self._journal() != "wal":
            # Outside any transaction: readers then never wait for a writer.
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("PRAGMA journal_mode = WAL")
        return result

    def _tell(self, told: bool) -> bool:
        if not told and self.on_wait is not None and self.wait > 0:
            self.on_wait(f"{self.path} is locked by another program (another `handfoot "
                         f"score`?); waiting up to {self.wait:g} s for it")
        time.sleep(0.05)
        return True

    def _locked_text(self, writing: bool = True) -> str:
        then = "nothing was saved" if writing else "try again when it is done"
        return (f"{self.path} is locked: another program is writing to it (another `handfoot "
                f"score`?); {then}")

    def _unwritable_text(self, err: sqlite3.Error) -> str:
        return f"cannot write to the score file {self.path} ({err}); nothing was saved"

    # -------------------------------------------------------------- games
    def create(self, name: str, rules: Rules, base: str | None, seating: Seating) -> KeptGame:
        created = self.clock()

        def work(db: sqlite3.Connection) -> tuple[int, str]:
            cur = db.execute(
                "INSERT INTO games (name, created, rules, base, teams, players) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, created, json.dumps(rules.to_mapping()), base,
                 json.dumps(list(seating.teams)),
                 json.dumps([list(p) for p in seating.players])))
            game_id = int(cur.lastrowid or 0)
            shown = name or f"game {game_id}"
            if not name:
                db.execute("UPDATE games SET name = ? WHERE id = ?", (shown, game_id))
            return game_id, shown

        game_id, shown = self._write(work)
        return KeptGame(game_id, shown, created, rules, base, seating)

    def games(self) -> list[tuple[int, str, str, str]]:
        """(id, name, created, teams) of every game, oldest first."""
        rows = self._read(lambda: self.db.execute(
            "SELECT id, name, created, teams FROM games ORDER BY id").fetchall())
        return [(i, n, c, " vs ".join(json.loads(t))) for i, n, c, t in rows]

    def find(self, ref: str) -> int:
        """A game's id from its number or its name."""
        return self._read(lambda: self._find(ref))

    def _find(self, ref: str) -> int:
        text = ref.strip()
        number = whole_number(text, "kept game")
        if number is not None:
            row = self.db.execute("SELECT id FROM games WHERE id = ?", (number,)).fetchone()
        else:
            row = self.db.execute("SELECT id FROM games WHERE lower(name) = lower(?) "
                                  "ORDER BY id DESC", (text,)).fetchone()
        if row is None:
            count = self.db.execute("SELECT count(*) FROM games").fetchone()[0]
            hint = "`handfoot score list` shows them" if count else \
                "start one with `handfoot score new`"
            raise ScoreError(f"no kept game {shown(ref)!r} in {self.path} ({hint})")
        return int(row[0])

    def load(self, ref: str) -> KeptGame:
        return self._read(lambda: self._load(ref))

    def _load(self, ref: str) -> KeptGame:
        game_id = self._find(ref)
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

        def work(db: sqlite3.Connection) -> None:
            # Another program may have entered the round while this one was being typed.
            done = db.execute("SELECT count(*) FROM entries WHERE game = ? AND round = ?",
                              (game.id, r)).fetchone()[0]
            if done:
                raise ScoreError(f"round {r} of {game.name} was entered meanwhile by another "
                                 f"program; see `handfoot score show {game.id}`")
            for team, entry in enumerate(entries):
                db.execute("INSERT INTO entries (game, round, team, entry) VALUES (?, ?, ?, ?)",
                           (game.id, r, team, json.dumps(entry)))
                db.execute("INSERT INTO edits (game, round, team, at, field, old, new, note) "
                           "VALUES (?, ?, ?, ?, ?, NULL, ?, ?)",
                           (game.id, r, team, at, "*", json.dumps(entry), "round entered"))

        self._write(work)
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

        def work(db: sqlite3.Connection) -> None:
            db.execute("UPDATE entries SET entry = ? WHERE game = ? AND round = ? AND team = ?",
                       (json.dumps(new), game.id, round_no, team))
            for field, before, after in diff:
                db.execute("INSERT INTO edits (game, round, team, at, field, old, new, note) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (game.id, round_no, team, at, field, json.dumps(before),
                            json.dumps(after), note))

        self._write(work)
        game.rounds[round_no] = entries
        return diff

    def history(self, game: KeptGame) -> list[dict[str, Any]]:
        rows = self._read(lambda: self.db.execute(
            "SELECT id, round, team, at, field, old, new, note FROM edits WHERE game = ? "
            "ORDER BY id", (game.id,)).fetchall())
        return [{
            "id": i, "round": r, "team": game.seating.teams[t], "at": at, "field": f,
            "old": json.loads(o) if o is not None else None,
            "new": json.loads(n) if n is not None else None, "note": note,
        } for i, r, t, at, f, o, n, note in rows]
