"""`handfoot rules explain`: every option of any configuration as a sentence, organised by the
clauses of docs/RULES.md, with house rules marked against the preset."""

from __future__ import annotations

from dataclasses import fields

import pytest

from handfoot.clauses import CLAUSES
from handfoot.cli.main import main
from handfoot.presets import PRESET_NAMES, house_rules, preset
from handfoot.print.explain import OPTION_CLAUSE, SENTENCES, clauses, explain
from handfoot.rules import Rules

OPTIONS = [f.name for f in fields(Rules) if f.name not in ("name", "source")]


def test_every_option_has_a_clause_and_a_sentence() -> None:
    assert set(OPTIONS) == set(OPTION_CLAUSE) == set(SENTENCES)
    assert set(OPTION_CLAUSE.values()) <= set(CLAUSES)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_option_appears_in_the_explanation(name: str) -> None:
    rules = preset(name)
    text = explain(rules, name)
    flat = " ".join(text.split())
    for option in OPTIONS:
        assert SENTENCES[option](rules) in flat, option
    assert "house rule" not in text and "unchanged" in text


def test_choices_are_explained_in_words() -> None:
    text = " ".join(explain(preset("hand-and-foot-13")).split())
    assert "a wild card on top cannot be taken" in text.lower()
    assert "Wild cards may not be melded on their own" in text


def test_house_rules_are_marked_with_the_preset_value() -> None:
    rules = house_rules("hand-knee-foot", {"canasta_size": 8, "pile_take": 7})
    text = " ".join(explain(rules, "hand-knee-foot").split())
    assert ("A meld of 8 cards is a canasta. (house rule; the preset says: a meld of 7 cards "
            "is a canasta)") in text
    assert "(house rule; the preset says: taking the pile takes the whole pile)" in text
    assert text.count("(house rule;") == 2


def test_clauses_follow_the_rule_book() -> None:
    numbers = [n for n, _, _ in clauses(preset("hand-and-foot"), None)]
    assert numbers == [n for n in CLAUSES if n in numbers]
    assert "5.3" in numbers and "10.2" in numbers


def test_cli_explain_markdown_and_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rules", "explain", "--rules", "hand-and-foot", "--set", "going_out_bonus=200",
                 "--format", "markdown"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("# The rules: hand-and-foot + house rules")
    assert "### 10.6 Going out" in out
    assert "- Going out scores 200. (house rule; the preset says: going out scores 100)" in out
    assert main(["rules", "explain", "--rules", "no-such-preset"]) == 2
