"""The progress bar of ``handfoot simulate`` and ``handfoot arena``: drawn on a real terminal
(a pty), never in a pipe, and never a change to what is printed on stdout."""

from __future__ import annotations

import fcntl
import functools
import io
import os
import pty
import struct
import subprocess
import sys
import termios
import time

import pytest

from handfoot.sim.runner import Progress, run_all

COMMANDS = {
    "simulate": (["simulate", "--games", "3", "--rounds", "1", "--bot", "basic", "--jobs", "1",
                  "--seed", "5", "--no-timing"], "simulate games", "3/3"),
    "arena": (["arena", "--bots", "basic", "random", "--deals", "2", "--rounds", "1",
               "--jobs", "1", "--no-timing"], "arena deals", "2/2"),
}
# Each check starts a real process: one command in a development run, both in the full run.
ONE_COMMAND_FAST = ["arena", pytest.param("simulate", marks=pytest.mark.slow)]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["TERM"] = "xterm-256color"
    return env


def _piped(args: list[str]) -> subprocess.CompletedProcess[str]:
    return _piped_once(tuple(args))


@functools.cache
def _piped_once(args: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "handfoot", *args], capture_output=True,
                          text=True, env=_env(), timeout=120, check=False)


def _stderr_on_a_terminal(args: list[str]) -> tuple[int, str, str]:
    """Runs the command with stderr on a pty (100 columns) and stdout in a pipe."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "handfoot", *args], stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL, env=_env())
    os.close(slave)
    screen = bytearray()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed its end of the terminal
            break
        if not chunk:
            break
        screen += chunk
    os.close(master)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    proc.stdout.close()
    return proc.wait(timeout=30), out, screen.decode(errors="replace")


@pytest.mark.parametrize("command", ONE_COMMAND_FAST)
def test_a_pipe_gets_no_progress_and_the_same_output(command: str) -> None:
    args, _label, _count = COMMANDS[command]
    loud = _piped(args)
    quiet = _piped([*args, "--quiet"])
    assert loud.returncode == 0, loud.stderr
    assert loud.stderr == ""
    assert loud.stdout == quiet.stdout
    assert loud.stdout.strip()


@pytest.mark.parametrize("command", ONE_COMMAND_FAST)
def test_a_terminal_shows_the_bar_and_stdout_is_unchanged(command: str) -> None:
    args, label, count = COMMANDS[command]
    code, out, screen = _stderr_on_a_terminal(args)
    assert code == 0, screen
    assert label in screen
    assert count in screen and "100%" in screen
    assert "━" in screen  # the bar itself
    assert "\x1b[" in screen  # drawn with terminal control sequences
    assert out == _piped(args).stdout  # nothing of the bar on stdout


@pytest.mark.parametrize("command", ONE_COMMAND_FAST)
def test_quiet_draws_nothing_even_on_a_terminal(command: str) -> None:
    args, label, _count = COMMANDS[command]
    code, out, screen = _stderr_on_a_terminal([*args, "--quiet"])
    assert code == 0
    assert label not in screen
    assert out.strip()


def _square(x: int) -> int:
    return x * x


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_counts_every_item_and_stays_silent_off_a_terminal(jobs: int) -> None:
    stream = io.StringIO()
    with Progress("items", 5, stream=stream) as bar:
        assert run_all(_square, [(i,) for i in range(5)], jobs, bar) == [0, 1, 4, 9, 16]
    assert bar.done == 5
    assert not bar.enabled
    assert stream.getvalue() == ""
