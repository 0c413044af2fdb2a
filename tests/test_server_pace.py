"""Turn-based tables (server/pace.py): the options checked, no seat hold, the bots playing on
with nobody watching, the turn limit passing (a bot plays that one turn, or the game waits),
and the limits kept through a restart of the server (SQLite and PostgreSQL).

Everything runs in one event loop through the server's own ``Hall`` and ``Connection`` (the
in-memory sockets of test_server_wire.py), on a clock the tests move (clock.py): "two days
later" takes no time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from handfoot.server import protocol as p
from handfoot.server.app import Hall
from handfoot.server.clock import Clock
from handfoot.server.drivers import BotRunner
from handfoot.server.storage import Storage
from handfoot.server.table import Table
from test_server_wire import Player
from test_server_wire import settle as settle_loop

HOUR = 3600.0
DAY = 24 * HOUR


async def settle(players: list[Player]) -> None:
    """No frame arrives any more, even after a pause (PostgreSQL answers over a socket)."""
    while True:
        await settle_loop(players)
        seen = sum(len(pl.ws.frames) for pl in players)
        await asyncio.sleep(0.005)
        if sum(len(pl.ws.frames) for pl in players) == seen:
            return


async def open_hall(db: str, clock: Clock) -> Hall:
    storage = await Storage.open(db)
    hall = Hall(storage, BotRunner(workers=0), clock=clock)
    hall.start()
    return hall


async def until(done: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    """Run the loop until ``done()``: the server's tasks (bots, timers, the database) go on."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            raise AssertionError(f"not in time: {what}")
        await asyncio.sleep(0.001)


def options(**more: Any) -> dict[str, Any]:
    return {"bot_pace": 0, "seat_hold": 0, "pace": "turn-based", **more}


async def new_table(hall: Hall, opts: dict[str, Any]) -> tuple[dict[str, Any], Player, Player]:
    """Ann (seat 0, the host) and Bob (seat 1) against two bots, started."""
    made = await hall.create(p.CreateTable.model_validate(
        {"name": "Across days", "rules": {"preset": "hand-and-foot", "set": {"rounds": 1}},
         "bots": "heuristic", "options": opts}), "http://host")
    ann, bob = Player(hall, made["table"], "Ann"), Player(hall, made["table"], "Bob")
    ann.ask(type="hello", protocol=1, host_token=made["host_token"])
    bob.ask(type="hello", protocol=1)
    await settle([ann, bob])
    ann.ask(type="join", seat=0, name="Ann")
    bob.ask(type="join", seat=1, name="Bob")
    await until(lambda: bool(ann.last("joined") and bob.last("joined")), "joined")
    for pl in (ann, bob):
        joined = pl.last("joined")
        assert joined is not None
        pl.seat, pl.seat_token = joined["seat"], joined["seat_token"]
    ann.ask(type="start")
    await until(lambda: bool(ann.last("state") and bob.last("state")), "started")
    await settle([ann, bob])
    return made, ann, bob


def table_of(hall: Hall, made: dict[str, Any]) -> Table:
    return hall.tables[made["table"]]


def actor(table: Table) -> int:
    assert table.keeper is not None
    return table.keeper.game.actor


def quiet_at(table: Table, seat: int) -> Callable[[], bool]:
    """The seat is to act and no bot is about to."""
    return lambda: (table.keeper is not None and actor(table) == seat
                    and not table.drivers.busy and not table.lock.locked())


async def play_to(table: Table, players: list[Player], seat: int) -> None:
    """The connected people play (as the heuristic would) until ``seat`` is to act."""
    for _ in range(400):
        await until(lambda: actor(table) == seat
                    or (not table.drivers.busy and not table.lock.locked()), "bots")
        if actor(table) == seat:
            return
        mover = next((pl for pl in players if pl.seat == actor(table)), None)
        if mover is None:  # a bot's seat: it moves by itself
            await asyncio.sleep(0.001)
            continue
        await until(lambda pl=mover: pl.version == table.version, "the mover is told")
        choice = mover.choice()
        assert choice is not None
        mover.ask(type="act", version=mover.version, action=choice)
        await settle(players)
    raise AssertionError(f"seat {seat} never came to act")


async def drivers_of(storage: Storage, table_id: str, game: int) -> list[tuple[int, str]]:
    stored = await storage.game(table_id, game)
    assert stored is not None
    return [(a.seat, a.driver) for a in stored.actions]


# ====================================================================== the options
@pytest.mark.parametrize(("given", "key"), [
    ({"pace": "slow"}, "options.pace"),
    ({"pace": "turn-based", "turn_limit": "2h"}, "options.turn_limit"),
    ({"pace": "turn-based", "turn_limit": 86400}, "options.turn_limit"),
    ({"pace": "turn-based", "on_limit": "skip"}, "options.on_limit"),
    ({"turn_limit": "24h"}, "options.turn_limit"),  # a live table has no turn limit
])
def test_bad_pace_options_are_refused_naming_the_key(given: dict[str, Any], key: str) -> None:
    with pytest.raises(p.ProtocolError) as refused:
        p.parse_create({"options": given})
    assert refused.value.code == "bad_message"
    assert refused.value.message.startswith(key + ":"), refused.value.message


def test_the_pace_options_and_their_defaults() -> None:
    made = p.parse_create({"options": {"pace": "turn-based", "turn_limit": "3d",
                                       "on_limit": "wait"}})
    assert made.options.turn_based and made.options.limit_seconds == 3 * DAY
    live = p.TableOptions()
    assert (live.pace, live.turn_limit, live.on_limit) == ("live", "none", "bot")
    assert live.limit_seconds is None


def test_the_host_changes_the_pace_and_bad_changes_are_refused(tmp_path: Path) -> None:
    async def go() -> None:
        hall = await open_hall(str(tmp_path / "t.sqlite3"), Clock())
        try:
            made = await hall.create(p.CreateTable.model_validate({}), "http://host")
            host = Player(hall, made["table"], "Host")
            host.ask(type="hello", protocol=1, host_token=made["host_token"])
            host.ask(type="options", options={"turn_limit": "12h"})
            await settle([host])
            error = host.last("error")
            assert error is not None and error["message"].startswith("options.turn_limit:")
            host.ask(type="options", options={"pace": "turn-based", "turn_limit": "12h",
                                              "on_limit": "wait"})
            await settle([host])
            table = host.last("table")
            assert table is not None
            assert {k: table["options"][k] for k in ("pace", "turn_limit", "on_limit")} == {
                "pace": "turn-based", "turn_limit": "12h", "on_limit": "wait"}
            host.ask(type="options", options={"pace": "live"})  # the limit goes with it
            await settle([host])
            table = host.last("table")
            assert table is not None and table["options"]["turn_limit"] == "none"
            stored = await hall.storage.load(made["table"])
            assert stored is not None and stored.row.options["pace"] == "live"
            host.drop()
            await settle([host])
        finally:
            await hall.close()

    asyncio.run(go())


# ====================================================================== no seat hold
def test_a_gone_person_keeps_their_seat_and_the_bots_play_on(tmp_path: Path) -> None:
    """Turn-based, no limit: Bob closes the page, and three days later his seat is still his
    (a live table with a hold of 0 would have given it to his bot at once); the bots played
    on with nobody at the table."""
    async def go() -> None:
        clock = Clock()
        hall = await open_hall(str(tmp_path / "t.sqlite3"), clock)
        try:
            made, ann, bob = await new_table(hall, options())
            table = table_of(hall, made)
            await play_to(table, [ann, bob], 0)
            bob.drop()
            await settle([ann, bob])
            ann.ask(type="act", version=ann.version, action=ann.choice())
            await play_to(table, [ann], 1)
            ann.drop()  # nobody is at the table now
            await settle([ann])
            clock.advance(3 * DAY)
            await asyncio.sleep(0.05)
            assert actor(table) == 1 and table.seats[1].driver == "person"
            info = table.turn_info()
            assert info is not None and info["seat"] == 1 and info["deadline"] is None
            assert info["waited"] >= 3 * DAY and not info["waiting"]
            assert hall.timers.deadlines == {}
            # The bots moved between Ann's turn and Bob's with nobody connected.
            moves = await drivers_of(hall.storage, made["table"], 1)
            assert [s for s, d in moves if d == "bot"] and all(
                d == "person" for s, d in moves if s in (0, 1))
        finally:
            await hall.close()

    asyncio.run(go())


# ====================================================================== the limit passes
def test_when_the_limit_passes_a_bot_plays_that_turn_only(tmp_path: Path) -> None:
    async def go() -> None:
        clock = Clock()
        hall = await open_hall(str(tmp_path / "t.sqlite3"), clock)
        try:
            made, ann, bob = await new_table(hall, options(turn_limit="24h", on_limit="bot"))
            table = table_of(hall, made)
            await play_to(table, [ann, bob], 1)
            bob.drop()
            await settle([ann])
            seen = await drivers_of(hall.storage, made["table"], 1)
            assert table.table_message()["turn"] is not None
            clock.advance(23 * HOUR)
            await asyncio.sleep(0.05)
            assert actor(table) == 1 and table.seats[1].driver == "person"
            assert await drivers_of(hall.storage, made["table"], 1) == seen
            clock.advance(2 * HOUR)
            await until(quiet_at(table, 0), "the bot plays Bob's turn, then the bots theirs")
            moves = (await drivers_of(hall.storage, made["table"], 1))[len(seen):]
            assert moves and moves[0] == (1, "bot")
            assert all(d == "bot" for _, d in moves)
            assert table.seats[1].driver == "person"  # handed back at the turn's end
            told = [m for m in ann.messages() if m["type"] == "table" and m["turn"]
                    and m["turn"]["by_bot"]]
            assert told and told[0]["turn"]["seat"] == 1 and told[0]["turn"]["left"] == 0
            # Bob's next turn is his again, with a fresh limit.
            ann.ask(type="act", version=ann.version, action=ann.choice())
            await play_to(table, [ann], 1)
            clock.advance(HOUR)
            await asyncio.sleep(0.05)
            assert actor(table) == 1 and table.seats[1].driver == "person"
            info = table.turn_info()
            assert info is not None and info["left"] is not None
            assert 22 * HOUR < info["left"] <= 23 * HOUR
        finally:
            await hall.close()

    asyncio.run(go())


async def waiting_for_bob(hall: Hall, clock: Clock, later: float
                          ) -> tuple[dict[str, Any], Player, Player, Table]:
    """A 1-hour limit, then the game waits: Bob's turn begins, he leaves, and ``later`` his
    limit has passed and the game waits for him."""
    made, ann, bob = await new_table(hall, options(turn_limit="1h", on_limit="wait"))
    table = table_of(hall, made)
    await play_to(table, [ann, bob], 1)
    bob.drop()
    await settle([ann])
    clock.advance(later)
    await until(lambda: hall.timers.fired > 0, "the deadline")
    await settle([ann])
    assert actor(table) == 1 and table.seats[1].driver == "person"
    return made, ann, bob, table


def test_when_the_limit_passes_the_game_can_wait(tmp_path: Path) -> None:
    async def go() -> None:
        clock = Clock()
        hall = await open_hall(str(tmp_path / "t.sqlite3"), clock)
        try:
            made, ann, bob, table = await waiting_for_bob(hall, clock, 2 * DAY)
            last = ann.last("table")
            assert last is not None and last["turn"]["waiting"] and last["turn"]["seat"] == 1
            assert last["turn"]["waited"] >= 2 * DAY
            assert any("limit passed: the game waits for Bob" in str(line)
                       for line in table.log)
            # Bob comes back two days late and plays his turn.
            back = Player(hall, made["table"], "Bob")
            back.seat, back.seat_token = bob.seat, bob.seat_token
            back.ask(type="hello", protocol=1, seat_token=bob.seat_token)
            await settle([ann, back])
            back.ask(type="act", version=back.version, action=back.choice())
            await settle([ann, back])
            assert table.version > 0 and (await drivers_of(
                hall.storage, made["table"], 1))[-1] == (1, "person")
        finally:
            await hall.close()

    asyncio.run(go())


# ====================================================================== restarts
def test_the_limits_are_armed_again_after_a_restart(database: str) -> None:
    """Bob's turn begins, the server stops; it starts again an hour later (the deadline is
    armed from the database, not acted on), then a day passes: his bot plays his turn, and
    the bots theirs, with nobody at the table.  Then a limit that passed while the server
    was down is acted on at start."""
    async def go() -> None:
        hall = await open_hall(database, Clock())
        made, ann, bob = await new_table(hall, options(turn_limit="24h"))
        table_id = made["table"]
        try:
            table = table_of(hall, made)
            await play_to(table, [ann, bob], 1)
            for pl in (ann, bob):
                pl.drop()
            await settle([ann, bob])
            since = table.turn.since if table.turn else None
            version = table.version
        finally:
            await hall.close()

        clock = Clock(offset=HOUR)
        hall = await open_hall(database, clock)
        try:
            await until(lambda: table_id in hall.timers.deadlines, "armed from the database")
            assert table_id not in hall.tables  # armed without loading the table
            await asyncio.sleep(0.05)
            assert hall.timers.fired == 0
            clock.advance(DAY)
            await until(lambda: table_id in hall.tables, "loaded when its limit passed")
            table = hall.tables[table_id]
            assert table.turn is not None and table.turn.since == since
            await until(quiet_at(table, 0), "Bob's bot and the bots play")
            moves = await drivers_of(hall.storage, table_id, 1)
            assert moves[version] == (1, "bot")
            assert table.seats[1].driver == "person"
            # Now Ann's turn waits 24 hours: the server stops, and starts two days later.
            stored = await hall.storage.turn(table_id)
            assert stored is not None and stored.seat == 0
            version = table.version
        finally:
            await hall.close()

        hall = await open_hall(database, Clock(offset=HOUR + DAY + 2 * DAY))
        try:
            await until(lambda: table_id in hall.tables and quiet_at(hall.tables[table_id], 1)(),
                        "the limit that passed while the server was down")
            moves = await drivers_of(hall.storage, table_id, 1)
            assert moves[version] == (0, "bot")
        finally:
            await hall.close()

    asyncio.run(go())


def test_a_bots_turn_goes_on_after_a_restart(tmp_path: Path) -> None:
    """The server stopped while a bot was to move and nobody was at the table: at start the
    table is loaded and its bots play on to the next person's turn."""
    db = str(tmp_path / "t.sqlite3")

    async def go() -> None:
        hall = await open_hall(db, Clock())
        made, ann, bob = await new_table(hall, options(bot_pace=10))
        table_id = made["table"]
        try:
            table = table_of(hall, made)
            await play_to(table, [ann, bob], 1)
            await play_to(table, [ann, bob], 2)  # seat 2's bot waits its 10 s: stop now
            assert table.drivers.busy
        finally:
            await hall.close()
        storage = await Storage.open(db)  # the bots quicker from now on
        stored = await storage.load(table_id)
        assert stored is not None and stored.turn is not None and stored.turn.seat == 2
        await storage.set_options(table_id, dict(stored.row.options, bot_pace=0), None)
        await storage.close()
        hall = await open_hall(db, Clock())
        try:
            await until(lambda: table_id in hall.tables, "loaded at start")
            await until(quiet_at(hall.tables[table_id], 0), "the bots play to Ann's turn")
        finally:
            await hall.close()

    asyncio.run(go())


# ====================================================================== told of their turn
def test_a_new_game_tells_the_person_it_begins_with(tmp_path: Path) -> None:
    """A game (a start, a rematch) whose first turn is a gone person's pushes "your turn" to
    them at once: before, only a published move did, and nobody moves before the first turn."""
    from handfoot.server import push

    sent: list[tuple[str, int, dict[str, Any]]] = []

    async def go() -> None:
        hall = await open_hall(str(tmp_path / "t.sqlite3"), Clock())
        pusher = push.Pusher(hall.storage, push.load_or_make_key(tmp_path / "k.pem"), "x")

        async def send_seat(table_id: str, seat: int, message: dict[str, Any]) -> int:
            sent.append((table_id, seat, message))
            return 1

        pusher.send_seat = send_seat  # type: ignore[method-assign]
        push._PUSHERS[hall.storage] = pusher
        try:
            made = await hall.create(p.CreateTable.model_validate(
                {"name": "Across days", "options": options(turn_limit="24h")}), "http://host")
            ann, bob = Player(hall, made["table"], "Ann"), Player(hall, made["table"], "Bob")
            ann.ask(type="hello", protocol=1, host_token=made["host_token"])
            bob.ask(type="hello", protocol=1)
            ann.ask(type="join", seat=0, name="Ann")
            bob.ask(type="join", seat=1, name="Bob")
            await settle([ann, bob])
            bob.drop()
            await settle([ann, bob])
            assert sent == []
            ann.ask(type="start")
            await settle([ann])
            await asyncio.sleep(0.01)
            assert actor(table_of(hall, made)) == 1  # seat 0 deals, seat 1 begins
            assert sent == [(made["table"], 1, {
                "title": "Your turn", "body": "Across days: it is your turn to play.",
                "url": f"/t/{made['table']}", "tag": f"handfoot-{made['table']}"})]
            ann.drop()
            await settle([ann])
        finally:
            await pusher.close()
            await hall.close()

    asyncio.run(go())


# ====================================================================== the pace changed in play
def test_a_game_that_waits_is_played_on_when_the_host_chooses_the_bot(tmp_path: Path) -> None:
    """Bob's limit passed and the game waits for him; the host changes "when it passes" to
    "a bot plays": his bot plays that turn now, not only from his next one."""
    async def go() -> None:
        clock = Clock()
        hall = await open_hall(str(tmp_path / "t.sqlite3"), clock)
        try:
            made, ann, _, table = await waiting_for_bob(hall, clock, 2 * HOUR)
            ann.ask(type="options", options={"on_limit": "bot"})
            await settle([ann])
            await until(quiet_at(table, 0), "Bob's bot plays the turn that waited", 5)
            assert (1, "bot") in await drivers_of(hall.storage, made["table"], 1)
            assert table.seats[1].driver == "person"  # his again from his next turn
        finally:
            await hall.close()

    asyncio.run(go())


# ====================================================================== the test-only clock offset
@pytest.mark.parametrize("raw", ["nan", "inf", "-inf", "1e300", "two days"])
def test_the_test_clock_offset_takes_only_a_sane_number_of_seconds(
        raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``nan`` or a huge offset would break every stored time (each move stores when the
    next turn began): refused as the server starts, as a word is."""
    from handfoot.server.clock import TEST_OFFSET_VARIABLE

    monkeypatch.setenv(TEST_OFFSET_VARIABLE, raw)
    with pytest.raises(ValueError, match=TEST_OFFSET_VARIABLE):
        Clock.from_environment()


def test_the_test_clock_offset_is_said_in_the_log(monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    from handfoot.server.clock import TEST_OFFSET_VARIABLE

    monkeypatch.setenv(TEST_OFFSET_VARIABLE, str(2 * DAY))
    with caplog.at_level("WARNING", logger="handfoot.server"):
        assert Clock.from_environment().offset == 2 * DAY
    assert any(TEST_OFFSET_VARIABLE in r.getMessage() and "tests only" in r.getMessage()
               for r in caplog.records)
    monkeypatch.setenv(TEST_OFFSET_VARIABLE, "")
    caplog.clear()
    with caplog.at_level("WARNING", logger="handfoot.server"):
        assert Clock.from_environment().offset == 0
    assert not caplog.records


# ====================================================================== one person, gone for good
def test_one_gone_person_and_three_bots_play_to_the_end_by_the_limits(tmp_path: Path) -> None:
    """A turn-based table of one person and three bots, two rounds: the person leaves after
    the start and never returns.  Each of their turns passes its limit and their bot plays it
    and hands the seat back, through the round's end and the game's; the game ends, the seat
    is the person's, and no deadline is left armed."""
    async def go() -> None:
        clock = Clock()
        hall = await open_hall(str(tmp_path / "t.sqlite3"), clock)
        try:
            made = await hall.create(p.CreateTable.model_validate(
                {"name": "Alone", "rules": {"preset": "hand-and-foot", "set": {"rounds": 2}},
                 "bots": "casual", "options": options(turn_limit="1h")}), "http://host")
            ann = Player(hall, made["table"], "Ann")
            ann.ask(type="hello", protocol=1, host_token=made["host_token"])
            ann.ask(type="join", seat=0, name="Ann")
            await settle([ann])
            ann.ask(type="start")
            await settle([ann])
            ann.drop()
            await settle([ann])
            table = table_of(hall, made)
            assert table.status == "playing"
            limits = 0
            while table.status == "playing":
                await until(lambda: table.status != "playing" or quiet_at(table, 0)(),
                            "the bots play to Ann's turn")
                if table.status != "playing":
                    break
                assert table.seats[0].driver == "person" and made["table"] in hall.timers.deadlines
                clock.advance(HOUR + 1)
                limits += 1
                await until(lambda: table.status != "playing" or actor(table) != 0,
                            "Ann's bot plays her turn")
                assert limits < 500
            assert table.status == "over" and table.keeper is not None
            assert len(table.keeper.game.results) == 2 and limits > 2
            assert table.seats[0].driver == "person" and not table.seats[0].hand_back
            assert hall.timers.deadlines == {} and table.turn_info() is None
            moves = await drivers_of(hall.storage, made["table"], 1)
            assert all(d == "bot" for _, d in moves)
        finally:
            await hall.close()

    asyncio.run(go())
