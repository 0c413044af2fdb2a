"""`handfoot rules explain`: every option of any configuration as a sentence, organised by the
clauses of docs/RULES.md, with house rules marked against the preset."""

from __future__ import annotations

from dataclasses import fields

import pytest

from handfoot.clauses import CLAUSES
from handfoot.cli.main import main
from handfoot.options import BY_KEY, OPTION_CLAUSE
from handfoot.presets import PRESET_NAMES, house_rules, preset
from handfoot.print.explain import explain
from handfoot.rulebook import clauses, sentence
from handfoot.rules import Rules

OPTIONS = [f.name for f in fields(Rules) if f.name not in ("name", "source")]


def test_every_option_has_a_clause_and_a_sentence() -> None:
    assert set(OPTIONS) == set(OPTION_CLAUSE)
    assert all(BY_KEY[key].sentence is not None for key in OPTIONS)
    assert set(OPTION_CLAUSE.values()) <= set(CLAUSES)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_option_appears_in_the_explanation(name: str) -> None:
    rules = preset(name)
    text = explain(rules, name)
    flat = " ".join(text.split())
    for option in OPTIONS:
        used = BY_KEY[option].used
        if used is None or used(rules):
            assert sentence(option, rules) in flat, option
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


# Each house rule of other tables, switched on over a preset, says what it does in a sentence
# marked as a house rule, under its clause.
HOUSE_RULES = {
    "jokers": (4, "2.2", "Each deck has 4 jokers."),
    "draw_count": (3, "3.2", "A turn starts by drawing three cards from the stock"),
    "black_three_blocks": (False, "4.2", "A black three on top does not block the pile"),
    "pile_onto_meld": (True, "4.7", "adding its top card alone to one of the team's open melds"),
    "pile_any_card": (True, "4.8", "picked up into the hand when any card of it can be melded"),
    "max_wilds": ("unlimited", "5.3", "A meld may hold any number of wild cards (no cap)."),
    "black_three_book": (True, "5.7", "may meld 7 black threes at once as a book"),
    "opening_counts_bonuses": (True, "6.2", "The bonus of a canasta finished in the opening"),
    "whole_hand_opening": (True, "6.4", "melds every card of the hand while opening opens"),
    "foot_replaces_draw": (True, "7.3", "plays the next packet on the next turn without drawing"),
    "partner_in_foot": ("in_foot", "8.4", "every partner must have picked up their foot"),
    "final_lap": ("meld_out", "8.7", "gives every other player one more turn"),
    "stock_out": ("reshuffle", "9.1", "shuffled into a new stock and play goes on"),
    "pile_take": (9, "4.1", "Taking the pile takes the top 9 cards."),
    "pile_opening_checked": (True, "4.6", "must be able to reach the minimum with the cards"),
    "strip_bare": (True, "7.5", "may still discard the last card: the turn ends"),
}


@pytest.mark.parametrize("key", sorted(HOUSE_RULES))
def test_every_house_rule_is_explained_in_a_sentence(key: str) -> None:
    value, number, words = HOUSE_RULES[key]
    changes = {key: value}
    if key == "black_three_blocks":
        changes["black_three_book"] = True
    rules = house_rules("hand-and-foot", changes)
    assert OPTION_CLAUSE[key] == number
    sentences = dict((n, s) for n, _, s in clauses(rules, "hand-and-foot"))[number]
    marked = [s for s in sentences if "(house rule;" in s]
    assert any(words in s for s in marked), sentences


def test_cli_explains_house_rules_set_on_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rules", "explain", "--rules", "hand-and-foot", "--set", "draw_count=1",
                 "--set", "stock_out=reshuffle", "--set", "final_lap=always"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0
    assert "drawing one card from the stock" in out and out.count("(house rule;") == 3
    assert main(["rules", "explain", "--rules", "hand-and-foot", "--set", "draw_count=5"]) == 2
    assert "draw_count" in capsys.readouterr().err


# ------------------------------------------------------------------ issue 26: what it said
def _clause(rules: Rules, number: str, base: str | None = None) -> list[str]:
    return dict((n, s) for n, _, s in clauses(rules, base))[number]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_score_table_is_explained_only_where_the_opening_follows_the_score(
        name: str) -> None:
    rules = preset(name)
    text = " ".join(explain(rules, name).split())
    assert ("By team score" in text) == (rules.opening_by == "score")
    by_score = house_rules(name, {"opening_by": "score"})
    assert any(s.startswith("By team score") for s in _clause(by_score, "6.1"))


def test_a_changed_score_table_is_still_marked_where_it_is_not_used() -> None:
    rules = house_rules("hand-and-foot", {"opening_score_table": [[-1_000_000, 20]]})
    assert rules.opening_by == "round"
    said = _clause(rules, "6.1", "hand-and-foot")
    assert any("By team score" in s and "(house rule;" in s for s in said)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_counting_the_opening_names_canasta_bonuses_once(name: str) -> None:
    for counts in (False, True):
        rules = house_rules(name, {"opening_counts_bonuses": counts})
        said = [s for s in _clause(rules, "6.2") if "bonus" in s.lower()]
        assert len(said) == 1, _clause(rules, "6.2")


@pytest.mark.parametrize("after_pile", [False, True])
def test_discarding_states_the_rule_then_the_exception(after_pile: bool) -> None:
    rules = house_rules("hand-knee-foot", {"discard_after_pile": after_pile})
    rule, *rest = _clause(rules, "3.5")
    assert rule.startswith("A turn ends when the player discards one card onto the pile.")
    assert ("knock" in " ".join(rest)) == (not after_pile)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_source_document_is_named_not_only_numbered(name: str) -> None:
    rules = preset(name)
    number = rules.source.split()[0]
    for fmt in ("text", "markdown"):
        text = " ".join(explain(rules, name, fmt).split())
        assert f"ule document {number}" in text and "docs/RULES.md" in text
        assert f"- {rules.source}" not in text.splitlines()[0]


def test_rules_list_says_what_the_numbers_are(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list"]) == 0
    assert "five written rule documents" in capsys.readouterr().out


def test_explain_takes_the_preset_as_rules_show_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "explain", "hand-knee-foot"]) == 0
    named = capsys.readouterr().out
    assert main(["rules", "explain", "--rules", "hand-knee-foot"]) == 0
    assert capsys.readouterr().out == named and named.startswith("hand-knee-foot - ")
    assert main(["rules", "explain", "hand-knee-foot", "--rules", "triple-play"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "name the rules once" in err
