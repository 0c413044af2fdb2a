"""A turn-based table in Debian's Chromium, played over two "days" with the server restarted in
between: Ann sets the table up on the full setup form (turn-based, 24 hours a turn, then the
game waits), Bob joins from his own browser, both play and close their pages; the server
stops, and starts again two days later on the same database and address (its clock moved on,
clock.py).  The limit of Ann's turn passed while it was down: the game waits for her, and both
pages say whose turn it is and since when; she comes back and plays on.

Screenshots go to tests/screenshots/ (docs/web/ keeps copies): the setup form with its pace,
and the table waiting."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser  # noqa: E402

from handfoot.server.clock import TEST_OFFSET_VARIABLE, Clock  # noqa: E402
from server_helpers import Server, free_port  # noqa: E402
from web_helpers import (  # noqa: E402
    DESKTOP,
    SCREENSHOTS,
    Player,
    join_table,
    start,
    watch_errors,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                       reason="Debian's chromium is not installed (scripts/test-all installs it)"),
]

DAY = 24 * 3600.0


@pytest.fixture(scope="module")
def server() -> None:
    """This module starts and restarts servers of its own (the shared one is not used)."""
    return None


def play_turn(player: Player, server: Server) -> None:
    """The seat's whole turn, through its page."""
    table = server.hall.tables[player.table]
    end = time.monotonic() + 120
    while table.keeper.game.actor == player.seat and not table.keeper.game.over:
        assert time.monotonic() < end, "the turn did not end"
        player.page.wait_for_function(
            "() => { const g = window.handfoot.game; return g.legal.length > 0 && !g.busy; }",
            timeout=30_000)
        player.play_unit()


def test_the_test_clock_is_moved_only_by_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TEST_OFFSET_VARIABLE, raising=False)
    assert Clock.from_environment().offset == 0
    monkeypatch.setenv(TEST_OFFSET_VARIABLE, str(2 * DAY))
    assert abs(Clock.from_environment().now() - time.time() - 2 * DAY) < 5
    monkeypatch.setenv(TEST_OFFSET_VARIABLE, "two days")
    with pytest.raises(ValueError, match=TEST_OFFSET_VARIABLE):
        Clock.from_environment()


def test_a_turn_based_table_over_two_days_and_a_restart(browser: Browser,
                                                        tmp_path: Path) -> None:
    db, port = str(tmp_path / "tables.sqlite3"), free_port()
    SCREENSHOTS.mkdir(exist_ok=True)
    # Each person's browser (its storage keeps their seat token) outlives the server.
    ann_browser = browser.new_context(viewport=DESKTOP)
    bob_browser = browser.new_context(viewport=DESKTOP)
    # ------------------------------------------------------------ day 1
    day1 = Server(db, port=port, clock=Clock())
    day1.start()
    try:
        ann = ann_browser.new_page()
        errors = watch_errors(ann)
        ann.goto(f"{day1.base}/")
        ann.wait_for_selector("#rules-status.ok")
        ann.fill("#my-name", "Ann")
        ann.fill("#table-name", "Across the ocean")
        ann.select_option("#players", "2")
        ann.wait_for_function(
            "() => document.querySelectorAll('#seats-choice input[type=radio]').length === 2")
        assert ann.is_hidden("#turn-fields") and ann.is_visible("#opt-hold")
        ann.select_option("#opt-table-pace", "turn-based")
        ann.select_option("#opt-turn-limit", "24h")
        ann.select_option("#opt-on-limit", "wait")
        assert ann.is_visible("#turn-fields") and ann.is_hidden("#opt-hold")
        assert ann.inner_text("#pace-summary") == \
            "Turn-based · 24 hours a turn · then the game waits"
        ann.fill("#opt-pace", "0")
        ann.evaluate("document.activeElement.blur()")
        form = ann.locator("fieldset.table-options")
        form.scroll_into_view_if_needed()
        form.screenshot(path=str(SCREENSHOTS / "desktop-pace-setup.png"))
        ann.click("#create")
        ann.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        ann.wait_for_selector("li.lobby-seat.me")
        table = ann.url.rsplit("/", 1)[1]
        assert ann.inner_text("#lobby-pace") == \
            "Turn-based · 24 hours a turn · then the game waits"
        # The host may change it in the lobby: each change is the table's at once.
        assert ann.input_value("#lobby-turn-limit") == "24h"
        assert ann.input_value("#lobby-on-limit") == "wait"
        ann.select_option("#lobby-turn-limit", "3d")
        ann.wait_for_function("() => /3 days a turn/.test("
                              "document.getElementById('lobby-pace').textContent)")
        ann.select_option("#lobby-turn-limit", "24h")
        ann.wait_for_function("() => /24 hours a turn/.test("
                              "document.getElementById('lobby-pace').textContent)")
        ann.screenshot(path=str(SCREENSHOTS / "desktop-pace-lobby.png"), full_page=True)
        bob = bob_browser.new_page()
        errors += watch_errors(bob)
        join_table(bob, f"{day1.base}/t/{table}", "Bob", 1)
        start(ann)
        bob.wait_for_selector(".game")
        # Seat 0 deals: Bob begins.  His page says whose turn it is and its limit.
        bob.wait_for_selector("#pace-line .pace-turn")
        line = bob.inner_text("#pace-line")
        assert "Turn-based · 24 hours a turn · then the game waits" in line
        assert "Your turn since" in line and "the limit passes in 24 h" in line, line
        # The turn's line counts on each minute without moving the cards a finger aims at
        # (a line that rewrapped as it ticked once made a test's click pick the wrong card).
        hand = "e => e.getBoundingClientRect().top"
        top = bob.eval_on_selector("#play-area .hand", hand)
        bob.evaluate("() => { const now = performance.now.bind(performance);"
                     " window.realNow = now; performance.now = () => now() + 150000; }")
        bob.wait_for_function("() => /\\(3 min\\)/.test("
                              "document.getElementById('pace-line').textContent)")
        assert bob.eval_on_selector("#play-area .hand", hand) == top
        bob.evaluate("() => { performance.now = window.realNow; }")
        play_turn(Player(bob, day1, table, 1), day1)
        ann.wait_for_function(
            "() => /Your turn since/.test(document.getElementById('pace-line').textContent)")
        for page in (ann, bob):
            page.close()  # both close the page; their browsers keep the seat tokens
        live = day1.hall.tables[table]
        end = time.monotonic() + 10
        while live.clients and time.monotonic() < end:
            time.sleep(0.05)
        # Nobody is at the table: Ann's seat is hers still (no seat hold at this pace).
        assert not live.clients
        assert live.seats[0].driver == "person" and live.keeper.game.actor == 0
        assert not errors, errors
    finally:
        day1.stop()

    # ------------------------------------------------------------ two days later
    day3 = Server(db, port=port, clock=Clock(offset=2 * DAY))
    day3.start()
    try:
        bob = bob_browser.new_page()
        errors = watch_errors(bob)
        bob.goto(f"{day3.base}/t/{table}")
        bob.wait_for_selector("#pace-line.waiting")
        line = bob.inner_text("#pace-line")
        assert re.search(r"Ann's turn since .+ \(2 days\) · the limit passed: the game waits "
                         r"for Ann", line), line
        assert "Waiting for Ann" in bob.inner_text(".status .turn")
        assert day3.hall.tables[table].keeper.game.actor == 0
        assert day3.hall.timers.fired >= 1  # acted on at start
        bob.wait_for_timeout(300)  # the cards' arrival animation
        bob.screenshot(path=str(SCREENSHOTS / "desktop-pace-waiting.png"))
        # A small phone reads the same turn in half the words, on one line (two lines pushed
        # the hand's second row under the moves bar); screen readers still get the whole line.
        bob.set_viewport_size({"width": 360, "height": 640})
        bob.wait_for_selector("#pace-line .pace-turn .short", state="visible")
        assert bob.inner_text("#pace-line .pace-turn .short") == \
            "Ann's turn · 2 days · past limit: waits"
        assert bob.get_attribute("#pace-line .pace-turn .short", "aria-hidden") == "true"
        assert "the game waits for Ann" in bob.text_content("#pace-line .pace-turn .long")
        bob.wait_for_timeout(300)
        bob.screenshot(path=str(SCREENSHOTS / "phone-pace-waiting.png"))
        tall = bob.eval_on_selector("#pace-line .pace-turn",
                                    "e => e.getBoundingClientRect().height")
        assert tall < 24, tall  # one line of 0.9rem
        bob.set_viewport_size(DESKTOP)
        # Ann comes back and plays; then it is Bob's turn, from now.
        ann = ann_browser.new_page()
        errors += watch_errors(ann)
        ann.goto(f"{day3.base}/t/{table}")
        ann.wait_for_selector("#pace-line.waiting")
        assert "the game waits for you" in ann.inner_text("#pace-line")
        play_turn(Player(ann, day3, table, 0), day3)
        bob.wait_for_function(
            "() => /Your turn since .* \\(under a minute\\)/.test("
            "document.getElementById('pace-line').textContent)")
        assert not errors, errors
    finally:
        ann_browser.close()
        bob_browser.close()
        day3.stop()
