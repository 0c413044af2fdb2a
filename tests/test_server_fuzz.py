"""Fuzzing what clients send: any frame (JSON or not, any fields, any size, binary) gets an
answer that names what was wrong, never a server error, and never disturbs the table: after
the fuzzing, the table in memory is exactly the one its stored record rebuilds."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from handfoot.server.protocol import MESSAGE_TYPES
from handfoot.views import view
from scenario import examples
from server_helpers import Server

ANSWERS = {"error", "refused", "update", "table", "state", "catch_up", "chat", "hint", "pong",
           "welcome", "joined"}
# Closing is the answer only to these: the protocol version, a frame over the transport limit.
CLOSE_CODES = {4002, 1009, 1008}

ACTIONS = ["draw", "take-pile", "take-pile with 2", "discard K", "discard JK", "meld K K K",
           "add K: 2", "lay K K K, 7 7 2", "knock", "retract", "ask", "answer yes", "stop",
           "lay", "meld", "discard", "take-pile with 9", "meld 3 3 3", "draw draw"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)

fields = {
    "id": st.integers() | st.text(max_size=80) | json_values,
    "version": st.just("CURRENT") | st.integers(-5, 2**40) | json_values,
    "last_version": st.just("CURRENT") | st.integers(-5, 2**40) | json_values,
    "action": st.sampled_from(ACTIONS) | st.text(max_size=60) | json_values,
    "seat": st.integers(-2, 9) | json_values,
    "name": st.text(max_size=40) | json_values,
    "text": st.text(max_size=300) | json_values,
    "protocol": st.integers(0, 3) | json_values,
    "seat_token": st.text(max_size=120) | json_values,
    "host_token": st.text(max_size=120) | json_values,
    "options": st.fixed_dictionaries({}, optional={
        "hints": st.booleans() | json_values, "seat_hold": st.floats(-10, 5000) | json_values,
        "bot_pace": st.floats(-1, 20) | json_values}) | json_values,
    "bots": st.sampled_from(["search", "oracle", "heuristic", ""]) | json_values,
    "extra": json_values,
}

messages = st.fixed_dictionaries(
    {"type": st.sampled_from([*MESSAGE_TYPES, "bogus", "ACT", ""]) | json_values},
    optional=fields)

frames = st.one_of(
    messages.map(lambda m: ("json", m)),
    json_values.map(lambda v: ("text", json.dumps(v))),
    st.text(max_size=300).map(lambda t: ("text", t)),
    st.integers(4000, 70000).map(lambda n: ("text", json.dumps({"type": "chat",
                                                                "text": "x" * n}))),
    st.binary(max_size=64).map(lambda b: ("bytes", b)),
)


class Fuzzer:
    """A seated client at a two-seat table whose bot is slow to move."""

    def __init__(self, server: Server) -> None:
        made = server.create(rules={"preset": "hand-and-foot", "players": 2},
                             options={"bot_pace": 10})
        self.server, self.table = server, made["table"]
        self.url = made["websocket"]
        self.ws = self._open()
        self.ws.send(json.dumps({"type": "hello", "protocol": 1,
                                 "host_token": made["host_token"]}))
        self.ws.send(json.dumps({"type": "join", "seat": 0, "name": "Fuzz"}))
        self.ws.send(json.dumps({"type": "start"}))
        self.token = ""
        self.version = 0
        self.replies(1)

    def replies(self, ping: int) -> list[dict[str, Any]]:
        """Everything the server sends until the pong for ``ping``."""
        self.ws.send(json.dumps({"type": "ping", "id": f"ping{ping}"}))
        out = []
        while True:
            m = json.loads(self.ws.recv(timeout=10))
            if m.get("type") == "joined":
                self.token = m["seat_token"]
            if "version" in m and m.get("type") in ("state", "update", "table"):
                self.version = m["version"]
            if m.get("type") == "pong" and m.get("reply_to") == f"ping{ping}":
                return out
            out.append(m)

    def _open(self) -> ClientConnection:
        # Entered as a context manager, as the library asks; closed with the module's server.
        ws: ClientConnection = connect(self.url).__enter__()
        return ws

    def reconnect(self) -> None:
        self.ws = self._open()
        self.ws.send(json.dumps({"type": "hello", "protocol": 1, "seat_token": self.token}))


@pytest.fixture(scope="module")
def fuzzer(server: Server) -> Fuzzer:
    return Fuzzer(server)


def _prepare(frame: tuple[str, Any], version: int) -> str | bytes:
    """The frame to send: text (a str) or binary (bytes)."""
    kind, value = frame
    if kind == "json":
        return json.dumps({k: (version if v == "CURRENT" else v) for k, v in value.items()})
    out: str | bytes = value
    return out


@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(batch=st.lists(frames, min_size=1, max_size=4))
def test_any_frame_is_answered_and_never_disturbs_the_table(fuzzer: Fuzzer,
                                                            batch: list[tuple[str, Any]]) -> None:
    for i, frame in enumerate(batch):
        value = _prepare(frame, fuzzer.version)
        try:
            fuzzer.ws.send(value)
            got = fuzzer.replies(i)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            assert code in CLOSE_CODES, f"closed with {code} after {value!r:.200}"
            fuzzer.reconnect()
            fuzzer.replies(i)
            continue
        for m in got:
            assert m.get("type") in ANSWERS, m
            if m["type"] == "error":
                assert m["code"] != "internal", (value, m)
                assert m["message"]


def test_after_fuzzing_the_table_is_what_its_record_rebuilds(server: Server,
                                                             fuzzer: Fuzzer) -> None:
    import asyncio

    from handfoot.server.table import Table

    async def rebuilt() -> Table:
        stored = await server.hall.storage.load(fuzzer.table)
        assert stored is not None
        return Table(stored, server.hall.storage, server.hall.runner)

    live = server.hall.tables[fuzzer.table]
    fresh = asyncio.run_coroutine_threadsafe(rebuilt(), server.hall.loop).result(10)
    assert fresh.version == live.version
    game, again = live.keeper.game, fresh.keeper.game
    for seat in range(game.rules.players):
        assert view(game, seat) == view(again, seat)
