"""Web Push: "your turn" told to a person's phone or computer while the table's page is closed.

The server signs its pushes with a VAPID key (an ECDSA P-256 key) that it makes on its first
start and keeps in a PEM file: ``push-key.pem`` beside the SQLite database (handfoot's data
folder by default), or where ``handfoot serve --push-key`` says (a PostgreSQL deployment gives
every process the same file, since a browser's subscription is bound to one key).

A subscription (the push service's endpoint and the browser's encryption keys) is stored with
one seat and the hash of the seat token it was given with: it is read only by a request that
shows that token, and used only while the seat still has that token (a seat given up and taken
by someone else is never told of the first person's turns).  A push service that answers 404
or 410 has forgotten the subscription: it is removed.

When a table publishes an update (``published``, one call from table.py), this module notes
the time of the last move and, when a new turn begins for a person who is not connected, sends
one push to that seat's subscriptions (a person whose page is open but hidden counts as away
once the page has said so, POST /api/push/away): at most one per turn (a turn is known by its
game, round and turn number, and by who is asked: the partner asked "may I go out?" is told
once too).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import re
import time
import weakref
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from . import protocol as p
from .database import StorageError
from .seats import PERSON
from .storage import Storage
from .tokens import token_hash

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("handfoot.server")

KEY_FILE = "push-key.pem"
# The VAPID claim naming who runs the server (push services may write there about abuse).
DEFAULT_CONTACT = "mailto:handfoot@localhost"
MAX_PER_SEAT = 5  # devices one seat may be told on; the oldest goes when a sixth subscribes
MAX_ENDPOINT = 1024
TTL = 24 * 3600  # a phone that is off for a day is still told when it comes back
KEY_PART = re.compile(r"^[A-Za-z0-9_-]{16,128}={0,2}$")


# ====================================================================== the key
def key_path(db: str | None, override: str | None = None) -> Path:
    """Where the VAPID key is kept: ``override``, else beside the SQLite database, else (a
    PostgreSQL URL) in handfoot's data folder."""
    if override:
        return Path(override)
    if db and db.startswith(("postgresql://", "postgres://")):
        from handfoot.files.folder import data_folder

        return data_folder() / KEY_FILE
    from .storage import default_path

    return (Path(db) if db else default_path()).parent / KEY_FILE


def load_or_make_key(path: Path) -> Any:
    """The server's VAPID key (a py_vapid ``Vapid``), made and saved on the first start.  The
    file is written readable by its owner only, and in one step (a second process starting at
    the same moment reads a whole key or makes its own file, never half of one)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import Vapid

    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = ec.generate_private_key(ec.SECP256R1())
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
        try:
            os.link(tmp, path)  # fails if another process saved its key first: use that one
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    try:
        return Vapid.from_pem(path.read_bytes())
    except Exception as err:  # py_vapid raises several kinds for a file that is not a key
        raise StorageError(f"the push key {path} does not read as a PEM private key: "
                           f"{err}") from None


def public_key(vapid: Any) -> str:
    """The key a browser subscribes with (``applicationServerKey``): the public point,
    uncompressed, base64url without padding."""
    from cryptography.hazmat.primitives import serialization

    raw = vapid.public_key.public_bytes(serialization.Encoding.X962,
                                        serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


# ====================================================================== storage
# The tables web_push and web_activity are in storage.SCHEMA.


def _now(precise: bool = False) -> str:
    """UTC, ISO 8601; ``precise``: to the microsecond (a seat's newest subscriptions are
    told from its oldest by this, and a browser subscribes several within a second)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ" if precise
                                      else "%Y-%m-%dT%H:%M:%SZ")


async def seat_of(storage: Storage, table_id: str, seat_token: str) -> int | None:
    """The seat this token holds at the table, or None."""
    rows = await storage.db.rows(
        "SELECT seat FROM web_seats WHERE table_id = ? AND token_hash = ?",
        (table_id, token_hash(seat_token)))
    return int(rows[0][0]) if rows else None


async def subscribe(storage: Storage, table_id: str, seat: int, seat_token: str,
                    subscription: dict[str, Any]) -> None:
    endpoint = subscription["endpoint"]
    await storage.db.run([
        ("DELETE FROM web_push WHERE table_id = ? AND seat = ? AND endpoint = ?",
         (table_id, seat, endpoint)),
        ("INSERT INTO web_push (table_id, seat, token_hash, endpoint, subscription, created)"
         " VALUES (?, ?, ?, ?, ?, ?)",
         (table_id, seat, token_hash(seat_token), endpoint, json.dumps(subscription),
          _now(precise=True))),
    ])
    rows = await storage.db.rows(
        "SELECT endpoint FROM web_push WHERE table_id = ? AND seat = ?"
        " ORDER BY created DESC, endpoint", (table_id, seat))
    extra = [r[0] for r in rows[MAX_PER_SEAT:] if r[0] != endpoint]
    if extra:
        await storage.db.run([("DELETE FROM web_push WHERE table_id = ? AND seat = ? AND "
                               "endpoint = ?", (table_id, seat, e)) for e in extra])


async def subscriptions(storage: Storage, table_id: str, seat: int,
                        seat_token: str | None = None) -> list[dict[str, Any]]:
    """The seat's subscriptions still bound to the seat's current token; with ``seat_token``,
    only those stored with that token (a request reads what its own token stored)."""
    sql = ("SELECT p.subscription FROM web_push p JOIN web_seats s"
           " ON s.table_id = p.table_id AND s.seat = p.seat AND s.token_hash = p.token_hash"
           " WHERE p.table_id = ? AND p.seat = ?")
    params: tuple[Any, ...] = (table_id, seat)
    if seat_token is not None:
        sql += " AND p.token_hash = ?"
        params += (token_hash(seat_token),)
    rows = await storage.db.rows(sql + " ORDER BY p.created, p.endpoint", params)
    return [json.loads(r[0]) for r in rows]


async def unsubscribe(storage: Storage, table_id: str, seat: int,
                      endpoint: str | None) -> int:
    if endpoint is None:
        return await storage.db.run([("DELETE FROM web_push WHERE table_id = ? AND seat = ?",
                                      (table_id, seat))])
    return await storage.db.run([("DELETE FROM web_push WHERE table_id = ? AND seat = ? AND "
                                  "endpoint = ?", (table_id, seat, endpoint))])


async def forget_endpoint(storage: Storage, endpoint: str) -> None:
    """The push service has forgotten this browser's subscription: no table keeps it."""
    await storage.db.run([("DELETE FROM web_push WHERE endpoint = ?", (endpoint,))])


async def last_moves(storage: Storage, table_ids: list[str]) -> dict[str, str]:
    if not table_ids:
        return {}
    marks = ", ".join("?" for _ in table_ids)
    rows = await storage.db.rows(
        f"SELECT table_id, last_move FROM web_activity WHERE table_id IN ({marks})",
        tuple(table_ids))
    return {r[0]: r[1] for r in rows}


# ====================================================================== sending
@dataclass(slots=True)
class PushConfig:
    key: str | None = None  # the VAPID key's file (default: see key_path)
    contact: str | None = None  # mailto: or https: address of whoever runs the server


class Pusher:
    """The push side of one server: its key, and what it has told whom."""

    def __init__(self, storage: Storage, vapid: Any, contact: str) -> None:
        self.storage = storage
        self.vapid = vapid
        self.key = public_key(vapid)
        self.contact = contact
        # Plain http endpoints are refused (a push service speaks https); tests of a local
        # endpoint allow it, on loopback only.
        self.allow_http = False
        self._told: dict[str, tuple[int, int, int, int]] = {}  # table -> last turn pushed
        self._seen: dict[str, tuple[int, int, int, int]] = {}  # table -> last turn seen
        self._noted: dict[str, float] = {}  # table -> when its last move's time was written
        # Seats whose page is connected but hidden (POST /api/push/away): a phone freezes a
        # page in the background while its connection may stay open, so the page cannot
        # show a notification itself; the server pushes as if the person were gone.
        self.away: set[tuple[str, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.sent = 0  # pushes the push services accepted (for tests and /api/stats readers)

    @classmethod
    async def start(cls, storage: Storage, db: str | None,
                    config: PushConfig | None = None) -> Pusher:
        config = config or PushConfig()
        vapid = load_or_make_key(key_path(db, config.key))
        pusher = cls(storage, vapid, config.contact or DEFAULT_CONTACT)
        _PUSHERS[storage] = pusher
        return pusher

    async def close(self) -> None:
        _PUSHERS.pop(self.storage, None)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            # Cancelled or failed: either way there is nothing more to send.
            with contextlib.suppress(BaseException):
                await task

    def endpoint_allowed(self, endpoint: str) -> bool:
        from urllib.parse import urlsplit

        try:
            parts = urlsplit(endpoint)
        except ValueError:
            return False
        if not parts.hostname:
            return False
        if parts.scheme == "https":
            return True
        return (self.allow_http and parts.scheme == "http"
                and parts.hostname in ("127.0.0.1", "localhost", "::1"))

    # ------------------------------------------------------------------ the table's hook
    def published(self, table: Table) -> None:
        """A table published an update (its lock is held): note the move's time, and push to
        the person whose turn begins if they are not at the table."""
        keeper = table.keeper
        g = keeper.game if keeper is not None else None
        turn = (table.game_no, g.round_no, g.turns, g.actor) if g is not None else None
        # The last move's time is for people ("5 min ago"): written when a turn changes hands,
        # or a minute after the last write, not once per action.
        now = time.monotonic()
        if turn != self._seen.get(table.id) or now - self._noted.get(table.id, 0.0) > 60:
            self._noted[table.id] = now
            self._spawn(self._note_move(table.id))
        if keeper is None or g is None or turn is None or table.status != "playing" or g.over:
            for kept in (self._seen, self._told, self._noted):
                kept.pop(table.id, None)
            if g is not None and g.over:
                self.away = {a for a in self.away if a[0] != table.id}
            return
        if self._seen.get(table.id) == turn:
            return
        self._seen[table.id] = turn
        seat = table.seats[g.actor]
        gone = seat.client is None or (table.id, g.actor) in self.away
        if not seat.person or not gone or seat.driver != PERSON:
            return
        if self._told.get(table.id) == turn:
            return
        self._told[table.id] = turn
        asking = g.actor != g.seat
        asker = keeper.names[g.seat] or f"Seat {g.seat + 1}"
        where = table.name or "your table"
        message = {
            "title": f"{asker} asks: may I go out?" if asking else "Your turn",
            "body": f"{where}: answer yes or no." if asking
            else f"{where}: it is your turn to play.",
            "url": f"/t/{table.id}", "tag": f"handfoot-{table.id}",
        }
        self._spawn(self.send_seat(table.id, g.actor, message))

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _note_move(self, table_id: str) -> None:
        try:
            await self.storage.db.run([(
                "INSERT INTO web_activity (table_id, last_move) VALUES (?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET last_move = excluded.last_move",
                (table_id, _now()))])
        except StorageError as err:
            log.warning("table %s: noting the last move's time failed: %s", table_id, err)

    async def send_seat(self, table_id: str, seat: int, message: dict[str, Any]) -> int:
        """Push ``message`` to the seat's subscriptions; those the push service no longer
        knows are removed.  The pushes that were accepted."""
        try:
            subs = await subscriptions(self.storage, table_id, seat)
        except StorageError as err:
            log.warning("table %s: reading push subscriptions failed: %s", table_id, err)
            return 0
        sent = 0
        for sub in subs:
            if await self.send_one(sub, message):
                sent += 1
        return sent

    async def send_one(self, subscription: dict[str, Any], message: dict[str, Any]) -> bool:
        from pywebpush import WebPushException, webpush_async

        endpoint = subscription.get("endpoint", "")
        if not self.endpoint_allowed(endpoint):
            return False
        try:
            await webpush_async(subscription, json.dumps(message),
                                vapid_private_key=self.vapid,
                                vapid_claims={"sub": self.contact}, ttl=TTL, timeout=10,
                                headers={"Urgency": "high"})
        except WebPushException as err:
            status = _status(err)
            if status in (404, 410):
                await forget_endpoint(self.storage, endpoint)
                log.info("a push subscription is gone (%s): removed", status)
            else:
                # The endpoint names a browser: logged by its host only.
                log.warning("a push to %s failed: %s", _host(endpoint), status or err)
            return False
        except Exception as err:  # the network: unreachable, timed out, refused
            log.warning("a push to %s failed: %s", _host(endpoint), type(err).__name__)
            return False
        self.sent += 1
        return True


def _status(err: Exception) -> int | None:
    response = getattr(err, "response", None)
    status = getattr(response, "status", None) or getattr(response, "status_code", None)
    return int(status) if isinstance(status, int) else None


def _host(endpoint: str) -> str:
    from urllib.parse import urlsplit

    try:
        return urlsplit(endpoint).hostname or "?"
    except ValueError:
        return "?"


_PUSHERS: weakref.WeakKeyDictionary[Storage, Pusher] = weakref.WeakKeyDictionary()


def published(table: Table) -> None:
    """Table.py's one call, after every update it publishes."""
    pusher = _PUSHERS.get(table.storage)
    if pusher is None:
        return
    try:
        pusher.published(table)
    except Exception:  # a notice must never disturb the table it is about
        log.exception("table %s: noting the update for push failed", table.id)


# ====================================================================== routes
def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > 16 * 1024:
        raise p.ProtocolError("too_large", "the request is over 16 KiB")
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
        raise p.ProtocolError("bad_json", f"not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise p.ProtocolError("bad_json", "expected a JSON object")
    return data


def _text(data: dict[str, Any], key: str, limit: int = 200) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise p.ProtocolError("bad_message", f"{key}: expected a string of 1 to {limit} "
                              "characters")
    return value


def _subscription(pusher: Pusher, data: Any) -> dict[str, Any]:
    """The browser's PushSubscription as JSON, checked: an https endpoint and two keys."""
    if not isinstance(data, dict):
        raise p.ProtocolError("bad_message", "subscription: expected the browser's "
                              "PushSubscription as JSON (endpoint, keys)")
    endpoint = data.get("endpoint")
    keys = data.get("keys")
    if not isinstance(endpoint, str) or len(endpoint) > MAX_ENDPOINT \
            or not pusher.endpoint_allowed(endpoint):
        raise p.ProtocolError("bad_message", "subscription.endpoint: expected the push "
                              f"service's https address (up to {MAX_ENDPOINT} characters)")
    if not isinstance(keys, dict) or not all(
            isinstance(keys.get(k), str) and KEY_PART.match(keys[k]) for k in ("p256dh", "auth")):
        raise p.ProtocolError("bad_message", "subscription.keys: expected p256dh and auth, "
                              "base64url")
    return {"endpoint": endpoint, "keys": {"p256dh": keys["p256dh"], "auth": keys["auth"]}}


async def _seat(request: Request, data: dict[str, Any]) -> tuple[Pusher, str, int, str]:
    pusher: Pusher = request.app.state.push
    table_id = _text(data, "table", 40)
    token = _text(data, "seat_token", 200)
    seat = await seat_of(pusher.storage, table_id, token)
    if seat is None:
        raise p.ProtocolError("bad_token", "no seat at this table has that token")
    return pusher, table_id, seat, token


def routes() -> list[BaseRoute]:
    async def key(request: Request) -> Response:
        pusher: Pusher = request.app.state.push
        return JSONResponse({"key": pusher.key})

    async def post_subscribe(request: Request) -> Response:
        try:
            data = await _body(request)
            pusher, table_id, seat, token = await _seat(request, data)
            sub = _subscription(pusher, data.get("subscription"))
            await subscribe(pusher.storage, table_id, seat, token, sub)
        except p.ProtocolError as err:
            return _answer(err)
        return JSONResponse({"subscribed": True, "seat": seat}, status_code=201)

    async def post_subscription(request: Request) -> Response:
        try:
            data = await _body(request)
            pusher, table_id, seat, token = await _seat(request, data)
        except p.ProtocolError as err:
            return _answer(err)
        subs = await subscriptions(pusher.storage, table_id, seat, token)
        return JSONResponse({"seat": seat, "endpoints": [s["endpoint"] for s in subs]})

    async def post_unsubscribe(request: Request) -> Response:
        try:
            data = await _body(request)
            pusher, table_id, seat, _ = await _seat(request, data)
            endpoint = data.get("endpoint")
            if endpoint is not None and not isinstance(endpoint, str):
                raise p.ProtocolError("bad_message", "endpoint: expected a string or none")
        except p.ProtocolError as err:
            return _answer(err)
        removed = await unsubscribe(pusher.storage, table_id, seat, endpoint)
        return JSONResponse({"removed": removed})

    async def post_away(request: Request) -> Response:
        try:
            data = await _body(request)
            pusher, table_id, seat, _ = await _seat(request, data)
            away = data.get("away")
            if not isinstance(away, bool):
                raise p.ProtocolError("bad_message", "away: expected true or false")
        except p.ProtocolError as err:
            return _answer(err)
        if away:
            pusher.away.add((table_id, seat))
        else:
            pusher.away.discard((table_id, seat))
        return JSONResponse({"away": away})

    return [Route("/api/push/key", key),
            Route("/api/push/away", post_away, methods=["POST"]),
            Route("/api/push/subscribe", post_subscribe, methods=["POST"]),
            Route("/api/push/subscription", post_subscription, methods=["POST"]),
            Route("/api/push/unsubscribe", post_unsubscribe, methods=["POST"])]


def _answer(err: p.ProtocolError) -> JSONResponse:
    status = {"too_large": 413, "bad_token": 403}.get(err.code, 400)
    return _error(err.code, err.message, status)
