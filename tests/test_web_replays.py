"""The replay page and the installable app in a real browser (Debian's Chromium through
Playwright's driver): a finished game walked forward and back to its end, its review's
differences, a record file opened from this computer, the manifest and the service worker,
and the offline line once the server is stopped.  Screenshots go to tests/screenshots/;
scripts/replay-doc-images makes docs/web/ from them."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

from handfoot.actions import parse_action  # noqa: E402
from handfoot.bots.basic import BasicBot  # noqa: E402
from handfoot.server.client import TableClient  # noqa: E402
from server_helpers import Server  # noqa: E402
from server_helpers import seat_view as wire_view  # noqa: E402
from test_server import autoplay, seated, short_rules  # noqa: E402
from web_helpers import DESKTOP, PHONE, launch, shot, watch_errors  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                       reason="Debian's chromium is not installed (scripts/test-all installs it)"),
]

EXAMPLE = Path(__file__).parent.parent / "examples" / "hf-worked-round-1935.json"


def finish_a_game(server: Server) -> str:
    """A one-round table, over, Ann at seat 0 playing as the basic bot (the review then has
    differences to show).  Played by protocol clients on a thread of its own: the browser's
    driver keeps its own event loop on this one."""
    basic = BasicBot(seed=3)
    out: dict[str, Any] = {}

    def ann(client: TableClient) -> str:
        return basic.choose(wire_view(client), [parse_action(t) for t in client.legal]).text

    async def go() -> None:
        made, clients = await seated(server, {0: "Ann"}, rules=short_rules())
        await autoplay([clients[0]], choose=ann)
        await clients[0].close()
        out["table"] = made["table"]

    thread = threading.Thread(target=lambda: asyncio.run(go()))
    thread.start()
    thread.join(120)
    return str(out["table"])


def _in_thread(make: Any) -> Any:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(asyncio.run(make())))
    thread.start()
    thread.join(120)
    return out[0]


@pytest.fixture(scope="module")
def table(server: Server) -> str:
    return finish_a_game(server)


@pytest.fixture(scope="module")
def browser(table: str) -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


def new_page(browser: Browser, viewport: dict[str, int]) -> Page:
    return browser.new_context(viewport=viewport).new_page()


def at_step(page: Page) -> tuple[int, int]:
    text = page.locator("#step").inner_text()
    found = re.match(r"Step (\d+) of (\d+)", text)
    assert found, text
    return int(found[1]), int(found[2])


def wait_step(page: Page, n: int) -> None:
    expect(page.locator("#step")).to_contain_text(re.compile(rf"^Step {n} of "))


# ====================================================================== a replay
def test_a_replay_walked_forward_and_back_to_the_end(server: Server, browser: Browser,
                                                     table: str) -> None:
    page = new_page(browser, DESKTOP)
    errors = watch_errors(page)
    page.goto(f"{server.base}/replay/{table}?game=1")
    wait_step(page, 0)
    _, last = at_step(page)
    assert last > 20
    # Seat 0's view by default: its own hand drawn, the others' hands only counted.
    assert page.locator(".rp-seat.mine .rp-card").count() > 0
    assert page.locator(".rp-seat:not(.mine) .rp-card").count() == 0
    for n in (1, 2, 3):
        page.click("#forward")
        wait_step(page, n)
    page.click("#back")
    wait_step(page, 2)
    page.keyboard.press("ArrowRight")
    wait_step(page, 3)
    page.keyboard.press("End")
    wait_step(page, last)
    expect(page.locator(".rp-over")).to_contain_text("Game over")
    expect(page.locator("#log")).to_contain_text("round 1 over")
    assert page.locator("#forward").is_disabled()
    for n in range(last - 1, last - 6, -1):
        page.click("#back")
        wait_step(page, n)
    page.click("#first")
    wait_step(page, 0)
    assert page.locator("#back").is_disabled()
    # Played at ten steps a second, then paused: it moves on by itself.
    page.select_option("#speed", "100")
    page.click("#play")
    page.wait_for_function("() => /^Step ([5-9]|\\d\\d+) of/.test("
                           "document.getElementById('step').textContent)")
    page.click("#play")
    paused = at_step(page)[0]
    assert paused >= 5
    # The step is in the address: a link opens the same step.
    assert f"step={paused}" in page.url
    # Every hand, now that the game is over.
    page.check("#every")
    expect(page.locator(".rp-seat:not(.mine) .rp-card").first).to_be_visible()
    page.locator("#slider").fill(str(last // 2))  # the slider goes anywhere at once
    wait_step(page, last // 2)
    shot(page, "replay-desktop")
    assert errors == []


def test_the_reviews_differences(server: Server, browser: Browser, table: str) -> None:
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, viewport)
        errors = watch_errors(page)
        page.goto(f"{server.base}/replay/{table}?game=1&seat=0&step=60")
        wait_step(page, 60)  # a link to a step opens at that step
        shot(page, f"replay-{name}-step")
        page.click("#review-button")
        biggest = page.locator("#biggest li")
        expect(biggest.first).to_be_visible(timeout=60_000)  # the expert weighs every turn
        assert 1 <= biggest.count() <= 3
        expect(biggest.first).to_contain_text(re.compile(r"lost [\d,]+ points?: played"))
        biggest.first.locator("button").click()
        here = page.locator("#here .rp-turn.lost")
        expect(here).to_be_visible()
        expect(here).to_contain_text("Ann played:")
        expect(here).to_contain_text("The expert:")
        expect(here.locator(".rp-why")).to_contain_text("the expert expects")
        expect(here.locator(".rp-lost")).to_contain_text(re.compile(r"Lost: [\d,]+ points?"))
        fact = page.locator("#review-body .rp-fact").first
        expect(fact).to_contain_text("Compared with the expert:")
        expect(fact).to_contain_text("losing points")
        # The single moves keep the strong bot's marks (a model fits the table).
        expect(page.locator("#review-body .rp-moves")).to_contain_text(
            "Single moves compared with the strong bot")
        step = int(biggest.first.locator("button").get_attribute("data-step") or "0")
        wait_step(page, step)
        if viewport is PHONE:  # the table comes first there; the review is below it
            page.locator("#review").scroll_into_view_if_needed()
        # The desktop's whole page: the summary, then the turn at the step, below the fold.
        shot(page, f"replay-review-{name}", full=viewport is DESKTOP)
        assert errors == []


def test_a_game_in_play_says_so(server: Server, browser: Browser) -> None:
    async def go() -> str:
        made, clients = await seated(server, {0: "Ann"}, bot_pace=5)
        await clients[0].close()
        return str(made["table"])

    table = _in_thread(go)
    page = new_page(browser, PHONE)
    page.goto(f"{server.base}/replay/{table}")
    expect(page.locator("#notice")).to_have_text(
        "Game 1 is still in play: its replay opens once it is over.")
    assert page.locator("#game").is_hidden() and page.locator(".rp-card").count() == 0


def test_a_record_file_opened_from_this_computer(server: Server, browser: Browser,
                                                 tmp_path: Path) -> None:
    page = new_page(browser, DESKTOP)
    errors = watch_errors(page)
    page.goto(f"{server.base}/replay")
    expect(page.locator("#open")).to_be_visible()
    page.set_input_files("#file", str(EXAMPLE))
    wait_step(page, 0)
    expect(page.locator("#where")).to_contain_text(EXAMPLE.name)
    page.keyboard.press("End")
    _, last = at_step(page)
    wait_step(page, last)
    # A record whose first action is illegal: one line saying so, as handfoot replay does.
    bad = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    bad["rounds"][0]["actions"][0][1] = "discard JK"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    page.set_input_files("#file", str(path))
    expect(page.locator("#open-error")).to_contain_text("illegal action")
    # The browser logs the refusal's status; the page's own scripts raised nothing.
    assert [e for e in errors if "status of 400" not in e] == []


# ====================================================================== the app
def test_the_manifest_and_the_service_worker(server: Server, browser: Browser) -> None:
    page = new_page(browser, DESKTOP)
    page.goto(f"{server.base}/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href == "/manifest.webmanifest"
    with urllib.request.urlopen(server.base + href, timeout=10) as reply:
        assert reply.headers["content-type"].startswith("application/manifest+json")
        manifest = json.loads(reply.read())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["short_name"] and manifest["theme_color"].startswith("#")
    sizes = {(i["sizes"], i["purpose"]) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server.base + icon["src"], timeout=10) as reply:
            assert reply.headers["content-type"] == icon["type"]
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == f"{server.base}/"


def test_offline_the_app_opens_and_says_so(browser: Browser, tmp_path: Path) -> None:
    srv = Server(str(tmp_path / "t.sqlite3"))
    srv.start()
    page = new_page(browser, PHONE)
    errors = watch_errors(page)
    try:
        page.goto(f"{srv.base}/replay")
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        expect(page.locator("#offline")).to_be_hidden()
    finally:
        srv.stop()
    # The server is gone: the page still opens, from what the app keeps, and says so.
    page.reload()
    expect(page.locator("#open")).to_be_visible()
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_have_text("Offline: reconnecting…")
    shot(page, "replay-offline-phone")
    # Game state is never answered from what the app keeps.
    assert page.evaluate("fetch('/api/info').then(() => 'answered', () => 'failed')") == "failed"
    page.goto(f"{srv.base}/t/sometable")  # the table's page too: every table's is one file
    expect(page.locator("#offline")).to_have_text("Offline: reconnecting…")
    errors = [e for e in errors if "/api/" not in e]  # the table's own requests fail, rightly
    # Failed fetches of the probe are the only errors: the page itself runs.
    assert all("Failed to load resource" in e or "ERR_CONNECTION_REFUSED" in e
               for e in errors), errors
