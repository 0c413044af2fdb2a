"""A phone in the hand: a big hand (30 and 40 cards, as after taking a big pile) on a 360x640
and a 390x844 screen, a card dragged by a finger onto one of the team's melds, and a seat
tile's facts opened by a tap (a touch screen shows no tooltip).

The positions are made on the server with ``Game.edit()``: cards moved from the stock into the
person's hand (so the deck stays whole), a meld put on the team's table; then the page is sent
the seat's state again, as on a reconnect."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page  # noqa: E402

from handfoot.cards import KIND_TOKENS, parse_cards  # noqa: E402
from server_helpers import Server  # noqa: E402
from test_web_layout import VIEWPORTS, bot_table, settle, wait_my_draw  # noqa: E402
from web_helpers import pin_deal, shot, watch_errors  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                                 reason="Debian's chromium is not installed")]

# What a finger needs of each card in the hand: this much of its face not covered by the
# next card (its corner: rank and suit) and not under anything else.
MIN_VISIBLE = 32
HAND = "#play-area .hand button.card"


def on_table(server: Server, table_id: str, change: Any) -> Any:
    """``change(game)`` inside the table's lock and ``Game.edit()``, then every page at the
    table is sent its state again (as on a reconnect)."""
    table = server.hall.tables[table_id]

    async def run() -> Any:
        async with table.lock:
            g = table.keeper.game
            with g.edit():
                out = change(g)
            for client in list(table.clients):
                table.send_state(client, None)
            return out

    return asyncio.run_coroutine_threadsafe(run(), server.hall.loop).result(30)


def grow_hand(server: Server, table_id: str, seat: int, size: int) -> dict[str, int]:
    """Cards from the top of the stock into the seat's hand until it holds ``size``; the
    hand's counts by token."""
    def change(g: Any) -> dict[str, int]:
        red_three = parse_cards("R3")[0]  # laid at once in play: never held
        while g.hand_n[seat] < size:
            at = max(i for i, k in enumerate(g.stock) if k != red_three)
            kind = g.stock.pop(at)
            g.hands[seat][kind] += 1
            g.hand_n[seat] += 1
        return {KIND_TOKENS[k]: n for k, n in enumerate(g.hands[seat]) if n}

    out: dict[str, int] = on_table(server, table_id, change)
    return out


def big_hand_table(browser: Browser, server: Server, viewport: str, size: int,
                   monkeypatch: pytest.MonkeyPatch) -> tuple[Page, str, dict[str, int]]:
    pin_deal(monkeypatch, 20261207)
    page, table = bot_table(browser, server, VIEWPORTS[viewport], has_touch=True,
                            is_mobile=True)
    wait_my_draw(page)
    hand = grow_hand(server, table, 0, size)
    page.wait_for_function(f"() => window.handfoot.game.view.seats[0].hand_size === {size}")
    settle(page)
    return page, table, hand


def visible_parts(page: Page) -> list[dict[str, Any]]:
    """For each card button in the hand: what it shows (its label, its count) and the width
    and height of its face that no other element covers, sampled every 2 px."""
    found: list[dict[str, Any]] = page.eval_on_selector_all(HAND, """els => els.map(e => {
        const r = e.getBoundingClientRect();
        const face = e.querySelector('.cf').getBoundingClientRect();
        const mine = (x, y) => { const at = document.elementFromPoint(x, y);
                                 return at && at.closest('button.card') === e; };
        // Along a line 10 px under the top edge (the corner's rank), how far the card shows;
        // down the left edge, how tall.
        let wide = 0, tall = 0;
        for (let x = face.left + 1; x < face.right; x += 2) if (mine(x, face.top + 10)) wide += 2;
        for (let y = face.top + 1; y < face.bottom; y += 2) if (mine(face.left + 6, y)) tall += 2;
        const corner = e.querySelector('.ix.tl').getBoundingClientRect();
        return {label: e.getAttribute('aria-label'), card: e.dataset.card,
                count: Number(e.dataset.count || 1), wide, tall,
                corner: mine(corner.left + corner.width / 2, corner.top + corner.height / 2)
                        && mine(corner.left + 2, corner.bottom - 2),
                inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0
                        && r.right <= innerWidth,
                x: r.left, y: r.top};
    })""")
    return found


@pytest.mark.parametrize("viewport", ["small-phone", "phone"])
@pytest.mark.parametrize("size", [22, 30, 40])
def test_a_big_hand_stays_readable_and_tappable_on_a_phone(
        server: Server, browser: Browser, monkeypatch: pytest.MonkeyPatch, viewport: str,
        size: int) -> None:
    page, _, hand = big_hand_table(browser, server, viewport, size, monkeypatch)
    errors = watch_errors(page)
    shot(page, f"phone-{viewport}-hand-{size}")
    cards = visible_parts(page)
    # Every card of the hand is shown (one button per card, or one per kind with its count).
    shown: dict[str, int] = {}
    for c in cards:
        shown[c["card"]] = shown.get(c["card"], 0) + c["count"]
    assert shown == hand
    for c in cards:
        assert c["inside"], c
        assert c["corner"], f"{c['label']}: its corner (rank and suit) is covered"
        assert c["wide"] >= MIN_VISIBLE and c["tall"] >= MIN_VISIBLE, c
    # The moves' bar is all on the screen, below the hand.
    bar = page.locator("#play-area .actions").bounding_box()
    assert bar is not None and bar["y"] + bar["height"] <= VIEWPORTS[viewport]["height"] + 0.5
    # A tap on each kind picks one card of it (and says which), a second tap on a picked
    # card puts it back.
    for token in hand:
        before = page.evaluate(f"window.handfoot.game.picked[{token!r}] || 0")
        page.locator(f"{HAND}[data-card='{token}'][aria-pressed='false']").first.tap()
        assert page.evaluate(f"window.handfoot.game.picked[{token!r}] || 0") == before + 1
    assert page.evaluate("window.handfoot.game.pickedTokens().length") == len(hand)
    picked = page.locator(f"{HAND}[aria-pressed='true']")
    assert sum(int(picked.nth(i).get_attribute("data-count") or 1)
               for i in range(picked.count())) == len(hand)
    page.locator(f"{HAND}[aria-pressed='true']").first.tap()
    assert page.evaluate("window.handfoot.game.pickedTokens().length") == len(hand) - 1
    assert not errors, errors
    page.context.close()



# ---------------------------------------------------------------------- a card onto a meld
def meld_and_card(server: Server, table_id: str, seat: int, token: str) -> None:
    """The seat's team gets an open meld of three ``token`` and the seat one more in hand, all
    four taken from the stock (the team counts as down)."""
    def change(g: Any) -> None:
        kind = parse_cards(token)[0]
        team = g.team_of(seat)
        for _ in range(4):
            g.stock.remove(kind)
        g.nat[team][kind] += 3
        g.opened[team] = True
        g.hands[seat][kind] += 1
        g.hand_n[seat] += 1

    on_table(server, table_id, change)


def touch_drag(page: Page, start: dict[str, float], end: dict[str, float],
               steps: int = 10) -> None:
    """A finger put down at ``start``, moved to ``end`` and lifted: touch events as a phone's
    screen sends them (the page sees pointer events of type touch)."""
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", start["x"], start["y"])
    for i in range(1, steps + 1):
        touch("touchMove", start["x"] + (end["x"] - start["x"]) * i / steps,
              start["y"] + (end["y"] - start["y"]) * i / steps)
        page.wait_for_timeout(16)
    touch("touchEnd", end["x"], end["y"])
    cdp.detach()
    # A finger comes back after a moment: a touch at once is taken by the browser's gesture
    # recognition as part of this one (no click follows it).
    page.wait_for_timeout(400)


def centre(box: dict[str, float] | None, dx: float | None = None) -> dict[str, float]:
    assert box is not None
    return {"x": box["x"] + (box["width"] / 2 if dx is None else dx),
            "y": box["y"] + box["height"] / 2}


@pytest.mark.parametrize("how", ["touch", "mouse"])
def test_a_card_dragged_onto_a_meld_of_the_team_is_added_to_it(
        server: Server, browser: Browser, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    pin_deal(monkeypatch, 20261207)
    touch = how == "touch"
    page, table = bot_table(browser, server, VIEWPORTS["small-phone" if touch else "desktop"],
                            has_touch=touch, is_mobile=touch)
    errors = watch_errors(page)
    wait_my_draw(page)
    meld_and_card(server, table, 0, "K")
    page.wait_for_function("() => (window.handfoot.game.view.teams[0].melds.K || [0])[0] === 3")
    page.locator("#act-draw").tap() if touch else page.click("#act-draw")
    page.wait_for_function("() => window.handfoot.game.view.phase === 'meld'"
                           " && !window.handfoot.game.busy")
    settle(page)
    kings = page.evaluate("window.handfoot.game.hand.K")
    card = page.locator(f"{HAND}[data-card='K']").first
    card.scroll_into_view_if_needed()
    meld = page.locator("#play-area .team.ours .meld[data-slot='K']")
    meld.scroll_into_view_if_needed()

    def drag(start: dict[str, float], end: dict[str, float]) -> None:
        if touch:
            touch_drag(page, start, end)
        else:
            page.mouse.move(start["x"], start["y"])
            page.mouse.down()
            page.mouse.move(end["x"], end["y"], steps=10)
            page.mouse.up()

    def picked() -> list[str]:
        out: list[str] = page.evaluate("window.handfoot.game.pickedTokens()")
        return out

    # A card dropped where nothing takes it goes back, and is picked by the next tap.
    start = centre(card.bounding_box(), dx=12)
    drag(start, centre(page.locator("#play-area .hand-head h2").bounding_box()))
    assert picked() == []
    assert page.locator(".drag-ghost, .drop-over").count() == 0
    card.tap() if touch else card.click()
    assert picked() == ["K"]
    card = page.locator(f"{HAND}[data-card='K']").first
    card.tap() if touch else card.click()
    assert picked() == []
    # A card of another rank dropped on the kings is refused in words and not left picked.
    other = page.evaluate("""() => { const h = window.handfoot.game.hand;
        return Object.keys(h).find(t => !['K', '2', 'JK', 'R3', 'B3'].includes(t)); }""")
    drag(centre(page.locator(f"{HAND}[data-card='{other}']").first.bounding_box(), dx=12),
         centre(meld.bounding_box()))
    assert "do not go on that meld" in page.inner_text("#message")
    assert picked() == []
    assert page.evaluate("window.handfoot.game.staged") == []
    # The king onto the kings.
    card = page.locator(f"{HAND}[data-card='K']").first
    drag(centre(card.bounding_box(), dx=12), centre(meld.bounding_box()))
    # Staged onto the meld (the engine's check beside it), nothing left picked or dragged.
    page.wait_for_selector(".stage .check.ok", timeout=10_000)
    staged = page.evaluate("window.handfoot.game.staged")
    assert staged == [{"slot": "K", "n": 1, "twos": 0, "jokers": 0}], staged
    assert page.evaluate("window.handfoot.game.pickedTokens()") == []
    assert page.locator(".drag-ghost, .drop-over").count() == 0
    # Laid down: the team's meld of kings holds four, the hand one king fewer.
    page.locator("#act-lay").tap() if touch else page.click("#act-lay")
    page.wait_for_function("() => (window.handfoot.game.view.teams[0].melds.K || [0])[0] === 4")
    assert page.evaluate("window.handfoot.game.hand.K || 0") == kings - 1
    game = server.hall.tables[table].keeper.game
    assert game.nat[0][parse_cards("K")[0]] == 4
    # The next tap on a card picks it: nothing of the drag is left to swallow it.
    other = page.locator(f"{HAND}[aria-pressed='false']").first
    other.tap() if touch else other.click()
    assert len(page.evaluate("window.handfoot.game.pickedTokens()")) == 1
    assert not errors, errors
    page.context.close()


# ---------------------------------------------------------------------- a seat's facts
def seen_taking(server: Server, table_id: str, seat: int, text: str) -> None:
    """The whole table saw ``seat`` take these cards from the pile (they are in its hand)."""
    def change(g: Any) -> None:
        for kind in parse_cards(text):
            g.stock.remove(kind)
            g.hands[seat][kind] += 1
            g.hand_n[seat] += 1
            g.known[seat][kind] += 1

    on_table(server, table_id, change)


def seat_panel(page: Page, seat: int) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("""(seat) => {
        const li = document.querySelector(`#play-area li.seat[data-seat="${seat}"]`);
        const facts = li.querySelector('.seat-facts');
        const more = li.querySelector('.seat-more');
        const box = more && more.getBoundingClientRect();
        return {expanded: li.querySelector('button.seat-tile').getAttribute('aria-expanded'),
                cut: facts.scrollHeight > facts.clientHeight + 1,
                facts: [...facts.querySelectorAll('.fact')].map(f => f.textContent),
                shown: more ? [...more.querySelectorAll('li')].map(f => f.textContent) : [],
                head: more ? more.querySelector('p').textContent : null,
                inside: !box || (box.left >= 0 && box.right <= innerWidth && box.top >= 0
                                 && box.bottom <= innerHeight),
                whole: !more || more.scrollHeight <= more.clientHeight + 1};
    }""", seat)
    return found


@pytest.mark.parametrize("viewport", ["small-phone", "phone"])
def test_a_tap_on_a_seat_shows_every_fact_of_it(
        server: Server, browser: Browser, monkeypatch: pytest.MonkeyPatch,
        viewport: str) -> None:
    pin_deal(monkeypatch, 20261207)
    page, table = bot_table(browser, server, VIEWPORTS[viewport], preset="hand-knee-foot",
                            players=6, has_touch=True, is_mobile=True, bypass_csp=True)
    errors = watch_errors(page)
    wait_my_draw(page)
    seen_taking(server, table, 1, "K K 9 Q 7 7")
    page.wait_for_function("() => window.handfoot.game.view.seats[1].known.length > 0")
    settle(page)
    before = seat_panel(page, 1)
    assert before["cut"], "the tile shows all its facts: nothing to test"
    assert before["expanded"] == "false" and before["shown"] == []
    tile = page.locator("#play-area li.seat[data-seat='1'] button.seat-tile")
    tile.tap()
    opened = seat_panel(page, 1)
    assert opened["expanded"] == "true"
    assert opened["shown"] == before["facts"], opened
    assert any("holds from the pile: 7 ×2, 9, Q, K ×2" in f for f in opened["shown"]), opened
    assert opened["inside"] and opened["whole"], opened
    name = page.evaluate("window.handfoot.game.table.seats[1].name")
    assert opened["head"] is not None and opened["head"].startswith(name)
    shot(page, f"phone-{viewport}-seat-open")
    # The tile is a button that says it is expanded, and the page has no serious violation.
    from test_web import axe

    serious = [v for v in axe(page) if v["impact"] in ("serious", "critical")]
    assert not serious, serious
    # It stays open while the table is drawn again (a move, a message).
    page.evaluate("window.handfoot.game.hooks.render()")
    assert seat_panel(page, 1)["expanded"] == "true"
    # A second tap closes it; a tap elsewhere closes it and does what it does there; Esc
    # closes it and leaves the picked cards picked.
    tile.tap()
    assert seat_panel(page, 1)["shown"] == []
    tile.tap()
    page.locator(f"{HAND}[aria-pressed='false']").first.tap()
    assert seat_panel(page, 1)["shown"] == []
    assert len(page.evaluate("window.handfoot.game.pickedTokens()")) == 1
    tile.tap()
    assert seat_panel(page, 1)["expanded"] == "true"
    page.keyboard.press("Escape")
    assert seat_panel(page, 1)["shown"] == []
    assert len(page.evaluate("window.handfoot.game.pickedTokens()")) == 1
    # Another seat's tile opens its own panel, one at a time.
    tile.tap()
    page.locator("#play-area li.seat[data-seat='2'] button.seat-tile").tap()
    assert seat_panel(page, 1)["shown"] == [] and seat_panel(page, 2)["shown"]
    assert not errors, errors
    page.context.close()
