"""Long arena and simulation runs stream their results: a bounded number of games in flight,
each folded into the tallies (or a file on disk) and let go, with the same output as before
for sane runs, and absurd sizes refused at once."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from handfoot.cli.main import main
from handfoot.presets import preset
from handfoot.sim import arena, runner, simulate
from handfoot.sim.arena import DealResult, pair_report, play_deal, run_arena
from handfoot.sim.simulate import Rounds, Variant, run_simulation, write_json


def square(x: int) -> int:  # module level: the workers import it
    return x * x


def test_stream_keeps_a_few_items_per_worker_in_flight_and_keeps_order() -> None:
    taken = []

    def items() -> Any:
        for i in range(200):
            taken.append(i)
            yield (i,)

    seen = []
    for k, result in enumerate(runner.stream(square, items(), 200, jobs=2)):
        assert result == k * k
        # Never more than IN_FLIGHT items per worker taken ahead of the one just returned.
        assert len(taken) - (k + 1) <= runner.IN_FLIGHT * 2
        seen.append(result)
    assert seen == [i * i for i in range(200)]


def test_a_long_arena_holds_numbers_not_results(monkeypatch: pytest.MonkeyPatch) -> None:
    # 30,000 duplicate deals, played instantly: the run keeps three 8-byte numbers per deal.
    def instant(rules: object, a: str, b: str, seed: int, deal: int) -> DealResult:
        return DealResult(deal, (deal % 7, 3), (2, deal % 5), (10, 11))

    monkeypatch.setattr(arena, "play_deal", instant)
    tracemalloc.start()
    report = run_arena(preset("hand-and-foot"), ["random", "basic"], 30_000, jobs=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert report["pairs"][0]["games"] == 60_000
    assert peak < 4 * 2**20, f"peak {peak / 2**20:.1f} MiB"


def test_a_long_simulation_holds_tallies_not_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    def instant(rules: object, bot: str, seed: int, game_no: int) -> list[dict[str, Any]]:
        return [{"game": game_no, "round": 1, "ended_by": "went_out", "went_out": 1,
                 "turns": 40 + game_no % 9, "scores": [game_no % 100, 50],
                 "canastas": [{"clean": 1}, {}], "red_threes": [1, 0], "turn_cap": False}]

    monkeypatch.setattr(simulate, "play_game", instant)
    variants = [Variant("h", preset("hand-and-foot"))]
    tracemalloc.start()
    result = run_simulation(variants, "random", 15_000, progress=False, keep_rounds=False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert result["variants"][0]["summary"]["rounds"] == 15_000
    assert peak < 2 * 2**20, f"peak {peak / 2**20:.1f} MiB"


def test_the_streamed_arena_report_is_the_report_of_all_the_deals() -> None:
    rules = preset("hand-and-foot").replace(rounds=1)
    report = run_arena(rules, ["random", "basic"], 3, seed=5, jobs=1)
    deals = [play_deal(rules, "random", "basic", 5, d) for d in range(3)]
    assert report["pairs"][0] == pair_report("random", "basic", deals)


def test_rounds_kept_on_disk_read_back_the_same_every_time() -> None:
    rounds = Rounds()
    records = [{"game": i, "scores": [i, -i], "variant": "v ü"} for i in range(5)]
    for r in records:
        rounds.append(r)
    assert len(rounds) == 5 and list(rounds) == records and list(rounds) == records
    assert rounds == records


@pytest.mark.parametrize("timing", [True, False])
def test_the_json_file_is_what_json_dumps_writes(tmp_path: Path, timing: bool) -> None:
    variants = [Variant("hand-and-foot", preset("hand-and-foot").replace(rounds=2)),
                Variant("ünïcode", preset("hand-and-foot").replace(rounds=1))]
    result = run_simulation(variants, "basic", 2, seed=4, progress=False)
    path = tmp_path / "r.json"
    write_json(result, path, timing)
    plain = dict(result, rounds=list(result["rounds"]))
    if not timing:
        del plain["timing"]
    assert path.read_text(encoding="utf-8") == json.dumps(plain, indent=1) + "\n"
    empty = dict(plain, rounds=[])
    write_json(empty, path, timing)
    assert path.read_text(encoding="utf-8") == json.dumps(empty, indent=1) + "\n"


@pytest.mark.parametrize("argv", [
    ["arena", "--bots", "heuristic", "random", "--deals", "1000000000000"],
    ["simulate", "--games", "1000000000000"],
    ["simulate", "--jobs", "100000"],
])
def test_absurd_sizes_are_refused_before_anything_runs(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("handfoot: error: ") and err.count("\n") == 1
    assert "1,000,000" in err or "--jobs must be from 1 to" in err
