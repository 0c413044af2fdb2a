"""The table's behaviour in a real browser (issue 25): one tap to play, no question lost when its
dialog is closed, the coaching table (hints that play, marked cards, the meter, "Why?"), the
staged melds kept across a reload, and the picked card announced.  Debian's Chromium through
Playwright, as tests/test_web.py."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page  # noqa: E402

from handfoot.bots.levels import play_now_level  # noqa: E402
from server_helpers import Server  # noqa: E402
from web_helpers import (  # noqa: E402
    DESKTOP,
    PHONE,
    Player,
    create_table,
    game_state,
    join_table,
    pin_deal,
    plan,
    start,
    wait_my_turn_or_dialog,
    watch_errors,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                       reason="Debian's chromium is not installed (scripts/test-all installs it)"),
]

# As in tests/test_web.py: a deal on which a partner gets to ask "may I go out?".
PARTNERS_DEAL = 125
# A two-player deal whose first hand melds three cards short of the opening minimum.
COACH_DEAL = 3


def new_page(browser: Browser, viewport: dict[str, int], **options: Any) -> Page:
    return browser.new_context(viewport=viewport, **options).new_page()


def table_of(page: Page) -> str:
    return page.url.rsplit("/", 1)[1]


# ====================================================================== one tap to play
def test_play_now_seats_you_with_bots_and_starts(server: Server, browser: Browser) -> None:
    page = new_page(browser, PHONE, has_touch=True)
    errors = watch_errors(page)
    page.goto(f"{server.base}/")
    page.get_by_role("button", name="Play now").tap()
    page.wait_for_selector(".game")
    page.wait_for_function("() => window.handfoot.game.view !== null")
    table = server.hall.tables[table_of(page)]
    assert table.options.hints and table.status == "playing"
    assert [s.person for s in table.seats] == [True] + [False] * (len(table.seats) - 1)
    assert table.seats[0].name == "Player"
    assert table.rules.name == "hand-and-foot"
    # The bots play the level measured to fit 100 ms at these rules (docs/BOTS.md).
    assert [s.level for s in table.seats[1:]] == [play_now_level(table.rules)] * 3
    assert play_now_level(table.rules).startswith("expert")
    # The coaching table: a hint button, and a hint is a whole step that plays.
    state = wait_my_turn_or_dialog(page, None)
    page.click("#act-hint")
    page.wait_for_selector("#play-hint")
    before = game_state(page)["version"]
    page.click("#play-hint")
    page.wait_for_function("(v) => window.handfoot.game.conn.version !== v", arg=before)
    assert state["seat"] == 0
    # The full setup is still there, and remembers the last rules and name used.
    page.goto(f"{server.base}/")
    page.wait_for_selector("#rules-status.ok")
    page.fill("#my-name", "Zoe")
    page.select_option("#preset", "hand-knee-foot")
    page.wait_for_selector("#rules-status.ok")
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.goto(f"{server.base}/")
    page.wait_for_selector("#rules-status.ok")
    assert page.input_value("#preset") == "hand-knee-foot"
    assert page.input_value("#my-name") == "Zoe" == page.input_value("#play-name")
    assert "hand-knee-foot" in page.inner_text(".play-now")
    assert not errors, errors


# ====================================================================== no question lost
def close_by_esc_and_back(page: Page, dialog_id: str) -> None:
    """Close the dialog as a keyboard's Esc does, and as Android's back gesture does: the page
    keeps no history entries of its own for dialogs, so the browser's close watcher sends the
    open modal dialog the same "cancel" as Esc (Chromium 120 and later)."""
    url = page.url
    page.keyboard.press("Escape")
    page.wait_for_function("(id) => !document.getElementById(id)", arg=dialog_id)
    assert page.url == url


def test_every_dialog_closed_leaves_the_person_able_to_act(server: Server, browser: Browser,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    house = {"rounds": 1, "packets": "6, 6", "permission": True,
             "quota": {"clean": 0, "dirty": 0}}
    pin_deal(monkeypatch, PARTNERS_DEAL)
    ann = new_page(browser, DESKTOP)
    bob = new_page(browser, PHONE, has_touch=True)
    errors = watch_errors(ann) + watch_errors(bob)
    table = create_table(ann, server, house=house, bots="random")
    join_table(bob, f"{server.base}/t/{table}", "Bob", 2)
    start(ann)
    bob.wait_for_selector(".game")
    players = {0: Player(ann, server, table, 0), 2: Player(bob, server, table, 2, tap=True)}
    g = server.hall.tables[table].keeper.game
    seen: set[str] = set()

    # The page's other dialogs, closed: the person can still act.
    for page, opener, dialog_id in ((ann, "#help-button", "help-dialog"),
                                    (ann, "#settings-button", "settings-dialog")):
        page.click(opener)
        page.wait_for_selector(f"#{dialog_id}[open]")
        close_by_esc_and_back(page, dialog_id)
        seen.add(dialog_id)

    deadline = time.monotonic() + 300
    while not g.over:
        assert time.monotonic() < deadline, "the game did not finish in time"
        actor = g.actor
        if actor not in players:
            ann.wait_for_timeout(20)
            continue
        p = players[actor]
        state = wait_my_turn_or_dialog(p.page, None)
        if state["dialog"] == "ask-dialog" and "ask-dialog" not in seen:
            close_by_esc_and_back(p.page, "ask-dialog")
            seen.add("ask-dialog")
            # The question stays on the page, with its answers in the action bar.
            assert "asks you: may I go out?" in p.page.inner_text("#status")
            assert p.page.locator("#act-yes").is_visible()
            assert p.page.locator("#act-no").is_visible()
            assert p.page.evaluate("document.activeElement.id") == "act-yes"
            before = game_state(p.page)["version"]
            p.click("#act-yes")
            p.page.wait_for_function("(v) => window.handfoot.game.conn.version !== v",
                                     arg=before)
            continue
        if state["dialog"] == "ask-dialog":
            p.play_unit()  # answered in the dialog, as the first time it was not
            continue
        if state["dialog"]:
            p.page.keyboard.press("Escape")
            continue
        steps = plan(server, table, actor, p.bot)
        if steps and steps[0] == "ask" and "asked" not in seen:
            seen.add("asked")
            p.act("ask")
            p.page.wait_for_function("() => window.handfoot.game.view.phase === 'answer'")
            continue
        if "rule-dialog" not in seen and p.page.locator("button.why").count():
            why = p.page.locator("button.why").first
            # The pile's reason is on demand: its Why? is inside the pile status's
            # <details>, opened by its summary as a person would.
            if why.evaluate("b => !!b.closest('details:not([open])')"):
                why.locator("xpath=ancestor::details[1]/summary").click()
            why.click()
            p.page.wait_for_selector("#rule-dialog[open]")
            assert "Rule " in p.page.inner_text("#rule-dialog h2")
            close_by_esc_and_back(p.page, "rule-dialog")
            seen.add("rule-dialog")
        p.play_unit()
    # The round's breakdown and the final table, closed: the final table (with the host's
    # Rematch) comes back from the action bar.
    for dialog_id in ("result-dialog", "final-dialog"):
        if dialog_id not in seen:
            ann.wait_for_selector(f"#{dialog_id}[open]")
            close_by_esc_and_back(ann, dialog_id)
            seen.add(dialog_id)
    ann.click("#act-final")
    ann.wait_for_selector("#final-dialog[open]")
    assert ann.get_by_role("button", name="Rematch").is_visible()
    assert {"help-dialog", "settings-dialog", "ask-dialog", "rule-dialog", "result-dialog",
            "final-dialog"} <= seen, seen
    assert not errors, errors


# ====================================================================== the coaching table
def test_the_coach_marks_cards_meters_the_opening_and_explains(server: Server,
                                                                browser: Browser,
                                                                monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    pin_deal(monkeypatch, COACH_DEAL)
    page = new_page(browser, DESKTOP)
    errors = watch_errors(page)
    # Two players, each alone: nobody opens for Ann before her first turn.
    table = create_table(page, server, house={"rounds": 1}, hints=True, pace=0.2, players=2)
    start(page)
    player = Player(page, server, table, 0)
    wait_my_turn_or_dialog(page, None)
    # The pile says whether it may be taken and what it would bring.
    page.wait_for_selector("#pile-coach")
    assert "Taking it would bring you" in page.inner_text("#pile-coach")
    player.act("draw")
    page.wait_for_function("() => window.handfoot.game.view.phase === 'meld'"
                           " && window.handfoot.game.legal.length")
    # Before the opening, the meter counts the staged points against the minimum.
    meter = page.locator("#opening-meter")
    assert meter.count() == 1
    assert re.search(r"Opening: 0 of 50 points staged", page.inner_text(".coach"))
    playable = page.eval_on_selector_all("#play-area .hand button.card.playable",
                                         "els => els.map(e => e.dataset.card)")
    melds = {t for a in game_state(page)["legal"] if a.startswith("meld ")
             for t in a.split(" ", 1)[1].split()}
    assert set(playable) == melds
    # The picked card is announced to screen readers.
    card = page.locator("#play-area .hand button.card").first.get_attribute("data-card")
    page.locator("#play-area .hand button.card").first.click()
    page.wait_for_function("() => /picked/.test(document.getElementById('announce').textContent)")
    # A refused discard (staged melds short of the minimum would be; here: a three-card meld
    # short of 50 laid alone) has a "Why?" that opens the rule's text.
    page.keyboard.press("Escape")
    small = next(a for a in game_state(page)["legal"] if a.startswith("meld "))
    cards = small.split(" ", 1)[1].split()
    for t in cards:
        page.click(f"#play-area .hand button.card[data-card='{t}'][aria-pressed='false']")
    page.click("#act-meld")
    page.wait_for_selector(".stage .check.no")
    page.click(".stage .check.no button.why")
    page.wait_for_selector("#rule-dialog[open]")
    assert "6.1" in page.inner_text("#rule-dialog h2")
    assert "minimum" in page.inner_text("#rule-dialog")
    page.keyboard.press("Escape")
    assert re.search(r"Opening: [1-4]\d of 50 points staged", page.inner_text(".coach"))
    # Staged melds survive a reload.
    staged = page.evaluate("JSON.stringify(window.handfoot.game.staged)")
    assert staged != "[]"
    page.reload()
    page.wait_for_function("() => window.handfoot.game.view"
                           " && window.handfoot.game.legal.length")
    assert page.evaluate("JSON.stringify(window.handfoot.game.staged)") == staged
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    assert card
    # Following the hints is never refused.
    for _ in range(6):
        state = wait_my_turn_or_dialog(page, None)
        if state["dialog"] or state["phase"] == "game-over":
            break
        page.click("#act-hint")
        page.wait_for_selector("#play-hint")
        before = state["version"]
        page.click("#play-hint")
        page.wait_for_function(
            "(v) => { const g = window.handfoot.game; return (g.conn.version !== v && !g.busy)"
            " || /Refused/.test(document.body.innerText); }", arg=before)
        assert "Refused" not in page.inner_text("#play-area"), page.inner_text("#play-area")
    # The running score: table points per team, from the server.
    assert "so far, on the table" in page.inner_text("#running-score")
    assert not errors, errors


# ====================================================================== the seat hold
def test_the_seat_hold_counts_down_each_second(server: Server, browser: Browser) -> None:
    ann = new_page(browser, DESKTOP)
    bob = new_page(browser, DESKTOP)
    errors = watch_errors(ann)
    ann.goto(f"{server.base}/")
    ann.wait_for_selector("#rules-status.ok")
    ann.fill("#opt-hold", "8")
    table = create_table(ann, server, house={"rounds": 1}, keep_options=True)
    join_table(bob, f"{server.base}/t/{table}", "Bob", 2)
    start(ann)
    bob.wait_for_selector(".game")
    bob.context.close()  # Bob's browser is gone
    badge = ann.locator(".seat[data-seat='2'] .badge.away")
    player = Player(ann, server, table, 0)
    deadline = time.monotonic() + 120
    while not re.search(r"in \d+ s", badge.inner_text() if badge.count() else ""):
        assert time.monotonic() < deadline, "Bob's turn never came"
        state = game_state(ann)
        if state["legal"] and not state["busy"] and not state["dialog"]:
            player.play_unit()
        else:
            ann.wait_for_timeout(50)
    first = int(re.search(r"in (\d+) s", badge.inner_text()).group(1))  # type: ignore[union-attr]
    # Redrawn by the page each second, with no message from the server in between.
    ann.wait_for_function(
        "(n) => { const b = document.querySelector(\".seat[data-seat='2'] .badge.away\");"
        " const m = b && b.textContent.match(/in (\\d+) s/); return m && Number(m[1]) < n; }",
        arg=first, timeout=3000)
    assert not errors, errors
