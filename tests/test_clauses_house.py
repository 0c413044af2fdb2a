"""Rules tests for the house rules of other tables (docs/RULES.md, D24 to D31): cards drawn,
jokers, more ways to take the pile, books of black threes, the opening, the packet that replaces
the draw, the final lap, a reshuffled stock.  Each is off in every preset, so each test turns
its option on over a preset and names the clause it belongs to."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from handfoot.actions import ATOMIC_ACTIONS, BlackThreeBook, PickUpPile, TakeOnto, parse_action
from handfoot.cards import BLACK_THREE, JOKER, TWO
from handfoot.deal import seeded_deal
from handfoot.engine import Game
from handfoot.events import FinalLap, Reshuffled, SkippedDraw
from handfoot.presets import PRESET_NAMES, house_rules, preset
from handfoot.record import Record, RecordError, load_record, record_to_json, replay
from handfoot.rules import Rules, RulesError
from handfoot.views import SeatView, sample_world, unseen_counts, view
from scenario import (
    cards,
    clause,
    event_names,
    game,
    hand,
    legal_texts,
    meld_sizes,
    play,
    set_melds,
    to_foot,
)
from test_properties import check_table

HF = "hand-and-foot"  # 002
HKF = "hand-knee-foot"  # 000
CLEAN, DIRTY = "K K K K K K K", "Q Q Q Q Q 2 JK"

NEW_OPTIONS = ("jokers", "draw_count", "black_three_book", "black_three_blocks",
               "pile_onto_meld", "pile_any_card", "opening_counts_bonuses", "whole_hand_opening",
               "foot_replaces_draw", "final_lap", "max_reshuffles")


def hf(**house: Any) -> Rules:
    return house_rules(HF, house)


def refused(key: str, base: str = HF, **house: Any) -> str:
    with pytest.raises(RulesError) as info:
        house_rules(base, house)
    assert info.value.key == key, str(info.value)
    return str(info.value)


def test_2_2_house_rules_are_off_in_every_preset() -> None:
    for name in PRESET_NAMES:
        for players in (2, 4, 6):
            r = preset(name, players)
            assert (r.jokers, r.draw_count, r.final_lap) == (2, 2, "never")
            assert r.black_three_blocks and not r.black_three_book
            assert not (r.pile_onto_meld or r.pile_any_card or r.opening_counts_bonuses
                        or r.whole_hand_opening or r.foot_replaces_draw)
            assert r.stock_out != "reshuffle" and r.max_wilds >= 0


# ---------------------------------------------------------------- 2.2 jokers per deck
@pytest.mark.parametrize("jokers", [0, 2, 4])
def test_2_2_zero_two_or_four_jokers_a_deck(jokers: int) -> None:
    rules = hf(jokers=jokers)
    assert rules.shoe_size == 5 * (52 + jokers)
    d = seeded_deal(rules, 3, 1, 0)
    cards = [k for seat in d.packets for p in seat for k in p] + list(d.stock)
    assert len(cards) == rules.shoe_size
    assert cards.count(JOKER) == 5 * jokers and cards.count(TWO) == 20
    g = Game.new(rules, seed=3)
    check_table(g)
    # A seat counts what it cannot see from the same shoe, and worlds sampled for search
    # deal from it.
    v = view(g, 1)
    assert sum(unseen_counts(v)) == rules.shoe_size - sum(v.hand) - len(v.pile) \
        - sum(s.red3 for s in v.seats)
    w = sample_world(v, random.Random(1))
    check_table(w)
    assert view(w, 1) == v


def test_2_2_two_jokers_a_deck_deal_exactly_as_before() -> None:
    # The shoe's unshuffled order for two jokers a deck is the physical cards in order, so a
    # seed deals what it always dealt.
    from handfoot.cards import card_kind, shoe_ids

    rules = preset(HF)
    order = [card_kind(i) for i in shoe_ids(rules.decks)]
    random.Random("handfoot/11/1").shuffle(order)
    d = seeded_deal(rules, 11, 1, 3)
    assert list(d.packets[0][0]) == order[:11]


def test_2_2_jokers_are_validated_and_count_in_the_canasta_size_limit() -> None:
    assert "0, 2 or 4" in refused("jokers", jokers=3)
    refused("jokers", jokers="two")
    # One deck without jokers holds 4 naturals and 4 wild cards of a meld: at most 8 cards.
    refused("canasta_size", decks=1, jokers=0, canasta_size=9, packets=[5, 5], players=2,
            team_size=1)
    assert hf(decks=1, jokers=0, canasta_size=8, packets=[5, 5], players=2,
              team_size=1).canasta_size == 8


# ---------------------------------------------------------------- 3.2 cards drawn
@pytest.mark.parametrize(("count", "after"), [(1, "9 9 K"), (2, "9 9 K A"), (3, "4 9 9 K A")])
def test_3_2_house_rule_draws_one_two_or_three(count: int, after: str) -> None:
    g = game(hf(draw_count=count), "9 9 | 4", stock="K A 4 6")
    events = play(g, ["draw"])
    assert hand(g, 0) == after
    assert events[0].drawn == count  # type: ignore[union-attr]


def test_3_2_three_drawn_from_a_stock_of_two_takes_the_two() -> None:
    g = game(hf(draw_count=3), "9 9 | 4", stock="K A")
    play(g, ["draw"])
    assert hand(g, 0) == "9 9 K A" and g.stock == []


def test_3_2_draw_count_is_validated() -> None:
    assert "1, 2 or 3" in refused("draw_count", draw_count=4)
    refused("draw_count", draw_count=0)
    refused("draw_count", draw_count="two")
    assert "did you mean 'draw_count'" in refused("draw_cuont", draw_cuont=1)


# ---------------------------------------------------------------- 4.1 how many are taken
@pytest.mark.parametrize("take", [2, 3, 4, 5, 6, 7, 8, 9, "whole"])
def test_4_1_the_pile_take_is_any_count_from_two_to_nine_or_whole(take: int | str) -> None:
    pile = "4 5 6 8 10 J Q 4 5 6 8 K"  # twelve cards, K on top
    g = game(hf(pile_take=take), "K K 9 9 | 4", pile=pile)
    g.opened[0] = True
    play(g, ["take-pile"])
    taken = 12 if take == "whole" else take
    assert len(g.pile) == 12 - taken
    assert g.hand_n[0] == 4 - 2 + taken - 1
    assert house_rules(HF, {"pile_take": take}).to_mapping()["pile_take"] == take


# ---------------------------------------------------------------- 4.2 black threes on top
def test_4_2_house_rule_a_black_three_on_top_finishes_a_book_from_the_foot() -> None:
    rules = hf(black_three_book=True, black_three_blocks=False)
    g = game(rules, "4 | B3 B3 B3 B3 B3 B3 9 9 4", pile="8 8 B3")
    to_foot(g, 0)
    g.opened[0] = True
    assert "take-pile" in legal_texts(g)
    events = play(g, ["take-pile"])
    assert g.closed[0] == [(BLACK_THREE, 7, 0, 0)]
    assert "canasta" in event_names(events)
    assert hand(g, 0) == "4 8 8 9 9"  # the 8s under the black three came into the hand
    assert g.canasta_kinds(0) == ["clean"]


def test_4_2_a_black_three_on_top_still_blocks_a_pair_and_the_hand() -> None:
    rules = hf(black_three_book=True, black_three_blocks=False)
    g = game(rules, "B3 B3 B3 B3 B3 B3 9 | 4", pile="8 8 B3")  # still in the hand
    g.opened[0] = True
    assert clause(g, "take-pile") == "5.7"
    g = game(hf(black_three_book=True), "4 | B3 B3 B3 B3 B3 B3 9", pile="8 8 B3")
    to_foot(g, 0)
    assert clause(g, "take-pile") == "4.2"  # black threes block unless the table says not


def test_4_2_not_blocking_needs_a_way_to_take_a_black_three() -> None:
    assert "black_three_book" in refused("black_three_blocks", black_three_blocks=False)
    assert not hf(black_three_blocks=False, pile_any_card=True).black_three_blocks


# ---------------------------------------------------------------- 4.3 one natural, one wild
def test_4_3_house_rule_one_natural_and_one_wild_take_the_pile_in_hand_and_foot() -> None:
    rules = hf(pile_pair="meldable")  # 001's rule as a house rule of 002
    g = game(rules, "K 2 9 9 | 4", pile="4 K")
    g.opened[0] = True
    assert "take-pile with 2" in legal_texts(g)
    play(g, ["take-pile with 2"])
    assert meld_sizes(g, 0) == {"K": 3}


# ---------------------------------------------------------------- 4.7 the top card onto a meld
def test_4_7_the_top_card_alone_goes_onto_the_teams_open_meld() -> None:
    g = game(hf(pile_onto_meld=True), "9 9 4 | 4", pile="5 6 J Q K")
    set_melds(g, 0, "K K K")
    assert "take-pile onto meld" in legal_texts(g)
    assert "take-pile" not in legal_texts(g)  # no pair of kings in hand
    events = play(g, ["take-pile onto meld"])
    assert meld_sizes(g, 0) == {"K": 4}
    assert hand(g, 0) == "4 5 6 9 9 J Q"
    assert event_names(events)[:2] == ["take_pile", "pile_to_hand"]
    play(g, ["discard 4"])


def test_4_7_the_top_card_may_finish_a_canasta() -> None:
    g = game(hf(pile_onto_meld=True), "9 9 4 | 4", pile="5 K")
    set_melds(g, 0, "K K K K K 2")
    events = play(g, ["take-pile onto meld"])
    assert "canasta" in event_names(events)
    assert g.closed[0] == [(9, 6, 1, 0)]


def test_4_7_only_a_natural_top_onto_an_open_meld_after_the_opening() -> None:
    rules = hf(pile_onto_meld=True)
    g = game(rules, "9 9 4 | 4", pile="5 K")
    assert clause(g, "take-pile onto meld") == "4.7"  # no melds before the opening
    set_melds(g, 0, "Q Q Q")
    assert clause(g, "take-pile onto meld") == "4.7"  # no meld of kings
    g = game(rules, "9 9 4 | 4", pile="5 2")
    set_melds(g, 0, "K K K")
    assert clause(g, "take-pile onto meld") == "4.7"  # a wild card on top
    g = game(rules, "9 9 4 | 4", pile="5 K")
    set_melds(g, 0, "K K K 2 2 2")  # a fourth wild card may not join: 4.5
    set_melds(g, 0, "")
    with g.edit():
        g.nat[0][9], g.two[0][9] = 3, 3
    assert clause(g, "take-pile onto meld") is None
    with g.edit():
        g.nat[0][9], g.two[0][9] = 4, 3  # the canasta would have eight cards
    assert clause(g, "take-pile onto meld") == "4.5"
    assert clause(game(preset(HF), pile="K"), "take-pile onto meld") == "4.7"


# ---------------------------------------------------------------- 4.8 picking the pile up
def test_4_8_the_pile_is_picked_up_when_any_card_of_it_plays() -> None:
    g = game(hf(pile_any_card=True), "9 9 Q 4 | 4", pile="9 6 5")
    g.opened[0] = True
    assert "pick-up-pile" in legal_texts(g)
    assert "take-pile" not in legal_texts(g)  # the 5 on top has no pair
    events = play(g, ["pick-up-pile"])
    assert event_names(events) == ["take_pile", "pile_to_hand"]
    assert hand(g, 0) == "4 5 6 9 9 9 Q" and g.pile == []
    # The next meld must use a picked-up card: nothing else, not even a discard.
    assert legal_texts(g) == {"meld 9 9 9"}
    assert clause(g, "discard 4") == "4.8"
    play(g, ["meld 9 9 9"])
    assert "discard 4" in legal_texts(g)


def test_4_8_refused_when_no_card_of_the_pile_plays() -> None:
    g = game(hf(pile_any_card=True), "9 Q 4 4 | 4", pile="8 6 5")
    g.opened[0] = True
    assert clause(g, "pick-up-pile") == "4.8"
    assert clause(game(preset(HF), pile="K"), "pick-up-pile") == "4.8"  # off in the presets


def test_4_8_before_the_opening_picked_up_cards_count_and_a_retract_returns_them() -> None:
    rules = hf(pile_any_card=True)
    g = game(rules, "A A 4 | 4", pile="A 5 8 K K K")
    play(g, ["pick-up-pile"])  # round 1 needs 50
    assert g.phase == "pile-opening"
    assert clause(g, "meld 4 4 4") is not None
    play(g, ["meld A A A"])  # 60: the picked-up ace counts
    assert g.opened[0]
    g = game(rules, "A A 4 | 4", pile="8 5 A")
    play(g, ["pick-up-pile", "meld A A A"])  # the 5 and 8 do not help: 60 opens anyway
    assert g.opened[0]
    g = game(rules, "4 4 6 | 4", pile="8 5 4")
    play(g, ["pick-up-pile", "meld 4 4 4"])  # 15: short of 50
    assert not g.opened[0] and "retract" in legal_texts(g)
    play(g, ["retract"])
    assert g.pile == list(cards("8 5 4")) and hand(g, 0) == "4 4 6"
    assert legal_texts(g) == {"draw"}


def test_4_8_a_black_three_on_top_does_not_block_a_pick_up_where_the_table_says() -> None:
    rules = hf(pile_any_card=True, black_three_blocks=False)
    g = game(rules, "K K 4 | 4", pile="K B3")
    g.opened[0] = True
    play(g, ["pick-up-pile", "meld K K K"])
    assert hand(g, 0) == "4 B3"
    g = game(hf(pile_any_card=True), "K K 4 | 4", pile="K B3")
    g.opened[0] = True
    assert clause(g, "pick-up-pile") == "4.2"


def test_4_8_cannot_go_with_a_minimum_from_the_hand_only() -> None:
    assert "hand_only" in refused("pile_any_card", base="hand-and-foot-13", pile_any_card=True)


# ---------------------------------------------------------------- 5.3 no cap on wild cards
def test_5_3_house_rule_no_cap_on_wild_cards() -> None:
    rules = hf(max_wilds="unlimited", wild_ratio="none")
    assert rules.to_mapping()["max_wilds"] == "unlimited"
    assert Rules.from_mapping(rules.to_mapping()) == rules
    g = game(rules, "K K 2 2 2 2 2 9 | 4", stock="4 6 4 6")
    g.opened[0] = True
    play(g, ["draw", "meld K K 2", "add K: 2", "add K: 2", "add K: 2"])
    events = play(g, ["add K: 2"])
    assert "canasta" in event_names(events)  # two kings and five 2s: dirty
    assert g.canasta_kinds(0) == ["dirty"]
    assert "'unlimited'" in refused("max_wilds", max_wilds=-1)
    refused("max_wilds", max_wilds="lots")


# ---------------------------------------------------------------- 5.7 a book of black threes
def test_5_7_a_book_of_black_threes_from_the_foot() -> None:
    rules = hf(black_three_book=True)
    g = game(rules, "4 | B3 B3 B3 B3 B3 B3 B3 9 9", stock="9 4 4 6")
    to_foot(g, 0)
    set_melds(g, 0, DIRTY)
    play(g, ["draw"])
    assert "book B3" in legal_texts(g)
    events = play(g, ["book B3"])
    assert event_names(events) == ["meld", "canasta"]
    assert sorted(g.canasta_kinds(0)) == ["clean", "dirty"]  # the quota is met
    assert hand(g, 0) == "4 9 9 9"
    v = view(g, 1)  # the book is on the table for everyone, and in the view's JSON form
    assert v.teams[0].closed[-1] == (BLACK_THREE, 7, 0, 0, "clean")
    assert SeatView.from_mapping(json.loads(json.dumps(v.to_mapping()))) == v
    assert view(sample_world(v, random.Random(3)), 1) == v
    play(g, ["meld 9 9 9", "discard 4"])
    assert g.results[0].went_out == 0  # the book filled the quota's clean canasta


def test_5_7_a_book_scores_the_clean_bonus_and_no_card_points() -> None:
    rules = hf(black_three_book=True)
    g = game(rules, "4 | B3 B3 B3 B3 B3 B3 B3 9 9 4", stock="4 6")
    to_foot(g, 0)
    g.opened[0] = True
    play(g, ["draw", "book B3", "discard 6"])  # seat 1 finds the stock empty: stock out
    team = g.results[0].teams[0]
    assert ["clean canastas x1", 500] in team.to_mapping()["lines"]
    assert not any("black threes" in line.label for line in team.lines)


def test_5_7_only_a_whole_book_and_only_from_the_foot() -> None:
    rules = hf(black_three_book=True)
    g = game(rules, "B3 B3 B3 B3 B3 B3 B3 9 | 4")
    play(g, ["draw"])
    assert clause(g, "book B3") == "5.7"  # in the hand
    g = game(rules, "4 | B3 B3 B3 B3 B3 B3 9 9")
    to_foot(g, 0)
    play(g, ["draw"])
    assert clause(g, "book B3") == "5.7"  # six are not a book
    g = game(preset(HF), "4 | B3 B3 B3 B3 B3 B3 B3 9 9")
    to_foot(g, 0)
    play(g, ["draw"])
    assert clause(g, "book B3") == "1.3"  # threes are never melded in the presets
    assert parse_action("book B3") == BlackThreeBook()


# ---------------------------------------------------------------- 6.1 minimums and rounds
def test_6_1_any_list_of_minimums_and_any_number_of_rounds() -> None:
    rules = hf(rounds=6, opening_minimums=[30, 60, 90, 120, 150, 200])
    assert [rules.opening_minimum(r, 0) for r in range(1, 7)] == [30, 60, 90, 120, 150, 200]
    g = Game.new(rules, seed=1)
    rng = random.Random(1)
    while not g.over:
        if g.phase == "draw":
            assert g.minimum == rules.opening_minimums[g.round_no - 1]
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    assert len(g.results) == 6
    assert hf(rounds=1, opening_minimums=[0]).rounds == 1
    refused("opening_minimums", rounds=6)  # four minimums for six rounds
    refused("rounds", rounds=101, opening_minimums=[50] * 101)


# ---------------------------------------------------------------- 6.2 bonuses toward the opening
def test_6_2_house_rule_a_canasta_finished_in_the_opening_counts_its_bonus() -> None:
    seat = "7 7 7 7 7 7 7 9 | 4"  # 35 points of 7s in round 1, which needs 50
    g = game(hf(opening_counts_bonuses=True), seat, stock="4 6")
    play(g, ["draw", "meld 7 7 7", "add 7: 7", "add 7: 7", "add 7: 7"])
    assert not g.opened[0] and g.staged == 30
    events = play(g, ["add 7: 7"])  # the canasta: 35 + its 500
    assert g.opened[0] and ("opening" in event_names(events))
    g = game(preset(HF), seat, stock="4 6")
    play(g, ["draw", "meld 7 7 7", "add 7: 7", "add 7: 7", "add 7: 7", "add 7: 7"])
    assert not g.opened[0] and g.staged == 35  # the preset counts cards only


# ---------------------------------------------------------------- 6.4 the whole hand
def test_6_4_laying_down_the_whole_hand_opens_below_the_minimum() -> None:
    rules = hf(whole_hand_opening=True)
    g = game(rules, "4 4 4 5 5 6 6 | 8 9 10", stock="5 6 4 6")
    play(g, ["draw", "meld 4 4 4", "meld 5 5 5"])
    assert g.staged == 30
    events = play(g, ["meld 6 6 6"])  # 45 of 50: the whole hand, so the team opens
    assert g.opened[0] and event_names(events)[-2:] == ["opening", "pick_up"]
    assert g.packet_no[0] == 1 and hand(g, 0) == "8 9 10"
    g = game(preset(HF), "4 4 4 5 5 6 6 | 8 9 10", stock="5 6 4 6")
    play(g, ["draw", "meld 4 4 4", "meld 5 5 5"])
    assert clause(g, "meld 6 6 6") == "6.1"


def test_6_4_not_by_a_discard_nor_after_taking_the_pile_with_a_pair() -> None:
    rules = hf(whole_hand_opening=True)
    g = game(rules, "4 4 4 5 5 5 6 | 8 9 10", stock="5 6 4 6")
    play(g, ["draw", "meld 4 4 4", "meld 5 5 5", "add 5: 5"])
    assert clause(g, "discard 6") == "6.1"  # a discard of the last card does not open
    g = game(rules, "4 4 9 | 8 9 10", pile="8 4")
    play(g, ["take-pile"])  # the 8 under the 4 still has to join the hand
    assert clause(g, "meld 9 9 9") is not None


# ---------------------------------------------------------------- 7.3 the packet replaces the draw
def discard_into_foot(rules: Rules) -> Game:
    """Seat 0 melds K K K and discards its last card, the 4: its foot comes up."""
    g = game(rules, "K K | 8 8 8 J Q", stock="K 4 4 6 4 6 4 6 4 6 4 6")
    g.opened[0] = True
    play(g, ["draw", "meld K K K", "discard 4"])
    assert g.packet_no[0] == 1 and hand(g, 0) == "8 8 8 J Q"
    for _ in range(3):
        play(g, ["draw", "discard 9"])
    return g


def test_7_3_house_rule_the_packet_a_discard_brought_replaces_the_next_draw() -> None:
    g = discard_into_foot(hf(foot_replaces_draw=True))
    assert g.seat == 0 and g.phase == "meld"
    assert "draw" not in legal_texts(g) and "take-pile" not in legal_texts(g)
    assert clause(g, "draw") == "3.2"
    assert "meld 8 8 8" in legal_texts(g)
    assert view(g, 1).seats[0].skips_draw is False  # used up: this turn is the one
    play(g, ["meld 8 8 8", "discard J"])
    assert hand(g, 0) == "Q" and g.seat == 1


def test_7_3_the_skipped_draw_is_public_and_sampled_worlds_keep_it() -> None:
    rules = hf(foot_replaces_draw=True)
    g = game(rules, "K K | 8 8 8 J Q", stock="K 4 4 6 4 6 4 6 4 6 4 6")
    g.opened[0] = True
    events = play(g, ["draw", "meld K K K", "discard 4"])
    v = view(g, 2)
    assert v.seats[0].skips_draw and v.to_mapping()["seats"][0]["skips_draw"] is True
    w = sample_world(v, random.Random(2))
    assert view(w, 2) == v
    for _ in range(3):
        events = play(g, ["draw", "discard 9"])
    assert SkippedDraw(0) in events


def test_7_3_off_the_packet_a_discard_brought_waits_for_a_draw() -> None:
    g = discard_into_foot(preset(HF))
    assert g.phase == "draw" and "draw" in legal_texts(g)
    assert "skips_draw" not in view(g, 0).to_mapping()["seats"][0]


# ---------------------------------------------------------------- 8.4 the whole team in its foot
def test_8_4_the_whole_team_in_its_foot_is_in_foot() -> None:
    # Six players, teams of three: every partner must be in the foot, not only one.
    rules = house_rules(HF, {"partner_in_foot": "in_foot"}, players=6)
    assert rules.team_size == 3 and rules.seats_of(0) == (0, 2, 4)
    g = game(rules, "4 | 9 4", stock="9 9 4 6 4 6")
    to_foot(g, 0)
    set_melds(g, 0, f"{CLEAN};{DIRTY}")
    to_foot(g, 2)  # one partner in the foot, the other (seat 4) still in the hand
    play(g, ["draw"])
    assert clause(g, "meld 9 9 9") == "7.5.2" and not g.may_go_out(0)
    to_foot(g, 4)
    assert g.may_go_out(0)
    play(g, ["meld 9 9 9", "discard 4"])
    assert g.results[0].went_out == 0


# ---------------------------------------------------------------- 8.7 the final lap
def going_out(rules: Rules, foot: str, stock: str = "9 9 Q 8 K 8 J 8 5 5") -> Game:
    """Seat 0 in its foot with its team's quota down; seat 1's team has kings down."""
    g = game(rules, "4 | " + foot, "K K 6 6 | 4", "Q Q Q 6 | 4", "J J 6 6 | 4", stock=stock)
    to_foot(g, 0)
    set_melds(g, 0, f"{CLEAN};{DIRTY}")
    set_melds(g, 1, "K K K")
    return g


def test_8_7_going_out_by_melding_gives_every_other_player_one_more_turn() -> None:
    g = going_out(hf(final_lap="meld_out", last_card="meld_or_discard"), "9 9")
    events = play(g, ["draw", "meld 9 9 9", "add 9: 9"])  # the whole foot melded: out
    names = event_names(events)
    assert names[names.index("went_out") + 1] == "final_lap"
    assert not g.results and g.went_out == 0 and g.seat == 1 and g.phase == "draw"
    play(g, ["draw", "add K: K", "discard 8"])  # seat 1's last turn counts for its team
    play(g, ["draw", "discard 6"])
    assert not g.results
    events = play(g, ["draw", "discard 6"])  # seat 3: the turn would come back to seat 0
    result = g.results[0]
    assert result.ended_by == "went_out" and result.went_out == 0 and result.turns == 4
    assert ["going out", 100] in result.teams[0].to_mapping()["lines"]
    assert not any(line.label == "going out" for line in result.teams[1].lines)
    assert result.teams[1].tally is not None and result.teams[1].tally.melded_points == 40
    assert "round_end" in event_names(events)


def test_8_7_meld_out_a_final_discard_ends_the_round_at_once() -> None:
    g = going_out(hf(final_lap="meld_out"), "9 4")
    events = play(g, ["draw", "meld 9 9 9", "discard 4"])
    assert "final_lap" not in event_names(events)
    assert g.results[0].ended_by == "went_out" and g.over  # a scenario of one deal


def test_8_7_always_a_final_discard_starts_the_lap_too() -> None:
    g = going_out(hf(final_lap="always"), "9 4")
    events = play(g, ["draw", "meld 9 9 9", "discard 4"])
    assert FinalLap(0) in events and not g.results and g.seat == 1


def test_8_7_nobody_else_goes_out_in_the_final_lap() -> None:
    rules = hf(final_lap="always")
    g = game(rules, "4 | 9 4", "6 | 6 6 8 8 8", stock="9 9 8 5 5 5 5 5")
    for seat in (0, 1):
        to_foot(g, seat)
        set_melds(g, seat, f"{CLEAN};{DIRTY}")
    play(g, ["draw", "meld 9 9 9", "discard 4"])
    assert g.seat == 1 and not g.results
    play(g, ["draw"])  # 5 6 6 8 8 8 8: both canastas down, but seat 0 has gone out
    assert not g.may_go_out(1)
    assert g.refusal(parse_action("ask")) is not None or not g.rules.permission
    play(g, ["meld 8 8 8", "add 8: 8"])
    play(g, ["discard 5"])  # 6 6 kept: there is no going out in the lap
    assert g.results == [] and g.seat == 2


def test_8_7_the_stock_running_out_cuts_the_lap_short() -> None:
    g = going_out(hf(final_lap="always"), "9 4", stock="9 9 8 8")
    play(g, ["draw", "meld 9 9 9", "discard 4"])
    play(g, ["draw", "discard 6"])  # seat 1 empties the stock; seat 2 cannot draw
    result = g.results[0]
    assert result.ended_by == "went_out" and result.went_out == 0
    assert ["going out", 100] in result.teams[0].to_mapping()["lines"]


def test_8_7_the_final_lap_is_validated() -> None:
    assert "never, meld_out, always" in refused("final_lap", final_lap="sometimes")


# ---------------------------------------------------------------- 9.1 and 9.3 a reshuffled stock
def reshuffling(**house: Any) -> Game:
    """Seat 0 draws the stock's last two cards and discards a 9 onto a pile of five."""
    g = game(hf(stock_out="reshuffle", **house), "K K 9 | 4", stock="4 6",
             pile="8 10 J Q 6")
    play(g, ["draw"])
    assert g.stock == []
    return g


def test_9_1_house_rule_reshuffle_plays_on_when_the_stock_runs_out() -> None:
    g = reshuffling()
    events = play(g, ["discard 9"])
    assert not g.results and g.seat == 1 and "draw" in legal_texts(g)
    assert Reshuffled(-1, 5) in events
    assert "the pile is shuffled into a new stock (5 cards)" in describe_all(events)


def describe_all(events: list[Any]) -> str:
    from handfoot.narrate import describe

    return " / ".join(filter(None, (describe(e) for e in events)))


def test_9_3_the_pile_but_its_top_card_becomes_the_new_stock() -> None:
    g = reshuffling()
    play(g, ["discard 9"])
    assert g.pile == list(cards("9"))
    assert sorted(g.stock) == sorted(cards("8 10 J Q 6"))
    assert g.reshuffles == 1 and len(g.round_restocks[0]) == 1
    # Nobody sees the new stock's order: only its size is in a view.
    v = view(g, 1)
    assert v.stock_size == 5 and "stock" not in v.to_mapping()
    w = g.clone()
    w.stock.reverse()
    assert view(w, 1) == v and view(w, 2) == view(g, 2)
    assert view(sample_world(v, random.Random(4)), 1) == v


def test_9_3_a_scenario_without_a_seed_shuffles_from_its_deal() -> None:
    first, again = reshuffling(), reshuffling()
    play(first, ["discard 9"])
    play(again, ["discard 9"])
    assert first.stock == again.stock  # the same deal reshuffles the same way
    other = game(hf(stock_out="reshuffle"), "K K 9 | 4", "9 10 J K | 9 10 J Q",
                 stock="4 6", pile="8 10 J Q 6")
    play(other, ["draw", "discard 9"])
    assert other.shuffle_key != first.shuffle_key


def test_9_3_a_pile_of_one_card_cannot_make_a_stock() -> None:
    g = game(hf(stock_out="reshuffle", upcard=False), "K K 9 | 4", stock="4 6", pile=None)
    assert g.pile == []
    play(g, ["draw", "discard 9"])  # the pile is the 9 alone: nothing to reshuffle
    assert g.results[0].ended_by == "stock_out"


@pytest.mark.parametrize("limit", [1, 2])
def test_9_3_a_round_reshuffles_at_most_max_reshuffles_times(limit: int) -> None:
    g = reshuffling(max_reshuffles=limit)
    play(g, ["discard 9"])  # the first reshuffle: five cards
    for _ in range(3):  # seats 1 and 2 draw four of them, seat 3 the last: 9 9 9 9 on the pile
        play(g, ["draw", "discard 9"])
    if limit == 1:
        assert g.results[0].ended_by == "stock_out"  # seat 0 finds the stock empty again
    else:
        assert not g.results and g.seat == 0 and g.reshuffles == 2
        assert len(g.stock) == 3 and g.pile == list(cards("9"))
    assert "1 to 100" in refused("max_reshuffles", max_reshuffles=0)


def test_9_3_a_draw_short_of_cards_waits_for_the_next_turn() -> None:
    g = game(hf(stock_out="reshuffle", draw_count=3), "K K 9 | 4", stock="4 6",
             pile="8 10 J Q 6")
    events = play(g, ["draw"])
    assert events[0].drawn == 2 and g.stock == []  # type: ignore[union-attr]
    assert not any(isinstance(e, Reshuffled) for e in events)


def seeded_reshuffle_game(seed: int = 5) -> Game:
    """A seeded game whose stock runs out quickly (large packets), played past a reshuffle."""
    rules = hf(stock_out="reshuffle", packets=[25, 25], rounds=1, turn_cap=120)
    g = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    while not g.over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    assert g.round_restocks[0], "the stock never ran out"
    return g


def test_9_3_a_seeded_reshuffle_is_recorded_and_replays_exactly() -> None:
    g = seeded_reshuffle_game()
    text = record_to_json(Record.from_game(g))
    data = json.loads(text)
    assert data["version"] == 4 and len(data["rounds"][0]["reshuffles"]) == len(
        g.round_restocks[0])
    outcome = replay(load_record(text))
    assert outcome.ok, (outcome.illegal, outcome.mismatches)
    assert record_to_json(outcome.record) == text
    # Without the stored stocks the seed gives the same shuffles.
    del data["rounds"][0]["reshuffles"]
    outcome = replay(load_record(json.dumps(data)))
    assert outcome.ok and record_to_json(outcome.record) == text
    # The same seed and actions give the same game.
    assert seeded_reshuffle_game().round_restocks == g.round_restocks


def test_9_3_a_recorded_reshuffle_must_hold_the_pile() -> None:
    g = seeded_reshuffle_game()
    data = json.loads(record_to_json(Record.from_game(g)))
    stock = data["rounds"][0]["reshuffles"][0].split()
    data["rounds"][0]["reshuffles"][0] = " ".join(["JK", *stock[1:]])
    if stock[0] == "JK":
        data["rounds"][0]["reshuffles"][0] = " ".join(["4", *stock[1:]])
    with pytest.raises(RecordError) as info:
        replay(load_record(json.dumps(data)))
    assert info.value.field == "rounds[0].reshuffles"
    data["rounds"][0]["reshuffles"] = ["K X"]
    with pytest.raises(RecordError) as info:
        load_record(json.dumps(data))
    assert info.value.field == "rounds[0].reshuffles[0]"
    data["version"] = 2  # version 2 had no reshuffles
    with pytest.raises(RecordError) as info:
        load_record(json.dumps(data))
    assert info.value.field == "rounds[0].reshuffles"


# ---------------------------------------------------------------- 10.8 records of house rules
def test_10_8_a_version_2_record_is_read_with_the_rules_it_was_played_by() -> None:
    rules = preset(HF).to_mapping()
    for key in NEW_OPTIONS:
        del rules[key]
    g = Game.new(preset(HF), seed=2)
    data = json.loads(record_to_json(Record.from_game(g)))
    data["version"] = 2
    data["rules"] = rules
    record = load_record(json.dumps(data))
    assert record.rules == preset(HF)
    assert replay(record).ok


def test_10_8_the_new_actions_keep_the_old_indices_and_parse_back() -> None:
    # The 130 actions before them are where they were: the last of them is "answer no".
    assert ATOMIC_ACTIONS[-3:] == (TakeOnto(), PickUpPile(), BlackThreeBook())
    assert len(ATOMIC_ACTIONS) == 130 + 3 and ATOMIC_ACTIONS[129] == parse_action("answer no")
    for a in ATOMIC_ACTIONS[-3:]:
        assert parse_action(a.text) == a
        assert eval(repr(a), {"parse_action": parse_action}) == a


# ---------------------------------------------------------------- 4.6 a pile opening checked
def test_4_6_checked_a_pile_that_cannot_reach_the_minimum_is_refused_when_taken() -> None:
    # K K K = 30 with the top card and nothing else the hand can meld: 30 of round 1's 50.
    rules = hf(pile_opening_checked=True)
    g = game(rules, "K K 9 9 | 4", pile="A A A K", stock="8 8 4 4")
    refusal = g.refusal(parse_action("take-pile"))
    assert refusal == ("4.6", "this pile opening can reach at most 30 points; round 1 needs 50")
    assert "take-pile" not in legal_texts(g)
    # Without the option it may be taken and then taken back (6.3, D15).
    g = game(preset(HF), "K K 9 9 | 4", pile="A A A K", stock="8 8 4 4")
    assert clause(g, "take-pile") is None


def test_4_6_checked_a_pile_that_can_reach_the_minimum_is_taken_and_opens() -> None:
    rules = hf(pile_opening_checked=True)
    # K K K (30) + 6 6 6 6 (20) = 50: reachable, so the take is legal and the opening is made.
    g = game(rules, "K K 6 6 6 6 9 | 4", pile="A A Q K")
    assert "take-pile" in legal_texts(g)
    play(g, ["take-pile", "meld 6 6 6", "add 6: 6"])
    assert g.opened[0]


def test_4_6_checked_counts_wild_cards_and_the_canasta_bonus_as_the_rules_do() -> None:
    # Seven kings with the top card: 70 in cards alone, so it reaches 90 only with the bonus.
    hand_text = "K K K K K K 9 | 4"
    base = dict(pile_opening_checked=True, opening_minimums=[90, 90, 120, 150])
    g = game(hf(**base), hand_text, pile="4 K")
    assert g.refusal(parse_action("take-pile")) == (
        "4.6", "this pile opening can reach at most 70 points; round 1 needs 90")
    g = game(hf(**base, opening_counts_bonuses=True), hand_text, pile="4 K")
    assert clause(g, "take-pile") is None
    # A 2 and a joker from the hand reach it too: 70 + 20 + 50 = 140, one meld rule allowing.
    g = game(hf(**base, max_wilds="unlimited", wild_ratio="none"), "K K K K K 2 JK 9 | 4",
             pile="4 K")
    assert clause(g, "take-pile") is None


def test_4_6_checked_the_hand_only_minimum_leaves_out_the_top_card() -> None:
    # 004 counts only the hand: K K + 6 6 6 = 20 + 15 = 35 of 50.
    rules = house_rules("hand-and-foot-13", {"pile_opening_checked": True})
    g = game(rules, "K K 6 6 6 9 | 4", pile="A K")
    assert g.refusal(parse_action("take-pile")) == (
        "4.6", "this pile opening can reach at most 35 points; round 1 needs 50")


def test_4_6_checked_picking_the_pile_up_counts_the_cards_picked_up() -> None:
    rules = hf(pile_opening_checked=True, pile_any_card=True)
    # The pile's three aces meld at once (60): the pick-up reaches 50.
    g = game(rules, "9 9 4 | 4", pile="A A A")
    assert clause(g, "pick-up-pile") is None
    # Two aces and a king on top: no meld of 50 can be made from the hand and the pile.
    g = game(rules, "K K 4 | 4", pile="A 5 K")
    refusal = g.refusal(parse_action("pick-up-pile"))
    assert refusal is not None and refusal.clause == "4.6" and "round 1 needs 50" in refusal.reason


def test_4_6_checked_once_open_the_pile_is_taken_as_before() -> None:
    rules = hf(pile_opening_checked=True)
    g = game(rules, "K K 9 9 | 4", pile="A A A K")
    set_melds(g, 0, "Q Q Q")
    assert clause(g, "take-pile") is None


def test_4_6_checked_is_validated_and_off_in_every_preset() -> None:
    assert "true or false" in refused("pile_opening_checked", pile_opening_checked="yes")
    for name in PRESET_NAMES:
        assert preset(name).to_mapping()["pile_opening_checked"] is False


# ---------------------------------------------------------------- 7.5 stripping bare
def bare(rules: Rules, foot: str = "5", stock: str = "9 9 8 8 J J Q Q 6 6 4 4") -> Game:
    """Seat 0 in its foot, its team a dirty canasta short of going out, an open meld of 9s."""
    g = game(rules, "4 | " + foot, stock=stock)
    to_foot(g, 0)
    set_melds(g, 0, f"{CLEAN};9 9 9")
    return g


def test_7_5_strip_bare_the_last_card_is_discarded_without_going_out() -> None:
    g = bare(preset(HF))
    play(g, ["draw", "add 9: 9"])  # 5 9 left: 7.5 keeps both
    assert clause(g, "add 9: 9") == "7.5.1"
    g = bare(hf(strip_bare=True))
    play(g, ["draw", "add 9: 9", "add 9: 9"])  # 5 left, and it may go
    assert legal_texts(g) == {"discard 5"}
    events = play(g, ["discard 5"])
    assert "went_out" not in event_names(events) and not g.results
    assert g.hand_n[0] == 0 and g.seat == 1 and g.phase == "draw"


def test_7_5_strip_bare_the_player_draws_and_plays_on_next_turn() -> None:
    g = bare(hf(strip_bare=True))
    play(g, ["draw", "add 9: 9", "add 9: 9", "discard 5"])
    for _seat in (1, 2, 3):
        play(g, ["draw", "discard 9"])
    assert g.seat == 0 and g.phase == "draw" and legal_texts(g) == {"draw"}
    play(g, ["draw"])
    assert hand(g, 0) == "6 6" and g.hand_n[0] == 2
    play(g, ["discard 6"])
    assert g.seat == 1 and hand(g, 0) == "6"


def test_7_5_strip_bare_a_meld_still_empties_the_foot_only_to_go_out() -> None:
    g = bare(hf(strip_bare=True, last_card="meld_or_discard"), foot="9")
    play(g, ["draw", "add 9: 9", "add 9: 9"])  # 9 left: melding it would leave no discard
    refusal = g.refusal(parse_action("add 9: 9"))
    assert refusal is not None and refusal.clause == "7.5.1"
    assert "keep a card to discard" in refusal.reason
    assert clause(g, "discard 9") is None


def test_7_5_strip_bare_a_discard_that_may_go_out_goes_out() -> None:
    g = bare(hf(strip_bare=True))
    set_melds(g, 0, DIRTY)
    play(g, ["draw", "add 9: 9", "add 9: 9"])
    events = play(g, ["discard 5"])
    assert "went_out" in event_names(events) and g.results[0].went_out == 0


def test_7_5_strip_bare_no_card_after_drawing_knocks() -> None:
    # Red threes drawn by a bare player and not replaced leave no card to discard: a knock
    # ends the turn (D34, as D21).
    g = bare(hf(strip_bare=True, red_three_replacement="never"),
             stock="9 9 8 8 J J Q Q R3 R3 4 4")
    play(g, ["draw", "add 9: 9", "add 9: 9", "discard 5"])
    for _seat in (1, 2, 3):
        play(g, ["draw", "discard 9"])
    play(g, ["draw"])
    assert g.hand_n[0] == 0 and legal_texts(g) == {"knock"}
    play(g, ["knock"])
    assert g.seat == 1


def test_7_5_strip_bare_is_validated_off_in_every_preset_and_explained() -> None:
    from handfoot.print.explain import explain

    assert "true or false" in refused("strip_bare", strip_bare=1)
    for name in PRESET_NAMES:
        assert preset(name).to_mapping()["strip_bare"] is False
    assert "keeps cards back until allowed to" in explain(preset(HF))
    text = " ".join(explain(hf(strip_bare=True, pile_opening_checked=True)).split())
    assert "may still discard the last card" in text
    assert "must be able to reach the minimum" in text


def test_7_5_and_4_6_records_before_version_4_play_without_either_rule() -> None:
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "hf-worked-round-1935.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == 4 and data["rules"]["strip_bare"] is False
    data["version"] = 3
    del data["rules"]["strip_bare"], data["rules"]["pile_opening_checked"]
    old = load_record(json.dumps(data))
    assert not old.rules.strip_bare and not old.rules.pile_opening_checked
    assert replay(old).ok
