"""``handfoot play --join``: the terminal game at a web table, through the seam.

The fast test drives the screen (Textual's pilot) against an in-process server; the slow one
runs the real ``handfoot serve`` in its own process with a browser (Playwright, Debian's
Chromium) as the partner, plays a whole round with a question and its answer across the two,
and drops the terminal's connection in the middle.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
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
from handfoot.cards import JOKER, TWO
from handfoot.engine import Game
from handfoot.server.client import TableClient
from handfoot.tui.app import PlayApp, TextScreen, screen_text
from handfoot.tui.remote import RemoteTable
from handfoot.views import sample_world
from server_helpers import Server, running_server
from test_tui import KEY, part_keys

SHOTS = Path(__file__).parent / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("tui-join") / "tables.sqlite3"
    with running_server(str(db)) as srv:
        yield srv


async def until(pilot: Pilot[None], test: Callable[[], bool], why: Callable[[], str],
                seconds: float = 30.0) -> None:
    """Wait for a condition the server brings about (never a fixed sleep)."""
    deadline = time.monotonic() + seconds
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(why())
        await pilot.pause(0.02)


def world(table: RemoteTable) -> Game:
    """A game agreeing with the seat's view (the test's planning copy: only the hand and the
    table matter to the steps planned on it)."""
    return sample_world(table.view(), random.Random(1))


def keys_for(table: RemoteTable, bot: HeuristicBot, action: Action) -> list[str]:
    """The keys a person presses for the bot's choice; the melds it would make in a row are
    staged and laid down as one."""
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
    trial = world(table)
    keys: list[str] = []
    step = action
    while isinstance(step, Start | Add):
        if isinstance(step, Start):
            keys += part_keys(step.slot, step.naturals, step.twos, step.jokers)
        else:
            k = step.kind
            keys += part_keys(step.slot, int(k == step.slot and k < TWO), int(k == TWO),
                              int(k == JOKER))
        trial.apply(step)
        if trial.actor != table.human or trial.over:
            break
        step = bot.choose(sample_view(trial, table.human), trial.legal_actions())
    return [*keys, "enter"]


def sample_view(game: Game, seat: int) -> Any:
    from handfoot.views import view

    return view(game, seat)


async def press(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)


async def my_move(pilot: Pilot[None], app: PlayApp, table: RemoteTable,
                  bot: HeuristicBot, choose: Callable[[], Action] | None = None) -> str:
    """One move of the person's by keys, from the bot's choice; a refused lay-down (an opening
    the bot would build in steps) is cleared and the best move that lays nothing is played."""
    version = table.client.version
    action = choose() if choose is not None else bot.choose(table.view(), table.legal())
    await press(pilot, *keys_for(table, bot, action))

    def moved() -> bool:
        return table.client.version != version or "Not allowed" in screen_text(app)

    await until(pilot, moved, lambda: f"{action.text}: no answer\n{screen_text(app)}")
    if table.client.version == version:
        await press(pilot, "escape", "escape", "escape")
        others = [a for a in bot.rank(table.view(), table.legal())
                  if not isinstance(a, Start | Add)]
        action = others[0]
        await press(pilot, *keys_for(table, bot, action))
        await until(pilot, lambda: table.client.version != version,
                    lambda: f"{action.text}: not applied\n{screen_text(app)}")
    return action.text


async def seated(server_ws: str, host_token: str, seat: int = 0) -> TableClient:
    client = await TableClient.connect(server_ws, host_token=host_token)
    await client.join(seat, "Tess")
    return client


def run_app(make: Callable[[], Awaitable[RemoteTable]], size: tuple[int, int],
            body: Callable[[Pilot[None], PlayApp, RemoteTable], Awaitable[None]]) -> None:
    async def go() -> None:
        table = await make()
        app = PlayApp(table)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot, app, table)
        await table.close()

    asyncio.run(go())


# ====================================================================== the fast test
def test_the_screen_plays_a_web_table_through_the_seam(server: Server) -> None:
    made = server.create(rules={"preset": "hand-and-foot", "set": {"rounds": 1}},
                         options={"bot_pace": 0, "hints": True}, bots="heuristic")

    async def make() -> RemoteTable:
        client = await seated(server.ws(made["table"]), made["host_token"])
        await client.send({"type": "start"})
        state = await client.until("state")
        return RemoteTable(client, state)

    async def body(pilot: Pilot[None], app: PlayApp, table: RemoteTable) -> None:
        bot = HeuristicBot(seed=3)
        text = screen_text(app)
        assert "At " in text and "seat 0" in text, text
        assert "You" in text and "Them" in text and "To go out:" in text
        await until(pilot, lambda: table.human_to_act, lambda: screen_text(app))
        assert "Your turn" in screen_text(app)
        # A hint is the server's answer.
        await press(pilot, "h")
        await until(pilot, lambda: "the heuristic bot would" in screen_text(app),
                    lambda: screen_text(app))
        await my_move(pilot, app, table, bot, lambda: Draw())
        assert any(line.startswith("You draw ") and "cards" not in line
                   for line in table.log.lines), table.log.lines[-5:]
        # A single card staged as a meld: the server's check says no before Enter, and
        # Enter's refusal names the rule.
        hand = table.view().hand
        kind = next(k for k in KEY if hand[k] and k < TWO and k not in (2, 3))
        await press(pilot, KEY[kind], "m")
        await until(pilot, lambda: "✗" in screen_text(app), lambda: screen_text(app))
        await press(pilot, "enter")
        await until(pilot, lambda: "Not allowed" in screen_text(app), lambda: screen_text(app))
        assert "rule" in screen_text(app)
        await press(pilot, "escape", "escape")
        assert not table.staged
        # The connection drops mid-game; it comes back by itself with the seat token.
        version = table.client.version
        table.drop()
        await until(pilot, lambda: table.connected and table.client.version >= version,
                    lambda: f"no reconnect: {screen_text(app)}")
        if isinstance(app.screen, TextScreen):
            await press(pilot, "escape")
        await my_move(pilot, app, table, bot)
        assert table.client.version > version

    run_app(make, (80, 24), body)
