"""Facts derived once from a rules object, as flat tables for the engine's inner loop."""

from __future__ import annotations

from functools import lru_cache

from .actions import PICK_UP, TAKE_ONTO, TAKES, Action, TakePile
from .cards import BLACK_THREE, KIND_TOKENS, NUM_KINDS, NUM_SLOTS, RED_THREE, WILD_SLOT, plural
from .rules import UNLIMITED, Rules


class Derived:
    """What a rules object fixes for the whole game, worked out once: the engine reads it as
    ``g.derived`` in its inner loop instead of asking the rules again."""

    __slots__ = (
        "_fits",
        "book",
        "canasta",
        "draw",
        "grows",
        "grows_if_spare",
        "knee_rule",
        "max_wilds_at",
        "last_packet",
        "max_wild_at_canasta",
        "meld_extras",
        "opening_bonus",
        "other_takes",
        "pile_take",
        "quota",
        "rank_kind",
        "round_minimums",
        "rules",
        "pair_takes",
        "takes",
        "teams",
        "top_takeable",
        "values",
    )

    takes: tuple[Action, ...]
    pair_takes: tuple[TakePile, ...]
    other_takes: tuple[Action, ...]

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        # Point value of each kind as a card; threes are priced only as held penalties.
        self.values = [*rules.card_values, 0, 0]
        assert len(self.values) == NUM_KINDS
        self.last_packet = len(rules.packets) - 1
        kinds = rules.rank_kinds
        # By kind, so that a book of black threes (kept under the kind's number) is a plain
        # clean canasta (5.7).
        self.rank_kind: list[str | None] = [kinds.get(s) for s in range(NUM_KINDS)]
        self.grows = [self._grows(s) for s in range(NUM_SLOTS)]
        # Under "not_special" a finished canasta grows only while it is spare (D18).
        self.grows_if_spare = rules.add_to_canasta == "not_special"
        self.quota = rules.quota
        self.canasta = rules.canasta_size
        self.pile_take = rules.pile_take
        self.teams = rules.teams
        # The opening minimum by round number (index 0 unused), where it follows the round.
        self.round_minimums: list[int] | None = (
            [0, *(rules.opening_minimum(r, 0) for r in range(1, rules.rounds + 1))]
            if rules.opening_by == "round" else None)
        self.draw = rules.draw_count
        # The ways to take the pile worth checking: with a wild card only where a natural and
        # a wild card may take it (4.3); the top card alone onto a meld (4.7) and picking the
        # pile up (4.8) only where the rules have them.
        self.pair_takes = TAKES if rules.pile_pair == "meldable" else TAKES[:1]
        self.other_takes = (((TAKE_ONTO,) if rules.pile_onto_meld else ())
                            + ((PICK_UP,) if rules.pile_any_card else ()))
        self.takes = self.pair_takes + self.other_takes
        # Which cards on top of the pile let anyone take it at all (4.2): never a red three,
        # a black three only where it does not block.
        self.top_takeable = [k < RED_THREE or (k == BLACK_THREE and not rules.black_three_blocks)
                             for k in range(NUM_KINDS)]
        self.book = rules.black_three_book
        # Whether the meld phase has more than melds and discards to look at (5.7, 4.8).
        self.meld_extras = rules.black_three_book or rules.pile_any_card
        # Canasta bonuses counted toward the opening (6.2), by kind; None where they do not.
        self.opening_bonus: dict[str, int] | None = (
            dict(rules.canasta_bonus) if rules.opening_counts_bonuses else None)
        self._fits: dict[int, bool] = {}
        # The knee (packet 1) waits for the team's first canasta only in games of 3+ packets.
        self.knee_rule = rules.knee_pickup == "team_first_canasta" and len(rules.packets) >= 3
        cap = rules.canasta_size if rules.max_wilds == UNLIMITED else rules.max_wilds
        self.max_wild_at_canasta = max(
            (w for w in range(min(cap, rules.canasta_size) + 1)
             if _ratio_ok(rules, rules.canasta_size - w, w)
             and rules.canasta_size - w >= rules.naturals_before_wild),
            default=0,
        )
        # The most wild cards a meld of slot s with n naturals may hold (-1: none fits): the
        # legal-action builder's inner loop reads this instead of calling fits().  The wild
        # limits and the size are all upper bounds on the wild cards, so one number per (slot,
        # naturals) says everything fits() would.
        most_naturals = 4 * rules.decks + 2
        self.max_wilds_at = [
            [self._most_wilds(s, n) for n in range(most_naturals + 1)]
            for s in range(NUM_SLOTS)
        ]

    def _grows(self, slot: int) -> bool:
        mode = self.rules.add_to_canasta
        if mode == "always":
            return True
        if mode == "not_special":
            return slot != WILD_SLOT and self.rank_kind[slot] is None
        return False

    def _most_wilds(self, slot: int, naturals: int) -> int:
        limit = self.rules.wilds_per_deck * self.rules.decks + 1  # more than the shoe holds
        w = -1
        while w < limit and self.fits(slot, naturals, w + 1):
            w += 1
        return w

    def wild_error(self, slot: int, naturals: int, wilds: int) -> str | None:
        """Why a rank meld of this make-up breaks the wild-card rules, or None."""
        rules = self.rules
        if wilds == 0:
            return None
        if slot in rules.no_wild_ranks:
            return f"melds of {slot_name(slot)} never take wild cards"
        if rules.wilds_first:
            if naturals < 1:
                return "a meld needs at least one natural card"
            if wilds > self.max_wild_at_canasta:
                return f"a canasta can hold at most {plural(self.max_wild_at_canasta, 'wild card')}"
            return None
        if naturals < rules.naturals_before_wild:
            return (f"a meld needs {plural(rules.naturals_before_wild, 'natural card')} before a "
                    "wild card")
        if wilds > rules.max_wilds != UNLIMITED:
            return f"a meld holds at most {plural(rules.max_wilds, 'wild card')}"
        if not _ratio_ok(rules, naturals, wilds):
            return {
                "fewer_than_naturals": "a meld must have more natural cards than wild cards",
                "at_most_half": "a meld may hold at most half as many wild cards as naturals",
                "at_most_naturals": "wild cards may not outnumber natural cards",
            }[rules.wild_ratio]
        return None

    def fits(self, slot: int, naturals: int, wilds: int) -> bool:
        """Whether a meld of this make-up obeys the wild and size rules (cached: hot path)."""
        key = (slot * 256 + naturals) * 256 + wilds
        ok = self._fits.get(key)
        if ok is None:
            rules = self.rules
            if slot == WILD_SLOT:
                ok = rules.wild_melds
            else:
                ok = self.wild_error(slot, naturals, wilds) is None
            ok = ok and (naturals + wilds <= self.canasta or self.grows[slot])
            self._fits[key] = ok
        return ok

    def canasta_kind(self, slot: int, wilds: int) -> str:
        if slot == WILD_SLOT:
            return "wild"
        if wilds:
            return "dirty"
        return self.rank_kind[slot] or "clean"

    def quota_met(self, kinds: list[str]) -> bool:
        """Whether these canastas cover the going-out quota (rule 8.2)."""
        return not self.quota_missing(kinds)

    def quota_missing(self, kinds: list[str]) -> dict[str, int]:
        """The canastas of each kind these canastas leave the quota short of (rule 8.2).

        Each canasta can fill a chain of requirements: a rank canasta (7s) its own kind, then
        "clean" where special_fills_clean; a clean one "clean", then "dirty" where
        clean_fills_dirty.  With chains, filling the most specific requirement first is an
        exact assignment, so no general matching is needed.
        """
        rules = self.rules
        have: dict[str, int] = {}
        for k in kinds:
            have[k] = have.get(k, 0) + 1
        need = dict(self.quota)
        short: dict[str, int] = {}
        spare_clean = 0
        for kind, count in have.items():
            if kind not in ("clean", "dirty", "wild"):
                spare_clean += max(0, count - need.get(kind, 0))
        for kind, want in need.items():
            if kind not in ("clean", "dirty", "wild") and have.get(kind, 0) < want:
                short[kind] = want - have.get(kind, 0)
        clean = have.get("clean", 0) + (spare_clean if rules.special_fills_clean else 0)
        if clean < need.get("clean", 0):
            short["clean"] = need["clean"] - clean
        dirty = have.get("dirty", 0)
        if rules.clean_fills_dirty:
            dirty += max(0, clean - need.get("clean", 0))
        if dirty < need.get("dirty", 0):
            short["dirty"] = need["dirty"] - dirty
        if have.get("wild", 0) < need.get("wild", 0):
            short["wild"] = need["wild"] - have.get("wild", 0)
        return {kind: n for kind, n in short.items() if n > 0}


def _ratio_ok(rules: Rules, naturals: int, wilds: int) -> bool:
    ratio = rules.wild_ratio
    if ratio == "fewer_than_naturals":
        return wilds < naturals
    if ratio == "at_most_half":
        return 2 * wilds <= naturals
    if ratio == "at_most_naturals":
        return wilds <= naturals
    return True


def slot_name(slot: int) -> str:
    return "wild cards" if slot == WILD_SLOT else KIND_TOKENS[slot] + "s"


@lru_cache(maxsize=64)
def derived_for(rules: Rules) -> Derived:
    """The facts derived from ``rules`` (one object per rules object, kept)."""
    return Derived(rules)

