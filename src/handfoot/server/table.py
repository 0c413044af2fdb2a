"""One table: its seats, its one game, its version, and its clients.

Every change to a table happens under the table's lock, one at a time, in this order: check
(the engine's refusal), apply, store (one transaction), then send each client the update built
from its own seat's view.  Bots act through the same ``apply`` as people.  The lobby (seats,
options, starting, rematch) is lobby.py's and who drives each seat (bots, seat holds,
hand-back) is seat_drivers.py's: both change the table only under its lock and through it.
"""

from __future__ import annotations

import asyncio
import html
import logging
import time
from collections import deque
from typing import cast

from handfoot.actions import Action, ActionSyntaxError, Draw, parse_action
from handfoot.bots.hint import hint_words
from handfoot.clauses import CLAUSES
from handfoot.events import Refusal
from handfoot.rules import Rules
from handfoot.views import view

from . import protocol as p
from . import push
from .clock import Clock, parse_iso
from .coach import moves_that_apply, table_points
from .drivers import BotRunner
from .keeping import GameKeeper, record_mapping
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
from .pace import TurnTimers, turn_key
from .protocol import LOBBY, OVER, PLAYING
from .seat_drivers import SeatDrivers
from .seats import BOT, OPEN, PERSON, Client, Seat, clean_text
from .stats import Stats
from .storage import ActionRow, Storage, StoredTable, TurnRow
from .tokens import matches
from .updates import Entry, LogItem, event_mapping, log_lines, undo_words, words

# A seat whose person has gone is played by a bot until the next turn: the person waits.
_BOT_PLAYS = Refusal("3.1", "a bot is playing your seat until the next turn begins")

log = logging.getLogger("handfoot.server")

__all__ = ["LOBBY", "OVER", "PLAYING", "Table", "TableClosed"]


class TableClosed(Exception):
    """The table left memory (nobody was at it); look it up again for a fresh copy."""


class Table:
    def __init__(self, stored: StoredTable, storage: Storage, runner: BotRunner,
                 stats: Stats | None = None, timers: TurnTimers | None = None) -> None:
        row = stored.row
        self.id = row.id
        self.name = row.name
        self.host_hash = row.host_hash
        self.rules = Rules.from_mapping(row.rules)
        self.options = p.TableOptions.model_validate(row.options)
        self.status = cast(p.TableStatus, row.status)  # storage keeps only these three
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
        self.drivers = SeatDrivers(self)
        self.idle_since = time.monotonic()
        self.closed = False  # set when the hall lets the table go from memory
        # Whose turn it is since when (every table), the turn limits' timers and clock (a
        # turn-based table's), and the turn whose limit was acted on (pace.py).
        self.timers = timers
        self.clock = timers.clock if timers is not None else Clock()
        self.turn: TurnRow | None = None
        self.limit_acted: str | None = None
        for seat in self.seats:
            seat.hold_left = self.options.seat_hold
            seat.driver = PERSON if seat.person or self.status == LOBBY else BOT
        if stored.game is not None and self.status != LOBBY:
            self._restore(stored)
            self.turn = self._turn_now(stored.turn)
            self.arm()

    # ================================================================ loading
    def _restore(self, stored: StoredTable) -> None:
        """Rebuild the game by replaying its stored record (as ``handfoot replay`` does)."""
        game = stored.game
        assert game is not None
        data = record_mapping(game.header, game.deals,
                              [(a.round, a.seat, a.action) for a in game.actions])
        keeper, steps = GameKeeper.rebuild(data)
        self.keeper = keeper
        self.drivers.make_bots()
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

    def begin(self, keeper: GameKeeper, game_no: int, turn: TurnRow | None = None) -> None:
        """Play this new game (stored already, with its first turn): the lobby's start and
        rematch."""
        self.keeper, self.game_no, self.status = keeper, game_no, PLAYING
        self.turn, self.limit_acted = turn, None
        self.arm()
        self.drivers.make_bots()
        self.log.append(f"— game {game_no}: {self.rules.name}")
        g = keeper.game
        self.log.append(f"— {keeper.names[g.dealer]} deals round {g.round_no}")

    # ================================================================ clients
    @property
    def idle(self) -> bool:
        return not self.clients and not self.drivers.busy and not self.lock.locked()

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
                self.seat_client(seat, client)
            self.send(client, reply(self._welcome(client), hello.id))
            self.broadcast_table()
            self.send_state(client, hello.last_version)
            self.drivers.kick()

    def seat_client(self, seat: Seat, client: Client) -> None:
        """The client holds the seat now (an older connection holding it is closed)."""
        old = seat.client
        if old is not None and old is not client:
            old.seat = None
            self.clients.discard(old)
            old.close(p.CLOSE_REPLACED, "seat taken over by a newer connection")
        seat.client = client
        client.seat = seat.index
        self.drivers.person_back(seat)

    async def detach(self, client: Client) -> None:
        async with self.lock:
            if client not in self.clients:
                return
            self.clients.discard(client)
            if client.seat is not None:
                seat = self.seats[client.seat]
                if seat.client is client:
                    seat.client = None
                    # Gone again before the seat was handed back: at a live table the bot
                    # keeps it (the hold ran out); at a turn-based one it plays this turn only.
                    if not self.options.turn_based:
                        seat.hand_back = False
            if not self.clients:
                self.idle_since = time.monotonic()
            self.broadcast_table()
            self.drivers.kick()

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
                self._refuse(client, msg.id, action.text, _BOT_PLAYS)
                return
            assert self.keeper is not None
            refusal = self.keeper.game.refusal(action, seat)
            if refusal is not None:
                self._refuse(client, msg.id, action.text, refusal)
                return
            await self.apply(seat, action, PERSON, msg.id)

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
        refusal = g.refusal(action, seat) if not g.over else Refusal("10.8", "the game is over")
        if refusal is None and self.seats[seat].driver != PERSON:
            refusal = _BOT_PLAYS
        clause, reason = refusal or ("", "")
        team = self.rules.team_of(seat)
        points = meld_points(g, action)
        opening: p.Opening | None = None
        if not g.over and not g.opened[team]:
            mine = g.seat == seat
            laid = g.staged if mine else 0
            minimum = g.minimum if mine else g.opening_minimum(team)
            opening = {"laid": laid + points, "minimum": minimum}
        checked: p.Checked = {"type": "checked", "action": action.text, "ok": refusal is None,
                              "clause": clause, "rule": CLAUSES.get(clause, ""),
                              "reason": reason, "points": points, "opening": opening}
        self.send(client, reply(checked, msg.id))

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
        best, text = hint_words(self.keeper.game, seat)
        answer: p.HintAnswer = {"type": "hint", "action": None if best is None else best.text,
                                "text": text}
        self.send(client, reply(answer, msg.id))

    def chat(self, client: Client, msg: p.Chat) -> None:
        if client.seat is None:
            raise p.ProtocolError("not_seated", "only seated players chat", msg.id)
        text = clean_text(msg.text, p.CHAT_LENGTH)
        if not text:
            raise p.ProtocolError("bad_message", "chat.text: nothing to say", msg.id)
        seat = self.seats[client.seat]
        line: p.ChatLine = {"type": "chat", "seat": seat.index, "name": html.escape(seat.name),
                            "text": html.escape(text)}
        out = dumps(line)
        for other in self.clients:
            other.send(out if other is not client else dumps(reply(line, msg.id)))

    def sync(self, client: Client, msg: p.Sync) -> None:
        if self.keeper is None:
            self.send(client, reply(self.table_message(), msg.id))
        else:
            self.send_state(client, msg.last_version, msg.id)

    def _playing_seat(self, client: Client, reply_to: p.ReplyTo) -> int:
        if client.seat is None:
            raise p.ProtocolError("not_seated", "spectators watch; join a seat to play",
                                  reply_to)
        if self.status != PLAYING or self.keeper is None:
            raise p.ProtocolError("status", f"no game in play (the table is {self.status})",
                                  reply_to)
        return client.seat

    def _need_version(self, version: int, reply_to: p.ReplyTo) -> None:
        if version != self.version:
            raise p.ProtocolError("stale", f"your message was for version {version}; the "
                                  f"table is at version {self.version}", reply_to,
                                  version=self.version)

    def _refuse(self, client: Client, reply_to: p.ReplyTo, text: str,
                refusal: Refusal) -> None:
        refused: p.Refused = {"type": "refused", "action": text, "clause": refusal.clause,
                              "rule": CLAUSES.get(refusal.clause, ""),
                              "reason": refusal.reason}
        self.send(client, reply(refused, reply_to))

    # ================================================================ apply, store, publish
    async def apply(self, seat: int, action: Action, by: str,
                    reply_to: p.ReplyTo = None) -> None:
        """Apply an action the engine allows, store it, then tell everyone."""
        keeper = self.keeper
        assert keeper is not None
        g = keeper.game
        person = by == PERSON
        before = view(g, seat).hand if isinstance(action, Draw) else None
        applied = keeper.apply(seat, action, undoable=person)
        version = self.version + 1
        row = ActionRow(keeper.actions - 1, applied.round, seat, action.text, version, by)
        turn = self.next_turn()
        try:
            await self.storage.append(self.id, self.game_no, row,
                                      [(r, d.to_mapping()) for r, d in applied.new_deals],
                                      keeper.game.over, turn)
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
        new_turn = turn is not None or over
        if new_turn:
            self.turn = None if over else turn
        names = keeper.names
        events = [event_mapping(e, names) for e in applied.events]
        # A bot playing a gone person's seat is named in the third person in that person's
        # log too: they come back to read what was done for them, not "You draw...".
        for_you = seat if by != PERSON and self.seats[seat].person else None
        hands = (before, view(keeper.game, seat).hand) if before is not None else None
        entry = Entry(version, seat, by, action.text, dumps_list(events),
                      words(applied.events, names, hands, for_you))
        turn_over = over or any(e["name"] in ("turn", "deal") for e in events)
        changed = self.drivers.hand_back() if turn_over else False
        self._publish(entry, {seat: reply_to} if reply_to is not None else {})
        if new_turn:
            self.arm()
        # A turn-based table tells everyone whose turn it is since when (the table message).
        if changed or over or (new_turn and self.options.turn_based):
            self.broadcast_table()

    # ================================================================ turns and their limits
    def next_turn(self) -> TurnRow | None:
        """The turn in play if it is not the one noted (a new turn, or the partner asked),
        begun now; None while the same turn goes on, and once the game is over."""
        assert self.keeper is not None
        g = self.keeper.game
        if g.over:
            return None
        key = turn_key(g)
        if self.turn is not None and self.turn.game == self.game_no and self.turn.turn == key:
            return None
        return TurnRow(self.game_no, key, g.actor, self.clock.iso())

    def _turn_now(self, stored: TurnRow | None) -> TurnRow | None:
        """The stored turn if it is the one in play (a reload), else the one in play from
        now (a database from before turns were stored)."""
        if self.keeper is None or self.keeper.game.over:
            return None
        key = turn_key(self.keeper.game)
        if stored is not None and stored.game == self.game_no and stored.turn == key:
            return stored
        return self.next_turn()

    def deadline(self) -> float | None:
        """When the turn in play passes its limit (wall-clock seconds): a turn-based table
        with a limit, on a person's turn.  None otherwise."""
        limit = self.options.limit_seconds
        turn = self.turn
        if limit is None or turn is None or self.status != PLAYING \
                or not self.seats[turn.seat].person:
            return None
        return parse_iso(turn.since) + limit

    def arm(self) -> None:
        """The table's next deadline to the hall's timers (none once its limit was acted on)."""
        if self.timers is None:
            return
        deadline = self.deadline()
        if self.turn is not None and self.limit_acted == self.turn.turn:
            deadline = None
        self.timers.arm(self.id, deadline)

    def turn_info(self) -> p.TurnInfo | None:
        turn = self.turn
        if not self.options.turn_based or self.status != PLAYING or turn is None:
            return None
        now = self.clock.now()
        since = parse_iso(turn.since)
        deadline = self.deadline()
        left = None if deadline is None else round(max(0.0, deadline - now), 1)
        passed = deadline is not None and now >= deadline
        seat = self.seats[turn.seat]
        return {"seat": turn.seat, "since": turn.since, "waited": round(now - since, 1),
                "deadline": self.clock.iso(deadline) if deadline is not None else None,
                "left": left,
                "by_bot": seat.person and seat.driver == BOT and self.limit_acted == turn.turn,
                "waiting": passed and self.options.on_limit == "wait"}

    def _publish(self, entry: Entry, replies: dict[int, p.ReplyTo]) -> None:
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
                answer = {**msg, "reply_to": reply} if reply is not None else msg
                text = dumps_with(answer, "events", entry.events)
                if reply is None:
                    built[seat] = text
            client.send(text)
        self.drivers.kick()
        push.published(self)  # "your turn" to a person who is away (push.py)

    def _update(self, entry: Entry, seat: int | None) -> p.Update:
        return {"type": "update", "version": entry.version, "game": self.game_no,
                "seat": entry.seat, "by": entry.by, "action": entry.action,
                "log": entry.log(seat), **self._seat_payload(seat)}

    def _seat_payload(self, seat: int | None) -> p.SeatPayload:
        """What ``state`` and ``update`` tell one reader about the game now: its seat's view
        (the public one for a spectator), and what only its own seat may do."""
        assert self.keeper is not None
        g = self.keeper.game
        return {"view": seat_view(g, seat) if seat is not None else public_view(g),
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
        fresh = Table(stored, self.storage, self.runner, self.stats)  # no timers: a copy
        self.version, self.status, self.game_no = fresh.version, fresh.status, fresh.game_no
        self.keeper, self.turn = fresh.keeper, fresh.turn
        self.history, self.log = fresh.history, fresh.log
        for seat, new in zip(self.seats, fresh.seats, strict=True):
            seat.bot = new.bot
        for client in self.clients:
            self.send_state(client, None)

    async def recover(self) -> None:
        async with self.lock:
            await self._reload()

    def clear_undo(self) -> None:
        """Nothing before now may be taken back (a bot has taken the seat that could)."""
        if self.keeper is not None:
            self.keeper.undo.clear()

    # ================================================================ messages
    def send(self, client: Client, message: p.ServerMessage) -> None:
        client.send(dumps(message))

    def _welcome(self, client: Client) -> p.Welcome:
        seat = client.seat
        return {"type": "welcome", "protocol": p.PROTOCOL_VERSION, "server": _server_name(),
                "table": self.id,
                "you": {"seat": seat, "host": client.host,
                        "name": self.seats[seat].name if seat is not None else ""}}

    def table_message(self) -> p.TableMessage:
        now = time.monotonic()
        seats: list[p.TableSeat] = []
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
                "spectators": sum(1 for c in self.clients if c.seat is None),
                "turn": self.turn_info()}

    def broadcast_table(self, asker: Client | None = None, reply_to: p.ReplyTo = None) -> None:
        """The table message to everyone; the copy to ``asker`` answers its message."""
        message = self.table_message()
        text = dumps(message)
        for client in self.clients:
            if client is asker and reply_to is not None:
                client.send(dumps(reply(message, reply_to)))
            else:
                client.send(text)

    def send_state(self, client: Client, last_version: int | None,
                   reply_to: p.ReplyTo = None) -> None:
        if self.keeper is None:
            return
        seat = client.seat
        if last_version is not None and last_version < self.version and self.history \
                and self.history[0].version <= last_version + 1:
            entries = []
            for e in self.history:
                if e.version > last_version:
                    entries.append(e.public(seat))
            self.send(client, {"type": "catch_up", "from": last_version,
                               "to": self.version, "entries": entries})
        state: p.State = {"type": "state", "version": self.version, "game": self.game_no,
                          **self._seat_payload(seat),
                          "log": log_lines(self.log, seat, p.LOG_LINES)}
        self.send(client, reply(state, reply_to))

    async def close(self) -> None:
        self.closed = True
        await self.drivers.close()


def _server_name() -> str:
    from handfoot import __version__

    return f"handfoot {__version__}"
