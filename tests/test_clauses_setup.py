"""Rules tests for sections 1 and 2 of docs/RULES.md: cards, seats, the shoe, the deal."""

from __future__ import annotations

import pytest

from handfoot.actions import ActionSyntaxError, Add, parse_action
from handfoot.cards import BLACK_THREE, KING, RED_THREE, shoe_counts
from handfoot.deal import Deal, DealError
from handfoot.derived import derived_for
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, house_rules, preset
from scenario import cards, clause, game, hand, play

VALUES = {"4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "10": 10, "J": 10, "Q": 10,
          "K": 10, "A": 20, "2": 20, "JK": 50}


# ---------------------------------------------------------------- 1.1 card values
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_1_1_card_values_are_the_same_in_every_document(name: str) -> None:
    values = derived_for(preset(name)).values
    for token, value in VALUES.items():
        assert values[cards(token)[0]] == value, token


@pytest.mark.parametrize(("name", "black", "red_held"), [
    ("hand-and-foot", 5, 100),  # 002: a black three is a 5-point card; red held -100
    ("hand-and-foot-classic", 5, 100),  # 003
    ("hand-and-foot-13", 5, 100),  # 004: red threes only a penalty card (D7 for the black)
    ("hand-knee-foot", 100, 500),  # 000: minus 100 / minus 500
    ("triple-play", 100, 500),  # 001
])
def test_1_1_three_values_by_document(name: str, black: int, red_held: int) -> None:
    rules = preset(name)
    assert rules.black_three_penalty == black
    assert rules.red_three_penalty == red_held


def test_1_1_black_three_300_is_a_house_rule_of_000() -> None:
    assert house_rules("hand-knee-foot", {"black_three_penalty": 300}).black_three_penalty == 300


# ---------------------------------------------------------------- 1.2 wild cards
def test_1_2_twos_and_jokers_are_wild_and_jokers_are_equal() -> None:
    g = game(preset("hand-knee-foot"), "K K 2 JK 9 9 | 4 | 4", stock="8 8 8 8")
    play(g, ["draw", "meld K K 2", "add K: JK"])
    assert g.nat[0][KING] == 2 and g.two[0][KING] == 1 and g.jok[0][KING] == 1


def test_1_2_a_meld_of_only_a_three_and_wilds_is_not_wild() -> None:
    with pytest.raises(ActionSyntaxError):
        parse_action("meld B3 2 2")


# ---------------------------------------------------------------- 1.3 threes never melded
@pytest.mark.parametrize("text", ["meld R3 R3 R3", "meld B3 B3 B3", "add K: B3"])
def test_1_3_threes_are_never_melded_in_text(text: str) -> None:
    with pytest.raises(ActionSyntaxError):
        parse_action(text)


def test_1_3_a_three_added_to_a_meld_is_refused_citing_1_3() -> None:
    g = game(preset("hand-and-foot-13"), "K K K B3 R3 9 9 | 4", stock="8 8 8 8")
    play(g, ["draw", "meld K K K"])
    assert g.refusal(Add(KING, BLACK_THREE)) == ("1.3", "threes are never melded")
    assert g.refusal(Add(KING, RED_THREE)) == ("1.3", "threes are never melded")


# ---------------------------------------------------------------- 2.1 seats and teams
def test_2_1_partners_sit_across() -> None:
    rules = preset("hand-and-foot")
    assert rules.seats_of(0) == (0, 2) and rules.seats_of(1) == (1, 3)
    assert [rules.team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_2_1_a_partner_adds_to_the_team_meld_but_never_to_the_opponents() -> None:
    rules = house_rules("hand-and-foot", {"opening_minimums": [0, 0, 0, 0]})
    g = game(rules, "K K K 9 9 9 | 4", "K K 8 8 8 | 4", "K 10 10 10 | 4",
             stock="4 4 6 6 4 6 4 6")
    play(g, ["draw", "meld K K K", "discard 4"])
    play(g, ["draw"])
    assert clause(g, "add K: K") == "5.2"  # seat 1's team has no kings meld of its own
    play(g, ["discard 6"])
    play(g, ["draw", "add K: K", "discard 6"])  # seat 2 adds to the partner's kings
    assert g.nat[0][KING] == 4


def test_2_1_six_players_are_two_teams_of_three() -> None:
    rules = preset("hand-and-foot", players=6)
    assert rules.teams == 2 and rules.seats_of(0) == (0, 2, 4)
    for name in ("hand-and-foot", "hand-and-foot-classic", "hand-and-foot-13"):
        for players in (2, 3, 5):
            assert preset(name, players).team_size == 1


# ---------------------------------------------------------------- 2.2 the shoe
@pytest.mark.parametrize(("name", "players", "decks"), [
    ("hand-and-foot", 4, 5),  # 002: five decks
    ("hand-and-foot-classic", 4, 5),  # 003: one more deck than players
    ("hand-and-foot-classic", 2, 3),
    ("hand-and-foot-13", 4, 5),  # 004
    ("hand-and-foot-13", 6, 7),
    ("hand-knee-foot", 4, 6),  # 000: six decks, 324 cards
    ("hand-knee-foot", 6, 7),  # 000: seven decks for six
    ("triple-play", 4, 6),  # 001
])
def test_2_2_decks_by_document(name: str, players: int, decks: int) -> None:
    rules = preset(name, players)
    assert rules.decks == decks
    assert rules.shoe_size == 54 * decks


def test_2_2_a_deal_cannot_use_more_cards_than_the_shoe_holds() -> None:
    rules = preset("hand-and-foot")
    assert shoe_counts(5)[cards("JK")[0]] == 10
    jokers = cards(" ".join(["JK"] * 11))
    bad = Deal(packets=((jokers, ()),) + ((cards("4"), cards("4")),) * 3, stock=cards("4 4"))
    with pytest.raises(DealError):
        bad.check(rules)


# ---------------------------------------------------------------- 2.3 the deal
@pytest.mark.parametrize(("name", "sizes"), [
    ("hand-and-foot", (11, 11)),
    ("hand-and-foot-classic", (13, 13)),
    ("hand-and-foot-13", (13, 13)),
    ("hand-knee-foot", (15, 13, 11)),
    ("triple-play", (15, 13, 11)),
])
def test_2_3_packet_sizes_by_document(name: str, sizes: tuple[int, ...]) -> None:
    rules = preset(name)
    assert rules.packets == sizes
    g = Game.new(rules, seed=7)
    dealt = rules.players * sum(sizes)
    for seat in range(rules.players):
        # red threes laid from the hand are replaced, so the hand keeps its size (no 004 lays)
        assert g.hand_n[seat] == sizes[0]
        assert [sum(p) for p in g.packets[seat]] == list(sizes[1:])
    laid = sum(g.red3)
    assert len(g.stock) + len(g.pile) == rules.shoe_size - dealt - laid


def test_2_3_packets_are_dealt_from_the_dealers_left() -> None:
    from handfoot.deal import deal_from_order

    rules = preset("hand-and-foot", players=2)
    order = list(range(11)) * 6  # 4 5 6 ... A, repeated
    d = deal_from_order(rules, order, dealer=0)
    assert d.packets[1][0] == tuple(order[:11])  # seat 1 sits at the dealer's left
    assert d.packets[0][0] == tuple(order[11:22])


# ---------------------------------------------------------------- 2.4 red threes dealt
def test_2_4_red_threes_in_the_dealt_hand_are_laid_and_replaced_from_the_dealers_left() -> None:
    rules = preset("hand-and-foot")
    # Dealer 0: seat 1 lays first, and its replacement is itself a red three (a chain).
    g = game(rules, "9 9 | 4", "R3 K | 4", "R3 Q | 4", first=1,
             stock="R3 A 8 4 4 4 4")
    assert g.dealer == 0
    assert g.red3 == [0, 2, 1, 0]
    assert hand(g, 1) == "K A"  # laid R3, drew R3, laid it, drew A
    assert hand(g, 2) == "8 Q"
    assert g.hand_n[1] == 2 and g.hand_n[2] == 2


@pytest.mark.parametrize("name", ["hand-knee-foot", "triple-play", "hand-and-foot-classic"])
def test_2_4_red_threes_dealt_are_replaced_in_every_bonus_preset(name: str) -> None:
    rules = preset(name)
    seat0 = " | ".join(["R3 R3 9"] + ["4"] * (len(rules.packets) - 1))
    g = game(rules, seat0, stock="K A 8 4 4 4 4")
    assert g.red3[0] == 2
    assert hand(g, 0) == "9 K A"


def test_2_4_red_threes_are_not_laid_in_004() -> None:
    g = game(preset("hand-and-foot-13"), "R3 R3 9 | 4", stock="K A 8 4")
    assert g.red3[0] == 0
    assert g.hands[0][RED_THREE] == 2


def test_2_4_red_threes_dealt_are_laid_before_the_upcard_is_turned() -> None:
    g = game(preset("hand-and-foot"), "R3 9 | 4", stock="K A 8 4 4 4 4", pile=None)
    assert hand(g, 0) == "9 K"  # the replacement came off the top...
    assert g.pile == [cards("A")[0]]  # ...before the upcard


# ---------------------------------------------------------------- 2.5 the upcard
@pytest.mark.parametrize(("name", "rejected"), [
    ("hand-and-foot", ["2", "JK", "R3", "B3"]),  # 002: a wild card or a three
    ("hand-and-foot-classic", ["2", "JK", "R3"]),  # 003: a red three or a wild card
    ("hand-and-foot-13", ["2", "JK", "R3", "B3"]),  # 004: joker, 2 or 3
    ("hand-knee-foot", ["2", "JK", "5", "7", "R3"]),  # 000: wild, 5, 7 or red three
    ("triple-play", ["2", "JK", "5", "7", "R3"]),  # 001: joker, 2, red 3, 5 or 7
])
def test_2_5_upcard_rejections_by_document(name: str, rejected: list[str]) -> None:
    rules = preset(name)
    assert rules.upcard_rejects == frozenset(cards(" ".join(rejected)))
    for token in ["2", "JK", "R3", "B3", "5", "7", "K"]:
        seat0 = " | ".join(["9 9"] * len(rules.packets))
        g = game(rules, seat0, stock=f"{token} K 4 4 4 4 4 4", pile=None)
        top = g.pile[-1]
        if token in rejected:
            assert top == cards("K")[0], token
        else:
            assert top == cards(token)[0], token


def test_2_5_rejected_upcard_is_buried_in_the_middle_of_the_stock() -> None:
    g = game(preset("hand-and-foot"), stock="2 K 4 6 8 9 10 J Q", pile=None)
    assert g.pile == [cards("K")[0]]
    # stock (top last) after the 2 is buried and the K turned: Q J 10 9 [2] 8 6 4
    assert len(g.stock) == 8 and g.stock.index(cards("2")[0]) == 4


@pytest.mark.parametrize("name", ["triple-play", "hand-and-foot-classic", "hand-and-foot-13"])
def test_2_5_rejected_upcard_is_buried_in_001_003_004(name: str) -> None:
    rules = preset(name)
    seat0 = " | ".join(["9 9"] * len(rules.packets))
    g = game(rules, seat0, stock="JK K 4 6 8 9 10 J Q", pile=None)
    assert g.pile == [cards("K")[0]]
    assert cards("JK")[0] in g.stock


def test_2_5_rejected_upcards_are_covered_in_000() -> None:
    g = game(preset("hand-knee-foot"), "9 9 | 4 | 4", stock="7 JK K 4 6 8 9 10 J Q", pile=None)
    assert g.pile == list(cards("7 JK K"))  # "turn up another" onto them
    assert len(g.stock) == 7


def test_2_5_no_upcard_variant_of_000() -> None:
    rules = house_rules("hand-knee-foot", {"upcard": False})
    g = game(rules, "9 9 9 | 4 | 4", stock="K 4 6 8 9", pile=None)
    assert g.pile == []
    assert clause(g, "take-pile") == "4.1"
    play(g, ["draw", "discard 9"])
    assert g.pile == list(cards("9"))


# ---------------------------------------------------------------- 2.6 dealer and first player
def test_2_6_first_player_is_the_dealers_left_and_the_deal_passes_left() -> None:
    from scenario import deal

    rules = preset("hand-and-foot")  # 002: the round ends when the player to move can't draw
    round2 = deal(rules, stock="4 6 8 9 10 J", pile="6")
    g = Game.new(rules, deals=[deal(rules, stock="K Q", pile="6"), round2])
    assert g.dealer == 0 and g.seat == 1
    play(g, ["draw", "discard 9"])  # the stock is now empty: seat 2 cannot draw
    assert g.round_no == 2 and g.results[0].ended_by == "stock_out"
    assert g.dealer == 1 and g.seat == 2


def test_2_6_first_dealer_can_be_chosen() -> None:
    g = game(preset("hand-and-foot"), first=3)
    assert g.dealer == 2 and g.seat == 3 and g.actor == 3
