"""``handfoot play`` driven by keystrokes through Textual's pilot.

A heuristic bot decides the person's moves from the person's view; the test turns each decision
into the keys a person would press and checks the screen against the engine's state.  Snapshot
texts live in tests/snapshots/ (regenerate with UPDATE_SNAPSHOTS=1).
"""

from __future__ import annotations

import asyncio
import os
import re
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
    KING,
    NINE,
    QUEEN,
    RED_THREE,
    SEVEN,
    SIX,
    TEN,
    TWO,
    WILD_SLOT,
)
from handfoot.cli.main import main
from handfoot.presets import preset
from handfoot.record import load_record, replay
from handfoot.state import Phase
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


def keys_for(s: Session, bot: HeuristicBot, action: Action) -> list[str]:
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
    keys: list[str] = []
    for step in meld_run(s, bot, action):
        if isinstance(step, Start):
            keys += part_keys(step.slot, step.naturals, step.twos, step.jokers)
        else:
            k = step.kind
            keys += part_keys(step.slot, int(k == step.slot and k < TWO), int(k == TWO),
                              int(k == JOKER))
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
    """The screen shows the engine's state: hand size, pile size, stock, every seat's count."""
    def check(text: str) -> None:
        v = app.session.view()
        assert f"Your {v.rules.packet_names[v.packet_no]}: {sum(v.hand)} cards" in text
        assert f"Stock {v.stock_size}" in text
        assert (f"Pile {len(v.pile)}," in text) if v.pile else ("Pile empty" in text)
        for seat, info in enumerate(v.seats):
            name = app.session.names[seat]
            assert re.search(rf"{name} \(t\d\): {info.hand_n} in", text), (name, text)
        assert "Your turn" in text or "asks: may I go out?" in text
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
        assert "wins" in text or "tie" in text
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


def test_a_round_on_a_large_screen_and_its_score_screen() -> None:
    s = session(seed=21, name="hand-knee-foot")
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        await play_by_keys(app, pilot, lambda: isinstance(app.screen, ResultScreen),
                           check_screen(app))
        text = screen_text(app)
        result = s.game.results[0]
        assert f"Round {result.round} over" in text
        for row in result.teams:
            for line in row.lines:
                assert re.search(rf"{re.escape(line.label)}\s+{line.points}\b", text), line
            assert re.search(rf"round total\s+{row.total}\b", text)
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


def test_snapshot_of_a_score_screen() -> None:
    s = session(seed=5)
    app = PlayApp(s, pace=0)

    async def body(pilot: Pilot[None]) -> None:
        await play_by_keys(app, pilot, lambda: isinstance(app.screen, ResultScreen))
        text = screen_text(app)
        assert "Round 1 over" in text and "Enter: continue" in text
        # The bots' play decides the figures, so check the frame, not a stored copy.
        assert "round total" in text and "game total" in text
        assert all(len(line) <= 80 for line in text.splitlines())

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
        assert "the heuristic bot would" in screen_text(app)
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
        assert "Picked: —" in screen_text(app)

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
    app = PlayApp(s, pace=0)
    count = moves(s)

    async def body(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert f"{s.names[s.game.seat]} asks: may I go out?" in text
        await pilot.press("y")
        await pilot.pause()
        assert any(line.endswith("answer yes") for line in s.log.lines)
        actions = [a for r in s.record().rounds for a in r.actions]
        assert actions[count] == (0, Answer(True))

    run(app, (80, 24), body)
