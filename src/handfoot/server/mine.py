""""My tables": every table this browser holds a seat token for, and the player's history.

The browser sends its seat tokens in a POST body (a token is the key to its seat: never in a
URL, never logged).  For each table the answer holds only what that seat may know at the
table anyway: the table's name and status, its pace (live or turn-based, with its turn limit),
whose turn it is by seat name and since when, when the last move was, and which seat is the
browser's.  Tables where it is this browser's turn come first, the longest waiting first.

The history is computed from the stored games of those same tables, replayed by the engine
(the record's own scoring: the page counts no points): for each name the browser's seats
played under, by rule set, the games played and won, the average round score of the seat's
team, the canastas that team made, and the rounds the seat went out.  A name is not a login:
the history is only ever of the seats whose tokens the browser sends.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from handfoot.scoring import winners

from . import protocol as p
from .clock import iso
from .database import StorageError
from .keeping import GameKeeper, KeepingError, record_mapping
from .push import last_moves
from .storage import Storage
from .tokens import token_hash

if TYPE_CHECKING:
    from .app import Hall

log = logging.getLogger("handfoot.server")

MAX_SEATS = 200  # tokens one request may send (a browser that has sat at many tables)
MAX_BODY = 64 * 1024
ORDER = {"playing": 1, "lobby": 2, "over": 3}


@dataclass(slots=True)
class SeatGame:
    """One finished game from one seat: what the history adds up."""

    name: str
    rules: str
    won: bool
    rounds: int
    points: int  # the seat's team's round totals, summed
    canastas: int  # the seat's team's canastas, every kind, every round
    went_out: int  # rounds this seat ended by going out


# A finished game never changes: its replayed figures are kept (table, game) -> per seat.
_CACHE: OrderedDict[tuple[str, int], list[SeatGame]] = OrderedDict()
CACHE_SIZE = 2000


def game_figures(header: dict[str, Any], deals: list[tuple[int, dict[str, Any]]],
                 actions: list[tuple[int, int, str]], rules_name: str) -> list[SeatGame]:
    """Every seat's figures of one finished game, by replaying its record with the engine."""
    keeper, _ = GameKeeper.rebuild(record_mapping(header, deals, actions))
    g = keeper.game
    won = winners(list(g.totals))
    out = []
    for seat, name in enumerate(keeper.names):
        team = g.rules.team_of(seat)
        canastas = 0
        for result in g.results:
            tally = result.teams[team].tally
            if tally is not None:
                canastas += sum(tally.canastas.values())
        out.append(SeatGame(name, rules_name, team in won, len(g.results),
                            sum(r.teams[team].total for r in g.results), canastas,
                            sum(1 for r in g.results if r.went_out == seat)))
    return out


async def _figures(storage: Storage, table_id: str, game_no: int,
                   rules_name: str) -> list[SeatGame] | None:
    key = (table_id, game_no)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    game = await storage.game(table_id, game_no)
    if game is None or game.ended is None:
        return None
    try:
        figures = game_figures(game.header, game.deals,
                               [(a.round, a.seat, a.action) for a in game.actions], rules_name)
    except KeepingError as err:
        log.error("table %s game %s: %s", table_id, game_no, err)
        return None
    _CACHE[key] = figures
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return figures


def add_up(games: list[SeatGame]) -> list[dict[str, Any]]:
    """Per name and rule set: the history's lines, most games first."""
    lines: dict[tuple[str, str], dict[str, Any]] = {}
    for sg in games:
        line = lines.setdefault((sg.name, sg.rules), {
            "name": sg.name, "rules": sg.rules, "games": 0, "won": 0, "rounds": 0,
            "points": 0, "canastas": 0, "went_out": 0})
        line["games"] += 1
        line["won"] += int(sg.won)
        line["rounds"] += sg.rounds
        line["points"] += sg.points
        line["canastas"] += sg.canastas
        line["went_out"] += sg.went_out
    out = []
    for line in lines.values():
        rounds = line["rounds"]
        line["average_round"] = round(line["points"] / rounds, 1) if rounds else None
        line["went_out_share"] = round(line["went_out"] / rounds, 3) if rounds else None
        out.append(line)
    out.sort(key=lambda ln: (ln["name"].casefold(), -ln["games"], ln["rules"]))
    return out


# ====================================================================== the answer
def parse_seats(data: Any) -> list[tuple[str, str]]:
    if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
        raise p.ProtocolError("bad_message", 'expected {"seats": [{"table": ..., '
                              '"seat_token": ...}, ...]}')
    seats = data["seats"]
    if len(seats) > MAX_SEATS:
        raise p.ProtocolError("too_large", f"seats: at most {MAX_SEATS} at once")
    out: list[tuple[str, str]] = []
    for i, item in enumerate(seats):
        table = item.get("table") if isinstance(item, dict) else None
        token = item.get("seat_token") if isinstance(item, dict) else None
        if not (isinstance(table, str) and 0 < len(table) <= 40
                and isinstance(token, str) and 0 < len(token) <= 200):
            raise p.ProtocolError("bad_message", f"seats[{i}]: expected table and seat_token, "
                                  "two strings")
        if (table, token) not in out:
            out.append((table, token))
    return out


async def my_tables(hall: Hall, seats: list[tuple[str, str]]) -> dict[str, Any]:
    storage = hall.storage
    rows: list[dict[str, Any]] = []
    games: list[SeatGame] = []
    found: dict[str, tuple[int, str, dict[str, Any]]] = {}
    unknown: list[str] = []
    for table_id, token in seats:
        hit = await storage.db.rows(
            "SELECT s.seat, t.name, t.status, t.game, t.created, t.rules, t.options"
            " FROM web_seats s JOIN web_tables t ON t.id = s.table_id"
            " WHERE s.table_id = ? AND s.token_hash = ?",
            (table_id, token_hash(token)))
        if not hit:
            unknown.append(table_id)  # no such table, or the seat was given up
            continue
        seat, name, status, game_no, created, rules, options = hit[0]
        found[table_id] = (int(seat), status, {"name": name, "game": int(game_no),
                                               "created": created,
                                               "rules": json.loads(rules).get("name", ""),
                                               "options": json.loads(options)})
    moves = await last_moves(storage, list(found))
    for table_id, (seat, status, info) in found.items():
        game_no = info["game"]
        last = moves.get(table_id)
        if last is None:
            started = await storage.db.rows(
                "SELECT started, ended FROM web_games WHERE table_id = ? AND game = ?",
                (table_id, game_no)) if game_no else []
            last = (started[0][1] or started[0][0]) if started else info["created"]
        names = [r[0] for r in await storage.db.rows(
            "SELECT name FROM web_seats WHERE table_id = ? ORDER BY seat", (table_id,))]
        turn: int | None = None
        asked = False
        since: str | None = None
        deadline: float | None = None
        waiting = False
        if status == "playing":
            try:
                table = await hall.table(table_id)
            except (StorageError, KeepingError) as err:  # listed without its turn
                log.error("my tables: table %s does not load: %s", table_id, err)
                table = None
            if table is not None and table.keeper is not None and not table.keeper.game.over:
                g = table.keeper.game
                turn, asked = g.actor, g.actor != g.seat
                names = [s.name for s in table.seats]
                if table.turn is not None:
                    since = table.turn.since
                    deadline = table.deadline()
                    waiting = (deadline is not None and table.options.on_limit == "wait"
                               and table.clock.now() >= deadline)
        pace = {k: info["options"].get(k, default) for k, default in
                (("pace", "live"), ("turn_limit", "none"), ("on_limit", "bot"))}
        rows.append({
            "table": table_id, "name": info["name"], "status": status, "game": game_no,
            "rules": info["rules"], "seat": seat, "seat_name": names[seat],
            "turn": turn, "turn_name": names[turn] if turn is not None else None,
            "asked": asked, "your_turn": turn == seat, "last_move": last,
            "since": since, "deadline": iso(deadline) if deadline is not None else None,
            "waiting": waiting, "pace": pace, "url": f"/t/{table_id}"})
        for n in range(1, game_no + 1):
            figures = await _figures(storage, table_id, n, info["rules"])
            if figures is not None and seat < len(figures):
                games.append(figures[seat])
    # Your turn first (the longest waiting first: since the turn began), then tables in play,
    # in their lobby, over; each by its last move, latest first.
    rows.sort(key=lambda r: r["last_move"], reverse=True)
    rows.sort(key=lambda r: (0, r["since"] or r["last_move"]) if r["your_turn"]
              else (ORDER.get(r["status"], 4), ""))
    return {"tables": rows, "unknown": unknown, "history": add_up(games)}


def routes() -> list[BaseRoute]:
    async def mine(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_BODY:
            return _error("too_large", f"the request is over {MAX_BODY // 1024} KiB", 413)
        try:
            data = json.loads(body or b"{}")
            seats = parse_seats(data)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
            return _error("bad_json", f"not valid JSON: {err}", 400)
        except p.ProtocolError as err:
            return _error(err.code, err.message, 413 if err.code == "too_large" else 400)
        try:
            answer = await my_tables(request.app.state.hall, seats)
        except StorageError as err:
            log.error("my tables: %s", err)
            return _error("internal", "the database failed; try again", 503)
        return JSONResponse(answer, headers={"cache-control": "no-store"})

    return [Route("/api/mine", mine, methods=["POST"])]


def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)
