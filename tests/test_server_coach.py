"""The server's side of the coaching table and the small things of issue 25: the rule texts
behind "Why?", the moves the rules can offer, the running table points, the seat hold's
countdown, and a returning person's log naming the bot that played for them."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from handfoot.bots.base import ask
from handfoot.bots.heuristic import HeuristicBot
from handfoot.clauses import CLAUSES
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, preset
from handfoot.server.client import TableClient
from handfoot.server.coach import moves_that_apply, table_points
from handfoot.server.rule_texts import parse, texts
from server_helpers import Server
from test_server import autoplay, seated

ROOT = Path(__file__).resolve().parent.parent


# ====================================================================== the rule texts
def test_the_rule_texts_are_made_from_the_rules_document() -> None:
    made = parse((ROOT / "docs" / "RULES.md").read_text(encoding="utf-8"))
    assert made == texts(), "docs/RULES.md changed: run scripts/rule-texts"
    for clause in CLAUSES:
        assert texts()[clause]["text"], clause


def test_why_serves_a_clause_and_refuses_an_unknown_one(server: Server) -> None:
    with urllib.request.urlopen(f"{server.base}/api/rules/clause/6.1", timeout=10) as r:
        found = json.load(r)
    assert found["clause"] == "6.1" and found["title"] == CLAUSES["6.1"]
    assert "minimum" in found["text"]
    # A sub-clause the document has no heading for opens its section.
    assert "8.5.4" in texts()
    with urllib.request.urlopen(f"{server.base}/api/rules/clause/6.1.2", timeout=10) as r:
        assert json.load(r)["clause"] == "6.1"
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(f"{server.base}/api/rules/clause/99.9", timeout=10)
    assert err.value.code == 404


# ====================================================================== moves that apply
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_move_left_out_is_never_offered(name: str) -> None:
    """Ask and knock are shown only under rules that can offer them: where one is left out,
    the engine never offers it in games the heuristic bots play."""
    rules = preset(name)
    moves = moves_that_apply(rules)
    bots = [HeuristicBot(seed=s) for s in range(rules.players)]
    texts_seen: set[str] = set()
    g = Game.new(rules.replace(rounds=1), seed=11, history=False)
    while not g.over:
        texts_seen.update(a.text for a in g.legal_actions())
        g.apply(ask(bots[g.actor], g))
    for move in ("ask", "knock"):
        if move not in moves:
            assert move not in texts_seen, (name, move)


# ====================================================================== table points
def test_table_points_count_the_melds_by_the_engines_scoring() -> None:
    rules = preset("hand-and-foot")
    assert not rules.red_three_bonus_needs_canasta
    g = Game.new(rules, seed=5, history=False)

    def red_threes(team: int) -> int:
        return sum(g.red3[s] for s in rules.seats_of(team)) * rules.red_three_bonus

    # Red threes laid at the deal count at once (10.3); the hands never do.
    start = table_points(g)
    assert start == [red_threes(0), red_threes(1)]
    bots = [HeuristicBot(seed=s) for s in range(rules.players)]
    while not any(g.opened):
        g.apply(ask(bots[g.actor], g))
    team = g.opened.index(True)
    points = table_points(g)
    # The opening's cards reach the round's minimum (6.1).
    assert points[team] - red_threes(team) >= g.opening_minimum(team)
    assert points[1 - team] == red_threes(1 - team)


def test_state_and_updates_carry_the_table_points_and_the_moves(server: Server) -> None:
    async def go() -> None:
        _made, clients = await seated(server, {0: "Ann"},
                                      rules={"preset": "hand-knee-foot"})
        ann = clients[0]
        assert ann.table is not None and ann.table["moves"] == ["ask", "knock"]
        seen: list[tuple[int | None, dict[str, Any]]] = []
        g = server.hall.tables[_made["table"]].keeper.game
        await autoplay([ann], stop=lambda: any(g.opened), seen=seen, timeout=120)
        updates = [m for _, m in seen if m["type"] == "update"]
        # The bots play on until Ann is to act: read up to there, where the game rests.
        while not ann.legal:
            m = await ann.recv()
            if m["type"] == "update":
                updates.append(m)
        assert all(len(m["table_points"]) == 2 for m in updates)
        assert updates[-1]["table_points"] == table_points(g)

    asyncio.run(go())


# ====================================================================== the hold, the log
def test_the_hold_counts_and_the_returning_log_names_the_bot(server: Server) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann", 2: "Bob"},
                                     options={"seat_hold": 0.3})
        ann, bob = clients[0], clients[2]
        token = ann.seat_token
        await ann.ws.close()
        seen: list[tuple[int | None, dict[str, Any]]] = []

        def bot_played_ann() -> bool:
            return any(m["type"] == "update" and m["seat"] == 0 and m["by"] == "bot"
                       for _, m in seen)

        await autoplay([bob], stop=bot_played_ann, seen=seen)
        tables = [m for _, m in seen if m["type"] == "table"]
        # While Ann's seat is to act and she is gone, her hold counts down (the page redraws
        # the seconds itself from when the message came).
        assert any(t["seats"][0]["hold_counting"] and t["seats"][0]["hold"] > 0
                   for t in tables)
        assert all(not t["seats"][2]["hold_counting"] for t in tables)
        back = await TableClient.connect(made["websocket"], seat_token=token)
        state = await back.until("state")
        mine = [line for line in state["log"] if line.startswith("Bot (for you)")]
        assert mine, state["log"]
        # Bob reads the same moves under Ann's name; Ann's own moves stay "You ...".
        bob_log = (await bob.request({"type": "sync"}))["log"]
        assert not any("Bot (for you)" in line for line in bob_log)
        assert any(line.startswith("Ann ") for line in bob_log)

    asyncio.run(go())
