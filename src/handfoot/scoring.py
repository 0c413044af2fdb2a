"""Round and game scoring: one module for the engine, the scorekeeper and printed sheets.

A round's score is computed from a ``Tally`` (what lies on the table and what is still held,
per team) so a scorekeeper can fill one in from a real table and get exactly the engine's sums.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import BLACK_THREE, NUM_KINDS, NUM_SLOTS, RED_THREE, WILD_SLOT
from .rules import Rules

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True, slots=True)
class Tally:
    """One team's end of round, in the terms a score sheet uses."""

    canastas: dict[str, int] = field(default_factory=dict)  # kind -> how many
    melded_points: int = 0  # card values of every card in the team's melds
    red_threes_laid: int = 0
    red_threes_held: int = 0
    black_threes_held: int = 0
    left_points: dict[str, int] = field(default_factory=dict)  # packet name -> card values
    went_out: bool = False
    penalties: int = 0  # table penalties, as a positive number
    exact_cuts: int = 0


@dataclass(frozen=True, slots=True)
class Line:
    label: str
    points: int
    clause: str  # the scoring clause of docs/RULES.md


def score_team(rules: Rules, tally: Tally) -> list[Line]:
    """The breakdown of one team's round score, line by line (rules 10.1 to 10.7)."""
    lines = [Line("melded cards", tally.melded_points, "10.1")]
    bonus = dict(rules.canasta_bonus)
    for kind, count in sorted(tally.canastas.items(), key=lambda kv: -bonus.get(kv[0], 0)):
        if count:
            lines.append(Line(f"{kind} canastas x{count}", count * bonus.get(kind, 0), "10.2"))
    has_canasta = sum(tally.canastas.values()) > 0
    if tally.red_threes_laid and (has_canasta or not rules.red_three_bonus_needs_canasta):
        lines.append(Line(f"red threes laid x{tally.red_threes_laid}",
                          tally.red_threes_laid * rules.red_three_bonus, "10.3"))
        if rules.red_three_set_size and tally.red_threes_laid >= rules.red_three_set_size:
            lines.append(Line(f"{rules.red_three_set_size} or more red threes",
                              rules.red_three_set_bonus, "10.3"))
    if tally.went_out:
        lines.append(Line("going out", rules.going_out_bonus, "10.6"))
    for packet, points in tally.left_points.items():
        if points:
            lines.append(Line(f"cards left in {packet}", -points, "10.4"))
    if tally.red_threes_held:
        lines.append(Line(f"red threes held x{tally.red_threes_held}",
                          -tally.red_threes_held * rules.red_three_penalty, "10.5"))
    if tally.black_threes_held:
        lines.append(Line(f"black threes held x{tally.black_threes_held}",
                          -tally.black_threes_held * rules.black_three_penalty, "10.5"))
    if tally.penalties:
        lines.append(Line("penalties", -tally.penalties, "10.7"))
    if tally.exact_cuts:
        lines.append(Line(f"exact cuts x{tally.exact_cuts}",
                          tally.exact_cuts * rules.exact_cut_bonus, "10.7"))
    return lines


def total(lines: list[Line]) -> int:
    return sum(line.points for line in lines)


def tally_team(g: State, team: int) -> Tally:
    """Read a team's tally off the table at the end of a round."""
    rules = g.rules
    t = g.t
    values = t.values
    canastas: dict[str, int] = {}
    melded = 0

    def meld_points(slot: int, n: int, two: int, jok: int) -> int:
        natural = n * values[slot] if slot != WILD_SLOT else 0
        return natural + two * values[11] + jok * values[12]

    for slot, n, two, jok in g.closed[team]:
        kind = t.canasta_kind(slot, two + jok)
        canastas[kind] = canastas.get(kind, 0) + 1
        melded += meld_points(slot, n, two, jok)
    for slot in range(NUM_SLOTS):
        n, two, jok = g.nat[team][slot], g.two[team][slot], g.jok[team][slot]
        melded += meld_points(slot, n, two, jok)
        if n + two + jok >= t.canasta:
            kind = t.canasta_kind(slot, two + jok)
            canastas[kind] = canastas.get(kind, 0) + 1
    left: dict[str, int] = {}
    red_held = black_held = laid = 0
    for seat in rules.seats_of(team):
        laid += g.red3[seat]
        packets = [(rules.packet_names[g.packet_no[seat]], g.hands[seat])]
        first_unopened = g.packet_no[seat] + 1
        packets += [(rules.packet_names[first_unopened + i], p)
                    for i, p in enumerate(g.packets[seat])]
        for name, counts in packets:
            points = sum(counts[k] * values[k] for k in range(NUM_KINDS))
            left[name] = left.get(name, 0) + points
            red_held += counts[RED_THREE]
            black_held += counts[BLACK_THREE]
    return Tally(
        canastas=canastas,
        melded_points=melded,
        red_threes_laid=laid,
        red_threes_held=red_held,
        black_threes_held=black_held,
        left_points=left,
        went_out=g.went_out >= 0 and g.went_out % rules.teams == team,
    )


def score_round(g: State) -> dict[str, Any]:
    """The round's result: how it ended and each team's breakdown and total."""
    teams = []
    for team in range(g.rules.teams):
        lines = score_team(g.rules, tally_team(g, team))
        teams.append({
            "lines": [[line.label, line.points] for line in lines],
            "total": total(lines),
        })
    return {
        "round": g.round_no,
        "ended_by": g.ended_by,
        "went_out": g.went_out,
        "turns": g.turns,
        "teams": teams,
    }


def winners(totals: list[int]) -> list[int]:
    best = max(totals)
    return [team for team, score in enumerate(totals) if score == best]
