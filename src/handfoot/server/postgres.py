"""PostgreSQL for a shared host (``--db postgresql://...``), through psycopg 3's asyncio API.

One connection per server process, its statements taken in turn (a lock): tables are pinned
to a process, and one table's statements are already in order.  The schema is created under
an advisory lock, so several processes starting at once do not race on it.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import Any

import psycopg

from .database import StorageError

_SCHEMA_LOCK = 0x68616E64  # an arbitrary number naming handfoot's schema lock
_PLACEHOLDER = re.compile(r"\?")


def _one_line(err: Exception) -> str:
    # psycopg's messages run over several lines (a hint on the second): one line for ours.
    return " ".join(str(err).split())


def _pg(sql: str) -> str:
    # The shared SQL uses SQLite's "?"; psycopg wants "%s" (the SQL holds no literal "?").
    return _PLACEHOLDER.sub("%s", sql)


class PostgresDatabase:
    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._sql: dict[str, str] = {}

    @classmethod
    async def connect(cls, url: str) -> PostgresDatabase:
        try:
            conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
        except psycopg.Error as err:
            raise StorageError(f"PostgreSQL: cannot connect: {_one_line(err)}") from err
        return cls(conn)

    def _text(self, sql: str) -> str:
        text = self._sql.get(sql)
        if text is None:
            text = self._sql[sql] = _pg(sql)
        return text

    async def run(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> int:
        changed = 0
        async with self._lock:
            try:
                async with self._conn.transaction(), self._conn.cursor() as cur:
                    if steps and steps[0][0].lstrip().upper().startswith("CREATE"):
                        await cur.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                    for sql, params in steps:
                        await cur.execute(self._text(sql), tuple(params))
                        changed = cur.rowcount
            except psycopg.Error as err:
                raise StorageError(f"PostgreSQL: {_one_line(err)}") from err
        return changed

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self._lock:
            try:
                cur = await self._conn.execute(self._text(sql), tuple(params))
                return await cur.fetchall()
            except psycopg.Error as err:
                raise StorageError(f"PostgreSQL: {_one_line(err)}") from err

    async def close(self) -> None:
        await self._conn.close()
