"""A real server on loopback for the tests: uvicorn in a thread, its own event loop, a real
database, and clients speaking the protocol over real websockets."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

from handfoot.actions import parse_action
from handfoot.bots.heuristic import HeuristicBot
from handfoot.rules import Rules
from handfoot.server.app import create_app
from handfoot.server.client import ClientError, TableClient, http_json
from handfoot.server.protocol import MAX_TRANSPORT_FRAME, Limits
from handfoot.views import SeatView


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    def __init__(self, db: str, bot_workers: int = 0, idle_unload: float = 600.0,
                 limits: Limits | None = None, port: int | None = None,
                 clock: Any = None) -> None:
        """``port``: a restarted server on the port of the one before (the pages' stored
        seat tokens belong to its address); ``clock``: the turn limits' clock (clock.py)."""
        self.db = db
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # Scripted clients act faster than people: no rate limit unless a test sets one.
        self.app = create_app(db, bot_workers=bot_workers, idle_unload=idle_unload,
                              limits=limits or Limits(rate=1e6, burst=1e6), clock=clock)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=MAX_TRANSPORT_FRAME, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> None:
        # The server's thread and the test's clients share the interpreter: hand the GIL over
        # sooner than every 5 ms, or each message waits for the other side's time slice.
        sys.setswitchinterval(1e-4)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)

    @property
    def hall(self) -> Any:
        return self.app.state.hall

    def create(self, **body: Any) -> dict[str, Any]:
        out: dict[str, Any] = http_json(f"{self.base}/api/tables", body)
        return out

    def ws(self, table: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{table}"


@contextmanager
def running_server(db: str, **options: Any) -> Iterator[Server]:
    server = Server(db, **options)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def seat_view(client: TableClient) -> SeatView:
    """The client's view as the engine's SeatView (the wire mapping plus the table's rules)."""
    assert client.view is not None and client.table is not None
    return SeatView.from_mapping({**client.view, "rules": client.table["rules"]})


def rules_of(client: TableClient) -> Rules:
    assert client.table is not None
    return Rules.from_mapping(client.table["rules"])


def heuristic_choice(client: TableClient, bot: HeuristicBot | None = None) -> str:
    """What the heuristic bot would do from the client's wire view and legal list."""
    legal = [parse_action(t) for t in client.legal]
    return (bot or HeuristicBot(seed=1)).choose(seat_view(client), legal).text


async def drain(client: TableClient, seconds: float = 0.05) -> list[dict[str, Any]]:
    """Every message that arrives within ``seconds`` of silence."""
    out = []
    while True:
        try:
            out.append(await client.recv(seconds))
        except TimeoutError:
            return out


class ServerProcess:
    """The real ``handfoot serve`` in its own process (the server and the test's clients then
    run on two cores at once)."""

    def __init__(self, db: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "handfoot", "serve", "--port", str(self.port), "--db", db,
             "--rate", "100000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while True:
            try:
                http_json(f"{self.base}/api/info", timeout=1)
                return
            except ClientError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                    self.proc.kill()
                    raise RuntimeError(f"handfoot serve did not start: {err}") from None
                time.sleep(0.1)

    def create(self, **body: Any) -> dict[str, Any]:
        out: dict[str, Any] = http_json(f"{self.base}/api/tables", body)
        return out

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def assert_replays(text: str, folder: Path) -> None:
    """The exported record, written to a file, passes ``handfoot replay`` in a real process."""
    path = folder / "game.json"
    path.write_text(text, encoding="utf-8")
    replay = subprocess.run([sys.executable, "-m", "handfoot", "replay", str(path)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "replay matches the record" in replay.stdout
