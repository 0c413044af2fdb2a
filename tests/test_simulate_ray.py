"""``handfoot simulate --ray`` on a real Ray cluster: a local one on the loopback interface with
two CPUs, started here and stopped at the end.  (The fast test with a stand-in for Ray is in
test_simulate.py.)"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                       reason="needs the 'ray' extra (pip install -e '.[ray]')"),
]

# The cluster lives in its own process, so this test process never imports Ray.  It prints the
# cluster's address, keeps it up until its stdin is closed, then shuts it down.  "local": a new
# cluster even if another one is running on this machine (or a stale one left its address).
HEAD = """
import sys
import ray
info = ray.init(address="local", num_cpus=2, include_dashboard=False)
print(info.address_info["gcs_address"], flush=True)
sys.stdin.read()
ray.shutdown()
"""

ARGS = ["simulate", "--games", "4", "--rounds", "1", "--bot", "basic", "--seed", "9",
        "--compare", "pile_take=whole", "--quiet"]


# A token of the test's own: the cluster and the command share it as a real deployment would.
TOKEN = secrets.token_hex(32)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # Ray names the node by its network address unless told it is a one-machine cluster (the
    # variable's name is Ray's): this keeps every socket on 127.0.0.1.
    env["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    env["RAY_AUTH_MODE"] = "token"
    env["RAY_AUTH_TOKEN"] = TOKEN
    env.pop("RAY_ADDRESS", None)
    env.pop("RAY_AUTH_TOKEN_PATH", None)
    return env


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    head = subprocess.Popen([sys.executable, "-c", HEAD], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=_env())
    assert head.stdin is not None and head.stdout is not None
    try:
        address = head.stdout.readline().strip()
        assert address.startswith("127.0.0.1:"), f"the cluster did not start: {address!r}"
        yield address
    finally:
        head.stdin.close()
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "handfoot", *ARGS, *args], capture_output=True,
                          text=True, env=_env(), timeout=300, check=False)


def test_games_on_a_ray_cluster_equal_the_local_run(cluster: str, tmp_path: Path) -> None:
    on_ray = _simulate("--ray", cluster, "--json", str(tmp_path / "ray.json"))
    assert on_ray.returncode == 0, on_ray.stderr
    local = _simulate("--jobs", "1", "--json", str(tmp_path / "local.json"))
    assert local.returncode == 0, local.stderr
    ray_result = json.loads((tmp_path / "ray.json").read_text())
    local_result = json.loads((tmp_path / "local.json").read_text())
    assert ray_result["timing"]["jobs"] == "ray"
    assert len(ray_result["rounds"]) == 8  # 2 variants x 4 games x 1 round
    del ray_result["timing"], local_result["timing"]
    assert ray_result == local_result
    # The printed summaries agree too, all but the timing line.
    assert on_ray.stdout.split("\ntime:")[0] == local.stdout.split("\ntime:")[0]
    assert "going out" in on_ray.stdout
