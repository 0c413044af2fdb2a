"""The arena: its statistics against hand-computed values, duplicate deals, determinism."""

from __future__ import annotations

import json
import math

import pytest

from handfoot.cli.main import main
from handfoot.presets import preset
from handfoot.sim.arena import DealResult, pair_report, play_deal, team_bot
from handfoot.sim.stats import bradley_terry, elo_difference, elo_of, mean_interval, wilson


# ---------------------------------------------------------------- statistics
def test_wilson_interval_of_seven_wins_in_ten() -> None:
    # p = 0.7, z = 1.96: centre (0.7 + z²/20) / (1 + z²/10) = 0.6445,
    # half-width z / (1 + z²/10) * sqrt(0.021 + z²/400) = 0.2477.
    iv = wilson(7, 10)
    assert iv.value == 0.7
    assert iv.low == pytest.approx(0.3968, abs=1e-4)
    assert iv.high == pytest.approx(0.8922, abs=1e-4)


def test_wilson_counts_draws_as_half_and_stays_inside_zero_one() -> None:
    assert wilson(5.5, 10).value == pytest.approx(0.55)
    all_won = wilson(10, 10)
    assert all_won.high == 1.0
    # 1 - z²/(n + z²) at p = 1: 10 / 13.8415 = 0.7225
    assert all_won.low == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 10).low == 0.0


def test_mean_interval_uses_the_sample_deviation() -> None:
    # mean 2.5, s = sqrt(5/3) = 1.2910, se = 0.6455, half-width 1.96 * 0.6455 = 1.2652
    iv = mean_interval([1, 2, 3, 4])
    assert iv.value == 2.5
    assert iv.low == pytest.approx(1.2348, abs=1e-4)
    assert iv.high == pytest.approx(3.7652, abs=1e-4)


def test_elo_from_win_rate() -> None:
    assert elo_of(0.5) == 0
    assert elo_of(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_of(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_of(1.0) == math.inf
    iv = elo_difference(7.5, 10)
    assert iv.value == pytest.approx(190.85, abs=0.01)
    w = wilson(7.5, 10)
    assert iv.low == pytest.approx(elo_of(w.low))
    assert iv.high == pytest.approx(elo_of(w.high))


def test_bradley_terry_recovers_consistent_ratings() -> None:
    # A beats B 3:1 and B beats C 3:1, so A beats C 9:1: ratings 190.85 apart, mean 0.
    results = {("A", "B"): (75.0, 100), ("B", "C"): (75.0, 100), ("A", "C"): (90.0, 100)}
    elo = bradley_terry(["A", "B", "C"], results, prior=0)
    assert elo["A"] == pytest.approx(190.85, abs=0.05)
    assert elo["B"] == pytest.approx(0, abs=0.05)
    assert elo["C"] == pytest.approx(-190.85, abs=0.05)


def test_bradley_terry_prior_keeps_a_clean_sweep_finite() -> None:
    elo = bradley_terry(["A", "B"], {("A", "B"): (10.0, 10)})
    # one virtual draw: 10.5 : 0.5, i.e. 400 log10(21) apart
    assert elo["A"] - elo["B"] == pytest.approx(400 * math.log10(21), abs=0.05)


def test_pair_report_pairs_the_two_seatings_of_a_deal() -> None:
    results = [DealResult(0, (500, 100), (400, 150), (10, 12)),   # diffs +100, -50
               DealResult(1, (300, 60), (270, 50), (8, 9))]        # diffs +30, +10
    r = pair_report("x", "y", results)
    assert (r["games"], r["wins"], r["draws"], r["losses"]) == (4, 3, 0, 1)
    assert r["score_diff"]["value"] == 22.5
    assert r["paired_diff"]["value"] == 22.5  # per deal: 25 and 20
    # paired: s = sqrt(12.5), half-width 1.96 * 2.5 = 4.9
    assert r["paired_diff"]["low"] == pytest.approx(17.6, abs=0.05)
    assert r["mean_turns"] == pytest.approx(39 / 4, abs=0.06)  # 9.75, kept to one decimal


# ---------------------------------------------------------------- duplicate deals
def test_a_deal_is_played_twice_with_the_teams_swapped() -> None:
    rules = preset("hand-and-foot").replace(rounds=1)
    same = play_deal(rules, "random", "random", 5, 0)
    # The same bot on both sides, seeded by seat: both seatings are the same game.
    assert same.a_scores == (same.b_scores[1], same.b_scores[0])
    again = play_deal(rules, "random", "basic", 5, 0)
    assert again == play_deal(rules, "random", "basic", 5, 0)


def test_three_sides_play_a_deal_once_per_side_with_a_in_each_seat() -> None:
    rules = preset("hand-and-foot", players=3).replace(rounds=1)
    same = play_deal(rules, "random", "random", 5, 0)
    # The same bot everywhere, seeded by seat: the three legs are one game, seen from each
    # side in turn; B's score is the mean of the other two sides', its best who won.
    assert len(same.a_scores) == len(same.b_scores) == len(same.turns) == 3
    totals = same.a_scores
    assert same.b_best == tuple(max(t for j, t in enumerate(totals) if j != k)
                                for k in range(3))
    assert same.b_scores == tuple((sum(totals) - totals[k]) / 2 for k in range(3))
    assert sum(same.diffs) == pytest.approx(0)  # one game: A's edge over the field sums to 0
    assert len(set(same.turns)) == 1
    mixed = play_deal(rules, "basic", "random", 5, 0)
    assert mixed == play_deal(rules, "basic", "random", 5, 0)
    assert mixed != same


def test_with_more_than_two_sides_a_win_is_finishing_first_and_there_is_no_elo() -> None:
    # Per leg: A 500 against the best other 400 (won), 100 against 150 (lost), 80 against 80
    # (drawn, tied first); the others' means are 300, 100 and 50.
    r = pair_report("x", "y", [DealResult(0, (500, 100, 80), (300.0, 100.0, 50.0), (9, 9, 9),
                                          b_best=(400, 150, 80))])
    assert (r["games"], r["wins"], r["draws"], r["losses"]) == (3, 1, 1, 1)
    assert r["paired_diff"]["value"] == pytest.approx(230 / 3, abs=0.05)
    assert r["elo"] == {"value": None, "low": None, "high": None}
    assert r["win_rate"]["value"] == 0.5


def test_partners_sit_in_turn_around_their_team() -> None:
    # Four players: team 0 holds seats 0 and 2, team 1 seats 1 and 3; six: 0, 2, 4 and 1, 3, 5.
    assert [team_bot("strong+casual", seat) for seat in range(4)] == [
        "strong", "strong", "casual", "casual"]
    assert [team_bot("strong+casual", seat) for seat in range(6)] == [
        "strong", "strong", "casual", "casual", "strong", "strong"]
    assert team_bot("casual", 3) == "casual"


def test_a_team_of_partners_plays_its_bots_in_their_seats() -> None:
    rules = preset("hand-and-foot").replace(rounds=1)
    # A team of two random bots is the random bot: the same deal, the same scores.
    assert play_deal(rules, "random+random", "basic", 5, 0) == play_deal(
        rules, "random", "basic", 5, 0)
    mixed = play_deal(rules, "basic+random", "basic", 5, 0)
    assert mixed != play_deal(rules, "basic", "basic", 5, 0)


def _arena(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["arena", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_tiny_arena_is_the_same_on_one_or_two_processes(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--bots", "random", "basic", "--deals", "3", "--rounds", "1", "--json",
            "--no-timing"]
    code1, out1, _ = _arena(capsys, *args, "--jobs", "1")
    code2, out2, _ = _arena(capsys, *args, "--jobs", "2")
    assert code1 == code2 == 0
    assert out1 == out2
    report = json.loads(out1)
    assert "timing" not in report
    (pair,) = report["pairs"]
    assert (pair["a"], pair["b"], pair["deals"], pair["games"]) == ("random", "basic", 3, 6)
    assert pair["wins"] + pair["draws"] + pair["losses"] == 6
    assert 0 <= pair["win_rate"]["low"] <= pair["win_rate"]["value"] <= pair["win_rate"]["high"]
    assert report["rounds"] == 1


def test_three_players_measure_a_bot_against_the_field(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _arena(capsys, "--players", "3", "--bots", "random", "basic", "heuristic",
                          "--deals", "2", "--rounds", "1", "--jobs", "1", "--json",
                          "--no-timing")
    assert code == 0
    report = json.loads(out)
    assert report["sides"] == 3
    assert "ratings" not in report  # Bradley-Terry reads two sides' win rates only
    for pair in report["pairs"]:
        assert pair["games"] == 6
        assert pair["wins"] + pair["draws"] + pair["losses"] == 6
        assert pair["elo"]["value"] is None
    code, out, _ = _arena(capsys, "--players", "3", "--bots", "random", "basic", "--deals",
                          "1", "--rounds", "1", "--jobs", "1", "--no-timing")
    assert code == 0
    assert "an even bot wins 1 game in 3" in " ".join(out.split())


def test_round_robin_of_three_bots_has_a_rating_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _arena(capsys, "--bots", "random", "basic", "heuristic", "--deals", "2",
                          "--rounds", "1", "--jobs", "2", "--json")
    assert code == 0
    report = json.loads(out)
    assert [(p["a"], p["b"]) for p in report["pairs"]] == [
        ("random", "basic"), ("random", "heuristic"), ("basic", "heuristic")]
    ratings = report["ratings"]
    assert sorted(r["bot"] for r in ratings) == ["basic", "heuristic", "random"]
    assert sum(r["elo"] for r in ratings) == pytest.approx(0, abs=0.5)
    assert [r["elo"] for r in ratings] == sorted((r["elo"] for r in ratings), reverse=True)
    assert all(r["games"] == 8 for r in ratings)
    assert report["timing"]["jobs"] == 2
    code, out, _ = _arena(capsys, "--bots", "random", "basic", "heuristic", "--deals", "2",
                          "--rounds", "1", "--jobs", "1", "--markdown", "--no-timing")
    assert code == 0
    assert "| heuristic |" in out and "| A | B | games |" in out
    assert "time:" not in out


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _arena(capsys, "--bots", "basic", "random", "--deals", "1", "--rounds", "1",
                          "--jobs", "1", "--players", "2")
    assert code == 0
    assert out.startswith("arena: hand-and-foot, 2 players, single rounds, 1 deals")
    assert "time:" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "random", "nobody"], "unknown bot 'nobody'"),
    (["--bots", "random", "basic:depth=3"], "bot 'basic'"),
    (["--bots", "random", "search:worlds=x"], "is not a number"),
    (["--bots", "random"], "at least two bots"),
    (["--bots", "random", "random"], "only once"),
    (["--bots", "random", "basic", "--deals", "0"], "--deals"),
    (["--bots", "random+", "basic"], "a team is bots joined by '+'"),
    (["--bots", "random+nobody", "basic"], "nobody"),
    (["--bots", "random", "basic", "--jobs", "0"], "--jobs"),
    (["--bots", "random", "basic", "--rules", "no-such-game"], "unknown preset"),
])
def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                              message: str) -> None:
    code, out, err = _arena(capsys, *args)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.startswith("handfoot: error:")


def _report(bots: list[str], score: float = 12_345.6) -> dict[str, object]:
    """A report as run_arena makes it, with figures as wide as real ones get."""
    iv = {"value": 0.5, "low": 0.094, "high": 0.905}
    wide = {"value": -score, "low": -score - 4000.5, "high": score + 4000.5}
    elo = {"value": -1234.0, "low": -2345.0, "high": 1111.0}
    pairs = [{"a": a, "b": b, "games": 2000, "wins": 1000, "draws": 0, "losses": 1000,
              "points": 1000, "win_rate": iv, "score_diff": wide, "paired_diff": wide,
              "elo": elo} for i, a in enumerate(bots) for b in bots[i + 1:]]
    ratings = [{"bot": b, "elo": -1234.0, "score": 0.5, "games": 4000} for b in bots]
    return {"rules": "hand-knee-foot-club", "players": 6, "rounds": 4, "deals": 1000,
            "seed": 123456, "bots": bots, "pairs": pairs, "ratings": ratings,
            "timing": {"seconds": 12345.6, "games_per_second": 123.4, "jobs": 16}}


@pytest.mark.parametrize("bots", [
    ["heuristic", "random", "basic"],
    ["search:worlds=16,ms=500", "heuristic"],
    ["policy:path=/home/someone/models/a-very-long-folder-name/policy-hand-and-foot.zip",
     "search:worlds=16,ms=500", "random"],
])
def test_the_text_report_fits_80_columns(bots: list[str]) -> None:
    from handfoot.sim.arena import format_text

    text = format_text(_report(bots))  # type: ignore[arg-type]
    assert max(len(line) for line in text.splitlines()) <= 80, text
    for bot in bots:  # every bot is still named (in a key where labels are used)
        assert bot in text or (bot[:30] in text and bot[-30:] in text)
    assert "-12346 [-16346, +16346]" in text and "-1234 [-2345, +1111]" in text


def test_the_arena_command_prints_within_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _arena(capsys, "--bots", "heuristic", "random", "basic", "--deals", "1",
                          "--rounds", "1", "--jobs", "1")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 80, out
