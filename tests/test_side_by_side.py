"""The side-by-side speed benchmark's dry run: handfoot alone, so no OpenSpiel is installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "openspiel_side_by_side.py"


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_handfoot_only_reports_rounds_and_never_makes_the_openspiel_venv(tmp_path: Path) -> None:
    venv = tmp_path / "openspiel-venv"
    done = _bench("--handfoot-only", "--rounds", "3", "--seconds", "0.05", "--warmup", "0",
                  "--venv", str(venv), "--json")
    assert done.returncode == 0, done.stderr
    assert not venv.exists()
    report = json.loads(done.stdout)
    assert list(report["engines"]) == ["handfoot"]
    assert "ratio" not in report
    hf = report["engines"]["handfoot"]
    assert hf["game"] == "hand-and-foot (4 players)"
    assert hf["python"].split()[-1] == sys.version.split()[0]
    assert len(report["rounds"]) == 3
    rates = [r["handfoot"]["actions_per_second"] for r in report["rounds"]]
    assert all(rate > 0 for rate in rates)
    aps = hf["actions_per_second"]
    assert aps["min"] <= aps["median"] <= aps["max"]
    # The summary rounds the rates to 0.1 and the rounds list them to 0.001, so the two agree
    # to within half a tenth (rounding the listed 174151.75 again gives .8, the summary .7).
    assert abs(aps["min"] - min(rates)) <= 0.0501 and abs(aps["max"] - max(rates)) <= 0.0501
    cpu = hf["actions_per_cpu_second"]
    assert 0 < cpu["min"] <= cpu["median"] <= cpu["max"]
    assert hf["cpu_seconds"] > 0
    assert hf["actions"] == sum(r["handfoot"]["actions"] for r in report["rounds"])
    assert len(report["load_average"]["before"]) == 3


def test_text_report_and_bad_arguments() -> None:
    done = _bench("--handfoot-only", "--rounds", "1", "--seconds", "0.05", "--warmup", "0")
    assert done.returncode == 0, done.stderr
    assert "handfoot: hand-and-foot (4 players)" in done.stdout
    assert "load average" in done.stdout
    assert "actions per second of the worker's CPU time" in done.stdout
    assert "round 1 (handfoot first)" in done.stderr
    bad = _bench("--handfoot-only", "--rounds", "0")
    assert bad.returncode == 2
    assert "--rounds must be at least 1" in bad.stderr
