"""A crash: the real ``handfoot serve`` process is killed with SIGKILL in the middle of a game
and started again; its clients reconnect by themselves and finish the game, every update they
saw is in the stored record, and ``handfoot replay`` accepts the exported record."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from handfoot.server.client import ClientError, TableClient, http_json
from server_helpers import assert_replays, free_port, heuristic_choice


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "handfoot", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while True:
        try:
            http_json(f"http://127.0.0.1:{port}/api/info", timeout=1)
            return proc
        except ClientError:
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                proc.kill()
                raise RuntimeError(f"handfoot serve did not start: {err}") from None
            time.sleep(0.1)


@pytest.mark.slow
def test_sigkill_mid_game_then_restart_resumes_every_table(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    port = free_port()
    proc = start_server(db, port)
    try:
        made = http_json(f"http://127.0.0.1:{port}/api/tables",
                         {"rules": {"preset": "hand-and-foot", "set": {"rounds": 1}},
                          "options": {"bot_pace": 0}})
        seen: dict[int, str] = {}  # version -> the action every client saw applied
        killed = asyncio.Event()

        def note(m: dict[str, Any]) -> None:
            if m.get("type") == "update" and m["action"] != "undo":
                assert seen.setdefault(m["version"], m["action"]) == m["action"]

        async def play(client: TableClient) -> None:
            client.on_message = note
            sent = -1
            while client.view is None or client.view["phase"] != "game-over":
                if client.legal and sent != client.version:
                    sent = client.version
                    with contextlib.suppress(ClientError):  # the next read reconnects
                        await client.send({"type": "act", "version": client.version,
                                           "action": heuristic_choice(client)})
                try:
                    m = await client.recv(30)
                except ClientError:  # the server went away: reconnect, as a browser would
                    assert killed.is_set()
                    before = client.version
                    await client.reconnect(tries=100)
                    state = await client.until("state", timeout=30)
                    # Nothing seen was lost: the table is at least where the client was.
                    assert state["version"] >= before
                    sent = -1  # an action sent before the crash may never have arrived
                    continue
                if m.get("code") == "too_fast":  # the server's rate limit: slow down
                    await asyncio.sleep(0.3)
                    sent = -1

        async def killer(clients: list[TableClient]) -> None:
            nonlocal proc
            while max(c.version for c in clients) < 40:
                await asyncio.sleep(0.005)
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            killed.set()
            await asyncio.sleep(0.2)
            proc = await asyncio.to_thread(start_server, db, port)

        async def go() -> int:
            ann = await TableClient.connect(made["websocket"], host_token=made["host_token"])
            await ann.join(0, "Ann")
            bob = await TableClient.connect(made["websocket"])
            await bob.join(2, "Bob")
            await ann.send({"type": "start"})
            await asyncio.wait_for(asyncio.gather(play(ann), play(bob), killer([ann, bob])),
                                   300)
            assert killed.is_set()
            return ann.version

        final = asyncio.run(go())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables/{made['table']}"
                                    "/record", timeout=10) as r:
            text = r.read().decode()
    finally:
        proc.kill()
        proc.wait(10)
    assert_replays(text, tmp_path)
    import json

    record = json.loads(text)
    actions = [a for r in record["rounds"] for a in r["actions"]]
    assert len(actions) == final
    for version, action in seen.items():
        assert actions[version - 1][1] == action, f"version {version}"
    assert os.path.getsize(db) > 0
