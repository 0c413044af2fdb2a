"""Rules tests for sections 3 and 4 of docs/RULES.md: a turn, and taking the pile."""

from __future__ import annotations

import pytest

from handfoot.cards import BLACK_THREE, KING, RED_THREE
from handfoot.events import Drew
from handfoot.presets import house_rules, preset
from scenario import WILD_SLOT, cards, clause, event_names, game, hand, legal_texts, play

HF = "hand-and-foot"  # 002
HKF = "hand-knee-foot"  # 000

# 000 in one turn: seven kings close the team's first canasta (the knee "9" comes up at once),
# and discarding the 9 empties the knee, so seat 0 plays its foot from its next turn.
KNEE_TO_FOOT = ["draw", "meld K K K", "add K: K", "add K: K", "add K: K", "add K: K",
                "discard 9"]


def in_foot_000(name: str = HKF, foot: str = "8 8 8", later_stock: str = "",
                **house: object) -> object:
    """Seat 0 in its foot at its second turn (000 or 001); the others draw 4s and 6s."""
    stock = "K K 4 6 4 6 4 6 " + later_stock + " 4 6 4 6 4 6 4 6"
    g = game(house_rules(name, house), f"K K K K K | 9 | {foot}", stock=stock)
    play(g, KNEE_TO_FOOT)
    assert g.packet_no[0] == 2
    for _ in range(3):
        play(g, ["draw", "discard 4"])
    return g


# ---------------------------------------------------------------- 3.1 whose turn it is
def test_3_1_the_turn_passes_left_after_a_discard() -> None:
    g = game(preset(HF), stock="4 6 4 6 4 6 4 6 4 6")
    seats = []
    for _ in range(5):
        seats.append(g.seat)
        assert g.actor == g.seat
        play(g, ["draw", "discard 4"])
    assert seats == [0, 1, 2, 3, 0]


def test_3_1_only_the_asked_partner_acts_while_answering() -> None:
    g = in_foot_000(permission_yes="allows")  # a yes that does not oblige: ask freely
    play(g, ["draw", "ask"])
    assert g.seat == 0 and g.actor == 2
    assert clause(g, "discard 8") == "8.5"
    assert legal_texts(g) == {"answer yes", "answer no"}


# ---------------------------------------------------------------- 3.2 drawing
@pytest.mark.parametrize("name", ["hand-and-foot", "hand-and-foot-classic", "hand-and-foot-13"])
def test_3_2_a_turn_draws_two_from_the_stock(name: str) -> None:
    g = game(preset(name), "9 9 | 4", stock="K A 4 6")
    play(g, ["draw"])
    assert hand(g, 0) == "9 9 K A"
    assert clause(g, "draw") == "3.2"


def test_3_2_with_one_card_left_the_draw_takes_it() -> None:
    g = game(preset(HF), "9 9 | 4", stock="K")
    events = play(g, ["draw"])
    assert hand(g, 0) == "9 9 K" and g.stock == []
    assert Drew(0, 1) in events


# ---------------------------------------------------------------- 3.3 red threes drawn
def test_3_3_a_red_three_drawn_as_the_stocks_last_card_is_laid_unreplaced() -> None:
    g = game(preset(HF), "9 9 | 4", stock="R3")
    play(g, ["draw"])
    assert g.red3[0] == 1 and hand(g, 0) == "9 9" and g.stock == []



def test_3_3_a_drawn_red_three_is_laid_and_replaced_again_and_again_002() -> None:
    g = game(preset(HF), "9 9 | 4", stock="R3 K R3 A 8 4")
    play(g, ["draw"])
    assert g.red3[0] == 2
    assert hand(g, 0) == "9 9 K A"  # R3 K drawn; R3 replaced by R3, that one by A


def test_3_3_a_red_three_drawn_in_the_foot_is_replaced_002() -> None:
    # Seat 0 melds its way to one card, discards it, and plays the foot from its next turn.
    g = game(preset(HF), "A A | 8", stock="A 9 4 6 4 6 4 6 R3 K Q 4")
    play(g, ["draw", "meld A A A", "discard 9"])
    for _ in range(3):
        play(g, ["draw", "discard 4"])
    play(g, ["draw"])
    assert g.packet_no[0] == 1
    assert g.red3[0] == 1 and hand(g, 0) == "8 Q K"


def test_3_3_a_red_three_drawn_in_the_foot_is_replaced_000() -> None:
    # 000 replaces the red threes "drawn from the stock", wherever the player is.
    g = in_foot_000(later_stock="R3 Q A")
    play(g, ["draw"])
    assert g.red3[0] == 1 and hand(g, 0) == "8 8 8 Q A"


def test_3_3_no_replacement_once_the_knee_is_picked_up_001() -> None:
    g = in_foot_000("triple-play", later_stock="R3 Q A")
    play(g, ["draw"])
    assert g.red3[0] == 1 and hand(g, 0) == "8 8 8 Q"
    assert g.stock[-1] == cards("A")[0]


def test_3_3_a_drawn_red_three_is_replaced_in_the_hand_001() -> None:
    g = game(preset("triple-play"), "9 9 | 4 | 4", stock="R3 Q A 4")
    play(g, ["draw"])
    assert g.red3[0] == 1 and hand(g, 0) == "9 9 Q A"


def test_3_3_red_threes_stay_in_the_hand_in_004() -> None:
    g = game(preset("hand-and-foot-13"), "9 9 | 4", stock="R3 Q A 4")
    play(g, ["draw"])
    assert g.red3[0] == 0 and g.hands[0][RED_THREE] == 1
    play(g, ["discard R3"])  # a penalty card may be thrown away
    assert g.pile[-1] == RED_THREE


# ---------------------------------------------------------------- 3.4 melding
def test_3_4_meld_after_drawing_and_only_cards_you_hold() -> None:
    g = game(preset(HF), "K K K Q Q 9 A | 4", stock="A A 4 4")
    assert clause(g, "meld K K K") == "3.4"
    play(g, ["draw"])
    assert clause(g, "meld Q Q Q") == "3.4"
    play(g, ["meld K K K", "meld A A A"])
    assert g.opened[0]


# ---------------------------------------------------------------- 3.5 discarding
def test_3_5_discard_after_drawing_a_card_you_hold_and_the_turn_ends() -> None:
    g = game(preset(HF), "K 9 | 4", stock="8 8 4 6")
    assert clause(g, "discard 9") == "3.5"
    play(g, ["draw"])
    assert clause(g, "discard A") == "3.5"
    play(g, ["discard 9"])
    assert g.pile[-1] == cards("9")[0] and g.seat == 1


# ---------------------------------------------------------------- 3.6 knocking
def test_3_6_after_taking_the_pile_000_knocks_instead_of_discarding() -> None:
    g = game(preset(HKF), "K K 9 9 | 4 | 4", pile="4 6 8 K")
    g.opened[0] = True
    play(g, ["take-pile"])
    assert hand(g, 0) == "4 6 8 9 9"
    assert clause(g, "discard 9") == "3.6"
    assert "knock" in legal_texts(g)
    play(g, ["knock"])
    assert g.seat == 1


@pytest.mark.parametrize("name", ["hand-and-foot", "hand-and-foot-classic", "hand-and-foot-13"])
def test_3_6_after_taking_the_pile_002_003_004_still_discard(name: str) -> None:
    g = game(preset(name), "K K 9 9 | 4", pile="4 6 8 K")
    g.opened[0] = True
    play(g, ["take-pile"])
    assert clause(g, "knock") == "3.6"
    assert "knock" not in legal_texts(g)
    play(g, ["discard 9"])
    assert g.seat == 1


def test_3_6_knock_only_after_taking_the_pile() -> None:
    g = game(preset(HKF), "K K 9 9 | 4 | 4")
    play(g, ["draw"])
    assert clause(g, "knock") == "3.6"


# ---------------------------------------------------------------- 4.1 how much of the pile
def test_4_1_000_takes_the_whole_pile() -> None:
    g = game(preset(HKF), "K K 9 9 | 4 | 4", pile="4 4 6 6 8 8 9 10 10 J Q K")
    g.opened[0] = True
    play(g, ["take-pile"])
    assert g.pile == []
    assert hand(g, 0) == "4 4 6 6 8 8 9 9 9 10 10 J Q"


@pytest.mark.parametrize("name", ["hand-and-foot", "hand-and-foot-classic", "hand-and-foot-13"])
def test_4_1_hand_and_foot_takes_the_top_card_and_six_beneath(name: str) -> None:
    g = game(preset(name), "K K 9 9 | 4", pile="4 4 6 6 8 8 9 10 10 J Q K")
    g.opened[0] = True
    play(g, ["take-pile"])
    assert g.pile == list(cards("4 4 6 6 8"))
    assert hand(g, 0) == "8 9 9 9 10 10 J Q"
    assert g.nat[0][KING] == 3


def test_4_1_a_short_pile_is_taken_whole() -> None:
    g = game(preset(HF), "K K 9 9 | 4", pile="J K")
    g.opened[0] = True
    play(g, ["take-pile"])
    assert g.pile == [] and hand(g, 0) == "9 9 J"


def test_4_1_the_pile_instead_of_drawing_never_after() -> None:
    g = game(preset(HF), "K K 9 9 | 4", pile="K", stock="8 8 4 4")
    g.opened[0] = True
    play(g, ["draw"])
    assert clause(g, "take-pile") == "4.1"


def test_4_1_an_empty_pile_cannot_be_taken() -> None:
    g = game(preset(HF), "K K 9 9 | 4", pile="")
    assert clause(g, "take-pile") == "4.1"


# ---------------------------------------------------------------- 4.2 a three on top
@pytest.mark.parametrize("name", ["hand-and-foot", "hand-knee-foot", "hand-and-foot-13"])
def test_4_2_black_three_on_top_blocks_the_pile(name: str) -> None:
    rules = preset(name)
    seat0 = " | ".join(["B3 B3 K K"] + ["4"] * (len(rules.packets) - 1))
    g = game(rules, seat0, pile="K K B3")
    g.opened[0] = True
    assert clause(g, "take-pile") == "4.2"
    assert {a.text for a in g.legal_actions()} == {"draw"}


def test_4_2_black_three_blocks_only_while_on_top() -> None:
    g = game(preset(HF), "B3 4 4 | 4", "9 9 6 | 4", "9 9 4 | 4", stock="6 6 8 8 6 6")
    g.opened[:] = [True, True]
    play(g, ["draw", "discard B3"])
    assert clause(g, "take-pile") == "4.2"  # seat 1 is blocked...
    play(g, ["draw", "discard 9"])
    assert clause(g, "take-pile") is None  # ...and the 9 on it opens the pile for seat 2
    play(g, ["take-pile"])
    assert g.nat[0][cards("9")[0]] == 3
    assert g.hands[2][BLACK_THREE] == 1


def test_4_2_a_red_three_left_on_top_blocks_too() -> None:
    g = game(preset(HKF), "R3 R3 K K | 4 | 4", pile="K R3")
    g.opened[0] = True
    assert clause(g, "take-pile") == "4.2"


# ---------------------------------------------------------------- 4.3 the pair
@pytest.mark.parametrize("name", ["hand-and-foot", "hand-and-foot-classic", "hand-and-foot-13",
                                  "hand-knee-foot"])
def test_4_3_the_pile_needs_a_natural_pair(name: str) -> None:
    rules = preset(name)
    seat0 = " | ".join(["K 2 JK 9"] + ["4"] * (len(rules.packets) - 1))
    g = game(rules, seat0, pile="8 K")
    g.opened[0] = True
    assert clause(g, "take-pile") == "4.3"
    assert clause(g, "take-pile with 2") == "4.3"
    assert clause(g, "take-pile with JK") == "4.3"


def test_4_3_001_takes_with_any_two_cards_that_meld_with_the_top() -> None:
    g = game(preset("triple-play"), "K 2 9 9 | 4 | 4", pile="8 K")
    g.opened[0] = True
    assert clause(g, "take-pile") == "4.3"
    assert "take-pile with 2" in legal_texts(g)
    play(g, ["take-pile with 2"])
    assert (g.nat[0][KING], g.two[0][KING]) == (2, 1)
    assert hand(g, 0) == "8 9 9"


def test_4_3_001_a_seven_on_top_takes_no_wild_partner() -> None:
    g = game(preset("triple-play"), "7 2 9 9 | 4 | 4", pile="8 7")
    g.opened[0] = True
    assert clause(g, "take-pile with 2") == "5.4"


# ---------------------------------------------------------------- 4.4 a wild card on top
@pytest.mark.parametrize("name", ["hand-and-foot", "hand-and-foot-classic", "hand-knee-foot",
                                  "triple-play"])
def test_4_4_wild_on_top_needs_two_of_the_same_wild(name: str) -> None:
    rules = preset(name)
    rest = ["4"] * (len(rules.packets) - 1)
    g = game(rules, " | ".join(["2 JK 9 9", *rest]), pile="8 2")
    g.opened[0] = True
    assert clause(g, "take-pile") == "4.4"  # a joker is no substitute for a 2
    g = game(rules, " | ".join(["2 2 9 9", *rest]), pile="8 2")
    g.opened[0] = True
    play(g, ["take-pile"])
    assert g.two[0][WILD_SLOT] == 3
    g = game(rules, " | ".join(["JK JK 9 9", *rest]), pile="8 JK")
    g.opened[0] = True
    play(g, ["take-pile"])
    assert g.jok[0][WILD_SLOT] == 3


def test_4_4_a_discarded_wild_blocks_the_pile_in_004() -> None:
    g = game(preset("hand-and-foot-13"), "2 2 JK JK 9 | 4", pile="8 2")
    g.opened[0] = True
    assert clause(g, "take-pile") == "4.4"


# ---------------------------------------------------------------- 4.5 the taken cards must fit
def test_4_5_000_no_pile_with_five_or_more_of_its_rank_already_melded() -> None:
    g = game(preset(HKF), "K K 9 9 | 4 | 4", pile="8 K")
    g.opened[0] = True
    g.nat[0][KING] = 5
    assert clause(g, "take-pile") == "4.5"


def test_4_5_000_with_four_melded_the_pile_makes_the_canasta() -> None:
    g = game(preset(HKF), "K K 9 9 | Q Q | 4", pile="8 K")
    g.opened[0] = True
    g.nat[0][KING] = 4
    events = play(g, ["take-pile"])
    assert "canasta" in event_names(events)
    assert g.closed[0] == [(KING, 7, 0, 0)]
    assert g.packet_no[0] == 1 and hand(g, 0) == "8 9 9 Q Q"  # the knee came with it


def test_4_5_wild_limits_apply_to_a_pile_take() -> None:
    g = game(preset("hand-and-foot-classic"), "K K 9 9 | 4", pile="8 K")
    g.opened[0] = True
    g.nat[0][KING], g.two[0][KING] = 2, 1  # K K 2: no more room for a wild... but naturals fit
    assert clause(g, "take-pile") is None
    rules = house_rules("triple-play", {"max_wilds": 1})
    g = game(rules, "K 2 9 9 | 4 | 4", pile="8 K")
    g.opened[0] = True
    g.nat[0][KING], g.two[0][KING] = 2, 1  # a second wild: one too many at this table
    assert clause(g, "take-pile with 2") == "5.3"


# ---------------------------------------------------------------- 4.6 before the opening
@pytest.mark.parametrize("name", ["hand-and-foot", "hand-knee-foot", "triple-play",
                                  "hand-and-foot-classic"])
def test_4_6_top_card_counts_toward_the_opening(name: str) -> None:
    rules = preset(name)
    rest = ["4"] * (len(rules.packets) - 1)
    # K K K (30 with the top card) + 6 6 6 6 (20) = 50: enough in round 1.
    g = game(rules, " | ".join(["K K 6 6 6 6 9", *rest]), pile="A A Q K")
    play(g, ["take-pile"])
    assert g.pile == list(cards("A A Q"))  # set aside until the opening is made
    assert not g.opened[0]
    assert clause(g, "discard 9") == "3.5"  # the opening must be finished or taken back
    assert g.hands[0][cards("A")[0]] == 0  # the cards beneath wait for the opening
    play(g, ["meld 6 6 6", "add 6: 6"])
    assert g.opened[0]
    assert g.hands[0][cards("A")[0]] == 2 and g.hands[0][cards("Q")[0]] == 1
    assert g.pile == []


def test_4_6_cards_beneath_the_top_do_not_count() -> None:
    # K K K = 30 with the top card; the aces underneath would make it, but they do not count.
    g = game(preset(HF), "K K 9 9 | 4", pile="A A A K", stock="8 8 4 4")
    play(g, ["take-pile"])
    assert legal_texts(g) == {"retract"}
    play(g, ["retract"])
    assert g.pile == list(cards("A A A K")) and hand(g, 0) == "9 9 K K"
    assert clause(g, "take-pile") == "6.3"
    play(g, ["draw"])


def test_4_6_004_the_minimum_must_come_from_the_hand() -> None:
    # The same cards open in 002 (top K counts: 30 + 20) but not in 004 (20 + 20).
    g = game(preset("hand-and-foot-13"), "K K 6 6 6 6 9 | 4", pile="A K")
    play(g, ["take-pile", "meld 6 6 6", "add 6: 6"])
    assert not g.opened[0]
    assert clause(g, "discard 9") == "3.5"
    play(g, ["retract"])
    assert g.pile == list(cards("A K"))
    g = game(preset("hand-and-foot-13"), "K K 8 8 8 9 | 4", pile="A K")
    play(g, ["take-pile", "meld 8 8 8"])  # 20 + 30 from the hand
    assert g.opened[0] and hand(g, 0) == "9 A"


def test_4_6_000_variant_top_card_only_takes_just_the_top_card() -> None:
    rules = house_rules(HKF, {"pile_before_opening": "top_card_only"})
    g = game(rules, "K K A A A 9 | 4 | 4", pile="4 6 Q K")
    play(g, ["take-pile", "meld A A A"])
    assert g.opened[0]
    assert g.pile == list(cards("4 6 Q")) and hand(g, 0) == "9"


def test_4_6_000_variant_top_card_only_takes_the_whole_pile_once_open() -> None:
    rules = house_rules(HKF, {"pile_before_opening": "top_card_only"})
    g = game(rules, "K K A A A 9 | 4 | 4", pile="4 6 Q K")
    g.opened[0] = True
    play(g, ["take-pile"])
    assert g.pile == []


def test_4_6_000_variant_no_pile_before_the_opening() -> None:
    rules = house_rules(HKF, {"pile_before_opening": "never"})
    g = game(rules, "K K A A A 9 | 4 | 4", pile="4 6 Q K")
    assert clause(g, "take-pile") == "4.6"
    g.opened[0] = True
    assert clause(g, "take-pile") is None


def test_4_6_the_knee_partner_picks_up_after_taking_the_pile() -> None:
    # 000: seat 2's knee waits for its next turn, after drawing; taking the pile is its draw.
    g = game(preset(HKF), "K K K K K 4 | 9 9 | 4", "4 6 | 4 | 4", "Q Q 6 | J J | 4",
             stock="K K 4 6 4 6")
    play(g, ["draw", "meld K K K", "add K: K", "add K: K", "add K: K", "add K: K",
             "discard 4"])
    assert g.knee_pending[2] and g.packet_no[0] == 1
    play(g, ["draw", "discard 6"])  # seat 1 discards... a 6: seat 2 holds 6, not a pair
    g.pile.append(cards("Q")[0])
    play(g, ["take-pile"])
    assert g.packet_no[2] == 1 and hand(g, 2) == "4 6 6 6 J J"


def test_4_1_a_red_three_left_in_the_pile_is_laid_when_taken_000() -> None:
    # 000 covers rejected upcards, so a red three can sit under the top card (D16).
    g = game(preset(HKF), "K K 9 9 | 4 | 4", pile=None, stock="R3 K A 4 6 4 6")
    assert g.pile == list(cards("R3 K"))
    g.opened[0] = True
    play(g, ["take-pile"])
    assert g.red3[0] == 1 and g.hands[0][RED_THREE] == 0
