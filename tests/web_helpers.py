"""Driving the browser table in Debian's Chromium through Playwright's driver, as a person
would: clicks or taps, or keys only.  What to play is planned with the heuristic bot on a copy
of the server's game (the test's own knowledge); the page is only ever clicked or typed at."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright

from handfoot.actions import Retract
from handfoot.bots.heuristic import HeuristicBot
from handfoot.cards import KIND_TOKENS
from handfoot.engine import Game
from handfoot.server import lobby as server_lobby
from handfoot.state import Phase
from handfoot.undo import teaches
from handfoot.views import view
from server_helpers import Server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).parent / "screenshots"

DESKTOP = {"width": 1280, "height": 800}
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}


def launch(pw: Playwright) -> Browser:
    return pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def shot(page: Page, name: str, full: bool = False) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    if full:
        # From the top, so the bar and the status line (sticky) sit where they belong.
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=full)
    return path


def watch_errors(page: Page) -> list[str]:
    """Errors the page's scripts raise (a test asserts there are none)."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


# ---------------------------------------------------------------------- the lobby
def create_table(page: Page, server: Server, name: str = "Ann", seat: int = 0,
                 hints: bool = True, pace: float = 0.0, players: int = 4,
                 house: dict[str, Any] | None = None, bots: str | None = None,
                 keep_options: bool = False) -> str:
    """Start a table from the first page, as its host, and sit at ``seat``.  House rules are
    typed into their controls.  ``keep_options``: the page is already open, options set."""
    if not keep_options:
        page.goto(f"{server.base}/")
    page.wait_for_selector("#create")
    page.wait_for_selector("#rules-status.ok")
    page.fill("#my-name", name)
    if players != 4:
        page.select_option("#players", str(players))
        page.wait_for_function(
            "() => document.querySelectorAll('#seats-choice input[type=radio]').length"
            f" === {players}")
    if house:
        page.click("details.house > summary")
        for key, value in house.items():
            control = page.locator(f"#rule-{key}")
            if isinstance(value, dict):
                for name, number in value.items():
                    box = control.locator("label").filter(
                        has=page.locator("span", has_text=re.compile(f"^{re.escape(name)}$")))
                    box.locator("input").fill(str(number))
                    box.locator("input").dispatch_event("change")
            elif isinstance(value, bool):
                control.set_checked(value)
            elif control.evaluate("e => e.tagName") == "SELECT":
                control.select_option(str(value))
            else:
                control.fill(str(value))
                control.dispatch_event("change")
            page.wait_for_selector("#rules-status.ok, #rules-status.refusal")
        page.wait_for_function("() => !document.querySelector('#rules-status.refusal')")
    if bots:
        for select in page.locator("#seats-choice select").all():
            select.select_option(bots)
    page.check(f"#seats-choice input[value='{seat}']")
    page.set_checked("#opt-hints", hints)
    page.fill("#opt-pace", str(pace))
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("li.lobby-seat.me")
    return page.url.rsplit("/", 1)[1]


def join_table(page: Page, invite: str, name: str, seat: int) -> None:
    page.goto(invite)
    page.wait_for_selector(f"button[data-sit='{seat}']")
    page.fill("#join-name", name)
    page.click(f"button[data-sit='{seat}']")
    page.wait_for_selector("li.lobby-seat.me")


def start(page: Page) -> None:
    page.click("#start")
    page.wait_for_selector(".game")


def pin_deal(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Games the server starts during this test are dealt from ``seed`` (it draws a seed at
    random otherwise), so a test that needs a particular course of play gets it every run; the
    server's bots are seeded from it too."""
    monkeypatch.setattr(server_lobby, "secrets", SimpleNamespace(randbelow=lambda _n: seed))


# ---------------------------------------------------------------------- reading the page
def game_state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("""() => {
        const g = window.handfoot.game;
        return {version: g.conn.version, legal: g.legal, phase: g.view && g.view.phase,
                seat: g.seat, busy: g.busy,
                dialog: (document.querySelector('dialog[open]') || {}).id || null};
    }""")
    return state


def wait_my_turn_or_dialog(page: Page, after: int | None, timeout: float = 20.0) -> dict[str, Any]:
    """Until the page shows a dialog, the game's end, or this seat's move at a version later
    than ``after``."""
    page.wait_for_function("""(after) => {
        const g = window.handfoot && window.handfoot.game;
        if (!g || !g.view) return false;
        if (document.querySelector('dialog[open]')) return true;
        if (g.view.phase === 'game-over') return true;
        return g.legal.length > 0 && !g.busy && (after === null || g.conn.version !== after);
    }""", arg=after, timeout=timeout * 1000)
    return game_state(page)


def dom_hand(page: Page) -> list[str]:
    # A big hand on a small screen shows equal cards as one stack with its count.
    cards: list[str] = page.eval_on_selector_all(
        "#play-area .hand button.card",
        "els => els.flatMap(e => Array(Number(e.dataset.count || 1)).fill(e.dataset.card))")
    return sorted(cards)


def real_hand(server: Server, table: str, seat: int) -> list[str]:
    g = server.hall.tables[table].keeper.game
    return sorted(KIND_TOKENS[k] for k, n in enumerate(g.hands[seat]) for _ in range(n))


def check_nothing_hidden(page: Page, server: Server, table: str, seat: int | None) -> None:
    """From the page's own DOM: the only cards shown as a hand are this seat's own, exactly;
    no other seat's panel shows a card; a spectator sees no hand at all."""
    if seat is not None:
        assert dom_hand(page) == real_hand(server, table, seat)
    else:
        assert page.locator("#play-area .hand button.card").count() == 0
    in_hand = page.locator("#play-area .hand button.card").count()
    assert page.locator("button.card").count() == in_hand
    assert page.locator(".seat .card").count() == 0
    # Cards another seat holds are never named in its panel, except those the whole table
    # watched it take from the pile ("holds from the pile").
    for fact in page.locator(".seat .seat-facts .fact").all_inner_texts():
        assert re.fullmatch(r"\d+ cards? in \w+( \d)?|then .*|last packet|red 3s: \d+|knee due"
                            r"|holds from the pile: .*", fact.strip()), fact
    assert page.locator(".seat .seat-facts > :not(.fact)").count() == 0


# ---------------------------------------------------------------------- planning
def plan(server: Server, table: str, seat: int, bot: HeuristicBot) -> list[str]:
    """What the heuristic would do from here, up to the first step that teaches something or
    ends the move, planned on a copy of the server's game (the server waits for this seat)."""
    return plan_game(server.hall.tables[table].keeper.game, seat, bot)


def plan_game(game: Game, seat: int, bot: HeuristicBot) -> list[str]:
    """The steps of :func:`plan`, as the page can send them.  The page lays down only whole
    openings (a lay-down is checked as a whole against the minimum, 6.1), so where the bot
    melds toward an opening and then takes it back (6.3), as after taking the pile with a pair
    it cannot build on, a person takes it back at once: the melds that would come back to the
    hand are left out, and so is the taking back itself when the opening was begun by those
    melds alone (the page has nothing to take back then; the turn goes on as after it)."""
    g = game.clone()
    short_before = g.phase is Phase.PILE_OPENING or (
        g.staged > 0 and not g.opened[g.team_of(seat)])
    out: list[str] = []
    while g.actor == seat and not g.over:
        action = bot.choose(view(g, seat), g.legal_actions())
        events = g.apply(action)
        if isinstance(action, Retract):
            while out and out[-1].startswith(("meld ", "add ")):
                out.pop()
            if short_before:
                out.append(action.text)
        else:
            out.append(action.text)
        if teaches(action, events) or g.actor != seat:
            break
    return out


def next_unit(steps: list[str]) -> list[str]:
    """The steps to do at once: consecutive melds and additions as one lay-down (a new meld of
    a rank whose canasta closed earlier in it included: the page stages it as a meld of its
    own), or one action."""
    if not steps:
        return []
    if steps[0].startswith(("meld ", "add ")):
        unit: list[str] = []
        for s in steps:
            if not s.startswith(("meld ", "add ")):
                break
            unit.append(s)
        return unit
    return steps[:1]


def parts_of(steps: list[str]) -> list[tuple[str | None, list[str]]]:
    """Each meld step as (the meld named, or None) and its cards."""
    out = []
    for s in steps:
        rest = s.split(" ", 1)[1]
        head, sep, tail = rest.partition(":")
        if sep:
            out.append((head.strip(), tail.split()))
        else:
            out.append((None, rest.split()))
    return out


KEY_OF = {"10": "0", "JK": "w", "R3": "3", "B3": "3"}


def card_key(token: str) -> str:
    return KEY_OF.get(token, token.lower())


class Player:
    """One seat's person: does a unit of play by clicks (or taps) or by keys only."""

    def __init__(self, page: Page, server: Server, table: str, seat: int, keys: bool = False,
                 tap: bool = False) -> None:
        self.page, self.server, self.table, self.seat = page, server, table, seat
        self.keys, self.tap = keys, tap
        self.bot = HeuristicBot(seed=seat + 7)
        self.version: int | None = None
        self.moves = 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def click(self, selector: str) -> None:
        target = self.page.locator(selector).first
        if self.tap:
            target.tap()
        else:
            target.click()

    def pick(self, token: str) -> None:
        held = "(t) => window.handfoot.game.picked[t] || 0"
        before = self.page.evaluate(held, token)
        if self.keys:
            self.press(card_key(token))
        else:
            self.click(f"#play-area .hand button.card[data-card='{token}'][aria-pressed='false']")
        # The pick is the page's at once: a tap that a redraw swallowed fails here, by name.
        self.page.wait_for_function(f"([t, n]) => ({held})(t) > n", arg=[token, before],
                                    timeout=5000)

    def stage(self, slot: str | None, cards: list[str]) -> None:
        for token in cards:
            self.pick(token)
        wild_only = all(t in ("2", "JK") for t in cards)
        if self.keys:
            self.press("m")
            if wild_only:
                self.press("w" if slot in (None, "wild") else card_key(slot or ""))
        else:
            self.click("#act-meld")
            if wild_only:
                self.click(f"button.target[data-target='{slot or 'wild'}']")

    def act(self, text: str) -> None:
        """One action by the page's controls."""
        k = self.keys
        if text in ("draw", "stop"):
            self.press("s") if k else self.click("#act-draw")
        elif text.startswith("take-pile"):
            if " with " in text:
                self.pick(text.rsplit(" ", 1)[1])
            self.press("p") if k else self.click("#act-take")
        elif text.startswith("discard "):
            token = text.split(" ", 1)[1]
            if k:
                self.press("d")
                self.press(card_key(token))
            else:
                self.pick(token)
                self.click("#act-discard")
        elif text == "knock":
            self.press("n") if k else self.click("#act-knock")
        elif text == "ask":
            self.press("g") if k else self.click("#act-ask")
        elif text == "retract":
            self.press("r") if k else self.click("#act-retract")
        elif text.startswith("answer "):
            yes = text.endswith("yes")
            if k:
                self.press("y" if yes else "n")
            else:
                self.click("#answer-yes" if yes else "#answer-no")
        else:
            raise AssertionError(f"no control for {text!r}")

    def lay(self, steps: list[str]) -> None:
        for slot, cards in parts_of(steps):
            self.stage(slot, cards)
        self.page.wait_for_selector(".stage .check.ok, .stage .check.no", timeout=10000)
        if self.keys:
            self.press("Enter")
        else:
            self.click("#act-lay")

    def play_unit(self) -> list[str]:
        """Plan from the server's game, then do the next unit through the page; wait until
        the table has moved on."""
        before = game_state(self.page)["version"]
        if game_state(self.page)["phase"] == "answer":
            unit = ["answer yes"]
        else:
            unit = next_unit(plan(self.server, self.table, self.seat, self.bot))
        assert unit, "the seat is to move but the plan is empty"
        if unit[0].startswith(("meld ", "add ")):
            self.lay(unit)
        else:
            self.act(unit[0])
        self.moves += 1
        # Applied (the version moves on) or refused (a reason on the page): never silence.
        # A minute, not 20 s: on a loaded machine (two cores shared with a CI run) a move with
        # the bots' replies behind it took longer than that, though it takes ~1 s when quiet.
        self.page.wait_for_function(
            """(before) => { const g = window.handfoot.game;
                return (g.conn.version !== before && !g.busy) || g.refusal ||
                       /Refused/.test(document.getElementById('message').textContent); }""",
            arg=before, timeout=60_000)
        refusal = self.page.locator(".stage .refusal, #message").all_inner_texts()
        seed = self.server.hall.tables[self.table].keeper.game.seed
        assert not any("Refused" in r for r in refusal), (unit, refusal, f"deal seed {seed}")
        self.version = game_state(self.page)["version"]
        return unit


def play_until(player: Player, done: Callable[[dict[str, Any]], bool],
               on_move: Callable[[Player], None] | None = None,
               on_dialog: Callable[[Player, str], None] | None = None,
               timeout: float = 300.0) -> dict[str, Any]:
    """Play this seat through the page until ``done(state)``."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the game did not finish in time"
        state = wait_my_turn_or_dialog(player.page, None)
        if done(state):
            return state
        if state["dialog"]:
            if on_dialog is not None:
                on_dialog(player, state["dialog"])
            if state["dialog"] == "final-dialog":
                return state
            if state["dialog"] == "ask-dialog":
                player.play_unit()
                continue
            close_dialog(player)
            continue
        if state["phase"] == "game-over":
            return state
        if on_move is not None:
            on_move(player)
        player.play_unit()


def close_dialog(player: Player) -> None:
    page = player.page
    dialog_id = game_state(page)["dialog"]
    if player.keys:
        page.keyboard.press("Escape")
    else:
        page.locator(f"#{dialog_id} .dialog-buttons button").last.click()
    page.wait_for_function("(id) => !document.getElementById(id)", arg=dialog_id)
