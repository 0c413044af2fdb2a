"""Several ``handfoot serve`` processes sharing one PostgreSQL database, as docs/DEPLOY.md lays
them out behind a proxy that pins each table to a process by its token.

Two real server processes on one real PostgreSQL server: either may create a table and list a
host's tables (those only touch the database); a table created through one process is played
whole through the other one, the process its token is pinned to; and the first process then
exports the game that the second one played, from the database, and it replays exactly."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from handfoot.server.client import TableClient, http_json
from server_helpers import ServerProcess, assert_replays, heuristic_choice


async def play_whole_game(ws_url: str, host_token: str) -> int:
    """A person at seat 0 and bots elsewhere play one round to the end; the final version."""
    ann = await TableClient.connect(ws_url, host_token=host_token)
    await ann.join(0, "Ann")
    await ann.send({"type": "start"})
    sent = -1
    while ann.view is None or ann.view["phase"] != "game-over":
        if ann.legal and sent != ann.version:
            sent = ann.version
            await ann.send({"type": "act", "version": ann.version,
                            "action": heuristic_choice(ann)})
        m = await ann.recv(30)
        assert m.get("type") not in ("error", "refused"), m
    await ann.close()
    return ann.version


@pytest.mark.slow
def test_two_processes_share_the_database_and_a_table_plays_where_it_is_pinned(
        postgres_url: str, tmp_path: Path) -> None:
    one, two = ServerProcess(postgres_url), ServerProcess(postgres_url)
    try:
        body: dict[str, Any] = {"rules": {"preset": "hand-and-foot", "set": {"rounds": 1}},
                                "options": {"bot_pace": 0}}
        made = one.create(**body)
        host = made["host_token"]
        # The second process creates for the same host: creating only touches the database.
        other = two.create(**body, host_token=host)
        for process in (one, two):
            listed = http_json(f"{process.base}/api/tables", token=host)["tables"]
            assert {t["table"] for t in listed} == {made["table"], other["table"]}

        # The proxy pins the table made through `one` to `two` (its hash may pick any
        # process): `two` loads it from the database and holds it for the whole game.
        final = asyncio.run(play_whole_game(f"ws://127.0.0.1:{two.port}/ws/{made['table']}",
                                            host))
        assert final > 0

        # The process that never held the table exports the game from the database.
        summary = http_json(f"{one.base}/api/tables/{made['table']}")
        assert summary["players"] == 4
        with urllib.request.urlopen(f"{one.base}/api/tables/{made['table']}/record",
                                    timeout=10) as r:
            text = r.read().decode()
    finally:
        one.stop()
        two.stop()
    record = json.loads(text)
    assert sum(len(r["actions"]) for r in record["rounds"]) == final
    assert_replays(text, tmp_path)
