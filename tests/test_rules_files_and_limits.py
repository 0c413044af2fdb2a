"""Rules files and sizes as people get them wrong: every error names the file, a file of a
few changes without ``base`` is told to name a preset, and sizes past any table's are refused
before they cost gigabytes or days."""

from __future__ import annotations

from pathlib import Path

import pytest

from handfoot.cli.main import main
from handfoot.presets import preset
from handfoot.print.explain import explain
from handfoot.rules import RulesError


def error_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.startswith("handfoot: error: ") and err.count("\n") == 1
    return err


@pytest.mark.parametrize(("name", "content", "says"), [
    ("broken.toml", "not toml [[[", "not valid TOML"),
    ("broken.json", "{", "not valid JSON"),
    ("list.json", "[1]", "a rules file must hold one object"),
    ("typo.toml", 'base = "hand-and-foot"\ndekcs = 6\n', "dekcs: unknown setting"),
    ("wrong.toml", 'base = "hand-and-foot"\ndecks = "six"\n', "decks: expected a whole number"),
    ("nobase.toml", 'base = "no-such-preset"\n', "unknown preset 'no-such-preset'"),
    ("bytes.toml", b"\xff\xfe", "not UTF-8 text"),
])
def test_every_rules_file_error_names_the_file(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path, name: str,
                                               content: str | bytes, says: str) -> None:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    for argv in (["rules", "show", str(path)], ["demo", "--rules", str(path)],
                 ["score", "new", "--rules", str(path), "--db", str(tmp_path / "s.db")]):
        err = error_of(capsys, *argv)
        assert str(path) in err and says in err


def test_a_missing_rules_file_is_named(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    err = error_of(capsys, "rules", "show", str(tmp_path / "gone.toml"))
    assert f"cannot read the rules file {tmp_path / 'gone.toml'}" in err


def test_a_few_settings_without_base_are_told_to_name_a_preset(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text("decks = 6\npile_take = 7\n", encoding="utf-8")
    err = error_of(capsys, "rules", "show", str(path))
    assert 'add a line such as base = "hand-and-foot"' in err
    assert "gives 2 of the" in err and "missing setting" not in err
    assert "black_three_penalty" not in err  # no list of fifty missing keys


def test_a_nearly_complete_file_lists_what_it_lacks(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    text = preset("hand-and-foot").to_toml().replace("decks = 5\n", "")
    path = tmp_path / "almost.toml"
    path.write_text(text, encoding="utf-8")
    err = error_of(capsys, "rules", "show", str(path))
    assert "decks: missing setting" in err and 'base = "hand-and-foot"' in err


@pytest.mark.parametrize(("key", "value", "says"), [
    ("decks", 10_000_000, "at most 20"),
    ("decks", 21, "at most 20"),
    ("rounds", 101, "at most 100"),
    ("turn_cap", 10_001, "at most 10000"),
    ("canasta_size", 100_000_000, "at most 50"),
])
def test_sizes_past_any_table_are_refused(key: str, value: int, says: str) -> None:
    with pytest.raises(RulesError, match=says):
        preset("hand-and-foot").replace(**{key: value})


def test_the_largest_sane_sizes_are_accepted() -> None:
    rules = preset("hand-and-foot").replace(decks=20, turn_cap=10_000)
    assert rules.shoe_size == 1080
    preset("hand-and-foot").replace(rounds=100, opening_minimums=[50] * 100)


def test_decks_10_million_is_a_quick_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    err = error_of(capsys, "demo", "--set", "decks=10000000")
    assert "decks: at most 20" in err


@pytest.mark.parametrize("choice", ["always", "not_from_packets", "first_packet_only", "never"])
def test_the_red_three_replacement_is_one_plain_sentence(choice: str) -> None:
    rules = preset("hand-and-foot").replace(red_three_replacement=choice)
    text = explain(rules, None, "text")
    sentence = next(line.strip(" -") for line in text.splitlines() if "replaced" in line)
    assert "laid is every" not in sentence and "is replaced when dealt" not in sentence
    assert sentence[0].isupper()


def test_the_arena_help_says_95_percent_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--help"]) == 0
    out = capsys.readouterr().out
    assert "95% intervals" in out and "%%" not in out
