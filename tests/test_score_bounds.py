"""The scorekeeper believes only what a table can produce: bounds from the rules and the shoe,
"who went out?" checked as it is answered, every problem of a round at once, names on one
line."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handfoot.bots import make_bot
from handfoot.bots.base import play
from handfoot.cli.main import main
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, preset
from handfoot.scorekeeper import ScoreError
from handfoot.scorekeeper.bounds import Shoe
from handfoot.scorekeeper.entry import (
    _shoe_problems,
    canasta_key,
    check_round,
    packet_keys,
    read_round,
    read_team,
)
from handfoot.scorekeeper.game import make_seating
from handfoot.scorekeeper.names import check_text
from handfoot.scorekeeper.prompt import Asker, ask_round

TEAMS = ["--team", "Ann & Bob", "--team", "Cy & Di"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refusal(rules_name: str, *teams: dict[str, Any]) -> str:
    rules = preset(rules_name)
    seats = make_seating(rules, ["Ann & Bob", "Cy & Di"])
    try:
        _, entries = read_round(rules, seats, {"teams": list(teams)})
        check_round(rules, seats, entries, 1)
    except ScoreError as err:
        return str(err)
    raise AssertionError("the entry was accepted")


# ---------------------------------------------------------------- the bounds themselves
def test_the_bounds_come_from_the_rules() -> None:
    hf = Shoe(preset("hand-and-foot"))
    # 5 decks: 4 x (four ranks at 5, six at 10, aces and 2s at 20) + 2 jokers at 50, a deck.
    assert hf.points == 5 * (4 * (4 * 5 + 6 * 10 + 20 + 20) + 2 * 50) == 2900
    assert hf.most_canastas("clean") == 11 * (20 // 7) == 22
    assert hf.most_canastas("wild") == 30 // 7
    assert hf.most_canastas("clean Ks") == 20 // 7
    six = Shoe(preset("hand-and-foot").replace(decks=6))
    assert six.points == 3480 and six.most_canastas("clean") == 11 * (24 // 7)
    bigger = Shoe(preset("hand-and-foot").replace(canasta_size=5, max_wilds=2))
    assert bigger.most_canastas("clean") == 11 * (20 // 5)
    knee = Shoe(preset("hand-knee-foot"))
    assert knee.most_canastas(canasta_key("7s")) == 24 // 7


def test_a_thousand_clean_canastas_and_35000_melded_points_are_refused() -> None:
    message = refusal("hand-and-foot",
                      {"canastas": {"clean": 1000}, "melded_points": 35000}, {})
    assert "canastas.clean: 1,000 is more than a table can have" in message
    assert "22 at most" in message
    assert "melded_points: 35,000" in message and "5 decks are worth 2,900" in message


def test_absurd_integers_are_refused_everywhere_an_entry_takes_a_number() -> None:
    huge = 10**29
    message = refusal("hand-knee-foot", {
        "red_threes_laid": huge, "over_meld": huge, "knee_reminders": huge,
        "melded_cards": {"jokers": huge}, "other_penalties": [{"points": huge,
                                                               "reason": "x"}],
        "players": [{"hand": huge, "knee": huge, "foot": huge, "red_threes_held": huge,
                     "black_threes_held": huge}]}, {})
    for field in ("red_threes_laid", "over_meld", "knee_reminders", "melded_cards.jokers",
                  "other_penalties[1].points", "players.Ann.hand", "players.Ann.knee",
                  "players.Ann.foot", "players.Ann.red_threes_held",
                  "players.Ann.black_threes_held"):
        assert f"{field}: 100,000,000,000,000,000,000,000,000,000 is more than" in message


def test_both_teams_together_cannot_use_more_cards_than_the_shoe() -> None:
    # Each team alone is possible; the two together are not.
    one = {"canastas": {"clean": 20}, "melded_points": 1500}
    message = refusal("hand-and-foot", one, dict(one))
    assert "40 clean canastas entered, but 5 decks make at most 22" in message
    assert "melded card points (3,000) and the points left in hands (0) add up to 3,000" \
        in message


def test_score_edit_refuses_a_melded_total_past_the_shoe(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    assert run(capsys, "score", "new", *TEAMS, "--db", db)[0] == 0
    round_file = tmp_path / "r.toml"
    round_file.write_text('[[teams]]\ncanastas = { clean = 1 }\nmelded_points = 100\n'
                          '[[teams]]\n', encoding="utf-8")
    assert run(capsys, "score", "add", "1", "--file", str(round_file), "--db", db)[0] == 0
    code, _, err = run(capsys, "score", "edit", "1", "1", "1", "--set",
                       f"melded_points={10**29}", "--db", db)
    assert code == 2 and "is more than a table can have" in err
    code, _, err = run(capsys, "score", "edit", "1", "1", "1", "--set",
                       "canastas.clean=1000", "--db", db)
    assert code == 2 and "22 at most" in err
    _, out, _ = run(capsys, "score", "show", "1", "--db", db, "--json")
    entry = json.loads(out)["rounds"][0]["teams"][0]["entry"]
    assert entry["melded_points"] == 100 and entry["canastas"] == {"clean": 1}


def _entries_of(game: Game) -> list[dict[str, Any]]:
    """A played round as a score sheet would have it: each team's tally, its held cards put
    on the team's first player."""
    rules = game.rules
    keys = dict(zip(rules.packet_names, packet_keys(rules), strict=True))
    out = []
    for team in game.results[0].teams:
        t = team.tally
        assert t is not None
        player = {keys[name]: points for name, points in t.left_points.items()}
        player.update(red_threes_held=t.red_threes_held, black_threes_held=t.black_threes_held)
        out.append({"canastas": dict(t.canastas), "melded_points": t.melded_points,
                    "red_threes_laid": t.red_threes_laid, "players": [player]})
    return out


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(PRESET_NAMES),
       players=st.sampled_from([4, 6]))
def test_the_bounds_never_refuse_a_round_the_engine_played(seed: int, name: str,
                                                           players: int) -> None:
    rules = preset(name, players).replace(rounds=1)
    game = play(Game.new(rules, seed=seed),
                [make_bot("heuristic", seed + s) for s in range(rules.players)])
    seats = make_seating(rules, [f"T{t}" for t in range(rules.teams)])
    entries = [read_team(rules, seats, t, raw) for t, raw in enumerate(_entries_of(game))]
    assert _shoe_problems(rules, seats, entries) == []


# ---------------------------------------------------------------- who went out
def _asker(answers: list[str]) -> tuple[Asker, io.StringIO]:
    out = io.StringIO()
    return Asker(io.StringIO("\n".join(answers) + "\n"), out, interactive=True), out


def test_who_went_out_is_checked_when_answered_and_the_other_team_still_asked() -> None:
    rules = preset("hand-and-foot")
    seats = make_seating(rules, ["Ann & Bob", "Cy & Di"])
    # Ann & Bob: no canastas, 0 melded; "Cy" went out? Cy plays for the other team.
    answers = ["", "", "", "", "", "Cy", "no"] + [""] * 9 + ["", "", "", "", "", "Cy"] \
        + [""] * 20
    asker, out = _asker(answers)
    data = ask_round(rules, seats, asker, 1)
    shown = out.getvalue()
    assert "Cy plays for Cy & Di, not Ann & Bob" in shown
    assert shown.count("went out?") == 3  # asked again, then asked of Cy & Di
    assert "went_out" not in data["teams"][0] and data["teams"][1]["went_out"] == "Cy"


def test_went_out_names_a_player_of_the_team() -> None:
    rules = preset("hand-and-foot")
    seats = make_seating(rules, ["Ann & Bob", "Cy & Di"])
    asker, out = _asker(["", "", "", "", "", "Zed", "yes", "bob"] + [""] * 30)
    data = ask_round(rules, seats, asker, 1)
    assert "no player of Ann & Bob is called 'Zed'" in out.getvalue()
    assert "say which player went out: Ann or Bob" in out.getvalue()
    assert data["teams"][0]["went_out"] == "Bob"
    message = refusal("hand-and-foot", {"went_out": "Cy"}, {})
    assert "went_out: Cy plays for Cy & Di" in message


def test_an_answer_past_the_shoe_is_asked_again() -> None:
    rules = preset("hand-and-foot")
    seats = make_seating(rules, ["Ann & Bob", "Cy & Di"])
    asker, out = _asker(["1000", "2"] + [""] * 3 + ["99999", "400"] + [""] * 40)
    data = ask_round(rules, seats, asker, 1)
    shown = out.getvalue()
    assert "1,000 is more than a table can have" in shown and "22 at most" in shown
    assert "99,999 is more than a table can have" in shown
    assert data["teams"][0]["canastas"] == {"clean": 2}
    assert data["teams"][0]["melded_points"] == 400


# ---------------------------------------------------------------- all problems at once
def test_every_problem_of_a_round_is_reported_together(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    assert run(capsys, "score", "new", *TEAMS, "--db", db)[0] == 0
    bad = tmp_path / "bad.toml"
    bad.write_text("""
[[teams]]
name = "Ann & Bob"
canastas = { clean = "two", purple = 1 }
melded_points = -5
went_out = "Di"
[[teams.players]]
name = "Ann"
hand = "x"
[[teams]]
name = "Cy & Di"
canastas = { clean = 2 }
melded_points = 10
""", encoding="utf-8")
    code, _, err = run(capsys, "score", "add", "1", "--file", str(bad), "--db", db)
    assert code == 2 and "Traceback" not in err
    for problem in ("canastas.clean: expected a whole number", "'purple' is not a kind",
                    "melded_points: cannot be negative", "went_out: Di plays for Cy & Di",
                    "players.Ann.hand: expected a whole number",
                    # and what the rules say of the team that could be read:
                    "Cy & Di: melded points 10 are fewer than the 2 canastas"):
        assert problem in err, problem
    _, out, _ = run(capsys, "score", "show", "1", "--db", db, "--json")
    assert json.loads(out)["rounds"] == []


# ---------------------------------------------------------------- names
@pytest.mark.parametrize("name", ["Ann\nBob", "Ann\rBob", "Ann\x1b[31m", "Ann\x00",
                                  "Ann\u202eboB", "Ann\u2028Bob", "A" * 81])
def test_names_with_line_breaks_or_control_characters_are_refused(name: str) -> None:
    with pytest.raises(ScoreError):
        check_text("--team", name)


@pytest.mark.parametrize("name", ["Fête 🎉", "山田 & 李", "Ελλάδα", "Москва", "O'Brien-Ñoño",
                                  "👨‍👩‍👧 family"])
def test_names_in_any_script_are_kept(name: str) -> None:
    assert check_text("--team", f"  {name} ") == name
