"""``handfoot simulate``: variants side by side, files, plots, Ray, bad arguments."""

from __future__ import annotations

import csv
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from handfoot.bots import make_bot
from handfoot.bots.base import play
from handfoot.cli.main import main
from handfoot.engine import Game
from handfoot.presets import preset
from handfoot.sim.simulate import (
    Variant,
    bot_seed,
    game_seed,
    play_game,
    run_simulation,
)

BASE = ["simulate", "--games", "4", "--rounds", "1", "--quiet", "--seed", "3"]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow  # matplotlib's figures: the full run
def test_two_variants_write_csv_json_and_plots(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, *BASE, "--compare", "pile_take=whole", "--jobs", "2",
                        "--csv", str(tmp_path / "r.csv"), "--json", str(tmp_path / "r.json"),
                        "--plots", str(tmp_path / "plots"))
    assert code == 0
    assert "hand-and-foot + pile_take=whole" in out
    assert "going out" in out and "mean turns per round" in out
    with (tmp_path / "r.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 8  # 2 variants x 4 games x 1 round
    assert {r["variant"] for r in rows} == {"hand-and-foot", "hand-and-foot + pile_take=whole"}
    for r in rows:
        assert r["ended_by"] in ("went_out", "stock_out", "turn_cap")
        assert int(r["turns"]) > 0
    data = json.loads((tmp_path / "r.json").read_text())
    assert len(data["rounds"]) == 8
    assert [v["name"] for v in data["variants"]] == ["hand-and-foot",
                                                     "hand-and-foot + pile_take=whole"]
    assert data["variants"][1]["rules"]["pile_take"] == "whole"
    summary = data["variants"][0]["summary"]
    assert summary["rounds"] == 4
    assert summary["going_out_rate"] + summary["stock_out_rate"] <= 1
    for name in ("scores", "turns", "endings", "canastas"):
        png = tmp_path / "plots" / f"{name}.png"
        assert png.is_file() and png.stat().st_size > 1000
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # No round of these short games reached the turn cap: no empty chart of it.
    assert summary["turn_cap_rounds"] == 0
    assert not (tmp_path / "plots" / "turn_cap.png").exists()


def test_turn_cap_chart_only_when_a_round_hit_the_cap(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = _run(capsys, *BASE, "--games", "2", "--jobs", "1", "--set", "turn_cap=10",
                      "--plots", str(tmp_path / "plots"), "--json", str(tmp_path / "r.json"))
    assert code == 0
    summary = json.loads((tmp_path / "r.json").read_text())["variants"][0]["summary"]
    assert summary["turn_cap_rounds"] == 2
    png = tmp_path / "plots" / "turn_cap.png"
    assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_same_seed_same_results_on_one_or_two_processes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"{jobs}.json"
        code, out, _ = _run(capsys, *BASE, "--games", "3", "--rules", "hand-knee-foot",
                            "--jobs", jobs, "--json", str(path), "--no-timing")
        assert code == 0
        outputs.append((out, path.read_text()))
    assert outputs[0] == outputs[1]
    assert "timing" not in json.loads(outputs[0][1])


def test_round_records_add_up_to_the_game() -> None:
    # Two rounds: the records' scores are the game's totals, and the red threes are those
    # the engine laid (each round's dealt ones included).
    rules = preset("hand-and-foot").replace(rounds=2)
    records = play_game(rules, "basic", 11, 0)
    game = Game.new(rules, seed=game_seed(11, 0))
    play(game, [make_bot("basic", bot_seed(11, 0, s)) for s in range(4)])
    assert [r["round"] for r in records] == [1, 2]
    assert [sum(r["scores"][t] for r in records) for t in range(2)] == game.totals
    for r, result in zip(records, game.results, strict=True):
        assert r["turns"] == result.turns and r["ended_by"] == result.ended_by
        laid = sum(team.tally.red_threes_laid for team in result.teams if team.tally)
        assert sum(r["red_threes"]) >= laid  # lines omit threes without a canasta
        assert sum(r["red_threes"]) <= 2 * rules.decks


def test_several_rules_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, *BASE, "--games", "1", "--jobs", "1", "--rules",
                        "hand-and-foot", "--rules", "hand-knee-foot", "--no-timing")
    assert code == 0
    header = out.splitlines()[2]
    assert "hand-and-foot" in header and "hand-knee-foot" in header
    assert "time:" not in out


class _FakeRay(types.ModuleType):
    """Just enough of Ray: tasks run when their result is asked for."""

    def __init__(self) -> None:
        super().__init__("ray")
        self.calls: list[Any] = []

    def init(self, address: str) -> None:
        self.calls.append(("init", address))

    def shutdown(self) -> None:
        self.calls.append(("shutdown",))

    def remote(self, fn: Any) -> Any:
        fake = self

        class Task:
            def remote(self, *args: Any) -> tuple[Any, tuple[Any, ...]]:
                fake.calls.append(("submit", args[-1]))
                return (fn, args)

        return Task()

    def get(self, ref: tuple[Any, tuple[Any, ...]]) -> Any:
        fn, args = ref
        self.calls.append(("get", args[-1]))
        return fn(*args)


def test_ray_path_runs_the_same_games_in_seed_order(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    variants = [Variant("h", preset("hand-and-foot").replace(rounds=1))]
    on_ray = run_simulation(variants, "basic", 3, seed=2, ray_address="ray://head:10001",
                            progress=False)
    local = run_simulation(variants, "basic", 3, seed=2, jobs=1, progress=False)
    assert fake.calls[0] == ("init", "ray://head:10001")
    assert fake.calls[-1] == ("shutdown",)
    assert [c for c in fake.calls if c[0] == "get"] == [("get", 0), ("get", 1), ("get", 2)]
    assert list(on_ray["rounds"]) == list(local["rounds"])
    assert on_ray["variants"] == local["variants"]
    assert on_ray["timing"]["jobs"] == "ray"


def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    code, _, err = _run(capsys, *BASE, "--ray", "auto")
    assert code == 2
    assert "--ray needs the Ray package" in err and "not installed" in err
    assert "'ray' extra" in err


def test_plots_without_matplotlib_name_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = _run(capsys, *BASE, "--plots", str(tmp_path / "p"))
    assert code == 2
    assert "matplotlib" in err and "'plot' extra" in err
    assert not (tmp_path / "p").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--bot", "nobody"], "unknown bot 'nobody'"),
    (["--bot", "heuristic:speed=2"], "bot 'heuristic'"),
    (["--games", "0"], "--games"),
    (["--jobs", "0"], "--jobs"),
    (["--rounds", "0"], "--rounds"),
    (["--compare", "no_such_rule=1"], "no_such_rule"),
    (["--compare", "pile_take"], "expected key=value"),
    (["--rules", "nonsense"], "unknown preset"),
])
def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                              message: str) -> None:
    code, out, err = _run(capsys, *BASE, *args)
    assert code == 2
    assert out == ""
    assert message in err
