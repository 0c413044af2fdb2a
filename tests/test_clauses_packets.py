"""Rules tests for sections 7, 8 and 9 of docs/RULES.md: knee and foot, going out, the end of a
round without going out."""

from __future__ import annotations

import pytest

from handfoot.actions import Discard
from handfoot.cards import RED_THREE
from handfoot.derived import derived_for
from handfoot.engine import Game
from handfoot.presets import house_rules, preset
from handfoot.rules import Rules
from scenario import (
    act,
    clause,
    event_names,
    game,
    hand,
    legal_texts,
    play,
    set_melds,
    to_foot,
)

HF = "hand-and-foot"  # 002
HKF = "hand-knee-foot"  # 000

CLEAN, CLEAN2 = "K K K K K K K", "J J J J J J J"
DIRTY, DIRTY2 = "Q Q Q Q Q 2 JK", "10 10 10 10 10 2 2"
WILD, SEVENS, FIVES = "2 2 2 2 JK JK JK", "7 7 7 7 7 7 7", "5 5 5 5 5 5 5"
QUOTAS = {
    "hand-and-foot": [CLEAN, DIRTY],
    "hand-and-foot-classic": [CLEAN, CLEAN2, DIRTY, DIRTY2, WILD],
    "hand-and-foot-13": [CLEAN, CLEAN2, DIRTY, DIRTY2],
    "hand-knee-foot": [SEVENS, FIVES, WILD, CLEAN, DIRTY],
    "triple-play": [SEVENS, FIVES, WILD, CLEAN, DIRTY],
    "hand-knee-foot-club": [SEVENS, FIVES, WILD, CLEAN, DIRTY],
}


def finishing(rules: Rules, melds: list[str], foot: str = "9 4", stock: str = "9 9 4 6 4 6",
              partner_foot: bool = True, partner_played: bool = True) -> Game:
    """Seat 0 in its foot (``foot``), its team's canastas on the table, about to draw."""
    rest = ["4"] * (len(rules.packets) - 1)
    g = game(rules, " | ".join(["4", *rest[:-1], foot]), stock=stock)
    to_foot(g, 0)
    if partner_foot:
        to_foot(g, 2)
        g.foot_played[2] = partner_played
    set_melds(g, 0, ";".join(melds))
    return g


def go_out_turn(g: Game) -> list[str]:
    """Draw 9 9, meld the three 9s, ask where the rules ask, discard the 4: out."""
    texts = ["draw"]
    if g.rules.permission and g.rules.team_size > 1:
        texts += ["ask", "answer yes"]
    return event_names(play(g, [*texts, "meld 9 9 9", "discard 4"]))


# ---------------------------------------------------------------- 7.1 the knee
@pytest.mark.parametrize("name", ["hand-knee-foot", "triple-play"])
def test_7_1_the_knee_comes_with_the_teams_first_canasta(name: str) -> None:
    g = game(preset(name), "K K K K K 4 | 9 9 | 4", "6 6 | 8 8 | 4", "Q Q 4 | J J | 4",
             stock="K K 4 6 4 6 4 6")
    play(g, ["draw", "meld K K K", "add K: K", "add K: K", "add K: K"])
    assert g.packet_no[0] == 0
    events = play(g, ["add K: K"])
    assert "pick_up" in event_names(events)
    assert g.packet_no[0] == 1 and hand(g, 0) == "4 9 9"  # the finisher at once
    assert g.packet_no[2] == 0 and g.knee_pending[2]
    assert g.packet_no[1] == 0 and not g.knee_pending[1]  # the opponents are not affected
    play(g, ["discard 4", "draw", "discard 4"])
    assert g.seat == 2 and g.packet_no[2] == 0  # the partner's knee waits for the draw
    play(g, ["draw"])
    assert g.packet_no[2] == 1 and hand(g, 2) == "4 4 6 J J Q Q"


def test_7_1_a_partners_canasta_does_not_bring_a_knee_to_the_finisher_twice() -> None:
    g = game(preset(HKF), "K K K K K 4 | 9 9 | 4", "6 6 | 8 8 | 4", "Q Q Q Q Q Q Q | J J | 4",
             stock="K K 4 6 4 6 4 6")
    play(g, ["draw", "meld K K K", "add K: K", "add K: K", "add K: K", "add K: K",
             "discard 4", "draw", "discard 4", "draw"])
    assert g.packet_no[2] == 1
    play(g, ["meld Q Q Q"] + ["add Q: Q"] * 4)  # the team's second canasta
    assert g.packet_no[2] == 1 and g.packet_no[0] == 1


SHORT_CANASTA = "4 4 4 4 4 4 4 K K K 9 9 | 5 5 | 6"  # seven 4s are 35 points: short of 50


@pytest.mark.parametrize("name", ["hand-knee-foot", "triple-play"])
def test_7_1_d32_a_canasta_in_a_short_opening_brings_the_knee_when_the_opening_is_made(
        name: str) -> None:
    g = game(preset(name), SHORT_CANASTA)
    events = play(g, ["draw", "meld 4 4 4"] + ["add 4: 4"] * 4)
    assert "canasta" in event_names(events) and not g.opened[0]
    assert g.packet_no[0] == 0 and not g.first_canasta[0]  # not the team's yet
    events = play(g, ["meld K K K"])  # 65 points: the opening stands
    assert event_names(events)[-2:] == ["opening", "pick_up"]
    assert g.first_canasta[0] and g.packet_no[0] == 1 and hand(g, 0) == "4 5 5 6 9 9"
    assert g.knee_pending[2] and not g.knee_pending[1]


def test_7_1_d32_the_same_in_one_lay_down_whatever_the_order_of_its_melds() -> None:
    for lay in ("lay 4 4 4 4 4 4 4, K K K", "lay K K K, 4 4 4 4 4 4 4"):
        g = game(preset(HKF), SHORT_CANASTA)
        play(g, ["draw", lay])
        assert g.opened[0] and g.first_canasta[0] and g.packet_no[0] == 1, lay


def test_7_1_d32_a_short_opening_taken_back_takes_its_canasta_and_brings_no_knee() -> None:
    g = game(preset(HKF), SHORT_CANASTA)
    play(g, ["draw", "meld 4 4 4"] + ["add 4: 4"] * 4 + ["retract"])
    assert not g.opened[0] and not g.first_canasta[0] and g.closed[0] == []
    assert g.packet_no[0] == 0 and not any(g.knee_pending)


def test_7_1_hand_and_foot_has_no_knee() -> None:
    g = game(preset(HF), "K K K K K K K 4 | 9 9", stock="4 6 4 6")
    g.opened[0] = True
    play(g, ["draw", "meld K K K"] + ["add K: K"] * 4)
    assert g.packet_no[0] == 0


# ---------------------------------------------------------------- 7.2 emptying the hand early
@pytest.mark.parametrize("name", ["hand-knee-foot", "triple-play"])
def test_7_2_the_hand_may_not_empty_before_the_teams_first_canasta(name: str) -> None:
    g = game(preset(name), "A A | 9 9 | 4", stock="A 8 4 6")
    play(g, ["draw"])
    assert clause(g, "meld A A A") == "7.2"  # it would leave one card, to be discarded
    g = game(preset(name), "A A 8 | 9 9 | 4", stock="A A 4 6")
    play(g, ["draw", "meld A A A"])
    assert clause(g, "add A: A") == "7.2"  # leaves the 8, whose discard empties the hand
    assert clause(g, "discard 8") is None


def test_7_2_option_take_knee_empties_the_hand_into_the_knee() -> None:
    rules = house_rules(HKF, {"empty_before_knee": "take_knee"})
    g = game(rules, "A A | 9 9 | 4", stock="A A 4 6")
    play(g, ["draw", "meld A A A", "add A: A"])  # melding the last card: the knee, play on
    assert g.packet_no[0] == 1 and hand(g, 0) == "9 9"
    g = game(rules, "A A | 9 9 | 4", stock="A 8 4 6")
    play(g, ["draw", "meld A A A", "discard 8"])  # discarding it: the knee, next turn
    assert g.packet_no[0] == 1 and g.seat == 1


# ---------------------------------------------------------------- 7.3 the foot
@pytest.mark.parametrize("name", ["hand-and-foot", "hand-and-foot-classic", "hand-and-foot-13"])
def test_7_3_melding_the_last_card_brings_the_foot_at_once(name: str) -> None:
    g = game(preset(name), "A A | 8 8 8 6 6", stock="A A 4 6")
    g.opened[0] = True
    events = play(g, ["draw", "meld A A A", "add A: A"])
    assert "pick_up" in event_names(events)
    assert g.packet_no[0] == 1 and g.seat == 0
    play(g, ["meld 8 8 8", "discard 6"])  # and keeps playing from it


@pytest.mark.parametrize("name", ["hand-and-foot", "hand-and-foot-classic", "hand-and-foot-13"])
def test_7_3_discarding_the_last_card_brings_the_foot_next_turn(name: str) -> None:
    g = game(preset(name), "A A | 8 8 8 6", stock="A 9 4 6")
    g.opened[0] = True
    play(g, ["draw", "meld A A A", "discard 9"])
    assert g.packet_no[0] == 1 and g.seat == 1
    assert hand(g, 0) == "6 8 8 8"


def test_7_3_000_the_foot_after_the_knee() -> None:
    g = game(preset(HKF), "K K K K K | 9 | 8 8 8", stock="K K 4 6")
    play(g, ["draw", "meld K K K", "add K: K", "add K: K", "add K: K", "add K: K"])
    assert g.packet_no[0] == 1
    play(g, ["discard 9"])
    assert g.packet_no[0] == 2 and g.seat == 1 and hand(g, 0) == "8 8 8"


# ---------------------------------------------------------------- 7.4 red threes in a packet
def test_7_4_000_red_threes_in_the_knee_are_laid_not_replaced() -> None:
    g = game(preset(HKF), "K K K K K 4 | R3 9 | 4", stock="K K A 4 6")
    play(g, ["draw", "meld K K K"] + ["add K: K"] * 4)
    assert g.red3[0] == 1 and hand(g, 0) == "4 9"
    assert g.stock[-1] == 10  # the ace is still on the stock


def test_7_4_001_red_threes_in_the_knee_are_laid_not_replaced() -> None:
    g = game(preset("triple-play"), "K K K K K 4 | R3 9 | 4", stock="K K A 4 6")
    play(g, ["draw", "meld K K K"] + ["add K: K"] * 4)
    assert g.red3[0] == 1 and hand(g, 0) == "4 9"


@pytest.mark.parametrize("name", ["hand-and-foot", "hand-and-foot-classic"])
def test_7_4_hand_and_foot_red_threes_in_the_foot_are_laid_and_replaced(name: str) -> None:
    g = game(preset(name), "A A | R3 8 8 8 6", stock="A A Q 6")
    g.opened[0] = True
    play(g, ["draw", "meld A A A", "add A: A"])
    assert g.red3[0] == 1 and hand(g, 0) == "6 8 8 8 Q"


def test_7_4_004_red_threes_stay_in_the_foot() -> None:
    g = game(preset("hand-and-foot-13"), "A A | R3 8 8 8 6", stock="A A Q 6")
    g.opened[0] = True
    play(g, ["draw", "meld A A A", "add A: A"])
    assert g.red3[0] == 0 and g.hands[0][RED_THREE] == 1


# ---------------------------------------------------------------- 7.5 no stripping bare
def test_7_5_no_emptying_the_foot_without_going_out() -> None:
    g = finishing(preset(HF), [CLEAN], foot="9 4")  # no dirty canasta: cannot go out
    play(g, ["draw"])
    refusal = g.refusal(act("meld 9 9 9"))  # it would leave one card, to be discarded
    assert refusal is not None and refusal.clause.startswith("7.5")
    assert "keep two cards back: one to discard and one to carry on with" in refusal.reason
    assert "meld 9 9 9" not in legal_texts(g)
    play(g, ["discard 4"])


def test_7_5_1_the_refusal_names_what_the_team_still_lacks() -> None:
    g = finishing(preset(HF), [CLEAN], foot="9 4")
    play(g, ["draw"])
    refusal = g.refusal(act("meld 9 9 9"))
    assert refusal == ("7.5.1", "you may not go out yet (your team still needs a dirty "
                       "canasta), so keep two cards back: one to discard and one to carry on "
                       "with")


def test_7_5_1_alone_the_refusal_says_you() -> None:
    rules = preset(HF, players=3)
    g = game(rules, "4 | 9 4", "4 | 4", "4 | 4", stock="9 9 4 6 4 6")
    to_foot(g, 0)
    set_melds(g, 0, CLEAN)
    play(g, ["draw"])
    refusal = g.refusal(act("meld 9 9 9"))
    assert refusal is not None and refusal.clause == "7.5.1"
    assert "you still need a dirty canasta" in refusal.reason and "team" not in refusal.reason


def test_7_5_keep_two_cards_back_in_the_foot_in_003() -> None:
    g = finishing(preset("hand-and-foot-classic"), [CLEAN], foot="9 4 4")
    play(g, ["draw", "meld 9 9 9"])  # two cards back: one to discard, one to carry on
    assert hand(g, 0) == "4 4"
    play(g, ["discard 4"])


def test_7_5_the_last_card_discard_refused_when_going_out_is_not_allowed() -> None:
    g = finishing(preset(HF), [CLEAN], foot="4", stock="9 9 4 6")
    play(g, ["draw"])
    g.hands[0] = [0] * len(g.hands[0])  # say the foot is down to its 4
    g.hands[0][0] = 1
    g.hand_n[0] = 1
    refusal = g.refusal(Discard(0))
    assert refusal is not None and refusal.clause == "7.5.1" and "a dirty canasta" in refusal.reason
    set_melds(g, 0, DIRTY)
    assert g.refusal(Discard(0)) is None


# ---------------------------------------------------------------- 8.1 the quota
@pytest.mark.parametrize("name", sorted(QUOTAS))
def test_8_1_the_going_out_quota_of_each_preset(name: str) -> None:
    rules = preset(name)
    quota = QUOTAS[name]
    g = finishing(rules, quota)
    assert go_out_turn(g)[-3:][-1] in ("round_end", "game_end")
    assert g.results[0].ended_by == "went_out" and g.results[0].went_out == 0
    for missing in range(len(quota)):
        short = quota[:missing] + quota[missing + 1:]
        g = finishing(rules, short)
        play(g, ["draw"])
        assert not g.may_go_out(0)
        assert clause(g, "meld 9 9 9") == "7.5.1"
        assert clause(g, "ask") in (None, "8.5", "8.1")  # asked only when going out can be


@pytest.mark.parametrize(("name", "quota"), [
    ("hand-and-foot", {"clean": 1, "dirty": 1}),
    ("hand-and-foot-classic", {"clean": 2, "dirty": 2, "wild": 1}),
    ("hand-and-foot-13", {"clean": 2, "dirty": 2}),
    ("hand-knee-foot", {"7s": 1, "5s": 1, "wild": 1, "clean": 1, "dirty": 1}),
    ("triple-play", {"7s": 1, "5s": 1, "wild": 1, "clean": 1, "dirty": 1}),
])
def test_8_1_quota_settings(name: str, quota: dict[str, int]) -> None:
    assert dict(preset(name).quota) == quota


def test_8_1_solo_003_quota_is_one_clean_two_dirty() -> None:
    assert dict(preset("hand-and-foot-classic", players=3).quota) == {"clean": 1, "dirty": 2}


# ---------------------------------------------------------------- 8.2 which canasta fills what
def test_8_2_a_second_canasta_of_sevens_fills_the_clean_requirement() -> None:
    derived = derived_for(preset(HKF))
    assert derived.quota_met(["7s", "5s", "wild", "dirty", "7s"])
    assert derived.quota_met(["7s", "5s", "wild", "dirty", "5s"])
    assert not derived.quota_met(["7s", "5s", "wild", "clean", "clean"])  # clean is not dirty
    assert not derived.quota_met(["7s", "7s", "wild", "clean", "dirty"])  # no 5s
    g = finishing(preset(HKF), [SEVENS, SEVENS, FIVES, WILD, DIRTY])
    go_out_turn(g)
    assert g.results[0].ended_by == "went_out"


def test_8_2_a_wild_canasta_is_not_clean_or_dirty() -> None:
    derived = derived_for(preset(HF))
    assert not derived.quota_met(["wild", "dirty"])
    assert not derived.quota_met(["clean", "wild"])
    assert derived.quota_met(["clean", "dirty", "wild"])


# ---------------------------------------------------------------- 8.3 from the foot
def test_8_3_going_out_only_from_the_foot() -> None:
    g = game(preset(HKF), "9 4 | 4 | 4", stock="9 9 4 6")
    set_melds(g, 0, ";".join(QUOTAS[HKF]))
    g.packet_no[0] = 1  # in the knee, say
    g.packets[0].pop(0)
    play(g, ["draw"])
    assert clause(g, "ask") == "8.3"
    assert not g.may_go_out(0)


# ---------------------------------------------------------------- 8.4 partners in their feet
def test_8_4_003_the_partner_must_have_played_from_the_foot() -> None:
    g = finishing(preset("hand-and-foot-classic"), QUOTAS["hand-and-foot-classic"],
                  partner_foot=False)
    play(g, ["draw"])
    assert not g.may_go_out(0)
    assert clause(g, "ask") == "8.4"  # no point asking: going out cannot be
    assert clause(g, "meld 9 9 9") == "7.5.2"
    g = finishing(preset("hand-and-foot-classic"), QUOTAS["hand-and-foot-classic"],
                  partner_played=False)
    play(g, ["draw"])
    assert clause(g, "ask") == "8.4"  # in the foot, but not yet played from it
    g.foot_played[2] = True
    play(g, ["ask", "answer yes"])
    assert g.may_go_out(0)


def test_8_4_003_played_from_the_foot_counts_from_the_partners_turn() -> None:
    # A yes that does not oblige, so seat 0 may ask without being able to go out at once.
    rules = house_rules("hand-and-foot-classic", {"permission_yes": "allows"})
    g = game(rules, "4 | 9 9 9 4", "4 | 4", "4 | 8 8 6 6", "4 | 4",
             stock="4 6 4 6 4 6 4 6 9 9")
    for seat in range(4):
        to_foot(g, seat)
    set_melds(g, 0, ";".join(QUOTAS["hand-and-foot-classic"]))
    play(g, ["draw", "discard 4", "draw", "discard 4", "draw", "discard 4", "draw",
             "discard 4"])
    assert g.foot_played[2]
    play(g, ["draw", "ask", "answer yes"])
    assert g.may_go_out(0)


def test_8_4_hand_and_foot_002_does_not_wait_for_the_partner() -> None:
    g = finishing(preset(HF), QUOTAS[HF], partner_foot=False)
    assert go_out_turn(g)[-1] in ("round_end", "game_end")


def test_8_4_variant_partner_in_foot() -> None:
    rules = house_rules(HKF, {"partner_in_foot": "in_foot"})
    g = finishing(rules, QUOTAS[HKF], partner_foot=False)
    play(g, ["draw"])
    assert clause(g, "ask") == "8.4" and clause(g, "meld 9 9 9") == "7.5.2"
    assert not g.may_go_out(0)
    g = finishing(rules, QUOTAS[HKF])
    go_out_turn(g)
    assert g.results[0].ended_by == "went_out"


# ---------------------------------------------------------------- 8.5 permission
def test_8_5_ask_the_partner_and_yes_lets_you_go_out() -> None:
    g = finishing(preset(HKF), QUOTAS[HKF])
    play(g, ["draw"])
    assert not g.may_go_out(0)
    play(g, ["ask"])
    assert g.actor == 2
    play(g, ["answer yes", "meld 9 9 9", "discard 4"])
    assert g.results[0].ended_by == "went_out"


def test_8_5_2_no_is_binding_for_the_turn() -> None:
    g = finishing(preset(HKF), QUOTAS[HKF])
    play(g, ["draw", "ask", "answer no"])
    assert not g.may_go_out(0)
    assert clause(g, "ask") == "8.5"  # once a turn
    assert clause(g, "meld 9 9 9") == "7.5.4"  # it would leave a last card to go out with
    assert clause(g, "answer yes") == "8.5"
    discard = g.refusal(act("discard 4"))
    assert discard is None
    play(g, ["discard 4"])


def test_8_5_1_melding_down_to_the_last_card_needs_the_answer_first() -> None:
    g = finishing(preset(HKF), QUOTAS[HKF])
    play(g, ["draw"])
    assert clause(g, "meld 9 9 9") == "7.5.3"
    play(g, ["ask", "answer yes", "meld 9 9 9"])


def test_8_5_1_going_out_unasked_is_refused() -> None:
    g = finishing(preset(HKF), QUOTAS[HKF])
    play(g, ["draw"])
    refusal = g.refusal(act("meld 9 9 9"))
    assert refusal is not None and "ask your partner" in refusal.reason
    assert g.refusal(act("meld 9 9 9")) == g.refusal(act("meld 9 9 9"))


def test_8_5_3_a_yes_obliges_the_player_to_go_out() -> None:
    g = finishing(preset(HKF), QUOTAS[HKF], foot="9 4 4 4")
    play(g, ["draw", "ask", "answer yes"])  # 9 9 9 4 4 4: everything melds
    assert clause(g, "discard 4") == "8.5.3"  # a discard that does not go out
    assert clause(g, "knock") == "3.6"
    assert legal_texts(g) == {"meld 9 9 9", "meld 4 4 4"}
    play(g, ["meld 4 4 4", "meld 9 9 9"])
    assert g.results[0].ended_by == "went_out"


def test_8_5_3_the_legal_steps_after_a_yes_all_lead_out() -> None:
    # Q Q Q 2 K K: the 2 must go with the queens or the kings would be stranded.
    g = finishing(preset("hand-and-foot-classic"), QUOTAS["hand-and-foot-classic"],
                  foot="Q Q Q 2 K K", stock="K 4 4 6 4 6")
    play(g, ["draw", "ask", "answer yes"])
    for _ in range(20):
        if g.results:
            break
        legal = g.legal_actions()
        assert legal
        g.apply(legal[-1])
    assert g.results[0].ended_by == "went_out"


def test_8_5_4_ask_only_when_going_out_can_be() -> None:
    g = finishing(preset(HKF), QUOTAS[HKF], foot="9 4 4")
    play(g, ["draw"])  # 9 9 9 4 4: the two 4s can neither meld nor both be discarded
    assert clause(g, "ask") == "8.5.4"
    assert "ask" not in legal_texts(g)


def test_8_5_variant_yes_does_not_oblige() -> None:
    rules = house_rules(HKF, {"permission_yes": "allows"})
    g = finishing(rules, QUOTAS[HKF], foot="9 4 4")
    play(g, ["draw", "ask", "answer yes", "meld 9 9 9", "discard 4"])
    assert g.round_no == 1 and g.seat == 1


def test_8_5_002_asks_nobody() -> None:
    g = finishing(preset(HF), QUOTAS[HF])
    play(g, ["draw"])
    assert clause(g, "ask") == "8.5"


def test_8_5_ask_only_from_the_foot_once_a_turn() -> None:
    g = finishing(preset(HKF), QUOTAS[HKF])
    assert clause(g, "ask") == "8.5"  # before drawing
    play(g, ["draw", "ask", "answer yes"])
    assert clause(g, "ask") == "8.5"


# ---------------------------------------------------------------- 8.6 the last card
def test_8_6_002_going_out_ends_with_a_discard() -> None:
    g = finishing(preset(HF), QUOTAS[HF], foot="9", stock="9 9 4 6")
    play(g, ["draw"])
    assert clause(g, "meld 9 9 9") == "8.6"


@pytest.mark.parametrize("name", ["hand-knee-foot", "hand-and-foot-13", "hand-and-foot-classic"])
def test_8_6_meld_out_without_a_discard(name: str) -> None:
    g = finishing(preset(name), QUOTAS[name], foot="9", stock="9 9 4 6")
    play(g, ["draw", "ask", "answer yes", "meld 9 9 9"])
    assert g.results[0].ended_by == "went_out"


def test_8_6_variant_000_final_discard_required() -> None:
    rules = house_rules(HKF, {"last_card": "discard"})
    g = finishing(rules, QUOTAS[HKF], foot="9", stock="9 9 4 6")
    play(g, ["draw"])
    assert clause(g, "meld 9 9 9") == "8.6"
    assert clause(g, "ask") == "8.5.4"  # 9 9 9 cannot end with a discard


# ---------------------------------------------------------------- 9.1 the stock running out
@pytest.mark.parametrize("name", ["hand-knee-foot", "hand-and-foot-classic"])
def test_9_1_end_of_turn_the_last_drawer_still_melds_and_discards(name: str) -> None:
    rules = preset(name)
    rest = ["4"] * (len(rules.packets) - 1)
    g = game(rules, " | ".join(["K K K A A A 9", *rest]), stock="4 6")
    play(g, ["draw"])
    assert g.stock == [] and g.round_no == 1 and not g.over
    play(g, ["lay K K K, A A A", "discard 9"])
    assert g.results[0].ended_by == "stock_out"
    assert not any("going out" in ln.label for ln in g.results[0].teams[0].lines)


@pytest.mark.parametrize("name", ["hand-and-foot", "triple-play"])
def test_9_1_cannot_draw_the_round_ends_when_the_next_player_finds_no_stock(name: str) -> None:
    rules = preset(name)
    rest = ["4"] * (len(rules.packets) - 1)
    g = game(rules, " | ".join(["K K 9", *rest]), " | ".join(["9 9 6", *rest]), stock="4 K")
    play(g, ["draw", "discard 9"])
    assert g.results[0].ended_by == "stock_out"  # seat 1 cannot draw, even with 9 9


def test_9_1_004_with_the_stock_gone_play_goes_on_while_the_pile_is_taken() -> None:
    rules = preset("hand-and-foot-13")
    g = game(rules, "K K 9 | 4", "9 9 6 6 | 4", "6 6 4 | 4", stock="4 8")
    g.opened[:] = [True, True]
    play(g, ["draw", "discard 9"])
    assert not g.results and g.seat == 1
    assert legal_texts(g) == {"stop", "take-pile"}
    play(g, ["take-pile", "discard 6"])
    assert g.seat == 2  # seat 2 holds 6 6 and takes the 6
    play(g, ["stop"])
    assert g.results[0].ended_by == "stock_out"


def test_9_1_004_the_round_ends_when_nobody_can_take_the_pile() -> None:
    g = game(preset("hand-and-foot-13"), "K K 9 | 4", "8 8 6 6 | 4", stock="4 8")
    g.opened[:] = [True, True]
    play(g, ["draw", "discard 9"])
    assert g.results[0].ended_by == "stock_out"


def test_9_1_004_every_player_in_turn_may_take_the_pile() -> None:
    # Seat 1 could take the 9 but passes; seat 2 cannot and passes without a choice; seat 3
    # holds 9 9 and takes it: 004's "no player can or wishes to" asks every player.
    rules = preset("hand-and-foot-13")
    g = game(rules, "K K 9 | 4", "9 9 6 | 4", "6 4 4 | 4", "9 9 5 5 | 4", stock="4 8")
    g.opened[:] = [True, True]
    play(g, ["draw", "discard 9"])
    assert g.seat == 1 and legal_texts(g) == {"stop", "take-pile"}
    events = play(g, ["stop"])
    assert [e.name for e in events][:2] == ["pass", "pass"]  # seat 1 chose, seat 2 could not
    assert not g.results and g.seat == 3
    play(g, ["take-pile"])
    assert g.passes == 0 and g.seat == 3  # a take starts the count of passes again
    play(g, ["discard 5"])  # nobody can take a 5 now: four passes in a row end the round
    assert g.results[0].ended_by == "stock_out"


def test_9_1_004_the_round_ends_when_every_player_in_a_row_has_passed() -> None:
    rules = preset("hand-and-foot-13")
    g = game(rules, "K K 9 | 4", "9 9 6 | 4", "6 4 4 | 4", "9 9 5 5 | 4", stock="4 8")
    g.opened[:] = [True, True]
    play(g, ["draw", "discard 9", "stop", "stop"])  # seat 1, then seat 3
    # Seat 0 cannot take the 9 (it holds K K): the fourth pass in a row ends the round.
    assert g.results[0].ended_by == "stock_out"


def test_9_1_variant_pile_only_asks_only_the_player_to_move() -> None:
    rules = house_rules("hand-and-foot-13", {"stock_out": "pile_only"})
    g = game(rules, "K K 9 | 4", "9 9 6 | 4", "6 4 4 | 4", "9 9 5 5 | 4", stock="4 8")
    g.opened[:] = [True, True]
    play(g, ["draw", "discard 9", "stop"])
    assert g.results[0].ended_by == "stock_out"  # seat 3 is never asked


# ---------------------------------------------------------------- 9.2 the turn cap
def test_9_2_the_turn_cap_ends_a_round_as_it_lies() -> None:
    rules = house_rules(HF, {"turn_cap": 10})
    g = game(rules, stock=" ".join(["4 6"] * 12))
    for _ in range(10):
        play(g, ["draw", "discard 4"])
    assert g.results[0].ended_by == "turn_cap"
    assert g.results[0].turns == 10


def test_9_2_turn_caps_of_the_presets() -> None:
    assert preset(HF).turn_cap == 400 and preset(HKF).turn_cap == 600


def test_8_5_in_a_team_of_three_the_partner_who_plays_next_answers() -> None:
    rules = preset(HKF, players=6)
    g = game(rules, "4 | 4 | 9 4", stock="9 9 4 6 4 6")
    to_foot(g, 0)
    set_melds(g, 0, ";".join(QUOTAS[HKF]))
    play(g, ["draw", "ask"])
    assert g.actor == 2  # seats 0, 2, 4 play together; 2 plays next
    play(g, ["answer yes", "meld 9 9 9", "discard 4"])
    assert g.results[0].went_out == 0


def test_8_5_solo_players_ask_nobody() -> None:
    rules = preset("hand-and-foot-13", players=3)
    g = game(rules, "4 | 9 4", stock="9 9 4 6 4 6")
    to_foot(g, 0)
    set_melds(g, 0, ";".join(QUOTAS["hand-and-foot-13"]))
    play(g, ["draw"])
    assert clause(g, "ask") == "8.5"
    play(g, ["meld 9 9 9", "discard 4"])
    assert g.results[0].ended_by == "went_out"


def test_8_2_quota_missing_names_what_each_kind_is_short_of() -> None:
    knee = derived_for(preset("hand-knee-foot"))
    assert knee.quota_missing([]) == {"7s": 1, "5s": 1, "wild": 1, "clean": 1, "dirty": 1}
    # A second canasta of 7s fills the clean requirement (decision D2), never the dirty one.
    assert knee.quota_missing(["7s", "7s", "5s", "wild"]) == {"dirty": 1}
    assert knee.quota_met(["7s", "7s", "5s", "wild", "dirty"])
    classic = derived_for(preset("hand-and-foot-classic"))
    assert classic.quota_missing(["clean", "clean", "clean", "dirty"]) == {"dirty": 1, "wild": 1}
    lenient = derived_for(preset("hand-and-foot-classic").replace(clean_fills_dirty=True))
    assert lenient.quota_missing(["clean", "clean", "clean", "dirty"]) == {"wild": 1}


# ---------------------------------------------------------------- 7.5's sub-clauses
def test_7_5_2_a_partner_not_in_the_foot_keeps_two_cards_back() -> None:
    rules = house_rules(HKF, {"partner_in_foot": "in_foot"})
    g = finishing(rules, QUOTAS[HKF], partner_foot=False)
    play(g, ["draw"])
    refusal = g.refusal(act("meld 9 9 9"))
    assert refusal is not None and refusal.clause == "7.5.2" and "foot" in refusal.reason


def test_7_5_3_unasked_keeps_two_cards_back() -> None:
    g = finishing(preset(HKF), QUOTAS[HKF])
    play(g, ["draw"])
    refusal = g.refusal(act("meld 9 9 9"))
    assert refusal is not None and refusal.clause == "7.5.3"
    assert "ask your partner" in refusal.reason


def test_7_5_4_after_a_no_keeps_two_cards_back() -> None:
    g = finishing(preset(HKF), QUOTAS[HKF])
    play(g, ["draw", "ask", "answer no"])
    refusal = g.refusal(act("meld 9 9 9"))
    assert refusal is not None and refusal.clause == "7.5.4" and "said no" in refusal.reason
