"""``handfoot play`` driven by keystrokes through Textual's pilot.

A heuristic bot decides the person's moves from the person's view; the test turns each decision
into the keys a person would press and checks the screen against the engine's state.  Snapshot
texts live in tests/snapshots/ (regenerate with UPDATE_SNAPSHOTS=1).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot

from handfoot.actions import (
    Action,
    Add,
    Answer,
    Ask,
    Discard,
    Draw,
    Knock,
    Retract,
    Start,
    Stop,
    TakePile,
)
from handfoot.bots.heuristic import HeuristicBot
from handfoot.cards import (
    ACE,
    BLACK_THREE,
    EIGHT,
    FIVE,
    FOUR,
    JACK,
    JOKER,
    KIND_TOKENS,
    KING,
    NINE,
    QUEEN,
    RED_THREE,
    SEVEN,
    SIX,
    TEN,
    TWO,
    WILD_SLOT,
    slot_token,
)
from handfoot.cli.main import main
from handfoot.events import Refusal
from handfoot.presets import preset
from handfoot.record import Record, RoundRecord, load_record, replay
from handfoot.state import Phase
from handfoot.tui import render
from handfoot.tui.app import PlayApp, ResultScreen, screen_text
from handfoot.tui.session import Session
from handfoot.views import view

SNAPSHOTS = Path(__file__).parent / "snapshots"

KEY = {FOUR: "4", FIVE: "5", SIX: "6", SEVEN: "7", EIGHT: "8", NINE: "9", TEN: "0",
       JACK: "j", QUEEN: "q", KING: "k", ACE: "a", TWO: "2", JOKER: "w",
       BLACK_THREE: "3", RED_THREE: "3"}


def run(app: PlayApp, size: tuple[int, int],
        body: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(go())


def session(seed: int = 11, save: Path | None = None, name: str = "hand-and-foot",
            players: int | None = None) -> Session:
    return Session.new(preset(name, players), seed, ["heuristic"], save_path=save)


# ---------------------------------------------------------------------- keys for a decision
def part_keys(slot: int, n: int, twos: int, jokers: int) -> list[str]:
    keys = [KEY[slot]] * (n if slot != WILD_SLOT else 0) + ["2"] * twos + ["w"] * jokers
    keys.append("m")
    if not n:
        keys.append("w" if slot == WILD_SLOT else KEY[slot])  # name the meld for wild cards
    return keys


def step_keys(step: Start | Add) -> list[str]:
    """The keys that stage one meld step: its cards, then m (and the meld's key for wild cards
    alone)."""
    if isinstance(step, Start):
        return part_keys(step.slot, step.naturals, step.twos, step.jokers)
    k = step.kind
    return part_keys(step.slot, int(k == step.slot and k < TWO), int(k == TWO), int(k == JOKER))


def meld_run(s: Session, bot: HeuristicBot, first: Action) -> list[Start | Add]:
    """The bot's melds in a row from here, tried on a copy: laid as one lay-down."""
    trial = s.game.clone()
    steps: list[Start | Add] = []
    action = first
    while isinstance(action, Start | Add):
        trial.apply(action)
        steps.append(action)
        if trial.actor != s.human or trial.over:
            break
        action = bot.choose(view(trial, s.human), trial.legal_actions())
    return steps


def action_keys(action: Action) -> list[str] | None:
    """The keys for an action that is not a meld (None for a meld: its cards are staged)."""
    if isinstance(action, Draw | Stop):
        return ["s"]
    if isinstance(action, TakePile):
        return ([KEY[action.wild]] if action.wild >= 0 else []) + ["p"]
    if isinstance(action, Discard):
        return ["d", KEY[action.kind]]
    if isinstance(action, Knock):
        return ["n"]
    if isinstance(action, Retract):
        return ["r"]
    if isinstance(action, Ask):
        return ["g"]
    if isinstance(action, Answer):
        return ["y" if action.yes else "n"]
    return None


def keys_for(s: Session, bot: HeuristicBot, action: Action) -> list[str]:
    simple = action_keys(action)
    if simple is not None:
        return simple
    keys: list[str] = []
    for step in meld_run(s, bot, action):
        keys += step_keys(step)
    return [*keys, "enter"]


async def press(pilot: Pilot[None], *keys: str) -> None:
    """Keystrokes as the terminal driver delivers them, without the pilot's idle wait after
    each one (a whole game is hundreds of keys); one wait at the end."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        char = key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)
    await pilot.pause()


def moves(s: Session) -> int:
    return len(s.game.history or [])


def numbers(text: str, pattern: str) -> list[int]:
    return [int(x) for x in re.findall(pattern, text)]


async def play_by_keys(app: PlayApp, pilot: Pilot[None], until: Callable[[], bool],
                       checks: Callable[[str], None] | None = None) -> dict[str, int]:
    """Play the person's seat by keystrokes until ``until()``; count what happened."""
    s = app.session
    bot = HeuristicBot(seed=3)
    seen = {"turns": 0, "refused": 0, "results": 0, "answers": 0}
    for _ in range(20_000):
        if until():
            return seen
        if isinstance(app.screen, ResultScreen):
            seen["results"] += 1
            await press(pilot, "enter")
            continue
        if not s.human_to_act:
            await pilot.pause(0.02)
            continue
        if checks is not None:
            checks(screen_text(app))
        action = bot.choose(s.view(), s.game.legal_actions())
        if isinstance(action, Answer):
            seen["answers"] += 1
        before = moves(s)
        await press(pilot, *keys_for(s, bot, action))
        seen["turns"] += 1
        if moves(s) == before and not isinstance(app.screen, ResultScreen):
            # The lay-down was refused (an opening the bot would have built in steps): clear
            # it and take the bot's best move that is not a meld.
            seen["refused"] += 1
            assert "Not allowed" in screen_text(app)
            await press(pilot, "escape", "escape", "escape")
            others = [a for a in bot.rank(s.view(), s.game.legal_actions())
                      if not isinstance(a, Start | Add)]
            await press(pilot, *keys_for(s, bot, others[0]))
            assert moves(s) > before, screen_text(app)
    raise AssertionError("the game did not progress")


def check_screen(app: PlayApp) -> Callable[[str], None]:
    """The screen shows what a player needs, as the engine has it: whose turn, every seat's
    packet and card count, every team's score and opening, every meld (or says there are
    more), the stock and the pile, the quota and the person's cards."""
    def check(text: str) -> None:
        s = app.session
        v = s.view()
        assert "Terminal too small" not in text
        n = sum(v.hand)
        assert f"Your {v.rules.packet_names[v.packet_no]}: {n} card" in text
        assert f"Stock {v.stock_size}" in text
        assert (f"Pile {len(v.pile)}," in text) if v.pile else ("Pile empty" in text)
        if v.pile:
            assert re.search(r"(open to you|closed to you|blocked|at your draw):", text), text
        for seat, info in enumerate(v.seats):
            name = re.escape(s.names[seat])
            packet = v.rules.packet_names[info.packet_no]
            assert re.search(rf"{name}\s+{info.hand_n} in {packet}\b", text), (name, text)
        assert "Score" in text and "Opening" in text and "To go out:" in text
        cut = "cut at the line's end: t shows all" in text  # one line a team, melds cut
        for team in range(v.rules.teams):
            label = re.escape(render.team_name(s, team))
            info = v.teams[team]
            opening = "open" if info.opened else f"needs {info.minimum}"
            assert re.search(rf"{label}\s+{v.totals[team]}\s+{opening}", text), text
            for slot, (nat, tw, j) in enumerate(info.melds):
                if nat + tw + j and not cut:
                    token = f"wild:{tw + j}" if slot == WILD_SLOT else \
                        f"{slot_token(slot)}:{nat}" + (f"+{tw + j}" if tw + j else "")
                    assert token in text, (token, text)
        assert "Your turn" in text or "asks you: may I go out?" in text
        assert all(len(line) <= app.size.width for line in text.splitlines())
    return check


# ---------------------------------------------------------------------- whole games
@pytest.mark.slow
def test_a_full_game_at_80x24_by_keystrokes(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    s = session(seed=5, save=save)
    app = PlayApp(s, pace=0)
    counts: dict[str, int] = {}

    async def body(pilot: Pilot[None]) -> None:
        nonlocal counts
        counts = await play_by_keys(app, pilot, lambda: s.game.over
                                    and not isinstance(app.screen, ResultScreen),
                                    check_screen(app))
        text = screen_text(app)
        assert "Game over" in text
        assert "win" in text or "tie" in text
        totals = [str(t) for t in s.game.totals]
        for total in totals:
            assert total in text  # the scores panel

    run(app, (80, 24), body)
    assert s.game.over and len(s.game.results) == s.rules.rounds
    assert counts["results"] == s.rules.rounds
    assert counts["turns"] > 40
    # The saved record replays to the same result, through the command line too.
    record = load_record(save.read_text(encoding="utf-8"))
    result = replay(record)
    assert result.ok and result.totals == s.game.totals
    assert main(["replay", "--quiet", str(save)]) == 0


def check_result(s: Session, text: str, index: int) -> None:
    """The score screen shows every line of the engine's breakdown in its team's column."""
    result = s.game.results[index]
    order = [0] + [t for t in range(s.rules.teams) if t != 0]  # the person's team first
    for column, team in enumerate(order):
        for score in result.teams[team].lines:
            label, points = score.label, score.points
            base, _, count = label.rpartition(" x")
            if not base or not count.isdigit():
                base, count = label, ""
            cell = f"{count} = {points}" if count else str(points)
            line = next((x for x in text.splitlines() if re.search(
                rf"(^|│) ?{re.escape(base)}\s", x)), None)
            assert line is not None, (base, text)
            cells = re.split(r"\s{2,}", line.split(base, 1)[1].strip(" │"))
            cells = [c.strip() for c in cells if c.strip()]
            assert cells[column] == cell, (label, line)
        total = result.teams[team].total
        line = next(x for x in text.splitlines() if "round total" in x)
        assert re.split(r"\s{2,}", line.split("round total", 1)[1].strip(" │"))[column] \
            == str(total), line


@pytest.mark.slow  # a whole round on screen: the full run has it, a development run need not
def test_a_round_on_a_large_screen_and_its_score_screen() -> None:
    s = session(seed=21, name="hand-knee-foot")
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        await play_by_keys(app, pilot, lambda: isinstance(app.screen, ResultScreen),
                           check_screen(app))
        text = screen_text(app)
        result = s.game.results[0]
        assert f"Round {result.round} over" in text
        check_result(s, text, 0)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        # The scores panel shows the running totals, the log the round's end.
        for total in s.game.totals:
            assert str(total) in text
        assert "Round 2" in text

    run(app, (120, 40), body)


# ---------------------------------------------------------------------- snapshots
def snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    text = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_snapshot_of_the_opening_screen(size: tuple[int, int]) -> None:
    s = session(seed=7)
    app = PlayApp(s, pace=60)  # the bots wait: the deal as dealt

    async def body(pilot: Pilot[None]) -> None:
        snapshot(f"play-start-{size[0]}x{size[1]}.txt", screen_text(app))

    run(app, size, body)


# Recorded games the snapshots replay: the first round of each, played by heuristic bots (the
# person's seat too), and the next round dealt.  Stored, so the bots' future changes leave the
# screens alone; written when missing.
GAMES = {"hf4": ("hand-and-foot", 4, 3), "hf6": ("hand-and-foot", 6, 4),
         "knee4": ("hand-knee-foot", 4, 3)}


def recorded_game(key: str) -> Record:
    path = SNAPSHOTS / "games" / f"{key}.json"
    if not path.exists():
        name, players, seed = GAMES[key]
        s = Session.new(preset(name, players), seed, ["heuristic"], save_path=path)
        bot = HeuristicBot(seed=2)
        while not s.game.results:
            if s.human_to_act:
                s.act(bot.choose(s.view(), s.game.legal_actions()))
            else:
                s.bot_step()
        s.save()
    return load_record(path.read_text(encoding="utf-8"))


def cut(record: Record, moves: int) -> Record:
    """The record's first round up to its first ``moves`` moves, unfinished."""
    first = record.rounds[0]
    return Record(record.rules, record.seats,
                  [RoundRecord(first.round, first.deal, first.actions[:moves])],
                  seed=record.seed, first_dealer=record.first_dealer,
                  first_round=record.first_round, description=record.description)


def late_in_the_round(record: Record) -> Record:
    """Just after the person's last draw of the first round: the most on the table."""
    actions = record.rounds[0].actions
    last = max(i for i, (seat, a) in enumerate(actions)
               if seat == 0 and isinstance(a, Draw | TakePile))
    return cut(record, last + 1)


# Each snapshot game is in the full run; a development run checks one late in a round and
# another at its end.
@pytest.mark.parametrize("key", [k if k == "hf4" else pytest.param(k, marks=pytest.mark.slow)
                                 for k in GAMES])
def test_snapshot_late_in_a_round_at_80x24(key: str) -> None:
    record = late_in_the_round(recorded_game(key))
    s = Session.resume(record)
    app = PlayApp(s, pace=60)

    async def body(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        check_screen(app)(text)
        snapshot(f"play-{key}-late-80x24.txt", text)

    run(app, (80, 24), body)


@pytest.mark.parametrize("key", [k if k == "knee4" else pytest.param(k, marks=pytest.mark.slow)
                                 for k in GAMES])
def test_snapshot_of_the_round_end_at_80x24(key: str) -> None:
    # Resumed after the round's last move: its score screen is shown again.
    s = Session.resume(recorded_game(key))
    app = PlayApp(s, pace=60)

    async def body(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, ResultScreen)
        text = screen_text(app)
        check_result(s, text, 0)
        assert "Enter: continue" in text  # on the frame: never scrolled out of sight
        assert all(len(line) <= 80 for line in text.splitlines())
        snapshot(f"play-{key}-round-end-80x24.txt", text)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ResultScreen)
        text = screen_text(app)
        assert "Round 2/4" in text
        for team in range(s.rules.teams):  # the scores with their labels
            label = re.escape(render.team_name(s, team))
            assert re.search(rf"{label}\s+{s.game.totals[team]}\s", text), text

    run(app, (80, 24), body)


def late_session(name: str, players: int, seed: int) -> Session:
    """A game played by bots (the person's seat too) up to the person's last draw of the first
    round: the most melds on the table."""
    def play(until: int | None) -> tuple[Session, int]:
        s = session(seed=seed, name=name, players=players)
        bot = HeuristicBot(seed=2)
        last = 0
        while not s.game.results and moves(s) != until:
            if s.human_to_act:
                action = bot.choose(s.view(), s.game.legal_actions())
                s.act(action)
                if isinstance(action, Draw | TakePile):
                    last = moves(s)
            else:
                s.bot_step()
        return s, last

    return play(play(None)[1])[0]


# The fewest and the most seats in the development run; the full run fits every one.
@pytest.mark.parametrize(("name", "players"), [
    ("hand-and-foot", 2), pytest.param("hand-and-foot", 3, marks=pytest.mark.slow),
    pytest.param("hand-knee-foot", 5, marks=pytest.mark.slow), ("hand-knee-foot", 6)])
def test_every_table_fits_80x24(name: str, players: int) -> None:
    s = late_session(name, players, seed=5)
    app = PlayApp(s, pace=60)

    async def body(pilot: Pilot[None]) -> None:
        check_screen(app)(screen_text(app))
        # A long refusal and staged melds take lines: everything needed still shows.
        hand = s.view().hand
        rank = max(range(11), key=lambda r: hand[r])
        await pilot.press(KEY[rank], "m")
        await pilot.pause()
        app._refused(Refusal("4.3", "a reason long enough to take two lines of the message "
                             "area, as the engine's reasons sometimes are, with its rule"))
        await pilot.pause()
        text = screen_text(app)
        check_screen(app)(text)
        assert "To lay:" in text and "Not allowed" in text

    run(app, (80, 24), body)


def test_a_small_terminal_says_so() -> None:
    s = Session.resume(late_in_the_round(recorded_game("hf6")))
    app = PlayApp(s, pace=60)

    async def body(pilot: Pilot[None]) -> None:
        assert "Terminal too small" not in screen_text(app)
        await pilot.resize_terminal(80, 15)
        await pilot.pause()
        text = screen_text(app)
        assert "Terminal too small" in text and "80x15" in text
        assert "Stock" not in text  # nothing half shown
        await pilot.resize_terminal(50, 30)
        await pilot.pause()
        assert "Terminal too small" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        check_screen(app)(screen_text(app))

    run(app, (80, 24), body)


# ---------------------------------------------------------------------- the person's keys
async def to_my_meld_phase(app: PlayApp, pilot: Pilot[None]) -> None:
    s = app.session
    for _ in range(500):
        if s.human_to_act:
            break
        await pilot.pause(0.02)
    await pilot.press("s")
    await pilot.pause()
    assert s.game.phase is Phase.MELD and s.human_to_act


def test_a_refused_lay_down_shows_the_engines_reason_and_clause() -> None:
    s = session(seed=7)
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        await to_my_meld_phase(app, pilot)
        hand = s.view().hand
        rank = max(range(11), key=lambda r: hand[r])
        # Two cards alone make no new meld.
        count = min(hand[rank], 2)
        before = moves(s)
        await pilot.press(*[KEY[rank]] * count, "m", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Not allowed" in text and "rule " in text
        assert s.view().hand == hand and moves(s) == before  # nothing was laid
        assert "To lay:" in text  # the staged cards stay for the person to fix

    run(app, (100, 30), body)


def test_hint_undo_and_picking() -> None:
    s = session(seed=7)
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        await to_my_meld_phase(app, pilot)
        await pilot.press("h")
        await pilot.pause()
        assert "the strong bot would" in screen_text(app)  # a model fits the table
        # Undo after drawing is refused: the draw brought new cards.
        await pilot.press("u")
        await pilot.pause()
        assert "Nothing to undo" in screen_text(app)
        hand = s.view().hand
        rank = max(range(11), key=lambda r: hand[r])
        await pilot.press(KEY[rank])
        await pilot.pause()
        assert f"Picked: {['4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'][rank]}" \
            in screen_text(app)
        await pilot.press("backspace")
        await pilot.pause()
        assert "Picked:" not in screen_text(app) and not any(s.picked)

    run(app, (100, 30), body)


def test_undo_takes_back_a_lay_down_within_the_turn() -> None:
    # Find a seed where the person can open on their first turn, then lay and undo.
    bot = HeuristicBot(seed=1)
    for seed in range(1, 60):
        s = session(seed=seed)
        while not s.human_to_act:
            s.bot_step()
        s.act(Draw())
        best = bot.choose(s.view(), s.game.legal_actions())
        if isinstance(best, Start | Add):
            steps = [best]
            break
    else:
        pytest.skip("no seed opens at once")
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        hand = s.view().hand
        keys = keys_for(s, bot, steps[0])
        before_moves = moves(s)
        opened = list(s.game.opened)
        await pilot.press(*keys)
        await pilot.pause()
        if moves(s) == before_moves:
            pytest.skip("the bot's opening is built in steps")
        assert s.view().hand != hand
        await pilot.press("u")
        await pilot.pause()
        assert s.view().hand == hand and s.game.opened == opened
        assert moves(s) == before_moves
        assert "Undone" in screen_text(app)

    run(app, (100, 30), body)


def test_resume_carries_on_a_saved_game(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    s = session(seed=9, save=save)
    for _ in range(40):
        if s.human_to_act:
            s.act(HeuristicBot(seed=2).choose(s.view(), s.game.legal_actions()))
        else:
            s.bot_step()
    s.save()
    again = Session.resume(load_record(save.read_text(encoding="utf-8")), save)
    assert view(again.game, 0) == view(s.game, 0)
    assert again.human == 0 and sorted(again.bots) == [1, 2, 3]
    # The log picks up the round so far: the last discard before saving is in it.
    last_discard = next(line for line in reversed(s.log.lines) if "discard" in line)
    assert last_discard in again.log.lines
    assert again.log.lines[-1].startswith("resumed after")


# ---------------------------------------------------------------------- the mouse
def where(app: PlayApp, text: str, line_start: str = "") -> tuple[int, int]:
    """Screen column and row of ``text`` on the first line that starts with ``line_start``."""
    for row, line in enumerate(screen_text(app).splitlines()):
        if line.startswith(line_start) and text in line:
            return line.index(text), row
    raise AssertionError(f"{text!r} not on screen:\n{screen_text(app)}")


async def click(pilot: Pilot[None], app: PlayApp, text: str, line_start: str = "") -> None:
    x, y = where(app, text, line_start)
    await pilot.click(offset=(x, y))
    await pilot.pause()


def test_the_mouse_picks_cards_and_puts_them_on_a_meld() -> None:
    # Late in the hand-and-foot game: the person holds 6 6 2 2; their team has 8:4+1.
    s = Session.resume(late_in_the_round(recorded_game("hf4")))
    app = PlayApp(s, pace=60)
    hand = s.view().hand
    meld = s.view().teams[0].melds[EIGHT]
    assert hand[SIX] == 2 and hand[TWO] == 2 and meld[0] == 4 and sum(meld[1:]) == 1

    async def body(pilot: Pilot[None]) -> None:
        await click(pilot, app, "6×2", "6×2")  # a card of the hand: picked
        assert s.picked[SIX] == 1
        await click(pilot, app, "6", "Picked:")  # a picked card: put back
        assert s.picked[SIX] == 0
        await click(pilot, app, "2×2", "6×2")
        await click(pilot, app, "8:4+1", "  Us")  # a meld of the team: the card goes on it
        assert [(p.slot, p.naturals, p.twos, p.jokers) for p in s.staged] == [(EIGHT, 0, 1, 0)]
        assert "To lay: 8: 2" in screen_text(app)
        await click(pilot, app, "8:4+1", "  Us")  # with nothing picked: says what to do
        assert "Pick cards first" in screen_text(app)
        # Enter lays it down, as the keys do.
        await pilot.press("enter")
        await pilot.pause()
        assert s.view().teams[0].melds[EIGHT] == (meld[0], meld[1] + 1, meld[2])

    run(app, (80, 24), body)


def test_the_mouse_draws_and_takes_the_pile() -> None:
    record = recorded_game("hf4")
    actions = record.rounds[0].actions
    # Just before the person's first draw, and just before their take of the pile.
    first = next(i for i, (seat, a) in enumerate(actions) if seat == 0 and isinstance(a, Draw))
    s = Session.resume(cut(record, first))
    app = PlayApp(s, pace=60)

    async def body(pilot: Pilot[None]) -> None:
        assert "Your turn: draw" in screen_text(app)
        size = sum(s.view().hand)
        await click(pilot, app, "Stock", "Stock")
        assert s.view().phase == "meld" and sum(s.view().hand) == size + 2

    run(app, (80, 24), body)
    record = recorded_game("hf6")  # where the person took the pile once
    actions = record.rounds[0].actions
    takes = [i for i, (seat, a) in enumerate(actions) if seat == 0 and isinstance(a, TakePile)]
    s = Session.resume(cut(record, takes[0]))
    app = PlayApp(s, pace=60)

    async def take(pilot: Pilot[None]) -> None:
        assert "open to you" in screen_text(app)
        before = len(s.view().pile)
        await click(pilot, app, "Pile", "Stock")
        assert s.view().took_pile and len(s.view().pile) < before

    run(app, (80, 24), take)


def test_a_new_game_after_the_game_ends(tmp_path: Path) -> None:
    from handfoot.cli.play import next_game

    s = session(seed=6, players=2)
    bot = HeuristicBot(seed=2)
    while not s.game.over:
        if s.human_to_act:
            s.act(bot.choose(s.view(), s.game.legal_actions()))
        else:
            s.bot_step()
    s.shown_results = len(s.game.results)
    s.save_path = tmp_path / "first.json"
    app = PlayApp(s, pace=60, new_game=next_game)

    async def body(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert "Game over" in text and "n: new game" in text
        await click(pilot, app, "n new game")  # the key hint, clicked
        fresh = app.session
        assert fresh is not s and not fresh.game.over and fresh.game.round_no == 1
        assert fresh.rules == s.rules and fresh.bot_specs == s.bot_specs
        assert fresh.save_path is not None and fresh.save_path.parent == tmp_path
        assert "Round 1/4" in screen_text(app)

    run(app, (80, 24), body)
    assert load_record((tmp_path / "first.json").read_text(encoding="utf-8")).ended


def test_the_last_move_of_each_other_seat_is_shown() -> None:
    s = Session.resume(late_in_the_round(recorded_game("hf6")))
    app = PlayApp(s, pace=60)

    async def body(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        for seat in range(1, s.rules.players):
            row = next(line for line in text.splitlines() if line[2:].startswith(s.names[seat]))
            moves = s.last_move(seat)
            assert moves, seat
            assert moves[0][:20] in row, (moves, row)

    run(app, (80, 24), body)


def test_the_person_asking_sees_what_the_answer_means() -> None:
    # Under a binding yes the engine lets a player ask only when they can go out (8.5.4):
    # seed 1 gets the person there in the first two rounds.
    s = session(seed=1, name="hand-and-foot-classic")
    bot = HeuristicBot(seed=1)
    for _ in range(20000):  # until the engine lets the person ask
        if s.game.over or (s.human_to_act and any(isinstance(a, Ask) for a in s.legal())):
            break
        if s.human_to_act:
            s.act(bot.choose(s.view(), s.game.legal_actions()))
        else:
            s.bot_step()
    assert not s.game.over, "the person never could ask"
    s.act(Ask())
    partner = s.names[s.game.actor]
    top = " ".join(render.status_lines(s, 200))
    assert f"You ask {partner} “may I go out?”…" in top
    s.bot_step()  # the partner answers
    assert s.question is not None and s.question[2] is not None
    top = " ".join(render.status_lines(s, 200))
    if s.question[2]:
        assert f"You asked {partner} “may I go out?”: yes: go out this turn (rule 8.5.3)" in top
    else:
        assert f"You asked {partner} “may I go out?”: no: not this turn (rule 8.5.2)" in top


def test_a_question_between_bots_is_shown_to_everyone() -> None:
    s = session(seed=1, name="hand-and-foot-classic")
    bot = HeuristicBot(seed=1)
    for _ in range(20000):
        if s.game.over or (s.question is not None and s.question[0] != 0
                           and s.question[1] != 0):
            break
        if s.human_to_act:
            s.act(bot.choose(s.view(), s.game.legal_actions()))
        else:
            s.bot_step()
    assert s.question is not None, "no bot asked"
    asker, asked, answer = s.question
    assert answer is None  # asked, not yet answered
    top = " ".join(render.status_lines(s, 80))
    assert f"{s.names[asker]} asks {s.names[asked]} “may I go out?”…" in top
    s.bot_step()
    assert s.question[2] is not None
    said = "yes" if s.question[2] else "no"
    top = " ".join(render.status_lines(s, 80))
    assert f"{s.names[asker]} asked {s.names[asked]} “may I go out?”: {said}" in top
    assert any(s.names[asker] in line and "may I go out?" in line for line in s.log.lines)


@pytest.mark.parametrize(("name", "seed"), [("hand-and-foot", 8), ("hand-knee-foot", 4)])
def test_the_words_on_the_table_follow_the_engine(name: str, seed: int) -> None:
    # Through a whole round, move by move: "open to you" exactly when the engine lets the
    # person take the pile; a knee due is explained; melds other seats changed are marked.
    s = session(seed=seed, name=name)
    bot = HeuristicBot(seed=4)
    seen = {"open": 0, "knee": 0, "recent": 0}
    while not s.game.results:
        table = " ".join(render.table_lines(s, 80))
        takes = s.human_to_act and any(isinstance(a, TakePile) for a in s.legal())
        assert ("open to you" in table) == takes, table
        seen["open"] += takes
        seats = render.seat_lines(s, 80)
        for seat, info in enumerate(s.view().seats):
            if info.knee_pending:
                seen["knee"] += 1
                assert "up the knee after the next draw" in seats[seat + 1], seats
        if s.recent:
            seen["recent"] += 1
            assert "reverse" in " ".join(render.team_lines(s, 80))
        if s.human_to_act:
            s.act(bot.choose(s.view(), s.game.legal_actions()))
        else:
            s.bot_step()
    assert seen["open"] and seen["recent"]
    assert seen["knee"] or name == "hand-and-foot"


def test_words_for_one_deck() -> None:
    from handfoot.presets import house_rules
    from handfoot.rulebook import decks_words, summary_line

    assert decks_words(1) == "1 deck" and decks_words(2) == "2 decks"
    rules = house_rules("hand-and-foot", {"decks": 1}, players=2)
    assert "; 1 deck;" in summary_line(rules)


@pytest.mark.parametrize("size", [(80, 24), pytest.param((100, 30), marks=pytest.mark.slow)])
def test_a_short_opening_from_the_pile_says_how_to_take_it_back(size: tuple[int, int]) -> None:
    s = session(seed=41)
    bot = HeuristicBot(seed=4)
    while True:  # the person's first chance to take the pile before their team opens
        assert not s.game.results, "no chance to take the pile before opening"
        if s.human_to_act and s.view().phase == "draw" and not s.view().teams[0].opened:
            takes = [a for a in s.legal() if isinstance(a, TakePile)]
            if takes:
                s.act(takes[0])
                break
        if s.human_to_act:
            s.act(bot.choose(s.view(), s.game.legal_actions()))
        else:
            s.bot_step()
    assert s.view().phase == "pile-opening"
    app = PlayApp(s, pace=60)

    async def body(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        check_screen(app)(text)
        assert "lay your opening (Enter) or take it back (r)" in text.splitlines()[0]
        assert "r take back" in text.splitlines()[-1]
        await pilot.press("r")
        await pilot.pause()
        assert s.view().phase == "draw" and s.view().retracted

    run(app, size, body)


# ---------------------------------------------------------------------- nothing lost
class Terminal:
    """A real terminal: a tmux window of 80x24 on a socket of its own.  The game runs under a
    shell that writes its exit status to a file (tmux may mark a pane dead before it learns
    the status)."""

    def __init__(self, folder: Path) -> None:
        tmux = shutil.which("tmux")
        assert tmux, "tmux runs the real-terminal tests (scripts/test-all installs it)"
        self.base = [tmux, "-S", str(folder / "tmux.sock")]
        self.folder = folder
        self.status_file = folder / "status"
        self.running = False

    def tmux(self, *args: str) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True)
        assert done.returncode == 0, f"tmux {' '.join(args)}: {done.stderr.strip()}"
        return done.stdout

    def start(self, *play: str) -> None:
        if not self.running:
            # A session that stays, so the server does not quit between two games.
            self.tmux("new-session", "-d", "-s", "keep", "sleep 600")
            self.running = True
        self.status_file.unlink(missing_ok=True)
        command = shlex.join([sys.executable, "-m", "handfoot", "play", *play])
        self.tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24",
                  "-e", f"XDG_DATA_HOME={self.folder}", "-e", f"HOME={self.folder}",
                  f"{command}; echo $? > {shlex.quote(str(self.status_file))}; sleep 600")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play")

    def shows(self, *texts: str) -> bool:
        """Whether the screen shows every text, and has stopped changing (a first paint may
        come in parts)."""
        first = self.screen()
        if not all(t in first for t in texts):
            return False
        time.sleep(0.2)
        return self.screen() == first

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "play", *keys)

    def pid(self) -> int:
        """The game's process: the child of the window's shell."""
        shell = int(self.tmux("display-message", "-p", "-t", "play", "#{pane_pid}"))
        for proc in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                fields = proc.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == shell and "python" in (proc.parent / "cmdline").read_text():
                    return int(proc.parent.name)
        raise AssertionError("no game process under the terminal's shell")

    def exit_status(self) -> str:
        """``""`` while the game runs; then its exit status."""
        try:
            return self.status_file.read_text().strip()
        except OSError:
            return ""

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


def wait_for(what: Callable[[], bool], why: Callable[[], str], seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if what():
            return
        time.sleep(0.1)
    raise AssertionError(why())


def saved_moves(path: Path) -> list[tuple[int, str]]:
    """The moves of a saved record (a record that does not load fails the test)."""
    if not path.exists():
        return []
    record = load_record(path.read_text(encoding="utf-8"))
    return [(seat, a.text) for r in record.rounds for seat, a in r.actions]


def gone(pid: int) -> bool:
    """Whether the process has ended (a zombie not yet reaped has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def hand_lines(screen: str) -> list[str]:
    lines = screen.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Your hand"))
    return [line.rstrip() for line in lines[at:at + 2]]


@pytest.mark.slow
def test_closing_the_terminal_or_a_kill_keeps_the_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    term = Terminal(tmp_path)
    try:
        # The bots wait 30 s a move unless skipped (f): the position holds still.
        term.start("--seed", "3", "--bots", "heuristic", "--pace", "30", "--save", str(save))
        wait_for(lambda: term.shows("Round 1/4", "Seed 3."), term.screen)
        term.keys("f")
        wait_for(lambda: term.shows("Your turn: draw"), term.screen)
        term.keys("s")
        wait_for(lambda: term.shows("Your turn: meld", "Your hand"), term.screen)
        wait_for(lambda: saved_moves(save)[-1:] == [(0, "draw")], lambda: str(saved_moves(save)))
        before = term.screen()
        moves = saved_moves(save)

        # Closing the terminal: SIGHUP.  The record holds the draw, and carries on from it.
        pid = term.pid()
        term.tmux("kill-session", "-t", "play")
        wait_for(lambda: gone(pid), lambda: f"handfoot play (pid {pid}) outlived its terminal")
        assert saved_moves(save) == moves
        term.start("--resume", str(save), "--pace", "30")
        wait_for(lambda: term.shows("Your turn: meld", "Your hand", "resumed after"),
                 term.screen)
        after = term.screen()
        assert hand_lines(after) == hand_lines(before)
        assert after.splitlines()[0].split(" · ")[:2] == before.splitlines()[0].split(" · ")[:2]

        # A discard, then kill: SIGTERM ends the game cleanly, saying where it is saved.
        s = Session.resume(load_record(save.read_text(encoding="utf-8")))
        kind = next(k for k in range(len(s.view().hand)) if s.view().hand[k])
        term.keys("d", KEY[kind])
        wait_for(lambda: len(saved_moves(save)) == len(moves) + 1, term.screen)
        assert saved_moves(save)[-1][0] == 0 and saved_moves(save)[-1][1].startswith("discard")
        moves = saved_moves(save)
        pid = term.pid()
        os.kill(pid, signal.SIGTERM)
        wait_for(lambda: term.exit_status() != "", term.screen)
        assert term.exit_status() == str(128 + signal.SIGTERM)
        printed = term.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "play")
        assert f"game record saved to {save}" in printed
        assert f"carry on with: handfoot play --resume {save}" in printed
        assert saved_moves(save) == moves
        term.tmux("kill-session", "-t", "play")

        # Even SIGKILL, which nothing can catch, finds the last move already saved.
        term.start("--resume", str(save), "--pace", "30")
        wait_for(lambda: term.shows(f"You discard {KIND_TOKENS[kind]}"), term.screen)
        assert "Opp 1 to play…" in term.screen()
        pid = term.pid()
        os.kill(pid, signal.SIGKILL)
        wait_for(lambda: gone(pid), lambda: f"pid {pid} outlived SIGKILL")
        assert saved_moves(save) == moves
        # No temporary file left behind.  The save's lock file may outlive a SIGKILL: its
        # lock went with the process, and the next session takes it (tests/test_save_lock.py).
        assert [p.name for p in tmp_path.glob(".game.json.*")] in ([], [".game.json.lock"])
    finally:
        term.close()


def test_a_crash_loses_nothing(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    s = session(seed=7, save=save)
    app = PlayApp(s, pace=0)
    broken = s.bots[3]
    calls = 0

    def crash(*args: object) -> Action:
        nonlocal calls
        calls += 1
        if calls > 3:
            raise RuntimeError("a bug in a bot")
        return HeuristicBot(seed=1).choose(*args)  # type: ignore[arg-type]

    broken.choose = crash  # type: ignore[method-assign]

    async def body(pilot: Pilot[None]) -> None:
        for _ in range(400):
            if calls > 3:
                break
            await pilot.pause(0.02)
        await pilot.pause(0.1)

    with pytest.raises(RuntimeError, match="a bug in a bot"):
        run(app, (80, 24), body)
    # Every move before the crash is in the record, which replays.
    assert saved_moves(save) == [(seat, a.text) for r in s.record().rounds
                                 for seat, a in r.actions]
    assert len(saved_moves(save)) > 10


def test_saving_never_replaces_a_device_or_a_link(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from handfoot.tui.session import write_atomic

    # A link: the file it names gets the record; the link stays a link.
    target = tmp_path / "real.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new"
    # A device (--save /dev/null): written into, never renamed over (that would replace the
    # machine's /dev/null with a file).  Here a rename fails loudly instead of doing harm.
    def no_rename(src: object, dst: object) -> None:
        raise AssertionError(f"renamed {src} over {dst}")

    monkeypatch.setattr(os, "replace", no_rename)
    write_atomic(Path(os.devnull), "a record")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert not [p for p in Path(os.devnull).parent.glob(".null.*")]


def test_ctrl_c_saves_and_quits(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    s = session(seed=7, save=save)
    app = PlayApp(s, pace=60)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running

    run(app, (80, 24), body)
    assert load_record(save.read_text(encoding="utf-8")).rounds


def test_the_save_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "game.json"
    s = session(seed=7, save=save)
    s.save()
    good = save.read_text(encoding="utf-8")
    # A write that fails half way (a full disk, a kill) leaves the old record whole.
    real_fsync = os.fsync

    def failing(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing)
    while not s.human_to_act:
        s.bot_step()
    assert s.save_error is not None and "No space left" in s.save_error
    assert save.read_text(encoding="utf-8") == good
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    monkeypatch.setattr(os, "fsync", real_fsync)
    s.act(Draw())
    assert s.save_error is None and saved_moves(save)[-1] == (0, "draw")


# ---------------------------------------------------------------------- the command line
def test_play_command_line_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["play", "--bots", "heuristic,basic"]) == 2
    assert "3 bot seats need 3 bot levels" in capsys.readouterr().err
    assert main(["play", "--bots", "genius"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert main(["play", "--resume", str(bad)]) == 2
    assert "not a valid game record" in capsys.readouterr().err


def test_play_options_build_the_session(tmp_path: Path) -> None:
    from handfoot.cli.main import build_parser
    from handfoot.cli.play import build_session

    args = build_parser().parse_args(["play", "--players", "2", "--bots", "random", "--seed",
                                      "4", "--save", str(tmp_path / "x.json"), "--rules",
                                      "hand-knee-foot"])
    s = build_session(args)
    assert s.rules.players == 2 and s.game.seed == 4 and s.save_path == tmp_path / "x.json"
    assert [b.name for b in s.bots.values()] == ["random"]
    assert s.record().seats[1].name == "random"


def test_play_seats_the_search_bot_by_default(tmp_path: Path) -> None:
    # The strongest bot of the ladder (docs/BOTS.md) partners the person unless asked otherwise.
    from handfoot.cli.main import build_parser
    from handfoot.cli.play import build_session

    args = build_parser().parse_args(["play", "--seed", "4", "--save", str(tmp_path / "x.json")])
    s = build_session(args)
    assert [type(b).__name__ for b in s.bots.values()] == ["SearchBot"] * 3
    assert [seat.name for seat in s.record().seats] == ["you", "search", "search", "search"]
    for _ in range(200):  # the bots play up to the person's move
        if s.human_to_act:
            break
        s.bot_step()
    assert s.human_to_act


def test_answering_a_partner_who_asks_to_go_out() -> None:
    # A partner asks only when going out is possible (8.5.4): seed 6 gets there early.
    s = session(seed=6, name="hand-and-foot-classic")
    bot = HeuristicBot(seed=1)
    for _ in range(5000):  # play (without the screen) until the partner asks the person
        if s.game.over or (s.human_to_act and s.game.phase is Phase.ANSWER):
            break
        if s.human_to_act:
            s.act(bot.choose(s.view(), s.game.legal_actions()))
        else:
            s.bot_step()
    assert s.human_to_act and s.game.phase is Phase.ANSWER, "the partner never asked"
    app = PlayApp(s, pace=60)
    count = moves(s)
    asker = s.names[s.game.seat]

    async def body(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert f"{asker} asks you: may I go out? y / n" in text.splitlines()[0]
        await pilot.press("y")
        await pilot.pause()
        assert any(line.endswith("answer yes") for line in s.log.lines)
        actions = [a for r in s.record().rounds for a in r.actions]
        assert actions[count] == (0, Answer(True))
        # The question and the answer stay in sight for the rest of the turn.
        top = " ".join(line.strip() for line in screen_text(app).splitlines()[:2])
        assert f"{asker} asked you “may I go out?”: yes" in top

    run(app, (80, 24), body)


def test_house_rules_take_the_pile_onto_a_meld_and_lay_a_book_by_keys() -> None:
    """Where house rules allow them, p takes the pile with its top card alone and b lays a
    book of black threes: the keys play what the engine lists, nothing more."""
    from handfoot.bots import make_bot
    from handfoot.presets import house_rules
    from scenario import game as scenario_game
    from scenario import set_melds, to_foot

    rules = house_rules("hand-and-foot", {"pile_onto_meld": True, "black_three_book": True})
    g = scenario_game(rules, "4 | B3 B3 B3 B3 B3 B3 B3 9 9 4", pile="5 K")
    to_foot(g, 0)
    set_melds(g, 0, "K K K")
    bots = {seat: make_bot("basic", seed=seat) for seat in (1, 2, 3)}
    s = Session(g, ["you", "basic", "basic", "basic"], 0, bots)
    app = PlayApp(s, pace=60)

    async def body(pilot: Pilot[None]) -> None:
        assert "p takes it" in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        assert s.view().teams[0].melds[KING] == (4, 0, 0) and s.view().took_pile
        assert "book of B3" in screen_text(app)
        await pilot.press("b")
        await pilot.pause()
        assert s.view().teams[0].closed[-1][0] == BLACK_THREE

    run(app, (80, 24), body)


@pytest.mark.slow  # the staging itself is in the fast property test of 3.4
def test_5_2_ten_kings_staged_at_once_lay_down_as_a_canasta_and_a_new_meld() -> None:
    """Kings staged past a canasta's size begin another staged meld of kings, and the one
    lay-down closes the canasta and starts the new meld (the web page groups them alike)."""
    from handfoot.bots import make_bot
    from scenario import game as scenario_game

    rules = preset("hand-and-foot")
    g = scenario_game(rules, "K K K K K K K K K K 9 9 | 4 4 4")
    bots = {seat: make_bot("basic", seed=seat) for seat in (1, 2, 3)}
    s = Session(g, ["you", "basic", "basic", "basic"], 0, bots)
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.press("s")  # draw
        await pilot.pause()
        for keys in (["k"] * 4, ["k"] * 3, ["k"] * 3):
            for key in [*keys, "m"]:
                await pilot.press(key)
            await pilot.pause()
        assert [p.text for p in s.staged] == ["K K K K K K K", "K K K"]
        await pilot.press("enter")
        await pilot.pause()
        team = s.view().teams[0]
        assert team.opened and team.melds[KING] == (3, 0, 0)
        assert [c[:2] for c in team.closed] == [(KING, 7)]

    run(app, (100, 30), body)


# ---------------------------------------------------------------------- issue 26's terminal points
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_t_opens_the_table_and_0_is_the_10() -> None:
    """One meaning for t: the whole table, in the game, the ? box and docs/PLAY.md alike."""
    from handfoot.tui.app import CARD_KEYS, KEYS_HELP

    assert "t" not in CARD_KEYS and CARD_KEYS["0"] == TEN
    assert dict(KEYS_HELP)["t"].startswith("the whole table")
    assert dict(KEYS_HELP)["4-9, 0"] == "pick a card (0 is a 10)"
    play_doc = (DOCS / "PLAY.md").read_text(encoding="utf-8")
    assert "`t` (10)" not in play_doc and "| `t` | the whole table" in play_doc
    s = session(seed=7)
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        await to_my_meld_phase(app, pilot)
        await pilot.press("t")
        await pilot.pause()
        assert "The table" in screen_text(app) and not any(s.picked)
        await pilot.press("escape")
        await pilot.pause()
        if s.view().hand[TEN]:
            await pilot.press("0")
            await pilot.pause()
            assert "Picked: 10" in screen_text(app)

    run(app, (100, 30), body)


@pytest.mark.parametrize("size", [(80, 24), pytest.param((60, 24), marks=pytest.mark.slow),
                                  pytest.param((120, 40), marks=pytest.mark.slow)])
def test_the_keys_box_keeps_its_column_when_lines_wrap(size: tuple[int, int]) -> None:
    """Every line of the ? box is a line of the text wrapped for the box: nothing cut under
    the scroll bar, and a wrapped description starts under the descriptions, not the keys."""
    from handfoot.tui.app import KEY_COLUMN, help_text

    s = session(seed=7)
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        wrapped = re.sub(r"\[/?b\]", "", help_text(size[0] - 6)).splitlines()
        lines = screen_text(app).splitlines()
        top = next(i for i, line in enumerate(lines) if "╭─ Keys" in line)
        left, right = lines[top].index("╭"), lines[top].rindex("╮")
        bottom = next(i for i, line in enumerate(lines) if "╰" in line)
        shown = [line[left + 2:right].rstrip(" ▁▂▃▄▅▆▇█") for line in lines[top + 1:bottom]]
        assert len(shown) >= 10
        for line in shown:
            assert line.rstrip() in wrapped, (line, wrapped)
        continued = [line for line in wrapped[:30] if line.startswith(" ")]
        assert continued and all(line[:KEY_COLUMN].isspace() and line[KEY_COLUMN] != " "
                                 for line in continued)

    run(app, size, body)


def test_a_resumed_record_without_a_seed_names_its_round_and_no_seed() -> None:
    """examples/hf-worked-round-1935.json is round 2 of 4, dealt without a seed."""
    record = load_record((EXAMPLES / "hf-worked-round-1935.json").read_text(encoding="utf-8"))
    s = Session.resume(record)
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.pause()
        text = screen_text(app)
        assert "Round 2 of 4" in text and "Round 2 over" in text and "Round 1 of" not in text
        # Canasta bonuses: the points are for all of them, "2 = 1000", not "2× 1000".
        assert re.search(r"clean canastas\s+·\s+2 = 1000", text), text
        assert "×" not in render.round_result_text(s, 0)
        assert "Seed None" not in text and "Dealt as recorded (no seed)" in text

    run(app, (80, 24), body)
    assert s.log.lines[-1] == "resumed after 13 moves"
    one = cut(record, 1)
    assert Session.resume(one).log.lines[-1] == "resumed after 1 move"


def test_counts_of_one_read_right(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Counts and their words agree where a count may be one (issue 26's "1 deck hold")."""
    from handfoot.print.explain import explain
    from handfoot.rules import RulesError

    with pytest.raises(RulesError, match="1 deck holds 54 cards"):
        preset("hand-and-foot").replace(decks=1, players=2, team_size=1, packets=[20, 20])
    text = " ".join(explain(preset("hand-and-foot").replace(
        rounds=1, max_wilds=1, naturals_before_wild=1, pile_take=1)).split())
    assert "A game is 1 round;" in text and "at most 1 wild card." in text
    assert "needs 1 natural card before" in text and "takes only its top card." in text
    assert main(["print", "sheet", "--rules", "hand-and-foot", "--team", "Solo", "-o",
                 str(tmp_path / "s.pdf")]) == 2
    assert "2 teams of 2, but 1 team was named" in capsys.readouterr().err


def test_a_player_who_stripped_bare_draws_and_knocks_by_keys() -> None:
    """Under strip_bare (D34) the person sheds the foot's last card with d, holds no card,
    draws with s next turn, and, the draw bringing only red threes that are not replaced,
    is told to knock and does with n."""
    from handfoot.bots import make_bot
    from handfoot.presets import house_rules
    from scenario import game, play, set_melds, to_foot

    rules = house_rules("hand-and-foot", {"strip_bare": True, "red_three_replacement": "never"})
    g = game(rules, "4 | 5", stock="9 9 8 8 J J Q Q R3 R3 4 4 5 5 6 6 7 7 8 8 9 9 10 10")
    to_foot(g, 0)
    set_melds(g, 0, "K K K K K K K;9 9 9")
    play(g, ["draw", "add 9: 9", "add 9: 9"])
    s = Session(g, ["you", "heuristic", "heuristic", "heuristic"], 0,
                {seat: make_bot("heuristic", seed=seat) for seat in (1, 2, 3)})
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.press("d", "5")
        for _ in range(200):
            await pilot.pause(0.02)
            if s.human_to_act:
                break
        assert g.hand_n[0] == 0 and not g.results
        assert "Your foot: 0 cards" in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert "Your turn: knock (n)" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert "You knock" in s.log.lines

    run(app, (80, 24), body)
