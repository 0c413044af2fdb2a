"""What the browser table asks the server beyond playing: the rules as a form and in words,
the pile as the engine sees it for a seat, the quota still missing, and a lay-down checked
without being applied (docs/PROTOCOL.md)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from dataclasses import fields

import pytest

from handfoot.actions import TakePile
from handfoot.pile import pile_status
from handfoot.presets import preset
from handfoot.rules import Rules
from handfoot.server.client import ClientError, TableClient, http_json
from scenario import game
from server_helpers import Server


def test_every_option_of_the_rules_has_a_control(server: Server) -> None:
    form = http_json(f"{server.base}/api/rules")
    keys = [o["key"] for o in form["options"]]
    assert sorted(keys) == sorted(f.name for f in fields(Rules) if f.name not in
                                  ("name", "source"))
    kinds = {o["key"]: o["kind"] for o in form["options"]}
    assert kinds["pile_take"] == "pile_take" and kinds["pile_pair"] == "choice"
    assert kinds["permission"] == "bool" and kinds["quota"] == "kinds"
    assert kinds["max_wilds"] == "max_wilds" and kinds["final_lap"] == "choice"
    assert kinds["draw_count"] == "int" and kinds["black_three_book"] == "bool"
    assert {o["key"] for o in form["options"] if o["seating"]} == {"players", "team_size"}
    pair = next(o for o in form["options"] if o["key"] == "pile_pair")
    assert "natural" in pair["choices"] and pair["title"]
    names = [p["name"] for p in form["presets"]]
    assert "hand-and-foot" in names and "hand-knee-foot" in names
    assert all("to go out" in p["summary"] for p in form["presets"])


def test_rules_are_checked_by_the_engine_and_explained(server: Server) -> None:
    with pytest.raises(ClientError, match="pile_take: expected a whole number"):
        http_json(f"{server.base}/api/rules/explain",
                  {"preset": "hand-and-foot", "set": {"pile_take": "everything"}})
    with pytest.raises(ClientError, match="team_size"):
        http_json(f"{server.base}/api/rules/explain",
                  {"preset": "hand-and-foot", "players": 5, "team_size": 2})
    told = http_json(f"{server.base}/api/rules/explain",
                     {"preset": "hand-and-foot", "players": 6, "set": {"pile_take": "whole"}})
    assert told["house_rules"] == ["pile_take"] and told["rules"]["players"] == 6
    assert told["summary"].startswith("6 players in 2 teams")
    pile = next(c for c in told["clauses"] if c["clause"] == "4.1")
    assert any("house rule" in s for s in pile["sentences"])
    # A table's own complete rules, sent back as a file, are marked against their preset.
    again = http_json(f"{server.base}/api/rules/explain",
                      {"file": json.dumps(told["rules"]), "format": "json"})
    assert again["house_rules"] == ["pile_take"]


def test_pages_are_served_with_their_files(server: Server) -> None:
    made = server.create()
    for url in (f"{server.base}/", made["invite"]):
        with urllib.request.urlopen(url, timeout=10) as page:
            text = page.read().decode()
            assert page.headers["content-type"].startswith("text/html")
            assert "/static/js/main.js" in text and "handfoot play --join" in text
    with urllib.request.urlopen(f"{server.base}/static/js/main.js", timeout=10) as js:
        assert js.headers["content-type"].split(";")[0] in ("text/javascript",
                                                            "application/javascript")
    with pytest.raises(urllib.error.HTTPError, match="404"):
        urllib.request.urlopen(f"{server.base}/t/nosuchtable", timeout=10)


def test_pile_status_says_why_and_what_a_take_needs() -> None:
    rules = preset("hand-and-foot")
    g = game(rules, "K K 9 5 5 6 7 8 J Q A | 4 5 6 7 8 10 J Q A A A", pile="9")
    status = pile_status(g, 0)
    assert not status.open and status.refusal is not None and status.refusal.clause == "4.3"
    assert "two natural 9s" in status.needs
    g = game(rules, "K K 9 9 5 6 7 8 J Q A | 4 5 6 7 8 10 J Q A A A", pile="9")
    status = pile_status(g, 0)
    assert status.open and status.take == TakePile() and status.uses == "9 9"
    # The top card and the pair count 30 toward round 1's 50.
    assert status.short == 20
    assert status.needs == "9 9 from your hand; then 20 more points to open"
    # Between its turns a seat is told what it would be told at its draw.
    g = game(rules, "K K 9 9 5 6 7 8 J Q A | 4 5 6 7 8 10 J Q A A A",
             "Q Q 9 9 5 6 7 8 J Q A | 4 5 6 7 8 10 J Q A A A", pile="Q")
    assert g.seat == 0 and not pile_status(g, 0).open
    assert pile_status(g, 1).open and pile_status(g, 1).uses == "Q Q"
    assert g.seat == 0 and g.phase == "draw"  # asking changed nothing


def test_the_pile_and_the_quota_and_a_checked_lay_down_on_the_wire(server: Server) -> None:
    async def go() -> None:
        made = server.create(rules={"preset": "hand-and-foot", "set": {"rounds": 1}},
                             options={"bot_pace": 5})
        ann = await TableClient.connect(made["websocket"], host_token=made["host_token"])
        await ann.join(0, "Ann")
        watcher = await TableClient.connect(made["websocket"])
        await ann.send({"type": "start"})
        state = await ann.until("state")
        seen = await watcher.until("state")
        assert seen["pile"] is None and seen["quota_missing"] == state["quota_missing"]
        assert state["quota_missing"] == [{"clean": 1, "dirty": 1}, {"clean": 1, "dirty": 1}]
        pile = state["pile"]
        assert set(pile) == {"open", "clause", "rule", "reason", "take", "uses", "short",
                             "needs"}
        if state["view"]["actor"] == 0:
            assert pile["open"] == any(t.startswith("take-pile") for t in state["legal"])
        # A check applies nothing, on any seat's turn, and counts the points.
        checked = await ann.request({"type": "check", "action": "lay K K K, 7 7 2"})
        assert checked["type"] == "checked" and checked["points"] == 30 + 10 + 20
        assert checked["opening"] == {"laid": 60, "minimum": 50}
        if state["view"]["actor"] == 0:
            assert not checked["ok"] and checked["clause"] == "3.4"  # draw first
        else:
            assert not checked["ok"] and checked["clause"] == "3.1"
        bad = await ann.request({"type": "check", "action": "lay X X"})
        assert bad["type"] == "error" and bad["code"] == "bad_action"
        spectator = await watcher.request({"type": "check", "action": "draw"})
        assert spectator["code"] == "not_seated"
        assert ann.version == state["version"]
        await ann.close()
        await watcher.close()

    asyncio.run(go())


def test_the_page_ships_with_the_package() -> None:
    """A plain ``pip install .`` serves the page: every file under static/ matches a pattern
    of pyproject's package data."""
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["handfoot"]
    package = root / "src" / "handfoot"
    files = [p.relative_to(package).as_posix() for p in (package / "server" / "static").rglob("*")
             if p.is_file()]
    assert files and all(any(fnmatch.fnmatch(f, pat) for pat in patterns) for f in files), files


def test_the_pages_close_codes_are_the_servers() -> None:
    """net.js names the close codes it acts on; each has the server's number (protocol.py)."""
    import re
    from pathlib import Path

    from handfoot.server import protocol

    js = (Path(protocol.__file__).parent / "static" / "js" / "net.js").read_text()
    named = dict(re.findall(r"export const (CLOSE_\w+) = (\d+);", js))
    assert named, "net.js names no close codes"
    for name, code in named.items():
        assert getattr(protocol, name) == int(code), name
    assert not re.search(r"e\.code === \d", js), "a close code written as a bare number"


def test_play_now_seats_the_level_measured_for_the_rules(tmp_path: object) -> None:
    """``bots: "play-now"`` (the home page's Play now): every seat at ``play_now_level`` of
    the table's rules; the strongest level measured to fit 100 ms at the 99th percentile."""
    from pathlib import Path

    from handfoot.bots.levels import play_now_level
    from handfoot.server import protocol as p
    from handfoot.server.app import Hall
    from handfoot.server.drivers import BotRunner
    from handfoot.server.storage import Storage

    async def go() -> dict[str, list[str]]:
        storage = await Storage.open(str(Path(str(tmp_path)) / "tables.sqlite3"))
        hall = Hall(storage, BotRunner(workers=0))
        seated: dict[str, list[str]] = {}
        try:
            for name, players, house in (("hand-and-foot", None, {}),
                                         ("hand-knee-foot", None, {"rounds": 1}),
                                         ("hand-and-foot", 2, {}),
                                         ("hand-and-foot", 3, {}),
                                         ("hand-and-foot", None, {"pile_take": "whole"})):
                rules: dict[str, object] = {"preset": name, "set": house}
                if players:
                    rules["players"] = players
                made = await hall.create(p.CreateTable.model_validate(
                    {"rules": rules, "bots": "play-now"}), "http://host")
                stored = await storage.load(made["table"])
                assert stored is not None
                seated[f"{name}/{players or 4}/{sorted(house)}"] = [
                    s.bot for s in stored.seats]
        finally:
            await hall.close()
        return seated

    seated = asyncio.run(go())
    want = play_now_level(preset("hand-and-foot"))
    assert want.startswith(("expert", "strong"))  # a model fits hand-and-foot for four
    assert seated["hand-and-foot/4/[]"] == [want] * 4
    assert seated["hand-knee-foot/4/['rounds']"] == [play_now_level(preset("hand-knee-foot"))] * 4
    assert seated["hand-and-foot/2/[]"] == [play_now_level(preset("hand-and-foot", 2))] * 2
    assert seated["hand-and-foot/3/[]"] == ["casual"] * 3  # no model for three players
    assert seated["hand-and-foot/4/['pile_take']"] == ["casual"] * 4  # house rules: unmeasured


@pytest.mark.parametrize("spec", ["strong:path=/etc/passwd", "expert:ms=50,path=/tmp/x",
                                  ["casual", "strong:path=models/x", "casual", "casual"]])
def test_a_tables_bots_name_no_file_of_the_server(spec: str | list[str]) -> None:
    """``strong:path=FILE`` is for the command line: from a client it named any file of the
    server's, and was accepted, the bot failing only at its first move (again at every
    try, the game stuck)."""
    from handfoot.server import protocol as p
    from handfoot.server.seats import bot_levels

    with pytest.raises(p.ProtocolError) as refused:
        bot_levels(spec, 4)
    assert refused.value.code == "bad_message" and "path=" in refused.value.message
    assert bot_levels("expert:ms=50", 4) == ["expert:ms=50"] * 4
