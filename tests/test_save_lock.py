"""One save file, one game: ``handfoot play`` holds a lock on the file its game is saved to,
a second session is refused in one line naming the first, and a killed holder blocks no one
(issue 26: two ``play --resume g.json`` each dropped the other's moves)."""

from __future__ import annotations

import io
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from handfoot.cli.main import main
from handfoot.files.lock import FileInUse, SaveLock, lock_path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
ENV.pop("HANDFOOT_DEBUG", None)

# A real process that holds the lock as handfoot play does, until its standard input closes.
HOLDER = ("import sys; from pathlib import Path; from handfoot.files.lock import SaveLock\n"
          "SaveLock.acquire(Path(sys.argv[1])); print('held', flush=True); sys.stdin.read()")


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A game handfoot play saved, so resuming it saves to it again."""
    from handfoot.presets import preset
    from handfoot.tui.session import Session

    path = tmp_path / "g.json"
    Session.new(preset("hand-and-foot"), 5, ["basic"], save_path=path).save()
    return path


def _holder(path: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=ENV)
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def _play(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["play", "--resume", str(path)])  # no terminal: stops after the lock
    return code, capsys.readouterr().err


def test_a_lock_held_by_another_process_names_it_and_dies_with_it(saved: Path) -> None:
    holder = _holder(saved)
    try:
        with pytest.raises(FileInUse, match=f"g.json is in use by another handfoot, process "
                           f"{holder.pid};"):
            SaveLock.acquire(saved)
    finally:
        holder.send_signal(signal.SIGKILL)  # no clean-up runs: the lock file stays behind
        holder.wait()
    assert lock_path(saved).exists()
    lock = SaveLock.acquire(saved)
    assert lock.held and lock_path(saved).read_text().strip() == str(os.getpid())
    lock.release()


# The terminal game's modules load first: about two seconds, so in the full run only.
@pytest.mark.slow
def test_a_second_session_is_refused_naming_the_first_and_a_killed_one_blocks_nothing(
        saved: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    before = saved.read_bytes()
    holder = _holder(saved)
    try:
        code, err = _play(saved, capsys)
        assert code == 2 and err.count("\n") == 1, err
        assert err.startswith(f"handfoot: error: {saved} is in use by another handfoot, "
                              f"process {holder.pid}")
        assert saved.read_bytes() == before
    finally:
        holder.kill()  # SIGKILL: no clean-up runs, the lock file stays behind
        holder.wait()
    assert lock_path(saved).exists()
    code, err = _play(saved, capsys)
    assert code == 2 and "in use" not in err and "needs a terminal" in err, err
    assert not lock_path(saved).exists()  # let go of when the command ends


def test_the_lock_is_let_go_of_and_a_saved_elsewhere_game_is_not_blocked(
        saved: Path, tmp_path: Path) -> None:
    lock = SaveLock.acquire(saved)
    with pytest.raises(FileInUse, match=f"process {os.getpid()}"):
        SaveLock.acquire(saved)  # another open of the file: refused even in one process
    other = SaveLock.acquire(tmp_path / "h.json")  # another file: no conflict
    lock.release()
    other.release()
    again = SaveLock.acquire(saved)
    assert again.held
    again.release()
    assert not SaveLock.acquire(Path(os.devnull)).held  # no game in a device to lose


@pytest.mark.slow
def test_real_play_sessions_in_terminals(saved: Path) -> None:
    """The real thing: handfoot play in a terminal holds the file; a second handfoot play
    is refused; once the first is killed with SIGKILL, the second gets past the lock."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: handfoot play on the terminal, the bots paced slowly
        os.environ.update(TERM="xterm-256color", COLUMNS="100", LINES="30")
        os.execvpe(sys.executable, [sys.executable, "-m", "handfoot", "play", "--resume",
                                    str(saved), "--pace", "5"], ENV)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not lock_path(saved).exists():
            select.select([fd], [], [], 0.2)
            try:
                os.read(fd, 65536)
            except OSError:
                break
        assert lock_path(saved).exists()
        time.sleep(0.5)  # the process id is written just after the lock is taken
        second = subprocess.run([sys.executable, "-m", "handfoot", "play", "--resume",
                                 str(saved)], stdin=subprocess.DEVNULL, capture_output=True,
                                text=True, timeout=60, env=ENV)
        assert second.returncode == 2
        assert second.stderr == (f"handfoot: error: {saved} is in use by another handfoot, "
                                 f"process {pid}; finish that game first, or save this one "
                                 "elsewhere with --save FILE\n")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
    third = subprocess.run([sys.executable, "-m", "handfoot", "play", "--resume", str(saved)],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=60, env=ENV)
    assert third.returncode == 2 and "needs a terminal" in third.stderr, third.stderr


def test_the_next_game_at_the_table_moves_the_lock_to_its_own_file(saved: Path) -> None:
    from handfoot.cli import play
    from handfoot.presets import preset
    from handfoot.tui.session import Session

    session = Session.new(preset("hand-and-foot"), 5, ["basic"], save_path=saved)
    play.hold_save_file(saved)
    try:
        following = play.next_game(session)
        assert following.save_path.parent == saved.parent and following.save_path != saved
        assert not lock_path(saved).exists()
        with pytest.raises(FileInUse):
            SaveLock.acquire(following.save_path)
    finally:
        play.hold_save_file(None)
    assert not lock_path(following.save_path).exists()
