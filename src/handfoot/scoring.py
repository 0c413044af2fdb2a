"""Round and game scoring: one module for the engine, the scorekeeper and printed sheets.

A round's score is computed from a ``Tally`` (what lies on the table and what is still held,
per team) so a scorekeeper can fill one in from a real table and get exactly the engine's sums.
A finished round is a ``RoundResult``: how it ended and each team's ``TeamScore``, line by line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import BLACK_THREE, NUM_KINDS, NUM_SLOTS, RED_THREE, WILD_SLOT
from .rules import Rules
from .state import RoundEnd

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
    """One line of a team's round score: ``label`` as a score sheet words it."""

    label: str
    points: int
    # The scoring clause of docs/RULES.md ("" when read from a record, so not compared).
    clause: str = field(default="", compare=False)

    def counted(self) -> tuple[str, int]:
        """What the line counts and how many, its points being for all of them together:
        ``("clean canastas", 5)`` for "clean canastas x5"; ``(label, 0)`` for a line with no
        count.  A score table shows them as "5 = 2500", never "5x 2500", which reads as five
        times 2,500."""
        what, _, count = self.label.rpartition(" x")
        return (what, int(count)) if what and count.isdigit() else (self.label, 0)


@dataclass(frozen=True, slots=True)
class TeamScore:
    """One team's round score, line by line, and its total.  ``tally`` is what the lines were
    computed from (engine games only; a score read from a record has none)."""

    total: int
    lines: tuple[Line, ...]
    tally: Tally | None = field(default=None, compare=False)

    def to_mapping(self) -> dict[str, Any]:
        return {"lines": [[line.label, line.points] for line in self.lines],
                "total": self.total}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: how it ended, who went out (-1: nobody), and each team's score."""

    round: int
    ended_by: RoundEnd
    went_out: int
    turns: int
    teams: tuple[TeamScore, ...]

    @property
    def scores(self) -> tuple[int, ...]:
        """Each team's round total."""
        return tuple(team.total for team in self.teams)

    def to_mapping(self) -> dict[str, Any]:
        """The record format's form (docs/RECORD-FORMAT.md)."""
        return {
            "round": self.round,
            "ended_by": str(self.ended_by),
            "went_out": self.went_out,
            "turns": self.turns,
            "teams": [team.to_mapping() for team in self.teams],
        }

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> RoundResult:
        """From a checked record mapping (record.py validates the shape first)."""
        teams = tuple(
            TeamScore(int(team["total"]),
                      tuple(Line(str(label), int(points)) for label, points in team["lines"]))
            for team in data["teams"]
        )
        return cls(int(data["round"]), RoundEnd(data["ended_by"]), int(data["went_out"]),
                   int(data["turns"]), teams)


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
    d = g.derived
    values = d.values
    canastas: dict[str, int] = {}
    melded = 0

    def meld_points(slot: int, n: int, two: int, jok: int) -> int:
        natural = n * values[slot] if slot != WILD_SLOT else 0
        return natural + two * values[11] + jok * values[12]

    for slot, n, two, jok in g.closed[team]:
        kind = d.canasta_kind(slot, two + jok)
        canastas[kind] = canastas.get(kind, 0) + 1
        melded += meld_points(slot, n, two, jok)
    for slot in range(NUM_SLOTS):
        n, two, jok = g.nat[team][slot], g.two[team][slot], g.jok[team][slot]
        melded += meld_points(slot, n, two, jok)
        if n + two + jok >= d.canasta:
            kind = d.canasta_kind(slot, two + jok)
            canastas[kind] = canastas.get(kind, 0) + 1
    left: dict[str, int] = {}
    red_held = black_held = laid = 0
    for seat in rules.seats_of(team):
        laid += g.red3[seat]
        # A knee picked up joins the hand (7.1), so its cards are "left in hand"; the foot is
        # the hand once picked up, but score sheets call what is left in it the foot.
        playing = rules.packet_names[-1] if g.packet_no[seat] == d.last_packet else "hand"
        packets = [(playing, g.hands[seat])]
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


def score_round(g: State) -> RoundResult:
    """The round's result: how it ended and each team's breakdown and total."""
    assert g.ended_by is not None
    teams = []
    for team in range(g.rules.teams):
        tally = tally_team(g, team)
        lines = tuple(score_team(g.rules, tally))
        teams.append(TeamScore(total(list(lines)), lines, tally))
    return RoundResult(g.round_no, g.ended_by, g.went_out, g.turns, tuple(teams))


def winners(totals: list[int]) -> list[int]:
    best = max(totals)
    return [team for team, score in enumerate(totals) if score == best]
