"""The tables' storage, the same tests against a real SQLite file and a real PostgreSQL server
(started on loopback by the ``postgres_url`` fixture): tables, seats, games kept as the pieces
of their records, undo, and a whole game through the server on each."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from handfoot.bots.heuristic import HeuristicBot
from handfoot.cli.main import main as cli
from handfoot.presets import preset
from handfoot.server.client import TableClient
from handfoot.server.database import StorageError
from handfoot.server.keeping import GameKeeper, header_mapping, record_mapping
from handfoot.server.storage import ActionRow, SeatRow, Storage, TableRow
from handfoot.views import view
from server_helpers import heuristic_choice, running_server

_ids = iter(range(10**6))


def _table_row(name: str = "t") -> TableRow:
    rules = preset("hand-and-foot")
    return TableRow(f"{name}{next(_ids)}", "hosthash", "Friday", "", rules.to_mapping(),
                    {"hints": False}, "lobby", 0, 0)


def test_tables_seats_games_and_undo_are_kept(database: str) -> None:
    async def go() -> None:
        storage = await Storage.open(database)
        try:
            row = _table_row()
            await storage.create_table(row, [SeatRow(s, "", None, "heuristic")
                                             for s in range(4)])
            await storage.set_seat(row.id, 2, "Bob", "seathash")
            stored = await storage.load(row.id)
            assert stored is not None and stored.game is None
            assert [s.name for s in stored.seats] == ["", "", "Bob", ""]
            assert stored.seats[2].token_hash == "seathash"
            assert stored.row.rules == row.rules and stored.row.status == "lobby"
            with pytest.raises(StorageError):  # the same table twice
                await storage.create_table(row, [])

            rules = preset("hand-and-foot")
            names = ["Ann", "Heuristic 2", "Bob", "Heuristic 4"]
            keeper = GameKeeper.new(rules, 7, names, "test")
            header = header_mapping(rules, 7, names, [0, 1, 0, 1], "test")
            await storage.start_game(row.id, 1, header,
                                     [(r, d.to_mapping()) for r, d in keeper.deals()], 0, names)
            bot = HeuristicBot(seed=3)
            version = 0
            while keeper.game.round_no == 1 and not keeper.game.over:
                g = keeper.game
                action = bot.choose(view(g, g.actor), g.legal_actions())
                applied = keeper.apply(g.actor, action)
                version += 1
                await storage.append(row.id, 1, ActionRow(
                    keeper.actions - 1, applied.round, applied.seat, action.text, version,
                    "bot"), [(r, d.to_mapping()) for r, d in applied.new_deals], g.over)
            stored = await storage.load(row.id)
            assert stored is not None and stored.game is not None
            assert stored.row.status == "playing" and stored.row.version == version
            assert [r for r, _ in stored.game.deals] == [1, 2]  # round 2 has begun
            assert len(stored.game.actions) == version
            again, steps = GameKeeper.rebuild(record_mapping(
                stored.game.header, stored.game.deals,
                [(a.round, a.seat, a.action) for a in stored.game.actions]))
            assert len(steps) == version
            for seat in range(4):
                assert view(again.game, seat) == view(keeper.game, seat)
            # Undo: the last actions leave the record, the version still goes up.
            await storage.truncate(row.id, 1, version - 2, version + 1)
            stored = await storage.load(row.id)
            assert stored is not None and stored.game is not None
            assert len(stored.game.actions) == version - 2
            assert stored.row.version == version + 1
            listed = await storage.host_tables("hosthash")
            assert row.id in {t["table"] for t in listed}
            summary = await storage.summary(row.id)
            assert summary is not None and summary["seats"][0] == "Ann"
            assert await storage.load("nosuchtable") is None
        finally:
            await storage.close()

    asyncio.run(go())


def test_a_commit_is_seen_by_a_new_connection(database: str) -> None:
    """What one process committed is there for the next (a restart, another process)."""
    async def go() -> None:
        first = await Storage.open(database)
        row = _table_row("c")
        await first.create_table(row, [SeatRow(0, "Ann", None, "basic"),
                                       SeatRow(1, "", None, "basic")])
        second = await Storage.open(database)
        try:
            stored = await second.load(row.id)
            assert stored is not None and stored.seats[0].name == "Ann"
        finally:
            await first.close()
            await second.close()

    asyncio.run(go())


def test_a_whole_game_through_the_server(database: str, tmp_path: Path) -> None:
    with running_server(database) as server:
        made = server.create(rules={"preset": "hand-and-foot", "set": {"rounds": 1}},
                             options={"bot_pace": 0})

        async def go() -> int:
            ann = await TableClient.connect(made["websocket"], host_token=made["host_token"])
            await ann.join(0, "Ann")
            await ann.send({"type": "start"})
            sent = -1
            while ann.view is None or ann.view["phase"] != "game-over":
                await ann.recv(20)
                if ann.legal and sent != ann.version:
                    sent = ann.version
                    await ann.send({"type": "act", "version": ann.version,
                                    "action": heuristic_choice(ann)})
            await ann.close()
            return ann.version

        version = asyncio.run(go())
        with urllib.request.urlopen(f"{server.base}/api/tables/{made['table']}/record",
                                    timeout=10) as r:
            text = r.read().decode()
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    assert cli(["replay", str(path)]) == 0
    record: dict[str, Any] = json.loads(text)
    assert sum(len(r["actions"]) for r in record["rounds"]) == version

