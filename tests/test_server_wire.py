"""The wire, frame for frame: scripted games driven through the server's own ``Connection`` and
``Hall`` in one event loop (no sockets, no threads; seeds, tokens and the version fixed), every
frame each client receives hashed.  A change to how the server is built must leave these
digests as they are; a change to the protocol on purpose updates them (run this file with
``HANDFOOT_WIRE_PRINT=1`` to print the new ones, and ``HANDFOOT_WIRE_DUMP=FOLDER`` to write
every frame out, one file per client, to see what changed).

The scripts go through the lobby (joins, a taken seat, a leave, bot levels, a start by a
guest), a game with two people, two bots and a spectator (chat, hints, checks, an undo, a
stale and a refused action, bad messages, a seat held and then driven by its bot after its
person drops, and handed back when they return with a catch-up), the game's end and a
rematch: every message type both ways.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import secrets
from collections.abc import Callable
from itertools import count
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, get_args, get_origin, get_type_hints

import pytest

import handfoot
from handfoot.actions import parse_action
from handfoot.bots.heuristic import HeuristicBot
from handfoot.server import protocol as p
from handfoot.server.app import Hall
from handfoot.server.connection import Connection
from handfoot.server.drivers import BotRunner
from handfoot.server.storage import Storage
from handfoot.views import SeatView

if TYPE_CHECKING:
    from collections.abc import Sequence

    from handfoot.actions import Action
    from handfoot.bots.base import Bot

Message = dict[str, Any]


class Socket:
    """What a Connection uses of starlette's WebSocket, in memory: what the client says goes
    in ``inbox``, what the server sends lands in ``frames`` (a close as one line too)."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.frames: list[str] = []

    async def accept(self) -> None:
        pass

    async def receive(self) -> Message:
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        self.frames.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.frames.append(f"<close {code} {reason}>")
        self.inbox.put_nowait({"type": "websocket.disconnect"})


class GatedRunner(BotRunner):
    """Bots that choose at once, except the bot of ``seat`` while ``gate`` is set: it waits
    for the gate to open, so a person can come back while their seat's bot is mid-turn."""

    def __init__(self) -> None:
        super().__init__(workers=0)
        self.gate: asyncio.Event | None = None
        self.seat = -1

    async def choose(self, bot: Bot, view: SeatView,
                     legal: Sequence[Action]) -> tuple[Action, Bot]:
        if self.gate is not None and view.seat == self.seat and not self.gate.is_set():
            await self.gate.wait()
        return await super().choose(bot, view, legal)


class Player:
    """One client: a person at a seat, or a spectator."""

    def __init__(self, hall: Hall, table: str, name: str) -> None:
        self.name = name
        self.ws = Socket()
        self.conn = Connection(self.ws, p.Limits(rate=1e6, burst=1e6))  # type: ignore[arg-type]
        self.task = asyncio.get_running_loop().create_task(
            self.conn.run(lambda: hall.table(table)))
        self.seat: int | None = None
        self.seat_token: str | None = None
        self.bot = HeuristicBot(seed=len(name))
        self.ids = count(1)

    def say(self, **message: Any) -> None:
        self.text(json.dumps(message))

    def text(self, text: str) -> None:
        self.ws.inbox.put_nowait({"type": "websocket.receive", "text": text})

    def ask(self, **message: Any) -> None:
        self.say(id=next(self.ids), **message)

    def drop(self) -> None:
        self.ws.inbox.put_nowait({"type": "websocket.disconnect"})

    def messages(self) -> list[Message]:
        return [json.loads(f) for f in self.ws.frames if not f.startswith("<")]

    def last(self, *kinds: str) -> Message | None:
        return next((m for m in reversed(self.messages()) if m["type"] in kinds), None)

    @property
    def version(self) -> int:
        m = self.last("state", "update", "table")
        return -1 if m is None else int(m["version"])

    def choice(self) -> str | None:
        """The heuristic's action if this seat is to act by its latest view."""
        m, table = self.last("state", "update"), self.last("table")
        if m is None or table is None or not m["legal"]:
            return None
        seen = SeatView.from_mapping({**m["view"], "rules": table["rules"]})
        return self.bot.choose(seen, [parse_action(t) for t in m["legal"]]).text


async def settle(players: list[Player]) -> None:
    """Run the loop until no frame has arrived for a while (bots move at pace 0, the storage
    is SQLite on the loop: every step of the server finishes within a few passes)."""
    quiet, seen = 0, -1
    while quiet < 40:
        await asyncio.sleep(0)
        now = sum(len(pl.ws.frames) for pl in players)
        quiet, seen = (quiet + 1, seen) if now == seen else (0, now)


async def play(players: list[Player], steps: int,
               extra: Callable[[int, Player], bool] | None = None) -> int:
    """The seated people play the heuristic's choices, one action at a time, until the game
    is over or ``steps`` actions; ``extra(step, player)`` may say something else instead
    (returning True)."""
    step = 0
    while step < steps:
        await settle(players)
        actor = next((pl for pl in players if pl.seat is not None and pl.choice()), None)
        if actor is None:
            return step
        step += 1
        if extra is not None and extra(step, actor):
            continue
        actor.ask(type="act", version=actor.version, action=actor.choice())
    await settle(players)
    return step


async def script_partners(hall: Hall, runner: GatedRunner) -> list[Player]:
    made = await hall.create(p.CreateTable.model_validate(
        {"name": "Wire <table>", "rules": {"preset": "hand-and-foot", "set": {"rounds": 1}},
         "bots": "heuristic", "options": {"bot_pace": 0, "hints": False}}), "http://host")
    table = made["table"]
    ann, bob, cy, eve = (Player(hall, table, n) for n in ("Ann", "Bob", "Cy", "Eve"))
    everyone = [ann, bob, cy, eve]
    # Before hello; then hello (the host's, a guest's, a spectator's), and hello again.
    ann.ask(type="ping")
    ann.ask(type="hello", protocol=1, host_token=made["host_token"])
    bob.ask(type="hello", protocol=1)
    cy.say(type="hello", protocol=1)
    eve.ask(type="hello", protocol=1, last_version=0)
    bob.ask(type="hello", protocol=1)
    await settle(everyone)
    # The lobby: joins, a taken seat, an empty name, a leave and a join again, bot levels.
    ann.ask(type="join", seat=0, name="Ann")
    await settle(everyone)
    bob.ask(type="join", seat=0, name="Bob")
    bob.ask(type="join", seat=9, name="Bob")
    bob.ask(type="join", seat=2, name="  \u0007 ")
    bob.ask(type="join", seat=2, name=" Bob  <b>the</b>\tbuilder ")
    await settle(everyone)
    bob.ask(type="join", seat=3, name="Bob")
    cy.ask(type="join", seat=1, name="Cy")
    await settle(everyone)
    cy.ask(type="leave")
    eve.ask(type="leave")
    bob.ask(type="start")
    ann.ask(type="options", bots=["random", "basic", "heuristic", "basic"])
    ann.ask(type="options", bots=["heuristic", "heuristic"])
    ann.ask(type="options", options={"hints": True})
    eve.ask(type="options", options={"hints": False})
    ann.ask(type="rematch")
    ann.ask(type="act", version=0, action="draw")
    ann.ask(type="sync")
    await settle(everyone)
    for pl in everyone:
        joined = pl.last("joined")
        if joined is not None and pl.last("table") is not None:
            pl.seat, pl.seat_token = joined["seat"], joined["seat_token"]
    cy.seat = None
    ann.ask(type="start")
    await settle(everyone)
    ann.ask(type="start")
    ann.ask(type="options", bots="heuristic")
    # Bad frames: not JSON, not an object, no type, an unknown type, a bad field, a binary
    # frame, too large.
    ann.text("{nope")
    ann.text("[1, 2]")
    ann.say(id="x", kind="act")
    ann.say(id=3.5, type="bogus")
    ann.ask(type="act", version="1", action="draw")
    ann.ws.inbox.put_nowait({"type": "websocket.receive", "bytes": b"\x00"})
    ann.text(json.dumps({"type": "chat", "text": "x" * 5000}))
    bob.ask(type="chat", text="hello <all> & \u200b good luck")
    eve.ask(type="chat", text="I only watch")
    eve.ask(type="act", version=1, action="draw")
    eve.ask(type="hint")
    eve.ask(type="check", action="draw")
    await settle(everyone)

    said: set[str] = set()

    def extras(step: int, actor: Player) -> bool:
        other = bob if actor is ann else ann
        if step == 2 and "check" not in said:
            said.add("check")
            actor.ask(type="check", action="lay K K K, 7 7 2")
            other.ask(type="check", action="draw")
            actor.ask(type="check", action="take-pile with")
            actor.ask(type="hint")
            other.ask(type="hint")
            return False
        if step == 3 and "stale" not in said:
            said.add("stale")
            actor.ask(type="act", version=actor.version - 1, action=actor.choice())
            other.ask(type="act", version=other.version, action="draw")
            actor.ask(type="act", version=actor.version, action="discard JK JK")
            actor.ask(type="act", version=actor.version, action="lay Z")
            return True
        m = actor.last("state", "update")
        if m is not None and m["can_undo"] and "undo" not in said:
            said.add("undo")
            other.ask(type="undo", version=other.version)
            actor.ask(type="undo", version=actor.version)
            return True
        if step == 8 and "hint" not in said:
            said.add("hint")
            actor.ask(type="hint")
            return True
        if step == 9 and "play hint" not in said:
            said.add("play hint")
            hint = actor.last("hint")
            if hint is not None and hint["action"]:
                actor.ask(type="act", version=actor.version, action=hint["action"])
                return True
        return False

    people = [ann, bob, cy, eve]
    await play(people, 30, extras)
    # Bob drops; with the seat hold down to nothing his seat's bot plays his turns, and he
    # comes back (a reload: his token and the last version he saw) in the middle of one, so
    # the bot hands the seat back when the next turn begins.
    bob_seen = bob.version
    bob.drop()
    await settle(people)
    ann.ask(type="options", options={"seat_hold": 0})
    await settle(people)
    runner.gate, runner.seat = asyncio.Event(), 2
    await play(people, 40)  # stops when Bob's seat is to act: its bot waits at the gate
    bob2 = Player(hall, table, "Bob")
    bob2.seat, bob2.seat_token = bob.seat, bob.seat_token
    bob2.ask(type="hello", protocol=1, seat_token=bob.seat_token, last_version=bob_seen)
    people = [ann, bob2, cy, eve]
    await settle([*people, bob])
    runner.gate.set()
    await settle([*people, bob])
    eve.ask(type="sync", last_version=max(0, eve.version - 3))
    ann.ask(type="sync")
    bob2.ask(type="ping")
    await play(people, 2000)
    # Over: a rematch by a guest, then by the host; a few moves of the new game.
    bob2.ask(type="rematch")
    ann.ask(type="start")
    ann.ask(type="rematch")
    await settle(people)
    await play(people, 6)
    for pl in people:
        pl.drop()
    await settle([*people, bob])
    return [ann, bob, cy, eve, bob2]


async def script_bots(hall: Hall, runner: GatedRunner) -> list[Player]:
    """A table of bots (2 players, knee and foot) with one person who joins, watches the
    bots play and leaves, and a spectator who arrives late and catches up."""
    made = await hall.create(p.CreateTable.model_validate(
        {"rules": {"preset": "hand-knee-foot", "players": 2, "set": {"rounds": 1}},
         "bots": ["basic", "heuristic"], "options": {"bot_pace": 0, "hints": True}}),
        "http://host")
    table = made["table"]
    host = Player(hall, table, "Host")
    host.ask(type="hello", protocol=1, host_token=made["host_token"])
    host.ask(type="start")
    await settle([host])
    late = Player(hall, table, "Late")
    late.ask(type="hello", protocol=1, last_version=250)
    await settle([host, late])
    late.ask(type="sync", last_version=1)
    host.ask(type="rematch")
    await settle([host, late])
    for pl in (host, late):
        pl.drop()
    await settle([host, late])
    return [host, late]


SCRIPTS = {"partners": script_partners, "bots": script_bots}

# What every client of each script receives, hashed (see the module's docstring).
# Bob's hint in "partners" is the strong network's choice (bots.levels.ranker): a retrained
# hand-and-foot model changes its digest, and only that one.
DIGESTS: dict[str, dict[str, str]] = {
    "partners": {
        "0-Ann": "264:9c19a0296f09c9f5ba0f3468e4c49234",
        "1-Bob": "95:cecee416299bf874efa356177cf5067a",
        "2-Cy": "249:b99aaae58a344874bd710bf18bfff490",
        "3-Eve": "256:2b3acd99d8711e5e2239f0a2ba583ae9",
        "4-Bob": "164:ea3082ccc7ca6d45e74a61c5dc7423d2",
    },
    "bots": {
        "0-Host": "530:65b67163bf849ff8ab1b0b6439616c14",
        "1-Late": "270:edf5939b51e0a69562deb0bed3d9fb3f",
    },
}


def run_script(name: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    tokens = count(1)
    monkeypatch.setattr(secrets, "token_urlsafe",
                        lambda n=32: f"{next(tokens)}".rjust(n * 4 // 3, "0"))
    monkeypatch.setattr(secrets, "randbelow", lambda n: 1234567 % n)
    monkeypatch.setattr(handfoot, "__version__", "0.0")

    async def go() -> list[Player]:
        storage = await Storage.open(str(folder / "tables.sqlite3"))
        runner = GatedRunner()
        hall = Hall(storage, runner)
        try:
            return await SCRIPTS[name](hall, runner)
        finally:
            await hall.close()

    players = asyncio.run(go())
    for pl in players:
        for frame in pl.ws.frames:
            if not frame.startswith("<"):
                assert_typed(json.loads(frame))
    out: dict[str, str] = {}
    dump = os.environ.get("HANDFOOT_WIRE_DUMP")
    for i, pl in enumerate(players):
        key = f"{i}-{pl.name}"
        text = "\n".join(pl.ws.frames)
        out[key] = f"{len(pl.ws.frames)}:" + hashlib.sha256(text.encode()).hexdigest()[:32]
        if dump:
            Path(dump).mkdir(parents=True, exist_ok=True)
            (Path(dump) / f"{name}-{key}.jsonl").write_text(text + "\n", encoding="utf-8")
    return out


SERVER_TYPES = dict(zip(p.SERVER_MESSAGE_TYPES, get_args(p.ServerMessage), strict=True))


def assert_typed(message: Message) -> None:
    """The message is one of the server's declared types, with exactly its fields (and the
    answer's ``reply_to``, the update's ``events``, which are added as it is written)."""
    kind = SERVER_TYPES[message["type"]]
    hints = get_type_hints(kind, include_extras=True)
    required = {k for k, t in hints.items() if get_origin(t) is not NotRequired}
    allowed = set(hints) | {"reply_to"} | ({"events"} if message["type"] == "update" else set())
    assert required <= set(message) <= allowed, (message["type"], set(message) ^ allowed)


# The bots' script in a development run; the partners' (two thousand moves, undo, a drop
# and a rematch) in the full run.
@pytest.mark.parametrize("name", ["bots", pytest.param("partners", marks=pytest.mark.slow)])
def test_the_wire_is_unchanged(name: str, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    got = run_script(name, tmp_path, monkeypatch)
    if os.environ.get("HANDFOOT_WIRE_PRINT"):
        print(f"\n{name!r}: {json.dumps(got, indent=4)},")
    assert got == DIGESTS[name]
