"""The score file as people meet it: a real SQLite file that another process may be writing,
that may be some other program's database, and typed answers that must never be lost."""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from handfoot.cli.main import main
from handfoot.scorekeeper.store import APPLICATION_ID, ScoreFileBusy, Store

TEAMS = ["--team", "Ann & Bob", "--team", "Cy & Di"]
# One round of hand-and-foot by questions: Ann & Bob a clean canasta and 100 points, nobody
# out, every other answer its default.
ANSWERS = "\n".join(["1", "", "", "", "100", "no"] + [""] * 30) + "\n"

HOLDER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")  # the write lock, as a writer in the middle of its work holds it
db.execute("INSERT INTO games (name, created, rules, teams, players) "
           "SELECT name, created, rules, teams, players FROM games")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("ROLLBACK")
print("released", flush=True)
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def new_game(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, _, err = run(capsys, "score", "new", *TEAMS, "--db", str(db))
    assert code == 0, err


class Holder:
    """A second real process holding the score file's write lock for ``seconds``."""

    def __init__(self, db: Path, seconds: float) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), str(seconds)],
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "locked"

    def __enter__(self) -> Holder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.kill()
        self.proc.wait()

    def wait(self) -> None:
        self.proc.wait(timeout=30)


def test_new_score_files_use_a_write_ahead_log_and_carry_handfoots_mark(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_reading_commands_work_while_another_process_holds_the_write_lock(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    with Holder(db, 20):
        start = time.monotonic()
        for argv in (["list"], ["show", "1"], ["history", "1"], ["template", "1"],
                     ["export", "1", "--csv", str(tmp_path / "x.csv")]):
            code, out, err = run(capsys, "score", *argv, "--db", str(db), "--wait", "1")
            assert code == 0, (argv, err)
        assert time.monotonic() - start < 10  # no waiting for the writer
        code, out, _ = run(capsys, "score", "list", "--db", str(db))
        assert "Ann & Bob vs Cy & Di" in out


def test_add_waits_for_the_lock_then_keeps_the_answers_in_a_draft(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    with Holder(db, 30):
        monkeypatch.setattr("sys.stdin", io.StringIO(ANSWERS))
        start = time.monotonic()
        code, _, err = run(capsys, "score", "add", "1", "--db", str(db), "--wait", "1")
        assert time.monotonic() - start >= 1  # it waited
    assert code == 2 and "Traceback" not in err
    assert "is locked by another program" in err and "waiting up to 1 s" in err
    assert "nothing was saved" in err
    drafts = list(tmp_path.glob("draft-game1-round1*.toml"))
    assert len(drafts) == 1 and str(drafts[0]) in err
    assert f"handfoot score add 1 --file {drafts[0]}" in err
    # Nothing half-written: the round is not in the game.
    code, out, _ = run(capsys, "score", "show", "1", "--db", str(db), "--json")
    assert json.loads(out)["rounds"] == []
    # The lock is gone: the draft is entered as it is, and removed.
    code, out, err = run(capsys, "score", "add", "1", "--file", str(drafts[0]), "--db",
                         str(db))
    assert code == 0, err
    assert "clean canastas x1" in out and "removed" in out
    assert not drafts[0].exists()
    code, out, _ = run(capsys, "score", "show", "1", "--db", str(db), "--json")
    assert json.loads(out)["totals"] == [600, 0]


@pytest.mark.slow  # holds a lock for 1.5 s; the draft test above waits in the fast run
def test_add_saves_once_the_other_process_lets_go(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    holder = Holder(db, 1.5)
    try:
        monkeypatch.setattr("sys.stdin", io.StringIO(ANSWERS))
        code, out, err = run(capsys, "score", "add", "1", "--db", str(db), "--wait", "30")
    finally:
        holder.wait()
    assert code == 0, err
    assert "waiting up to 30 s" in err and "Round 1 of game 1 saved" in out
    assert not list(tmp_path.glob("draft-*"))


def test_a_lock_held_when_a_command_starts_is_reported_as_a_lock(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # A score file from before the write-ahead log: there a writer's lock blocks readers.
    db = tmp_path / "old.db"
    new_game(capsys, db)
    raw = sqlite3.connect(db)
    raw.execute("PRAGMA journal_mode = DELETE")
    raw.close()
    with Holder(db, 20):
        code, _, err = run(capsys, "score", "list", "--db", str(db), "--wait", "0.5")
    assert code == 2
    assert "is locked: another program is writing to it" in err
    assert "not a handfoot score file" not in err
    # Free again: it opens, and is moved to the write-ahead log on the way.
    code, out, _ = run(capsys, "score", "list", "--db", str(db))
    assert code == 0 and "Ann & Bob" in out
    assert sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_another_programs_sqlite_database_is_refused_and_left_as_it_was(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    other = tmp_path / "photos.db"
    raw = sqlite3.connect(other)
    raw.execute("CREATE TABLE albums (id INTEGER PRIMARY KEY, title TEXT)")
    raw.execute("INSERT INTO albums (title) VALUES ('summer')")
    raw.commit()
    raw.close()
    before = _digest(other)
    for argv in (["new", *TEAMS], ["list"], ["show", "1"]):
        code, _, err = run(capsys, "score", *argv, "--db", str(other))
        assert code == 2 and "another SQLite database (tables: albums)" in err
    assert _digest(other) == before
    tables = {r[0] for r in sqlite3.connect(other).execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"albums"}


def test_a_file_marked_by_another_program_is_refused(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    marked = tmp_path / "app.db"
    raw = sqlite3.connect(marked)
    raw.execute("PRAGMA application_id = 1234")
    raw.close()
    code, _, err = run(capsys, "score", "new", *TEAMS, "--db", str(marked))
    assert code == 2 and "another program (application id 0x4d2)" in err


def test_a_score_file_that_cannot_be_written_keeps_the_answers_too(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # (As root, file permissions cannot make SQLite refuse; the store's own refusal stands in.)
    db = tmp_path / "s.db"
    new_game(capsys, db)

    def refuse(self: Store, work: object, wait: float | None = None) -> None:
        raise ScoreFileBusy(f"cannot write to the score file {self.path} (disk I/O error); "
                            "nothing was saved")

    monkeypatch.setattr(Store, "_write", refuse)
    monkeypatch.setattr("sys.stdin", io.StringIO(ANSWERS))
    code, _, err = run(capsys, "score", "add", "1", "--db", str(db))
    assert code == 2 and "disk I/O error" in err
    draft = next(tmp_path.glob("draft-game1-round1*.toml"))
    text = draft.read_text(encoding="utf-8")
    assert text.startswith("# handfoot score draft: round 1 of game 1")
    assert 'name = "Ann & Bob"' in text and "melded_points = 100" in text


def test_a_second_draft_never_overwrites_the_first(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    bad = ANSWERS.replace("100\n", "10\n", 1)  # 10 points cannot hold a clean canasta
    for _ in range(2):
        monkeypatch.setattr("sys.stdin", io.StringIO(bad))
        code, _, err = run(capsys, "score", "add", "1", "--db", str(db))
        assert code == 2 and "fewer than the 1 canasta alone must hold" in err
    assert sorted(p.name for p in tmp_path.glob("draft-*")) == [
        "draft-game1-round1-2.toml", "draft-game1-round1.toml"]


def test_a_round_file_that_is_not_a_draft_is_never_removed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    mine = tmp_path / "round1.toml"
    mine.write_text('[[teams]]\nname = "Ann & Bob"\ncanastas = { clean = 1 }\n'
                    'melded_points = 100\n[[teams]]\nname = "Cy & Di"\n', encoding="utf-8")
    code, out, err = run(capsys, "score", "add", "1", "--file", str(mine), "--db", str(db))
    assert code == 0, err
    assert mine.exists() and "removed" not in out


class _Keyboard(io.StringIO):
    """A terminal whose person presses Ctrl-C after typing the given lines."""

    def isatty(self) -> bool:
        return True

    def readline(self, size: int = -1) -> str:
        line = super().readline(size)
        if not line:
            raise KeyboardInterrupt
        return line


def test_an_entry_cut_short_by_ctrl_c_keeps_what_was_typed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    monkeypatch.setattr("sys.stdin", _Keyboard("2\n1\n0\n3\n460\n"))  # then Ctrl-C
    code, _, err = run(capsys, "score", "add", "1", "--db", str(db))
    assert code == 130 and "interrupted" in err
    draft = next(tmp_path.glob("draft-game1-round1*.toml"))
    assert str(draft) in err and "answers typed so far" in err
    text = draft.read_text(encoding="utf-8")
    assert "clean = 2" in text and "dirty = 1" in text and "melded_points = 460" in text


def test_sqlites_own_tables_do_not_make_a_score_file_foreign(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    raw = sqlite3.connect(db)
    raw.execute("ANALYZE")  # adds sqlite_stat1
    raw.commit()
    raw.close()
    code, out, err = run(capsys, "score", "list", "--db", str(db))
    assert code == 0 and "Ann & Bob" in out, err


def _keep_a_draft(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                  db: Path) -> Path:
    """A draft of round 1 the scorekeeper wrote because its answers failed the checks."""
    monkeypatch.setattr("sys.stdin", io.StringIO(ANSWERS.replace("100\n", "10\n", 1)))
    code, _, err = run(capsys, "score", "add", "1", "--db", str(db))
    assert code == 2 and "fewer than the 1 canasta alone must hold" in err
    return next(db.parent.glob("draft-game1-round1*.toml"))


def test_a_copy_of_a_draft_the_person_named_is_never_removed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    draft = _keep_a_draft(capsys, monkeypatch, db)
    # The person copies the draft (its draft header and all) to a file of their own and fixes it.
    mine = tmp_path / "r1.toml"
    mine.write_text(draft.read_text(encoding="utf-8").replace("melded_points = 10\n",
                                                               "melded_points = 100\n"),
                    encoding="utf-8")
    code, out, err = run(capsys, "score", "add", "1", "--file", str(mine), "--db", str(db))
    assert code == 0, err
    assert mine.read_text(encoding="utf-8").count("melded_points = 100") == 1  # still there
    # The draft it came from is the scorekeeper's: it is left too, and the person is told of it.
    assert draft.exists() and str(draft) in out and "was removed" not in out


def test_a_draft_entered_from_its_own_path_is_removed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    draft = _keep_a_draft(capsys, monkeypatch, db)
    draft.write_text(draft.read_text(encoding="utf-8").replace("melded_points = 10\n",
                                                               "melded_points = 100\n"),
                     encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # named by a relative path, still the draft's own
    code, out, err = run(capsys, "score", "add", "1", "--file", draft.name, "--db", str(db))
    assert code == 0, err
    assert not draft.exists() and "is entered, so it was removed" in out


def test_a_draft_moved_elsewhere_is_the_persons_and_is_kept(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db)
    draft = _keep_a_draft(capsys, monkeypatch, db)
    (tmp_path / "mine").mkdir()
    moved = tmp_path / "mine" / draft.name  # the same name, in a folder of the person's
    moved.write_text(draft.read_text(encoding="utf-8").replace("melded_points = 10\n",
                                                               "melded_points = 100\n"),
                     encoding="utf-8")
    draft.unlink()
    code, out, err = run(capsys, "score", "add", "1", "--file", str(moved), "--db", str(db))
    assert code == 0, err
    assert moved.exists() and "removed" not in out
