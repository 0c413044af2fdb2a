"""The lessons page in a real browser (Debian's Chromium through Playwright's driver, against
the real server): a whole lesson completed by clicks, reached from the first page's link; one
failed (a refusal naming its rule, then a legal move that misses the goal) and retried by taps
on a phone-sized screen; and the practice button that seats the learner at a one-round table
with bots.  Screenshots go to tests/screenshots/ (docs/WEB.md shows two of them)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page  # noqa: E402

from handfoot.server.client import http_json  # noqa: E402
from server_helpers import Server  # noqa: E402
from web_helpers import DESKTOP, PHONE, shot, watch_errors  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                       reason="Debian's chromium is not installed (scripts/test-all installs it)"),
]


def new_page(browser: Browser, viewport: dict[str, int], **options: Any) -> Page:
    return browser.new_context(viewport=viewport, **options).new_page()


def answers(page: Page) -> str:
    return page.get_attribute("#lesson-feedback", "data-answers") or ""


def answer(page: Page, press: Callable[[], None], want: str) -> str:
    """Press a control, wait for the page to show the server's next answer, and check it is
    ``want`` (playing, refused, missed, done); its words."""
    before = answers(page)
    press()
    page.wait_for_function("(n) => { const f = document.getElementById('lesson-feedback');"
                           " return f && f.dataset.answers !== n; }", arg=before)
    box = page.locator("#lesson-feedback")
    assert f"is-{want}" in (box.get_attribute("class") or ""), box.inner_text()
    return box.inner_text()


def pick(page: Page, *tokens: str, tap: bool = False) -> None:
    for token in tokens:
        card = page.locator(f".lesson-cards button.card[data-card='{token}']"
                            "[aria-pressed='false']").first
        card.tap() if tap else card.click()


def test_a_whole_lesson_completed_from_the_first_page(server: Server, browser: Browser) -> None:
    page = new_page(browser, DESKTOP)
    errors = watch_errors(page)
    page.goto(f"{server.base}/")
    page.click("#lessons-link")
    page.wait_for_selector("#lesson-title")
    # The rules are chosen at the top; the opening lesson shows this preset's minimum.
    page.select_option("#lesson-rules", "hand-knee-foot-club")
    page.wait_for_selector(".lesson-list a[data-lesson='knee']")
    page.click(".lesson-list a[data-lesson='opening']")
    page.wait_for_selector("#lesson-title:has-text('The opening minimum')")
    assert "90" in page.inner_text("#lesson-goal")
    assert "6.1 The opening minimum" in page.inner_text(".lesson-rules")
    assert "You draw" in answer(page, lambda: page.click("#lesson-draw"), "playing")
    pick(page, "K", "K", "K", "A", "A", "A", "5", "5", "5")
    assert page.inner_text("#lesson-move") == "Move: lay 5 5 5, K K K, A A A"
    assert "Goal reached" in answer(page, lambda: page.click("#lesson-lay"), "done")
    assert page.locator(".lesson-melds .lesson-meld").count() == 3
    assert page.locator(".lesson-list a[data-lesson='opening'] .tick").count() == 1
    shot(page, "lesson-done")
    # The next lesson follows; then the practice table: one round, the learner seated.
    page.click("#lesson-next")
    page.wait_for_selector("#lesson-title:has-text('Taking the pile')")
    href = page.get_attribute("#play-now", "href")
    assert href == "/?play=now&rules=hand-knee-foot-club"
    page.click("#practice")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    # The practice table starts at once (seated.js): the learner lands in the game, at seat 1,
    # not in its lobby.
    page.wait_for_selector(".game")
    page.wait_for_function("() => { const g = window.handfoot.game;"
                           " return g.seat === 0 && g.view !== null; }")
    table = page.url.rsplit("/", 1)[1]
    summary = http_json(f"{server.base}/api/tables/{table}")
    assert summary["rules"] == "hand-knee-foot-club + house rules"  # one round
    assert summary["status"] == "playing", summary
    assert summary["seats"][0]
    assert errors == []


def test_a_lesson_failed_and_retried_on_a_phone(server: Server, browser: Browser) -> None:
    page = new_page(browser, PHONE, has_touch=True, is_mobile=True)
    errors = watch_errors(page)
    page.goto(f"{server.base}/lessons?rules=hand-and-foot&lesson=pile")
    page.wait_for_selector("#lesson-title:has-text('Taking the pile')")
    # A discard before drawing: the engine's refusal, with its rule, in the game's words.
    pick(page, "Q", tap=True)
    text = answer(page, lambda: page.locator("#lesson-discard").tap(), "refused")
    assert "draw before you discard" in text and "rule 3.5" in text
    # A legal line that misses the goal: drawing instead of taking the pile.
    answer(page, lambda: page.locator("#lesson-draw").tap(), "playing")
    pick(page, "4", tap=True)
    text = answer(page, lambda: page.locator("#lesson-discard").tap(), "missed")
    assert "That is legal, but it doesn't reach the goal" in text
    assert page.locator("#lesson-draw").is_disabled()
    page.evaluate("document.getElementById('lesson-goal').scrollIntoView()")
    shot(page, "lesson-phone-missed")
    # Stuck: the page shows a way that works (the lesson's solution, in its buttons' names).
    page.locator("#lesson-show").tap()
    assert page.inner_text("#lesson-way li") == "Take the pile"
    # Tried again: the queen pair takes the pile.
    answer(page, lambda: page.locator("#lesson-retry").tap(), "playing")
    assert "Goal reached" in answer(page, lambda: page.locator("#lesson-take").tap(), "done")
    assert "queen" in page.inner_text(".lesson-melds")
    assert errors == []


def test_no_serious_accessibility_violations_in_a_lesson(server: Server,
                                                         browser: Browser) -> None:
    # axe-core as the test extras' package bundles it; the page's own policy allows no script
    # from elsewhere, so this page is opened with the policy bypassed.
    package = pytest.importorskip("axe_playwright_python")
    page = new_page(browser, DESKTOP, bypass_csp=True)
    page.goto(f"{server.base}/lessons?rules=hand-and-foot&lesson=melds-wilds")
    page.wait_for_selector("#lesson-title:has-text('Melds and wild cards')")
    answer(page, lambda: page.click("#lesson-draw"), "playing")
    pick(page, "A", "2")
    assert "rule" in answer(page, lambda: page.click("#lesson-lay"), "refused")
    page.add_script_tag(path=str(Path(package.__file__).parent / "axe.min.js"))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
    assert not [v for v in found if v["impact"] in ("serious", "critical")], found
