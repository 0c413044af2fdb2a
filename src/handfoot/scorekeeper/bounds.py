"""What a table can produce: the most of everything that the rules and the shoe allow.

A score sheet is typed by a person, so a slip (1,000 clean canastas, a melded total of 10^29)
must be caught before it is stored.  Every bound here is derived from the rules object (the
decks, the canasta size, the card values, the wild-card limits), and the same bounds serve
entering a round (by questions or from a file) and editing one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from handfoot.cards import KIND_TOKENS, NATURAL_RANKS, CardError, parse_kind, plural
from handfoot.derived import derived_for
from handfoot.rules import Rules

# Melded cards counted by value group: the groups a score sheet uses, with their card tokens.
VALUE_GROUPS: dict[str, tuple[str, ...]] = {
    "jokers": ("JK",),
    "2s-aces": ("2", "A"),
    "K-8": ("K", "Q", "J", "10", "9", "8"),
    "7-4": ("7", "6", "5", "4"),
}


@dataclass(frozen=True)
class Need:
    """The fewest cards a canasta entry takes from the shoe: natural cards (of one rank when
    ``rank`` is set) and wild cards."""

    rank: int | None
    naturals: int
    wilds: int


class Shoe:
    """The cards a round is played with, and the most a team (or a table) can lay or hold."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        d = rules.decks
        self.decks = d
        self.per_rank = 4 * d  # natural cards of one rank
        self.naturals = 4 * d * len(NATURAL_RANKS)
        self.wilds = 6 * d  # four 2s and two jokers a deck
        self.red_threes = 2 * d
        self.black_threes = 2 * d
        self.size = rules.canasta_size
        count = [4 * d] * len(NATURAL_RANKS) + [4 * d, 2 * d]
        self.kind_count = count
        # Every card that can be melded (all but the threes), at its value.
        self.points = sum(n * v for n, v in zip(count, rules.card_values, strict=True))

    @cached_property
    def dirty_naturals(self) -> int:
        """The natural cards a dirty canasta holds at the least: as many wild cards as the
        rules let a canasta hold, at least one."""
        derived = derived_for(self.rules)
        return max(self.rules.naturals_before_wild, self.size - max(1, derived.max_wild_at_canasta))

    @cached_property
    def round_points(self) -> int:
        """More than any team can score in a round: every card melded, every canasta at the
        best bonus, every red three laid with its bonuses, and going out."""
        rules = self.rules
        best = max(v for _, v in rules.canasta_bonus)
        return (self.points + (self.naturals + self.wilds) // self.size * best
                + self.red_threes * rules.red_three_bonus + rules.red_three_set_bonus
                + rules.going_out_bonus + rules.exact_cut_bonus * rules.players
                * len(rules.packets))

    def need(self, key: str) -> Need:
        """What a canasta entry (in its normal spelling: clean, dirty, wild, ``7s``,
        ``dirty 5s``, ``clean Ks``) needs at the least."""
        words = key.split()
        rank = _rank(words[-1]) if words[-1] not in ("clean", "dirty", "wild") else None
        if key == "wild":
            return Need(None, 0, self.size)
        if words[0] == "dirty":
            return Need(rank, self.dirty_naturals, 1)
        return Need(rank, self.size, 0)  # clean, of any rank or of a named one

    def most_canastas(self, key: str) -> int:
        """The most canastas of this entry all the shoe could make."""
        need = self.need(key)
        most = (self.naturals + self.wilds) // self.size
        if need.naturals:
            pool = self.per_rank if need.rank is not None else self.naturals
            most = min(most, pool // need.naturals)
            if need.wilds == 0 and need.rank is None:
                # A clean canasta is of one rank: each rank makes so many at most.
                most = min(most, len(NATURAL_RANKS) * (self.per_rank // self.size))
        if need.wilds:
            most = min(most, self.wilds // need.wilds)
        return most

    def group_count(self, group: str) -> int:
        """How many cards of a melded-cards value group the shoe holds."""
        return sum(self.kind_count[parse_kind(t)] for t in VALUE_GROUPS[group])

    # -------------------------------------------------------------- a whole round
    def round_problems(self, names: Sequence[str],
                       entries: Sequence[Mapping[str, Any]]) -> list[str]:
        """What the teams' entries together ask of the shoe that it does not hold."""
        out: list[str] = []
        d = plural(self.decks, "deck")
        naturals = wilds = cards = 0
        by_rank: dict[int, int] = {}
        clean = 0
        for entry in entries:
            for key, n in entry["canastas"].items():
                need = self.need(key)
                naturals += need.naturals * n
                wilds += need.wilds * n
                cards += self.size * n
                if need.rank is not None:
                    by_rank[need.rank] = by_rank.get(need.rank, 0) + need.naturals * n
                elif need.wilds == 0 and need.naturals:
                    clean += n
        if cards > self.naturals + self.wilds:
            out.append(f"the canastas entered hold at least {cards:,} cards, but {d} hold "
                       f"only {self.naturals + self.wilds:,} that can be melded")
        if naturals > self.naturals:
            out.append(f"the canastas entered need at least {naturals:,} natural cards, but "
                       f"{d} hold only {self.naturals:,}")
        if wilds > self.wilds:
            out.append(f"the canastas entered need at least {wilds:,} wild cards, but {d} "
                       f"hold only {self.wilds:,} (2s and jokers)")
        for rank, n in sorted(by_rank.items()):
            if n > self.per_rank:
                out.append(f"the canastas of {KIND_TOKENS[rank]}s entered need at least {n} "
                           f"of them, but {d} hold only {self.per_rank}")
        most_clean = len(NATURAL_RANKS) * (self.per_rank // self.size)
        if clean > most_clean:
            out.append(f"{clean} clean canastas entered, but {d} make at most {most_clean} "
                       f"({self.per_rank // self.size} of each of the "
                       f"{len(NATURAL_RANKS)} ranks)")
        return out

    def points_problem(self, melded: int, left: int) -> str | None:
        """The round's melded and left-in-hand card points together, against the shoe."""
        if melded + left > self.points:
            return (f"the melded card points ({melded:,}) and the points left in hands "
                    f"({left:,}) add up to {melded + left:,}, but all the cards of "
                    f"{plural(self.decks, 'deck')} are worth {self.points:,}")
        return None


def _rank(token: str) -> int | None:
    try:
        rank = parse_kind(token[:-1])
    except CardError:
        return None
    return rank if rank in NATURAL_RANKS else None


@lru_cache(maxsize=16)
def shoe_of(rules: Rules) -> Shoe:
    """The shoe of these rules."""
    return Shoe(rules)
