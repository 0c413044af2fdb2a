"""Rules tests for section 10 of docs/RULES.md: scoring a round and the game, including both
documents' worked rounds played through the engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from handfoot.clauses import CLAUSES
from handfoot.engine import Game
from handfoot.presets import house_rules, preset
from handfoot.rules import Rules
from handfoot.scoring import Tally, score_team, total, winners
from scenario import clause, deal, game, play, set_melds, to_foot

HF = "hand-and-foot"  # 002
HKF = "hand-knee-foot"  # 000


def lines(g: Game, team: int, round_no: int = 1) -> dict[str, int]:
    return {ln.label: ln.points for ln in g.results[round_no - 1].teams[team].lines}


def round_total(g: Game, team: int, round_no: int = 1) -> int:
    return int(g.results[round_no - 1].teams[team].total)


def stock_out(rules: Rules, *seats: str, replacements: str = "") -> Game:
    """A round that ends at once: seat 0 draws the stock's last two cards (4 6) and discards 6.
    ``replacements`` come first, for red threes in the dealt hands."""
    g = game(rules, *seats, stock=replacements + " 4 6")
    play(g, ["draw", "discard 6"])
    if not g.results:  # 004 plays on while the pile can be taken
        play(g, ["stop"])
    assert g.results[0].ended_by == "stock_out"
    return g


# ---------------------------------------------------------------- worked rounds
def test_10_1_002_worked_round_scores_1935() -> None:
    """002: two clean books (kings, 8s), a dirty book of five queens and two jokers, three aces
    open, two red threes; the partner goes out; 9 and 4 left in the foot."""
    rules = preset(HF)
    # Seat 2 plays first; seat 0's two dealt red threes are replaced by the stock's 6 6.
    g = game(rules, "R3 R3 | 9 4", "4 | 4", "4 | K Q", "4 | 4", first=2,
             stock="6 6 JK 6 4 6 4 6")
    to_foot(g, 0)
    to_foot(g, 2)
    set_melds(g, 0, "K K K K K K; 8 8 8 8 8 8 8; Q Q Q Q JK; A A A")
    play(g, ["draw", "add K: K", "add Q: Q", "add Q: JK", "discard 6"])
    assert g.results[0].ended_by == "went_out"
    assert lines(g, 0) == {
        "melded cards": 350, "clean canastas x2": 1000, "dirty canastas x1": 300,
        "red threes laid x2": 200, "going out": 100, "cards left in foot": -15,
    }
    assert round_total(g, 0) == 1935


def test_10_2_000_worked_round_scores_12245() -> None:
    """000: 7s, 5s, a wild canasta of two jokers and five 2s, seven kings, five queens with a 2
    and a joker; three red threes; the partner goes out; 9 and 4 left in the foot."""
    rules = preset(HKF)
    g = game(rules, "R3 R3 R3 | 4 | 9 4", "4 | 4 | 4", "4 | 4 | JK 4", "4 | 4 | 4", first=2,
             stock="6 6 6 7 7 6 4 6 4")
    to_foot(g, 0)
    to_foot(g, 2)
    set_melds(g, 0, "7 7 7 7 7; 5 5 5 5 5 5 5; 2 2 2 2 2 JK JK; K K K K K K K; Q Q Q Q Q 2")
    play(g, ["draw", "ask", "answer yes", "add 7: 7", "add 7: 7", "add Q: JK", "discard 4"])
    assert g.results[0].ended_by == "went_out"
    assert lines(g, 0) == {
        "melded cards": 460, "7s canastas x1": 5000, "5s canastas x1": 3000,
        "wild canastas x1": 2500, "clean canastas x1": 500, "dirty canastas x1": 300,
        "red threes laid x3": 300, "going out": 200, "cards left in foot": -15,
    }
    assert round_total(g, 0) == 12245


def test_10_2_worked_rounds_from_a_tally() -> None:
    t002 = Tally(canastas={"clean": 2, "dirty": 1}, melded_points=350, red_threes_laid=2,
                 left_points={"foot": 15}, went_out=True)
    assert total(score_team(preset(HF), t002)) == 1935
    t000 = Tally(canastas={"7s": 1, "5s": 1, "wild": 1, "clean": 1, "dirty": 1},
                 melded_points=460, red_threes_laid=3, left_points={"foot": 15}, went_out=True)
    assert total(score_team(preset(HKF), t000)) == 12245


# ---------------------------------------------------------------- 10.1 melded cards
def test_10_1_unfinished_melds_and_wild_melds_count_their_cards() -> None:
    g = game(preset(HF), "4 | 4", stock="4 6")
    set_melds(g, 0, "A A A; 2 2 JK; K K K K K K K")
    play(g, ["draw", "discard 6"])
    assert lines(g, 0)["melded cards"] == 60 + 90 + 70


# ---------------------------------------------------------------- 10.2 canasta bonuses
@pytest.mark.parametrize(("name", "bonus"), [
    ("hand-and-foot", {"clean": 500, "dirty": 300, "wild": 1500}),
    ("hand-and-foot-classic", {"clean": 500, "dirty": 300, "wild": 1500}),
    ("hand-and-foot-13", {"clean": 500, "dirty": 300, "wild": 0}),
    ("hand-knee-foot", {"7s": 5000, "5s": 3000, "wild": 2500, "clean": 500, "dirty": 300}),
    ("triple-play", {"7s": 5000, "5s": 3000, "wild": 2500, "clean": 500, "dirty": 300}),
    ("hand-knee-foot-club", {"7s": 2000, "5s": 2000, "wild": 1500, "clean": 500,
                             "dirty": 300}),
])
def test_10_2_canasta_bonuses_by_document(name: str, bonus: dict[str, int]) -> None:
    assert dict(preset(name).canasta_bonus) == bonus


def test_10_2_an_extra_canasta_scores_as_its_kind() -> None:
    g = game(preset(HKF), "4 | 4 | 4", stock="4 6")
    set_melds(g, 0, "7 7 7 7 7 7 7; 7 7 7 7 7 7 7; 5 5 5 5 5 5 5; "
                    "2 2 2 2 2 2 2; JK JK JK JK JK JK JK")
    play(g, ["draw", "discard 6"])
    got = lines(g, 0)
    assert got["7s canastas x2"] == 10000
    assert got["5s canastas x1"] == 3000
    assert got["wild canastas x2"] == 5000


def test_10_2_club_sheet_canastas() -> None:
    g = game(preset("hand-knee-foot-club"), "4 | 4 | 4", stock="4 6")
    set_melds(g, 0, "7 7 7 7 7 7 7; 5 5 5 5 5 5 5; 2 2 2 2 2 2 2")
    play(g, ["draw", "discard 6"])
    got = lines(g, 0)
    assert (got["7s canastas x1"], got["5s canastas x1"], got["wild canastas x1"]) == \
        (2000, 2000, 1500)


def test_10_2_a_growing_canasta_still_scores_once() -> None:
    rules = house_rules("hand-and-foot-classic", {"add_to_canasta": "always"})
    g = game(rules, "4 | 4", stock="4 6")
    set_melds(g, 0, "K K K K K K K K K")
    play(g, ["draw", "discard 6"])
    assert lines(g, 0)["clean canastas x1"] == 500 and lines(g, 0)["melded cards"] == 90


# ---------------------------------------------------------------- 10.3 red threes
@pytest.mark.parametrize(("name", "each"), [
    ("hand-and-foot", 100), ("hand-and-foot-classic", 100), ("hand-knee-foot", 100),
    ("triple-play", 100),
])
def test_10_3_red_threes_laid_score_100_each(name: str, each: int) -> None:
    rules = preset(name)
    rest = ["4"] * (len(rules.packets) - 1)
    g = stock_out(rules, " | ".join(["R3 R3 9 9", *rest]), replacements="8 8")
    assert lines(g, 0)["red threes laid x2"] == 2 * each


def test_10_3_seven_red_threes_earn_300_more_in_000() -> None:
    g = game(preset(HKF), "R3 R3 R3 R3 9 | 4 | 4", "4 | 4 | 4", "R3 R3 R3 9 | 4 | 4",
             stock="9 9 9 9 9 9 9 4 6")
    play(g, ["draw", "discard 6"])
    got = lines(g, 0)
    assert got["red threes laid x7"] == 700 and got["7 or more red threes"] == 300


def test_10_3_six_red_threes_earn_no_extra_in_000() -> None:
    g = game(preset(HKF), "R3 R3 R3 9 | 4 | 4", "4 | 4 | 4", "R3 R3 R3 9 | 4 | 4",
             stock="9 9 9 9 9 9 4 6")
    play(g, ["draw", "discard 6"])
    assert "7 or more red threes" not in lines(g, 0)


def test_10_3_003_variant_red_threes_pay_only_with_a_canasta() -> None:
    rules = house_rules("hand-and-foot-classic", {"red_three_bonus_needs_canasta": True})
    g = stock_out(rules, "R3 9 9 | 4", replacements="8")
    assert not any(label.startswith("red threes laid") for label in lines(g, 0))


def test_10_3_004_red_threes_never_score_for_you() -> None:
    g = stock_out(preset("hand-and-foot-13"), "R3 9 9 | 4")
    assert lines(g, 0)["red threes held x1"] == -100


# ---------------------------------------------------------------- 10.4 cards left
def test_10_4_every_packet_counts_against_including_unopened_ones() -> None:
    g = stock_out(preset(HKF), "JK A 9 | K 4 | 2 5", "4 | 4 | 4", "4 | 4 | 4", "4 | 4 | 4")
    got = lines(g, 0)
    assert got["cards left in hand"] == -(50 + 20 + 10 + 5 + 5)  # JK A 9, a drawn 4; the 4
    assert got["cards left in knee"] == -(10 + 5 + 5)  # K 4; the partner's 4
    assert got["cards left in foot"] == -(20 + 5 + 5)  # 2 5; the partner's 4


def test_10_4_a_knee_in_play_is_left_in_hand_and_an_unopened_packet_is_named() -> None:
    # Seat 0 has picked up its knee: it joined the hand, so what is held is "left in hand";
    # its foot, still face down, is named as the foot, and the partner's unopened knee as the
    # knee.
    g = game(preset(HKF), "4 | K 9 | 2 5", "4 | 4 | 4", "4 | 8 8 | 4", "4 | 4 | 4",
             stock="6 6")
    with g.edit():
        g.packet_no[0] = 1
        g.hands[0] = g.packets[0].pop(0)
        g.hand_n[0] = sum(g.hands[0])
    play(g, ["draw", "discard 6"])  # the stock's last cards: the round ends (9.1)
    got = lines(g, 0)
    assert got["cards left in hand"] == -(10 + 10 + 5 + 5)  # K 9 6; the partner's 4
    assert got["cards left in knee"] == -(10 + 10)  # the partner's unopened 8 8
    assert got["cards left in foot"] == -(20 + 5 + 5)  # 2 5; the partner's 4


def test_10_4_both_partners_count() -> None:
    g = stock_out(preset(HF), "A | K", "4 | 4", "JK | Q", "4 | 4")
    got = lines(g, 0)
    assert got["cards left in hand"] == -(20 + 5 + 50)
    assert got["cards left in foot"] == -(10 + 10)


# ---------------------------------------------------------------- 10.5 threes held
@pytest.mark.parametrize(("name", "red", "black"), [
    ("hand-and-foot", 100, 5), ("hand-and-foot-13", 100, 5), ("hand-knee-foot", 500, 100),
    ("triple-play", 500, 100),
])
def test_10_5_threes_still_held(name: str, red: int, black: int) -> None:
    rules = preset(name)
    rest = ["4"] * (len(rules.packets) - 2)
    g = stock_out(rules, " | ".join(["B3 B3 9", *rest, "R3 B3"]))
    got = lines(g, 0)
    assert got["red threes held x1"] == -red
    assert got["black threes held x3"] == -3 * black


def test_10_5_000_variant_black_threes_minus_300() -> None:
    rules = house_rules(HKF, {"black_three_penalty": 300})
    g = stock_out(rules, "B3 9 | 4 | 4")
    assert lines(g, 0)["black threes held x1"] == -300


# ---------------------------------------------------------------- 10.6 going out
@pytest.mark.parametrize(("name", "bonus"), [
    ("hand-and-foot", 100), ("hand-and-foot-classic", 100), ("hand-and-foot-13", 100),
    ("hand-knee-foot", 200), ("triple-play", 200),
])
def test_10_6_going_out_bonus(name: str, bonus: int) -> None:
    assert preset(name).going_out_bonus == bonus


def test_10_6_no_going_out_bonus_when_the_stock_runs_out() -> None:
    g = stock_out(preset(HKF), "9 9 | 4 | 4")
    for team in (0, 1):
        assert "going out" not in lines(g, team)


def test_10_6_only_the_team_that_went_out_scores_it() -> None:
    rules = preset(HF)
    g = game(rules, "4 | 9 4", stock="9 9 6 6")
    to_foot(g, 0)
    set_melds(g, 0, "K K K K K K K; Q Q Q Q Q 2 JK")
    play(g, ["draw", "meld 9 9 9", "discard 4"])
    assert lines(g, 0)["going out"] == 100
    assert "going out" not in lines(g, 1)


# ---------------------------------------------------------------- 10.7 penalties, exact cut
def test_10_7_engine_games_score_no_penalties_or_cuts() -> None:
    g = stock_out(preset("hand-and-foot-classic"), "9 9 | 4")
    assert not any(label in ("penalties",) or label.startswith("exact cuts")
                   for label in lines(g, 0))


def test_10_7_scorekeeper_entries_exact_cut_and_penalties() -> None:
    rules = preset("hand-and-foot-classic")
    got = {line.label: (line.points, line.clause)
           for line in score_team(rules, Tally(exact_cuts=2, penalties=1000))}
    assert got["exact cuts x2"] == (200, "10.7")
    assert got["penalties"] == (-1000, "10.7")
    assert preset(HKF).knee_reminder_penalty == 1000
    assert preset("hand-and-foot-13").over_meld_penalty == 100


# ---------------------------------------------------------------- 10.8 the game
def test_10_8_a_game_is_four_rounds_and_totals_add_up() -> None:
    rules = preset(HF)
    quick = [deal(rules, "A 9 | K", stock="4 6", pile="6") for _ in range(4)]
    g = Game.new(rules, deals=quick, first_dealer=3)
    for round_no in range(1, 5):
        assert g.round_no == round_no
        play(g, ["draw", "discard 4"])
    assert g.over and len(g.results) == 4
    for team in (0, 1):
        assert g.totals[team] == sum(round_total(g, team, r) for r in range(1, 5))
    assert clause(g, "draw") == "10.8"
    assert g.legal_actions() == []
    # Team 0 holds A 9 | K (40) and a filler seat (80); team 1 two filler seats (160).
    assert winners(g.totals) == [0] and g.totals[0] > g.totals[1]


def test_10_8_every_preset_plays_four_rounds() -> None:
    for name in ("hand-and-foot", "hand-and-foot-classic", "hand-and-foot-13", HKF,
                 "triple-play", "hand-knee-foot-club"):
        assert preset(name).rounds == 4


# ---------------------------------------------------------------- every clause has a test
def test_10_8_every_clause_has_a_rules_test() -> None:
    names: set[str] = set()
    for path in Path(__file__).parent.glob("test_clauses_*.py"):
        names |= set(re.findall(r"^def (test_\d+_\d+_\w+)", path.read_text(), re.M))
    for number in CLAUSES:
        prefix = "test_" + number.replace(".", "_") + "_"
        assert any(n.startswith(prefix) for n in names), f"no test for clause {number}"
