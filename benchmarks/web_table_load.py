"""How many tables one ``handfoot serve`` process holds: scripted people over real websockets
on loopback, playing at a human pace, with heuristic bots in the other seats.

    python benchmarks/web_table_load.py                       # 200 tables, 60 s
    python benchmarks/web_table_load.py --ramp 200,400,800,1200,1600 --seconds 45
    python benchmarks/web_table_load.py --db postgresql://... --json

The server is the real command (``python -m handfoot serve``) in its own process; the people
are this process, one websocket each.  Every table seats four: two people (partners, seats 0
and 2) and two heuristic bots (seats 1 and 3).  A person acts about every ``--pace`` seconds
of its own moves (uniformly 0.75 to 1.25 times it) with a simple policy from the legal list
(draw, else meld or add, else discard a random card, else the first legal action); the bots
wait the same pace (the table's ``bot_pace``), so one seat acts about every 2 s at each table.

For each stage (a number of tables, all playing at once), it reports:
- tables held, and the server's applied actions a second (people's and bots');
- messages a second (every message every client received);
- latency: from a person sending an action to the moment *every* client at that table has the
  update it caused, p50 / p99 / max, in milliseconds (bots' actions start inside the server,
  so they are not timed from here);
- errors: error or refused messages, and connections lost;
- lost actions: people's actions sent without the update answering them, and, from the
  database after the run, tables whose stored actions differ from what their clients saw;
- where delay comes from: the server's event-loop lag and commit times (its ``/api/stats``,
  over its last minute) and this process's own loop lag (a late client inflates latency).
Stages run one after another on fresh tables; the ramp stops after the first stage whose p99
passes 250 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets

PROTOCOL = 1
LIMIT_MS = 250.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int, db: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "handfoot", "serve", "--port", str(port),
                             "--db", db, "--log-level", "warning"],
                            stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        out: dict[str, Any] = json.loads(reply.read())
        return out


@dataclass
class Stage:
    tables: int
    started: float = 0.0
    ended: float = 0.0
    messages: int = 0
    sent: int = 0
    answered: int = 0
    errors: int = 0
    lost_connections: int = 0
    latencies: list[float] = field(default_factory=list)
    versions: dict[str, int] = field(default_factory=dict)  # table -> last version seen
    seen: dict[str, dict[int, str]] = field(default_factory=dict)  # table -> version -> action
    error_samples: list[str] = field(default_factory=list)
    applied: int = 0  # versions the tables moved on while measured (people's and bots')
    client_lag: list[float] = field(default_factory=list)  # this process's own loop delays


@dataclass
class TableRun:
    """One table's clients and the person actions waiting for every client's update."""

    id: str
    stage: Stage
    pending: dict[int, tuple[float, set[int]]] = field(default_factory=dict)
    seats: tuple[int, ...] = (0, 2)


def note(text: str) -> None:
    print(f"  [{time.strftime('%X')}] {text}", file=sys.stderr, flush=True)


def choose(legal: list[str], rng: random.Random) -> str:
    if "draw" in legal:
        return "draw"
    melds = [a for a in legal if a.startswith(("meld", "add"))]
    if melds:
        return melds[0]
    discards = [a for a in legal if a.startswith("discard")]
    if discards:
        return rng.choice(discards)
    return legal[0]


async def person(ws_url: str, run: TableRun, seat: int, join: dict[str, Any],
                 pace: float, stop: asyncio.Event, rng: random.Random,
                 ready: asyncio.Event, host_token: str | None = None) -> None:
    stage = run.stage
    async with websockets.connect(ws_url, max_size=2**22, compression=None) as ws:
        hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL}
        if host_token:
            hello["host_token"] = host_token
        await ws.send(json.dumps(hello))
        await ws.send(json.dumps(join))
        ready.set()
        version, legal = -1, []
        started = False
        timer: asyncio.Task[None] | None = None
        ident = 0

        async def act_later(at_version: int, action: str) -> None:
            nonlocal ident
            await asyncio.sleep(pace * rng.uniform(0.75, 1.25))
            if stop.is_set() or at_version != version:
                return
            ident += 1
            run.pending[at_version + 1] = (time.perf_counter(), set(run.seats))
            stage.sent += 1
            await ws.send(json.dumps({"type": "act", "id": ident, "version": at_version,
                                      "action": action}))

        try:
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                now = time.perf_counter()
                m = json.loads(text)
                stage.messages += 1
                kind = m["type"]
                if kind in ("update", "state"):
                    version, legal = m["version"], m["legal"]
                    if kind == "update":
                        stage.seen.setdefault(run.id, {})[version] = m["action"]
                        stage.versions[run.id] = max(stage.versions.get(run.id, 0), version)
                        if "reply_to" in m:
                            stage.answered += 1
                        waiting = run.pending.get(version)
                        if waiting is not None:
                            waiting[1].discard(seat)
                            if not waiting[1]:
                                stage.latencies.append((now - waiting[0]) * 1000)
                                del run.pending[version]
                    if legal and m["view"]["actor"] == seat:
                        if timer is not None:
                            timer.cancel()
                        timer = asyncio.create_task(act_later(version, choose(legal, rng)))
                elif kind == "table" and host_token and not started \
                        and m["status"] == "lobby" \
                        and all(m["seats"][s]["occupant"] == "person" for s in run.seats):
                    started = True
                    await ws.send(json.dumps({"type": "start"}))  # the host, once all sit
                elif kind in ("error", "refused"):
                    stage.errors += 1
                    if len(stage.error_samples) < 5:
                        stage.error_samples.append(text[:200])
        except websockets.exceptions.ConnectionClosed:
            if not stop.is_set():
                stage.lost_connections += 1
        finally:
            if timer is not None:
                timer.cancel()


async def run_stage(base: str, tables: int, seconds: float, pace: float,
                    warmup: float, seed: int) -> Stage:
    stage = Stage(tables)
    stop = asyncio.Event()
    rng = random.Random(seed)
    made = await asyncio.gather(*(asyncio.to_thread(post, f"{base}/api/tables", {
        "rules": {"preset": "hand-and-foot"}, "bots": "heuristic",
        "options": {"bot_pace": pace, "seat_hold": 600}}) for _ in range(tables)))
    tasks = []
    batch: list[asyncio.Event] = []
    for i, table in enumerate(made):
        run = TableRun(table["table"], stage)
        for seat in run.seats:
            ready = asyncio.Event()
            batch.append(ready)
            tasks.append(asyncio.create_task(person(
                table["websocket"], run, seat, {"type": "join", "seat": seat,
                                                "name": f"p{i}s{seat}"},
                pace, stop, random.Random(rng.random()), ready,
                table["host_token"] if seat == 0 else None)))
        if i % 50 == 49 or i == len(made) - 1:
            for ready in batch:
                await ready.wait()
            batch.clear()
            note(f"{i + 1} tables playing")
            await asyncio.sleep(0.2)  # tables start spread out, as they would in life
    note(f"all {tables} tables playing; warming up {warmup:g} s, then measuring {seconds:g} s")
    await asyncio.sleep(warmup)
    stage.messages, stage.sent, stage.answered, stage.errors = 0, 0, 0, 0
    stage.latencies.clear()
    before = dict(stage.versions)
    stage.started = time.perf_counter()
    # How late this process's own event loop runs a 50 ms timer: a latency here is the
    # clients' delay, not the server's.
    deadline = stage.started + seconds
    while (now := time.perf_counter()) < deadline:
        await asyncio.sleep(0.05)
        stage.client_lag.append((time.perf_counter() - now - 0.05) * 1000)
    stage.ended = time.perf_counter()
    stage.applied = sum(v - before.get(t, 0) for t, v in stage.versions.items())
    measured_sent = stage.sent
    await asyncio.sleep(pace * 2)  # let the last actions come back before stopping
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    stage.sent = measured_sent
    return stage


def stored_check(db: str, stage: Stage) -> int:
    """Tables whose stored actions are not exactly what their clients saw (SQLite only)."""
    if db.startswith("postgres"):
        return -1
    conn = sqlite3.connect(db)
    bad = 0
    for table, seen in stage.seen.items():
        rows = dict(conn.execute("SELECT version, action FROM web_actions WHERE table_id = ?",
                                 (table,)).fetchall())
        version = conn.execute("SELECT version FROM web_tables WHERE id = ?",
                               (table,)).fetchone()[0]
        if any(rows.get(v) != action for v, action in seen.items()) or len(rows) != version:
            bad += 1
    conn.close()
    return bad


def summary(stage: Stage, lost_stored: int, server_cpu: float) -> dict[str, Any]:
    span = stage.ended - stage.started
    lat = sorted(stage.latencies)

    def pct(q: float) -> float:
        return round(lat[min(len(lat) - 1, int(q * len(lat)))], 1) if lat else float("nan")

    return {
        "tables": stage.tables,
        "seconds": round(span, 1),
        "actions_per_s": round(stage.applied / span, 1),
        "messages_per_s": round(stage.messages / span, 1),
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "max_ms": round(lat[-1], 1) if lat else float("nan"),
        "mean_ms": round(statistics.fmean(lat), 1) if lat else float("nan"),
        "timed_actions": len(lat),
        "errors": stage.errors,
        "lost_connections": stage.lost_connections,
        "unanswered_actions": max(0, stage.sent - stage.answered),
        "tables_stored_wrong": lost_stored,
        "server_cpu_percent": round(server_cpu, 1),
        "client_loop_lag_p99_ms": round(sorted(stage.client_lag)[
            int(0.99 * (len(stage.client_lag) - 1))], 1) if stage.client_lag else float("nan"),
        "error_samples": stage.error_samples,
    }


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables (default 200)")
    parser.add_argument("--ramp", default=None, metavar="N,N,...",
                        help="stages of tables, one after another (stops past 250 ms p99)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds a stage")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a seat's moves")
    parser.add_argument("--db", default=None, help="SQLite path or postgresql:// URL "
                        "(default: a new SQLite file in a temporary folder)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per stage")
    args = parser.parse_args()
    stages = [int(x) for x in args.ramp.split(",")] if args.ramp else [args.tables]
    folder = tempfile.mkdtemp(prefix="handfoot-load-")
    db = args.db or os.path.join(folder, "tables.sqlite3")
    port = free_port()
    proc = start_server(port, db)
    base = f"http://127.0.0.1:{port}"
    # Stopped from outside (Ctrl+C, a timeout): the server goes too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        if not args.json:
            print(f"server: pid {proc.pid}, {db}; load average {os.getloadavg()[0]:.2f}")
            print(f"{'tables':>6} {'actions/s':>9} {'msgs/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
                  f"{'max ms':>7} {'errors':>6} {'lost':>5} {'server cpu':>10} "
                  f"{'server lag p99':>14} {'client lag p99':>14} {'commit p99':>10}")
        for i, tables in enumerate(stages):
            cpu0, t0 = cpu_seconds(proc.pid), time.perf_counter()
            stage = asyncio.run(run_stage(base, tables, args.seconds, args.pace, args.warmup,
                                          args.seed + i))
            cpu = (cpu_seconds(proc.pid) - cpu0) / (time.perf_counter() - t0) * 100
            with urllib.request.urlopen(f"{base}/api/stats", timeout=10) as reply:
                server = json.loads(reply.read())  # its last minute: the measured stage
            out = summary(stage, stored_check(db, stage), cpu)
            out["server_loop_lag_p99_ms"] = server["loop_lag"]["p99_ms"]
            out["server_loop_lag_max_ms"] = server["loop_lag"]["max_ms"]
            out["commit_p99_ms"] = server["commit"]["p99_ms"]
            out["server_full_gc"] = server.get("full_gc")
            out["server_rss_mib"] = rss_mib(proc.pid)
            out["load_average"] = round(os.getloadavg()[0], 2)
            if args.json:
                print(json.dumps(out), flush=True)
            else:
                print(f"{tables:>6} {out['actions_per_s']:>9} {out['messages_per_s']:>8} "
                      f"{out['p50_ms']:>7} {out['p99_ms']:>7} {out['max_ms']:>7} "
                      f"{out['errors'] + out['lost_connections']:>6} "
                      f"{out['unanswered_actions'] + max(0, out['tables_stored_wrong']):>5} "
                      f"{out['server_cpu_percent']:>9}% "
                      f"{out['server_loop_lag_p99_ms']:>11} ms "
                      f"{out['client_loop_lag_p99_ms']:>11} ms "
                      f"{out['commit_p99_ms']:>7} ms", flush=True)
                for sample in out["error_samples"]:
                    print("   error:", sample)
            if out["p99_ms"] > LIMIT_MS:
                break
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
