"""The table's first screen on each device the issue names (phones, tablets, desktops): at a
table with bots that has started, and late in a six-player knee-game round, the hand's cards,
the pile, the players and both teams' melds all lie within the first screen, without
scrolling.  Also the first load's weight (every file from this server, under 200 KB) and the
screenshots docs/WEB.md shows (scripts/web-doc-images makes them small).

The late round is reached on the server: the heuristic bot plays every seat, the person's too,
through the table's own ``_apply`` (as the table's bots do), until the round is well along and
it is the person's turn to draw; then the page shows what any client would."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page  # noqa: E402

from handfoot.bots.heuristic import HeuristicBot  # noqa: E402
from handfoot.server.seats import BOT  # noqa: E402
from handfoot.state import Phase  # noqa: E402
from handfoot.views import SeatView, view  # noqa: E402
from server_helpers import Server  # noqa: E402
from web_helpers import join_table, pin_deal, shot, start, watch_errors  # noqa: E402

pytestmark = pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                                reason="Debian's chromium is not installed")

VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "small-phone": {"width": 360, "height": 640},
    "tablet": {"width": 768, "height": 1024},
    "tablet-landscape": {"width": 1024, "height": 768},
    "desktop": {"width": 1280, "height": 800},
    "wide": {"width": 1920, "height": 1080},
}
# What must be on the first screen: the hand's cards, the pile, the players, each team.
LATE = 60  # turns into a six-player knee round, at most (or a team has 4 canastas)
REGIONS = {
    "hand cards": "#play-area .hand button.card",
    "pile": "#play-area .centre .pile",
    "players": "#play-area .seats li.seat",
    "teams": "#play-area .teams section.team",
}


def bot_table(browser: Browser, server: Server, viewport: dict[str, int],
              preset: str = "hand-and-foot", players: int = 4, pace: float = 0.0,
              rounds: int | None = None, before_start: Callable[[Page], None] | None = None,
              **context: Any) -> tuple[Page, str]:
    """A table whose other seats are bots, created through the API, the page sitting at seat
    0 as its host, started.  (Independent of the home page's own buttons.)"""
    rules: dict[str, Any] = {"preset": preset, "players": players}
    if rounds:
        rules["set"] = {"rounds": rounds}
    made = server.create(rules=rules, bots="heuristic",
                         options={"bot_pace": pace, "seat_hold": 600, "hints": True})
    page = browser.new_context(viewport=viewport, **context).new_page()
    page.goto(f"{server.base}/")
    page.evaluate("([t, h]) => localStorage.setItem('handfoot.table.' + t,"
                  " JSON.stringify({host_token: h}))", [made["table"], made["host_token"]])
    join_table(page, made["invite"], "Ann", 0)
    if before_start is not None:
        before_start(page)
    start(page)
    return page, made["table"]


def fast_forward(server: Server, table_id: str, seat: int, turns: int | None) -> bool:
    """Every seat played by the heuristic bot, on the server, until the round has had
    ``turns`` turns and ``seat`` is to draw (``None``: until the round ends).  True if the
    round is still the one it was."""
    table = server.hall.tables[table_id]

    async def run() -> bool:
        async with table.lock:
            g = table.keeper.game
            bots = {s: HeuristicBot(seed=s) for s in range(len(table.seats))}
            round_no = g.round_no
            for _ in range(5000):
                if g.over or g.round_no != round_no:
                    return False
                if turns is not None and g.actor == seat and g.phase is Phase.DRAW and (
                        g.turns >= turns or late(view(g, seat))):
                    return True
                actor = g.actor
                action = bots[actor].choose(view(g, actor), g.legal_actions())
                # Played as a bot's move, so nobody's undo reaches back into it.
                await table.apply(actor, action, BOT)
            return True

    return asyncio.run_coroutine_threadsafe(run(), server.hall.loop).result(120)


def late(seen: SeatView) -> bool:
    """Late in a knee-game round: a team has most of the canastas it needs to go out."""
    return max(len(t.closed) for t in seen.teams) >= 4


def wait_my_draw(page: Page, timeout: float = 60_000) -> None:
    page.wait_for_function(
        "() => { const g = window.handfoot.game; return g.view && g.legal.includes('draw'); }",
        timeout=timeout)


def settle(page: Page) -> None:
    """No card in flight (the motion of the last moves is over), from the top of the page."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("() => !document.querySelector('.flying')")


def outside_first_screen(page: Page) -> dict[str, list[Any]]:
    """For each region, the boxes that do not lie within the first screen (scrolled to top)."""
    settle(page)
    out: dict[str, list[Any]] = {}
    size = page.viewport_size
    assert size is not None
    for name, selector in REGIONS.items():
        found = page.locator(selector)
        boxes = [found.nth(i).bounding_box() for i in range(found.count())]
        assert boxes, f"no {name} on the page"
        bad = [b for b in boxes if b is None or b["x"] < -0.5 or b["y"] < -0.5
               or b["x"] + b["width"] > size["width"] + 0.5
               or b["y"] + b["height"] > size["height"] + 0.5]
        if bad:
            out[name] = bad
    # Nothing lies over the hand's cards (the moves' bar sticks to the bottom of a phone).
    covered = page.eval_on_selector_all(REGIONS["hand cards"], """els => els.filter(e => {
        const r = e.getBoundingClientRect();
        const x = r.left + Math.min(r.width / 2, 12);
        return [r.top + 6, r.bottom - 6].some(y => {
            const at = document.elementFromPoint(x, y);
            return !at || at.closest('button.card') !== e;
        });
    }).map(e => e.getAttribute('aria-label'))""")
    if covered:
        out["hand cards covered"] = covered
    return out


def named_regions(page: Page) -> None:
    """The regions assistive technology finds by name, as before the new layout."""
    assert page.get_by_role("region", name="hand").count() >= 1
    assert page.get_by_role("region", name="pile").count() >= 1
    assert page.get_by_role("region", name="players").count() >= 1
    assert page.get_by_role("region", name="team").count() >= 2


@pytest.mark.slow  # a browser's start alone is seconds: the full run has every browser test
def test_a_phone_holds_the_whole_table_on_its_first_screen(server: Server,
                                                            browser: Browser) -> None:
    # The quick check of the set: one viewport, the start of a round.
    page, _ = bot_table(browser, server, VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    errors = watch_errors(page)
    wait_my_draw(page)
    assert outside_first_screen(page) == {}
    named_regions(page)
    # No keyboard help on a touch screen; the cards are drawn, not images.
    assert not page.locator("#help-button").is_visible()
    assert page.get_attribute("#sound-button", "aria-pressed") == "false"  # off by default
    assert page.locator("img").count() == 0
    assert not errors, errors
    page.context.close()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_every_screen_shows_the_table_at_the_start_and_late_in_a_six_player_knee_round(
        server: Server, browser: Browser, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pin_deal(monkeypatch, 20261202)  # the same deals (and bots' play) for every screen
    viewport = VIEWPORTS[name]
    touch = viewport["width"] < 800
    page, _ = bot_table(browser, server, viewport, has_touch=touch, is_mobile=touch)
    errors = watch_errors(page)
    wait_my_draw(page)
    settle(page)
    shot(page, f"layout-{name}-start")
    assert outside_first_screen(page) == {}, "start"
    page.context.close()

    page, table = bot_table(browser, server, viewport, preset="hand-knee-foot", players=6,
                            has_touch=touch, is_mobile=touch)
    wait_my_draw(page)
    settle(page)
    shot(page, f"layout-{name}-knee-start")
    assert outside_first_screen(page) == {}, "a six-player knee round's start"
    assert fast_forward(server, table, 0, LATE), "the round ended before it was late"
    version = server.hall.tables[table].version
    page.wait_for_function(f"() => window.handfoot.game.conn.version >= {version}")
    wait_my_draw(page)
    melds = page.locator("#play-area .team .meld").count()
    assert melds >= 10, f"only {melds} melds: not late enough in the round"
    settle(page)
    shot(page, f"layout-{name}-late")
    assert outside_first_screen(page) == {}, "late in a six-player knee round"
    named_regions(page)
    # The round played out: its breakdown, over the table.
    fast_forward(server, table, 0, None)
    page.wait_for_selector("#result-dialog[open]")
    page.wait_for_timeout(400)  # the dialog's own opening, for the picture only
    page.evaluate("document.querySelector('#result-dialog').scrollTop = 0")
    shot(page, f"layout-{name}-end")
    assert not errors, errors
    page.context.close()


@pytest.mark.slow
def test_the_first_load_is_small_and_from_this_server_only(server: Server,
                                                           browser: Browser) -> None:
    context = browser.new_context(viewport=VIEWPORTS["phone"])
    page = context.new_page()
    responses: list[Any] = []
    outside: list[str] = []
    page.on("response", lambda r: responses.append(r))
    page.on("request", lambda r: None if r.url.startswith((server.base, "data:"))
            else outside.append(r.url))
    page.goto(f"{server.base}/")
    page.wait_for_selector("#rules-status.ok")
    page.wait_for_load_state("networkidle")
    # What crossed the wire: each response's body as sent (compressed if it was) and headers.
    sizes = {}
    for r in responses:
        if not r.url.startswith(server.base):
            outside.append(r.url)
            continue
        s = r.request.sizes()
        sizes[r.url[len(server.base):]] = s["responseBodySize"] + s["responseHeadersSize"]
    total = sum(sizes.values())
    (Path(__file__).parent / "screenshots").mkdir(exist_ok=True)
    (Path(__file__).parent / "screenshots" / "first-load.json").write_text(
        json.dumps({"total": total, "files": sizes}, indent=1))
    assert not outside, outside
    assert total < 200_000, total
    context.close()


@pytest.mark.slow
def test_no_serious_accessibility_violations_on_the_new_table(server: Server,
                                                              browser: Browser) -> None:
    # axe-core from its package, so the page is opened with its script policy bypassed.
    from test_web import axe

    found: dict[str, Any] = {}

    def lobby(page: Page) -> None:
        found["lobby"] = axe(page)

    page, table = bot_table(browser, server, VIEWPORTS["desktop"], before_start=lobby,
                            bypass_csp=True)
    wait_my_draw(page)
    assert fast_forward(server, table, 0, 8)
    version = server.hall.tables[table].version
    page.wait_for_function(f"() => window.handfoot.game.conn.version >= {version}")
    wait_my_draw(page)
    settle(page)
    found["table"] = axe(page)
    fast_forward(server, table, 0, None)
    page.wait_for_selector("#result-dialog[open]")
    found["breakdown"] = axe(page)
    page.goto(f"{server.base}/")
    page.wait_for_selector("#rules-status.ok")
    found["home"] = axe(page)
    phone, _ = bot_table(browser, server, VIEWPORTS["small-phone"], bypass_csp=True,
                         has_touch=True, is_mobile=True)
    wait_my_draw(phone)
    found["phone table"] = axe(phone)
    serious = {where: [v for v in vs if v["impact"] in ("serious", "critical")]
               for where, vs in found.items()}
    (Path(__file__).parent / "screenshots").mkdir(exist_ok=True)
    (Path(__file__).parent / "screenshots" / "axe-layout.json").write_text(
        json.dumps(found, indent=1))
    assert not any(serious.values()), serious
    page.context.close()
    phone.context.close()


# A count of the cards that flew (anim.js) and when the page sent each websocket frame.
WATCH_MOTION = """
window.__flights = 0;
window.__sent = [];
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.classList && n.classList.contains('flying')) window.__flights += 1;
  }
}).observe(document, {childList: true, subtree: true});
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  window.__sent.push([performance.now(), String(data)]);
  return send.call(this, data);
};
"""


@pytest.mark.slow
@pytest.mark.parametrize("reduced", [False, True])
def test_moves_are_shown_in_motion_unless_reduced_and_never_wait_for_it(
        server: Server, browser: Browser, reduced: bool) -> None:
    def watch(page: Page) -> None:
        page.add_init_script(WATCH_MOTION)
        page.reload()
        page.wait_for_selector("li.lobby-seat.me")

    page, _ = bot_table(browser, server, VIEWPORTS["desktop"], pace=0.3, before_start=watch,
                        reduced_motion="reduce" if reduced else "no-preference")
    wait_my_draw(page)
    # The draw is sent in the same task as the click, whatever is moving on the screen.
    sent = page.evaluate("""() => new Promise((done) => {
        const before = window.__sent.length;
        const t0 = performance.now();
        document.querySelector('#act-draw').click();
        const frame = window.__sent[before];
        done(frame ? [frame[0] - t0, frame[1]] : null);
    })""")
    assert sent is not None and '"draw"' in sent[1], sent
    assert sent[0] < 50, f"the draw waited {sent[0]} ms"
    # A card dragged onto the pile is discarded; then the bots' moves (at 0.3 s each) until
    # this seat's next turn.
    page.wait_for_function("() => window.handfoot.game.legal.some(a => a.startsWith('discard'))")
    token = page.evaluate("""() => window.handfoot.game.legal
        .find(a => a.startsWith('discard')).split(' ')[1]""")
    card = page.locator(f"#play-area .hand button.card[data-card='{token}']").first.bounding_box()
    pile = page.locator("#play-area .pile").bounding_box()
    assert card is not None and pile is not None
    page.mouse.move(card["x"] + 10, card["y"] + card["height"] / 2)
    page.mouse.down()
    page.mouse.move(pile["x"] + 20, pile["y"] + pile["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function("() => !window.handfoot.game.legal.some(a => a.startsWith('discard'))")
    assert page.evaluate("window.__sent.some(([, f]) => f.includes('discard " + token + "'))")
    page.wait_for_function("() => window.handfoot.game.legal.includes('draw')"
                           " || window.handfoot.game.view.results.length > 0", timeout=60_000)
    flights = page.evaluate("window.__flights")
    assert (flights == 0) if reduced else (flights > 0), flights
    page.context.close()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["small-phone", "tablet"])
def test_large_text_cuts_nothing_off(server: Server, browser: Browser, name: str) -> None:
    def large(page: Page) -> None:
        page.evaluate("localStorage.setItem('handfoot.settings', JSON.stringify({large: true}))")
        page.reload()
        page.wait_for_selector("li.lobby-seat.me")

    page, _ = bot_table(browser, server, VIEWPORTS[name], before_start=large, has_touch=True)
    wait_my_draw(page)
    assert page.evaluate("document.documentElement.classList.contains('large')")
    # The connection's state is whole in the bar, and nothing makes the page scroll sideways.
    cut = page.evaluate("""() => [...document.querySelectorAll('#bar > *, #bar button, #conn')]
        .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
        .map(e => e.id || e.className)""")
    assert not cut, cut
    assert "Connected" in page.inner_text("#conn")
    box = page.locator("#conn").bounding_box()
    assert box is not None and box["x"] + box["width"] <= VIEWPORTS[name]["width"]
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= VIEWPORTS[name]["width"], width
    settle(page)
    shot(page, f"layout-{name}-large")
    page.context.close()
