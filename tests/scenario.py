"""Scenario helpers for the rules tests: deals written as card text, turns written as actions.

A scenario fixes every card: ``game(rules, "K K K 9 | 5 6", ...)`` deals seat 0 a hand of
K K K 9 and a foot of 5 6 (packets separated by ``|``), and ``play(g, ["draw", "meld K K K",
"discard 9"])`` plays action texts in order.  By default seat 0 plays first (the dealer sits
on its right), so a test reads from the first player's point of view.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from handfoot.actions import Action, parse_action, parse_part
from handfoot.cards import NUM_SLOTS, WILD_SLOT, format_counts, parse_cards
from handfoot.deal import Deal
from handfoot.engine import Event, Game
from handfoot.rules import Rules

# Enough low cards for a few turns of drawing; tests that care name their own stock.
DEFAULT_STOCK = "4 6 8 9 10 J Q 4 6 8 9 10 J Q 4 6 8 9 10 J"
FILLER = "9 10 J Q"


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def seat_packets(text: str, rules: Rules) -> tuple[tuple[int, ...], ...]:
    packets = tuple(cards(p) for p in text.split("|"))
    if len(packets) != len(rules.packets):
        raise ValueError(f"{text!r}: needs {len(rules.packets)} packets "
                         f"({', '.join(rules.packet_names)}) separated by '|'")
    return packets


def deal(rules: Rules, *seats: str, stock: str = DEFAULT_STOCK, pile: str | None = None) -> Deal:
    """A deal: one text per seat (missing seats get a filler packet each), stock top first,
    pile bottom first."""
    texts = list(seats) + [" | ".join([FILLER] * len(rules.packets))] * (rules.players - len(seats))
    return Deal(
        packets=tuple(seat_packets(t, rules) for t in texts),
        stock=cards(stock),
        pile=None if pile is None else cards(pile),
    )


def game(
    rules: Rules,
    *seats: str,
    stock: str = DEFAULT_STOCK,
    pile: str | None = "6",
    first: int = 0,
    later: Iterable[Deal] = (),
) -> Game:
    """A game whose first round is this deal; ``first`` is the seat that plays first.

    ``pile=None`` turns an upcard from the stock instead of fixing the pile.  ``later`` deals
    are the following rounds; the game ends after the last one given.
    """
    first_deal = deal(rules, *seats, stock=stock, pile=pile)
    return Game.new(rules, deals=[first_deal, *later], first_dealer=(first - 1) % rules.players)


def examples(n: int, fast: int | None = None) -> int:
    """How many examples a property test draws: all ``n`` where the whole suite runs
    (scripts/test-all sets HANDFOOT_TESTS=full, as CI does), an eighth (four at least) in a
    development run, or at most ``fast`` there for a test whose examples play whole rounds
    twice over."""
    if os.environ.get("HANDFOOT_TESTS") == "full":
        return n
    eighth = max(4, n // 8)
    return eighth if fast is None else min(eighth, fast)


def act(text: str) -> Action:
    return parse_action(text)


def play(g: Game, texts: Iterable[str]) -> list[Event]:
    """Apply action texts in order; an illegal one raises IllegalAction naming its clause."""
    events: list[Event] = []
    for text in texts:
        events += g.apply(parse_action(text))
    return events


def clause(g: Game, text: str) -> str | None:
    """The clause that refuses this action now, or None when it is legal."""
    refusal = g.refusal(parse_action(text))
    return None if refusal is None else refusal.clause


def legal_texts(g: Game) -> set[str]:
    return {a.text for a in g.legal_actions()}


def hand(g: Game, seat: int) -> str:
    return format_counts(g.hands[seat])


def event_names(events: Iterable[Event]) -> list[str]:
    return [e.name for e in events]


def set_melds(g: Game, team: int, text: str) -> None:
    """Put melds on a team's table directly (for going-out and scoring scenarios): groups of
    card text separated by ``;``.  A group of canasta size or more closes as a canasta; the
    team counts as opened, and as having its first canasta if one closed."""
    with g.edit():
        for group in text.split(";"):
            if not group.strip():
                continue
            part = parse_part(group)
            if part.size >= g.derived.canasta:
                g.first_canasta[team] = True
            if part.size >= g.derived.canasta and not g.derived.grows[part.slot]:
                g.closed[team].append((part.slot, part.naturals, part.twos, part.jokers))
                g.first_canasta[team] = True
            else:
                g.nat[team][part.slot] += part.naturals
                g.two[team][part.slot] += part.twos
                g.jok[team][part.slot] += part.jokers
        g.opened[team] = True


def to_foot(g: Game, seat: int) -> None:
    """Put a seat straight into its foot (its last packet) for going-out scenarios: the hand
    and any knee are set aside, as if played through on earlier turns."""
    last = len(g.rules.packets) - 1
    with g.edit():
        g.hands[seat] = g.packets[seat][-1] if g.packets[seat] else g.hands[seat]
        g.packets[seat] = []
        g.packet_no[seat] = last
        g.hand_n[seat] = sum(g.hands[seat])
        g.knee_pending[seat] = False


def meld_sizes(g: Game, team: int) -> dict[str, int]:
    """Sizes of a team's open melds, by slot token (for readable asserts)."""
    from handfoot.cards import slot_token

    return {
        slot_token(s): g.nat[team][s] + g.two[team][s] + g.jok[team][s]
        for s in range(NUM_SLOTS)
        if g.nat[team][s] + g.two[team][s] + g.jok[team][s]
    }


__all__ = [
    "WILD_SLOT",
    "act",
    "cards",
    "clause",
    "deal",
    "event_names",
    "examples",
    "game",
    "hand",
    "legal_texts",
    "meld_sizes",
    "play",
    "set_melds",
    "to_foot",
]
