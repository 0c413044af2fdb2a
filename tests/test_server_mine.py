""""My tables" (POST /api/mine): the browser's seat tokens in, per table only what that seat
may know out, your turn first; and the player's history, counted by the engine from the stored
games of those tables."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

import pytest

from handfoot.record import load_record, replay
from handfoot.server.client import ClientError, http_json
from server_helpers import Server
from test_server import autoplay, over, seated, settle


def mine(server: Server, seats: list[tuple[str, str | None]]) -> dict[str, Any]:
    out: dict[str, Any] = http_json(f"{server.base}/api/mine", {
        "seats": [{"table": t, "seat_token": s} for t, s in seats]})
    return out


def test_my_tables_your_turn_first_and_the_history_of_a_finished_game(
        server: Server, tmp_path: Any) -> None:
    async def go() -> dict[str, Any]:
        lobby, a = await seated(server, {0: "Ann"}, start=False, name="Lobby")
        # Seat 1 acts first (the dealer is seat 0): Ann's turn at once.
        turn, b = await seated(server, {1: "Ann"}, name="Ann to play")
        # Ann leaves; a bot's turn, and the table waits for someone to connect.
        waiting, d = await seated(server, {0: "Ann"}, name="Bot to play", bot_pace=10)
        await d[0].close()
        done, c = await seated(server, {0: "Ann", 2: "Bob"}, name="Done",
                               rules={"preset": "hand-and-foot", "set": {"rounds": 1}})
        await autoplay([c[0], c[2]])
        assert over(c[0])
        await settle(c[0], lambda: c[0].table is not None and c[0].table["status"] == "over")
        return {"lobby": (lobby, a[0]), "turn": (turn, b[1]), "waiting": (waiting, d[0]),
                "done": (done, c[0]), "bob": (done, c[2])}

    made = asyncio.run(go())
    assert server.hall.tables[made["turn"][0]["table"]].keeper.game.actor == 1
    ann = [(m["table"], client.seat_token) for key, (m, client) in made.items() if key != "bob"]
    ann.append(("no-such-table", "s-made-up"))
    got = mine(server, ann)
    names = [t["name"] for t in got["tables"]]
    assert names == ["Ann to play", "Bot to play", "Lobby", "Done"]
    first, bot, lobby, done = got["tables"]
    assert first["your_turn"] and first["turn"] == 1 and first["turn_name"] == "Ann"
    assert first["seat"] == 1 and first["seat_name"] == "Ann" and not first["asked"]
    assert bot["turn"] == 1 and bot["turn_name"] == "Heuristic 2" and not bot["your_turn"]
    assert lobby["status"] == "lobby" and lobby["turn"] is None
    assert done["status"] == "over" and done["turn"] is None
    assert all(t["last_move"] for t in got["tables"])
    # Only what the seat may know: no token, no hand, no other seat's secrets.
    assert set(first) == {"table", "name", "status", "game", "rules", "seat", "seat_name",
                          "turn", "turn_name", "asked", "your_turn", "last_move", "since",
                          "deadline", "waiting", "pace", "url"}
    assert got["unknown"] == ["no-such-table"]
    assert made["done"][1].seat_token not in json.dumps(got)

    # The history, against the finished game's record replayed here by the engine.
    table = made["done"][0]["table"]
    with urllib.request.urlopen(f"{server.base}/api/tables/{table}/record", timeout=10) as r:
        path = tmp_path / "done.json"
        path.write_bytes(r.read())
    result = replay(load_record(path.read_text(encoding="utf-8")))
    rounds = result.results
    team = 0
    canastas = sum(sum(r.teams[team].tally.canastas.values()) for r in rounds
                   if r.teams[team].tally is not None)
    best = max(result.totals)
    (line,) = got["history"]
    assert line == {
        "name": "Ann", "rules": "hand-and-foot + house rules", "games": 1,
        "won": int(result.totals[team] == best), "rounds": len(rounds),
        "points": result.totals[team], "canastas": canastas,
        "went_out": sum(1 for r in rounds if r.went_out == 0),
        "average_round": round(result.totals[team] / len(rounds), 1),
        "went_out_share": round(sum(1 for r in rounds if r.went_out == 0) / len(rounds), 3)}
    # Bob's token gives Bob's line only (seat 2: the same team, his own going out).
    bob = mine(server, [(table, made["bob"][1].seat_token)])
    (bob_line,) = bob["history"]
    assert bob_line["name"] == "Bob" and bob_line["points"] == line["points"]
    assert bob_line["went_out"] == sum(1 for r in rounds if r.went_out == 2)
    assert [t["seat"] for t in bob["tables"]] == [2]


def test_my_tables_refuses_bad_requests(server: Server) -> None:
    with pytest.raises(ClientError, match=r"400.*seats"):
        http_json(f"{server.base}/api/mine", {"tokens": []})
    with pytest.raises(ClientError, match=r"seats\[0\]"):
        http_json(f"{server.base}/api/mine", {"seats": [{"table": "x"}]})
    with pytest.raises(ClientError, match="413"):
        http_json(f"{server.base}/api/mine", {"seats": [{"table": "x", "seat_token": "y"}]
                                              * 201})
    assert mine(server, []) == {"tables": [], "unknown": [], "history": []}
