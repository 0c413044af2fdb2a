"""The lobby: taking and giving back seats, the host's options, starting a game and the
rematch.  Each is a function of the table and the client's message, run under the table's
lock like every change; the table keeps the state, these decide what may change and store it.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from pydantic import ValidationError

from . import protocol as p
from . import push
from .drivers import bot_name
from .keeping import GameKeeper, header_mapping
from .messages import reply
from .pace import turn_key
from .protocol import LOBBY, OVER
from .seats import BOT, PERSON, Client, bot_levels, clean_text
from .storage import TurnRow
from .tokens import new_seat_token, token_hash

if TYPE_CHECKING:
    from .table import Table


async def join(table: Table, client: Client, msg: p.Join) -> None:
    async with table.lock:
        if client.seat is not None:
            raise p.ProtocolError("seat", f"you already hold seat {client.seat}", msg.id)
        if table.status != LOBBY:
            raise p.ProtocolError("seat", "the game has started: seats are fixed", msg.id)
        if msg.seat >= len(table.seats):
            raise p.ProtocolError("seat", f"this table has seats 0 to {len(table.seats) - 1}",
                                  msg.id)
        seat = table.seats[msg.seat]
        if seat.person:
            raise p.ProtocolError("seat", f"seat {msg.seat} is taken", msg.id)
        name = clean_text(msg.name, p.NAME_LENGTH)
        if not name:
            raise p.ProtocolError("bad_message", "join.name: give a name of 1 to "
                                  f"{p.NAME_LENGTH} characters", msg.id)
        token = new_seat_token()
        await table.storage.set_seat(table.id, seat.index, name, token_hash(token))
        seat.name, seat.token_hash = name, token_hash(token)
        seat.driver = PERSON
        seat.hold_left = table.options.seat_hold
        table.seat_client(seat, client)
        joined: p.Joined = {"type": "joined", "seat": seat.index, "seat_token": token}
        table.send(client, reply(joined, msg.id))
        table.broadcast_table()


async def leave(table: Table, client: Client, msg: p.Leave) -> None:
    async with table.lock:
        if client.seat is None:
            raise p.ProtocolError("not_seated", "you hold no seat", msg.id)
        if table.status != LOBBY:
            raise p.ProtocolError("status", "the game has started: close the connection "
                                  "and a bot will play your seat after the seat hold", msg.id)
        seat = table.seats[client.seat]
        await table.storage.set_seat(table.id, seat.index, "", None)
        seat.name, seat.token_hash, seat.client = "", None, None
        client.seat = None
        table.broadcast_table(client, msg.id)


async def start(table: Table, client: Client, msg: p.Start) -> None:
    async with table.lock:
        _need_host(client, msg.id)
        if table.status != LOBBY:
            raise p.ProtocolError("status", f"the table is {table.status}, not in its lobby",
                                  msg.id)
        await _new_game(table, client, msg.id)


async def rematch(table: Table, client: Client, msg: p.Rematch) -> None:
    async with table.lock:
        _need_host(client, msg.id)
        if table.status != OVER:
            raise p.ProtocolError("status", "a rematch comes after the game is over", msg.id)
        await _new_game(table, client, msg.id)


async def _new_game(table: Table, client: Client, reply_to: p.ReplyTo) -> None:
    """Bots take the open seats and a new deal is stored, then the table plays it."""
    for seat in table.seats:
        if not seat.person:
            seat.name = bot_name(seat.level, seat.index)
        seat.driver = PERSON if seat.person else BOT
        seat.hold_left = table.options.seat_hold
        seat.hand_back = False
    names = [s.name for s in table.seats]
    game_no = table.game_no + 1
    seed = secrets.randbelow(10**9)
    description = f"handfoot serve: {table.name or 'table ' + table.id}, game {game_no}"
    keeper = GameKeeper.new(table.rules, seed, names, description)
    header = header_mapping(table.rules, seed, names, [s.team for s in table.seats],
                            description)
    deals = [(r, d.to_mapping()) for r, d in keeper.deals()]
    g = keeper.game
    turn = TurnRow(game_no, turn_key(g), g.actor, table.clock.iso())
    await table.storage.start_game(table.id, game_no, header, deals, table.version, names,
                                   turn)
    table.begin(keeper, game_no, turn)
    table.broadcast_table(client, reply_to)
    for other in table.clients:
        table.send_state(other, None)
    table.drivers.kick()
    push.published(table)  # the first turn is someone's: told as every turn is


async def set_options(table: Table, client: Client, msg: p.Options) -> None:
    async with table.lock:
        _need_host(client, msg.id)
        levels: list[str] | None = None
        if msg.bots is not None:
            if table.status != LOBBY:
                raise p.ProtocolError("status", "bot levels are fixed once the game starts",
                                      msg.id)
            levels = bot_levels(msg.bots, len(table.seats), msg.id)
        options = table.options
        if msg.options is not None:
            changes = msg.options.model_dump(exclude_none=True)
            if changes.get("pace") == "live":
                changes.setdefault("turn_limit", "none")  # a live table has no turn limit
            try:
                options = p.TableOptions.model_validate({**options.model_dump(), **changes})
            except ValidationError as err:
                raise p.ProtocolError("bad_message", p.validation_text("options", err),
                                      msg.id) from None
        before = table.options
        await table.storage.set_options(table.id, options.model_dump(), levels)
        if options.seat_hold != table.options.seat_hold:
            table.drivers.stop_hold()
            for seat in table.seats:
                seat.hold_left = min(seat.hold_left, options.seat_hold) \
                    if seat.client is None else options.seat_hold
        table.options = options
        if levels is not None:
            for seat, level in zip(table.seats, levels, strict=True):
                seat.level = level
        table.drivers.pace_changed(before)
        table.broadcast_table(client, msg.id)
        table.drivers.kick()


def _need_host(client: Client, reply_to: p.ReplyTo) -> None:
    if not client.host:
        raise p.ProtocolError("host", "only the host may do this (hello with the host "
                              "token)", reply_to)
