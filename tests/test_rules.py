"""The rules object: presets load, round-trip and refuse bad settings by name.

Also keeps docs/RULES.md in step with the code: a heading for every clause of
``handfoot.clauses.CLAUSES``, every option and value documented, and the options table
regenerated from the presets and found verbatim in the document.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from handfoot.cards import FIVE, KING, SEVEN, CardError
from handfoot.clauses import CLAUSES
from handfoot.presets import (
    _PRESETS,
    PLAYER_COUNTS,
    PRESET_NAMES,
    house_rules,
    parse_overrides,
    preset,
    preset_mapping,
    rules_from_text,
)
from handfoot.rules import (
    CHOICES,
    Rules,
    RulesError,
    canasta_kind_rank,
    rank_kind_name,
)

RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "RULES.md"
HAND_AND_FOOT = ("hand-and-foot", "hand-and-foot-classic", "hand-and-foot-13",
                 "pennies-from-heaven")
KNEE_GAMES = ("hand-knee-foot", "triple-play", "hand-knee-foot-club")
OPTION_FIELDS = [f.name for f in dataclasses.fields(Rules) if f.name not in ("name", "source")]


def refused(key: str, **overrides: Any) -> RulesError:
    """The error a preset (hand-and-foot unless ``base`` is given) raises with these changes."""
    base = overrides.pop("base", "hand-and-foot")
    data = preset_mapping(base) | overrides
    with pytest.raises(RulesError) as info:
        Rules.from_mapping(data)
    assert info.value.key == key, str(info.value)
    assert str(info.value).startswith(f"rules: {key}: ")
    return info.value


# ------------------------------------------------------------------ presets and player counts
def test_there_are_seven_presets_each_naming_its_document() -> None:
    assert set(PRESET_NAMES) == set(HAND_AND_FOOT + KNEE_GAMES)
    documents = {
        "hand-and-foot": "002", "hand-and-foot-classic": "003", "hand-and-foot-13": "004",
        "hand-knee-foot": "000", "triple-play": "001", "hand-knee-foot-club": "000",
        "pennies-from-heaven": "003",
    }
    for name in PRESET_NAMES:
        rules = preset(name)
        assert rules.name == name
        assert rules.source.startswith(documents[name] + " "), rules.source


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_preset_loads_for_two_to_six_players(name: str, players: int) -> None:
    rules = preset(name, players)
    assert rules.players == players
    if players in (2, 3, 5):
        assert rules.team_size == 1 and rules.teams == players
        assert all(rules.seats_of(team) == (team,) for team in range(players))
    elif players == 4:
        assert rules.team_size == 2 and rules.teams == 2
        assert rules.seats_of(0) == (0, 2) and rules.seats_of(1) == (1, 3)
    else:
        assert rules.team_size == 3 and rules.teams == 2
        assert rules.seats_of(0) == (0, 2, 4) and rules.seats_of(1) == (1, 3, 5)
    # Partners never sit side by side: seats alternate between teams.
    assert all(rules.team_of(s) != rules.team_of((s + 1) % players) for s in range(players))
    assert players * sum(rules.packets) < rules.shoe_size


@pytest.mark.parametrize("name", HAND_AND_FOOT)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_hand_and_foot_uses_one_deck_more_than_players(name: str, players: int) -> None:
    assert preset(name, players).decks == players + 1


@pytest.mark.parametrize("name", KNEE_GAMES)
def test_knee_games_decks_by_player_count(name: str) -> None:
    # 000: six decks for four, seven for six; the rest are decisions (D11).
    expected = {2: 4, 3: 5, 4: 6, 5: 7, 6: 7}
    assert {n: preset(name, n).decks for n in expected} == expected


def test_classic_solo_games_deal_larger_packets_and_a_smaller_quota() -> None:
    for players in (2, 3, 5):
        rules = preset("hand-and-foot-classic", players)
        assert rules.packets == (15, 15)
        assert dict(rules.quota) == {"clean": 1, "dirty": 2}
    assert dict(preset("hand-and-foot-classic", 6).quota) == {"clean": 2, "dirty": 2, "wild": 1}


def test_player_count_outside_the_preset_is_refused() -> None:
    with pytest.raises(RulesError) as info:
        preset("hand-and-foot", 7)
    assert info.value.key == "players"
    assert "2, 3, 4, 5, 6" in str(info.value)


def test_unknown_preset_is_refused_with_the_known_names() -> None:
    with pytest.raises(RulesError) as info:
        preset("hand-and-feet")
    assert info.value.key == "preset"
    assert "hand-and-foot" in str(info.value)


def test_every_preset_states_every_field() -> None:
    names = {f.name for f in dataclasses.fields(Rules)}
    for name, data in _PRESETS.items():
        assert set(data) == names, name
        for players, changes in PLAYER_COUNTS[name].items():
            assert set(changes) <= names, (name, players)


# ------------------------------------------------------------------ round trips
@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_mapping_round_trip(name: str, players: int) -> None:
    rules = preset(name, players)
    again = Rules.from_mapping(rules.to_mapping())
    assert again == rules
    assert again.to_mapping() == rules.to_mapping()


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_toml_round_trip(name: str) -> None:
    rules = preset(name)
    data = tomllib.loads(rules.to_toml())
    assert data == rules.to_mapping()
    assert Rules.from_mapping(data) == rules


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_json_round_trip(name: str) -> None:
    rules = preset(name)
    assert Rules.from_mapping(json.loads(rules.to_json())) == rules


def test_whole_pile_is_written_as_whole() -> None:
    assert preset("hand-knee-foot").pile_take == 0
    assert preset("hand-knee-foot").to_mapping()["pile_take"] == "whole"
    assert preset("hand-and-foot").to_mapping()["pile_take"] == 7


def test_replace_validates_again() -> None:
    rules = preset("hand-and-foot")
    assert rules.replace(going_out_bonus=200).going_out_bonus == 200
    with pytest.raises(RulesError) as info:
        rules.replace(team_size=3)
    assert info.value.key == "team_size"


# ------------------------------------------------------------------ refusals
def test_unknown_key_is_refused_naming_it_and_the_near_key() -> None:
    data = preset_mapping("hand-and-foot") | {"pile_takes": 7}
    with pytest.raises(RulesError) as info:
        Rules.from_mapping(data)
    assert info.value.key == "pile_takes"
    assert "did you mean 'pile_take'" in str(info.value)


def test_unknown_house_rule_is_refused_naming_the_near_key() -> None:
    with pytest.raises(RulesError) as info:
        house_rules("hand-and-foot", {"going_out_bonsu": 200})
    assert info.value.key == "going_out_bonsu"
    assert "did you mean 'going_out_bonus'" in str(info.value)


def test_missing_key_is_refused_naming_it() -> None:
    data = preset_mapping("hand-and-foot")
    del data["turn_cap"]
    with pytest.raises(RulesError) as info:
        Rules.from_mapping(data)
    assert info.value.key == "turn_cap"
    assert "missing" in str(info.value)


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("players", "four", "players"),
        ("players", True, "players"),
        ("pile_take", -1, "pile_take"),
        ("pile_take", 0, "pile_take"),
        ("pile_take", "most", "pile_take"),
        ("quota", {"wild": "x"}, "quota.wild"),
        ("quota", [1, 1], "quota"),
        ("packets", [11, "x"], "packets"),
        ("packets", 11, "packets"),
        ("permission", "yes", "permission"),
        ("stock_out", 3, "stock_out"),
        ("card_values", {"4": 5}, "card_values"),
        ("card_values", {**_PRESETS["hand-and-foot"]["card_values"], "R3": 100}, "card_values"),
        ("upcard_rejects", ["2", "X"], "upcard_rejects"),
        ("no_wild_ranks", ["2"], "no_wild_ranks"),
        ("opening_score_table", [[0, 50, 1]], "opening_score_table"),
    ],
)
def test_wrong_types_are_refused_naming_the_key(key: str, value: Any, named: str) -> None:
    refused(named, **{key: value})


def test_more_cards_dealt_than_the_shoe_holds() -> None:
    err = refused("packets", packets=[30, 30], decks=2)
    assert "240 dealt" in str(err) and "108" in str(err)  # two decks hold 108 cards
    # Four players may be dealt all but two of the 270 cards of five decks: the stock needs some.
    refused("packets", packets=[34, 34], decks=5)
    assert Rules.from_mapping(preset_mapping("hand-and-foot") | {"packets": [34, 33]}).decks == 5


def test_quota_asking_a_wild_canasta_without_wild_melds() -> None:
    refused("quota", base="hand-and-foot-13", quota={"clean": 2, "dirty": 2, "wild": 1})


def test_quota_asking_a_dirty_canasta_with_no_wild_cards_allowed() -> None:
    refused("quota", max_wilds=0)


def test_quota_kind_needs_a_bonus_entry() -> None:
    refused("quota", quota={"clean": 1, "Ks": 1})


def test_matching_wild_pair_needs_wild_melds() -> None:
    refused("pile_wild_top", base="hand-and-foot-13", pile_wild_top="matching_pair")


def test_dead_red_threes_are_never_replaced_or_paid() -> None:
    refused("red_three_replacement", base="hand-and-foot-13", red_three_replacement="always")
    refused("red_three_bonus", base="hand-and-foot-13", red_three_bonus=100)
    refused("red_three_replacement", red_threes="dead")


def test_team_size_must_divide_the_players() -> None:
    refused("team_size", players=5, team_size=2)
    refused("team_size", players=4, team_size=4)  # one team is no game


@pytest.mark.parametrize("key", sorted(CHOICES))
def test_unknown_enumerated_value_is_refused_with_the_choices(key: str) -> None:
    err = refused(key, **{key: "sometimes"})
    assert all(choice in str(err) for choice in CHOICES[key])


def test_other_contradictions() -> None:
    refused("players", players=1, team_size=1)
    refused("decks", decks=0)
    refused("packets", packets=[11])
    refused("meld_min", meld_min=4)
    refused("max_wilds", max_wilds=7)
    refused("opening_minimums", opening_minimums=[50, 90])
    refused("opening_score_table", opening_score_table=[[1500, 90], [0, 50]])
    refused("canasta_bonus", canasta_bonus={"clean": 500, "dirty": 300})
    refused("black_three_penalty", black_three_penalty=-100)
    refused("turn_cap", turn_cap=5)


# ------------------------------------------------------------------ house rules and files
def test_house_rules_change_one_setting_and_keep_the_rest() -> None:
    base = preset("hand-and-foot")
    rules = house_rules("hand-and-foot", {"pile_take": "whole"})
    assert rules.pile_take == 0
    assert rules.name == "hand-and-foot + house rules"
    assert rules.source == base.source
    changed = {k for k, v in rules.to_mapping().items() if base.to_mapping()[k] != v}
    assert changed == {"name", "pile_take"}


def test_house_rules_from_command_line_pairs() -> None:
    overrides = parse_overrides(["pile_take=whole", "quota={clean=2, dirty=2}"])
    assert overrides == {"pile_take": "whole", "quota": {"clean": 2, "dirty": 2}}
    rules = house_rules("hand-and-foot", overrides)
    assert rules.pile_take == 0
    assert dict(rules.quota) == {"clean": 2, "dirty": 2}


def test_command_line_values_are_read_as_toml() -> None:
    assert parse_overrides(["permission=true", "decks=6", "packets=[13, 13]"]) == {
        "permission": True, "decks": 6, "packets": [13, 13],
    }
    with pytest.raises(RulesError) as info:
        parse_overrides(["quota={clean=2"])
    assert info.value.key == "quota"
    with pytest.raises(RulesError):
        parse_overrides(["pile_take"])


def test_house_rules_with_players() -> None:
    rules = house_rules("hand-knee-foot", {"black_three_penalty": 300}, players=6)
    assert (rules.players, rules.team_size, rules.decks) == (6, 3, 7)
    assert rules.black_three_penalty == 300


def test_rules_file_in_toml_with_a_base_preset() -> None:
    text = 'base = "hand-knee-foot"\npile_take = 7\nblack_three_penalty = 300\n'
    rules = rules_from_text(text, "my-table.toml")
    assert rules.pile_take == 7
    assert rules.black_three_penalty == 300
    assert rules.name == "hand-knee-foot + house rules"
    assert rules.canasta_bonus_of("7s") == 5000  # the rest comes from the base
    assert rules_from_text(text, "my-table.toml", players=6).team_size == 3


def test_rules_file_with_a_bad_override_names_the_key() -> None:
    with pytest.raises(RulesError) as info:
        rules_from_text('base = "hand-knee-foot"\nwild_melds = false\n', "t.toml")
    assert info.value.key == "quota"
    with pytest.raises(RulesError) as info:
        rules_from_text("base = 3\n", "t.toml")
    assert info.value.key == "base"
    with pytest.raises(RulesError) as info:
        rules_from_text("base = \n", "t.toml")
    assert info.value.key == "(file)"


def test_complete_rules_file_in_json() -> None:
    rules = preset("triple-play")
    assert rules_from_text(rules.to_json(), "triple.json") == rules
    assert rules_from_text(rules.to_toml(), "triple.toml") == rules
    with pytest.raises(RulesError) as info:
        rules_from_text(rules.to_json(), "triple.json", players=6)
    assert info.value.key == "players"
    with pytest.raises(RulesError) as info:
        rules_from_text("[1, 2]", "list.json")
    assert info.value.key == "(file)"


# ------------------------------------------------------------------ derived facts
def test_opening_minimum_by_round() -> None:
    rules = preset("hand-and-foot")
    assert [rules.opening_minimum(r, 0) for r in (1, 2, 3, 4)] == [50, 90, 120, 150]
    assert rules.opening_minimum(2, 99999) == 90  # the score does not matter here
    assert rules.opening_minimum(9, 0) == 150  # past the list, the last value holds
    assert preset("hand-knee-foot-club").opening_minimum(1, 0) == 60


def test_opening_minimum_by_team_score() -> None:
    rules = house_rules("hand-knee-foot", {"opening_by": "score"})
    cases = {-5: 15, 0: 50, 1499: 50, 1500: 90, 2999: 90, 3000: 120, 100000: 120}
    assert {s: rules.opening_minimum(1, s) for s in cases} == cases
    assert rules.opening_minimum(4, 0) == 50  # the round does not matter here


def test_canasta_kinds() -> None:
    assert canasta_kind_rank("7s") == SEVEN
    assert canasta_kind_rank("Ks") == KING
    assert canasta_kind_rank("clean") is None
    assert canasta_kind_rank("wild") is None
    assert rank_kind_name(SEVEN) == "7s"
    for bad in ("Xs", "2s", "R3s", "7", "sevens"):
        with pytest.raises(CardError):
            canasta_kind_rank(bad)
    assert preset("hand-knee-foot").rank_kinds == {SEVEN: "7s", FIVE: "5s"}
    assert preset("hand-and-foot").rank_kinds == {}


def test_bad_canasta_kind_in_a_table_names_the_entry() -> None:
    refused("canasta_bonus.Xs", canasta_bonus={"clean": 500, "dirty": 300, "wild": 0, "Xs": 9})


# ------------------------------------------------------------------ docs/RULES.md in step
def _doc() -> str:
    return RULES_MD.read_text(encoding="utf-8")


def test_rules_doc_has_a_heading_for_every_clause_and_no_other() -> None:
    headings = [line for line in _doc().splitlines() if re.match(r"#+\s*\d", line)]
    expected = [f"### {number} {title}" for number, title in CLAUSES.items()]
    assert headings == expected


def test_rules_doc_names_every_option_and_every_choice() -> None:
    doc = _doc()
    clauses_part = doc.split("## Options by preset")[0]
    for key in OPTION_FIELDS:
        assert f"`{key}`" in clauses_part, key
    for key, choices in CHOICES.items():
        for choice in choices:
            assert f"`{choice}`" in clauses_part, (key, choice)


def test_rules_doc_lists_the_decisions() -> None:
    doc = _doc()
    decisions = doc.split("## Decisions where the documents are silent")[1]
    numbers = re.findall(r"^### (D\d+) ", decisions, flags=re.MULTILINE)
    assert len(numbers) >= 21
    assert numbers == [f"D{i}" for i in range(1, len(numbers) + 1)]
    # Every decision the code or the clauses cite must be written down.
    cited = set(re.findall(r"decision (D\d+)", doc))
    src = Path(__file__).resolve().parents[1] / "src" / "handfoot"
    for path in src.glob("*.py"):
        cited |= set(re.findall(r"decision (D\d+)", path.read_text(encoding="utf-8")))
    assert cited <= set(numbers)


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_cell(v)}" for k, v in value.items()) + "}"
    return str(value)


def options_table() -> str:
    """The options-by-preset table of docs/RULES.md, generated from the presets."""
    mappings = [preset(name).to_mapping() for name in PRESET_NAMES]
    lines = [
        "| option | " + " | ".join(PRESET_NAMES) + " |",
        "|---" * (len(PRESET_NAMES) + 1) + "|",
    ]
    for key in OPTION_FIELDS:
        lines.append(f"| `{key}` | " + " | ".join(f"`{_cell(m[key])}`" for m in mappings) + " |")
    lines.append("| source | " + " | ".join(m["source"] for m in mappings) + " |")
    return "\n".join(lines) + "\n"


def test_options_table_in_the_doc_matches_the_presets() -> None:
    table = options_table()
    assert table in _doc(), "docs/RULES.md is out of date; paste this table:\n" + table


if __name__ == "__main__":  # print the table to paste into docs/RULES.md
    print(options_table(), end="")


# ------------------------------------------------------------------ the house rules of issue 21
HOUSE_KEYS = ("jokers", "draw_count", "black_three_book", "black_three_blocks",
              "pile_onto_meld", "pile_any_card", "opening_counts_bonuses",
              "whole_hand_opening", "foot_replaces_draw", "final_lap")


@pytest.mark.parametrize(
    ("key", "value"),
    [("jokers", "two"), ("jokers", 3), ("jokers", True), ("draw_count", 0), ("draw_count", 4),
     ("draw_count", "2"), ("black_three_book", "yes"), ("black_three_blocks", 0),
     ("pile_onto_meld", 1), ("pile_any_card", "true"), ("opening_counts_bonuses", None),
     ("whole_hand_opening", "no"), ("foot_replaces_draw", 2), ("final_lap", "lap"),
     ("final_lap", True), ("stock_out", "reshuffled"), ("max_wilds", -1),
     ("max_wilds", "none")],
)
def test_house_rules_refuse_bad_values_naming_the_key(key: str, value: Any) -> None:
    refused(key, **{key: value})


@pytest.mark.parametrize("key", HOUSE_KEYS)
def test_house_rules_suggest_the_near_key(key: str) -> None:
    typo = key[:-2] + key[-1] + key[-2]  # the last two letters swapped
    with pytest.raises(RulesError) as info:
        house_rules("hand-and-foot", {typo: 1})
    assert info.value.key == typo
    assert f"did you mean {key!r}" in str(info.value)


def test_house_rules_from_the_command_line_and_a_rules_file() -> None:
    pairs = ["jokers=0", "draw_count=3", "stock_out=reshuffle", "final_lap=meld_out",
             "pile_any_card=true", "black_three_book=true", "black_three_blocks=false",
             "max_wilds=unlimited", "pile_take=9", "opening_minimums=[30, 60, 90, 120, 150, 200]",
             "rounds=6"]
    rules = house_rules("hand-and-foot", parse_overrides(pairs))
    assert (rules.jokers, rules.draw_count, rules.stock_out, rules.final_lap) == (
        0, 3, "reshuffle", "meld_out")
    assert rules.max_wilds == -1 and rules.to_mapping()["max_wilds"] == "unlimited"
    text = 'base = "hand-and-foot"\n' + "".join(p.replace("=", " = ", 1) + "\n" for p in pairs)
    text = text.replace("= reshuffle", '= "reshuffle"').replace("= meld_out", '= "meld_out"')
    text = text.replace("= unlimited", '= "unlimited"')
    assert rules_from_text(text, "club.toml") == rules
    assert rules_from_text(rules.to_json(), "club.json") == rules
    assert rules_from_text(rules.to_toml(), "club.toml") == rules
