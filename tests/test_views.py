"""Seat views show a seat what it may see and nothing more; sampled worlds agree with them.

The proof that a view leaks nothing: re-deal everything the seat cannot see (other hands beyond
their known cards, every packet, the stock, the seed) and the view does not change.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from handfoot.actions import Retract
from handfoot.cards import KING, NUM_KINDS, RED_THREE, kinds_of, shoe_counts
from handfoot.deal import seeded_deal
from handfoot.engine import Game
from handfoot.presets import preset
from handfoot.rules import Rules
from handfoot.views import SeatView, sample_world, unseen_counts, view
from scenario import examples
from test_properties import (
    check_table,
    greedy_action,
    house_combos,
    players,
    presets,
    random_action,
    rules_for,
    seeds,
    table_counts,
)

SEAT_KEYS = {"hand_size", "packet", "packet_sizes", "red_threes", "knee_pending",
             "foot_played", "known"}
TOP_KEYS = {"rules", "seat", "round", "rounds", "dealer", "turn", "actor", "phase", "turns",
            "hand", "seats", "teams", "pile", "pile_top", "stock_size", "totals", "results",
            "took_pile", "retracted", "asked", "staged", "pile_taken", "minimum", "ended_by",
            "went_out", "set_aside", "passes"}


def rehide(g: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``g`` with everything ``seat`` cannot see dealt again at random."""
    w = g.clone()
    hidden: list[int] = []
    for s in range(g.rules.players):
        if s != seat:
            for k in range(NUM_KINDS):
                hidden += [k] * (w.hands[s][k] - w.known[s][k])
        for p in w.packets[s]:
            hidden += kinds_of(p)
    hidden += w.stock
    rng.shuffle(hidden)
    for s in range(g.rules.players):
        if s != seat:
            size = w.hand_n[s] - sum(w.known[s])
            w.hands[s] = list(w.known[s])
            for k in hidden[:size]:
                w.hands[s][k] += 1
            del hidden[:size]
        for i, p in enumerate(w.packets[s]):
            size = sum(p)
            w.packets[s][i] = [0] * NUM_KINDS
            for k in hidden[:size]:
                w.packets[s][i][k] += 1
            del hidden[:size]
    w.stock = hidden
    if w.seed is not None:
        w.seed += 1
    return w


def check_mapping(v: SeatView) -> None:
    m = v.to_mapping()
    assert set(m) == TOP_KEYS
    for key in ("stock", "hands", "packets", "seed", "deals", "snapshot"):
        assert key not in m
    for info in m["seats"]:
        # Other seats appear only as sizes and the cards the whole table saw them take.
        assert set(info) == SEAT_KEYS
        assert all(isinstance(n, int) for n in info["packet_sizes"])
    assert isinstance(m["stock_size"], int)
    text = json.dumps(m)
    assert SeatView.from_mapping(json.loads(text)) == v


def points(g: Game, rng: random.Random, rate: float) -> bool:
    """Whether to check here: every short opening in progress, and a share of the rest."""
    return g.snapshot is not None or rng.random() < rate


# ====================================================================== (a) no leak
@settings(max_examples=examples(40), deadline=None)
@given(name=presets, n=players, seed=seeds, greedy=st.booleans())
def test_a_view_depends_only_on_what_the_seat_may_see(name: str, n: int, seed: int,
                                                      greedy: bool) -> None:
    g = Game.new(rules_for(name, n, rounds=2), seed=seed)
    act = greedy_action if greedy else random_action
    rng = random.Random(seed)
    while not g.over:
        if points(g, rng, 0.05):
            for s in range(n):
                v = view(g, s)
                assert v.hand == tuple(g.hands[s])
                assert view(rehide(g, s, rng), s) == v
                assert view(sample_world(v, rng), s) == v
                check_mapping(v)
        g.apply(act(g, rng))
    v = view(g, 0)
    assert v.phase == "game-over"
    check_mapping(v)


def test_a_view_shows_other_seats_only_as_sizes() -> None:
    g = Game.new(preset("hand-and-foot"), seed=5)
    v = view(g, 1)
    assert v.hand == tuple(g.hands[1])
    assert [s.hand_n for s in v.seats] == g.hand_n
    assert [s.packets for s in v.seats] == [(11,)] * 4
    assert v.stock_size == len(g.stock)
    assert v.pile == tuple(g.pile) and v.pile_top == g.pile[-1]
    assert all(s.known == (0,) * NUM_KINDS for s in v.seats)
    assert hash(v) == hash(view(g, 1))  # views can key a search table
    # Another seat's hand changes nothing in this seat's view, but its own hand does.
    w = g.clone()
    w.hands[2], w.hands[3] = w.hands[3], w.hands[2]
    assert view(w, 1) == v
    w.hands[1], w.hands[3] = w.hands[3], w.hands[1]
    assert view(w, 1) != v


# ====================================================================== (b) sampled worlds
def check_sample(g: Game, s: int, rng: random.Random) -> None:
    v = view(g, s)
    w = sample_world(v, rng)
    check_table(w)
    assert table_counts(w) == shoe_counts(g.rules.decks)
    assert w.hands[s] == g.hands[s]
    assert w.known == g.known  # known cards stay with their seats
    assert [len(p) for p in w.packets] == [len(p) for p in g.packets]
    assert [[sum(p) for p in ps] for ps in w.packets] == [[sum(p) for p in ps] for ps in g.packets]
    assert len(w.stock) == len(g.stock)
    assert w.seed is not None
    if g.rules.red_threes == "bonus":
        assert all(h[RED_THREE] == 0 for h in w.hands)
    assert view(w, s) == v
    if s == g.actor:
        # What the actor may do depends only on what it sees.
        assert w.legal_actions() == g.legal_actions()
    if g.snapshot is not None:
        assert w.snapshot is not None
        if s == g.seat:
            assert w.snapshot == g.snapshot
        assert w.snapshot.hand_n == g.snapshot.hand_n
        assert w.snapshot.pile == g.snapshot.pile
        if g.can(Retract()):
            real, sampled = g.clone(), w.clone()
            real.apply(Retract())
            sampled.apply(Retract())
            check_table(sampled)
            assert view(sampled, s) == view(real, s)
    else:
        assert w.snapshot is None


@settings(max_examples=examples(40), deadline=None)
@given(name=presets, n=players, seed=seeds, greedy=st.booleans())
def test_sampled_worlds_keep_every_card_and_agree_with_the_view(name: str, n: int, seed: int,
                                                                greedy: bool) -> None:
    g = Game.new(rules_for(name, n, rounds=2), seed=seed)
    act = greedy_action if greedy else random_action
    rng = random.Random(seed)
    while not g.over:
        if points(g, rng, 0.05):
            for s in range(n):
                check_sample(g, s, rng)
        g.apply(act(g, rng))
    check_sample(g, 0, rng)


def test_sampling_deals_the_unseen_cards_uniformly() -> None:
    g = Game.new(preset("hand-and-foot"), seed=11)
    v = view(g, 0)
    unseen = unseen_counts(v)
    total = sum(unseen)
    rng = random.Random(3)
    samples = 600
    kings_in_hand = kings_in_stock = reds_in_packets = 0
    for _ in range(samples):
        w = sample_world(v, rng)
        kings_in_hand += w.hands[1][KING]
        kings_in_stock += w.stock.count(KING)
        reds_in_packets += w.packets[2][0][RED_THREE]
        assert w.hands[1][RED_THREE] == 0
    hand, stock = g.hand_n[1], len(g.stock)
    assert abs(kings_in_hand / samples - hand * unseen[KING] / total) < 0.2
    assert abs(kings_in_stock / samples - stock * unseen[KING] / total) < 1.0
    # Red threes go to packets and the stock only, in proportion to their sizes.
    outside_hands = total - sum(g.hand_n[1:])
    assert abs(reds_in_packets / samples - 11 * unseen[RED_THREE] / outside_hands) < 0.2
    # Worlds differ from one another.
    assert len({tuple(sample_world(v, rng).stock) for _ in range(5)}) == 5


# ====================================================================== (c) playing them on
@settings(max_examples=examples(30), deadline=None)
@given(name=presets, n=players, seed=seeds, greedy=st.booleans(),
       stop=st.integers(min_value=0, max_value=300), viewer=st.integers(0, 5))
def test_sampled_worlds_play_to_the_end(name: str, n: int, seed: int, greedy: bool, stop: int,
                                        viewer: int) -> None:
    rules = rules_for(name, n, rounds=2)
    g = Game.new(rules, seed=seed)
    act = greedy_action if greedy else random_action
    rng = random.Random(seed)
    for _ in range(stop):
        if g.over:
            break
        g.apply(act(g, rng))
    w = sample_world(view(g, viewer % n), rng)
    steps = 0
    while not w.over:
        w.apply(act(w, rng))
        steps += 1
        if steps % 32 == 0:
            check_table(w)
    check_table(w)
    assert len(w.results) == rules.rounds


def test_a_scenario_world_ends_with_its_last_deal() -> None:
    rules = preset("hand-and-foot")
    deals = [seeded_deal(rules, 7, 1, 0), seeded_deal(rules, 7, 2, 1)]
    g = Game.new(rules, deals=deals)
    assert view(g, 0).rounds == 2
    rng = random.Random(1)
    w = sample_world(view(g, 0), rng)
    while not w.over:
        w.apply(random_action(w, rng))
    assert len(w.results) == 2
    # Within the last deal the world stops at the round's end.
    while g.round_no < 2:
        g.apply(random_action(g, rng))
    w = sample_world(view(g, 3), rng)
    assert view(w, 3) == view(g, 3)
    while not w.over:
        w.apply(random_action(w, rng))
    assert len(w.results) == 2


def test_views_of_every_seat_at_the_start() -> None:
    for n in (2, 3, 4, 5, 6):
        g = Game.new(preset("hand-knee-foot", n), seed=n)
        for s in range(n):
            v = view(g, s)
            assert v.turn == (g.dealer + 1) % n and v.phase == "draw"
            assert v.packets == tuple(sum(p) for p in g.packets[s])
            assert sum(unseen_counts(v)) == (sum(g.hand_n) - g.hand_n[s]
                                             + sum(sum(sum(p) for p in ps) for ps in g.packets)
                                             + len(g.stock))


def test_a_world_is_sampled_for_a_scenario_dealt_from_part_of_the_shoe() -> None:
    # The worked examples deal a few dozen cards of a whole shoe: the unseen cards beyond the
    # unseen places are out of play, and a sampled world still agrees with every view.
    from handfoot.record import load_record

    path = Path(__file__).resolve().parent.parent / "examples" / "hf-worked-round-1935.json"
    record = load_record(path.read_text(encoding="utf-8"))
    g = record.new_game()
    rng = random.Random(5)
    for seat in range(g.rules.players):
        v = view(g, seat)
        world = sample_world(v, rng)
        assert view(world, seat) == v
        assert world.hand_n == g.hand_n and len(world.stock) == len(g.stock)


# ====================================================================== (c) house rules
HOUSE_TOP_KEYS = TOP_KEYS | {"picked_up", "pile_owed"}


@settings(max_examples=examples(20), deadline=None)
@given(rules=house_combos(), seed=seeds, greedy=st.booleans())
def test_house_rules_views_depend_only_on_what_the_seat_may_see(rules: Rules, seed: int,
                                                                greedy: bool) -> None:
    """Under random combinations of the house rules (a reshuffled stock, picking the pile
    up, the packet that replaces the draw, jokers per deck, ...), 2 to 6 players."""
    g = Game.new(rules, seed=seed)
    act = greedy_action if greedy else random_action
    rng = random.Random(seed)
    while not g.over:
        if points(g, rng, 0.04) or g.pile_owed:
            for s in range(rules.players):
                v = view(g, s)
                assert view(rehide(g, s, rng), s) == v
                w = sample_world(v, rng)
                assert view(w, s) == v
                assert table_counts(w) == shoe_counts(rules.decks, rules.jokers)
                m = v.to_mapping()
                assert set(m) <= HOUSE_TOP_KEYS and "stock" not in m
                assert SeatView.from_mapping(json.loads(json.dumps(m))) == v
        g.apply(act(g, rng))


def test_a_world_sampled_while_a_partner_is_asked_plays_on() -> None:
    # Seat 3 has asked "may I go out?" under a binding yes; in a world sampled for seat 0 its
    # hidden hand is random and may not be able to go out: the yes then cannot oblige it, and
    # the world still plays to its end (found by test_sampled_worlds_play_to_the_end).
    rules = rules_for("hand-and-foot-13", 6, rounds=2)
    g = Game.new(rules, seed=88)
    rng = random.Random(88)
    for _ in range(83):
        g.apply(greedy_action(g, rng))
    assert g.phase == "answer" and g.seat == 3
    w = sample_world(view(g, 0), rng)
    while not w.over:
        legal = w.legal_actions()
        assert legal, "a dead end"
        w.apply(greedy_action(w, rng))
    assert len(w.results) == rules.rounds
