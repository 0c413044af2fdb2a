"""``handfoot play`` from the command line: what it refuses before a game starts (a record
file it could not write, no terminal) and the records it carries on (any valid one)."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from handfoot.cli.common import UserError
from handfoot.cli.main import build_parser, main
from handfoot.cli.play import build_session, check_save_path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RECORDS = sorted(EXAMPLES.glob("*.json"))


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_an_unwritable_save_path_is_refused_before_the_game_starts(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    started = []
    monkeypatch.setattr("handfoot.tui.app.PlayApp.run", lambda self: started.append(self))
    monkeypatch.setattr("sys.stdin", _Terminal())
    monkeypatch.setattr("sys.stderr", _Terminal())
    assert main(["play", "--save", "/proc/nope/x.json", "--bots", "random"]) == 2
    err = sys.stderr.getvalue()  # type: ignore[attr-defined]
    assert err.count("\n") == 1 and "cannot save the game to /proc/nope/x.json" in err
    assert started == []


def test_a_folder_as_save_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="is a folder"):
        check_save_path(tmp_path)
    check_save_path(tmp_path / "new" / "game.json")  # a new folder is made: fine
    assert (tmp_path / "new").is_dir() and list((tmp_path / "new").iterdir()) == []


def test_play_without_a_terminal_stops_at_once(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--bots", "random", "--save", str(tmp_path / "g.json")]) == 2
    err = capsys.readouterr().err
    assert "needs a terminal" in err and "standard input" in err and err.count("\n") == 1


def test_play_with_input_from_dev_null_is_a_real_process_that_stops(tmp_path: Path) -> None:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "handfoot", "play", "--bots", "random",
                           "--save", str(tmp_path / "g.json")], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "needs a terminal" in done.stderr
    assert done.stdout == "" and "\x1b[" not in done.stderr  # no screen drawn into the pipe
    assert time.monotonic() - start < 30


@pytest.mark.parametrize("record", RECORDS, ids=[p.name for p in RECORDS])
def test_resume_carries_on_every_example_record(record: Path, tmp_path: Path) -> None:
    # The examples name their seats West, North, East, South: seat names, not bots.
    save = tmp_path / "game.json"
    args = build_parser().parse_args(["play", "--resume", str(record), "--save", str(save),
                                      "--bots", "heuristic"])
    s = build_session(args)
    assert s.human == 0 and sorted(s.bots) == [1, 2, 3]
    assert {type(b).__name__ for b in s.bots.values()} == {"HeuristicBot"}
    assert s.log.lines[-1].startswith("resumed after")
    for _ in range(30):  # the bots carry on up to the person's move (or the game's end)
        if s.human_to_act or s.game.over:
            break
        s.bot_step()
    assert s.human_to_act or s.game.over


def test_resuming_a_scenario_never_writes_over_it(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    example = EXAMPLES / "hf-first-meld-105.json"
    before = example.read_text(encoding="utf-8")
    s = build_session(build_parser().parse_args(["play", "--resume", str(example),
                                                 "--bots", "heuristic"]))
    assert s.save_path.parent == tmp_path / "handfoot" / "games"
    assert s.save_path.name.startswith("hf-first-meld-105-resumed-")
    s.save()
    assert example.read_text(encoding="utf-8") == before
    assert s.save_path.is_file()


def test_resume_keeps_the_bots_a_record_names(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    args = build_parser().parse_args(["play", "--bots", "basic,random,heuristic", "--seed", "3",
                                      "--save", str(save)])
    s = build_session(args)
    s.save()
    again = build_session(build_parser().parse_args(["play", "--resume", str(save)]))
    assert [type(again.bots[i]).__name__ for i in (1, 2, 3)] == ["BasicBot", "RandomBot",
                                                                "HeuristicBot"]
    assert again.save_path == save  # its own record: carried on in the same file


def test_the_search_bot_plays_a_scenario_dealt_from_part_of_a_shoe() -> None:
    # No world can be sampled for such a deal: the bot falls back on the heuristic's plan.
    args = build_parser().parse_args(["play", "--resume",
                                      str(EXAMPLES / "hf-first-meld-105.json"),
                                      "--save", os.devnull])
    s = build_session(args)
    assert {type(b).__name__ for b in s.bots.values()} == {"SearchBot"}
    for _ in range(30):
        if s.human_to_act or s.game.over:
            break
        s.bot_step()
    assert s.human_to_act or s.game.over


@pytest.mark.slow
def test_resume_an_example_in_a_real_terminal(tmp_path: Path) -> None:
    copy = tmp_path / "r.json"
    copy.write_text((EXAMPLES / "hf-worked-round-1935.json").read_text(encoding="utf-8"),
                    encoding="utf-8")
    pid, fd = pty.fork()
    if pid == 0:  # the child: handfoot play on the terminal
        os.environ.update(TERM="xterm-256color", COLUMNS="100", LINES="30")
        os.execvp(sys.executable, [sys.executable, "-m", "handfoot", "play", "--resume",
                                   str(copy), "--pace", "0"])
    screen = b""
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and b"Game over" not in screen:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                screen += os.read(fd, 65536)
            except OSError:
                break
    os.write(fd, b"\x11")  # ctrl+q: quit
    time.sleep(1)
    with_status = os.waitpid(pid, os.WNOHANG)
    if with_status == (0, 0):
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    text = screen.decode("utf-8", "replace")
    assert "Game over" in text and "unknown bot" not in text and "Traceback" not in text
