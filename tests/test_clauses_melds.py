"""Rules tests for sections 5 and 6 of docs/RULES.md: melds, canastas and the opening."""

from __future__ import annotations

import pytest

from handfoot.actions import Add
from handfoot.cards import JACK, KING, QUEEN, SEVEN
from handfoot.derived import derived_for
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, house_rules, preset
from handfoot.rules import Rules
from handfoot.views import view
from scenario import WILD_SLOT, clause, deal, event_names, game, hand, legal_texts, play

HF = "hand-and-foot"  # 002
HKF = "hand-knee-foot"  # 000


def opened(name: str | Rules, seat0: str, stock: str = "4 6 4 6 4 6 4 6") -> Game:
    """Seat 0 to play, its team already opened, after drawing from ``stock``."""
    rules = preset(name) if isinstance(name, str) else name
    rest = ["4"] * (len(rules.packets) - 1)
    g = game(rules, " | ".join([seat0, *rest]), stock=stock)
    g.opened[0] = True
    play(g, ["draw"])
    return g


def at_round(rules: Rules, round_no: int, seat_text: str, stock: str = "4 6 4 6 4 6") -> Game:
    """A game at the start of ``round_no`` whose first player holds ``seat_text``.

    Earlier rounds end at once: their stock holds two cards, drawn by the first player.
    """
    quick = deal(rules, stock="4 4", pile="6")
    seat = (round_no - 1) % rules.players  # seat 0 plays first in round 1, the deal passes left
    texts = [" | ".join(["9 10 J Q"] * len(rules.packets))] * rules.players
    texts[seat] = seat_text
    last = deal(rules, *texts, stock=stock, pile="6")
    g = Game.new(rules, deals=[quick] * (round_no - 1) + [last], first_dealer=rules.players - 1)
    for _ in range(round_no - 1):
        play(g, ["draw", "discard 4"])
    assert g.round_no == round_no and g.seat == seat
    return g


# ---------------------------------------------------------------- 5.1 ranks and size
def test_5_1_a_new_meld_has_at_least_three_cards() -> None:
    g = opened(HF, "K K 9 9 9")
    assert clause(g, "lay K K") == "5.1"
    play(g, ["lay 9 9 9"])
    assert g.nat[0][9 - 4] == 3


def test_5_1_a_meld_stops_at_seven_and_becomes_a_canasta() -> None:
    g = opened(HF, "K K K K K K K K 9 9")
    play(g, ["meld K K K"] + ["add K: K"] * 4)
    assert g.closed[0] == [(KING, 7, 0, 0)]
    assert g.nat[0][KING] == 0  # the eighth king cannot go on: it starts a new meld only
    assert clause(g, "add K: K") == "5.6"  # the canasta closed at seven (5.6)


# ---------------------------------------------------------------- 5.2 one open meld per rank
def test_5_2_one_unfinished_meld_of_a_rank_per_team() -> None:
    g = opened(HF, "K K K K K K 9 9")
    play(g, ["meld K K K"])
    assert clause(g, "meld K K K") == "5.2"


def test_5_2_another_meld_of_the_rank_after_the_canasta_closes() -> None:
    g = opened(HF, "K K K K K K K K K K 9 9")
    play(g, ["meld K K K"] + ["add K: K"] * 4)
    play(g, ["meld K K K"])
    assert g.closed[0] == [(KING, 7, 0, 0)] and g.nat[0][KING] == 3


def test_5_2_one_lay_down_closes_a_canasta_and_starts_another_meld_of_the_rank() -> None:
    # Each part of a lay-down is one meld: after the first closes a canasta of kings, the
    # second starts a new meld of kings, as single steps would (5.6: "a new meld of the rank
    # may then be started").
    g = opened(HF, "K K K K K K K K K K 9 9")
    play(g, ["lay K K K K K K K, K K K"])
    assert g.closed[0] == [(KING, 7, 0, 0)] and g.nat[0][KING] == 3
    assert g.hands[0][KING] == 0


def test_5_2_an_opening_lay_down_may_hold_two_melds_of_a_rank() -> None:
    # Round 4 needs 150 points: ten kings (100) and three aces (60) reach it, but only as a
    # canasta of kings, a new meld of kings and the aces, laid at once (6.1).
    g = at_round(preset(HF), 4, "K K K K K K K K K K A A A 9 | 4 4 4")
    play(g, ["draw"])
    assert clause(g, "lay K K K K K K K, A A A") == "6.1"  # 130
    assert clause(g, "lay K K K K K K K K K K, A A A") == "5.6"  # one part is one meld
    play(g, ["lay K K K K K K K, K K K, A A A"])
    team = g.team_of(g.seat)
    assert g.opened[team] and g.closed[team] == [(KING, 7, 0, 0)] and g.nat[team][KING] == 3


# ---------------------------------------------------------------- 5.3 wild cards in a meld
def test_5_3_002_more_naturals_than_wilds_so_four_and_three_in_a_book() -> None:
    g = opened(HF, "K K K K 2 2 2 9 9")
    play(g, ["meld K K K", "add K: 2", "add K: 2"])
    assert clause(g, "add K: 2") == "5.3"  # 3 + 3 is not fewer wilds than naturals
    play(g, ["add K: K", "add K: 2"])  # 4 + 3 = 7: the most a book holds
    assert g.closed[0] == [(KING, 4, 3, 0)]
    assert g.canasta_kinds(0) == ["dirty"]


def test_5_3_002_two_and_two_is_not_allowed() -> None:
    g = opened(HF, "K K K 2 JK 9 9")
    play(g, ["meld K K 2"])
    assert clause(g, "add K: JK") == "5.3"


@pytest.mark.parametrize("name", ["hand-and-foot-classic", "triple-play"])
def test_5_3_at_most_half_one_wild_in_three_to_five_two_in_six_or_seven(name: str) -> None:
    g = opened(name, "K K K K K 2 2 JK 9 9")
    play(g, ["meld K K 2"])
    assert clause(g, "add K: 2") == "5.3"  # 2 wilds in 4
    play(g, ["add K: K"])
    assert clause(g, "add K: 2") == "5.3"  # 2 wilds in 5
    play(g, ["add K: K", "add K: 2"])  # 4 + 2 = 6
    assert clause(g, "add K: JK") == "5.3"  # never a third
    play(g, ["add K: K"])
    assert g.closed[0] == [(KING, 5, 2, 0)]


def test_5_3_000_two_naturals_before_a_wild_and_at_most_two() -> None:
    g = opened(HKF, "K K K K K 2 2 JK 9 9")
    assert clause(g, "meld K 2 2") == "5.3"
    assert clause(g, "meld K 2 JK") == "5.3"
    play(g, ["meld K K 2", "add K: JK"])  # 2 + 2 is allowed in 000
    assert clause(g, "add K: 2") == "5.3"
    play(g, ["add K: K", "add K: K", "add K: K"])
    assert g.closed[0] == [(KING, 5, 1, 1)]


def test_5_3_004_wilds_never_outnumber_naturals_and_a_book_has_four_naturals() -> None:
    g = opened("hand-and-foot-13", "K K K K 2 2 2 JK 9 9")
    play(g, ["meld K K 2", "add K: 2"])  # 2 + 2
    assert clause(g, "add K: JK") == "5.3"  # 2 + 3 outnumbers
    play(g, ["add K: K", "add K: JK"])  # 3 + 3 on the way
    assert clause(g, "add K: 2") == "5.3"  # a book never holds four wilds
    play(g, ["add K: K"])
    assert g.closed[0] == [(KING, 4, 2, 1)]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_5_3_a_meld_starts_with_two_naturals(name: str) -> None:
    g = opened(name, "K 2 2 9 9 9")
    assert clause(g, "meld K 2 2") == "5.3"


def test_5_3_house_rule_wilds_first_lets_wilds_start_a_meld() -> None:
    rules = house_rules("hand-and-foot-classic", {"wilds_first": True})
    g = opened(rules, "K 2 2 9 9 9")
    assert clause(g, "meld K 2 2") is None


# ---------------------------------------------------------------- 5.4 no wilds on 5s and 7s
@pytest.mark.parametrize("name", ["hand-knee-foot", "triple-play"])
def test_5_4_fives_and_sevens_take_no_wild_cards(name: str) -> None:
    g = opened(name, "7 7 7 5 5 2 JK 9 9")
    assert clause(g, "meld 7 7 2") == "5.4"
    assert clause(g, "meld 5 5 JK") == "5.4"
    play(g, ["meld 7 7 7"])
    assert clause(g, "add 7: 2") == "5.4"


def test_5_4_hand_and_foot_sevens_take_wild_cards() -> None:
    g = opened(HF, "7 7 2 9 9 9")
    assert clause(g, "meld 7 7 2") is None


# ---------------------------------------------------------------- 5.5 melds of wild cards
@pytest.mark.parametrize("name", ["hand-and-foot", "hand-and-foot-classic", "hand-knee-foot",
                                  "triple-play"])
def test_5_5_a_meld_of_wild_cards_only(name: str) -> None:
    g = opened(name, "2 2 2 2 JK JK JK 9 9")
    play(g, ["meld 2 2 JK", "add wild: 2", "add wild: 2", "add wild: JK"])
    assert g.refusal(Add(WILD_SLOT, KING)) is not None
    play(g, ["add wild: JK"])
    assert g.closed[0] == [(WILD_SLOT, 0, 4, 3)]
    assert g.canasta_kinds(0) == ["wild"]


def test_5_5_004_allows_no_meld_of_wild_cards() -> None:
    g = opened("hand-and-foot-13", "2 2 2 JK 9 9")
    assert clause(g, "meld 2 2 2") == "5.5"
    assert clause(g, "meld 2 2 JK") == "5.5"


def test_5_5_house_rule_no_wild_melds_in_002() -> None:
    rules = house_rules(HF, {"wild_melds": False, "pile_wild_top": "blocked"})
    g = opened(rules, "2 2 2 9 9")
    assert clause(g, "meld 2 2 2") == "5.5"


# ---------------------------------------------------------------- 5.6 canastas
def test_5_6_canasta_kinds_in_000() -> None:
    g = opened(HKF, "7 7 7 7 7 7 7 5 5 5 5 5 5 5 K K K K K K K Q Q Q Q Q 2 JK 9 9")
    for rank in ("7", "5", "K"):
        play(g, [f"meld {rank} {rank} {rank}"] + [f"add {rank}: {rank}"] * 4)
    play(g, ["meld Q Q 2", "add Q: JK", "add Q: Q", "add Q: Q", "add Q: Q"])
    assert sorted(g.canasta_kinds(0)) == ["5s", "7s", "clean", "dirty"]


def test_5_6_sevens_are_an_ordinary_clean_canasta_in_002() -> None:
    g = opened(HF, "7 7 7 7 7 7 7 9 9")
    play(g, ["meld 7 7 7"] + ["add 7: 7"] * 4)
    assert g.canasta_kinds(0) == ["clean"]


def test_5_6_house_rule_canastas_keep_growing() -> None:
    rules = house_rules("hand-and-foot-classic", {"add_to_canasta": "always"})
    g = opened(rules, "K K K K K K K K 2 9 9")
    events = play(g, ["meld K K K"] + ["add K: K"] * 4)
    assert "canasta" in event_names(events) and g.closed[0] == []
    play(g, ["add K: K", "add K: 2"])
    assert (g.nat[0][KING], g.two[0][KING]) == (8, 1)
    assert g.canasta_kinds(0) == ["dirty"]


def test_5_6_house_rule_a_second_part_of_a_growing_canasta_adds_to_it() -> None:
    # Where canastas keep growing, the meld of kings stays open: a second part of kings in the
    # same lay-down adds to it instead of starting another.
    rules = house_rules("hand-and-foot-classic", {"add_to_canasta": "always"})
    g = opened(rules, "K K K K K K K K 9 9")
    play(g, ["lay K K K K K K K, K"])
    assert g.nat[0][KING] == 8 and g.closed[0] == []


def test_5_6_000_variant_only_a_spare_canasta_grows() -> None:
    rules = house_rules(HKF, {"add_to_canasta": "not_special"})
    g = opened(rules, "K K K K K K K K Q Q Q Q Q Q Q Q 7 7 7 7 7 7 7 7 2 9 9")
    play(g, ["meld K K K"] + ["add K: K"] * 4)
    # The team's only clean canasta is one of the five it needs to go out: closed at seven.
    assert g.closed[0] == [(KING, 7, 0, 0)]
    assert clause(g, "add K: K") == "5.6"
    play(g, ["meld Q Q Q"] + ["add Q: Q"] * 4)
    # A second clean canasta is spare: it stays open and takes an eighth queen.
    assert g.nat[0][QUEEN] == 7
    play(g, ["add Q: Q"])
    assert g.nat[0][QUEEN] == 8
    # A wild card makes it dirty, which the team still needs: one of the five, so it closes.
    play(g, ["add Q: 2"])
    assert g.closed[0][-1] == (QUEEN, 8, 1, 0) and g.nat[0][QUEEN] == 0
    play(g, ["meld 7 7 7"] + ["add 7: 7"] * 4)
    assert clause(g, "add 7: 7") == "5.6"  # never onto 7s, 5s or wild cards
    assert sorted(g.canasta_kinds(0)) == ["7s", "clean", "dirty"]


def test_5_6_000_variant_the_spare_is_judged_by_exact_assignment() -> None:
    rules = house_rules("hand-and-foot-classic", {"add_to_canasta": "not_special"})
    derived = derived_for(rules)
    assert derived.quota_missing(["clean", "clean", "clean"]) == {"dirty": 2, "wild": 1}
    g = opened(rules, "K K K K K K K Q Q Q Q Q Q Q J J J J J J J J 9 9")
    play(g, ["meld K K K"] + ["add K: K"] * 4 + ["meld Q Q Q"] + ["add Q: Q"] * 4)
    assert len(g.closed[0]) == 2  # 003 asks for two clean canastas: both are needed
    play(g, ["meld J J J"] + ["add J: J"] * 4)
    assert g.nat[0][JACK] == 7  # the third is spare
    play(g, ["add J: J"])
    assert g.nat[0][JACK] == 8


def test_5_6_pennies_from_heaven_a_card_is_set_aside_for_each_canasta() -> None:
    rules = preset("pennies-from-heaven")
    assert rules.canasta_pennies == 1
    g = opened(rules, "K K K K K K K 9 9", stock="4 6 A Q 8 J")
    stock = len(g.stock)
    events = play(g, ["meld K K K"] + ["add K: K"] * 4)
    assert [e.name for e in events].count("penny") == 1
    assert len(g.stock) == stock - 1 and sum(g.set_aside) == 1
    assert view(g, 1).set_aside == 1  # the table sees how many, never which


def test_5_6_pennies_from_heaven_needs_a_canasta_of_sevens() -> None:
    rules = preset("pennies-from-heaven")
    assert dict(rules.quota)["7s"] == 1 and dict(rules.canasta_bonus)["7s"] == 2500
    assert SEVEN in rules.no_wild_ranks  # a canasta of 7s is always clean
    derived = derived_for(rules)
    assert derived.quota_missing(["clean", "clean", "dirty", "dirty", "wild"]) == {"7s": 1}


# ---------------------------------------------------------------- 6.1 the opening minimum
@pytest.mark.parametrize(("name", "minimums"), [
    ("hand-and-foot", (50, 90, 120, 150)),
    ("hand-and-foot-classic", (50, 90, 120, 150)),
    ("hand-and-foot-13", (50, 90, 120, 150)),
    ("hand-knee-foot", (50, 90, 120, 150)),
    ("triple-play", (50, 90, 120, 150)),
    ("hand-knee-foot-club", (60, 90, 120, 150)),
])
def test_6_1_opening_minimum_by_round(name: str, minimums: tuple[int, ...]) -> None:
    rules = preset(name)
    seat_text = " | ".join(["9 10 J Q"] * len(rules.packets))
    for round_no, minimum in enumerate(minimums, start=1):
        g = at_round(rules, round_no, seat_text)
        assert g.minimum == minimum == g.opening_minimum(g.seat % 2)


def test_6_1_a_short_opening_cannot_end_the_turn() -> None:
    g = game(preset(HF), "K K K Q Q Q 4 | 4", stock="4 6")
    play(g, ["draw", "meld K K K"])
    assert not g.opened[0]
    assert clause(g, "discard 4") == "6.1"
    play(g, ["meld Q Q Q"])
    assert g.opened[0]
    play(g, ["discard 4"])


def test_6_1_club_sheet_opens_at_60() -> None:
    seat0 = "K K K 4 4 4 4 9 | 4 | 4"
    g = game(preset(HKF), seat0, stock="6 6")
    play(g, ["draw", "meld K K K", "meld 4 4 4", "add 4: 4"])  # 30 + 20 = 50
    assert g.opened[0]
    g = game(preset("hand-knee-foot-club"), seat0, stock="6 6")
    play(g, ["draw", "meld K K K", "meld 4 4 4", "add 4: 4"])
    assert not g.opened[0] and clause(g, "discard 9") == "6.1"


def test_6_1_opening_by_team_score_variant_of_000() -> None:
    rules = house_rules(HKF, {"opening_by": "score"})
    assert rules.opening_minimum(1, -50) == 15
    assert rules.opening_minimum(1, 0) == 50
    assert rules.opening_minimum(4, 1500) == 90
    assert rules.opening_minimum(1, 5000) == 120


def test_6_1_the_partner_melds_freely_after_the_opening() -> None:
    rules = preset(HF)
    g = game(rules, "K K K Q Q Q 4 | 4", "9 9 | 4", "8 8 8 4 | 4", stock="4 6 4 6 4 6")
    play(g, ["draw", "meld K K K", "meld Q Q Q", "discard 4"])
    play(g, ["draw", "discard 4"])
    play(g, ["draw", "meld 8 8 8", "discard 4"])  # 30 points, no minimum any more
    assert g.nat[0][8 - 4] == 3


# ---------------------------------------------------------------- 6.2 counting the opening
def test_6_2_000_worked_opening_round_3_kings_aces_and_a_joker() -> None:
    rules = preset(HKF)
    g = at_round(rules, 3, "K K K A A JK 9 | 4 | 4")
    assert g.minimum == 120
    play(g, ["draw"])
    assert clause(g, "lay A A JK") == "6.1"  # 90 is not enough in round 3
    play(g, ["lay K K K, A A JK"])  # 30 + 90 = 120
    assert g.opened[0 if g.seat % 2 == 0 else 1]


def test_6_2_002_worked_opening_round_2_kings_aces_fives() -> None:
    rules = preset(HF)
    g = at_round(rules, 2, "K K K A A A 5 5 5 9 | 4")
    assert g.minimum == 90
    play(g, ["draw"])
    assert clause(g, "lay K K K, 5 5 5") == "6.1"  # 45
    play(g, ["lay K K K, A A A, 5 5 5"])  # 105
    assert g.opened[g.seat % 2]


def test_6_2_red_threes_do_not_count_toward_the_opening() -> None:
    g = game(preset(HF), "R3 R3 K K K 9 | 4", stock="8 6 4 4 4 4")
    play(g, ["draw", "meld K K K"])
    assert g.red3[0] == 2 and not g.opened[0]


def test_6_2_the_opening_is_made_in_one_turn() -> None:
    g = game(preset(HF), "K K K 9 9 | 4", stock="4 6 4 6 4 6 4 6 4 6")
    play(g, ["draw", "meld K K K"])
    assert clause(g, "discard 4") == "6.1"  # 30 cannot wait on the table for next turn
    play(g, ["retract", "discard 4"])
    assert g.nat[0][KING] == 0 and hand(g, 0) == "6 9 9 K K K"


# ---------------------------------------------------------------- 6.3 taking back
def test_6_3_a_short_opening_is_taken_back_and_the_turn_ends_with_a_discard() -> None:
    g = game(preset(HF), "K K K 9 9 | 4", stock="4 6")
    play(g, ["draw", "meld K K K"])
    assert "retract" in legal_texts(g)
    play(g, ["retract"])
    assert hand(g, 0) == "4 6 9 9 K K K" and g.nat[0][KING] == 0
    assert clause(g, "meld K K K") == "6.3"
    assert clause(g, "retract") == "6.3"
    assert legal_texts(g) == {"discard 4", "discard 6", "discard 9", "discard K"}


def test_6_3_nothing_to_take_back_once_open() -> None:
    g = game(preset(HF), "K K K A A A 9 | 4", stock="4 6")
    play(g, ["draw", "meld K K K", "meld A A A"])
    assert clause(g, "retract") == "6.3"


def test_6_3_taking_back_a_pile_opening_returns_the_pile_and_the_player_draws() -> None:
    g = game(preset(HKF), "K K 9 9 | 4 | 4", pile="A Q K", stock="4 6")
    play(g, ["take-pile", "retract"])
    assert g.pile == [10, 8, KING] and hand(g, 0) == "9 9 K K"
    assert legal_texts(g) == {"draw"}
    play(g, ["draw", "discard 4"])
