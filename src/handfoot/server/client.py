"""A client of the web table's protocol (docs/PROTOCOL.md), over real websockets.

Used by ``handfoot play --join`` (a terminal player at a web table), the load benchmark and
the tests.  It keeps what the server last said (the version, the view, the legal actions, the
table) and hands every message on to whoever reads it.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import websockets
from websockets.asyncio.client import ClientConnection

from .protocol import PROTOCOL_VERSION

Message = dict[str, Any]


class ClientError(Exception):
    """The server could not be reached or answered with an error."""


class Closed(ClientError):
    """The server closed the connection (``code`` as docs/PROTOCOL.md lists them)."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(f"the server closed the connection ({code}"
                         f"{': ' + reason if reason else ''})")
        self.code = code
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Invite:
    base: str  # http(s)://host:port
    table: str

    @property
    def websocket(self) -> str:
        scheme, netloc, path = urlsplit(self.base)[:3]
        ws = "wss" if scheme == "https" else "ws"
        return urlunsplit((ws, netloc, f"{path}/ws/{self.table}", "", ""))


def parse_invite(url: str) -> Invite:
    """``http://host:8000/t/TABLE`` (an invite link) or ``ws://host:8000/ws/TABLE``."""
    parts = urlsplit(url.strip())
    segments = [s for s in parts.path.split("/") if s]
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc \
            or len(segments) < 2 or segments[-2] not in ("t", "ws"):
        raise ClientError(f"{url!r} is not an invite link (http://HOST:PORT/t/TABLE)")
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    prefix = "/".join(segments[:-2])
    base = urlunsplit((scheme, parts.netloc, f"/{prefix}" if prefix else "", "", ""))
    return Invite(base.rstrip("/"), segments[-1])


def http_json(url: str, body: Any | None = None, token: str | None = None,
              timeout: float = 10.0) -> Any:
    """A JSON request (POST when there is a body); an HTTP error's JSON is raised as
    ClientError with its message."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method="POST" if data else "GET")
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return json.loads(reply.read())
    except urllib.error.HTTPError as err:
        try:
            detail = json.loads(err.read())["error"]["message"]
        except (ValueError, KeyError, TypeError):
            detail = err.reason
        raise ClientError(f"{url}: {err.code} {detail}") from None
    except (urllib.error.URLError, OSError) as err:
        raise ClientError(f"cannot reach {url}: {getattr(err, 'reason', err)}") from None


async def _open(url: str, timeout: float) -> ClientConnection:
    try:
        return await websockets.connect(url, open_timeout=timeout, max_size=2**22)
    except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as err:
        raise ClientError(f"cannot connect to {url}: {err}") from None


@dataclass
class TableClient:
    """One connection to one table."""

    ws: ClientConnection
    url: str = ""
    seat: int | None = None
    seat_token: str | None = None
    host: bool = False
    version: int = -1
    view: Message | None = None
    legal: list[str] = field(default_factory=list)
    can_undo: bool = False
    table: Message | None = None
    log: list[str] = field(default_factory=list)
    on_message: Callable[[Message], None] | None = None
    _next_id: int = 0
    _host_token: str | None = None

    @classmethod
    async def connect(cls, websocket_url: str, seat_token: str | None = None,
                      host_token: str | None = None, last_version: int | None = None,
                      timeout: float = 10.0) -> TableClient:
        client = cls(await _open(websocket_url, timeout), websocket_url,
                     seat_token=seat_token, host=host_token is not None)
        client._host_token = host_token
        await client._hello(last_version, timeout)
        return client

    async def _hello(self, last_version: int | None, timeout: float) -> None:
        hello: Message = {"type": "hello", "protocol": PROTOCOL_VERSION}
        if self.seat_token:
            hello["seat_token"] = self.seat_token
        if self._host_token:
            hello["host_token"] = self._host_token
        if last_version is not None:
            hello["last_version"] = last_version
        await self.send(hello)
        welcome = await self.until(lambda m: m.get("type") in ("welcome", "error"),
                                   timeout=timeout)
        if welcome["type"] == "error":
            raise ClientError(f"{welcome['code']}: {welcome['message']}")
        self.seat = welcome["you"]["seat"]

    async def reconnect(self, tries: int = 30, timeout: float = 10.0) -> None:
        """Connect again after a drop, as the same seat, saying the last version seen; waits
        a little longer after each failed try (0.1 s growing to 2 s)."""
        delay = 0.1
        for attempt in range(tries):
            try:
                self.ws = await _open(self.url, timeout)
                await self._hello(self.version if self.version >= 0 else None, timeout)
                return
            except (ClientError, TimeoutError):
                if attempt == tries - 1:
                    raise
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)

    def next_id(self) -> int:
        self._next_id += 1
        return self._next_id

    async def send(self, message: Message) -> None:
        try:
            await self.ws.send(json.dumps(message))
        except websockets.exceptions.ConnectionClosed as err:
            raise Closed(err.rcvd.code if err.rcvd else None,
                         err.rcvd.reason if err.rcvd else "") from None

    async def recv(self, timeout: float = 10.0) -> Message:
        """The next message, after noting what it says about the table."""
        try:
            text = await asyncio.wait_for(self.ws.recv(), timeout)
        except websockets.exceptions.ConnectionClosed as err:
            raise Closed(err.rcvd.code if err.rcvd else None,
                         err.rcvd.reason if err.rcvd else "") from None
        message: Message = json.loads(text)
        self._note(message)
        if self.on_message is not None:
            self.on_message(message)
        return message

    def _note(self, m: Message) -> None:
        kind = m.get("type")
        if kind in ("state", "update"):
            self.version = m["version"]
            self.view = m["view"]
            self.legal = m["legal"]
            self.can_undo = m["can_undo"]
            if kind == "state":
                self.log = list(m["log"])
            else:
                self.log += m["log"]
        elif kind == "table":
            self.table = m
            self.version = max(self.version, m["version"])
        elif kind == "joined":
            self.seat = m["seat"]
            self.seat_token = m["seat_token"]

    async def until(self, want: str | Callable[[Message], bool],
                    timeout: float = 10.0) -> Message:
        """Read until a message of type ``want`` (or one ``want`` accepts) arrives."""
        test = want if callable(want) else (lambda m: m.get("type") == want)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"no {want if isinstance(want, str) else 'such'} message "
                                   f"within {timeout} s")
            m = await self.recv(left)
            if test(m):
                return m

    async def request(self, message: Message, timeout: float = 10.0) -> Message:
        """Send a message with an id and return the reply to it (an update, refused, error,
        joined, hint, pong)."""
        ident = self.next_id()
        await self.send({**message, "id": ident})
        return await self.until(lambda m: m.get("reply_to") == ident, timeout)

    async def join(self, seat: int, name: str) -> Message:
        reply = await self.request({"type": "join", "seat": seat, "name": name})
        if reply["type"] == "error":
            raise ClientError(reply["message"])
        return reply

    async def act(self, action: str, timeout: float = 10.0) -> Message:
        return await self.request({"type": "act", "version": self.version, "action": action},
                                  timeout)

    async def close(self) -> None:
        await self.ws.close()
