"""A seat at a web table (``handfoot serve``), behind the terminal game's seam.

The server holds the game and plays the bots; this side holds only what the protocol sends
the seat (docs/PROTOCOL.md): the seat's view, its legal actions as text, the events of each
update, the pile's state, the table (seats, drivers, seat holds).  Everything the engine
judges is asked of the server: an action is sent with ``act`` and the answer is an
``update`` or a ``refused``; the staged lay-down is sent with ``check`` as it is staged; a
hint is ``hint``; a take-back is ``undo``.  Answers come later, as :class:`News`.

A dropped connection is retried with the seat token and the last version seen, as the page
does; what the table did meanwhile comes back as ``catch_up`` (or a fresh ``state``) and is
shown as "while you were away".
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import math
import time
from collections.abc import Callable

from ..actions import Action, ActionSyntaxError, LayDown, parse_action
from ..cards import BLACK_THREE, parse_cards, parse_kind, parse_slot
from ..events import (
    Answered,
    AskedToGoOut,
    CanastaFinished,
    Discarded,
    Drew,
    Event,
    GameEnded,
    Knocked,
    Melded,
    Opened,
    Passed,
    PennySetAside,
    PickedUp,
    PileTaken,
    PileToHand,
    RedThreesLaid,
    Refusal,
    Replaced,
    Retracted,
    RoundDealt,
    RoundEnded,
    StockEmptied,
    TurnBegan,
    UpcardRejected,
    UpcardTurned,
    WentOut,
)
from ..narrate import YOU
from ..rules import Rules
from ..server.client import ClientError, Closed, Message, TableClient
from ..server.protocol import CHAT_LENGTH
from ..state import Phase, RoundEnd
from ..views import SeatView
from .table import News, StagedCheck, Table

RETRY_EVERY = 30.0  # seconds between tries once the quick ones after a drop have failed

CLOSE_REPLACED = 4001  # docs/PROTOCOL.md: the seat was taken over by a newer connection


def _slot(token: str) -> int:
    # A book of black threes (5.7) is kept under the black three's kind, as views keep it.
    return BLACK_THREE if token.strip().upper() == "B3" else parse_slot(token)


# The wire's events (docs/PROTOCOL.md, "Events") as the engine's event values, so the log and
# the screen's highlights are built exactly as for a local game.  Events the wire does not
# spell out in full are shown by their own words.
_EVENTS: dict[str, Callable[[Message], Event]] = {
    "deal": lambda m: RoundDealt(m["seat"], m["round"]),
    "upcard": lambda m: UpcardTurned(m["seat"], parse_kind(m["card"])),
    "upcard_rejected": lambda m: UpcardRejected(m["seat"], parse_kind(m["card"]), m["buried"]),
    "turn": lambda m: TurnBegan(m["seat"], m["turns"]),
    "draw": lambda m: Drew(m["seat"], m["count"]),
    "stock_empty": lambda m: StockEmptied(m["seat"]),
    "red_three": lambda m: RedThreesLaid(m["seat"], m["count"]),
    "replace": lambda m: Replaced(m["seat"], m["count"]),
    "take_pile": lambda m: PileTaken(m["seat"], parse_kind(m["card"]), m["count"]),
    "pile_to_hand": lambda m: PileToHand(m["seat"], tuple(parse_cards(m["cards"]))),
    "meld": lambda m: Melded(m["seat"], _slot(m["meld"]), m["naturals"], m["twos"],
                             m["jokers"]),
    "canasta": lambda m: CanastaFinished(m["seat"], _slot(m["meld"]), m["kind"]),
    "penny": lambda m: PennySetAside(m["seat"]),
    "opening": lambda m: Opened(m["seat"], m["points"]),
    "pick_up": lambda m: PickedUp(m["seat"], m["packet"], m["count"]),
    "discard": lambda m: Discarded(m["seat"], parse_kind(m["card"])),
    "knock": lambda m: Knocked(m["seat"]),
    "retract": lambda m: Retracted(m["seat"]),
    "ask": lambda m: AskedToGoOut(m["seat"], m["partner"]),
    "answer": lambda m: Answered(m["seat"], m["yes"]),
    "pass": lambda m: Passed(m["seat"], m["chose"]),
    "went_out": lambda m: WentOut(m["seat"]),
    "round_end": lambda m: RoundEnded(m["seat"], RoundEnd(m["how"]), tuple(m["scores"])),
    "game_end": lambda m: GameEnded(m["seat"], tuple(m["totals"])),
}


def wire_event(m: Message) -> Event | str:
    """The engine's event for a wire event; its own words where the wire does not spell it
    out (or spells it in a way this version does not know)."""
    make = _EVENTS.get(str(m.get("name")))
    if make is not None:
        with contextlib.suppress(KeyError, TypeError, ValueError):
            return make(m)
    return str(m.get("text") or "")


def _overlap_end(old: list[str], new: list[str]) -> int:
    """Where ``new`` (a server's recent log) goes past ``old`` (the part of it already seen):
    just after the last place the end of ``old`` appears in it; 0 when it does not."""
    tail = old[-5:]
    if not tail:
        return 0
    for end in range(len(new), len(tail) - 1, -1):
        if new[end - len(tail):end] == tail:
            return end
    return 0


class RemoteTable(Table):
    """The person's seat at a web table, through one websocket (:class:`TableClient`)."""

    def __init__(self, client: TableClient, state: Message, retry: int = 60) -> None:
        table = client.table
        assert table is not None and client.seat is not None and client.view is not None
        rules = Rules.from_mapping(table["rules"])
        super().__init__(rules, self._names(table, client.seat), client.seat)
        self.client = client
        self.retry = retry  # quick tries after a drop, before trying every RETRY_EVERY seconds
        self.connected = True
        self.stopped = ""  # why the table no longer answers (taken over, closed)
        self.unreachable = ""  # why the last reconnection failed, while it keeps trying
        self._notify: Callable[[News], None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._pending: int | None = None  # the id of the act on its way
        self._pending_action: Action | None = None
        self._checks: dict[int, str] = {}  # check ids and the lay-down each asked about
        self._asked = ""  # the lay-down last sent for a check
        self._checked: StagedCheck | None = None
        self._marks: list[int] = []  # the log's length before each step that undo takes back
        self._holds: dict[int, tuple[float, float]] = {}  # seat: (seconds left, when told)
        self._missed: list[str] | None = None  # collected while catching up
        self._seen_log: list[str] = []
        self._pile: Message | None = None
        self._view = self._read_view()
        self._legal: list[Action] = []
        self._game_no = int(state.get("game", 0))
        self._on_table(table)
        self._fresh_state(state)

    # ------------------------------------------------------------------ what the server said
    @staticmethod
    def _names(table: Message, human: int) -> list[str]:
        return [YOU if s["seat"] == human else str(s["name"]) for s in table["seats"]]

    def _read_view(self) -> SeatView:
        assert self.client.view is not None and self.client.table is not None
        return SeatView.from_mapping({**self.client.view, "rules": self.client.table["rules"]})

    def _read_legal(self) -> list[Action]:
        out = []
        for text in self.client.legal:
            with contextlib.suppress(ActionSyntaxError):
                out.append(parse_action(text))
        return out

    def _fresh_state(self, m: Message) -> None:
        """A whole state: the first, a new game at the table (a rematch), or after a
        reconnect the server no longer had the missed updates for."""
        self._view, self._legal = self._read_view(), self._read_legal()
        self._pile = m.get("pile")
        game = int(m.get("game", 0))
        lines = [str(x) for x in m.get("log", [])]
        if self._missed is None or game != self._game_no or not self.log.lines:
            self.clear()
            self.log.truncate(0)
            self.last_events.clear()
            self.recent.clear()
            self.question = None
            self.latest = -1
            self._marks.clear()
            for line in lines:
                self.log.add(line)
            self._log_minimum()
            results = len(self._view.results)
            self.shown_results = results - 1 if self.over and results else results
        elif not self._missed:
            # Back after a drop the server could not fill in: its recent log from where ours
            # stopped.
            new = lines[_overlap_end(self._seen_log, lines):] if self._seen_log else lines[-20:]
            self._missed = list(new)
            for line in new:
                self.log.add(line)
        self._game_no = game
        self._seen_log = lines

    def _on_table(self, m: Message) -> None:
        now = time.monotonic()
        self.names = self._names(m, self.human)
        self._holds = {s["seat"]: (float(s["hold"]), now) for s in m["seats"]
                       if s.get("hold") is not None}

    def _on_update(self, m: Message) -> None:
        before = self._view.hand
        self._view, self._legal = self._read_view(), self._read_legal()
        self._pile = m.get("pile")
        self._seen_log += [str(x) for x in m.get("log", [])]
        mine = m.get("reply_to") is not None and m.get("reply_to") == self._pending
        if mine:
            if isinstance(self._pending_action, LayDown):
                self.clear()
            self._pending = self._pending_action = None
        self._log_entry(m, before if m.get("seat") == self.human else None)
        if not self.client.can_undo:
            self._marks.clear()

    def _log_entry(self, m: Message, hand_before: tuple[int, ...] | None) -> None:
        """One update (live or caught up) into the log and the table's highlights."""
        seat = int(m["seat"])
        wire = list(m.get("events", []))
        if m.get("action") == "undo":
            if seat == self.human and self._marks:
                self.log.truncate(self._marks.pop())
                self.log.add("(undone)")
            else:
                for line in m.get("log", []):
                    self.log.add(str(line))
            return
        mark = len(self.log.lines)
        events: list[Event] = []
        for e in wire:
            event = wire_event(e)
            if isinstance(event, str):
                # Nothing the screen highlights: its own words, in order.
                self._log_events(events, seat, hand_before, self._view.hand)
                events = []
                if event:
                    self.log.add(event)
            else:
                events.append(event)
        self._log_events(events, seat, hand_before, self._view.hand)
        if seat == self.human and m.get("by") == "person":
            self._marks.append(mark)
        if any(e.get("name") in ("turn", "round_end") for e in wire):
            self.clear()  # the turn is over: nothing staged carries into the next

    def _handle(self, m: Message) -> None:
        kind = m.get("type")
        reply_to = m.get("reply_to")
        news: News | None = News("changed")
        if kind == "table":
            self._on_table(m)
        elif kind == "catch_up":
            self._missed = [] if self._missed is None else self._missed
            for entry in m.get("entries", []):
                self._log_entry(entry, None)
                self._missed += [str(x) for x in entry.get("log", [])]
                self._seen_log += [str(x) for x in entry.get("log", [])]
            news = None
        elif kind == "state":
            self._pending = self._pending_action = None  # the state says what became of it
            game = self._game_no
            self._fresh_state(m)
            if self._game_no != game:
                news = News("changed", f"Game {self._game_no} at this table: a new deal.")
            missed, self._missed = self._missed, None
            if missed:
                self._tell(News("changed"))
                news = News("missed", lines=tuple(missed))
        elif kind == "update":
            self._on_update(m)
        elif kind == "refused":
            news = None
            if reply_to is not None and reply_to == self._pending:
                self._pending = self._pending_action = None
                news = News("refused", refusal=Refusal(str(m["clause"]), str(m["reason"])))
        elif kind == "checked":
            asked = self._checks.pop(int(reply_to), None) if isinstance(reply_to, int) else None
            if asked is None:
                return
            refusal = None if m.get("ok") else Refusal(str(m.get("clause", "")),
                                                       str(m.get("reason", "")))
            self._checked = StagedCheck(asked, int(m.get("points", 0)), refusal)
        elif kind == "hint":
            news = News("hint", str(m.get("text", "")))
        elif kind == "chat":
            line = f"{html.unescape(str(m['name']))}: {html.unescape(str(m['text']))}"
            self.log.add(line)
            news = News("changed", line)
        elif kind == "error":
            if reply_to is not None and reply_to == self._pending:
                self._pending = self._pending_action = None
            if reply_to is not None and reply_to in self._checks:
                self._checks.pop(reply_to)
                return
            news = News("said", str(m.get("message", "the table refused that")))
        else:
            return
        if news is not None:
            self._tell(news)

    def _tell(self, news: News) -> None:
        if self._notify is not None:
            self._notify(news)

    # ------------------------------------------------------------------ the connection
    def listen(self, notify: Callable[[News], None]) -> None:
        self._notify = notify
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while not self.stopped:
            try:
                message = await self.client.recv(3600)
            except TimeoutError:
                continue
            except ClientError as err:
                await self._reconnect(err)
                continue
            self._handle(message)

    async def _reconnect(self, err: ClientError) -> None:
        self.connected = False
        self._pending = self._pending_action = None
        if isinstance(err, Closed) and err.code == CLOSE_REPLACED:
            self.stopped = ("your seat was taken over by a newer connection (another window "
                            "or the browser); this one has stopped: Ctrl+Q quits")
            self._tell(News("said", self.stopped))
            return
        self._tell(News("said", "Connection lost: reconnecting…"))
        tries = self.retry
        while not self.stopped:
            try:
                await self.client.reconnect(tries=tries)
                break
            except (ClientError, TimeoutError) as fail:
                # A table that lasts days outlives a night's outage: keep trying, slowly, and
                # say so; the person quits when they like, and the same command comes back.
                self.unreachable = (f"cannot reach the table ({fail}); trying again every "
                                    f"{RETRY_EVERY:.0f} s (Ctrl+Q quits; the same command "
                                    "later takes your seat back)")
                self._tell(News("said", self.unreachable))
                await asyncio.sleep(RETRY_EVERY)
                tries = 1
        if self.stopped:
            return
        self.unreachable = ""
        self.connected = True
        if self._missed is None:
            self._missed = []
        self._tell(News("said", "Reconnected."))

    def drop(self) -> None:
        """Drop the connection as a network would (it comes back by itself)."""
        transport = getattr(self.client.ws, "transport", None)
        if transport is not None:
            transport.abort()

    def _send(self, message: Message) -> None:
        async def send() -> None:
            # A send into a dropped connection is lost; the reader reconnects, and the state
            # it gets back says what became of it.
            with contextlib.suppress(ClientError):
                await self.client.send(message)

        task = asyncio.get_running_loop().create_task(send())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def close(self) -> None:
        self.stopped = self.stopped or "closed"
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self.client.close()

    # ------------------------------------------------------------------ the seam
    @property
    def offers_new_game(self) -> bool:  # type: ignore[override]
        return self.client.host  # the host starts a rematch with the same seats

    chats = True
    chat_length = CHAT_LENGTH

    def chat(self, text: str) -> str | None:
        text = " ".join(text.split())
        if not text:
            return "nothing to say"
        if len(text) > CHAT_LENGTH:
            return f"a chat line holds at most {CHAT_LENGTH} characters (this one has {len(text)})"
        if not self.connected:
            return "not connected: reconnecting to the table…"
        self._send({"type": "chat", "id": self.client.next_id(), "text": text})
        return None

    def rematch(self) -> str:
        if not self.client.host:
            return "The game is over: the table's host may start a rematch."
        if not self.connected:
            return "not connected: reconnecting to the table…"
        self._send({"type": "rematch", "id": self.client.next_id()})
        return "A rematch: the same seats, a new deal…"

    def view(self) -> SeatView:
        return self._view

    @property
    def over(self) -> bool:
        return self._view.phase is Phase.GAME_OVER

    @property
    def human_to_act(self) -> bool:
        return not self.over and self._view.actor == self.human and bool(self._legal)

    @property
    def can_undo(self) -> bool:
        return self.client.can_undo and self._pending is None

    @property
    def hints(self) -> bool:
        table = self.client.table or {}
        return bool(table.get("options", {}).get("hints", False))

    @property
    def intro(self) -> str:
        table = self.client.table or {}
        name = table.get("name") or "the web table"
        return f"At {name}, seat {self.human}."

    def legal(self) -> list[Action]:
        return list(self._legal) if self.human_to_act else []

    def pile_status(self) -> Refusal | None:
        pile = self._pile
        if pile is None or pile.get("open"):
            return None
        return Refusal(str(pile.get("clause", "")), str(pile.get("reason", "")))

    def take_refusal(self) -> Refusal | None:
        # Asked on the person's draw, when the server's pile answer is about now.
        return self.pile_status()

    def act(self, action: Action) -> Refusal | None:
        if self.stopped:
            return Refusal("", self.stopped)
        if not self.connected:
            return Refusal("", "not connected: reconnecting to the table…")
        if self._pending is not None:
            return Refusal("", "your last move is still on its way")
        ident = self.client.next_id()
        self._pending, self._pending_action = ident, action
        self._send({"type": "act", "id": ident, "version": self.client.version,
                    "action": action.text})
        return None

    def undo(self) -> bool | None:
        if not self.can_undo or not self.connected:
            return False
        self._send({"type": "undo", "id": self.client.next_id(),
                    "version": self.client.version})
        return None

    def hint(self) -> str | None:
        if not self.connected:
            return "not connected: reconnecting to the table…"
        self._send({"type": "hint", "id": self.client.next_id()})
        return None

    def staged_check(self) -> StagedCheck | None:
        laydown = self.laydown()
        if laydown is None:
            return None
        text = laydown.text
        if self._checked is not None and self._checked.action == text:
            return self._checked
        if text != self._asked and self.connected and self.human_to_act:
            # Asked as the cards are staged; the answer redraws the screen.
            ident = self.client.next_id()
            self._checks[ident] = self._asked = text
            self._send({"type": "check", "id": ident, "action": text})
        return None

    def staged_points(self) -> int:
        check = self.staged_check()
        return check.points if check is not None else 0

    # ------------------------------------------------------------------ the table around
    def _seat(self, seat: int) -> Message:
        table = self.client.table or {}
        seats: list[Message] = table.get("seats", [])
        return seats[seat] if seat < len(seats) else {}

    def _hold_left(self, seat: int) -> float | None:
        held = self._holds.get(seat)
        if held is None:
            return None
        left, since = held
        if self._view.actor == seat and not self.over:
            # The hold counts down only while that seat is to act (docs/PROTOCOL.md).
            left -= time.monotonic() - since
        return max(0.0, left)

    def seat_note(self, seat: int) -> str:
        info = self._seat(seat)
        if seat == self.human or info.get("occupant") != "person":
            return ""
        if info.get("driver") == "bot":
            return "away: a bot plays for them"
        if not info.get("connected", True):
            return "away"
        return ""

    def notes(self) -> list[str]:
        out = []
        if self.stopped:
            out.append("not connected")
        elif not self.connected:
            out.append("connection lost: reconnecting…")
        mine = self._seat(self.human)
        if mine.get("driver") == "bot" and not self.over:
            out.append("a bot finishes this turn for you")
        for seat in range(self.rules.players):
            info = self._seat(seat)
            left = self._hold_left(seat)
            if seat == self.human or left is None or info.get("driver") != "person":
                continue
            if self._view.actor == seat and not self.over:
                out.append(f"{self.names[seat]} is away: a bot plays for them in "
                           f"{math.ceil(left)} s")
        return out
