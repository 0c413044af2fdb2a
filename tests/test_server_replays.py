"""Replays and their review over HTTP (docs/PROTOCOL.md, "Replays"): a finished game of a
table step by step from one seat's view, exactly the engine's view of it and nothing more;
every hand only once the game is over; a game in play refused as still in play; a record file
uploaded and checked as ``handfoot replay`` checks it; the review of a seat's decisions."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import http.client
import io
import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from handfoot.actions import parse_action
from handfoot.bots import make_bot
from handfoot.bots.basic import BasicBot
from handfoot.cards import format_counts
from handfoot.engine import Game
from handfoot.record import load_record
from handfoot.server.client import TableClient
from handfoot.server.messages import seat_view
from handfoot.server.replays import MAX_UPLOAD, nesting_depth
from handfoot.views import view
from server_helpers import Server
from server_helpers import seat_view as wire_view
from test_server import autoplay, record_of, seated, short_rules

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.json"))


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """A one-round game, over: Ann at seat 0 plays as the basic bot would (so the review has
    something to say), bots at the other seats."""
    basic = BasicBot(seed=3)

    def ann(client: TableClient) -> str:
        legal = [parse_action(t) for t in client.legal]
        return basic.choose(wire_view(client), legal).text

    async def go() -> dict[str, Any]:
        made, clients = await seated(server, {0: "Ann"}, rules=short_rules())
        await autoplay([clients[0]], choose=ann)
        await clients[0].close()
        return made

    made = asyncio.run(go())
    made["record"] = record_of(server, made["table"])
    return made


def get(server: Server, path: str, gz: bool = False) -> tuple[int, Any]:
    request = urllib.request.Request(server.base + path)
    if gz:
        request.add_header("accept-encoding", "gzip")
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            body = reply.read()
            if reply.headers.get("content-encoding") == "gzip":
                body = gzip.decompress(body)
            return reply.status, json.loads(body)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def post(server: Server, path: str, body: bytes) -> tuple[int, Any]:
    request = urllib.request.Request(server.base + path, data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def engine_views(text: str, seat: int) -> list[dict[str, Any]]:
    """The seat's view after the deal and after each action, as the engine builds it."""
    record = load_record(text)
    game = record.new_game()
    out = [seat_view(game, seat)]
    for rnd in record.rounds:
        for actor, action in rnd.actions:
            game.apply(action, actor)
            out.append(seat_view(game, seat))
    return out


# ====================================================================== a table's game
def test_a_finished_game_is_the_engines_view_of_each_step(server: Server,
                                                          finished: dict[str, Any]) -> None:
    table = finished["table"]
    record = json.loads(finished["record"])
    for seat in (0, 1):
        status, data = get(server, f"/api/tables/{table}/replay?game=1&seat={seat}", gz=True)
        assert status == 200, data
        assert data["over"] and data["seat"] == seat and not data["every_hand"]
        assert data["names"][0] == "Ann" and data["totals"] == record["totals"]
        # Exactly the engine's view at every step: the seat's own hand and nothing hidden.
        assert [s["view"] for s in data["steps"]] == engine_views(finished["record"], seat)
        assert all("hands" not in s for s in data["steps"])
        assert data["steps"][-1]["view"]["phase"] == "game-over"
        actions = [a for r in record["rounds"] for a in r["actions"]]
        assert [[s["by"], s["action"]] for s in data["steps"][1:]] == actions
        assert data["rounds"] == [{"round": 1, "step": 0}]
    # Words in the seat's own person; the drawer's own line names the cards it drew.
    _, zero = get(server, f"/api/tables/{table}/replay?seat=0")
    lines = [line for s in zero["steps"] if s["by"] == 0 for line in s["log"]]
    assert any(line.startswith("You draw ") and "card" not in line for line in lines)
    assert any(line.startswith("round 1 over") for line in zero["steps"][-1]["log"])


def test_every_hand_once_the_game_is_over(server: Server, finished: dict[str, Any]) -> None:
    table = finished["table"]
    status, data = get(server, f"/api/tables/{table}/replay?game=1&seat=2&every=1")
    assert status == 200 and data["every_hand"]
    record = load_record(finished["record"])
    game = record.new_game()
    hands = [[format_counts(h) for h in game.hands]]
    for rnd in record.rounds:
        for actor, action in rnd.actions:
            game.apply(action, actor)
            hands.append([format_counts(h) for h in game.hands])
    assert [s["hands"] for s in data["steps"]] == hands


def test_a_game_in_play_is_still_in_play(server: Server, finished: dict[str, Any]) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann"}, bot_pace=5)
        table = made["table"]
        for path in (f"/api/tables/{table}/replay?seat=0",
                     f"/api/tables/{table}/replay?game=1&seat=0&every=1",
                     f"/api/tables/{table}/review?game=1&seat=0"):
            status, data = await asyncio.to_thread(get, server, path)
            assert status == 409, data
            assert data["error"]["code"] == "in_play"
            assert "still in play" in data["error"]["message"]
        await clients[0].close()

    asyncio.run(go())
    assert get(server, "/api/tables/nosuchtable/replay")[0] == 404
    assert get(server, f"/api/tables/{finished['table']}/replay?game=7")[0] == 404
    status, data = get(server, f"/api/tables/{finished['table']}/replay?seat=9")
    assert status == 400 and "seat" in data["error"]["message"]


def test_the_review_of_a_seat(server: Server, finished: dict[str, Any]) -> None:
    table = finished["table"]
    status, data = get(server, f"/api/tables/{table}/review?game=1&seat=0")
    assert status == 200, data
    # Each turn weighed by the expert (hand-and-foot with four players has a shipped model:
    # the network's value), the turns that lost most first.
    assert data["reviewer"] == "expert" and data["seat"] == 0
    assert data["compared_with"] == "compared with the expert"
    assert data["worlds"] == 32 and "network's value" in data["valued_by"]
    turns = {t["step"]: t for t in data["turns"]}
    losing = [t for t in turns.values() if t["lost"] > 0]
    assert losing and data["turns_lost"] == len(losing)
    assert data["lost"] == sum(t["lost"] for t in losing)
    assert 1 <= len(data["biggest"]) <= 3
    lost = [turns[s]["lost"] for s in data["biggest"]]
    assert lost == sorted(lost, reverse=True) and lost[0] == max(t["lost"] for t in losing)
    for t in losing:
        assert t["played"] and t["best"] and t["says"] and "\n" not in t["says"]
        assert t["why"].startswith("the expert expects") and not t["agrees"]
    # The same review again: kept, and the same.
    assert get(server, f"/api/tables/{table}/review?game=1&seat=0") == (status, data)
    # Each decision marked by the strong bot.
    assert data["moves_by"] == "strong"
    assert data["moves_compared_with"] == "compared with the strong bot"
    diffs = [d for d in data["decisions"] if d["differs"]]
    assert diffs and data["differences"] == len(diffs)
    for d in diffs:
        assert d["says"] and "\n" not in d["says"] and d["why"].startswith("the strong bot")
        assert 0 < d["gap"] <= 100  # percentage points of the policy's weight
    # The reviewer chose from the seat's view and the legal list only: the same bot given
    # the engine's view of that position chooses the same.
    record = load_record(finished["record"])
    game = record.new_game()
    by_step = {d["step"]: d for d in data["decisions"]}
    step = 0
    for rnd in record.rounds:
        for actor, action in rnd.actions:
            step += 1
            if step in by_step:
                legal = game.legal_actions()
                assert make_bot("strong").choose(view(game, 0), legal).text == \
                    by_step[step]["best"]
            game.apply(action, actor)


def test_the_pages(server: Server, finished: dict[str, Any]) -> None:
    for path in ("/replay", f"/replay/{finished['table']}?game=1"):
        with urllib.request.urlopen(server.base + path, timeout=10) as reply:
            assert "js/replay.js" in reply.read().decode()
            assert "default-src 'self'" in reply.headers["content-security-policy"]
    with pytest.raises(urllib.error.HTTPError, match="404"):
        urllib.request.urlopen(server.base + "/replay/nosuchtable", timeout=10)


# ====================================================================== uploads
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_an_example_record_uploaded(server: Server, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    status, data = post(server, "/api/replay?seat=1", text.encode())
    assert status == 200, data
    assert data["source"] == {"file": True} and data["seat"] == 1
    assert [s["view"] for s in data["steps"]] == engine_views(text, 1)
    status, every = post(server, "/api/replay?seat=1&every=1", text.encode())
    assert status == 200 and all(len(s["hands"]) == len(data["names"]) for s in every["steps"])
    status, reviewed = post(server, "/api/replay/review?seat=1", text.encode())
    assert status == 200 and reviewed["seat"] == 1


def test_bad_uploads_get_one_line(server: Server) -> None:
    good = json.loads(EXAMPLES[0].read_text(encoding="utf-8"))
    illegal = json.loads(json.dumps(good))
    first = illegal["rounds"][0]["actions"][0]
    first[1] = "discard JK" if first[1] != "discard JK" else "draw"
    wrong_totals = json.loads(json.dumps(good)) | {"totals": [1, 2]}
    cases = [
        (b"", 400, "no file"),
        (b"\xff\xfe", 400, "not UTF-8"),
        (b"{not json", 400, "not valid JSON"),
        (b'{"format": "something else"}', 400, "not a valid game record"),
        (b"[" * 100_000 + b"]" * 100_000, 400, "nests more than"),
        (json.dumps(illegal).encode(), 400, "illegal action"),
        (json.dumps(wrong_totals).encode(), 400, "mismatch: totals"),
    ]
    for body, code, words in cases:
        status, data = post(server, "/api/replay?seat=0", body)
        assert status == code, (words, data)
        message = data["error"]["message"]
        assert words in message and "\n" not in message and len(message) < 400, message
    # Too large: refused by its declared length, or, sent in chunks, once the cap is passed
    # (the server stops reading: the rest may not even be sent).
    for chunked in (False, True):
        status, data = post_raw(server, "/api/replay?seat=0", b" " * (MAX_UPLOAD + 10),
                                chunked)
        assert status == 413 and data["error"]["message"].startswith("the file is over 1024 KiB")


def post_raw(server: Server, path: str, body: bytes, chunked: bool) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.putrequest("POST", path)
    if chunked:
        conn.putheader("transfer-encoding", "chunked")
    else:
        conn.putheader("content-length", str(len(body)))
    conn.endheaders()
    try:
        for at in range(0, len(body), 64 * 1024):
            part = body[at:at + 64 * 1024]
            conn.send(b"%x\r\n%s\r\n" % (len(part), part) if chunked else part)
        if chunked:
            conn.send(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered and closed before the whole body was sent
    reply = conn.getresponse()
    try:
        return reply.status, json.loads(reply.read())
    finally:
        conn.close()


def test_nesting_depth_skips_strings() -> None:
    assert nesting_depth('{"a": [1, {"b": "[[[[[["}]}') == 3
    assert nesting_depth('"\\"[[[["') == 0


# ====================================================================== the app
def test_the_manifest_the_icons_and_the_worker(server: Server) -> None:
    with urllib.request.urlopen(server.base + "/manifest.webmanifest", timeout=10) as reply:
        assert reply.headers["content-type"].startswith("application/manifest+json")
        manifest = json.loads(reply.read())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"]
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server.base + icon["src"], timeout=10) as reply:
            data = reply.read()
        if icon["type"] == "image/png":
            with Image.open(io.BytesIO(data)) as image:
                assert f"{image.width}x{image.height}" == icon["sizes"]
    assert {i["purpose"] for i in manifest["icons"]} >= {"any", "maskable"}
    with urllib.request.urlopen(server.base + "/sw.js", timeout=10) as reply:
        assert reply.headers["service-worker-allowed"] == "/"
        worker = reply.read().decode()
    kept = json.loads(re.search(r"const FILES = (.*);", worker)[1])  # type: ignore[index]
    assert "/" in kept and "/static/js/replay.js" in kept and "/static/icons/icon-192.png" in kept
    assert not [url for url in kept if url.startswith(("/api", "/ws"))]
    assert "__VERSION__" not in worker and re.search(r'const VERSION = "[0-9a-f]{16}"', worker)
    # Every page links the app: the table's page (through js/pwa.js) and the replay page.
    for path in ("/", "/replay"):
        with urllib.request.urlopen(server.base + path, timeout=10) as reply:
            assert "/static/js/pwa.js" in reply.read().decode()


# ====================================================================== the reviewer
@pytest.mark.parametrize(("players", "by", "unit", "how"),
                         [(4, "strong", "%", "network's value"),
                          (3, "heuristic", "", "linear evaluation")])
def test_the_review_names_the_strongest_bot_the_table_allows(players: int, by: str,
                                                             unit: str, how: str) -> None:
    """The expert weighs the turns with its network where a model fits the game's table, with
    the search's linear evaluation where none does (three players); the single moves are
    marked by the network, or the heuristic."""
    from handfoot.bots.base import play
    from handfoot.engine import Game
    from handfoot.presets import preset
    from handfoot.record import Record, replay
    from handfoot.server.review import review

    rules = preset("hand-and-foot", players).replace(rounds=1)
    game = Game.new(rules, seed=4, history=True)
    play(game, [make_bot("beginner" if s == 0 else "casual", seed=s)
                for s in range(players)])
    record = Record.from_game(game, [f"Seat {s}" for s in range(players)])
    data = review(record, replay(record), 0, worlds=4)
    assert data["reviewer"] == "expert" and how in data["valued_by"]
    assert data["turns"] and data["not_reviewed"] == 0
    assert data["moves_by"] == by and data["moves_compared_with"] == f"compared with the {by} bot"
    diffs = {d["step"]: d for d in data["decisions"] if d["differs"]}
    assert diffs and data["differences"] == len(diffs)
    for d in diffs.values():
        assert d["why"].startswith(f"the {by} bot ") and ("%" in d["why"]) == (unit == "%")
        assert d["says"] and "\n" not in d["says"]


def test_an_answer_asked_for_twice_at_once_is_made_once() -> None:
    """A review costs seconds: a second request for the same one waits for the first."""
    import threading
    import time

    from handfoot.server import replays

    made: list[int] = []

    def make() -> dict[str, Any]:
        made.append(1)
        time.sleep(0.2)
        return {"made": len(made)}

    out: list[bytes] = []
    threads = [threading.Thread(target=lambda: out.append(replays._cached("test/once", make)))
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert made == [1] and len(set(out)) == 1 and not replays._making


# ====================================================================== what a review may cost
def test_a_review_weighs_at_most_its_number_of_turns() -> None:
    """A record file of a hundred rounds has over a thousand turns a seat (over a minute of
    CPU): the review stops at its cap, and says at which step."""
    from handfoot.presets import preset
    from handfoot.record import Record, replay
    from handfoot.server import review as reviewing

    game_ = Game.new(preset("hand-and-foot", 2).replace(rounds=1), seed=4)
    bots = [make_bot("casual", seed=s) for s in range(2)]
    while not game_.over:
        game_.apply(bots[game_.actor].choose(view(game_, game_.actor), game_.legal_actions()))
    record = Record.from_game(game_, ["Ann", "Bob"])
    outcome = replay(record)
    whole = reviewing.review(record, outcome, 0, worlds=2)
    assert whole["stopped_at"] is None and len(whole["turns"]) > 4
    cut = reviewing.review(record, outcome, 0, worlds=2, most_turns=4)
    assert len(cut["turns"]) == 4 and cut["most_turns"] == 4
    assert cut["turns"] == whole["turns"][:4]
    fifth = whole["turns"][4]["step"]
    assert cut["stopped_at"] == fifth
    assert all(d["step"] < fifth for d in cut["decisions"])
    assert cut["decisions"] == [d for d in whole["decisions"] if d["step"] < fifth]
    assert reviewing.MOST_TURNS <= 150  # a few times a four-round game's, not a thousand


def test_reviews_asked_for_at_once_are_refused_past_their_limits(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """One address has one review made (or waiting) at a time, and a few wait in all: more
    are refused at once, not queued for minutes of CPU."""
    import threading

    from handfoot.server import replays

    release = threading.Event()
    started = threading.Event()

    def slow_review(*args: Any, **kwargs: Any) -> dict[str, Any]:
        started.set()
        release.wait(30)
        return {"slow": True}

    monkeypatch.setattr(replays, "review", slow_review)
    # A file no other test sent (its answers are kept by the file's hash).
    text = EXAMPLES[0].read_text(encoding="utf-8") + " " * 7
    answers: list[tuple[int, Any]] = []
    first = threading.Thread(target=lambda: answers.append(
        post(server, "/api/replay/review?seat=0", text.encode())))
    first.start()
    try:
        assert started.wait(30)
        # The same address again, for another seat (another review): refused at once.
        status, data = post(server, "/api/replay/review?seat=1", text.encode())
        assert status == 429 and data["error"]["code"] == "too_fast", data
        # A kept answer and a replay's steps are not reviews: they are given.
        assert post(server, "/api/replay?seat=1", text.encode())[0] == 200
    finally:
        release.set()
        first.join(30)
    assert answers == [(200, {"slow": True})]
    # Once it is made, the next is taken.
    release.set()
    assert post(server, "/api/replay/review?seat=1", text.encode())[0] == 200


def test_the_review_queue_refuses_past_its_room() -> None:
    from handfoot.server import replays

    async def go() -> None:
        queue = replays.ReviewQueue()
        held = contextlib.ExitStack()
        with held:
            for n in range(replays.REVIEWS_AT_ONCE + replays.REVIEWS_WAITING):
                held.enter_context(queue.admit(f"10.0.0.{n}"))
            with pytest.raises(replays.ReplayError) as busy:
                held.enter_context(queue.admit("10.0.1.1"))
            assert busy.value.status == 503 and busy.value.code == "busy"
        assert queue.pending == 0 and not queue.asked
        with queue.admit("10.0.0.1"):
            assert queue.pending == 1

    asyncio.run(go())
