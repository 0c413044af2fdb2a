"""The table of options (handfoot.options) is the one declaration of every rules option: these
tests tie the Rules dataclass, its Literal types, the presets, the record upgrades and the
explanation to it, so an option added in one place and forgotten in another fails here."""

from __future__ import annotations

import json
import random
import typing
from dataclasses import fields
from pathlib import Path

import pytest

from handfoot.clauses import CLAUSES
from handfoot.engine import Game
from handfoot.options import BY_KEY, CHOICES, KINDS, LABELS, OPTIONS, added_since, off_values
from handfoot.presets import PLAYER_COUNTS, PRESET_NAMES, house_rules, preset, preset_mapping
from handfoot.record import READS, VERSION, Record, record_from_mapping, record_to_json
from handfoot.rules import Rules, RulesError, _from_plain, _to_plain

ROOT = Path(__file__).resolve().parent.parent


def test_rules_fields_are_the_table_in_order() -> None:
    # The order matters: it is the order of a rules mapping, and so of a record's bytes.
    assert [f.name for f in fields(Rules)] == [o.key for o in OPTIONS]
    assert len(BY_KEY) == len(OPTIONS)


def test_every_literal_field_names_the_tables_choices() -> None:
    hints = typing.get_type_hints(Rules)
    for option in OPTIONS:
        hint = hints[option.key]
        if option.kind == "choice":
            assert typing.get_origin(hint) is typing.Literal, option.key
            assert typing.get_args(hint) == tuple(option.choices), option.key
        elif option.allowed:
            assert typing.get_origin(hint) is typing.Literal, option.key
            assert typing.get_args(hint) == option.allowed, option.key
        else:
            assert typing.get_origin(hint) is not typing.Literal, option.key


def test_every_option_is_fully_declared() -> None:
    for o in OPTIONS:
        assert o.kind in KINDS, o.key
        assert o.meaning and not o.meaning.endswith("."), o.key
        assert (o.kind == "choice") == bool(o.choices), o.key
        assert all(meaning for meaning in o.choices.values()), o.key
        assert (o.kind == "cards") == bool(o.cards), o.key
        if o.clause is None:
            assert o.kind == "text" and o.sentence is None, o.key
        else:
            assert o.clause in CLAUSES and o.sentence is not None, o.key
        # A record before the option was played some way: the table must say how.
        if o.since > 1:
            assert o.played_before is not None, o.key
        assert 1 <= o.since <= VERSION, o.key
    assert LABELS == ("name", "source")
    assert {o.key: dict(o.choices) for o in OPTIONS if o.kind == "choice"} == CHOICES


def test_off_values_are_valid_and_every_preset_starts_from_them() -> None:
    for key, value in off_values().items():
        option = BY_KEY[key]
        assert _to_plain(key, _from_plain(key, value)) == value, key
        if option.kind == "choice":
            assert value in option.choices, key
    # Where a preset turns a house rule on, its document says so; the rest play it off.
    for name in PRESET_NAMES:
        for players in PLAYER_COUNTS[name]:
            rules = preset(name, players)
            assert rules.to_mapping().keys() == preset_mapping(name, players).keys()
    on = {(name, key) for name in PRESET_NAMES for key, value in off_values().items()
          if preset_mapping(name)[key] != value}
    assert on == {("hand-and-foot-classic", "exact_cut_bonus"),
                  ("pennies-from-heaven", "exact_cut_bonus"),
                  ("pennies-from-heaven", "canasta_pennies"),
                  ("hand-and-foot-13", "over_meld_penalty"),
                  *((name, key) for name in ("hand-knee-foot", "triple-play",
                                             "hand-knee-foot-club")
                    for key in ("red_three_set_size", "red_three_set_bonus",
                                "knee_reminder_penalty"))}


def test_off_is_not_a_silent_default() -> None:
    data = preset("hand-and-foot").to_mapping()
    for key in off_values():
        partial = {k: v for k, v in data.items() if k != key}
        with pytest.raises(RulesError, match=key):
            Rules.from_mapping(partial)


def test_record_upgrades_come_from_the_table() -> None:
    assert set(READS) == set(range(1, VERSION + 1))
    assert added_since(VERSION) == {}
    assert added_since(3) == {"pile_opening_checked": False, "strip_bare": False}
    assert added_since(1)["permission_yes"] == "allows"
    # Every upgrade reads back as a complete, valid rules mapping.
    for version in READS:
        old = {k: v for k, v in preset("hand-knee-foot").to_mapping().items()
               if BY_KEY[k].since <= version}
        Rules.from_mapping(added_since(version) | old)


def _random_game(rules: Rules, seed: int) -> Game:
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    return game


# Bytes of records written before the table of options: the record format must not change.
# (sha256 of record_to_json, captured on the main branch before this change.)
@pytest.mark.parametrize("name, seed, changes", [
    ("hand-and-foot", 0, {}),
    ("hand-knee-foot", 1, {}),
    ("pennies-from-heaven", 2, {"strip_bare": True, "pile_opening_checked": True}),
])
def test_records_are_the_same_bytes(name: str, seed: int, changes: dict[str, object]) -> None:
    import hashlib

    rules = house_rules(name, changes) if changes else preset(name)
    text = record_to_json(Record.from_game(_random_game(rules, seed)))
    assert hashlib.sha256(text.encode()).hexdigest() == RECORD_HASHES[(name, seed)]
    again = record_from_mapping(json.loads(text))
    assert record_to_json(again) == text


RECORD_HASHES: dict[tuple[str, int], str] = {
    ("hand-and-foot", 0): "1726d66638d7cb174b3f737cde97291f0e50046f661d07bf24ee039630f55041",
    ("hand-knee-foot", 1): "de446e455e72c9f470a0b65f325c4d659b5768feaf55dbb25a835051293b0ea3",
    ("pennies-from-heaven", 2): "1a2edef8f3930175681d6f6efb3802a059131b601b368e1e722c60a671e24b4f",
}


def test_example_records_read_and_write_back_the_same() -> None:
    for path in sorted((ROOT / "examples").glob("*.json")):
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        if data.get("format") != "handfoot-record" or data.get("version") != VERSION:
            continue
        assert record_to_json(record_from_mapping(data)) == text, path.name


def test_every_kind_has_a_reader_a_writer_and_a_control() -> None:
    from handfoot.rules import _READERS, _WRITERS

    assert set(_READERS) == set(_WRITERS) == set(KINDS)
    # The web form draws a control by kind, so an option of a known kind needs no script.
    script = (ROOT / "src/handfoot/server/static/js/rules_editor.js").read_text(encoding="utf-8")
    for kind in {o.kind for o in OPTIONS if o.clause is not None}:
        assert f'case "{kind}"' in script, kind
