"""Read-only facts about a position that both the checks and the transitions need.

Which canastas a team has, what its going-out quota still lacks, whether a finished canasta is
spare, whether a discard is owed, why a seat may not go out or empty a packet yet, and the
atomic steps of a compound lay-down.  Nothing here changes the state, so legality.py and
transitions.py both build on this module and neither needs the other's internals.
"""

from __future__ import annotations

from collections.abc import Iterator

from .actions import ADDS, STARTS, Add, BlackThreeBook, LayDown, Start
from .cards import BLACK_THREE, JOKER, NUM_SLOTS, TWO, WILD_SLOT
from .derived import slot_name
from .events import Refusal
from .rules import Rules
from .state import AskState, State

_YES, _NO = AskState.YES, AskState.NO  # module constants: enum look-ups are slow
_NUMBER_WORDS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def team_words(rules: Rules) -> tuple[str, str]:
    """How refusals name the player's side: ("your team", "needs") in partnerships, ("you",
    "need") when everyone plays alone."""
    return ("your team", "needs") if rules.team_size > 1 else ("you", "need")


def team_has(rules: Rules) -> str:
    return "your team has" if rules.team_size > 1 else "you have"


def teams(rules: Rules) -> str:
    """The possessive: "your team's" in partnerships, "your" alone."""
    return "your team's" if rules.team_size > 1 else "your"


# ====================================================================== canastas
def canasta_kinds(g: State, team: int) -> list[str]:
    """The kinds of every canasta the team has finished: closed ones and open ones that have
    reached the canasta size and keep growing."""
    d = g.derived
    kinds = [d.canasta_kind(s, tw + j) for s, _n, tw, j in g.closed[team]]
    size = d.canasta
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    for s in range(NUM_SLOTS):
        if nat[s] + two[s] + jok[s] >= size:
            kinds.append(d.canasta_kind(s, two[s] + jok[s]))
    return kinds


def has_canasta(g: State, team: int) -> bool:
    if g.closed[team]:
        return True
    size = g.derived.canasta
    nat, two, jok = g.nat[team], g.two[team], g.jok[team]
    return any(nat[s] + two[s] + jok[s] >= size for s in range(NUM_SLOTS))


def quota_missing(g: State, team: int) -> dict[str, int]:
    """The canastas of each kind the team still lacks to go out (8.1, 8.2)."""
    return g.derived.quota_missing(canasta_kinds(g, team))


def missing_text(missing: dict[str, int]) -> str:
    """``{"clean": 2, "wild": 1}`` in words: "two clean canastas and a wild canasta"."""
    parts = []
    for kind, n in missing.items():
        count = _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)
        noun = "canasta" if n == 1 else "canastas"
        rank_kind = kind not in ("clean", "dirty", "wild")
        parts.append(f"{count} {noun} of {kind}" if rank_kind else f"{count} {kind} {noun}")
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def spare_if_finished(g: State, team: int, slot: int) -> bool:
    """Whether the team's finished canasta in ``slot`` is spare: the team's closed canastas
    fill every requirement of the quota that they fill with it (decision D18).

    Only the closed canastas are compared because every canasta left open to grow is spare
    (one closes as soon as it is needed), so the closed ones always fill all that every
    canasta of the team fills."""
    d = g.derived
    closed = [d.canasta_kind(s, tw + j) for s, _n, tw, j in g.closed[team]]
    kind = d.canasta_kind(slot, g.two[team][slot] + g.jok[team][slot])
    without = sum(d.quota_missing(closed).values())
    return sum(d.quota_missing([*closed, kind]).values()) == without


# ====================================================================== the turn
def discard_owed(g: State) -> bool:
    """Whether this turn ends with a discard (it does unless the pile was taken where a knock
    ends such a turn, 3.6)."""
    return not (g.took_pile and not g.rules.discard_after_pile)


def go_out_refusal(g: State, seat: int) -> Refusal | None:
    """Why the seat may not go out now, if it emptied its last card (8.1-8.5)."""
    rules = g.rules
    if g.packet_no[seat] != g.derived.last_packet:
        return Refusal("8.3", f"you can go out only from your {rules.packet_names[-1]}")
    if g.went_out >= 0 and g.went_out != seat:
        return Refusal("8.7", f"seat {g.went_out} has gone out: in the final lap you may meld but "
                       "not go out")
    team = seat % g.derived.teams
    missing = quota_missing(g, team)
    if missing:
        side, needs = team_words(rules)
        return Refusal("8.1", f"{side} still {needs} {missing_text(missing)}")
    if rules.partner_in_foot != "no":
        for mate in rules.seats_of(team):
            if mate == seat:
                continue
            if g.packet_no[mate] != g.derived.last_packet:
                return Refusal("8.4", f"every partner must be in their {rules.packet_names[-1]} "
                               "before you go out")
            if rules.partner_in_foot == "played_from_foot" and not g.foot_played[mate]:
                return Refusal("8.4", f"every partner must have played from their "
                               f"{rules.packet_names[-1]} first")
    if rules.permission and rules.team_size > 1 and g.asked is not _YES:
        if g.asked is _NO:
            return Refusal("8.5.2", "your partner said no: you may not go out this turn")
        return Refusal("8.5.1", "ask your partner \"may I go out?\" first")
    return None


def stripping_refusal(g: State, seat: int, why: Refusal | None) -> Refusal:
    """The refusal of a step that would leave the seat unable to end its turn in the foot
    (7.5), with the going-out condition that is missing as its sub-clause."""
    if why is None or why.clause == "8.3":
        return Refusal("7.5", "keep two cards back: one to discard and one to carry on with")
    sub = {"8.1": "7.5.1", "8.4": "7.5.2", "8.5.1": "7.5.3", "8.5.2": "7.5.4",
           "8.7": "7.5"}[why.clause]
    if g.rules.strip_bare:  # only a meld is refused here: a discard may strip bare (D34)
        return Refusal(sub, f"you may not go out yet ({why.reason}), and a meld empties your "
                       f"{g.rules.packet_names[-1]} only to go out: keep a card to discard")
    return Refusal(sub, f"you may not go out yet ({why.reason}), so keep two cards back: one to "
                   "discard and one to carry on with")


def next_packet_refusal(g: State, seat: int, team_has_canasta: bool) -> Refusal | None:
    """Why the seat may not empty its current (not last) packet now (7.2)."""
    if (g.packet_no[seat] == 0 and g.derived.knee_rule and not team_has_canasta
            and g.rules.empty_before_knee == "forbidden"):
        return Refusal("7.2", f"you may not empty your hand before {teams(g.rules)} first canasta "
                       "brings your knee")
    return None


# ====================================================================== the picked-up pile
def uses_picked(g: State, slot: int, naturals: int, twos: int, jokers: int) -> bool:
    """Whether cards melded in ``slot`` include a kind picked up from the pile this turn
    (4.8): cards of a kind are alike, so melding one is melding the picked-up one."""
    picked = g.picked
    return ((naturals > 0 and slot in picked) or (twos > 0 and TWO in picked)
            or (jokers > 0 and JOKER in picked))


def step_uses_picked(g: State, action: object) -> bool:
    """Whether a meld step (or a book of black threes) uses a card picked up from the pile."""
    if isinstance(action, Start):
        return uses_picked(g, action.slot, action.naturals, action.twos, action.jokers)
    if isinstance(action, Add):
        k = action.kind
        return uses_picked(g, action.slot, int(k < TWO), int(k == TWO), int(k == JOKER))
    if isinstance(action, BlackThreeBook):
        return BLACK_THREE in g.picked
    if isinstance(action, LayDown):
        return any(uses_picked(g, p.slot, p.naturals, p.twos, p.jokers) for p in action.parts)
    return False


PILE_OWED = Refusal("4.8", "meld a card you picked up from the pile first")


# ====================================================================== lay-downs
def laydown_steps(g: State, action: LayDown) -> Iterator[Start | Add | Refusal]:
    """The atomic steps of a lay-down: naturals first, so wild limits are met on the way.
    A part that cannot be split into steps ends them with its refusal.

    The caller applies each step before taking the next: whether a part starts a meld or adds
    to one is decided when its turn comes, so a part after one that closed a canasta of its
    rank starts a new meld of that rank (5.6), and a part after one that started a meld adds
    to it."""
    team = g.seat % g.derived.teams
    for part in action.parts:
        slot = part.slot
        n, w2, wj = part.naturals, part.twos, part.jokers
        if not g.nat[team][slot] + g.two[team][slot] + g.jok[team][slot]:
            if part.size < 3:
                yield Refusal("5.1", f"a new {slot_name(slot)} meld needs at least three cards")
                return
            first_n = min(n, 3)
            rest = 3 - first_n
            take2 = min(w2, rest)
            first = (first_n, take2, rest - take2)
            if first[2] > wj:
                yield Refusal("5.3", "not enough cards for that meld")
                return
            start = STARTS.get((slot, first))
            if start is None:
                yield Refusal("5.3", "that meld cannot start so")
                return
            yield start
            n, w2, wj = n - first[0], w2 - first[1], wj - first[2]
        if slot != WILD_SLOT:
            for _ in range(n):
                yield ADDS[(slot, slot)]
        for _ in range(w2):
            yield ADDS[(slot, TWO)]
        for _ in range(wj):
            yield ADDS[(slot, JOKER)]
