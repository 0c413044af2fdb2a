"""Where tables and their games are kept: SQLite by default, PostgreSQL for a shared host.

Both speak the same SQL (one schema, ``?`` placeholders turned into ``%s`` for psycopg) through
a two-method ``Database``: ``run`` (statements in one transaction) and ``rows`` (a query).  A
game is stored as the pieces of its record (header, each round's deal, each action), so the
record can be rebuilt and replayed at any moment (keeping.py).  Every applied action is
committed in one transaction with the table's new version before anyone is told of it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from handfoot.files.folder import data_folder

from .database import Database, StorageError
from .sqlite import SQLiteDatabase

if TYPE_CHECKING:
    from .stats import Stats

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS web_tables (
        id TEXT PRIMARY KEY,            -- the table token of the invite link
        host_hash TEXT NOT NULL,        -- SHA-256 of the host token
        name TEXT NOT NULL,
        created TEXT NOT NULL,          -- UTC, ISO 8601
        rules TEXT NOT NULL,            -- the complete rules mapping, JSON
        options TEXT NOT NULL,          -- the table's options, JSON
        status TEXT NOT NULL,           -- lobby, playing, over
        game INTEGER NOT NULL,          -- the current game's number (0 before the first)
        version BIGINT NOT NULL         -- every applied action and undo adds one
    )""",
    "CREATE INDEX IF NOT EXISTS web_tables_host ON web_tables (host_hash)",
    """CREATE TABLE IF NOT EXISTS web_seats (
        table_id TEXT NOT NULL REFERENCES web_tables (id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        token_hash TEXT,                -- SHA-256 of the seat token; NULL: no person
        bot TEXT NOT NULL,              -- the bot level for this seat
        PRIMARY KEY (table_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS web_games (
        table_id TEXT NOT NULL REFERENCES web_tables (id),
        game INTEGER NOT NULL,
        header TEXT NOT NULL,           -- the record's header (all but its rounds), JSON
        started TEXT NOT NULL,
        ended TEXT,
        PRIMARY KEY (table_id, game)
    )""",
    """CREATE TABLE IF NOT EXISTS web_rounds (
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        round INTEGER NOT NULL,
        deal TEXT NOT NULL,             -- the round's deal as the record writes it, JSON
        PRIMARY KEY (table_id, game, round)
    )""",
    """CREATE TABLE IF NOT EXISTS web_actions (
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        seq INTEGER NOT NULL,           -- position in the game, from 0
        round INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,           -- the action's text form
        version BIGINT NOT NULL,        -- the table version this action made
        driver TEXT NOT NULL,           -- person or bot
        PRIMARY KEY (table_id, game, seq)
    )""",
    # Web Push (push.py): a seat's browsers to tell of its turn, each with the hash of the
    # seat token it was given with (a seat that changes hands is not told for its old owner).
    """CREATE TABLE IF NOT EXISTS web_push (
        table_id TEXT NOT NULL REFERENCES web_tables (id),
        seat INTEGER NOT NULL,
        token_hash TEXT NOT NULL,       -- SHA-256 of the seat token it was given with
        endpoint TEXT NOT NULL,         -- the push service's address for one browser
        subscription TEXT NOT NULL,     -- {endpoint, keys: {p256dh, auth}}, JSON
        created TEXT NOT NULL,
        PRIMARY KEY (table_id, seat, endpoint)
    )""",
    """CREATE TABLE IF NOT EXISTS web_activity (
        table_id TEXT PRIMARY KEY REFERENCES web_tables (id),
        last_move TEXT NOT NULL         -- UTC, ISO 8601: the table's last published move
    )""",
    # Whose turn it is and since when (pace.py): written with the action that began the turn,
    # in its transaction, so a turn limit outlives a restart of the server.
    """CREATE TABLE IF NOT EXISTS web_turns (
        table_id TEXT PRIMARY KEY REFERENCES web_tables (id),
        game INTEGER NOT NULL,
        turn TEXT NOT NULL,             -- round, turn number and seat to act: "3.41.2"
        seat INTEGER NOT NULL,          -- the seat to act
        since TEXT NOT NULL             -- UTC, ISO 8601: when that seat was asked to act
    )""",
)


def default_path() -> Path:
    """``tables.sqlite3`` in handfoot's data folder, beside the scorekeeper's score file."""
    return data_folder() / "tables.sqlite3"


def describe_target(target: str | None) -> str:
    """The database in words, with any password left out."""
    if target and target.startswith(("postgresql://", "postgres://")):
        from urllib.parse import urlsplit

        parts = urlsplit(target)
        host = parts.hostname or "local socket"
        return f"PostgreSQL {parts.path.lstrip('/') or '(default)'} on {host}"
    return f"SQLite {target or default_path()}"


async def open_database(target: str | None) -> Database:
    if target and target.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresDatabase

        return await PostgresDatabase.connect(target)
    path = Path(target) if target else default_path()
    try:
        return SQLiteDatabase(path)
    except (sqlite3.Error, OSError) as err:
        raise StorageError(f"cannot open {path}: {err}") from err


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(slots=True)
class SeatRow:
    seat: int
    name: str
    token_hash: str | None
    bot: str


@dataclass(slots=True)
class TableRow:
    id: str
    host_hash: str
    name: str
    created: str
    rules: dict[str, Any]
    options: dict[str, Any]
    status: str
    game: int
    version: int


@dataclass(slots=True)
class ActionRow:
    seq: int
    round: int
    seat: int
    action: str
    version: int
    driver: str


@dataclass(slots=True)
class StoredGame:
    header: dict[str, Any]
    deals: list[tuple[int, dict[str, Any]]]
    actions: list[ActionRow] = field(default_factory=list)
    ended: str | None = None


@dataclass(slots=True)
class TurnRow:
    """Whose turn it is: ``turn`` names it (round, turn number, seat to act)."""

    game: int
    turn: str
    seat: int
    since: str


@dataclass(slots=True)
class StoredTable:
    row: TableRow
    seats: list[SeatRow]
    game: StoredGame | None
    turn: TurnRow | None = None


def turn_step(table_id: str, turn: TurnRow) -> tuple[str, Sequence[Any]]:
    """The statement that notes a new turn (one step of the action's transaction)."""
    return ("INSERT INTO web_turns (table_id, game, turn, seat, since) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET game = excluded.game, turn = excluded.turn,"
            " seat = excluded.seat, since = excluded.since",
            (table_id, turn.game, turn.turn, turn.seat, turn.since))


class Storage:
    """The server's questions and changes, as SQL over either database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.stats: Stats | None = None  # where commit times are noted, when serving

    @classmethod
    async def open(cls, target: str | None) -> Storage:
        db = await open_database(target)
        storage = cls(db)
        await db.run([(sql, ()) for sql in SCHEMA])
        return storage

    async def close(self) -> None:
        await self.db.close()

    # ------------------------------------------------------------------ tables
    async def create_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        steps: list[tuple[str, Sequence[Any]]] = [(
            "INSERT INTO web_tables (id, host_hash, name, created, rules, options, status, game,"
            " version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row.id, row.host_hash, row.name, row.created or _now(), json.dumps(row.rules),
             json.dumps(row.options), row.status, row.game, row.version))]
        steps += [("INSERT INTO web_seats (table_id, seat, name, token_hash, bot)"
                   " VALUES (?, ?, ?, ?, ?)", (row.id, s.seat, s.name, s.token_hash, s.bot))
                  for s in seats]
        await self.db.run(steps)

    async def load(self, table_id: str) -> StoredTable | None:
        found = await self.db.rows(
            "SELECT id, host_hash, name, created, rules, options, status, game, version"
            " FROM web_tables WHERE id = ?", (table_id,))
        if not found:
            return None
        r = found[0]
        row = TableRow(r[0], r[1], r[2], r[3], json.loads(r[4]), json.loads(r[5]), r[6],
                       int(r[7]), int(r[8]))
        seats = [SeatRow(int(s[0]), s[1], s[2], s[3]) for s in await self.db.rows(
            "SELECT seat, name, token_hash, bot FROM web_seats WHERE table_id = ?"
            " ORDER BY seat", (table_id,))]
        game = await self.game(table_id, row.game) if row.game else None
        return StoredTable(row, seats, game, await self.turn(table_id))

    async def turn(self, table_id: str) -> TurnRow | None:
        found = await self.db.rows(
            "SELECT game, turn, seat, since FROM web_turns WHERE table_id = ?", (table_id,))
        return TurnRow(int(found[0][0]), found[0][1], int(found[0][2]), found[0][3]) \
            if found else None

    async def turns_in_play(self) -> list[tuple[str, dict[str, Any], TurnRow, bool]]:
        """Every table in play with its options, its turn, and whether a person holds the
        seat to act: what a starting server arms its turn limits from (pace.py)."""
        rows = await self.db.rows(
            "SELECT t.id, t.options, w.game, w.turn, w.seat, w.since, s.token_hash"
            " FROM web_tables t JOIN web_turns w ON w.table_id = t.id AND w.game = t.game"
            " JOIN web_seats s ON s.table_id = t.id AND s.seat = w.seat"
            " WHERE t.status = 'playing' ORDER BY w.since, t.id")
        return [(r[0], json.loads(r[1]), TurnRow(int(r[2]), r[3], int(r[4]), r[5]),
                 r[6] is not None) for r in rows]

    async def game(self, table_id: str, game: int) -> StoredGame | None:
        head = await self.db.rows(
            "SELECT header, ended FROM web_games WHERE table_id = ? AND game = ?",
            (table_id, game))
        if not head:
            return None
        deals = [(int(r[0]), json.loads(r[1])) for r in await self.db.rows(
            "SELECT round, deal FROM web_rounds WHERE table_id = ? AND game = ? ORDER BY round",
            (table_id, game))]
        actions = [ActionRow(int(r[0]), int(r[1]), int(r[2]), r[3], int(r[4]), r[5])
                   for r in await self.db.rows(
                       "SELECT seq, round, seat, action, version, driver FROM web_actions"
                       " WHERE table_id = ? AND game = ? ORDER BY seq", (table_id, game))]
        return StoredGame(json.loads(head[0][0]), deals, actions, head[0][1])

    async def host_tables(self, host_hash: str) -> list[dict[str, Any]]:
        rows = await self.db.rows(
            "SELECT id FROM web_tables WHERE host_hash = ? ORDER BY created DESC, id",
            (host_hash,))
        out = []
        for (table_id,) in rows:
            summary = await self.summary(table_id)
            if summary is not None:
                out.append(summary)
        return out

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        found = await self.db.rows(
            "SELECT id, name, status, game, created, rules, version FROM web_tables"
            " WHERE id = ?", (table_id,))
        if not found:
            return None
        r = found[0]
        rules = json.loads(r[5])
        names = [s[0] for s in await self.db.rows(
            "SELECT name FROM web_seats WHERE table_id = ? ORDER BY seat", (table_id,))]
        return {"table": r[0], "name": r[1], "status": r[2], "game": int(r[3]),
                "created": r[4], "rules": rules.get("name", ""),
                "players": rules.get("players"), "version": int(r[6]), "seats": names}

    # ------------------------------------------------------------------ changes
    async def set_seat(self, table_id: str, seat: int, name: str,
                       token_hash: str | None) -> None:
        await self.db.run([("UPDATE web_seats SET name = ?, token_hash = ?"
                            " WHERE table_id = ? AND seat = ?",
                            (name, token_hash, table_id, seat))])

    async def set_options(self, table_id: str, options: dict[str, Any],
                          bots: list[str] | None) -> None:
        steps: list[tuple[str, Sequence[Any]]] = [
            ("UPDATE web_tables SET options = ? WHERE id = ?", (json.dumps(options), table_id))]
        if bots is not None:
            steps += [("UPDATE web_seats SET bot = ? WHERE table_id = ? AND seat = ?",
                       (level, table_id, seat)) for seat, level in enumerate(bots)]
        await self.db.run(steps)

    async def start_game(self, table_id: str, game: int, header: dict[str, Any],
                         deals: list[tuple[int, dict[str, Any]]], version: int,
                         seat_names: list[str], turn: TurnRow | None = None) -> None:
        steps: list[tuple[str, Sequence[Any]]] = [
            ("INSERT INTO web_games (table_id, game, header, started) VALUES (?, ?, ?, ?)",
             (table_id, game, json.dumps(header), _now()))]
        steps += [("INSERT INTO web_rounds (table_id, game, round, deal) VALUES (?, ?, ?, ?)",
                   (table_id, game, r, json.dumps(deal))) for r, deal in deals]
        steps += [("UPDATE web_seats SET name = ? WHERE table_id = ? AND seat = ?",
                   (name, table_id, seat)) for seat, name in enumerate(seat_names)]
        steps.append(("UPDATE web_tables SET status = 'playing', game = ?, version = ?"
                      " WHERE id = ?", (game, version, table_id)))
        if turn is not None:
            steps.append(turn_step(table_id, turn))
        await self.db.run(steps)

    async def append(self, table_id: str, game: int, row: ActionRow,
                     deals: list[tuple[int, dict[str, Any]]], over: bool,
                     turn: TurnRow | None = None) -> None:
        started = time.perf_counter()
        await self._append(table_id, game, row, deals, over, turn)
        if self.stats is not None:
            self.stats.commits.append(time.perf_counter() - started)

    async def _append(self, table_id: str, game: int, row: ActionRow,
                      deals: list[tuple[int, dict[str, Any]]], over: bool,
                      turn: TurnRow | None) -> None:
        """One applied action, the deals of the rounds it began, the table's new version and
        status, and the new turn if it began one: one transaction."""
        steps: list[tuple[str, Sequence[Any]]] = [(
            "INSERT INTO web_actions (table_id, game, seq, round, seat, action, version, driver)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, game, row.seq, row.round, row.seat, row.action, row.version, row.driver))]
        steps += [("INSERT INTO web_rounds (table_id, game, round, deal) VALUES (?, ?, ?, ?)",
                   (table_id, game, r, json.dumps(deal))) for r, deal in deals]
        if over:
            steps.append(("UPDATE web_games SET ended = ? WHERE table_id = ? AND game = ?",
                          (_now(), table_id, game)))
            steps.append(("UPDATE web_tables SET version = ?, status = 'over' WHERE id = ?",
                          (row.version, table_id)))
        else:
            steps.append(("UPDATE web_tables SET version = ? WHERE id = ?",
                          (row.version, table_id)))
        if turn is not None:
            steps.append(turn_step(table_id, turn))
        await self.db.run(steps)

    async def truncate(self, table_id: str, game: int, seq: int, version: int) -> None:
        """Undo: the game's actions from ``seq`` on leave the record."""
        await self.db.run([
            ("DELETE FROM web_actions WHERE table_id = ? AND game = ? AND seq >= ?",
             (table_id, game, seq)),
            ("UPDATE web_tables SET version = ? WHERE id = ?", (version, table_id)),
        ])

