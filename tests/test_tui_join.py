"""``handfoot play --join``: the terminal game at a web table, through the seam.

The fast test drives the screen (Textual's pilot) against an in-process server; the slow one
runs the real ``handfoot serve`` in its own process with a browser (Playwright, Debian's
Chromium) as the partner, plays a whole round with a question and its answer across the two,
and drops the terminal's connection in the middle.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from textual.pilot import Pilot

from handfoot.actions import (
    Action,
    Add,
    Answer,
    Ask,
    Draw,
    Start,
    parse_action,
)
from handfoot.bots.heuristic import HeuristicBot
from handfoot.cards import TWO
from handfoot.engine import Game
from handfoot.server.client import Closed, TableClient, http_json
from handfoot.state import Phase
from handfoot.tui.app import ChatScreen, PlayApp, ResultScreen, TextScreen, screen_text
from handfoot.tui.remote import RemoteTable, wire_event
from handfoot.views import SeatView, sample_world, view
from server_helpers import Server, ServerProcess
from test_tui import KEY, action_keys, step_keys

if TYPE_CHECKING:
    from web_helpers import Player

SHOTS = Path(__file__).parent / "screenshots"


async def until(pilot: Pilot[None], test: Callable[[], bool], why: Callable[[], str],
                seconds: float = 30.0) -> None:
    """Wait for a condition the server brings about (never a fixed sleep)."""
    deadline = time.monotonic() + seconds
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(why())
        await pilot.pause(0.02)


def world(table: RemoteTable) -> Game:
    """A game agreeing with the seat's view (the test's planning copy: only the hand and the
    table matter to the steps planned on it)."""
    return sample_world(table.view(), random.Random(1))


def keys_for(table: RemoteTable, bot: HeuristicBot, action: Action) -> list[str]:
    """The keys a person presses for the bot's choice; the melds it would make in a row are
    staged and laid down as one."""
    simple = action_keys(action)
    if simple is not None:
        return simple
    trial = world(table)
    keys: list[str] = []
    step = action
    while isinstance(step, Start | Add):
        keys += step_keys(step)
        trial.apply(step)
        if trial.actor != table.human or trial.over:
            break
        step = bot.choose(view(trial, table.human), trial.legal_actions())
    return [*keys, "enter"]


async def press(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)


async def my_move(pilot: Pilot[None], app: PlayApp, table: RemoteTable,
                  bot: HeuristicBot, choose: Callable[[], Action] | None = None) -> str:
    """One move of the person's by keys, from the bot's choice; a refused lay-down (an opening
    the bot would build in steps) is cleared and the best move that lays nothing is played."""
    version = table.client.version
    action = choose() if choose is not None else bot.choose(table.view(), table.legal())
    await press(pilot, *keys_for(table, bot, action))

    def moved() -> bool:
        return table.client.version != version or "Not allowed" in screen_text(app)

    await until(pilot, moved, lambda: f"{action.text}: no answer\n{screen_text(app)}")
    if table.client.version == version:
        await press(pilot, "escape", "escape", "escape")
        others = [a for a in bot.rank(table.view(), table.legal())
                  if not isinstance(a, Start | Add)]
        action = others[0]
        await press(pilot, *keys_for(table, bot, action))
        await until(pilot, lambda: table.client.version != version,
                    lambda: f"{action.text}: not applied\n{screen_text(app)}")
    return action.text


async def seated(server_ws: str, host_token: str, seat: int = 0) -> TableClient:
    client = await TableClient.connect(server_ws, host_token=host_token)
    await client.join(seat, "Tess")
    return client


def run_app(make: Callable[[], Awaitable[RemoteTable]], size: tuple[int, int],
            body: Callable[[Pilot[None], PlayApp, RemoteTable], Awaitable[None]]) -> None:
    async def go() -> None:
        table = await make()
        app = PlayApp(table)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot, app, table)
        await table.close()

    asyncio.run(go())


# ====================================================================== the fast test
def test_the_screen_plays_a_web_table_through_the_seam(server: Server) -> None:
    made = server.create(rules={"preset": "hand-and-foot", "set": {"rounds": 1}},
                         options={"bot_pace": 0, "hints": True}, bots="heuristic")

    async def make() -> RemoteTable:
        client = await seated(server.ws(made["table"]), made["host_token"])
        await client.send({"type": "start"})
        state = await client.until("state")
        return RemoteTable(client, state)

    async def body(pilot: Pilot[None], app: PlayApp, table: RemoteTable) -> None:
        bot = HeuristicBot(seed=3)
        text = screen_text(app)
        assert "At " in text and "seat 0" in text, text
        assert "You" in text and "Them" in text and "To go out:" in text
        await until(pilot, lambda: table.human_to_act, lambda: screen_text(app))
        assert "Your turn" in screen_text(app)
        # A hint is the server's answer.
        await press(pilot, "h")
        await until(pilot, lambda: "the strong bot would" in screen_text(app),
                    lambda: screen_text(app))
        await my_move(pilot, app, table, bot, lambda: Draw())
        assert any(line.startswith("You draw ") and "cards" not in line
                   for line in table.log.lines), table.log.lines[-5:]
        # A single card staged as a meld: the server's check says no before Enter, and
        # Enter's refusal names the rule.
        v = table.view()
        melds = v.teams[v.team].melds
        # A natural card of a rank the team has no meld of (one card alone cannot start one).
        kind = next((k for k in KEY if v.hand[k] and k < TWO and not any(melds[k])), None)
        if kind is not None:  # (nearly always: a team has few melds this early)
            await press(pilot, KEY[kind], "m")
            await until(pilot, lambda: "✗" in screen_text(app), lambda: screen_text(app))
            await press(pilot, "enter")
            await until(pilot, lambda: "Not allowed" in screen_text(app),
                        lambda: screen_text(app))
            assert "rule" in screen_text(app)
            await press(pilot, "escape", "escape")
            assert not table.staged
        # The connection drops mid-game; it comes back by itself with the seat token.
        version = table.client.version
        table.drop()
        await until(pilot, lambda: table.connected and table.client.version >= version,
                    lambda: f"no reconnect: {screen_text(app)}")
        await until(pilot, lambda: "Reconnected" in screen_text(app)
                    or isinstance(app.screen, TextScreen), lambda: screen_text(app))
        if isinstance(app.screen, TextScreen):
            await press(pilot, "escape")
        held = next(k for k in KEY if v.hand[k] and k < TWO)
        await press(pilot, "d", KEY[held])  # and the game goes on
        await until(pilot, lambda: table.client.version > version, lambda: screen_text(app))

    run_app(make, (80, 24), body)


def test_chat_from_the_screen_reaches_the_table(server: Server) -> None:
    """``c`` opens a line to the table; what is sent comes back as the table's chat, and Esc
    leaves without a word."""
    made = server.create(rules={"preset": "hand-and-foot", "set": {"rounds": 1}},
                         options={"bot_pace": 0}, bots="heuristic")

    async def make() -> RemoteTable:
        client = await seated(server.ws(made["table"]), made["host_token"])
        await client.send({"type": "start"})
        return RemoteTable(client, await client.until("state"))

    async def body(pilot: Pilot[None], app: PlayApp, table: RemoteTable) -> None:
        await press(pilot, "c")
        assert "Chat" in screen_text(app)
        await press(pilot, *"good luck all", "enter")
        await until(pilot, lambda: any("good luck all" in line for line in table.log.lines),
                    lambda: "\n".join(table.log.lines[-5:]))
        said = len(table.log.lines)
        await press(pilot, "c", *"never mind", "escape")
        assert not isinstance(app.screen, ChatScreen)
        await pilot.pause(0.2)
        assert not any("never mind" in line for line in table.log.lines[said:])
        assert table.chat(" " * 3) == "nothing to say"
        assert "at most 200" in (table.chat("x" * 201) or "")

    run_app(make, (80, 24), body)


def test_a_lost_table_is_tried_again_until_it_answers(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick tries after a drop failing is not the end: the table is tried every
    ``RETRY_EVERY`` seconds, the message bar saying so, until it answers."""
    monkeypatch.setattr("handfoot.tui.remote.RETRY_EVERY", 0.05)
    made = server.create(rules={"preset": "hand-and-foot", "set": {"rounds": 1}},
                         options={"bot_pace": 0}, bots="heuristic")
    failures = []

    async def make() -> RemoteTable:
        client = await seated(server.ws(made["table"]), made["host_token"])
        await client.send({"type": "start"})
        table = RemoteTable(client, await client.until("state"), retry=1)
        real = client.reconnect

        async def flaky(tries: int = 30, timeout: float = 10.0) -> None:
            if len(failures) < 3:  # the server is out of reach three times
                failures.append(tries)
                raise Closed(None, "unreachable")
            await real(tries, timeout)

        client.reconnect = flaky  # type: ignore[method-assign]
        return table

    async def body(pilot: Pilot[None], app: PlayApp, table: RemoteTable) -> None:
        table.drop()
        await until(pilot, lambda: "trying again every" in screen_text(app),
                    lambda: screen_text(app))
        await until(pilot, lambda: table.connected, lambda: screen_text(app))
        assert failures == [1, 1, 1] and not table.stopped and not table.unreachable

    run_app(make, (80, 24), body)


# ====================================================================== the slow test
# Small packets, no canastas needed, random opponents and a partner's yes that allows going
# out without forcing it: partners reach their feet soon (before the opponents go out, nearly
# always) and may ask as soon as they are there.  A game without a question is played again.
PARTNERS = {"rounds": 1, "packets": [6, 6], "permission": True, "permission_yes": "allows",
            "quota": {"clean": 0, "dirty": 0}}
BROWSER_SEAT = 2


class Partner(threading.Thread):
    """The partner's seat, played in Chromium through the page's keys, in its own thread
    (Playwright's sync driver and the terminal's event loop each keep their own thread).
    Plans from the page's own view, with the heuristic bot on a world sampled from it."""

    def __init__(self, invite: str, asked: dict[str, int]) -> None:
        super().__init__(daemon=True)
        self.invite, self.asked = invite, asked
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.moves = 0

    def run(self) -> None:
        from playwright.sync_api import sync_playwright

        from web_helpers import DESKTOP, Player, join_table, launch, wait_my_turn_or_dialog

        try:
            with sync_playwright() as pw:
                browser = launch(pw)
                page = browser.new_context(viewport=DESKTOP).new_page()
                join_table(page, self.invite, "Bob", BROWSER_SEAT)
                self.ready.set()
                page.wait_for_selector(".game", timeout=60000)
                player = Player(page, None, "", BROWSER_SEAT, keys=True)  # type: ignore[arg-type]
                while not self.stop.is_set():
                    try:
                        state = wait_my_turn_or_dialog(page, None, timeout=1.0)
                    except Exception:
                        continue
                    if state["phase"] == "game-over" or state["dialog"] == "final-dialog":
                        # The host may ask for a rematch: wait for it.
                        if state["dialog"]:
                            page.keyboard.press("Escape")
                        with contextlib.suppress(Exception):
                            page.wait_for_function(
                                "() => window.handfoot.game.view.phase !== 'game-over'",
                                timeout=1000)
                        continue
                    if state["dialog"] == "ask-dialog":
                        self.asked.setdefault("answerer", BROWSER_SEAT)
                        page.keyboard.press("y")
                        page.wait_for_function("() => !document.getElementById('ask-dialog')")
                        continue
                    if state["dialog"]:
                        page.keyboard.press("Escape")
                        continue
                    self.unit(player, state)
                browser.close()
        except BaseException as err:
            self.error = err
            self.ready.set()

    def unit(self, player: Player, state: dict[str, Any]) -> None:
        from web_helpers import next_unit, plan_game

        page = player.page
        seen = page.evaluate("""() => { const g = window.handfoot.game;
            return {view: g.view, rules: g.table.rules, legal: g.legal}; }""")
        view = SeatView.from_mapping({**seen["view"], "rules": seen["rules"]})
        if "ask" in seen["legal"] and "asker" not in self.asked:
            self.asked["asker"] = BROWSER_SEAT
            unit = ["ask"]
        else:
            unit = next_unit(plan_game(sample_world(view, random.Random(7)), BROWSER_SEAT,
                                       player.bot))
        before = state["version"]
        if unit[0].startswith(("meld ", "add ")):
            player.lay(unit)
        else:
            player.act(unit[0])
        page.wait_for_function(
            """(before) => { const g = window.handfoot.game;
                return (g.conn.version !== before && !g.busy) || g.refusal ||
                       /Refused/.test(document.getElementById('message').textContent); }""",
            arg=before, timeout=20000)
        if page.evaluate("() => window.handfoot.game.conn.version") == before:
            # Refused (an opening the bot would build in steps): clear it and make the best
            # move that lays nothing.
            for _ in range(3):
                page.keyboard.press("Escape")
            legal = [parse_action(t) for t in seen["legal"]]
            other = next(a for a in player.bot.rank(view, legal)
                         if not isinstance(a, Start | Add))
            player.act(other.text)
            page.wait_for_function("(b) => window.handfoot.game.conn.version !== b",
                                   arg=before, timeout=20000)
        self.moves += 1


def table_version(base: str, table: str) -> int:
    return int(http_json(f"{base}/api/tables/{table}", timeout=5)["version"])


def svg(app: PlayApp, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    app.save_screenshot(f"{name}.svg", str(SHOTS))
    (SHOTS / f"{name}.txt").write_text(screen_text(app), encoding="utf-8")


def fits(text: str) -> None:
    """Every part of the table in sight at 80x24, as for the local game."""
    assert "Terminal too small" not in text, text
    for part in ("Round ", "Stock ", "Seat ", "Team ", "To go out:", "Your ", "^q quit"):
        assert part in text, (part, text)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                    reason="Debian's chromium is not installed")
def test_a_round_at_a_real_server_with_a_browser_partner(tmp_path: Path) -> None:
    pytest.importorskip("playwright.sync_api")
    serve = ServerProcess(str(tmp_path / "tables.sqlite3"))
    asked: dict[str, int] = {}
    tokens: list[str] = []
    partner: Partner | None = None
    try:
        made = serve.create(rules={"preset": "hand-and-foot", "set": PARTNERS},
                            options={"bot_pace": 0.05, "hints": True}, bots="random")
        partner = Partner(made["invite"], asked)
        partner.start()

        async def make() -> RemoteTable:
            client = await TableClient.connect(made["websocket"],
                                               host_token=made["host_token"])
            await client.join(0, "Tess")
            assert client.seat_token is not None
            tokens.append(client.seat_token)
            while not partner.ready.wait(0):
                await asyncio.sleep(0.05)
            assert partner.error is None, partner.error
            await client.send({"type": "start"})
            return RemoteTable(client, await client.until("state", timeout=30))

        async def body(pilot: Pilot[None], app: PlayApp, table: RemoteTable) -> None:
            bot = HeuristicBot(seed=3)
            done: dict[str, int] = {"mine": 0}
            shots: set[str] = set()
            deadline = time.monotonic() + 600

            async def a_round() -> None:
                while not table.over:
                    assert time.monotonic() < deadline, "the game did not finish in time"
                    assert partner.error is None, partner.error
                    if isinstance(app.screen, TextScreen):
                        if app.screen.title_text == "While you were away" \
                                and "missed" not in shots:
                            shots.add("missed")
                            await until(pilot, lambda: "While you were away" in
                                        screen_text(app), lambda: "the box is not drawn")
                            svg(app, "join-away-80x24")
                        await press(pilot, "escape")
                        continue
                    if not table.human_to_act:
                        if done["mine"] >= 3 and "dropped" not in done \
                                and table.view().actor != table.human:
                            # The terminal's connection drops while another seat is to
                            # move; it comes back once the table has moved on, and says
                            # what it missed.
                            done["dropped"] = await drop_until_moved(table, serve.base,
                                                                     made["table"])
                        await pilot.pause(0.02)
                        continue
                    await a_move()

            async def a_move() -> None:
                text = screen_text(app)
                fits(text)
                if table.view().phase is Phase.ANSWER:
                    assert "asks you: may I go out?" in text, text
                    if "question" not in shots:
                        shots.add("question")
                        svg(app, "join-question-80x24")
                    asked.setdefault("answerer", table.human)
                    await my_move(pilot, app, table, bot, lambda: Answer(True))
                    return
                if any(isinstance(a, Ask) for a in table.legal()) and "asker" not in asked:
                    asked["asker"] = table.human
                    await my_move(pilot, app, table, bot, lambda: Ask())
                    await until(pilot, lambda: table.question is not None and (
                        table.question[2] is not None), lambda: screen_text(app), 60)
                    assert "may I go out?" in screen_text(app)
                    return
                if "turn" not in shots:
                    shots.add("turn")
                    svg(app, "join-turn-80x24")
                hand = table.view().hand
                action = await my_move(pilot, app, table, bot)
                done["mine"] += 1
                if action.startswith(("meld", "add")) and table.can_undo \
                        and "undo" not in shots:
                    # The server's undo takes the lay-down back; the bot plays it again.
                    shots.add("undo")
                    await press(pilot, "u")
                    await until(pilot, lambda: table.view().hand == hand
                                and table.log.lines[-1] == "(undone)", lambda: screen_text(app))

            for game in range(1, 4):
                await a_round()
                # The round's breakdown box.
                await until(pilot, lambda: isinstance(app.screen, ResultScreen)
                            and "Round 1 over" in screen_text(app), lambda: screen_text(app))
                assert "game total" in screen_text(app), screen_text(app)
                svg(app, "join-result-80x24")
                if "answerer" in asked or game == 3:
                    break
                # Nobody asked this game (the opponents went out first): a rematch.
                await press(pilot, "enter")
                await until(pilot, lambda: "Game over" in screen_text(app),
                            lambda: screen_text(app))
                await press(pilot, "n")
                await until(pilot, lambda: not table.over, lambda: screen_text(app))
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            svg(app, "join-result-120x40")
            await press(pilot, "enter")
            await until(pilot, lambda: "Game over" in screen_text(app), lambda: screen_text(app))
            svg(app, "join-over-120x40")
            assert "dropped" in done, "the connection was never dropped"
            assert "missed" in shots, "no while-you-were-away box"
            assert "undo" in shots, "nothing was ever laid down to take back"

        run_app(make, (80, 24), body)
        assert "asker" in asked and "answerer" in asked and asked["asker"] != asked["answerer"]
        assert partner.moves > 0
        # A table that ended: taking the seat back shows the final scores.
        async def back() -> RemoteTable:
            client = await TableClient.connect(made["websocket"], seat_token=tokens[0],
                                               host_token=made["host_token"])
            return RemoteTable(client, await client.until("state", timeout=30))

        async def final(pilot: Pilot[None], app: PlayApp, table: RemoteTable) -> None:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen),
                        lambda: screen_text(app))
            await press(pilot, "enter")
            await until(pilot, lambda: "Game over" in screen_text(app), lambda: screen_text(app))
            assert "n: new game" in screen_text(app)  # the host's
            svg(app, "join-ended-80x24")
            # The host's n is a rematch: the same seats, a new deal.
            await press(pilot, "n")
            await until(pilot, lambda: not table.over and "a new deal" in screen_text(app),
                        lambda: screen_text(app))
            fits(screen_text(app))
            svg(app, "join-rematch-80x24")
            # The partner closes the browser: on their move the status line counts the seat
            # hold down for everyone.
            assert partner is not None
            partner.stop.set()
            await asyncio.to_thread(partner.join, 30)
            bot = HeuristicBot(seed=4)
            deadline = time.monotonic() + 120
            while "is away: a bot plays for them in" not in screen_text(app):
                assert time.monotonic() < deadline, screen_text(app)
                if table.human_to_act:
                    await my_move(pilot, app, table, bot)
                await pilot.pause(0.05)
            fits(screen_text(app))
            svg(app, "join-hold-80x24")

        run_app(back, (80, 24), final)
    finally:
        if partner is not None:
            partner.stop.set()
            partner.join(30)
        serve.stop()


async def drop_until_moved(table: RemoteTable, base: str, name: str) -> int:
    """Drop the terminal's connection and hold its reconnecting back until the table has
    moved on without it (the version, asked over HTTP as anyone may), so that it has
    something to catch up on."""
    client = table.client
    reconnect = client.reconnect
    version = client.version

    async def later(tries: int = 30, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + 60
        while await asyncio.to_thread(table_version, base, name) <= version:
            assert time.monotonic() < deadline, "the table never moved on"
            await asyncio.sleep(0.05)
        client.reconnect = reconnect  # type: ignore[method-assign]
        await reconnect(tries, timeout)

    client.reconnect = later  # type: ignore[method-assign]
    table.drop()
    return version + 1


def test_the_wire_events_read_back_as_the_engines() -> None:
    """Every event the server sends reads back as the engine's own value (so the screen's log
    and highlights at a web table are built as for a local game), or as its words."""
    from handfoot.bots import make_bot
    from handfoot.presets import preset
    from handfoot.server.updates import event_mapping

    game = Game.new(preset("hand-knee-foot", 4), seed=5)
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    names = ["Ann", "Bob", "Cy", "Di"]
    seen: set[str] = set()
    while not game.results:  # a round: every kind of event a round has
        actor = game.actor
        for e in game.apply(bots[actor].choose(view(game, actor), game.legal_actions())):
            back = wire_event(json.loads(json.dumps(event_mapping(e, names))))
            assert back == e or (isinstance(back, str) and back), (e, back)
            seen.add(e.name)
    assert {"deal", "turn", "draw", "meld", "discard", "canasta", "pick_up"} <= seen, seen
