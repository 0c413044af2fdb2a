"""Replays: a finished game of a table, or a record file from the person's computer, step by
step from one seat's view, and the review of that seat's decisions (``review.py``).

Everything a replay shows is computed here by replaying the record with the engine
(``handfoot.record.replay``, the path ``handfoot replay`` takes): each step is the seat's view
as ``handfoot.views.view`` builds it and the events in that seat's words.  The page receives
nothing else, so it re-implements no rule and sees no card the seat could not see, until the
person asks for every hand of a game that is over.

Who may watch (docs/WEB.md): anyone with a table's link may replay its finished games from
any seat, with every hand (the same people could already download the finished game's record,
which shows every hand).  A game still in play is never replayed, not even from one's own
seat: its link answers "still in play" (the live table already shows each person their own
view).  An uploaded record is the uploader's own file: it is shown from any seat and with
every hand, whether or not its game is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from handfoot.cards import format_counts
from handfoot.events import RoundEnded
from handfoot.narrate import result_lines
from handfoot.record import (
    Record,
    RecordError,
    ReplayResult,
    load_record,
    problems,
    record_from_mapping,
    replay,
)
from handfoot.scoring import winners

from .keeping import record_mapping
from .messages import seat_view
from .review import review
from .storage import Storage
from .updates import words

MAX_UPLOAD = 1024 * 1024  # a whole six-player game's record is some tens of KiB
MAX_DEPTH = 24  # a record nests six deep; deeper JSON is refused before it is parsed
# Answers kept, compressed (a four-round game's steps: some 35 KB): a finished game never
# changes, and an upload is known by its content's hash.
CACHE_SIZE = 64
REVIEWS_AT_ONCE = 1  # a review takes a few seconds of one core (server/review.py)
# Reviews not yet made that may wait for their turn, all addresses together; and how many
# reviews one address may have made or waiting at once.  Past either, a request is refused at
# once (503 ``busy``, 429 ``too_fast``): a review is seconds of CPU, and every new record file
# is a new review.
REVIEWS_WAITING = 4
REVIEWS_PER_ADDRESS = 1


class ReplayError(Exception):
    """A replay that cannot be given: one line for the person, an HTTP status."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


@dataclass(slots=True)
class Loaded:
    """A record replayed by the engine, ready to be shown."""

    key: str  # what the cache knows it by
    record: Record
    outcome: ReplayResult
    source: dict[str, Any]  # {"table", "game"} or {"file": True}

    @property
    def names(self) -> list[str]:
        return [s.name or f"Seat {i}" for i, s in enumerate(self.record.seats)]


# ====================================================================== loading
async def table_game(storage: Storage, table_id: str, raw_game: str | None) -> Loaded:
    """Game ``raw_game`` of the table (its latest game if none), once it is over."""
    stored = await storage.load(table_id)
    if stored is None:
        raise ReplayError("not_found", "no such table", 404)
    try:
        number = int(raw_game) if raw_game is not None else stored.row.game
    except ValueError:
        raise ReplayError("bad_message", f"game: expected a whole number, got "
                          f"{str(raw_game)[:20]!r}", 400) from None
    game = await storage.game(table_id, number) if number > 0 else None
    if game is None:
        raise ReplayError("not_found", f"this table has no game {number}", 404)
    if game.ended is None:
        earlier = f"; game {number - 1} is over and can be watched" if number > 1 else ""
        raise ReplayError("in_play", f"game {number} is still in play: its replay opens once "
                          f"it is over{earlier}", 409)
    mapping = record_mapping(game.header, game.deals,
                             [(a.round, a.seat, a.action) for a in game.actions])
    try:
        record = record_from_mapping(mapping)
    except RecordError as err:
        raise ReplayError("internal", f"the stored game does not read: {err}", 500) from None
    outcome = replay(record)
    if outcome.illegal is not None:
        raise ReplayError("internal", "the stored game does not replay: "
                          f"{outcome.illegal.message()}", 500)
    return Loaded(f"table/{table_id}/{number}", record, outcome,
                  {"table": table_id, "game": number})


def nesting_depth(text: str) -> int:
    """How deep the JSON text's arrays and objects nest (strings skipped), without parsing it:
    a body of a million brackets must not reach the parser's recursion."""
    depth = deepest = 0
    for bracket in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', text):
        c = bracket.group()
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def uploaded(body: bytes) -> Loaded:
    """A record file's bytes, checked by the engine as ``handfoot replay`` checks a file: it
    must read as a record, every action must be legal and every recorded figure must come out
    the same.  Whatever is wrong is one line."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ReplayError("bad_record", "the file is not UTF-8 text", 400) from None
    if nesting_depth(text) > MAX_DEPTH:
        raise ReplayError("bad_record", f"not a game record: its JSON nests more than "
                          f"{MAX_DEPTH} deep", 400)
    try:
        record = load_record(text)
    except (RecordError, RecursionError) as err:
        raise ReplayError("bad_record", f"not a valid game record: {err}", 400) from None
    outcome = replay(record)
    wrong = problems(outcome)
    if wrong:
        more = f" (and {len(wrong) - 1} more)" if len(wrong) > 1 else ""
        raise ReplayError("bad_record", f"the record does not replay: {wrong[0]}{more}", 400)
    return Loaded("file/" + hashlib.sha256(body).hexdigest(), record, outcome, {"file": True})


# ====================================================================== steps
def steps(loaded: Loaded, seat: int, every_hand: bool) -> dict[str, Any]:
    """The replay from ``seat``'s view: the deal, then one step per action, each with the
    seat's view after it, its lines in the seat's words, and every hand only if asked."""
    record, outcome, names = loaded.record, loaded.outcome, loaded.names
    rules = record.rules
    game = record.new_game()

    def step(by: int | None, action: str | None, turn: int, lines: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = {"by": by, "action": action, "turn": turn, "log": lines,
                               "view": seat_view(game, seat)}
        if every_hand:
            out["hands"] = [format_counts(tuple(h)) for h in game.hands]
        return out

    dealer = names[game.dealer]
    out = [step(None, None, 0, [f"Round {game.round_no}: {dealer} deals"])]
    rounds = [{"round": game.round_no, "step": 0}]
    for played in outcome.steps:
        before = tuple(game.hands[seat]) if played.seat == seat else None
        events = game.apply(played.action)
        hands = (before, tuple(game.hands[seat])) if before is not None else None
        lines = list(words(events, names, hands)[seat])
        if any(isinstance(e, RoundEnded) for e in events):
            lines += result_lines(rules, game.results[-1], names, you=seat)
        out.append(step(played.seat, played.action.text, played.turn, lines))
        if game.round_no != rounds[-1]["round"] and not game.over:
            rounds.append({"round": game.round_no, "step": len(out) - 1})
    over = game.over
    return {
        "source": loaded.source,
        "description": record.description,
        "rules": rules.to_mapping(),
        "names": names,
        "seat": seat,
        "every_hand": every_hand,
        "over": over,
        "totals": list(game.totals),
        "winners": winners(list(game.totals)) if over else None,
        "rounds": rounds,
        "steps": out,
    }


# ====================================================================== HTTP
_cache: OrderedDict[str, bytes] = OrderedDict()
_cache_lock = threading.Lock()  # answers are made on worker threads, several at once
_making: dict[str, threading.Lock] = {}  # one lock per answer being made


def _cached(key: str, make: Callable[[], dict[str, Any]]) -> bytes:
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
        making = _making.setdefault(key, threading.Lock())
    # Made outside the cache's lock, once: a second request for the same new answer (a
    # review costs seconds) waits for the first and takes its answer.
    try:
        with making:
            with _cache_lock:
                found = _cache.get(key)
            if found is None:
                found = gzip.compress(json.dumps(make(), ensure_ascii=False,
                                                 separators=(",", ":")).encode(), 5)
                with _cache_lock:
                    _cache[key] = found
                    while len(_cache) > CACHE_SIZE:
                        _cache.popitem(last=False)
    finally:
        with _cache_lock:
            _making.pop(key, None)
    return found


def _error(err: ReplayError) -> JSONResponse:
    return JSONResponse({"error": {"code": err.code, "message": err.message}},
                        status_code=err.status)


def _json(request: Request, packed: bytes) -> Response:
    """Compressed JSON, sent as it is kept when the client takes gzip (browsers do): a game's
    views repeat themselves, and a whole four-round game from one seat is some 1.4 MB raw,
    about 35 KB compressed."""
    headers = {"cache-control": "no-store", "vary": "accept-encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["content-encoding"] = "gzip"
        return Response(packed, media_type="application/json", headers=headers)
    return Response(gzip.decompress(packed), media_type="application/json", headers=headers)


def _seat(request: Request, loaded: Loaded) -> int:
    raw = request.query_params.get("seat", "0")
    players = loaded.record.rules.players
    try:
        seat = int(raw)
    except ValueError:
        seat = -1
    if not 0 <= seat < players:
        raise ReplayError("bad_message", f"seat: expected 0 to {players - 1}, got "
                          f"{raw[:20]!r}", 400)
    return seat


def _every(request: Request) -> bool:
    return request.query_params.get("every", "") in ("1", "true", "yes")


async def _answer(request: Request, loaded: Loaded, what: str) -> Response:
    seat = _seat(request, loaded)
    every = _every(request) and what == "steps"
    key = f"{what}/{loaded.key}/{seat}/{int(every)}"
    if what == "steps":
        body = await asyncio.to_thread(_cached, key, lambda: steps(loaded, seat, every))
    else:
        # A review weighs every turn with the expert (seconds of CPU): on a worker thread,
        # never on the event loop, and one at a time, so the tables keep their pace.
        with _cache_lock:
            kept = _cache.get(key)
            if kept is not None:
                _cache.move_to_end(key)
        if kept is not None:
            body = kept
        else:
            queue = _reviews()
            with queue.admit(_address(request)):
                async with queue.slots:
                    body = await asyncio.to_thread(_cached, key, lambda: review(
                        loaded.record, loaded.outcome, seat))
    return _json(request, body)


def _address(request: Request) -> str:
    """Who asks, as far as the server can tell: the client's address (behind a proxy that
    passes it on, the real one: uvicorn's ``--proxy-headers``)."""
    return request.client.host if request.client is not None else ""


class ReviewQueue:
    """The reviews being made (``REVIEWS_AT_ONCE`` at a time) and waiting, with who asked."""

    def __init__(self) -> None:
        self.slots = asyncio.Semaphore(REVIEWS_AT_ONCE)
        self.asked: dict[str, int] = {}  # address: its reviews being made or waiting

    @property
    def pending(self) -> int:
        return sum(self.asked.values())

    @contextlib.contextmanager
    def admit(self, address: str) -> Iterator[None]:
        """Room for one more review from ``address``, or a refusal at once."""
        if self.asked.get(address, 0) >= REVIEWS_PER_ADDRESS:
            raise ReplayError("too_fast", "a review is being made for you already: one at a "
                              "time (ask again once it is shown)", 429)
        if self.pending >= REVIEWS_AT_ONCE + REVIEWS_WAITING:
            raise ReplayError("busy", "the server is busy making other reviews: try again in "
                              "a minute", 503)
        self.asked[address] = self.asked.get(address, 0) + 1
        try:
            yield
        finally:
            self.asked[address] -= 1
            if not self.asked[address]:
                del self.asked[address]


_queues: dict[asyncio.AbstractEventLoop, ReviewQueue] = {}


def _reviews() -> ReviewQueue:
    """The running loop's reviews (REVIEWS_AT_ONCE made at once, REVIEWS_WAITING waiting)."""
    loop = asyncio.get_running_loop()
    if loop not in _queues:
        _queues.clear()  # a new loop (a restarted server, a test's): the old one is done
        _queues[loop] = ReviewQueue()
    return _queues[loop]


def _storage(request: Request) -> Storage:
    storage: Storage = request.app.state.hall.storage
    return storage


async def table_replay(request: Request) -> Response:
    """GET /api/tables/{table}/replay?game=N&seat=S[&every=1]"""
    try:
        loaded = await table_game(_storage(request), request.path_params["table"],
                                  request.query_params.get("game"))
        return await _answer(request, loaded, "steps")
    except ReplayError as err:
        return _error(err)


async def table_review(request: Request) -> Response:
    """GET /api/tables/{table}/review?game=N&seat=S"""
    try:
        loaded = await table_game(_storage(request), request.path_params["table"],
                                  request.query_params.get("game"))
        return await _answer(request, loaded, "review")
    except ReplayError as err:
        return _error(err)


async def read_upload(request: Request) -> bytes:
    """The request's body, refused as soon as it passes MAX_UPLOAD (never read whole)."""
    declared = request.headers.get("content-length", "")
    limit = f"the file is over {MAX_UPLOAD // 1024} KiB; a game record is far smaller"
    if declared.isdigit() and int(declared) > MAX_UPLOAD:
        raise ReplayError("too_large", limit, 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_UPLOAD:
            raise ReplayError("too_large", limit, 413)
    if not body.strip():
        raise ReplayError("bad_record", "no file: send a game record's JSON as the body", 400)
    return bytes(body)


async def _upload(request: Request, what: str) -> Response:
    try:
        body = await read_upload(request)
        loaded = await asyncio.to_thread(uploaded, body)
        return await _answer(request, loaded, what)
    except ReplayError as err:
        return _error(err)


async def upload_replay(request: Request) -> Response:
    """POST /api/replay?seat=S[&every=1], the record file as the body."""
    return await _upload(request, "steps")


async def upload_review(request: Request) -> Response:
    """POST /api/replay/review?seat=S, the record file as the body."""
    return await _upload(request, "review")


def routes(static: Path, page_headers: dict[str, str]) -> list[BaseRoute]:
    """The replay page (its own file: static/replay.html) and its endpoints."""

    def page() -> str:
        return (static / "replay.html").read_text(encoding="utf-8")

    async def files_page(request: Request) -> Response:
        return HTMLResponse(page(), headers=page_headers)

    async def table_page(request: Request) -> Response:
        summary = await _storage(request).summary(request.path_params["table"])
        return HTMLResponse(page(), status_code=200 if summary else 404, headers=page_headers)

    return [
        Route("/replay", files_page),
        Route("/replay/{table}", table_page),
        Route("/api/tables/{table}/replay", table_replay),
        Route("/api/tables/{table}/review", table_review),
        Route("/api/replay", upload_replay, methods=["POST"]),
        Route("/api/replay/review", upload_review, methods=["POST"]),
    ]
