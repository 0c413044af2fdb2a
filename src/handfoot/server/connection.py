"""One websocket: reads messages, checks them (size, rate, schema), hands each to its route
(``ROUTES``: the message's type to the function that handles it), and writes what the table
sends through a queue so a slow reader never holds a table up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import lobby
from . import protocol as p
from .messages import dumps, error
from .table import Table, TableClosed

log = logging.getLogger("handfoot.server")

SEND_QUEUE = 1024  # messages waiting to be written before the client counts as gone


class Bucket:
    """A token bucket: ``rate`` a second, bursts of ``burst``."""

    __slots__ = ("burst", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1.0:
            self.level -= 1.0
            return True
        return False


class Connection:
    def __init__(self, ws: WebSocket, limits: p.Limits | None = None) -> None:
        limits = limits or p.Limits()
        self.ws = ws
        self.seat: int | None = None
        self.host = False
        self.table: Table | None = None
        self._find: Callable[[], Awaitable[Table | None]] | None = None
        self._queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(SEND_QUEUE)
        self._closing = False
        self._rate = Bucket(limits.rate, limits.burst)
        self._chat = Bucket(limits.chat_rate, limits.chat_burst)
        self._rate_text = f"more than {limits.rate:g} messages a second"
        self._over = 0

    # ------------------------------------------------------------------ sending
    def send(self, text: str) -> None:
        if self._closing:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(p.CLOSE_BEHIND, "too far behind reading; reconnect")

    def send_error(self, err: p.ProtocolError) -> None:
        self.send(dumps(error(err.code, err.message, err.reply_to, **err.extra)))

    def close(self, code: int, reason: str) -> None:
        if self._closing:
            return
        self._closing = True
        # The close goes after what is queued; a full queue is dropped for it.
        while True:
            try:
                self._queue.put_nowait((code, reason))
                return
            except asyncio.QueueFull:
                self._queue.get_nowait()

    async def _writer(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, tuple):
                with contextlib.suppress(Exception):
                    await self.ws.close(item[0], item[1])
                return
            try:
                await self.ws.send_text(item)
            except Exception:  # the peer is gone; the reader will notice
                self._closing = True
                return

    # ------------------------------------------------------------------ reading
    async def run(self, find_table: Callable[[], Awaitable[Table | None]]) -> None:
        await self.ws.accept()
        writer = asyncio.create_task(self._writer())
        try:
            table = await find_table()
            if table is None:
                self.send(dumps(error("not_found", "no such table")))
                self.close(p.CLOSE_UNKNOWN_TABLE, "no such table")
                return
            self._find = find_table
            await self._read(table)
        except WebSocketDisconnect:
            pass
        finally:
            if self.table is not None:
                await self.table.detach(self)
            if not self._closing:
                self.close(1000, "")
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(writer, 2.0)
            writer.cancel()

    async def _read(self, table: Table) -> None:
        deadline = time.monotonic() + p.HELLO_TIMEOUT
        while not self._closing:
            if self.table is None:
                left = deadline - time.monotonic()
                try:
                    message = await asyncio.wait_for(self.ws.receive(), max(left, 0.001))
                except TimeoutError:
                    self.close(p.CLOSE_NO_HELLO, "no hello in time")
                    return
            else:
                message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                if message.get("bytes") is not None:
                    self.send_error(p.ProtocolError(
                        "bad_json", "send JSON in text frames, not binary ones"))
                continue
            if not self._rate.take():
                self._too_fast(self._rate_text, p.peek_id(text))
                continue
            msg = None
            try:
                msg = p.parse_message(text)
                await self._dispatch(table, msg)
            except p.ProtocolError as err:
                self.send_error(err)
                if err.code == "protocol":
                    self.close(p.CLOSE_PROTOCOL, "unsupported protocol version")
            except Exception:
                log.exception("table %s: handling a message failed", table.id)
                self.send_error(p.ProtocolError("internal", "the server failed on that "
                                                "message; the table is reloaded",
                                                getattr(msg, "id", None)))
                with contextlib.suppress(Exception):
                    await (self.table or table).recover()

    def _too_fast(self, what: str, reply_to: str | int | None) -> None:
        # Every dropped message is answered (a client may be waiting for its reply); a client
        # that keeps flooding is closed, so the answers cannot pile up.
        self._over += 1
        if self._over >= p.OVER_LIMIT_CLOSE:
            self.close(p.CLOSE_POLICY, "too many messages")
            return
        self.send_error(p.ProtocolError("too_fast", f"{what}; message dropped", reply_to))

    async def _dispatch(self, table: Table, msg: p.ClientMessage) -> None:
        if self.table is None and not isinstance(msg, p.Hello):
            raise p.ProtocolError("hello_first", "say hello first", msg.id)
        done = ROUTES[msg.type](self.table or table, self, msg)
        if done is not None:
            await done

    async def hello(self, msg: p.Hello) -> None:
        if self.table is not None:
            raise p.ProtocolError("status", "hello was already said", msg.id)
        if msg.protocol != p.PROTOCOL_VERSION:
            raise p.ProtocolError("protocol", f"this server speaks protocol version "
                                  f"{p.PROTOCOL_VERSION}, not {msg.protocol}", msg.id,
                                  supported=[p.PROTOCOL_VERSION])
        # Looked up again now: a table nobody was at may have left memory since the
        # connection opened (a fresh copy is loaded from storage), and from the lookup to
        # being attached nothing else runs, so it cannot leave again in between.
        assert self._find is not None
        for _ in range(3):
            current = await self._find()
            if current is None:
                raise p.ProtocolError("not_found", "no such table", msg.id)
            try:
                await current.attach(self, msg)
            except TableClosed:
                continue
            self.table = current
            return
        raise p.ProtocolError("internal", "the table could not be loaded; try again", msg.id)

    def chat(self, table: Table, msg: p.Chat) -> None:
        if not self._chat.take():
            raise p.ProtocolError("too_fast", "at most one chat line a second", msg.id)
        table.chat(self, msg)


def _hello(table: Table, conn: Connection, msg: p.Hello) -> Awaitable[None]:
    return conn.hello(msg)


def _chat(table: Table, conn: Connection, msg: p.Chat) -> None:
    conn.chat(table, msg)


def _ping(table: Table, conn: Connection, msg: p.Ping) -> None:
    pong: p.Pong = {"type": "pong", "reply_to": msg.id}
    conn.send(dumps(pong))


# Each client message type (protocol.MESSAGE_TYPES) and what handles it, called with the
# connection's table, the connection and the parsed message; only hello comes before the
# connection has a table.  A test holds these keys to the protocol's list and its document.
Route = Callable[[Table, "Connection", Any], Awaitable[None] | None]
ROUTES: dict[str, Route] = {
    "hello": _hello,
    "join": lobby.join,
    "leave": lobby.leave,
    "start": lobby.start,
    "options": lobby.set_options,
    "act": Table.act,
    "check": Table.check,
    "undo": Table.undo,
    "hint": Table.hint,
    "chat": _chat,
    "rematch": lobby.rematch,
    "sync": Table.sync,
    "ping": _ping,
}
