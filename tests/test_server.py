"""The web table with several clients over real websockets to an in-process server: partners
in different clients, the partner's permission, reconnecting mid-turn, a dropped seat taken by
its bot and handed back, spectators, undo, hints, chat, the record, rematch."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from handfoot.bots.heuristic import HeuristicBot
from handfoot.cli.main import main as cli
from handfoot.server.client import ClientError, TableClient, http_json
from server_helpers import Server, drain, heuristic_choice, running_server

Choice = Callable[[TableClient], str | None]


def short_rules(**more: Any) -> dict[str, Any]:
    """A one-round game: whole, but quick."""
    return {"preset": "hand-and-foot", "set": {"rounds": 1, **more}}


async def seated(server: Server, persons: dict[int, str], bot_pace: float = 0.0,
                 start: bool = True, **body: Any) -> tuple[dict[str, Any], dict[int, TableClient]]:
    """A table with these persons seated (the first is the host), started."""
    body.setdefault("rules", short_rules())
    body.setdefault("options", {})
    body["options"] = {"bot_pace": bot_pace, **body["options"]}
    made = server.create(**body)
    clients: dict[int, TableClient] = {}
    for i, (seat, name) in enumerate(persons.items()):
        client = await TableClient.connect(made["websocket"],
                                           host_token=made["host_token"] if i == 0 else None)
        await client.join(seat, name)
        clients[seat] = client
    if start:
        first = clients[next(iter(persons))]
        await first.send({"type": "start"})
        for client in clients.values():
            await client.until("state")
    return made, clients


def over(client: TableClient) -> bool:
    return client.view is not None and client.view["phase"] == "game-over"


async def autoplay(clients: list[TableClient], stop: Callable[[], bool] = lambda: False,
                   choose: Choice | None = None, timeout: float = 60.0,
                   seen: list[tuple[int | None, dict[str, Any]]] | None = None) -> None:
    """The clients play as the heuristic would (or as ``choose`` says) until every game view
    is over or ``stop()``; any refusal or error other than a stale version fails."""
    done = asyncio.Event()
    bots = {id(c): HeuristicBot(seed=i) for i, c in enumerate(clients)}

    async def run(c: TableClient) -> None:
        sent = -1
        while not done.is_set():
            try:
                m = await c.recv(0.2)
            except TimeoutError:
                m = None
            if m is not None:
                if seen is not None:
                    seen.append((c.seat, m))
                if m["type"] == "refused" or (m["type"] == "error" and m["code"] != "stale"):
                    raise AssertionError(f"seat {c.seat}: {m}")
            if stop() or all(over(x) for x in clients):
                done.set()
                return
            if c.legal and sent != c.version:
                sent = c.version
                text = choose(c) if choose else None
                await c.send({"type": "act", "version": c.version,
                              "action": text or heuristic_choice(c, bots[id(c)])})

    await asyncio.wait_for(asyncio.gather(*(run(c) for c in clients)), timeout)


async def settle(client: TableClient, done: Callable[[], bool], timeout: float = 10.0) -> None:
    """Read the client's messages until ``done()`` (at once if it already is)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done():
        await client.recv(max(0.01, deadline - loop.time()))


def record_of(server: Server, table: str) -> str:
    with urllib.request.urlopen(f"{server.base}/api/tables/{table}/record", timeout=10) as r:
        text: str = r.read().decode()
        return text


# ====================================================================== a whole game
def test_two_partners_and_two_bots_play_a_whole_game(server: Server, tmp_path: Path) -> None:
    seen: list[tuple[int | None, dict[str, Any]]] = []

    async def go() -> None:
        made, clients = await seated(server, {0: "Ann", 2: "Bob"})
        watcher = await TableClient.connect(made["websocket"])
        await autoplay([clients[0], clients[2], watcher], seen=seen)
        for c in (clients[0], clients[2], watcher):
            assert over(c)
        a, b = clients[0].view, clients[2].view
        assert a is not None and b is not None and watcher.view is not None
        assert a["totals"] == b["totals"] == watcher.view["totals"]
        # The winners come from the engine's scoring, for every reader alike.
        best = max(a["totals"])
        assert a["winners"] == b["winners"] == watcher.view["winners"] == [
            t for t, total in enumerate(a["totals"]) if total == best]
        assert a["seat"] == 0 and b["seat"] == 2 and watcher.view["seat"] is None
        assert "hand" not in watcher.view
        assert clients[0].version == clients[2].version == watcher.version
        await settle(clients[0], lambda: clients[0].table is not None
                     and clients[0].table["status"] == "over")
        table = clients[0].table
        assert table is not None
        assert [s["driver"] for s in table["seats"]] == ["person", "bot", "person", "bot"]
        path = tmp_path / "game.json"
        path.write_text(record_of(server, made["table"]), encoding="utf-8")
        assert cli(["replay", str(path)]) == 0
        record = json.loads(path.read_text())
        assert [s.get("name") for s in record["seats"]] == ["Ann", "Heuristic 2", "Bob",
                                                           "Heuristic 4"]
        actions = [a for r in record["rounds"] for a in r["actions"]]
        assert len(actions) == clients[0].version  # one version per action: nothing lost
        assert {seat for seat, _ in actions} == {0, 1, 2, 3}

    asyncio.run(go())
    updates = [m for seat, m in seen if m["type"] == "update" and seat == 0]
    assert {m["by"] for m in updates if m["seat"] in (1, 3)} == {"bot"}
    assert {m["by"] for m in updates if m["seat"] in (0, 2)} == {"person"}
    versions = [m["version"] for m in updates]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)


# ====================================================================== may I go out?
def test_partner_answers_may_i_go_out_from_another_client(server: Server) -> None:
    async def go() -> None:
        # Random opponents seldom go out, so one of the partners gets to ask (the question is
        # offered only when the asker could go out).
        _made, clients = await seated(server, {0: "Ann", 2: "Bob"}, bots="random",
                                      rules={"preset": "hand-and-foot",
                                             "set": {"permission": True}})
        asker: TableClient | None = None

        def choose(c: TableClient) -> str | None:
            nonlocal asker
            if "ask" in c.legal and asker is None:
                asker = c
                return "ask"
            return None

        await autoplay(list(clients.values()), stop=lambda: asker is not None, choose=choose,
                       timeout=240)
        assert asker is not None, "neither partner could ever go out"
        partner = clients[2] if asker is clients[0] else clients[0]
        me, you = asker.seat, partner.seat
        names = {0: "Ann", 2: "Bob"}
        # The partner's client is asked: only the partner may answer, and only yes or no.
        await settle(partner, lambda: partner.view is not None
                     and partner.view["phase"] == "answer")
        await settle(asker, lambda: asker is not None and asker.view is not None
                     and asker.view["phase"] == "answer")
        assert partner.view is not None and partner.view["actor"] == you
        assert partner.legal == ["answer yes", "answer no"]
        assert f"{names[me]} asks You: \"may I go out?\"" in partner.log
        assert f"You ask {names[you]}: \"may I go out?\"" in asker.log
        assert asker.legal == []
        refused = await asker.act("answer yes")
        assert refused["type"] == "refused" and refused["clause"] == "3.1"
        answer = await partner.act("answer yes")
        assert answer["type"] == "update" and answer["seat"] == you
        assert answer["events"][0] == {"name": "answer", "seat": you,
                                       "text": f"{names[you]} answers yes", "yes": True}
        assert answer["log"] == ["You answer yes"]
        await settle(asker, lambda: asker is not None and asker.version == answer["version"])
        assert asker.view is not None and asker.view["asked"] == "yes"
        assert asker.view["actor"] == me
        assert asker.legal and "ask" not in asker.legal

    asyncio.run(go())


# ====================================================================== reconnecting
def test_reconnect_mid_turn_gets_the_seat_back_and_what_it_missed(server: Server) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann", 2: "Bob"})
        ann, bob = clients[0], clients[2]
        token = ann.seat_token

        def mid_turn() -> bool:
            v = ann.view
            return v is not None and v["actor"] == 0 and v["phase"] == "meld"

        await autoplay([ann, bob], stop=mid_turn)
        hand, version, legal = ann.view["hand"], ann.version, ann.legal  # type: ignore[index]
        await ann.ws.close()  # the page is reloaded mid-turn
        await asyncio.sleep(0.1)
        again = await TableClient.connect(made["websocket"], seat_token=token,
                                          last_version=version)
        assert again.seat == 0
        state = await again.until("state")
        assert state["version"] == version and state["view"]["hand"] == hand
        assert state["legal"] == legal
        table = again.table
        assert table is not None and table["seats"][0]["connected"]
        # A client that saw less gets what it missed first: the entries, then the state.
        await again.ws.close()
        await asyncio.sleep(0.05)
        older = await TableClient.connect(made["websocket"], seat_token=token,
                                          last_version=version - 3)
        caught = await older.until("catch_up")
        assert [e["version"] for e in caught["entries"]] == [version - 2, version - 1, version]
        assert caught["to"] == version
        await older.until("state")
        # Play on from the new connection.
        await autoplay([older, bob])
        assert over(older) and over(bob)

    asyncio.run(go())


def test_a_newer_connection_for_the_seat_closes_the_older(server: Server) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann"}, start=False)
        ann = clients[0]
        second = await TableClient.connect(made["websocket"], seat_token=ann.seat_token)
        assert second.seat == 0
        with pytest.raises(ClientError, match="4001"):
            await ann.until("never")

    asyncio.run(go())


# ====================================================================== the seat hold
def test_a_dropped_seat_is_played_by_its_bot_then_handed_back(server: Server) -> None:
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
        assert any(t["seats"][0]["hold"] is not None and 0 < t["seats"][0]["hold"] <= 0.3
                   for t in tables), "the hold was not shown counting down"
        assert any(t["seats"][0]["driver"] == "bot" and t["seats"][0]["hold"] == 0
                   for t in tables)
        # Ann comes back: the seat is hers from the start of the next turn.
        back = await TableClient.connect(made["websocket"], seat_token=token)
        seen.clear()

        def ann_played_herself() -> bool:
            return any(m["type"] == "update" and m["seat"] == 0 and m["by"] == "person"
                       for _, m in seen)

        await autoplay([back, bob], stop=ann_played_herself, seen=seen)
        assert back.table is not None and back.table["seats"][0]["driver"] == "person"
        # Each once, in version order: two clients' messages interleave in ``seen``, and Bob's
        # may still hold some from before Ann came back.
        bot_moves = [m for _, m in sorted({m["version"]: m for _, m in seen
                                           if m["type"] == "update" and m["seat"] == 0
                                           and m["by"] == "bot"}.items())]
        # If she came back mid-turn, the bot finished that turn and no more.
        ends = [i for i, m in enumerate(bot_moves)
                if any(e["name"] in ("turn", "round_end") for e in m["events"])]
        assert ends in ([], [len(bot_moves) - 1])

    asyncio.run(go())


def test_a_table_nobody_watches_waits(server: Server) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann"}, options={"seat_hold": 0})
        await clients[0].ws.close()
        await asyncio.sleep(0.2)  # a bot's move already under way may finish
        table = server.hall.tables[made["table"]]
        version = table.version
        await asyncio.sleep(0.3)
        assert table.version == version  # no bot played on with nobody there
        watcher = await TableClient.connect(made["websocket"])
        await watcher.until(lambda m: m.get("type") == "update" and m["seat"] == 0
                            and m["by"] == "bot", timeout=20)

    asyncio.run(go())


# ====================================================================== spectators
def test_spectators_see_the_public_view_and_cannot_act(server: Server) -> None:
    async def go() -> None:
        made, _clients = await seated(server, {0: "Ann"})
        watcher = await TableClient.connect(made["websocket"])
        assert watcher.seat is None
        state = await watcher.until("state")
        assert state["view"]["seat"] is None and "hand" not in state["view"]
        assert state["legal"] == [] and not state["can_undo"]
        for message in ({"type": "act", "version": watcher.version, "action": "draw"},
                        {"type": "undo", "version": watcher.version},
                        {"type": "hint"}, {"type": "chat", "text": "hi"}):
            reply = await watcher.request(message)
            assert reply["type"] == "error" and reply["code"] == "not_seated", reply
        assert watcher.table is not None and watcher.table["spectators"] == 1

    asyncio.run(go())


# ====================================================================== refusals and errors
def test_refusals_name_the_rule_and_stale_versions_are_refused(server: Server) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann", 1: "Cy"}, bot_pace=5)
        ann, cy = clients[0], clients[1]
        actor = ann.view["actor"]  # type: ignore[index]
        mover, other = (ann, cy) if actor == 0 else (cy, ann)
        reply = await other.act("draw")
        assert reply["type"] == "refused" and reply["clause"] == "3.1"
        assert reply["rule"] == "Whose turn it is"
        reply = await mover.act("discard K")
        assert reply["type"] == "refused" and reply["clause"] and reply["reason"]
        reply = await mover.act("fly away")
        assert reply["type"] == "error" and reply["code"] == "bad_action"
        reply = await mover.request({"type": "act", "version": mover.version + 5,
                                     "action": "draw"})
        assert reply["type"] == "error" and reply["code"] == "stale"
        assert reply["version"] == mover.version
        assert server.hall.tables[made["table"]].version == mover.version
        done = await mover.act("draw")
        assert done["type"] == "update" and done["version"] == mover.version
        # The same action resent on the old version is not applied twice.
        again = await mover.request({"type": "act", "version": done["version"] - 1,
                                     "action": "draw"})
        assert again["code"] == "stale"

    asyncio.run(go())


def test_lobby_rules(server: Server) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann"}, start=False)
        ann = clients[0]
        bob = await TableClient.connect(made["websocket"])
        reply = await bob.request({"type": "join", "seat": 0, "name": "Bob"})
        assert reply["code"] == "seat"
        reply = await bob.request({"type": "join", "seat": 5, "name": "Bob"})
        assert reply["code"] == "seat"
        reply = await bob.request({"type": "join", "seat": 1, "name": " \x07 "})
        assert reply["code"] == "bad_message"
        reply = await bob.request({"type": "start"})
        assert reply["code"] == "host"
        reply = await bob.request({"type": "join", "seat": 1, "name": "<Bob>\n"})
        assert reply["type"] == "joined" and reply["seat_token"].startswith("s-")
        table = await ann.until("table")
        while table["seats"][1]["occupant"] != "person":
            table = await ann.until("table")
        assert table["seats"][1]["name"] == "<Bob>"
        reply = await bob.request({"type": "leave"})
        assert reply["type"] == "table" and reply["seats"][1]["occupant"] == "open"
        assert bob.seat is None or bob.seat == 1  # the client's own note; the server's:
        reply = await bob.request({"type": "chat", "text": "still here?"})
        assert reply["code"] == "not_seated"
        reply = await ann.request({"type": "options", "bots": ["basic"]})
        assert reply["type"] == "table" and {s["bot"] for s in reply["seats"]} == {"basic"}
        reply = await ann.request({"type": "options", "bots": ["oracle"]})
        assert reply["code"] == "bad_message" and "oracle" in reply["message"]
        await ann.send({"type": "start"})
        state = await ann.until("state")
        assert state["version"] == 0
        reply = await ann.request({"type": "start"})
        assert reply["code"] == "status"
        reply = await ann.request({"type": "rematch"})
        assert reply["code"] == "status"

    asyncio.run(go())


# ====================================================================== undo, hints, chat
def test_undo_takes_back_steps_of_this_turn_only(server: Server) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann", 2: "Bob"})
        ann, bob = clients[0], clients[2]

        def can_meld() -> bool:
            return ann.view is not None and ann.view["actor"] == 0 and any(
                t.startswith(("meld", "add")) for t in ann.legal)

        await autoplay([ann, bob], stop=can_meld, timeout=120)
        table = server.hall.tables[made["table"]]
        before_view, before_actions = ann.view, table.keeper.actions
        step = next(t for t in ann.legal if t.startswith(("meld", "add")))
        done = await ann.act(step)
        assert done["type"] == "update" and done["can_undo"]
        undone = await ann.request({"type": "undo", "version": ann.version})
        assert undone["type"] == "update" and undone["action"] == "undo"
        assert undone["events"][0]["name"] == "undo" and undone["events"][0]["steps"] == 1
        assert undone["view"] == before_view and not undone["can_undo"]
        assert table.keeper.actions == before_actions
        stored = await table.storage.game(made["table"], 1)
        assert len(stored.actions) == before_actions
        m = await bob.until(lambda m: m.get("type") == "update" and m["action"] == "undo")
        assert m["version"] == ann.version
        reply = await ann.request({"type": "undo", "version": ann.version})
        assert reply["code"] == "undo"

    asyncio.run(go())


def test_hints_are_a_table_option(server: Server) -> None:
    async def go() -> None:
        _made, clients = await seated(server, {0: "Ann", 1: "Cy"}, bot_pace=5)
        ann, cy = clients[0], clients[1]
        reply = await ann.request({"type": "hint"})
        assert reply["code"] == "hints_off"
        reply = await cy.request({"type": "options", "options": {"hints": True}})
        assert reply["code"] == "host"
        reply = await ann.request({"type": "options", "options": {"hints": True}})
        assert reply["type"] == "table" and reply["options"]["hints"]
        await settle(cy, lambda: cy.table is not None and cy.table["options"]["hints"])
        mover = ann if ann.view["actor"] == 0 else cy  # type: ignore[index]
        reply = await mover.request({"type": "hint"})
        assert reply["type"] == "hint" and reply["action"] in mover.legal

    asyncio.run(go())


def test_following_the_hints_is_never_refused(server: Server) -> None:
    """Issue 25: a hint is sent as it stands (a whole lay-down before the opening) and the
    engine takes it, every time, until the person's team has opened."""
    async def go() -> None:
        _made, clients = await seated(server, {0: "Ann"}, options={"hints": True})
        ann = clients[0]
        lays = followed = 0
        while followed < 60 and not over(ann):
            await settle(ann, lambda: bool(ann.legal) or over(ann), timeout=30)
            if over(ann):
                break
            reply = await ann.request({"type": "hint"})
            assert reply["type"] == "hint" and reply["action"], reply
            answer = await ann.act(reply["action"])
            assert answer["type"] == "update", (reply, answer)
            followed += 1
            lays += reply["action"].startswith("lay ")
            if lays and ann.view["teams"][0]["opened"]:  # type: ignore[index]
                break
        assert followed >= 2

    asyncio.run(go())


def test_chat_is_escaped_and_rate_limited(server: Server) -> None:
    async def go() -> None:
        _made, clients = await seated(server, {0: "Ann", 2: "Bob"}, start=False)
        ann, bob = clients[0], clients[2]
        await ann.send({"type": "chat", "text": "<img src=x onerror=alert(1)> & hi\x1b[2J"})
        m = await bob.until("chat")
        assert m["text"] == "&lt;img src=x onerror=alert(1)&gt; &amp; hi [2J"
        assert m["name"] == "Ann" and m["seat"] == 0
        echo = await ann.request({"type": "chat", "text": "again"})
        assert echo["type"] == "chat" and echo["text"] == "again"
        for i in range(4):
            await ann.send({"type": "chat", "text": f"spam {i}"})
        got = await drain(ann, 0.3)
        assert any(x.get("code") == "too_fast" for x in got)

    asyncio.run(go())


# ====================================================================== HTTP
def test_http_create_list_and_record(server: Server) -> None:
    with pytest.raises(ClientError, match="rules"):
        server.create(rules={"preset": "hand-and-foot", "set": {"pile_take": "everything"}})
    with pytest.raises(ClientError, match="unknown preset"):
        server.create(rules={"preset": "poker"})
    with pytest.raises(ClientError, match=r"rules\.players"):
        server.create(rules={"preset": "hand-and-foot", "players": "four"})
    toml = 'base = "hand-and-foot"\npile_take = "whole"\n'
    made = server.create(name="Friday", rules={"file": toml, "format": "toml", "players": 6},
                         bots="basic")
    assert made["rules"]["players"] == 6 and made["rules"]["pile_take"] == "whole"
    assert made["invite"].endswith(f"/t/{made['table']}")
    assert "host_token" not in made["invite"] and made["host_token"] not in made["invite"]
    other = server.create(host_token=made["host_token"])
    with pytest.raises(ClientError, match="host token"):
        server.create(host_token="guessable")
    listed = http_json(f"{server.base}/api/tables", token=made["host_token"])["tables"]
    assert {t["table"] for t in listed} == {made["table"], other["table"]}
    with pytest.raises(ClientError, match="401"):
        http_json(f"{server.base}/api/tables")
    summary = http_json(f"{server.base}/api/tables/{made['table']}")
    assert summary["name"] == "Friday" and summary["players"] == 6
    with pytest.raises(ClientError, match="404"):
        http_json(f"{server.base}/api/tables/nosuchtable")
    info = http_json(f"{server.base}/api/info")
    assert info["protocol"] == 1 and "search" in info["bots"]
    stats = http_json(f"{server.base}/api/stats")
    assert stats["tables"] >= 0 and set(stats["loop_lag"]) == {"p50_ms", "p99_ms", "max_ms"}
    with urllib.request.urlopen(made["invite"], timeout=10) as page:
        assert "handfoot play --join" in page.read().decode()

    async def go() -> None:
        made, _clients = await seated(server, {0: "Ann"}, bot_pace=5)
        with pytest.raises(ClientError, match="409"):
            http_json(f"{server.base}/api/tables/{made['table']}/record")

    asyncio.run(go())


def test_rematch_keeps_the_seats(server: Server) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann"}, bot_pace=0)
        ann = clients[0]
        await autoplay([ann])
        first = ann.version
        await ann.send({"type": "rematch"})
        table = await ann.until(lambda m: m.get("type") == "table" and m["game"] == 2)
        assert table["status"] == "playing" and table["seats"][0]["name"] == "Ann"
        state = await ann.until("state")
        assert state["game"] == 2 and state["version"] == first
        await autoplay([ann])
        with urllib.request.urlopen(f"{server.base}/api/tables/{made['table']}/record?game=1",
                                    timeout=10) as r:
            assert json.loads(r.read())["ended"] is True

    asyncio.run(go())


def test_a_table_nobody_is_at_leaves_memory_and_comes_back(tmp_path: Path) -> None:
    with running_server(str(tmp_path / "t.sqlite3"), idle_unload=0.2) as srv:
        async def go() -> None:
            made, clients = await seated(srv, {0: "Ann"}, bot_pace=0)
            ann = clients[0]
            await autoplay([ann], stop=lambda: ann.version >= 20)
            await settle(ann, lambda: bool(ann.legal))
            version, hand = ann.version, ann.view["hand"]  # type: ignore[index]
            await ann.close()
            for _ in range(50):
                await asyncio.sleep(0.1)
                if made["table"] not in srv.hall.tables:
                    break
            assert made["table"] not in srv.hall.tables
            back = await TableClient.connect(made["websocket"], seat_token=ann.seat_token)
            state = await back.until("state")
            assert state["version"] == version and state["view"]["hand"] == hand
            assert state["legal"] == ann.legal

        asyncio.run(go())


def test_a_lay_down_of_several_melds_is_one_action(server: Server) -> None:
    async def go() -> None:
        _made, clients = await seated(server, {0: "Ann", 2: "Bob"},
                                      rules={"preset": "hand-and-foot"})
        seen: list[tuple[int | None, dict[str, Any]]] = []

        def laid() -> list[dict[str, Any]]:
            return [m for _, m in seen if m["type"] == "update" and m["action"].startswith("lay")]

        def choose(c: TableClient) -> str | None:
            # Once the team has opened, so no minimum stands in the way: two new melds of
            # natural cards, sent as one lay-down (the clients play atomic actions otherwise).
            if laid() or c.view is None or not c.view["teams"][0]["opened"]:
                return None
            # Parts of natural cards only: new melds ("meld Q Q Q" -> "Q Q Q") and additions
            # ("add 9: 9" -> "9"), on two different melds.
            parts: dict[str, str] = {}
            for t in c.legal:
                words = t.split()
                if t.startswith("meld ") and len(words) == 4 and len(set(words[1:])) == 1:
                    parts.setdefault(words[1], " ".join(words[1:]))
                elif t.startswith("add ") and words[1] == words[2] + ":":
                    parts.setdefault(words[2], words[2])
            if len(parts) >= 2:
                return "lay " + ", ".join(list(parts.values())[:2])
            return None

        await autoplay(list(clients.values()), stop=lambda: bool(laid()), choose=choose,
                       seen=seen, timeout=120)
        assert laid(), "no chance to lay two melds at once in a whole game"
        update = laid()[0]
        melds = [e for e in update["events"] if e["name"] == "meld"]
        assert len({e["meld"] for e in melds}) == 2  # two melds, one version
        assert update["action"].count(",") == 1

    asyncio.run(go())


def test_an_action_the_database_refuses_is_not_applied_nor_sent(server: Server) -> None:
    """Commit, then send: when storing fails, nobody hears of the action and the table goes
    back to what the database holds."""
    from handfoot.server.database import StorageError

    async def go() -> None:
        made, clients = await seated(server, {0: "Ann", 1: "Cy"}, bot_pace=5)
        mover = next(c for c in clients.values() if c.legal)
        other = next(c for c in clients.values() if c is not mover)
        table = server.hall.tables[made["table"]]
        real = table.storage.append
        calls = 0

        async def failing(*args: Any, **kwargs: Any) -> None:
            nonlocal calls
            calls += 1
            raise StorageError("disk full (a test)")

        table.storage.append = failing
        try:
            version = mover.version
            reply = await mover.act(mover.legal[0])
        finally:
            table.storage.append = real
        assert calls == 1
        assert reply["type"] == "error" and reply["code"] == "internal"
        got = await drain(other, 0.3)
        assert not [m for m in got if m["type"] == "update"]
        assert table.version == version and table.keeper.actions == version
        again = await mover.act(mover.legal[0])
        assert again["type"] == "update" and again["version"] == version + 1

    asyncio.run(go())
