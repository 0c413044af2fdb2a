"""Bots: they play only from their view and the engine's legal actions, deterministically, under
every preset and player count, and the ladder holds on a small sample."""

from __future__ import annotations

import pytest

from handfoot.actions import Action
from handfoot.bots import BOTS, BotError, make_bot
from handfoot.bots.base import play
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, preset
from handfoot.views import SeatView, view


class Checked:
    """Wraps a bot and checks every answer is one of the engine's legal actions."""

    def __init__(self, name: str, seed: int) -> None:
        self.bot = make_bot(name, seed)
        self.name = name
        self.calls = 0

    def choose(self, v: SeatView, legal: list[Action]) -> Action:
        action = self.bot.choose(v, legal)
        assert action in legal
        self.calls += 1
        return action


# A development run plays the first preset at every player count; the full run all of them.
@pytest.mark.parametrize("name", [PRESET_NAMES[0], *(pytest.param(n, marks=pytest.mark.slow)
                                                     for n in PRESET_NAMES[1:])])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("bot", ["basic", "heuristic"])
def test_bots_play_a_round_under_every_preset_and_player_count(
    name: str, players: int, bot: str
) -> None:
    rules = preset(name, players).replace(rounds=1)
    bots = [Checked(bot, seed) for seed in range(players)]
    g = play(Game.new(rules, seed=players), bots)
    assert g.over
    assert g.results[0].ended_by in ("went_out", "stock_out", "turn_cap")


def test_search_bot_plays_legally_with_a_small_budget() -> None:
    rules = preset("hand-and-foot").replace(rounds=1)
    bots = [Checked("search:worlds=1,width=2", 0)] + [Checked("heuristic", s) for s in (1, 2, 3)]
    g = play(Game.new(rules, seed=5), bots)
    assert g.over and bots[0].calls > 0


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_bots_are_deterministic_for_a_seed(bot: str) -> None:
    # A time budget plays as fast as the machine allows; a number of worlds replays exactly.
    spec = {"search": "search:worlds=1,width=2",
            "expert": "expert:ms=0,worlds=1,width=2"}.get(bot, bot)
    rules = preset("hand-and-foot").replace(rounds=1)

    def run() -> list[int]:
        g = play(Game.new(rules, seed=11), [make_bot(spec, seed=s) for s in range(4)])
        return list(g.totals)

    assert run() == run()


def test_the_bot_receives_only_its_own_view() -> None:
    seen: list[int] = []

    class Spy:
        name = "spy"

        def choose(self, v: SeatView, legal: list[Action]) -> Action:
            seen.append(v.seat)
            assert v.seat == v.actor
            return legal[0]

    g = Game.new(preset("hand-and-foot").replace(rounds=1), seed=2)
    for _ in range(40):
        actor = g.actor
        g.apply(Spy().choose(view(g, actor), g.legal_actions()))
    assert seen


def test_heuristic_beats_random_and_basic_on_duplicate_rounds() -> None:
    """A small sample of the ladder (docs/BOTS.md has the full measurement)."""
    rules = preset("hand-and-foot").replace(rounds=1)
    score = {"random": 0, "basic": 0}
    for other in score:
        for deal in range(6):
            for swap in (0, 1):
                names = ["heuristic", other] if not swap else [other, "heuristic"]
                bots = [make_bot(names[s % 2], seed=10 * deal + s) for s in range(4)]
                g = play(Game.new(rules, seed=100 + deal), bots)
                mine = swap  # heuristic sits in team 0 first, then team 1
                score[other] += g.totals[mine] - g.totals[1 - mine]
    assert score["random"] > 0
    assert score["basic"] > 0


@pytest.mark.parametrize("spec", ["nobody", "search:worlds", "search:worlds=x", "basic:depth=2"])
def test_bad_bot_specs_are_refused(spec: str) -> None:
    with pytest.raises(BotError):
        make_bot(spec)


def test_heuristic_leaves_a_pile_whose_opening_it_cannot_reach() -> None:
    """Hand J J J 4 4 A, a J on the pile, 50 to open: the take's pair is in the hand already,
    so the four jacks make 40 and the opening would be taken back (6.3); the heuristic draws.
    With a fourth jack in hand (50) it takes the pile."""
    from handfoot.bots.heuristic import HeuristicBot
    from scenario import game

    rules = preset("hand-and-foot")
    for hand, wanted in (("J J J 4 4 A", "draw"), ("J J J J 4 A", "take")):
        g = game(rules, f"{hand} | 9 10 Q K", pile="6 J")
        assert g.minimum == 50
        legal = g.legal_actions()
        assert any(a.text.startswith("take") for a in legal)
        chosen = HeuristicBot(seed=1).choose(view(g, 0), legal)
        assert chosen.text.startswith(wanted), (hand, chosen)


@pytest.mark.parametrize("name", ["hand-and-foot", "hand-knee-foot"])
def test_bots_play_where_a_player_may_strip_bare_and_a_pile_opening_is_checked(
        name: str) -> None:
    """The basic and heuristic bots under strip_bare (D34) and pile_opening_checked (D33):
    every choice legal and every round ends."""
    from handfoot.presets import house_rules

    rules = house_rules(name, {"strip_bare": True, "pile_opening_checked": True, "rounds": 1})
    for seed in range(2):
        bots = [make_bot(("heuristic", "basic")[s % 2], seed=seed * 10 + s)
                for s in range(rules.players)]
        g = Game.new(rules, seed=seed)
        while not g.over:
            legal = g.legal_actions()
            action = bots[g.actor].choose(view(g, g.actor), legal)
            assert action in legal
            g.apply(action)


@pytest.mark.parametrize("spec", ["basic", "heuristic"])
def test_bots_act_legally_holding_no_card(spec: str) -> None:
    """A seat that stripped bare (D34) draws at its next turn; one whose draw brought only
    red threes that are not replaced knocks."""
    from handfoot.presets import house_rules
    from scenario import game, play, set_melds, to_foot

    rules = house_rules("hand-and-foot", {"strip_bare": True, "red_three_replacement": "never"})
    g = game(rules, "4 | 5", stock="9 9 8 8 J J Q Q R3 R3 4 4")
    to_foot(g, 0)
    set_melds(g, 0, "K K K K K K K;9 9 9")
    play(g, ["draw", "add 9: 9", "add 9: 9", "discard 5"])
    for _seat in (1, 2, 3):
        play(g, ["draw", "discard 9"])
    bot = make_bot(spec, seed=1)
    for expected in ("draw", "knock"):
        assert g.hand_n[0] == 0 and g.actor == 0
        action = bot.choose(view(g, 0), g.legal_actions())
        assert action.text == expected
        g.apply(action)
