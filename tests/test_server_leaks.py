"""Nothing hidden leaks at the wire: every message a seat or a spectator receives, over whole
games played through the server, checked against the true game rebuilt afterwards from the
exported record (which shows every hand once the game is over).

Every seat is a client playing as the heuristic would from what the wire tells it, and one
spectator watches.  For each message: a view is the recipient's own (its seat, its true hand
at that version) or the public one (no hand at all); no field names another seat's cards
(hands, packets, the stock, the deal, the seed); a log line naming drawn cards goes only to
the drawer; and no other seat's hand, written out, appears anywhere in the message.
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from handfoot.bots.heuristic import HeuristicBot
from handfoot.cards import format_cards, format_counts
from handfoot.engine import Game
from handfoot.presets import PLAYER_COUNTS, PRESET_NAMES
from handfoot.record import load_record
from handfoot.server.client import TableClient
from server_helpers import Server, ServerProcess, heuristic_choice

FORBIDDEN_KEYS = {"hands", "packets", "stock", "deal", "deals", "seed", "seat_token_hash",
                  "token_hash", "host_hash"}
VIEW_KEYS = {"seat", "round", "rounds", "dealer", "turn", "actor", "phase", "turns", "hand",
             "seats", "teams", "pile", "pile_top", "stock_size", "totals", "results",
             "took_pile", "retracted", "asked", "staged", "pile_taken", "minimum", "ended_by",
             "went_out", "set_aside", "passes"}
CARD = r"(?:10|[4-9]|J|Q|K|A|2|JK|R3|B3)"
# A draw line that names the cards: only ever "You draw K 7", in the drawer's own copy.
DRAWN = re.compile(rf"^(?P<name>.+) draws? (?P<cards>{CARD}(?: {CARD})*)$")

Received = list[tuple[int | None, dict[str, Any]]]


@pytest.fixture(scope="module")
def server_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(str(tmp_path_factory.mktemp("leaks-slow") / "tables.sqlite3"))
    try:
        yield proc
    finally:
        proc.stop()


async def play_everyone(server: Server | ServerProcess,
                        rules: dict[str, Any]) -> tuple[str, Received]:
    """A table where every seat is a client; returns the table and every message received."""
    made = server.create(rules=rules, options={"bot_pace": 0})
    players = made["rules"]["players"]
    received: Received = []
    clients = []
    for seat in range(players):
        c = await TableClient.connect(made["websocket"],
                                      host_token=made["host_token"] if seat == 0 else None)
        await c.join(seat, f"P{seat}")
        clients.append(c)
    watcher = await TableClient.connect(made["websocket"])
    for c in [*clients, watcher]:
        c.on_message = lambda m, seat=c.seat: received.append((seat, m))
    await clients[0].send({"type": "start"})
    bots = [HeuristicBot(seed=s) for s in range(players)]
    done = asyncio.Event()

    def over(c: TableClient) -> bool:
        return c.view is not None and c.view["phase"] == "game-over"

    async def run(c: TableClient) -> None:
        sent = -1
        while not done.is_set():
            try:
                m = await c.recv(0.2)
                assert m["type"] != "refused" and m.get("code") in (None, "stale"), m
            except TimeoutError:
                pass
            if all(over(x) for x in [*clients, watcher]):
                done.set()
            elif c.seat is not None and c.legal and sent != c.version:
                sent = c.version
                await c.send({"type": "act", "version": c.version,
                              "action": heuristic_choice(c, bots[c.seat])})

    await asyncio.wait_for(asyncio.gather(*(run(c) for c in [*clients, watcher])), 600)
    for c in [*clients, watcher]:
        await c.close()
    return made["table"], received


def true_states(server: Server | ServerProcess, table: str) -> tuple[list[Game], list[str]]:
    """The game after each number of actions (index = version), and the seats' names."""
    with urllib.request.urlopen(f"{server.base}/api/tables/{table}/record", timeout=30) as r:
        record = load_record(r.read().decode())
    game = record.new_game()
    states = [game.clone()]
    for rnd in record.rounds:
        for _seat, action in rnd.actions:
            game.apply(action)
            states.append(game.clone())
    return states, [s.name for s in record.seats]


KEY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:')
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def check(received: Received, states: list[Game], names: list[str]) -> int:
    """Every check on every message; the number of messages checked."""
    for seat, m in received:
        rules = m.pop("rules", None)  # the table's rules mapping ("packets" are sizes there)
        text = json.dumps(m, ensure_ascii=False)
        if rules is not None:
            m["rules"] = rules
        keys = set(KEY.findall(text))
        assert not keys & FORBIDDEN_KEYS, f"{keys & FORBIDDEN_KEYS} sent to seat {seat}"
        hands = text.count('"hand":')
        assert hands == (1 if seat is not None and "hand" in m.get("view", {}) else 0), \
            f"a hand sent to {seat}: {m['type']}"
        version = m.get("version")
        lines: list[tuple[int | None, str]] = []  # (the seat that acted, a line)
        if m["type"] in ("state", "update"):
            game = states[version]
            view = m["view"]
            # The winners (public totals' verdict) join the view once the game is over.
            allowed = VIEW_KEYS | ({"winners"} if view["phase"] == "game-over" else set())
            assert set(view) == (allowed if seat is not None else allowed - {"hand"})
            assert view["seat"] == seat
            if seat is not None:
                assert view["hand"] == format_counts(game.hands[seat]), (seat, version)
            assert view["pile"] == format_cards(game.pile)
            assert [s["hand_size"] for s in view["seats"]] == game.hand_n
            if m["legal"]:
                assert seat == game.actor
            lines = [(m.get("seat"), line) for line in m["log"]]
            # No string in the message is another seat's hand written out, unless the same
            # cards are also a public group (the pile, known cards, cards taken from the pile).
            public = {view["pile"], *(s["known"] for s in view["seats"]),
                      *(e.get("cards") for e in m.get("events", []))}
            if seat is not None:
                public.add(view["hand"])
            strings = set(STRING.findall(text))
            for t in range(len(names)):
                written = format_counts(game.hands[t])
                if t != seat and sum(game.hands[t]) >= 3 and written not in public:
                    assert written not in strings, \
                        f"seat {t}'s hand {written!r} in a message to seat {seat}"
        elif m["type"] == "catch_up":
            lines = [(e["seat"], line) for e in m["entries"] for line in e["log"]]
        for actor, line in lines:
            drawn = DRAWN.match(line)
            if drawn:
                assert drawn["name"] == "You" and seat is not None and actor == seat, \
                    f"{line!r} sent to {'a spectator' if seat is None else names[seat]}"
    return len(received)


def run_and_check(server: Server | ServerProcess, rules: dict[str, Any]) -> int:
    table, received = asyncio.run(play_everyone(server, rules))
    states, names = true_states(server, table)
    assert any(m["type"] == "update" for _, m in received)
    return check(received, states, names)


@pytest.mark.parametrize(("preset", "players"), [
    ("hand-and-foot", 4), pytest.param("hand-knee-foot", 3, marks=pytest.mark.slow)])
def test_nothing_hidden_reaches_a_seat_or_a_spectator(server: Server, preset: str,
                                                      players: int) -> None:
    checked = run_and_check(server, {"preset": preset, "players": players,
                                     "set": {"rounds": 1}})
    assert checked > 100


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), [(name, n) for name in PRESET_NAMES
                                                 for n in sorted(PLAYER_COUNTS[name])])
def test_nothing_hidden_leaks_in_whole_games(server_process: ServerProcess, preset: str,
                                             players: int) -> None:
    assert run_and_check(server_process, {"preset": preset, "players": players}) > 500
