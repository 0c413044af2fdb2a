"""One table: its seats and who drives them, its one game, its version, and its clients.

Every change to a table happens under the table's lock, one at a time, in this order: check
(the engine's refusal), apply, store (one transaction), then send each client the update built
from its own seat's view.  Bots act through the same ``_apply`` as people.  A seat whose
person has gone is held while it is to act (``seat_hold``), then driven by its bot, and handed
back at the start of the next turn after the person returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import secrets
import time
from collections import deque
from typing import Any

from handfoot.actions import Action, ActionSyntaxError, Draw, parse_action
from handfoot.bots.hint import hint
from handfoot.clauses import CLAUSES
from handfoot.rules import Rules
from handfoot.views import view

from . import protocol as p
from . import push
from .coach import moves_that_apply, table_points
from .drivers import BotRunner, bot_name
from .keeping import GameKeeper, header_mapping, record_mapping
from .messages import (
    dumps,
    dumps_list,
    dumps_with,
    legal_texts,
    meld_points,
    pile_mapping,
    public_view,
    quota_missing,
    reply,
    seat_view,
)
from .seats import BOT, OPEN, PERSON, Client, Seat, bot_levels, clean_text
from .stats import Stats
from .storage import ActionRow, Storage, StoredTable
from .tokens import matches, new_seat_token, token_hash
from .updates import Entry, LogItem, log_lines, undo_words, words
from .words import event_mapping

log = logging.getLogger("handfoot.server")

LOBBY, PLAYING, OVER = "lobby", "playing", "over"


class TableClosed(Exception):
    """The table left memory (nobody was at it); look it up again for a fresh copy."""


class Table:
    def __init__(self, stored: StoredTable, storage: Storage, runner: BotRunner,
                 stats: Stats | None = None) -> None:
        row = stored.row
        self.id = row.id
        self.name = row.name
        self.host_hash = row.host_hash
        self.rules = Rules.from_mapping(row.rules)
        self.options = p.TableOptions.model_validate(row.options)
        self.status = row.status
        self.game_no = row.game
        self.version = row.version
        self.storage = storage
        self.runner = runner
        self.stats = stats
        self.seats = [Seat(s.seat, self.rules.team_of(s.seat), s.name, s.token_hash, s.bot)
                      for s in stored.seats]
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.keeper: GameKeeper | None = None
        self.history: deque[Entry] = deque(maxlen=p.HISTORY)
        self.log: deque[LogItem] = deque(maxlen=p.LOG_LINES)
        self._bot_task: asyncio.Task[None] | None = None
        self._hold_task: asyncio.Task[None] | None = None
        self._hold_seat = -1
        self.idle_since = time.monotonic()
        self.closed = False  # set when the hall lets the table go from memory
        for seat in self.seats:
            seat.hold_left = self.options.seat_hold
            seat.driver = PERSON if seat.person or self.status == LOBBY else BOT
        if stored.game is not None and self.status != LOBBY:
            self._restore(stored)

    # ================================================================ loading
    def _restore(self, stored: StoredTable) -> None:
        """Rebuild the game by replaying its stored record (as ``handfoot replay`` does)."""
        game = stored.game
        assert game is not None
        data = record_mapping(game.header, game.deals,
                              [(a.round, a.seat, a.action) for a in game.actions])
        keeper, steps = GameKeeper.rebuild(data)
        self.keeper = keeper
        self._make_bots()
        names = keeper.names
        self.log.append(f"{self.rules.name}: game {self.game_no}, "
                        f"{len(game.actions)} moves so far")
        rows = game.actions
        for row, step in zip(rows[-p.HISTORY:], steps[-p.HISTORY:], strict=True):
            entry = Entry(row.version, row.seat, row.driver, step.action.text,
                          dumps_list([event_mapping(e, names) for e in step.events]),
                          words(step.events, names))
            self.history.append(entry)
            self.log.append(entry)

    def _make_bots(self) -> None:
        assert self.keeper is not None
        seed = self.keeper.game.seed or 0
        for seat in self.seats:
            seat.bot = self.runner.make(seat.level, seed * 10 + seat.index + 1)

    # ================================================================ clients
    @property
    def idle(self) -> bool:
        return not self.clients and self._bot_task is None and not self.lock.locked()

    async def attach(self, client: Client, hello: p.Hello) -> None:
        async with self.lock:
            if self.closed:
                raise TableClosed
            seat: Seat | None = None
            if hello.seat_token is not None:
                seat = next((s for s in self.seats if matches(hello.seat_token, s.token_hash)),
                            None)
                if seat is None:
                    raise p.ProtocolError("bad_token", "no seat at this table has that token",
                                          hello.id)
            host = False
            if hello.host_token is not None:
                if not matches(hello.host_token, self.host_hash):
                    raise p.ProtocolError("bad_token", "that is not this table's host token",
                                          hello.id)
                host = True
            client.host = host
            self.clients.add(client)
            if seat is not None:
                self._seat_client(seat, client)
            self._send(client, reply(self._welcome(client), hello.id))
            self._broadcast_table()
            self._send_state(client, hello.last_version)
            self._kick()

    def _seat_client(self, seat: Seat, client: Client) -> None:
        old = seat.client
        if old is not None and old is not client:
            old.seat = None
            self.clients.discard(old)
            old.close(p.CLOSE_REPLACED, "seat taken over by a newer connection")
        seat.client = client
        client.seat = seat.index
        if self._hold_seat == seat.index:
            self._stop_hold()
        seat.hold_left = self.options.seat_hold
        if seat.driver == BOT and seat.person:
            g = self.keeper.game if self.keeper else None
            if g is not None and self.status == PLAYING and seat.index in (g.seat, g.actor):
                seat.hand_back = True  # the bot finishes this turn
            else:
                seat.driver = PERSON

    async def detach(self, client: Client) -> None:
        async with self.lock:
            if client not in self.clients:
                return
            self.clients.discard(client)
            if client.seat is not None:
                seat = self.seats[client.seat]
                if seat.client is client:
                    seat.client = None
                    seat.hand_back = False
            if not self.clients:
                self.idle_since = time.monotonic()
            self._broadcast_table()
            self._kick()

    # ================================================================ the lobby
    async def join(self, client: Client, msg: p.Join) -> None:
        async with self.lock:
            if client.seat is not None:
                raise p.ProtocolError("seat", f"you already hold seat {client.seat}", msg.id)
            if self.status != LOBBY:
                raise p.ProtocolError("seat", "the game has started: seats are fixed", msg.id)
            if msg.seat >= len(self.seats):
                raise p.ProtocolError("seat", f"this table has seats 0 to {len(self.seats) - 1}",
                                      msg.id)
            seat = self.seats[msg.seat]
            if seat.person:
                raise p.ProtocolError("seat", f"seat {msg.seat} is taken", msg.id)
            name = clean_text(msg.name, p.NAME_LENGTH)
            if not name:
                raise p.ProtocolError("bad_message", "join.name: give a name of 1 to "
                                      f"{p.NAME_LENGTH} characters", msg.id)
            token = new_seat_token()
            await self.storage.set_seat(self.id, seat.index, name, token_hash(token))
            seat.name, seat.token_hash = name, token_hash(token)
            seat.driver = PERSON
            seat.hold_left = self.options.seat_hold
            self._seat_client(seat, client)
            self._send(client, reply({"type": "joined", "seat": seat.index,
                                       "seat_token": token}, msg.id))
            self._broadcast_table()

    async def leave(self, client: Client, msg: p.Leave) -> None:
        async with self.lock:
            if client.seat is None:
                raise p.ProtocolError("not_seated", "you hold no seat", msg.id)
            if self.status != LOBBY:
                raise p.ProtocolError("status", "the game has started: close the connection "
                                      "and a bot will play your seat after the seat hold", msg.id)
            seat = self.seats[client.seat]
            await self.storage.set_seat(self.id, seat.index, "", None)
            seat.name, seat.token_hash, seat.client = "", None, None
            client.seat = None
            self._broadcast_table(client, msg.id)

    async def start(self, client: Client, msg: p.Start) -> None:
        async with self.lock:
            self._need_host(client, msg.id)
            if self.status != LOBBY:
                raise p.ProtocolError("status", f"the table is {self.status}, not in its lobby",
                                      msg.id)
            await self._new_game(client, msg.id)

    async def rematch(self, client: Client, msg: p.Rematch) -> None:
        async with self.lock:
            self._need_host(client, msg.id)
            if self.status != OVER:
                raise p.ProtocolError("status", "a rematch comes after the game is over", msg.id)
            await self._new_game(client, msg.id)

    async def _new_game(self, client: Client, reply_to: str | int | None) -> None:
        for seat in self.seats:
            if not seat.person:
                seat.name = bot_name(seat.level, seat.index)
            seat.driver = PERSON if seat.person else BOT
            seat.hold_left = self.options.seat_hold
            seat.hand_back = False
        names = [s.name for s in self.seats]
        game_no = self.game_no + 1
        seed = secrets.randbelow(10**9)
        description = f"handfoot serve: {self.name or 'table ' + self.id}, game {game_no}"
        keeper = GameKeeper.new(self.rules, seed, names, description)
        header = header_mapping(self.rules, seed, names, [s.team for s in self.seats],
                                description)
        deals = [(r, d.to_mapping()) for r, d in keeper.deals()]
        await self.storage.start_game(self.id, game_no, header, deals, self.version, names)
        self.keeper, self.game_no, self.status = keeper, game_no, PLAYING
        self._make_bots()
        self.log.append(f"— game {game_no}: {self.rules.name}")
        g = keeper.game
        self.log.append(f"— {names[g.dealer]} deals round {g.round_no}")
        self._broadcast_table(client, reply_to)
        for client in self.clients:
            self._send_state(client, None)
        self._kick()

    async def set_options(self, client: Client, msg: p.Options) -> None:
        async with self.lock:
            self._need_host(client, msg.id)
            levels: list[str] | None = None
            if msg.bots is not None:
                if self.status != LOBBY:
                    raise p.ProtocolError("status", "bot levels are fixed once the game starts",
                                          msg.id)
                levels = bot_levels(msg.bots, len(self.seats), msg.id)
            options = self.options
            if msg.options is not None:
                changes = msg.options.model_dump(exclude_none=True)
                options = self.options.model_copy(update=changes)
            await self.storage.set_options(self.id, options.model_dump(), levels)
            if options.seat_hold != self.options.seat_hold:
                self._stop_hold()
                for seat in self.seats:
                    seat.hold_left = min(seat.hold_left, options.seat_hold) \
                        if seat.client is None else options.seat_hold
            self.options = options
            if levels is not None:
                for seat, level in zip(self.seats, levels, strict=True):
                    seat.level = level
            self._broadcast_table(client, msg.id)
            self._kick()

    def _need_host(self, client: Client, reply_to: str | int | None) -> None:
        if not client.host:
            raise p.ProtocolError("host", "only the host may do this (hello with the host "
                                  "token)", reply_to)

    # ================================================================ playing
    async def act(self, client: Client, msg: p.Act) -> None:
        async with self.lock:
            seat = self._playing_seat(client, msg.id)
            self._need_version(msg.version, msg.id)
            try:
                action = parse_action(msg.action)
            except ActionSyntaxError as err:
                raise p.ProtocolError("bad_action", f"{msg.action[:60]!r}: {err}",
                                      msg.id) from None
            if self.seats[seat].driver != PERSON:
                self._refuse(client, msg.id, action.text,
                             ("3.1", "a bot is playing your seat until the next turn begins"))
                return
            assert self.keeper is not None
            refusal = self.keeper.game.refusal(action, seat)
            if refusal is not None:
                self._refuse(client, msg.id, action.text, refusal)
                return
            await self._apply(seat, action, PERSON, msg.id)

    def check(self, client: Client, msg: p.Check) -> None:
        """Would the engine take this action now?  Nothing is applied: the page shows the
        answer beside the cards being staged, with the points they put down."""
        seat = self._playing_seat(client, msg.id)
        try:
            action = parse_action(msg.action)
        except ActionSyntaxError as err:
            raise p.ProtocolError("bad_action", f"{msg.action[:60]!r}: {err}", msg.id) from None
        assert self.keeper is not None
        g = self.keeper.game
        refusal = g.refusal(action, seat) if not g.over else ("10.8", "the game is over")
        if refusal is None and self.seats[seat].driver != PERSON:
            refusal = ("3.1", "a bot is playing your seat until the next turn begins")
        clause, reason = refusal or ("", "")
        team = self.rules.team_of(seat)
        points = meld_points(g, action)
        opening = None
        if not g.over and not g.opened[team]:
            mine = g.seat == seat
            laid = g.staged if mine else 0
            minimum = g.minimum if mine else g.opening_minimum(team)
            opening = {"laid": laid + points, "minimum": minimum}
        self._send(client, reply({"type": "checked", "action": action.text,
                                   "ok": refusal is None, "clause": clause,
                                   "rule": CLAUSES.get(clause, ""), "reason": reason,
                                   "points": points, "opening": opening}, msg.id))

    async def undo(self, client: Client, msg: p.Undo) -> None:
        async with self.lock:
            seat = self._playing_seat(client, msg.id)
            self._need_version(msg.version, msg.id)
            if not self._can_undo(seat):
                raise p.ProtocolError("undo", "nothing to take back: only your own steps of "
                                      "this turn, until you learn something new", msg.id)
            keeper = self.keeper
            assert keeper is not None
            before = keeper.undo.undo()
            version = self.version + 1
            await self.storage.truncate(self.id, self.game_no, before.version, version)
            steps = keeper.restore(before)
            self.version = version
            lines = undo_words(seat, steps, keeper.names)
            events = dumps_list([{"name": "undo", "seat": seat, "text": lines[-1][0],
                                  "steps": steps}])
            entry = Entry(version, seat, PERSON, "undo", events, lines)
            self._publish(entry, {seat: msg.id})

    def hint(self, client: Client, msg: p.Hint) -> None:
        seat = self._playing_seat(client, msg.id)
        if not self.options.hints:
            raise p.ProtocolError("hints_off", "this table gives no hints (the host may turn "
                                  "them on)", msg.id)
        assert self.keeper is not None
        best = hint(self.keeper.game, seat)
        if best is None:
            self._send(client, reply({"type": "hint", "action": None,
                                       "text": "nothing to do: it is not your move"}, msg.id))
            return
        self._send(client, reply({"type": "hint", "action": best.text,
                                   "text": f"the heuristic bot would {best.text}"}, msg.id))

    def chat(self, client: Client, msg: p.Chat) -> None:
        if client.seat is None:
            raise p.ProtocolError("not_seated", "only seated players chat", msg.id)
        text = clean_text(msg.text, p.CHAT_LENGTH)
        if not text:
            raise p.ProtocolError("bad_message", "chat.text: nothing to say", msg.id)
        seat = self.seats[client.seat]
        line = {"type": "chat", "seat": seat.index, "name": html.escape(seat.name),
                "text": html.escape(text)}
        out = dumps(line)
        for other in self.clients:
            other.send(out if other is not client else dumps(reply(line, msg.id)))

    def sync(self, client: Client, msg: p.Sync) -> None:
        if self.keeper is None:
            self._send(client, reply(self.table_message(), msg.id))
        else:
            self._send_state(client, msg.last_version, msg.id)

    def _playing_seat(self, client: Client, reply_to: str | int | None) -> int:
        if client.seat is None:
            raise p.ProtocolError("not_seated", "spectators watch; join a seat to play",
                                  reply_to)
        if self.status != PLAYING or self.keeper is None:
            raise p.ProtocolError("status", f"no game in play (the table is {self.status})",
                                  reply_to)
        return client.seat

    def _need_version(self, version: int, reply_to: str | int | None) -> None:
        if version != self.version:
            raise p.ProtocolError("stale", f"your message was for version {version}; the "
                                  f"table is at version {self.version}", reply_to,
                                  version=self.version)

    def _refuse(self, client: Client, reply_to: str | int | None, text: str,
                refusal: tuple[str, str]) -> None:
        clause, reason = refusal
        self._send(client, reply({"type": "refused", "action": text, "clause": clause,
                                   "rule": CLAUSES.get(clause, ""), "reason": reason},
                                  reply_to))

    async def _apply(self, seat: int, action: Action, by: str,
                     reply_to: str | int | None = None) -> None:
        """Apply an action the engine allows, store it, then tell everyone."""
        keeper = self.keeper
        assert keeper is not None
        g = keeper.game
        person = by == PERSON
        before = view(g, seat).hand if isinstance(action, Draw) else None
        applied = keeper.apply(seat, action, undoable=person)
        version = self.version + 1
        row = ActionRow(keeper.actions - 1, applied.round, seat, action.text, version, by)
        try:
            await self.storage.append(self.id, self.game_no, row,
                                      [(r, d.to_mapping()) for r, d in applied.new_deals],
                                      keeper.game.over)
        except Exception:
            # Not stored, so it did not happen: back to what the database holds.
            log.exception("table %s: storing an action failed; reloading", self.id)
            await self._reload()
            raise
        self.version = version
        if self.stats is not None:
            self.stats.actions += 1
        over = keeper.game.over
        if over:
            self.status = OVER
        names = keeper.names
        events = [event_mapping(e, names) for e in applied.events]
        # A bot playing a gone person's seat is named in the third person in that person's
        # log too: they come back to read what was done for them, not "You draw...".
        for_you = seat if by != PERSON and self.seats[seat].person else None
        hands = (before, view(keeper.game, seat).hand) if before is not None else None
        entry = Entry(version, seat, by, action.text, dumps_list(events),
                      words(applied.events, names, hands, for_you))
        changed = False
        if over or any(e["name"] in ("turn", "deal") for e in events):
            for s in self.seats:
                if s.hand_back:
                    s.hand_back, s.driver, changed = False, PERSON, True
        self._publish(entry, {seat: reply_to} if reply_to is not None else {})
        if changed or over:
            self._broadcast_table()

    def _publish(self, entry: Entry, replies: dict[int, str | int | None]) -> None:
        """Send one update to every client, each built from its own seat's view."""
        self.history.append(entry)
        self.log.append(entry)
        built: dict[int | None, str] = {}
        for client in self.clients:
            seat = client.seat
            reply = replies.get(seat) if seat is not None else None
            text = built.get(seat) if reply is None else None
            if text is None:
                msg = self._update(entry, seat)
                if reply is not None:
                    msg["reply_to"] = reply
                text = dumps_with(msg, "events", entry.events)
                if reply is None:
                    built[seat] = text
            client.send(text)
        self._kick()
        push.published(self)  # "your turn" to a person who is away (push.py)

    def _update(self, entry: Entry, seat: int | None) -> dict[str, Any]:
        assert self.keeper is not None
        g = self.keeper.game
        return {"type": "update", "version": entry.version, "game": self.game_no,
                "seat": entry.seat, "by": entry.by, "action": entry.action,
                "log": entry.log(seat),
                "view": seat_view(g, seat) if seat is not None else public_view(g),
                "legal": legal_texts(g, seat) if self._drives(seat) else [],
                "can_undo": self._can_undo(seat),
                "pile": pile_mapping(g, seat), "quota_missing": quota_missing(g),
                "table_points": table_points(g)}

    def _drives(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat].driver == PERSON

    def _can_undo(self, seat: int | None) -> bool:
        return (seat is not None and self.keeper is not None and self.keeper.can_undo(seat)
                and self._drives(seat))

    async def _reload(self) -> None:
        stored = await self.storage.load(self.id)
        if stored is None:
            return
        fresh = Table(stored, self.storage, self.runner, self.stats)
        self.version, self.status, self.game_no = fresh.version, fresh.status, fresh.game_no
        self.keeper = fresh.keeper
        self.history, self.log = fresh.history, fresh.log
        for seat, new in zip(self.seats, fresh.seats, strict=True):
            seat.bot = new.bot
        for client in self.clients:
            self._send_state(client, None)

    async def recover(self) -> None:
        async with self.lock:
            await self._reload()

    # ================================================================ bots and holds
    def _kick(self) -> None:
        """After any change: start the bot's move or the seat hold if one is due now."""
        if self._bot_task is None and self._bot_due():
            self._bot_task = asyncio.get_running_loop().create_task(self._bot_move())
        self._check_hold()

    def _actor(self) -> Seat | None:
        if self.status != PLAYING or self.keeper is None or self.keeper.game.over:
            return None
        return self.seats[self.keeper.game.actor]

    def _bot_due(self) -> bool:
        seat = self._actor()
        # A table nobody is connected to waits: bots do not play to an empty room.
        return seat is not None and seat.driver == BOT and bool(self.clients)

    async def _bot_move(self) -> None:
        try:
            version = self.version
            await asyncio.sleep(self.options.bot_pace)
            async with self.lock:
                seat = self._actor()
                if self.version != version or seat is None or not self._bot_due():
                    return
                assert self.keeper is not None and seat.bot is not None
                g = self.keeper.game
                seen, legal, bot = view(g, seat.index), g.legal_actions(), seat.bot
            action, bot = await self.runner.choose(bot, seen, legal)
            async with self.lock:
                if self.version != version or self._actor() is not seat or seat.driver != BOT:
                    return
                seat.bot = bot
                assert self.keeper is not None
                refusal = self.keeper.game.refusal(action)
                if refusal is not None:  # a bot choosing outside the legal list is a bug
                    log.error("table %s: bot %s chose %r, refused: %s", self.id, seat.level,
                              action.text, refusal)
                    action = legal[0]
                await self._apply(seat.index, action, BOT)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot's move failed", self.id)
        finally:
            if self._bot_task is asyncio.current_task():
                self._bot_task = None
            if self.clients:
                self._kick()

    def _check_hold(self) -> None:
        seat = self._actor()
        due = (seat is not None and seat.person and seat.client is None
               and seat.driver == PERSON and bool(self.clients))
        if due and seat is not None and self._hold_task is None:
            self._hold_seat = seat.index
            seat.hold_since = time.monotonic()
            self._hold_task = asyncio.get_running_loop().create_task(self._hold(seat))
            self._broadcast_table()
        elif not due and self._hold_task is not None:
            self._stop_hold()

    def _stop_hold(self) -> None:
        task, self._hold_task = self._hold_task, None
        if task is None:
            return
        task.cancel()
        seat = self.seats[self._hold_seat]
        if seat.hold_since is not None:
            seat.hold_left = max(0.0, seat.hold_left - (time.monotonic() - seat.hold_since))
            seat.hold_since = None

    async def _hold(self, seat: Seat) -> None:
        await asyncio.sleep(seat.hold_left)
        async with self.lock:
            if self._hold_task is not asyncio.current_task():
                return
            self._hold_task = None
            seat.hold_left, seat.hold_since = 0.0, None
            seat.driver = BOT
            if self.keeper is not None:
                self.keeper.undo.clear()
            self.log.append(f"{seat.name} is away: {bot_name(seat.level, seat.index)} plays "
                            "the seat")
            self._broadcast_table()
            self._kick()

    # ================================================================ messages
    def _send(self, client: Client, message: dict[str, Any]) -> None:
        client.send(dumps(message))

    def _welcome(self, client: Client) -> dict[str, Any]:
        seat = client.seat
        return {"type": "welcome", "protocol": p.PROTOCOL_VERSION, "server": _server_name(),
                "table": self.id,
                "you": {"seat": seat, "host": client.host,
                        "name": self.seats[seat].name if seat is not None else ""}}

    def table_message(self) -> dict[str, Any]:
        now = time.monotonic()
        seats = []
        for s in self.seats:
            occupant = PERSON if s.person else (OPEN if self.status == LOBBY else BOT)
            hold: float | None = None
            if s.person and s.client is None:
                hold = s.hold_left
                if s.hold_since is not None:
                    hold = max(0.0, hold - (now - s.hold_since))
                hold = round(hold, 1)
            # Whether the hold is counting down now (the gone person's seat is to act): the
            # page then counts the seconds down itself, from when this message arrived.
            counting = hold is not None and s.hold_since is not None
            seats.append({"seat": s.index, "team": s.team, "name": s.name,
                          "occupant": occupant, "driver": s.driver if occupant != OPEN else OPEN,
                          "connected": s.client is not None, "hold": hold,
                          "hold_counting": counting, "bot": s.level})
        return {"type": "table", "table": self.id, "name": self.name, "status": self.status,
                "game": self.game_no, "version": self.version,
                "rules": self.rules.to_mapping(), "packet_names": list(self.rules.packet_names),
                "options": self.options.model_dump(),
                "moves": moves_that_apply(self.rules),
                "seats": seats,
                "spectators": sum(1 for c in self.clients if c.seat is None)}

    def _broadcast_table(self, asker: Client | None = None,
                         reply_to: str | int | None = None) -> None:
        """The table message to everyone; the copy to ``asker`` answers its message."""
        message = self.table_message()
        text = dumps(message)
        for client in self.clients:
            if client is asker and reply_to is not None:
                client.send(dumps(reply(message, reply_to)))
            else:
                client.send(text)

    def _send_state(self, client: Client, last_version: int | None,
                    reply_to: str | int | None = None) -> None:
        if self.keeper is None:
            return
        seat = client.seat
        if last_version is not None and last_version < self.version and self.history \
                and self.history[0].version <= last_version + 1:
            entries = []
            for e in self.history:
                if e.version > last_version:
                    entries.append(e.public(seat))
            self._send(client, {"type": "catch_up", "from": last_version,
                                "to": self.version, "entries": entries})
        g = self.keeper.game
        self._send(client, reply({
            "type": "state", "version": self.version, "game": self.game_no,
            "view": seat_view(g, seat) if seat is not None else public_view(g),
            "legal": legal_texts(g, seat) if self._drives(seat) else [],
            "can_undo": self._can_undo(seat),
            "pile": pile_mapping(g, seat), "quota_missing": quota_missing(g),
            "table_points": table_points(g),
            "log": log_lines(self.log, seat, p.LOG_LINES),
        }, reply_to))

    async def close(self) -> None:
        self.closed = True
        for task in (self._bot_task, self._hold_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


def _server_name() -> str:
    from handfoot import __version__

    return f"handfoot {__version__}"
