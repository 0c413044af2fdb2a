"""``handfoot play --join``: the real command, as a terminal player at a web table, typed at
through its standard input; run again, it takes the same seat back."""

from __future__ import annotations

import os
import queue
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from handfoot.cli.main import main as cli
from handfoot.server.client import ClientError, parse_invite
from server_helpers import Server


class Terminal:
    """``handfoot play --join ...`` with a pipe for its keyboard and one for its screen."""

    def __init__(self, args: list[str], data: Path) -> None:
        env = dict(os.environ, XDG_DATA_HOME=str(data))
        self.proc = subprocess.Popen([sys.executable, "-m", "handfoot", "play", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def type(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def until(self, test: str, timeout: float = 30.0) -> str:
        """The first line (from now) that starts with ``test``."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line starting {test!r}; last lines:\n"
                                     + "\n".join(self.seen[-20:])) from None
            self.seen.append(line)
            if line.startswith(test):
                return line

    def close(self) -> int:
        self.type("quit")
        try:
            return self.proc.wait(20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def choose(legal_line: str) -> str:
    legal = legal_line.removeprefix("legal: ").split(" | ")
    for prefix in ("draw", "meld", "add", "discard"):
        for action in legal:
            if action.startswith(prefix):
                return action
    return legal[0]


def test_a_terminal_player_at_a_web_table(server: Server, tmp_path: Path) -> None:
    made = server.create(rules={"preset": "hand-and-foot", "set": {"rounds": 1}},
                         options={"bot_pace": 0, "hints": True})
    term = Terminal(["--join", made["invite"], "--plain", "--name", "Tess", "--seat", "0",
                     "--host-token", made["host_token"]], tmp_path)
    try:
        term.until("handfoot: seated at")
        term.type("start")
        moves, version, undone = 0, "", False
        while moves < 12:
            header = term.until("[version ")
            line = term.until("legal: ")
            if header == version:  # the same prompt again (after an error): already acted
                continue
            version = header
            if moves == 0:
                term.type("discard XYZ")  # not an action: the server says why
                term.until("error: ")
                term.type("hint")
                term.until("hint: the strong bot would")  # a model fits the table
                term.type("say hello <all>")
                term.until("Tess says: hello <all>")
            action = choose(line)
            term.type(action)
            if action.startswith("meld") and not undone:
                undone = True
                assert term.until("legal: ").endswith(" | undo")  # the meld is made: undo it
                term.type("undo")
                term.until("You take back a step")
            moves += 1
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    with sqlite3.connect(server.db) as db:  # the stored record: the terminal's moves are in it
        (mine,) = db.execute("SELECT count(*) FROM web_actions WHERE table_id = ? AND seat = 0"
                             " AND driver = 'person'", (made["table"],)).fetchone()
    assert mine >= 10, "\n".join(term.seen[-60:])
    # The seat token was kept: the same command without a seat takes seat 0 back.
    again = Terminal(["--join", made["invite"], "--plain"], tmp_path)
    try:
        again.until("handfoot: back at")
        assert (tmp_path / "handfoot" / "seats.json").stat().st_mode & 0o077 == 0
    finally:
        again.close()


def test_join_refuses_what_is_not_an_invite(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ClientError):
        parse_invite("not a url")
    invite = parse_invite("https://cards.example.org/hf/t/abc123")
    assert invite.websocket == "wss://cards.example.org/hf/ws/abc123"
    assert cli(["play", "--join", "http://x", "--plain"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("handfoot: error:") and "invite link" in err

