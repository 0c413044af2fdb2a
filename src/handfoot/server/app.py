"""The web application: HTTP routes, the websocket route, and the hall of open tables.

A table lives in memory while anyone is connected to it (and a while after), and is loaded
from storage on the first connection: after a restart, a table comes back exactly as its
stored record left it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from handfoot import __version__
from handfoot.bots import LEVELS
from handfoot.bots.levels import play_now_level
from handfoot.presets import PRESET_NAMES, house_rules, rules_from_text
from handfoot.rules import Rules, RulesError

from . import lessons
from . import protocol as p
from .clock import Clock
from .connection import Connection
from .database import StorageError
from .drivers import BOTS, BotRunner
from .keeping import KeepingError, export_json
from .mine import routes as mine_routes
from .pace import TurnTimers
from .push import PushConfig, Pusher
from .push import routes as push_routes
from .pwa import routes as app_routes
from .replays import routes as replay_routes
from .rule_texts import clause_text
from .rules_form import explained, options, presets
from .seats import bot_levels
from .stats import Stats
from .storage import SeatRow, Storage, TableRow
from .table import LOBBY, Table
from .tokens import looks_like_host_token, new_host_token, new_table_id, token_hash

log = logging.getLogger("handfoot.server")

IDLE_UNLOAD = 600.0  # seconds a table with nobody connected stays in memory
PLAY_NOW = "play-now"  # as ``bots``: every seat at the level Play now seats for the rules


class Hall:
    """The tables this process holds."""

    def __init__(self, storage: Storage, runner: BotRunner, public_url: str | None = None,
                 idle_unload: float = IDLE_UNLOAD, limits: p.Limits | None = None,
                 clock: Clock | None = None) -> None:
        self.storage = storage
        self.limits = limits or p.Limits()
        self.runner = runner
        self.public_url = public_url.rstrip("/") if public_url else None
        self.idle_unload = idle_unload
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._timing: asyncio.Task[None] | None = None
        # The turn limits of turn-based tables (pace.py), on the hall's clock (clock.py).
        self.clock = clock or Clock()
        self.timers = TurnTimers(self.clock, self.table)
        self.stats = Stats()
        storage.stats = self.stats

    async def table(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is None:
                stored = await self.storage.load(table_id)
                if stored is None:
                    return None
                table = Table(stored, self.storage, self.runner, self.stats, self.timers)
                self.tables[table_id] = table
        self._loading.pop(table_id, None)
        return table

    async def create(self, request: p.CreateTable, base_url: str) -> dict[str, Any]:
        rules = rules_of(request.rules)
        # "play-now" (the home page's Play now): the level measured to fit a quick table.
        bots = play_now_level(rules) if request.bots == PLAY_NOW else request.bots
        levels = bot_levels(bots, rules.players)
        host = request.host_token or new_host_token()
        if not looks_like_host_token(host):
            raise p.ProtocolError("bad_token", "host_token: give back a host token this "
                                  "server made, or none")
        table_id = new_table_id()
        row = TableRow(table_id, token_hash(host), request.name.strip(), "",
                       rules.to_mapping(), request.options.model_dump(), LOBBY, 0, 0)
        seats = [SeatRow(s, "", None, level) for s, level in enumerate(levels)]
        await self.storage.create_table(row, seats)
        base = self.public_url or base_url.rstrip("/")
        ws_base = "ws" + base[4:] if base.startswith("http") else base
        return {"table": table_id, "invite": f"{base}/t/{table_id}",
                "websocket": f"{ws_base}/ws/{table_id}", "host_token": host,
                "rules": rules.to_mapping()}

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()  # for tests and tools that call in from threads
        self._sweeper = self.loop.create_task(self._sweep())
        self._watcher = self.loop.create_task(self.stats.watch_loop())
        self._timing = self.loop.create_task(self.timers.run(self.storage))
        self.stats.watch_gc()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, self.idle_unload))
            now = time.monotonic()
            for table_id, table in list(self.tables.items()):
                if table.idle and now - table.idle_since > self.idle_unload:
                    del self.tables[table_id]
                    await table.close()

    async def close(self) -> None:
        for task in (self._sweeper, self._watcher, self._timing):
            if task is not None:
                task.cancel()
        self.stats.unwatch_gc()
        for table in list(self.tables.values()):
            for client in list(table.clients):
                client.close(p.CLOSE_RESTART, "the server is stopping; reconnect")
            await table.close()
        self.runner.close()
        await self.storage.close()


def rules_of(choice: p.RulesChoice) -> Rules:
    """The rules a create request names: a preset plus house rules, or a rules file's text."""
    try:
        if choice.file is not None:
            if choice.preset is not None:
                raise p.ProtocolError("bad_message", "rules: give a preset or a file, not both")
            suffix = ".json" if choice.format == "json" else ".toml"
            rules = rules_from_text(choice.file, "rules" + suffix, choice.players)
            if choice.overrides:
                rules = rules.replace(**choice.overrides)
        else:
            name = choice.preset or "hand-and-foot"
            if name not in PRESET_NAMES:
                raise p.ProtocolError("rules", f"unknown preset {name[:60]!r}; known: "
                                      f"{', '.join(PRESET_NAMES)}")
            overrides = dict(choice.overrides or {})
            rules = house_rules(name, overrides, choice.players)
        if choice.team_size is not None and choice.team_size != rules.team_size:
            rules = rules.replace(team_size=choice.team_size)
    except RulesError as err:
        raise p.ProtocolError("rules", str(err)) from None
    except (ValueError, TypeError) as err:  # TOML or JSON that does not read
        raise p.ProtocolError("rules", f"the rules file does not read: {err}") from None
    return rules


# ====================================================================== routes
def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _hall(request: Request | WebSocket) -> Hall:
    hall: Hall = request.app.state.hall
    return hall


async def info(request: Request) -> Response:
    return JSONResponse({"protocol": p.PROTOCOL_VERSION, "server": f"handfoot {__version__}",
                         "presets": list(PRESET_NAMES), "bots": list(BOTS),
                         "levels": dict(LEVELS), "options": p.TableOptions().model_dump()})


async def rules_form(request: Request) -> Response:
    """The presets and every option of the rules, for the lobby's house-rule editor."""
    return JSONResponse({"presets": presets(), "options": options(), "bots": list(BOTS),
                         "levels": dict(LEVELS)})


async def rule_clause(request: Request) -> Response:
    """One clause of docs/RULES.md in words (the page's "Why?" beside a refusal)."""
    clause = request.path_params["clause"]
    found = clause_text(clause)
    if found is None:
        return _error("no_clause", f"the rules have no clause {clause[:20]!r}", 404)
    return JSONResponse(found, headers={"Cache-Control": "max-age=3600"})


async def explain_rules(request: Request) -> Response:
    """A rules choice (as ``POST /api/tables`` takes it) checked by the engine and explained."""
    try:
        data = await _json_body(request)
        if not isinstance(data, dict):
            raise p.ProtocolError("bad_json", "expected a JSON object")
        choice = p.parse_create({"rules": data}).rules
        rules = rules_of(choice)
    except p.ProtocolError as err:
        return _error(err.code, err.message, 413 if err.code == "too_large" else 400)
    # A table's complete rules name their preset ("hand-and-foot + house rules").
    named = rules.name.removesuffix(" + house rules")
    base = choice.preset or (named if named in PRESET_NAMES else None)
    return JSONResponse(explained(rules, base))


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > 128 * 1024:
        raise p.ProtocolError("too_large", "the request is over 128 KiB")
    try:
        return json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
        raise p.ProtocolError("bad_json", f"not valid JSON: {err}") from None


async def create_table(request: Request) -> Response:
    try:
        body = await request.body()
        if len(body) > 128 * 1024:
            return _error("too_large", "the request is over 128 KiB", 413)
        try:
            data = json.loads(body or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
            return _error("bad_json", f"not valid JSON: {err}", 400)
        made = await _hall(request).create(p.parse_create(data), str(request.base_url))
    except p.ProtocolError as err:
        return _error(err.code, err.message, 400)
    except StorageError as err:
        log.error("creating a table: %s", err)
        return _error("internal", "the database failed; try again", 503)
    return JSONResponse(made, status_code=201)


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def stats(request: Request) -> Response:
    hall = _hall(request)
    connections = sum(len(t.clients) for t in hall.tables.values())
    return JSONResponse(hall.stats.report(len(hall.tables), connections))


async def host_tables(request: Request) -> Response:
    token = _bearer(request)
    if token is None:
        return _error("host", "send the host token: Authorization: Bearer HOST_TOKEN", 401)
    tables = await _hall(request).storage.host_tables(token_hash(token))
    return JSONResponse({"tables": tables})


async def table_summary(request: Request) -> Response:
    summary = await _hall(request).storage.summary(request.path_params["table"])
    if summary is None:
        return _error("not_found", "no such table", 404)
    return JSONResponse(summary)


async def table_record(request: Request) -> Response:
    hall = _hall(request)
    table_id = request.path_params["table"]
    stored = await hall.storage.load(table_id)
    if stored is None:
        return _error("not_found", "no such table", 404)
    raw = request.query_params.get("game")
    try:
        game_no = int(raw) if raw is not None else stored.row.game
    except ValueError:
        return _error("bad_message", f"game: expected a whole number, got {str(raw)[:20]!r}",
                      400)
    game = await hall.storage.game(table_id, game_no) if game_no > 0 else None
    if game is None:
        return _error("not_found", f"this table has no game {game_no}", 404)
    if game.ended is None:
        return _error("in_play", "the game is still being played, and its record shows every "
                      "hand: it is given once the game is over", 409)
    try:
        text = export_json(game.header, game.deals,
                           [(a.round, a.seat, a.action) for a in game.actions])
    except KeepingError as err:
        log.error("table %s game %s: %s", table_id, game_no, err)
        return _error("internal", str(err), 500)
    return Response(text, media_type="application/json", headers={
        "content-disposition": f'attachment; filename="handfoot-{table_id}-game{game_no}.json"'})


STATIC = Path(__file__).parent / "static"

NOT_FOUND = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>No such table - handfoot</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css"></head>
<body class="plain"><main><h1>No such table</h1>
<p>This invite link names no table on this server. Ask the host for the link again, or
<a href="/">start a table of your own</a>.</p></main></body></html>
"""

# The page builds everything from the protocol; it loads nothing from elsewhere.
PAGE_HEADERS = {
    "content-security-policy": "default-src 'self'; connect-src 'self' ws: wss:; "
    "img-src 'self' data:; style-src 'self'; script-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'",
    "cache-control": "no-cache",
    "referrer-policy": "no-referrer",  # an invite link is the key to its table
    "x-content-type-options": "nosniff",
}


def _page() -> str:
    return (STATIC / "index.html").read_text(encoding="utf-8")


async def home(request: Request) -> Response:
    return HTMLResponse(_page(), headers=PAGE_HEADERS)


async def mine_page(request: Request) -> Response:
    """"My tables": the page asks for its tables with the tokens it keeps (POST /api/mine)."""
    return HTMLResponse((STATIC / "mine.html").read_text(encoding="utf-8"), headers=PAGE_HEADERS)


async def table_page(request: Request) -> Response:
    summary = await _hall(request).storage.summary(request.path_params["table"])
    if summary is None:
        return HTMLResponse(NOT_FOUND, status_code=404, headers=PAGE_HEADERS)
    return HTMLResponse(_page(), headers=PAGE_HEADERS)


class Static(StaticFiles):
    """The page's files, revalidated on every load (a new version is seen at once)."""

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)
        response.headers["cache-control"] = "no-cache"
        response.headers["x-content-type-options"] = "nosniff"
        return response


async def websocket(ws: WebSocket) -> None:
    hall = _hall(ws)
    table_id = ws.path_params["table"]
    await Connection(ws, hall.limits).run(lambda: hall.table(table_id))


def tune_collector() -> None:
    """Fewer, cheaper pauses of Python's cycle collector in a long-running server.

    Its full collections walk every container object in the process, and every table holds
    some, so a server with hundreds of tables paused for hundreds of milliseconds several
    times a minute (GET /api/stats, ``full_gc``).  What was made at start-up (modules,
    classes, functions) is frozen out of those walks, and the collector runs less often: a
    table's objects are freed by reference counting as it goes, and cycles are rare."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def create_app(db: str | None = None, public_url: str | None = None,
               bot_workers: int | None = None, idle_unload: float = IDLE_UNLOAD,
               limits: p.Limits | None = None, push: PushConfig | None = None,
               clock: Clock | None = None) -> Starlette:
    """The server as an ASGI application: ``db`` is a SQLite path or a postgresql:// URL;
    ``push``: where the Web Push key is kept and whom push services may write to (push.py);
    ``clock``: the turn limits' clock (tests move it; by default the machine's, or as the
    test-only ``HANDFOOT_TEST_CLOCK_OFFSET`` sets it, clock.py)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tune_collector()
        storage = await Storage.open(db)
        hall = Hall(storage, BotRunner(bot_workers), public_url, idle_unload, limits,
                    clock or Clock.from_environment())
        app.state.hall = hall
        app.state.push = await Pusher.start(storage, db, push)
        hall.start()
        try:
            yield
        finally:
            await app.state.push.close()
            await hall.close()

    return Starlette(
        routes=[
            Route("/", home),
            Route("/t/{table}", table_page),
            *lessons.ROUTES,
            Route("/mine", mine_page),
            Route("/api/info", info),
            Route("/api/rules", rules_form),
            Route("/api/rules/explain", explain_rules, methods=["POST"]),
            Route("/api/rules/clause/{clause}", rule_clause),
            Route("/api/stats", stats),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables", host_tables, methods=["GET"]),
            Route("/api/tables/{table}", table_summary),
            Route("/api/tables/{table}/record", table_record),
            *replay_routes(STATIC, PAGE_HEADERS),
            *app_routes(STATIC),
            *push_routes(),
            *mine_routes(),
            WebSocketRoute("/ws/{table}", websocket),
            Mount("/static", Static(directory=STATIC), name="static"),
        ],
        # The page's files and the rules' JSON compressed for a browser that asks: a phone's
        # first load is about a third of the bytes (docs/WEB.md).  Websockets pass untouched.
        middleware=[Middleware(GZipMiddleware, minimum_size=1024)],
        lifespan=lifespan,
    )

