"""Being told of one's turn, and "My tables", in Debian's Chromium: the tab's title and icon
while it is your turn, a notification when the page is hidden (the Notification API replaced
by a recorder: a headless browser shows none), permission asked only from the "Notify me"
click; and /mine listing the browser's tables, your turn first, with the history.  Screenshots
of "My tables" go to tests/screenshots/ (docs/web/ keeps copies)."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page  # noqa: E402

from server_helpers import Server  # noqa: E402
from test_server import autoplay, seated, settle  # noqa: E402
from web_helpers import (  # noqa: E402
    DESKTOP,
    PHONE,
    Player,
    create_table,
    game_state,
    shot,
    start,
    watch_errors,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                       reason="Debian's chromium is not installed (scripts/test-all installs it)"),
]

# The page's Notification API and visibility, recorded and set by the test.
STUB = """
window.__notes = [];
window.__asked = 0;
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", {configurable: true,
  get() { return window.__hidden; }});
Object.defineProperty(Document.prototype, "visibilityState", {configurable: true,
  get() { return window.__hidden ? "hidden" : "visible"; }});
class RecordedNotification {
  constructor(title, options) {
    window.__notes.push({title, ...(options || {})});
    this.closed = false;
  }
  close() { this.closed = true; }
  static requestPermission() {
    window.__asked += 1;
    RecordedNotification.permission = "granted";
    return Promise.resolve("granted");
  }
}
RecordedNotification.permission = "default";
window.Notification = RecordedNotification;
"""

TURN = "▶ Your turn · "


def new_page(browser: Browser, viewport: dict[str, int]) -> Page:
    context = browser.new_context(viewport=viewport)
    context.add_init_script(STUB)
    return context.new_page()


def test_your_turn_in_the_title_icon_and_a_notification(server: Server,
                                                        browser: Browser) -> None:
    page = new_page(browser, DESKTOP)
    errors = watch_errors(page)
    table = create_table(page, server, pace=0.8, house={"rounds": 1})
    assert page.evaluate("window.__asked") == 0  # never asked unprompted
    page.click("#notify-button")
    page.wait_for_function("() => document.getElementById('notify-button')"
                           ".getAttribute('aria-pressed') === 'true'")
    assert page.evaluate("window.__asked") == 1
    page.evaluate("window.__hidden = true")
    start(page)
    # Seat 1 (a bot) plays first: not your turn yet.
    assert not page.title().startswith(TURN)
    page.wait_for_function("(mark) => document.title.startsWith(mark)", arg=TURN, timeout=30000)
    assert page.get_attribute("link[rel='icon']", "href") == "/static/icons/turn.svg"
    page.wait_for_function("() => window.__notes.length > 0")
    notes = page.evaluate("window.__notes")
    assert len(notes) == 1
    assert notes[0]["title"] == "Your turn" and notes[0]["tag"] == f"handfoot-{table}"
    # Back at the page, the person plays the turn out: the title and icon come back.
    page.evaluate("window.__hidden = false")
    player = Player(page, server, table, 0)
    while game_state(page)["legal"]:
        player.play_unit()
    page.wait_for_function("(mark) => !document.title.startsWith(mark)", arg=TURN)
    assert page.get_attribute("link[rel='icon']", "href") != "/static/icons/turn.svg"
    assert page.title().endswith("- handfoot")
    assert len(page.evaluate("window.__notes")) == 1  # the page was shown: no more
    assert not [e for e in errors if "push" not in e.lower()], errors


def test_my_tables_your_turn_first(server: Server, browser: Browser) -> None:
    async def tables() -> list[tuple[str, str]]:
        lobby, a = await seated(server, {0: "Ann"}, start=False, name="Friday lobby")
        done, c = await seated(server, {0: "Ann", 2: "Bob"}, name="Grandma's table",
                               rules={"preset": "hand-and-foot", "set": {"rounds": 1}})
        await autoplay([c[0], c[2]])
        await settle(c[0], lambda: c[0].table is not None and c[0].table["status"] == "over")
        waiting, d = await seated(server, {0: "Ann"}, name="Cousins", bot_pace=10)
        turn, b = await seated(server, {1: "Ann"}, name="Sunday game")
        out = []
        for made, client in ((lobby, a[0]), (done, c[0]), (waiting, d[0]), (turn, b[1])):
            assert client.seat_token
            out.append((made["table"], client.seat_token, client.seat))
            await client.close()
        return [(t, json.dumps({"seat_token": s, "seat": n})) for t, s, n in out]

    # Playwright's own event loop runs in this thread: the clients get a thread of their own.
    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(asyncio.run, tables()).result(120)
    for viewport, name in ((PHONE, "mine-phone"), (DESKTOP, "mine")):
        page = new_page(browser, viewport)
        errors = watch_errors(page)
        page.goto(f"{server.base}/mine")
        page.evaluate("""(held) => {
            for (const [table, keys] of held) localStorage.setItem(`handfoot.table.${table}`, keys);
            localStorage.setItem("handfoot.name", JSON.stringify("Ann"));
        }""", held)
        page.reload()
        page.wait_for_selector("li.mn-table >> nth=3")
        page.wait_for_selector("#history-table")
        rows: list[dict[str, Any]] = page.eval_on_selector_all("li.mn-table", """els =>
            els.map(e => ({table: e.dataset.table, mine: e.classList.contains('your-turn'),
                           text: e.innerText}))""")
        assert [r["text"].split("\n")[0] for r in rows] == [
            "Sunday game", "Cousins", "Friday lobby", "Grandma's table"]
        assert rows[0]["mine"] and not any(r["mine"] for r in rows[1:])
        assert "Your turn" in rows[0]["text"] and "Heuristic 2's turn" in rows[1]["text"]
        assert "Game over" in rows[3]["text"]
        assert page.title() == "(1) My tables - handfoot"
        history = page.inner_text("#history-table")
        assert "Ann" in history and "hand-and-foot" in history
        assert page.input_value("#my-name") == "Ann"
        # Nothing wider than the screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shot(page, name, full=True)
        assert not errors, errors
        page.context.close()


def test_on_a_phone_notify_me_is_in_the_settings(server: Server, browser: Browser) -> None:
    """A phone's bar has no room: the toggle is in the Settings dialog, and asks there."""
    made = server.create(rules={"preset": "hand-and-foot"})
    page = new_page(browser, PHONE)
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{made['table']}")
    page.wait_for_selector("#conn.open")
    assert page.locator("#notify-button").count() == 0
    bar = page.eval_on_selector("#bar", "e => e.getBoundingClientRect().height")
    page.click("#settings-button")
    page.click("#notify-setting")
    page.wait_for_function("() => document.getElementById('notify-setting')"
                           ".getAttribute('aria-pressed') === 'true'")
    assert page.evaluate("window.__asked") == 1
    assert page.eval_on_selector("#bar", "e => e.getBoundingClientRect().height") == bar
    assert not errors, errors
    page.context.close()
