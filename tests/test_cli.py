"""The command line, called through ``main([...])``: output, exit codes, no tracebacks."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from handfoot.cli.main import main
from handfoot.presets import PRESET_NAMES, preset


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_list_names_every_preset_with_its_source(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "list")
    assert code == 0
    assert err == ""
    for name in PRESET_NAMES:
        rules = preset(name)
        line = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert rules.source in line
    assert "5 decks" in out
    assert "15+13+11" in out


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_show_json_is_the_preset_mapping(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, out, _ = run(capsys, "rules", "show", name, "--format", "json")
    assert code == 0
    assert json.loads(out) == preset(name).to_mapping()


def test_rules_show_toml_reads_back(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "show", "hand-knee-foot", "--format", "toml")
    assert code == 0
    assert tomllib.loads(out) == preset("hand-knee-foot").to_mapping()


def test_rules_show_text_explains_choices(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "show", "hand-and-foot")
    assert code == 0
    assert "stock_out" in out
    assert "the round ends when the player to move finds the stock empty" in out
    assert "differs" not in out  # nothing marked without overrides
    for key in preset("hand-and-foot").to_mapping():
        assert key in out


def test_rules_show_marks_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "show", "hand-and-foot", "--set", "pile_take=whole",
                       "--set", "quota={clean=2, dirty=2}")
    assert code == 0
    marked = [line for line in out.splitlines() if line.startswith("* ") and " = " in line]
    assert [line.split()[1] for line in marked] == ["pile_take", "quota"]
    assert "differs from the hand-and-foot preset" in out


def test_rules_show_players_applies_the_documents_changes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "rules", "show", "hand-and-foot", "--players", "6",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert (data["players"], data["team_size"], data["decks"]) == (6, 3, 7)


def test_rules_file_with_base_and_overrides(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "table.toml"
    path.write_text('base = "hand-and-foot-13"\npile_take = "whole"\n', encoding="utf-8")
    code, out, _ = run(capsys, "rules", "show", str(path), "--set", "going_out_bonus=250",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["pile_take"] == "whole"
    assert data["going_out_bonus"] == 250
    assert data["packets"] == [13, 13]


def test_unknown_preset_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "show", "hand-and-feet")
    assert code == 2
    assert out == ""
    assert err.startswith("handfoot: error: ")
    assert "hand-and-feet" in err
    assert "hand-knee-foot" in err  # lists the known presets
    assert "Traceback" not in err


def test_bad_override_names_the_key(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "rules", "show", "hand-and-foot", "--set", "pile_tak=3")
    assert code == 2
    assert "pile_tak" in err
    assert "pile_take" in err  # the suggestion
    assert "Traceback" not in err
    code, _, err = run(capsys, "demo", "--set", "max_wilds=lots")
    assert code == 2
    assert "max_wilds" in err


def test_missing_rules_file_is_a_clean_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "rules", "show", str(tmp_path / "nowhere.toml"))
    assert code == 2
    assert err.startswith("handfoot: error: ")
    assert "nowhere.toml" in err


def test_bad_players_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "demo", "--players", "9")
    assert code == 2
    assert "2 to 6" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.startswith("handfoot ")


def test_demo_plays_a_round_and_scores_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "demo", "--seed", "1")
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert len(lines) < 200
    assert any(line.startswith("turn   1") for line in lines)
    assert "round 1 over: " in out
    assert "team 0 (seat 0, seat 2)" in out
    assert "team 1 (seat 1, seat 3)" in out
    assert out.count("    round score") == 2
    assert "melded cards" in out


def test_demo_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "demo", "--seed", "5", "--rules", "hand-knee-foot")
    second = run(capsys, "demo", "--seed", "5", "--rules", "hand-knee-foot")
    assert first == second
    assert first[0] == 0


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--seconds", "0.2", "--presets", "hand-and-foot",
                       "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data["machine"]) >= {"platform", "python", "processor", "cpu_count"}
    figures = data["presets"]["hand-and-foot"]
    for key in ("games", "rounds", "actions", "seconds", "actions_per_second",
                "rounds_per_second"):
        assert figures[key] > 0
    assert figures["rounds"] == 4 * figures["games"]
    assert figures["actions_per_second"] == pytest.approx(
        figures["actions"] / figures["seconds"], rel=0.01)
