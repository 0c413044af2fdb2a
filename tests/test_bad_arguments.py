"""Every command, given bad arguments, answers with one ``handfoot: error:`` line and exit
status 2: never a traceback, never a hang, never a run that eats the machine."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from handfoot.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("bad")
    (d / "bad.toml").write_text("not toml [[[", encoding="utf-8")
    (d / "bad.json").write_text('{"x": 1}', encoding="utf-8")
    (d / "list.json").write_text("[1, 2]", encoding="utf-8")
    (d / "partial.toml").write_text("players = 4\ndecks = 5\n", encoding="utf-8")
    (d / "bin.json").write_bytes(b"\xff\xfe\x00")
    (d / "text.db").write_text("hello", encoding="utf-8")
    other = sqlite3.connect(d / "other.db")
    other.execute("CREATE TABLE t (x)")
    other.commit()
    other.close()
    db = d / "s.db"
    assert main(["score", "new", "--db", str(db), "--team", "Ann & Bob", "--team",
                 "Cy & Di"]) == 0
    round_file = d / "round.toml"
    round_file.write_text('[[teams]]\nname = "Ann & Bob"\ncanastas = { clean = 1000 }\n'
                          '[[teams]]\nname = "Cy & Di"\n', encoding="utf-8")
    return {"dir": str(d), "db": str(db), **{p.stem + p.suffix.replace(".", "_"): str(p)
                                              for p in d.iterdir()}}


# Each line: a command and bad arguments; {name} is a fixture file, {dir} its folder.
CASES = r"""
rules bogus
train --players 9
train --rules bogus
train --workers 0
train --hidden abc
train --lr 0
train --lr nan
train --lr abc
train --self-play 0.8 --league-share 0.3
train --self-play nan
train --league-share -1
train --resume {dir}/missing
train --distill
train --teacher nobody
rules show nope
rules show {bad_toml}
rules show {bad_json}
rules show {list_json}
rules show {partial_toml}
rules show {bin_json}
rules show {dir}/missing.toml
rules show hand-and-foot --set decks=10000000
rules show hand-and-foot --set decks=abc
rules show hand-and-foot --set nope=1
rules show hand-and-foot --set =
rules show hand-and-foot --set turn_cap=10000000000000
rules show hand-and-foot --set rounds=1000000000
rules show hand-and-foot --set canasta_size=100000000 --set max_wilds=99999999
rules show hand-and-foot --players 9
rules show hand-and-foot --format nope
rules explain --rules nope
rules explain --set decks=-1
demo --bots nope
demo --bots search:worlds=abc
demo --bots search:worlds=-1
demo --bots search:worlds=nan
demo --bots search:ms=1e9
demo --bots search:nope=1
demo --bots heuristic:x
demo --bots oracle
demo --seed abc
demo --rules {partial_toml}
demo --set decks=10000000
demo --players 3 --rules nope
bench --seconds -1
bench --seconds nan
bench --seconds inf
bench --seconds abc
bench --players 0
bench --presets nope
replay {dir}/missing.json
replay {bad_json}
replay {bin_json}
replay {dir}
replay {bad_toml}
replay
arena --bots heuristic
arena --bots nope random
arena --bots heuristic heuristic
arena --bots heuristic random --deals 0
arena --bots heuristic random --deals 1000000000000
arena --bots heuristic random --jobs 0
arena --bots heuristic random --jobs 100000
arena --bots heuristic random --rounds 0
arena --bots heuristic random --rounds 1000
arena --bots heuristic random --players 7
arena --bots search:worlds=-1 random
arena --bots heuristic random --rules {bad_toml}
arena --bots heuristic random --json --markdown
simulate --games 0
simulate --games 1000000000000
simulate --bot nope
simulate --bot search:worlds=abc
simulate --rules nope
simulate --compare nope=1
simulate --compare decks
simulate --compare decks=10000000
simulate --jobs 0
simulate --rounds 0
simulate --games abc
play --bots nope
play --bots search:worlds=-1
play --bots heuristic,heuristic
play --pace -1
play --pace nan
play --pace 1e9
play --resume {dir}/missing.json
play --resume {bad_json}
play --resume {bin_json}
play --resume {dir}
play --save {dir}
play --save /proc/nope/x.json
play --rules nope
play --players 9
play
score
score nope
score new --db {other_db}
score new --db {text_db}
score new --db {dir}
score new --db /proc/nope/x.db
score new --rules nope --db {db}
score new --team a --db {db}
score new --team a --team a --db {db}
score new --team a --team "" --db {db}
score new --team "a\nb" --team c --db {db}
score new --team "a\x1b[31m" --team c --db {db}
score new --team "a\u202e" --team c --db {db}
score new --name "x\ny" --db {db}
score new --wait -1 --db {db}
score list --db {other_db}
score list --db {text_db}
score show 9 --db {db}
score show nope --db {db}
score add 9 --db {db}
score add 1 --file {dir}/missing.toml --db {db}
score add 1 --file {bad_toml} --db {db}
score edit 1 1 1 --set x=1 --db {db}
score edit 1 x 1 --set canastas.clean=1 --db {db}
score edit 1 1 1 --db {db}
score history 9 --db {db}
score export 1 --db {db}
score export 9 --csv {dir}/x.csv --db {db}
score template 9 --db {db}
score template 1 --round 5 --db {db}
print
print sheet
print sheet -o /proc/nope/x.pdf
print sheet 9 -o {dir}/x.pdf --db {db}
print sheet --rules nope -o {dir}/x.pdf
print sheet --team a -o {dir}/x.pdf
print card -o /proc/nope/x.pdf
print card -o {dir}
print card --rules {bad_toml} -o {dir}/c.pdf
serve --port 0
serve --port 70000
serve --bot-workers -1
serve --rate 0
serve --host no.such.host.invalid --port 8000
serve --db {text_db}
serve --db {dir}/missing-folder-file/..
serve --db postgresql://nobody@127.0.0.1:1/none --export t
serve --export nosuch --db {dir}/t.sqlite3
play --join nope
play --join http://127.0.0.1:1/t/abc
play --join http://127.0.0.1:1/t/abc --plain
play --plain
"""


def _cases() -> list[str]:
    return [line for line in CASES.strip().splitlines() if line.strip()]


def _argv(line: str, files: dict[str, str]) -> list[str]:
    import shlex

    text = line.encode().decode("unicode_escape") if "\\" in line else line
    return [part.format(**files) for part in shlex.split(text)]


def _first_of_each_command_fast() -> list[Any]:
    """The cases, the first of each command (of each ``score`` subcommand) in a development
    run and all of them in the full run."""
    seen: set[tuple[str, ...]] = set()
    out: list[Any] = []
    for line in _cases():
        words = line.split()
        key = tuple(words[:2]) if words[0] == "score" else (words[0],)
        out.append(line if key not in seen else pytest.param(line, marks=pytest.mark.slow))
        seen.add(key)
    return out


@pytest.mark.parametrize("line", _first_of_each_command_fast())
def test_bad_arguments_get_one_error_line_and_exit_2(
        line: str, files: dict[str, str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # play: no terminal; score add: no answers
    monkeypatch.setenv("XDG_DATA_HOME", files["dir"])
    code = main(_argv(line, files))  # any exception fails the test: it would be a traceback
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2, f"exit {code}: {err}"
    assert len(lines) == 1 and lines[0].startswith("handfoot: error: "), err
    assert "Traceback" not in err + out


def test_every_command_is_among_the_cases() -> None:
    from handfoot.cli.main import COMMANDS

    named = {line.split()[0] for line in _cases()}
    assert {"print" if c == "printout" else c for c in COMMANDS} <= named
    score = {line.split()[1] for line in _cases() if line.startswith("score ")}
    assert {"new", "add", "show", "edit", "history", "list", "export", "template"} <= score


# One real process in the development run; the full run starts all four.
@pytest.mark.parametrize("argv", [
    ["demo", "--bots", "nope"],
    pytest.param(["demo", "--bots", "search:worlds=-1"], marks=pytest.mark.slow),
    pytest.param(["simulate", "--games", "1000000000000"], marks=pytest.mark.slow),
    pytest.param(["play"], marks=pytest.mark.slow),
])
def test_real_processes_print_one_line_and_no_traceback(argv: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k != "HANDFOOT_DEBUG"}
    done = subprocess.run([sys.executable, "-m", "handfoot", *argv], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("handfoot: error: ")
    assert "Traceback" not in done.stderr


def test_a_bug_is_one_line_too(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    # Not bad input but a fault of the program: still no traceback, and a different status.
    import handfoot.cli.rules as rules_command

    def broken(args: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.delenv("HANDFOOT_DEBUG", raising=False)
    monkeypatch.setattr(rules_command, "run_list", broken)
    assert main(["rules", "list"]) == 70
    err = capsys.readouterr().err
    assert err.startswith("handfoot: internal error: ZeroDivisionError") and err.count("\n") == 1
