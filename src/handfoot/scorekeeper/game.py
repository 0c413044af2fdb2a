"""A kept game: its rules, teams and entered rounds, and the score sheet they add up to."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from handfoot.rules import Rules
from handfoot.scoring import Line, score_team, total, winners

from . import ScoreError
from .entry import Seating, penalty_points, tally
from .names import check_text


@dataclass
class KeptGame:
    id: int
    name: str
    created: str
    rules: Rules
    base: str | None  # the preset the rules were built on, for marking house rules
    seating: Seating
    rounds: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def next_round(self) -> int:
        return max(self.rounds, default=0) + 1

    @property
    def over(self) -> bool:
        return len(self.rounds) >= self.rules.rounds

    def lines(self, round_no: int, team: int) -> list[Line]:
        return score_team(self.rules, tally(self.rules, self.rounds[round_no][team]))

    def totals_before(self, round_no: int) -> list[int]:
        sums = [0] * len(self.seating.teams)
        for r in sorted(self.rounds):
            if r >= round_no:
                break
            for team in range(len(sums)):
                sums[team] += total(self.lines(r, team))
        return sums

    def minimums(self, round_no: int) -> list[int]:
        """Each team's opening minimum at the start of a round."""
        return [self.rules.opening_minimum(round_no, score)
                for score in self.totals_before(round_no)]


def player_names(team: str, size: int) -> tuple[str, ...]:
    """Players' names read from a team's name ("Ann & Bob", "Ann and Bob", "Ann, Bob"),
    or numbered after the team when the name does not split into the right count."""
    if size == 1:
        return (team,)
    parts = [p.strip() for p in re.split(r"\s*(?:&|,|\+|/|\band\b)\s*", team) if p.strip()]
    if len(parts) == size and len(set(parts)) == size:
        return tuple(parts)
    return tuple(f"{team} {i}" for i in range(1, size + 1))


def make_seating(rules: Rules, teams: list[str]) -> Seating:
    if not teams:
        teams = [f"Team {i}" for i in range(1, rules.teams + 1)]
    if len(teams) != rules.teams:
        raise ScoreError(f"--team: these rules seat {rules.players} players in {rules.teams} "
                         f"teams of {rules.team_size}, but {len(teams)} "
                         f"team{'s were' if len(teams) != 1 else ' was'} named")
    clean = [check_text("--team", t) for t in teams]
    if any(not t for t in clean):
        raise ScoreError("--team: a team needs a name")
    if len({t.lower() for t in clean}) != len(clean):
        raise ScoreError("--team: two teams have the same name")
    return Seating(tuple(clean), tuple(player_names(t, rules.team_size) for t in clean))


def summary(game: KeptGame) -> dict[str, Any]:
    """The whole sheet as plain data: each round's lines per team, running totals, the next
    round's minimums, and the winners once the game is over."""
    rules = game.rules
    teams = game.seating.teams
    running = [0] * len(teams)
    rounds = []
    for r in sorted(game.rounds):
        minimums = game.minimums(r)
        row = []
        for team, entry in enumerate(game.rounds[r]):
            lines = game.lines(r, team)
            running[team] += total(lines)
            went = entry["went_out"]
            notes = [f"over-melded wild card x{entry['over_meld']}: "
                     f"{entry['over_meld'] * rules.over_meld_penalty}"] if entry["over_meld"] \
                else []
            if entry["knee_reminders"]:
                notes.append(f"knee reminder x{entry['knee_reminders']}: "
                             f"{entry['knee_reminders'] * rules.knee_reminder_penalty}")
            notes += [f"{p['reason']}: {p['points']}" for p in entry["other_penalties"]]
            row.append({
                "team": teams[team],
                "opening_minimum": minimums[team],
                "went_out": game.seating.players[team][went - 1] if went else None,
                "lines": [{"label": ln.label, "points": ln.points, "clause": ln.clause}
                          for ln in lines],
                "penalty_notes": notes if penalty_points(rules, entry) else [],
                "total": total(lines),
                "running_total": running[team],
                "entry": entry,
            })
        rounds.append({"round": r, "teams": row})
    out: dict[str, Any] = {
        "game": game.id,
        "name": game.name,
        "created": game.created,
        "rules": rules.name,
        "source": rules.source,
        "base": game.base,
        "teams": [{"name": t, "players": list(p)}
                  for t, p in zip(teams, game.seating.players, strict=True)],
        "rounds_in_game": rules.rounds,
        "rounds": rounds,
        "totals": running,
        "over": game.over,
    }
    if game.over:
        out["winners"] = [teams[i] for i in winners(running)] if game.rounds else []
    else:
        nxt = game.next_round
        out["next_round"] = nxt
        out["next_minimums"] = [rules.opening_minimum(nxt, score) for score in running]
    return out
