"""Game records: the JSON round trip, replay, scenarios, the worked examples of documents 000
and 002, and ``handfoot replay``'s exit codes."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handfoot.actions import parse_action
from handfoot.bots import make_bot
from handfoot.clauses import IllegalAction
from handfoot.cli.main import main
from handfoot.cli.replay import run
from handfoot.engine import Game
from handfoot.presets import PRESET_NAMES, preset
from handfoot.record import (
    Record,
    RecordError,
    load_record,
    record_to_json,
    replay,
)
from handfoot.scoring import RoundResult
from handfoot.views import view
from scenario import examples

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HKF_12245 = EXAMPLES / "hkf-worked-round-12245.json"
HF_1935 = EXAMPLES / "hf-worked-round-1935.json"
HKF_120 = EXAMPLES / "hkf-first-meld-120.json"
HF_105 = EXAMPLES / "hf-first-meld-105.json"


def random_game_record(name: str, seed: int) -> str:
    rules = preset(name)
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    return record_to_json(Record.from_game(game, [f"p{s}" for s in range(rules.players)]))


def lines_of(result: RoundResult, team: int) -> dict[str, int]:
    return {ln.label: ln.points for ln in result.teams[team].lines}


# ---------------------------------------------------------------------- round trip
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_seeded_game_round_trip(name: str) -> None:
    text = random_game_record(name, seed=7)
    record = load_record(text)
    assert record.seed == 7
    assert len(record.rounds) == record.rules.rounds
    assert all(r.result is not None for r in record.rounds)
    assert record.ended is True
    outcome = replay(record)
    assert outcome.ok, (outcome.illegal, outcome.mismatches)
    assert outcome.totals == record.totals
    assert record_to_json(outcome.record) == text


def test_seeded_record_replays_from_its_stored_deals() -> None:
    """A seeded record keeps working if the seed would shuffle differently: the deals rule."""
    text = random_game_record("hand-and-foot", seed=3)
    data = json.loads(text)
    data["seed"] = 999  # a seed that shuffles another game entirely
    record = load_record(json.dumps(data))
    outcome = replay(record)
    assert outcome.ok, (outcome.illegal, outcome.mismatches)


def test_record_text_is_canonical() -> None:
    text = HKF_12245.read_text(encoding="utf-8")
    record = load_record(text)
    assert record_to_json(record) == text
    assert record_to_json(replay(record).record) == text
    # One action per line, so a changed action is a one-line diff.
    assert '    [1, "draw"],\n' in text


# ---------------------------------------------------------------------- worked examples
def test_hkf_worked_round_scores_12245() -> None:
    record = load_record(HKF_12245.read_text(encoding="utf-8"))
    assert record.rules == preset("hand-knee-foot")
    outcome = replay(record)
    assert outcome.ok, (outcome.illegal, outcome.mismatches)
    result = outcome.results[0]
    assert result.ended_by == "went_out"
    assert result.went_out == 1  # the partner of seat 3 ("you")
    team = result.teams[1]
    assert team.total == 12245
    lines = lines_of(result, 1)
    canastas = {k: v for k, v in lines.items() if "canastas" in k}
    assert canastas == {"7s canastas x1": 5000, "5s canastas x1": 3000,
                        "wild canastas x1": 2500, "clean canastas x1": 500,
                        "dirty canastas x1": 300}
    assert sum(canastas.values()) == 11300
    assert lines["going out"] == 200
    assert lines["red threes laid x3"] == 300
    assert lines["melded cards"] == 460
    assert lines["cards left in foot"] == -15
    assert len(lines) == 9  # nothing else counts
    game = outcome.game
    assert game.hands[3][5] == 1 and game.hands[3][0] == 1 and sum(game.hands[3]) == 2  # 9, 4
    assert game.packet_no[3] == 2  # in the foot
    assert outcome.totals[1] == 12245


def test_hkf_worked_round_uses_knee_permission_and_red_threes() -> None:
    record = load_record(HKF_12245.read_text(encoding="utf-8"))
    outcome = replay(record)
    names = [(step.action.text, [e.name for e in step.events]) for step in outcome.steps]
    first_lay = names[1][1]
    assert first_lay.index("canasta") < first_lay.index("pick_up")  # knee at the first canasta
    texts = [text for text, _ in names]
    assert texts.index("ask") + 1 == texts.index("answer yes")
    assert record.new_game().red3 == [0, 0, 0, 3]  # laid from the dealt hand


def test_hf_worked_round_scores_1935() -> None:
    record = load_record(HF_1935.read_text(encoding="utf-8"))
    assert record.rules == preset("hand-and-foot")
    assert record.first_round == 2
    assert record.new_game().minimum == 90
    outcome = replay(record)
    assert outcome.ok, (outcome.illegal, outcome.mismatches)
    result = outcome.results[0]
    assert result.round == 2
    assert result.teams[1].total == 1935
    lines = lines_of(result, 1)
    assert lines["clean canastas x2"] + lines["dirty canastas x1"] == 1300
    assert lines["red threes laid x2"] == 200
    assert lines["going out"] == 100
    assert lines["melded cards"] == 350
    assert lines["cards left in foot"] == -15
    assert len(lines) == 6


def _after_draw(path: Path) -> Game:
    record = load_record(path.read_text(encoding="utf-8"))
    game = record.new_game()
    game.apply(parse_action("draw"))
    return game


def test_hkf_first_meld_120_in_round_3() -> None:
    game = _after_draw(HKF_120)
    assert game.round_no == 3 and game.minimum == 120
    for short in ("lay K K K", "lay A A JK"):
        refusal = game.refusal(parse_action(short))
        assert refusal is not None and refusal.clause == "6.1", short
    assert game.refusal(parse_action("lay K K K, A A JK")) is None
    # Laid one meld at a time, the kings alone cannot be followed by a discard.
    game.apply(parse_action("meld K K K"))
    with pytest.raises(IllegalAction) as err:
        game.verify(parse_action("discard 8"))
    assert err.value.clause == "6.1"
    outcome = replay(load_record(HKF_120.read_text(encoding="utf-8")))
    assert outcome.ok
    assert outcome.game.opened == [False, True]


def test_hf_first_meld_105_in_round_2() -> None:
    game = _after_draw(HF_105)
    assert game.round_no == 2 and game.minimum == 90
    refusal = game.refusal(parse_action("lay K K K, 5 5 5"))
    assert refusal is not None and refusal.clause == "6.1"
    assert "45" in refusal.reason
    assert game.refusal(parse_action("lay K K K, A A A, 5 5 5")) is None
    outcome = replay(load_record(HF_105.read_text(encoding="utf-8")))
    assert outcome.ok
    assert outcome.game.opened == [False, True]


# ---------------------------------------------------------------------- what replay reports
def _hkf_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(HKF_12245.read_text(encoding="utf-8"))
    return data


def test_illegal_action_is_reported_with_index_and_clause() -> None:
    data = _hkf_data()
    data["rounds"][0]["actions"][1] = [1, "lay K K K"]  # 30 points: short of 50
    outcome = replay(load_record(json.dumps(data)))
    assert not outcome.ok
    bad = outcome.illegal
    assert bad is not None
    assert (bad.round, bad.index, bad.seat, bad.text, bad.clause) == (1, 1, 1, "lay K K K", "6.1")
    assert "round 1, actions[1]" in bad.message() and "6.1" in bad.message()
    assert len(outcome.steps) == 1  # stops at the first illegal action


def test_wrong_actor_is_illegal() -> None:
    data = _hkf_data()
    data["rounds"][0]["actions"][13] = [1, "answer yes"]  # seat 3 answers, not the asker
    bad = replay(load_record(json.dumps(data))).illegal
    assert bad is not None
    assert (bad.index, bad.seat, bad.clause) == (13, 1, "3.1")
    assert "seat 3" in bad.reason


def test_actions_after_the_round_ended_are_illegal() -> None:
    data = _hkf_data()
    data["rounds"][0]["actions"].append([2, "draw"])
    bad = replay(load_record(json.dumps(data))).illegal
    assert bad is not None and bad.index == 16 and bad.clause == "10.8"


def test_tampered_result_is_a_mismatch() -> None:
    data = _hkf_data()
    data["rounds"][0]["result"]["teams"][1]["total"] = 12345
    data["totals"] = [-250, 12345]
    outcome = replay(load_record(json.dumps(data)))
    assert outcome.illegal is None
    assert not outcome.ok
    fields = {(m.round, m.field): (m.recorded, m.replayed) for m in outcome.mismatches}
    assert fields[(1, "result.teams[1].total")] == (12345, 12245)
    assert fields[(None, "totals")] == ([-250, 12345], [-250, 12245])


def test_tampered_line_is_a_mismatch() -> None:
    data = _hkf_data()
    data["rounds"][0]["result"]["teams"][1]["lines"][0] = ["melded cards", 470]
    outcome = replay(load_record(json.dumps(data)))
    assert [m.field for m in outcome.mismatches] == ["result.teams[1].lines[0]"]


def test_scenario_without_results_is_computed() -> None:
    data = _hkf_data()
    del data["rounds"][0]["result"], data["totals"], data["ended"]
    outcome = replay(load_record(json.dumps(data)))
    assert outcome.ok
    assert outcome.results[0].teams[1].total == 12245
    # The replayed record is complete again.
    assert record_to_json(outcome.record) == HKF_12245.read_text(encoding="utf-8")


def test_a_game_refuses_the_wrong_seat() -> None:
    game = Game.new(preset("hand-and-foot"), seed=1)
    with pytest.raises(IllegalAction) as err:
        game.apply("draw", seat=0)  # seat 1 plays first after dealer 0
    assert err.value.clause == "3.1"
    game.apply("draw", seat=1)
    assert Record.from_game(game).rounds[0].actions[0][0] == 1


# ---------------------------------------------------------------------- bad records
def _error_field(data: Any) -> str:
    with pytest.raises(RecordError) as err:
        load_record(json.dumps(data))
    return err.value.field


def test_bad_records_name_the_field() -> None:
    data = _hkf_data()

    def changed(edit: Any) -> Any:
        copy = json.loads(json.dumps(data))
        edit(copy)
        return copy

    assert _error_field(changed(lambda d: d.update(version=5))) == "version"
    assert _error_field(changed(lambda d: d.update(format="pgn"))) == "format"
    assert _error_field(changed(lambda d: d.pop("rounds"))) == "rounds"
    assert _error_field(changed(lambda d: d.pop("version"))) == "version"
    assert _error_field(changed(lambda d: d.update(colour="red"))) == "colour"
    assert _error_field(changed(lambda d: d["seats"].pop())) == "seats"
    assert _error_field(changed(lambda d: d["seats"][1].update(team=0))) == "seats[1].team"
    assert _error_field(changed(lambda d: d["rules"].update(decks="six"))) == "rules.decks"
    assert _error_field(changed(lambda d: d.update(first_round=5))) == "first_round"
    assert _error_field(changed(lambda d: d.update(seed="x"))) == "seed"

    def bad_card(d: Any) -> None:
        d["rounds"][0]["deal"]["packets"][1][0] = "7 7 X"

    assert _error_field(changed(bad_card)) == "rounds[0].deal.packets[1][0]"

    def bad_stock(d: Any) -> None:
        d["rounds"][0]["deal"]["stock"] = "K Q 11"

    assert _error_field(changed(bad_stock)) == "rounds[0].deal.stock"

    def missing_packet(d: Any) -> None:
        d["rounds"][0]["deal"]["packets"][2].pop()

    assert _error_field(changed(missing_packet)) == "rounds[0].deal"

    def bad_action(d: Any) -> None:
        d["rounds"][0]["actions"][3] = [1, "fold"]

    assert _error_field(changed(bad_action)) == "rounds[0].actions[3][1]"

    def bad_seat(d: Any) -> None:
        d["rounds"][0]["actions"][3] = [4, "discard 8"]

    assert _error_field(changed(bad_seat)) == "rounds[0].actions[3][0]"

    def bad_round(d: Any) -> None:
        d["rounds"][0]["round"] = 2

    assert _error_field(changed(bad_round)) == "rounds[0].round"

    def bad_total(d: Any) -> None:
        d["rounds"][0]["result"]["teams"][0]["total"] = "lots"

    assert _error_field(changed(bad_total)) == "rounds[0].result.teams[0].total"
    assert _error_field(changed(lambda d: d.update(totals=[1]))) == "totals"


def test_not_json_is_a_record_error() -> None:
    with pytest.raises(RecordError) as err:
        load_record("{not json")
    assert err.value.field == "(file)"


# ---------------------------------------------------------------------- the command line
def _args(path: Path, *, json_out: bool = False, quiet: bool = False) -> argparse.Namespace:
    return argparse.Namespace(file=str(path), json=json_out, quiet=quiet)


def test_cli_replay_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(_args(HKF_12245)) == 0
    out = capsys.readouterr().out
    assert "goes out!" in out and "12,245" in out and "canasta of 7s" in out
    assert "replay matches the record" in out
    assert main(["replay", str(HF_1935), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "matches" in out


def test_cli_replay_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(HF_1935), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["error"] is None
    assert data["totals"] == [-190, 1935]
    assert data["rounds"][0]["result"]["teams"][1]["total"] == 1935


def test_cli_replay_illegal_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _hkf_data()
    data["rounds"][0]["actions"][1] = [1, "lay K K K"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run(_args(path, quiet=True)) == 1
    out = capsys.readouterr().out
    assert "round 1, actions[1]" in out and "seat 1" in out and "lay K K K" in out
    assert "6.1" in out and "Traceback" not in out
    assert main(["replay", str(path), "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert (error["round"], error["index"], error["seat"], error["clause"]) == (1, 1, 1, "6.1")


def test_cli_replay_mismatch_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _hkf_data()
    data["rounds"][0]["result"]["teams"][1]["total"] = 12345
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert "mismatch" in out and "12345" in out and "12245" in out


def test_cli_replay_unreadable_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.json"
    assert main(["replay", str(missing)]) == 2
    err = capsys.readouterr().err
    assert "missing.json" in err and "Traceback" not in err
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main(["replay", str(broken)]) == 2
    assert "broken.json" in capsys.readouterr().err
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({"format": "handfoot-record", "version": 9}), encoding="utf-8")
    assert main(["replay", str(newer)]) == 2
    assert "version" in capsys.readouterr().err


def test_a_round_that_does_not_end_is_a_mismatch() -> None:
    data = _hkf_data()
    data["rounds"][0]["actions"] = data["rounds"][0]["actions"][:-1]  # no going out
    outcome = replay(load_record(json.dumps(data)))
    assert outcome.illegal is None
    fields = [m.field for m in outcome.mismatches]
    assert fields[0] == "ended" and outcome.mismatches[0].round == 1
    assert "totals" in fields


def test_seeded_game_from_a_later_round_round_trips() -> None:
    rules = preset("hand-knee-foot")
    game = Game.new(rules, seed=5, first_dealer=2, first_round=3)
    assert (game.round_no, game.dealer, game.minimum) == (3, 2, 120)
    rng = random.Random(5)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    record = Record.from_game(game)
    assert [r.round for r in record.rounds] == [3, 4]
    text = record_to_json(record)
    outcome = replay(load_record(text))
    assert outcome.ok, (outcome.illegal, outcome.mismatches)
    assert record_to_json(outcome.record) == text


@settings(max_examples=examples(40), deadline=None)
@given(
    name=st.sampled_from(PRESET_NAMES),
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=10**9),
    bots=st.booleans(),
)
def test_property_replay_reproduces_any_record_byte_for_byte(
    name: str, players: int, seed: int, bots: bool
) -> None:
    """Every preset, every player count, random or sensible play: record -> JSON -> load ->
    replay gives the same results and the same bytes."""
    rules = preset(name, players).replace(rounds=1)
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    players_ = [make_bot("basic", seed=seed + s) for s in range(players)] if bots else None
    while not game.over:
        legal = game.legal_actions()
        if players_ is not None:
            action = players_[game.actor].choose(view(game, game.actor), legal)
        else:
            action = rng.choice(legal)
        game.apply(action)
    text = record_to_json(Record.from_game(game))
    outcome = replay(load_record(text))
    assert outcome.ok, (outcome.illegal, outcome.mismatches)
    assert record_to_json(outcome.record) == text


def test_a_version_1_record_replays_as_it_was_played() -> None:
    # Version 1 had no permission_yes or canasta_pennies: its games were played with a yes
    # that allows and no pennies, and its knee-game results named a knee in play "knee".
    data = json.loads(HKF_12245.read_text(encoding="utf-8"))
    data["version"] = 1
    for key in ("jokers", "draw_count", "black_three_book", "black_three_blocks", "pile_onto_meld",
                "pile_any_card", "opening_counts_bonuses", "whole_hand_opening",
                "foot_replaces_draw", "final_lap", "max_reshuffles"):
        del data["rules"][key]  # version 3 added these: a version-1 record has none
    del data["rules"]["permission_yes"], data["rules"]["canasta_pennies"]
    record = load_record(json.dumps(data))
    assert record.version == 1
    assert record.rules.permission_yes == "allows" and record.rules.canasta_pennies == 0
    assert replay(record).ok
    assert record_to_json(record).startswith('{\n "format": "handfoot-record",\n "version": 4,')
