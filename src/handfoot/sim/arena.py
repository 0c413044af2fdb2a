"""Bots against bots on duplicate deals.

Each deal (a game seed, so every round's deal) is played twice: bot A in team 0's seats and bot
B in team 1's, then the other way round, every seat's bot seeded the same way both times.  The
luck of the cards then falls on both bots alike, and the per-deal (paired) difference measures
play, not cards.  Game and bot seeds come from the arena seed and the deal, never from the
worker, so the report is the same on one core or many.

Where more than two sides play (three or five players, each alone), a deal is played once per
side, bot A taking each side's seats in turn and bot B every other side: A wins a game when its
total beats every other side's, so an even bot wins one game in as many as there are sides.
"""

from __future__ import annotations

import math
import textwrap
import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import make_bot
from ..bots.base import play
from ..engine import Game
from ..rules import Rules
from .runner import MAX_GAMES, Progress, SimError, derive_seed, stream
from .stats import Interval, bradley_terry, elo_difference, mean_interval, wilson


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal played once per side: leg k seats bot A as side k, bot B as the others."""

    deal: int
    a_scores: tuple[int, ...]  # bot A's side's total, per leg
    # per leg, the other side's total; with more than two sides, the mean of B's sides' totals
    # (so an even bot's difference is 0) and ``b_best`` the best of them (who finished first)
    b_scores: tuple[float, ...]
    turns: tuple[int, ...]  # turns over all rounds, per leg
    b_best: tuple[int, ...] | None = None

    @property
    def diffs(self) -> tuple[float, ...]:
        """Per leg, A's total less the other sides' (their mean, if more than one)."""
        return tuple(a - b for a, b in zip(self.a_scores, self.b_scores, strict=True))

    @property
    def margins(self) -> tuple[float, ...]:
        """Per leg, A's total less the best other side's: above 0 A won, at 0 it drew."""
        best = self.b_best if self.b_best is not None else self.b_scores
        return tuple(a - b for a, b in zip(self.a_scores, best, strict=True))


# An Elo difference reads a win rate against 50%: none where more than two sides play.
NO_ELO = Interval(math.nan, math.nan, math.nan)


def game_seed(seed: int, deal: int) -> int:
    return derive_seed("arena", seed, "deal", deal)


def bot_seed(seed: int, deal: int, seat: int) -> int:
    return derive_seed("arena", seed, "deal", deal, "seat", seat)


def partners(spec: str) -> list[str]:
    """The bots of one team: ``strong+casual`` seats a strong bot and a casual partner (the
    team's first seat, then the next, in turn); one name seats it in every seat of the team."""
    names = [name.strip() for name in spec.split("+")]
    if not all(names):
        raise SimError(f"{spec!r}: a team is bots joined by '+', e.g. strong+casual")
    return names


def team_bot(spec: str, seat: int, teams: int = 2) -> str:
    """The bot of ``spec`` that sits in ``seat``: teams alternate round the table, so
    seat // teams counts a seat's place within its team."""
    names = partners(spec)
    return names[(seat // teams) % len(names)]


def play_deal(rules: Rules, bot_a: str, bot_b: str, seed: int, deal: int) -> DealResult:
    """Deal ``deal`` played once per side, bot A taking each side in turn (module level: runs
    in workers)."""
    sides = rules.teams
    a_scores: list[int] = []
    b_scores: list[float] = []
    b_best: list[int] = []
    turns: list[int] = []
    for a_side in range(sides):
        bots = [
            make_bot(team_bot(bot_a if seat % sides == a_side else bot_b, seat, sides),
                     bot_seed(seed, deal, seat), analysis=True)
            for seat in range(rules.players)
        ]
        game = play(Game.new(rules, seed=game_seed(seed, deal)), bots)
        others = [t for side, t in enumerate(game.totals) if side != a_side]
        a_scores.append(game.totals[a_side])
        b_scores.append(others[0] if sides == 2 else sum(others) / len(others))
        b_best.append(max(others))
        turns.append(sum(r.turns for r in game.results))
    return DealResult(deal, tuple(a_scores), tuple(b_scores), tuple(turns),
                      None if sides == 2 else tuple(b_best))


class PairTally:
    """One pairing's results folded in deal by deal: counts and one number per game and per
    deal (8 bytes each), so a long run keeps no result objects."""

    def __init__(self, a: str, b: str) -> None:
        self.a, self.b = a, b
        self.sides = 2  # legs a deal: each deal is played once per side
        self.deals = 0
        self.wins = self.draws = self.losses = 0
        self.diffs = array("d")  # per game: bot A's side's total minus bot B's (mean)
        self.paired = array("d")  # per deal: the mean of its games' differences
        self.turns = 0

    def add(self, r: DealResult) -> None:
        self.deals += 1
        self.sides = len(r.a_scores)
        for m in r.margins:
            self.wins += m > 0
            self.draws += m == 0
            self.losses += m < 0
        self.diffs.extend(r.diffs)
        self.paired.append(sum(r.diffs) / len(r.diffs))
        self.turns += sum(r.turns)

    def report(self) -> dict[str, Any]:
        """Everything the arena says about the pairing, JSON-ready."""
        games = self.wins + self.draws + self.losses
        points = self.wins + self.draws / 2
        return {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "games": games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "points": points,
            "win_rate": _interval(wilson(points, games), 4),
            "score_diff": _interval(mean_interval(self.diffs), 1),
            "paired_diff": _interval(mean_interval(self.paired), 1),
            "elo": _interval(elo_difference(points, games) if self.sides == 2 else NO_ELO, 1),
            "mean_turns": round(self.turns / max(1, games), 1),
        }


def pair_report(a: str, b: str, results: Sequence[DealResult]) -> dict[str, Any]:
    """Everything the arena says about one pairing, JSON-ready."""
    tally = PairTally(a, b)
    for r in results:
        tally.add(r)
    return tally.report()


Bound = float | str | None


def _interval(iv: Interval, digits: int) -> dict[str, Bound]:
    # JSON has no infinity: an unbounded Elo (a bot that won every game) is "+inf" or "-inf".
    def clean(x: float) -> Bound:
        if math.isnan(x):
            return None
        if math.isinf(x):
            return "+inf" if x > 0 else "-inf"
        return round(x, digits)

    return {"value": clean(iv.value), "low": clean(iv.low), "high": clean(iv.high)}


def run_arena(rules: Rules, bots: Sequence[str], deals: int, seed: int = 0, jobs: int = 1,
              progress: bool = False) -> dict[str, Any]:
    """Every pair of ``bots`` on ``deals`` duplicate deals; the report as a mapping.

    The report's ``timing`` entry is the only part that differs between runs."""
    if len(bots) < 2:
        raise SimError("the arena needs at least two bots")
    if len(set(bots)) != len(bots):
        raise SimError("each bot may be named only once")
    if deals < 1:
        raise SimError("--deals must be at least 1")
    if deals > MAX_GAMES:
        raise SimError(f"--deals {deals:,} is more than one run plays (at most {MAX_GAMES:,}, "
                       "already hours of play); run several with different --seed")
    for spec in bots:
        # A bad name or option fails here, before any worker starts.
        for name in partners(spec):
            make_bot(name, 0, analysis=True)
    pairs = [(a, b) for i, a in enumerate(bots) for b in bots[i + 1:]]
    items = ((rules, a, b, seed, d) for a, b in pairs for d in range(deals))
    count = len(pairs) * deals
    tallies = [PairTally(a, b) for a, b in pairs]
    start = time.perf_counter()
    with Progress("arena deals", count, enabled=progress) as bar:
        # Deals come back in order, pairing after pairing: each is folded in and let go.
        for k, result in enumerate(stream(play_deal, items, count, jobs, bar)):
            tallies[k // deals].add(result)
    seconds = time.perf_counter() - start
    reports = [t.report() for t in tallies]
    report: dict[str, Any] = {
        "rules": rules.name,
        "players": rules.players,
        "rounds": rules.rounds,
        "sides": rules.teams,
        "deals": deals,
        "seed": seed,
        "bots": list(bots),
        "pairs": reports,
    }
    if len(bots) > 2 and rules.teams == 2:
        # Bradley-Terry, like Elo, reads a win rate as two sides' strength; not beyond two.
        report["ratings"] = ratings(bots, reports)
    games = rules.teams * count
    report["timing"] = {
        "seconds": round(seconds, 2),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "jobs": jobs,
    }
    return report


def ratings(bots: Sequence[str], reports: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """A Bradley-Terry fit of the round robin, on the Elo scale, best first."""
    results = {(r["a"], r["b"]): (float(r["points"]), int(r["games"])) for r in reports}
    elo = bradley_terry(bots, results)
    points = dict.fromkeys(bots, 0.0)
    games = dict.fromkeys(bots, 0)
    for r in reports:
        points[r["a"]] += r["points"]
        points[r["b"]] += r["games"] - r["points"]
        games[r["a"]] += r["games"]
        games[r["b"]] += r["games"]
    table = [
        {"bot": bot, "elo": round(elo[bot], 1), "games": games[bot],
         "score": round(points[bot] / games[bot], 4) if games[bot] else None}
        for bot in bots
    ]
    return sorted(table, key=lambda row: (-row["elo"], row["bot"]))


# ====================================================================== output
def _pct(x: Bound) -> str:
    return x if isinstance(x, str) else "-" if x is None else f"{100 * x:.1f}%"


def _num(x: Bound) -> str:
    return x if isinstance(x, str) else "-" if x is None else f"{x:+.1f}"


def _elo(x: Bound) -> str:
    return x if isinstance(x, str) else "-" if x is None else f"{x:+.0f}"


def _ci(iv: dict[str, Bound], fmt: Any) -> str:
    return f"{fmt(iv['value'])} [{fmt(iv['low'])}, {fmt(iv['high'])}]"


HEADERS = ["A", "B", "games", "A won", "drawn", "A lost", "A win rate [95%]",
           "score diff/game [95%]", "paired diff/deal [95%]", "Elo diff [95%]"]


def _rows(report: dict[str, Any]) -> list[list[str]]:
    return [
        [p["a"], p["b"], str(p["games"]), str(p["wins"]), str(p["draws"]), str(p["losses"]),
         _ci(p["win_rate"], _pct), _ci(p["score_diff"], _num), _ci(p["paired_diff"], _num),
         _ci(p["elo"], _elo)]
        for p in report["pairs"]
    ]


def describe(report: dict[str, Any]) -> str:
    rounds = report["rounds"]
    length = "single rounds" if rounds == 1 else f"whole games of {rounds} rounds"
    sides = report.get("sides", 2)
    played = "twice with the teams swapped" if sides == 2 else (
        f"{sides} times, A in each side's seat in turn and B in the others (A wins by beating "
        f"every other side, so an even bot wins 1 game in {sides}; score differences are "
        "against the mean of the other sides)")
    return (f"{report['rules']}, {report['players']} players, {length}, {report['deals']} "
            f"deals each played {played}, seed {report['seed']}")


# The text report fits a terminal of this width.  The Markdown tables carry every column of a
# pair in one row with the score differences to a tenth; the text puts them in two tables and
# rounds the score differences to whole points (thousands apart, a tenth tells nothing).
TEXT_WIDTH = 80
TEXT_HEADS = (["A", "B", "A W-D-L", "A win rate [95%]", "Elo diff [95%]"],
              ["A", "B", "score diff/game [95%]", "paired diff/deal [95%]"])


def _whole(x: Bound) -> str:
    return x if isinstance(x, str) else "-" if x is None else f"{x:+.0f}"


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in rows]


def _labels(report: dict[str, Any], width: int) -> dict[str, str]:
    """Each bot's name in the tables: its spec, or ``#1``, ``#2``... (with a key) when specs
    such as ``policy:path=/a/long/path.zip`` would push the tables past ``width``."""
    bots = list(report.get("bots") or dict.fromkeys(
        name for p in report["pairs"] for name in (p["a"], p["b"])))
    names = {bot: bot for bot in bots}
    for rows in _text_rows(report, names):
        if any(len(line) > width for line in _table(rows)):
            return {bot: f"#{i}" for i, bot in enumerate(bots, 1)}
    return names


def _middle(text: str, width: int) -> str:
    """``text`` cut in the middle to ``width``: a model's path keeps its start and file name."""
    if len(text) <= width:
        return text
    keep = width - 3
    return text[:keep - keep // 2] + "..." + text[len(text) - keep // 2:]


def _text_rows(report: dict[str, Any], names: dict[str, str]) -> list[list[list[str]]]:
    pairs = report["pairs"]
    return [
        [TEXT_HEADS[0], *[[names[p["a"]], names[p["b"]],
                           f"{p['wins']}-{p['draws']}-{p['losses']}",
                           _ci(p["win_rate"], _pct), _ci(p["elo"], _elo)] for p in pairs]],
        [TEXT_HEADS[1], *[[names[p["a"]], names[p["b"]], _ci(p["score_diff"], _whole),
                           _ci(p["paired_diff"], _whole)] for p in pairs]],
    ]


def format_text(report: dict[str, Any], timing: bool = True, width: int = TEXT_WIDTH) -> str:
    lines = textwrap.wrap(f"arena: {describe(report)}", width)
    names = _labels(report, width)
    if any(label != bot for bot, label in names.items()):
        lines += [""] + [_middle(f"{label} = {bot}", width) for bot, label in names.items()]
    first, second = _text_rows(report, names)
    lines += ["", *_table(first), "", *_table(second)]
    if "ratings" in report:
        lines += ["", "ratings (Bradley-Terry, Elo scale, mean 0):"]
        shown = max(len(names[r["bot"]]) for r in report["ratings"])
        for row in report["ratings"]:
            lines.append(f"  {names[row['bot']]:<{shown}}  {row['elo']:+7.0f}  score "
                         f"{_pct(row['score'])} of {row['games']}")
    if timing:
        lines += ["", _timing_line(report)]
    return "\n".join(lines) + "\n"


def format_markdown(report: dict[str, Any], timing: bool = True) -> str:
    lines = [f"Arena: {describe(report)}.", ""]
    lines.append("| " + " | ".join(HEADERS) + " |")
    lines.append("|" + "|".join("---" if i < 2 else "---:" for i in range(len(HEADERS))) + "|")
    for row in _rows(report):
        lines.append("| " + " | ".join(row) + " |")
    if "ratings" in report:
        lines += ["", "| bot | Elo | score | games |", "|---|---:|---:|---:|"]
        for row in report["ratings"]:
            lines.append(f"| {row['bot']} | {row['elo']:+.0f} | {_pct(row['score'])} | "
                         f"{row['games']} |")
    if timing:
        lines += ["", _timing_line(report)]
    return "\n".join(lines) + "\n"


def _timing_line(report: dict[str, Any]) -> str:
    t = report["timing"]
    return (f"time: {t['seconds']} s, {t['games_per_second']} games/s on {t['jobs']} "
            f"process{'es' if t['jobs'] != 1 else ''}")
