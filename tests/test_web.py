"""The table in a real browser: Debian's Chromium driven by Playwright's driver against the
real server (uvicorn on a free port in this process), played by clicks, by keys only, by taps
on a phone-sized screen, and by two people as partners.  Screenshots go to tests/screenshots/
(ignored by git); docs/WEB.md shows a few of them.

These are slow (a whole round each): ``-m "not slow"`` leaves them out.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page  # noqa: E402

from server_helpers import Server  # noqa: E402
from web_helpers import (  # noqa: E402
    DESKTOP,
    PHONE,
    TABLET,
    Player,
    check_nothing_hidden,
    create_table,
    dom_hand,
    game_state,
    join_table,
    pin_deal,
    plan,
    play_until,
    real_hand,
    shot,
    start,
    wait_my_turn_or_dialog,
    watch_errors,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                       reason="Debian's chromium is not installed (scripts/test-all installs it)"),
]

ONE_ROUND = {"rounds": 1}


def new_page(browser: Browser, viewport: dict[str, int], **options: Any) -> Page:
    context = browser.new_context(viewport=viewport, **options)
    return context.new_page()


# ====================================================================== a round by clicks
def test_a_whole_round_by_clicks_with_three_bots(server: Server, browser: Browser) -> None:
    page = new_page(browser, DESKTOP)
    errors = watch_errors(page)
    table = create_table(page, server, house=ONE_ROUND)
    shot(page, "desktop-lobby", full=True)
    watcher = new_page(browser, DESKTOP)
    watcher.goto(f"{server.base}/t/{table}")
    start(page)
    player = Player(page, server, table, 0)
    seen: dict[str, Any] = {"moves": 0, "refused": False, "hint": False, "undone": False}

    def on_move(p: Player) -> None:
        # Nothing hidden, from the DOM of the player's page and a spectator's, at every move.
        check_nothing_hidden(page, server, table, 0)
        check_nothing_hidden(watcher, server, table, None)
        seen["moves"] += 1
        if not seen["undone"] and page.locator("#act-undo:not([disabled])").count():
            # The lay-down just made is taken back: the cards come back to the hand.
            before = len(dom_hand(page))
            version = game_state(page)["version"]
            page.click("#act-undo")
            page.wait_for_function("(v) => window.handfoot.game.conn.version > v", arg=version)
            assert len(dom_hand(page)) > before
            seen["undone"] = True
            check_nothing_hidden(page, server, table, 0)
        if not seen["refused"] and game_state(page)["phase"] == "meld":
            # A pair the team has no open meld for (the deal is random: two cards added to
            # a meld of their rank would be a legal lay-down, not the refusal wanted here).
            legal = game_state(page)["legal"]
            pair = next((t for t in sorted(set(dom_hand(page)))
                         if dom_hand(page).count(t) >= 2 and t not in ("R3", "B3")
                         and not any(a.startswith(f"add {'wild' if t in ('2', 'JK') else t}:")
                                     for a in legal)), None)
            if pair is not None:
                # Two cards are no meld: the engine's refusal shows beside the staged cards.
                for _ in range(2):
                    p.pick(pair)
                page.click("#act-meld")
                if page.locator("button.target").count():
                    page.click("button.target[data-target='wild']")
                page.wait_for_selector(".stage .check.no")
                page.click("#act-lay")
                refusal = page.wait_for_selector(".stage .refusal")
                assert refusal is not None and "rule" in refusal.inner_text()
                shot(page, "desktop-refusal")
                page.click("#act-clear")
                page.wait_for_function("() => !document.querySelector('.stage .refusal')")
                assert sorted(dom_hand(page)) == real_hand(server, table, 0)
                seen["refused"] = True
        if seen["moves"] == 2:
            shot(page, "desktop-table", full=True)
            shot(page, "desktop-table-top")
        if not seen["hint"] and page.locator("#act-hint:not([disabled])").count():
            page.click("#act-hint")
            page.wait_for_function("() => /Hint: the strong bot would/"
                                   ".test(document.getElementById('message').textContent)")
            seen["hint"] = True

    def on_dialog(p: Player, dialog: str) -> None:
        if dialog == "result-dialog":
            text = page.inner_text("#result-dialog")
            assert "Round 1 over" in text and "Round total" in text and "Game total" in text
            shot(page, "desktop-round-over")
        if dialog == "final-dialog":
            text = page.inner_text("#final-dialog")
            assert re.search(r"wins with \d+ points|A tie at", text)
            assert "download its record" in text and "Watch this game again" in text
            assert re.search(r"Winners?: (Your team|Team [A-F]) \(", text)
            # The summary links the game's replay and breaks every round down.
            assert page.get_attribute("#final-replay", "href") == f"/replay/{table}?game=1"
            assert page.locator("#final-dialog details.final-rounds > section").count() == 1
            shot(page, "desktop-final")

    play_until(player, lambda s: False, on_move=on_move, on_dialog=on_dialog)
    assert seen["moves"] >= 3 and seen["hint"] and seen["refused"] and seen["undone"], seen
    assert game_state(page)["phase"] == "game-over"
    watcher.wait_for_function("() => window.handfoot.game.view.phase === 'game-over'")
    assert "Log" in page.inner_text("#side")
    assert not errors, errors


# ====================================================================== a round by keys
def test_a_whole_round_by_keys_only(server: Server, browser: Browser) -> None:
    page = new_page(browser, TABLET)
    errors = watch_errors(page)
    table = create_table(page, server, house=ONE_ROUND, seat=1)
    start(page)
    page.locator("body").focus()
    page.keyboard.press("?")
    page.wait_for_selector("#help-dialog")
    assert "lay down everything staged" in page.inner_text("#help-dialog")
    shot(page, "tablet-help")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('help-dialog')")
    # The settings are kept in the browser: a four-colour deck and high contrast survive a
    # reload.
    page.click("#settings-button")
    page.check("#setting-fourColour")
    page.check("#setting-contrast")
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_selector(".game")
    assert page.evaluate("document.documentElement.className") == "four-colour contrast"
    page.locator("body").focus()
    player = Player(page, server, table, 1, keys=True)
    shots = {"n": 0}

    def on_move(p: Player) -> None:
        shots["n"] += 1
        if shots["n"] == 3:
            shot(page, "tablet-table-contrast", full=True)

    play_until(player, lambda s: False, on_move=on_move)
    assert player.moves >= 3
    assert game_state(page)["phase"] == "game-over"
    assert not errors, errors


# ====================================================================== a phone
def test_a_phone_by_taps(server: Server, browser: Browser) -> None:
    page = new_page(browser, PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    errors = watch_errors(page)
    page.goto(f"{server.base}/")
    page.wait_for_selector("#rules-status.ok")
    shot(page, "phone-home")
    table = create_table(page, server, house=ONE_ROUND)
    shot(page, "phone-lobby", full=True)
    start(page)
    player = Player(page, server, table, 0, tap=True)
    state = wait_my_turn_or_dialog(page, None)
    small = page.evaluate("""() => [...document.querySelectorAll('button, select, input, summary')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
        .map(([n, r]) => `${n} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    assert not small, f"touch targets under 44 px: {small}"
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width} px"
    # The picture (docs/web/phone.png) without a bot's card caught in flight.
    page.wait_for_function("() => !document.querySelector('.flying')")
    shot(page, "phone-table")
    shot(page, "phone-table-full", full=True)
    moves = 0
    while moves < 6 and state["phase"] != "game-over":
        if state["dialog"]:
            break
        player.play_unit()
        moves += 1
        state = wait_my_turn_or_dialog(page, None)
    # The moves stay at hand: the action bar sits at the bottom of the screen.
    box = page.locator("nav.actions").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"] + 1
    page.evaluate("window.scrollTo(0, document.body.scrollHeight / 3)")
    shot(page, "phone-table-later")
    assert not errors, errors


# ====================================================================== partners
# A deal on which a partner asks, is told yes and goes out (on about one deal in eight neither
# partner ever gets to ask before the stock runs out), and on which Ann first takes the pile
# with a pair that cannot make the opening and takes it back (6.3).
PARTNERS_DEAL = 125


def test_partners_ask_and_the_answer_binds(server: Server, browser: Browser,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # Small packets and no canastas needed: partners reach their feet and may go out soon.
    house = {"rounds": 1, "packets": "6, 6", "permission": True, "quota": {"clean": 0, "dirty": 0}}
    pin_deal(monkeypatch, PARTNERS_DEAL)
    ann = new_page(browser, DESKTOP)
    bob = new_page(browser, DESKTOP)
    errors = watch_errors(ann) + watch_errors(bob)
    table = create_table(ann, server, house=house, bots="random")
    invite = f"{server.base}/t/{table}"
    join_table(bob, invite, "Bob", 2)
    start(ann)
    bob.wait_for_selector(".game")
    players = {0: Player(ann, server, table, 0), 2: Player(bob, server, table, 2)}
    asked: dict[str, Any] = {}
    g = server.hall.tables[table].keeper.game

    # Bounded by time, not by turns of this loop: while the bots play it only waits.
    deadline = time.monotonic() + 300
    while not g.over:
        assert time.monotonic() < deadline, "the game did not finish in time"
        actor = g.actor
        if actor not in players:
            for p in players.values():
                p.page.wait_for_timeout(20)
            continue
        p = players[actor]
        state = wait_my_turn_or_dialog(p.page, None)
        if state["dialog"] == "ask-dialog":
            asked["answerer"] = actor
            text = p.page.inner_text("#ask-dialog")
            assert "may I go out?" in text and "must go out this turn" in text
            shot(p.page, "desktop-ask")
            p.page.click("#answer-yes")
            p.page.wait_for_function("() => !document.getElementById('ask-dialog')")
            p.version = game_state(p.page)["version"]
            continue
        if state["dialog"]:
            break
        steps = plan(server, table, actor, p.bot)
        if steps and steps[0] == "ask" and "asker" not in asked:
            asked["asker"] = actor
            p.act("ask")
            p.page.wait_for_function("() => window.handfoot.game.view.phase === 'answer'")
            # The asker's page waits; the partner's page asks them.
            assert "asked" in p.page.inner_text("#status")
            p.version = game_state(p.page)["version"]
            continue
        if "answerer" in asked and actor == asked.get("asker") and "bound" not in asked:
            # The yes binds: the asker's page says so, and a move that does not go out is
            # refused by the engine, its reason on the page.
            p.page.wait_for_function("() => window.handfoot.game.view.asked === 'yes'")
            assert "must go out this turn" in p.page.inner_text("#status")
            # Knocking never applies under these rules: no Knock button at all (issue 25).
            assert p.page.locator("#act-knock").count() == 0
            asked["bound"] = True
        p.play_unit()

    assert "asker" in asked and "answerer" in asked and asked.get("bound"), asked
    assert g.over and g.results[-1].went_out == asked["asker"]
    assert not errors, errors


# ====================================================================== a seat taken over
def test_a_dropped_partner_is_played_by_a_bot_marked_for_everyone(server: Server,
                                                                   browser: Browser) -> None:
    ann = new_page(browser, DESKTOP)
    bob = new_page(browser, DESKTOP)
    errors = watch_errors(ann)
    ann.goto(f"{server.base}/")
    ann.wait_for_selector("#rules-status.ok")
    ann.fill("#opt-hold", "1")
    table = create_table(ann, server, house=ONE_ROUND, keep_options=True)
    join_table(bob, f"{server.base}/t/{table}", "Bob", 2)
    start(ann)
    bob.wait_for_selector(".game")
    bob.context.close()  # Bob's browser is gone
    bob_seat = ann.locator(".seat[data-seat='2']")
    bob_seat.get_by_text("away").first.wait_for()
    player = Player(ann, server, table, 0)
    # The seat's bot is the level chosen for it at setup (casual by default).
    state = play_until(player, lambda s: "casual bot plays for them" in
                       bob_seat.inner_text(), timeout=120)
    assert state["phase"] != "game-over"
    shot(ann, "desktop-bot-takes-over")
    assert not errors, errors


# ====================================================================== reload and drop
def test_a_name_being_typed_survives_the_lobby_being_redrawn(server: Server,
                                                             browser: Browser) -> None:
    # The rules' words come after the lobby is first drawn and redraw it: here they are held
    # until the name is typed (under load they came late by themselves, and the name typed was
    # lost, so "Sit here" asked for a name).
    made = server.create(rules={"preset": "hand-and-foot", "players": 4}, bots="heuristic")
    page = new_page(browser, DESKTOP)
    held: list[Any] = []
    page.route("**/api/rules/explain", lambda route: held.append(route))
    page.goto(made["invite"])
    page.wait_for_selector("button[data-sit='0']")
    page.fill("#join-name", "Ann")
    for _ in range(200):  # until the request reaches the route (events come while waiting)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the rules' words were not asked for"
    held[0].continue_()
    page.wait_for_selector(".lobby details.explain")
    assert page.input_value("#join-name") == "Ann"
    page.click("button[data-sit='0']")
    page.wait_for_selector("li.lobby-seat.me")
    page.context.close()


def test_reload_mid_turn_keeps_the_seat_and_the_hand(server: Server, browser: Browser) -> None:
    page = new_page(browser, DESKTOP)
    errors = watch_errors(page)
    table = create_table(page, server, house=ONE_ROUND, pace=0.3)
    start(page)
    player = Player(page, server, table, 0)
    state = wait_my_turn_or_dialog(page, None)
    assert state["phase"] == "draw"
    player.act("draw")
    page.wait_for_function("() => window.handfoot.game.view.phase === 'meld'"
                           " && window.handfoot.game.legal.length")
    hand = dom_hand(page)
    version = game_state(page)["version"]
    page.reload()
    page.wait_for_selector(".game")
    page.wait_for_function("() => window.handfoot.game.legal.length > 0")
    assert game_state(page)["seat"] == 0 and game_state(page)["version"] == version
    assert dom_hand(page) == hand == real_hand(server, table, 0)
    assert "Your turn: meld, then discard" in page.inner_text("#status")
    # The turn goes on from the reloaded page.
    player.version = None
    player.play_unit()
    # A dropped connection comes back by itself and shows what was missed (someone else
    # watches, so the bots play on meanwhile: a table nobody watches waits).
    watcher = new_page(browser, DESKTOP)
    watcher.goto(f"{server.base}/t/{table}")
    watcher.wait_for_selector(".game")
    if game_state(page)["legal"]:
        player.play_unit()  # end the turn, so the bots move while this page is away
    page.evaluate("window.handfoot.drop()")
    page.wait_for_selector("#conn.waiting, #conn.reconnecting")
    shot(page, "desktop-reconnecting")
    missed = page.wait_for_selector("details.missed", timeout=20000)
    assert missed is not None and "While you were away" in missed.inner_text()
    assert page.locator("#conn.open").count() == 1
    assert dom_hand(page) == real_hand(server, table, 0)
    # The host hurries the bots with the terminal game's key.
    page.locator("body").press("+")
    page.locator("body").press("+")
    page.wait_for_function("() => window.handfoot.game.table.options.bot_pace === 0")
    play_until(player, lambda s: s["phase"] == "game-over" or s["dialog"] == "result-dialog")
    assert not errors, errors


# ====================================================================== accessibility
def axe_script() -> Path:
    """axe-core as the PyPI package axe-playwright-python bundles it (the test extras)."""
    package = pytest.importorskip("axe_playwright_python")
    return Path(package.__file__).parent / "axe.min.js"


def axe(page: Page) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(axe_script()))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
    out: list[dict[str, Any]] = result
    return out


def test_no_serious_accessibility_violations(server: Server, browser: Browser) -> None:
    # axe-core comes from a package (installed by the test extras); the page's own policy
    # allows no script from elsewhere, so this page is opened with the policy bypassed.
    page = new_page(browser, DESKTOP, bypass_csp=True)
    page.goto(f"{server.base}/")
    page.wait_for_selector("#rules-status.ok")
    found = {"home": axe(page)}
    # A house rule the engine refuses: its own message, beside the option it names.
    page.click("details.house > summary")
    page.fill("#rule-turn_cap", "5")
    page.dispatch_event("#rule-turn_cap", "change")
    wrong = page.wait_for_selector(".rule.wrong[data-key='turn_cap']")
    assert wrong is not None and "turn_cap: must be at least 10 turns" in wrong.inner_text()
    assert "refuses these rules" in page.inner_text("#rules-status")
    found["home-refused"] = axe(page)
    page.fill("#rule-turn_cap", "400")
    page.dispatch_event("#rule-turn_cap", "change")
    page.wait_for_selector("#rules-status.ok")
    create_table(page, server, house=ONE_ROUND)
    found["lobby"] = axe(page)
    start(page)
    wait_my_turn_or_dialog(page, None, timeout=30)
    found["table"] = axe(page)
    page.keyboard.press("?")
    page.wait_for_selector("#help-dialog")
    found["help"] = axe(page)
    serious = {where: [v for v in vs if v["impact"] in ("serious", "critical")]
               for where, vs in found.items()}
    (Path(__file__).parent / "screenshots").mkdir(exist_ok=True)
    (Path(__file__).parent / "screenshots" / "axe.json").write_text(json.dumps(found, indent=1))
    assert not any(serious.values()), serious


# ====================================================================== staging by rank
def test_5_2_kings_past_a_canastas_worth_are_staged_as_another_meld(server: Server,
                                                                   browser: Browser) -> None:
    # The page's own staging code in the browser, on a seat's state set by hand: a canasta's
    # worth of a rank fills one staged meld (with the team's open meld of it), and more begin
    # another, which the engine starts as a new meld or, where canastas grow, adds on.
    page = new_page(browser, DESKTOP)
    page.goto(f"{server.base}/")
    texts = page.evaluate("""async () => {
        const { Game } = await import('/static/js/game.js');
        const staged = (open, batches) => {
            const g = new Game({ request: async () => ({}) }, { render() {}, say() {} });
            g.table = { status: 'lobby', rules: { canasta_size: 7 }, seats: [{ team: 0 }] };
            g.you.seat = 0;
            g.view = { hand: Array(12).fill('K'), teams: [{ melds: open }] };
            for (const n of batches) { g.picked = { K: n }; g.stage(); }
            const text = g.layText();
            g.unstage(0);  // "Put back" on the first staged meld
            return [text, g.layText()];
        };
        return [staged({}, [4, 3, 3]), staged({ K: [5, 0, 0] }, [5]),
                staged({ K: [8, 0, 0] }, [3]), staged({}, [3, 1])];
    }""")
    assert texts == [["lay K K K K K K K, K K K", "lay K K K"], ["lay K K, K K K", "lay K K K"],
                     ["lay K K K", None], ["lay K K K K", None]]
