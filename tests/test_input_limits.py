"""Input that is too big or too deep: every file a person names is refused at once when it is
not a regular file or is larger than any such file could be, and text nested thousands deep is
one clear line, never a RecursionError (issue 26)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from handfoot.cli.main import main
from handfoot.files import RECORD, ROUND_FILE, RULES, InputFileError, read_text

ROOT = Path(__file__).resolve().parent.parent
DEEP = 100_000


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("limits") / "s.db"
    assert main(["score", "new", "--db", str(path), "--team", "Ann & Bob", "--team",
                 "Cy & Di"]) == 0
    return str(path)


def _one_error(code: int, err: str) -> str:
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("handfoot: error: "), err
    assert "internal error" not in err and "Traceback" not in err
    return lines[0]


# /dev/zero never ends: read whole, it fills memory.  The commands run in one child process
# under a 1 GB address-space limit, so a regression fails there instead of swapping.
_ZERO_SCRIPT = textwrap.dedent("""
    import contextlib, io, json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    from handfoot.cli.main import main
    out = []
    for argv in json.loads(sys.argv[1]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(argv)
        out.append([code, err.getvalue()])
    print(json.dumps(out))
""")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_dev_zero_is_refused_at_once_by_every_command_that_reads_a_file(
        db: str, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # opened for reading, a pipe waits for a writer: it must not
    commands = [
        ["replay", "/dev/zero"],
        ["play", "--resume", "/dev/zero"],
        ["rules", "show", "/dev/zero"],
        ["rules", "explain", "--rules", "/dev/zero"],
        ["demo", "--rules", "/dev/zero"],
        ["score", "add", "1", "--file", "/dev/zero", "--db", db],
        ["score", "new", "--rules", "/dev/zero", "--db", db],
        ["replay", str(fifo)],
        ["rules", "show", str(fifo)],
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _ZERO_SCRIPT, json.dumps(commands)],
                          capture_output=True, text=True, timeout=60, env=env,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    for argv, (code, err) in zip(commands, json.loads(done.stdout), strict=True):
        line = _one_error(code, err)
        assert "not a regular file" in line, (argv, line)


def test_a_file_larger_than_any_real_one_is_refused_without_reading_it(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Sparse files: their size says "too big" before a byte is read.
    record = tmp_path / "huge.json"
    rules = tmp_path / "huge.toml"
    round_file = tmp_path / "round.toml"
    for path, size in ((record, RECORD.limit + 1), (rules, RULES.limit + 1),
                       (round_file, ROUND_FILE.limit + 1)):
        with path.open("wb") as f:
            f.truncate(size)
    for argv in (["replay", str(record)], ["play", "--resume", str(record)],
                 ["rules", "show", str(rules)], ["demo", "--rules", str(rules)],
                 ["score", "add", "1", "--file", str(round_file), "--db", db]):
        line = _one_error(main(argv), capsys.readouterr().err)
        assert "larger than" in line and " MB" in line, line


def test_the_limits_are_far_above_real_files_and_named_in_the_docs() -> None:
    examples = ROOT / "examples"
    assert max(p.stat().st_size for p in examples.glob("*.json")) * 100 < RECORD.limit
    assert max(p.stat().st_size for p in examples.glob("score-*.toml")) * 100 \
        < ROUND_FILE.limit
    docs = {name: (ROOT / "docs" / name).read_text(encoding="utf-8")
            for name in ("RECORD-FORMAT.md", "RULES.md", "SCOREKEEPER.md")}
    assert f"{RECORD.limit // 2**20} MB" in docs["RECORD-FORMAT.md"]
    assert f"{RULES.limit // 2**20} MB" in docs["RULES.md"]
    assert f"{ROUND_FILE.limit // 2**20} MB" in docs["SCOREKEEPER.md"]


def test_the_reader_refuses_a_folder_and_reads_a_real_file(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="folder"):
        read_text(tmp_path, RECORD)
    with pytest.raises(InputFileError, match="not UTF-8"):
        (tmp_path / "bin").write_bytes(b"\xff\xfe")
        read_text(tmp_path / "bin", RECORD)
    example = ROOT / "examples" / "hf-worked-round-1935.json"
    assert read_text(example, RECORD) == example.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- too deep
@pytest.mark.parametrize("name, text", [
    ("rules.toml", "quota = " + "[" * DEEP + "]" * DEEP),
    ("rules.json", "[" * DEEP + "]" * DEEP),
    ("rules.json", '{"a": ' * DEEP + "1" + "}" * DEEP),
])
def test_deeply_nested_rules_files_are_one_line(
        name: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    for argv in (["rules", "show", str(path)], ["demo", "--rules", str(path)]):
        assert "nested too deeply" in _one_error(main(argv), capsys.readouterr().err)


def test_deeply_nested_records_round_files_and_settings_are_one_line(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    record = tmp_path / "deep.json"
    record.write_text("[" * DEEP + "]" * DEEP, encoding="utf-8")
    round_toml = tmp_path / "deep.toml"
    round_toml.write_text("teams = " + "[" * DEEP + "]" * DEEP, encoding="utf-8")
    for argv in (["replay", str(record)], ["play", "--resume", str(record)],
                 ["score", "add", "1", "--file", str(record), "--db", db],
                 ["score", "add", "1", "--file", str(round_toml), "--db", db],
                 ["rules", "show", "hand-and-foot", "--set", "quota=" + "[" * 20_000]):
        assert "nested too deeply" in _one_error(main(argv), capsys.readouterr().err), argv


class _Request:
    """As much of a Starlette request as the JSON bodies are read through."""

    def __init__(self, body: bytes) -> None:
        self._body = body

    async def body(self) -> bytes:
        return self._body


def test_the_server_answers_deep_json_as_bad_input() -> None:
    from handfoot.server import app

    deep = b"[" * 60_000  # within the 128 KiB a request may hold
    for handler in (app.explain_rules, app.create_table):
        reply: Any = asyncio.run(handler(_Request(deep)))  # type: ignore[arg-type]
        assert reply.status_code == 400 and b"bad_json" in reply.body, reply.body[:300]
    # A rules file's text, sent to be explained, is parsed by the server too.
    body = json.dumps({"file": "quota = " + "[" * 60_000}).encode()
    reply = asyncio.run(app.explain_rules(_Request(body)))  # type: ignore[arg-type]
    assert reply.status_code == 400 and b"nested too deeply" in reply.body, reply.body[:300]


# ------------------------------------------------------------------------- long actions
LONG = 1_000_000


@pytest.mark.parametrize("text", [
    "x" * LONG,  # an unknown verb
    "discard " + "K" * LONG,  # an unknown card
    "meld " + "K " * (LONG // 2) + "Q",  # mixed ranks
    "lay Q Q Q, " + "Z" * LONG,
    "meld wild" + "q" * LONG + ": K",
])
def test_an_error_quotes_only_an_excerpt_of_a_long_action(text: str) -> None:
    from handfoot.actions import ActionSyntaxError, parse_action

    with pytest.raises(ActionSyntaxError) as err:
        parse_action(text)
    assert len(str(err.value)) < 300 and "characters)" in str(err.value), str(err.value)[:300]
    with pytest.raises(ActionSyntaxError) as err:
        parse_action("draw " + "y" * LONG)
    assert len(str(err.value)) < 300


def test_replay_quotes_only_an_excerpt_of_a_long_action(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = json.loads((ROOT / "examples" / "hf-worked-round-1935.json").read_text("utf-8"))
    for action in ("q" * LONG, "meld " + "K " * (LONG // 2)):  # bad text; legal text, illegal
        example["rounds"][0]["actions"][0][1] = action
        path = tmp_path / "long.json"
        path.write_text(json.dumps(example), encoding="utf-8")
        code = main(["replay", str(path)])
        out, err = capsys.readouterr()
        assert code in (1, 2) and len(out + err) < 2000, (out + err)[:500]
        assert "characters)" in out + err
