"""Each event is declared once: its wire form travels with it, and every event type has its
words (or is declared unspoken), its row in docs/PROTOCOL.md and its place in undo's lists."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from handfoot.events import EVENT_TYPES, Event, event_to_mapping
from handfoot.narrate import UNSPOKEN, describe
from handfoot.state import RoundEnd
from handfoot.undo import NEWS, QUIET

PROTOCOL = Path(__file__).resolve().parent.parent / "docs" / "PROTOCOL.md"

# A value of each annotated field type, to build one event of every kind.
_SAMPLES = {"int": 1, "bool": True, "str": "clean", "RoundEnd": RoundEnd.WENT_OUT,
            "tuple[int, ...]": (0, 9)}


def _sample(kind: type[Event]) -> Event:
    hints = typing.get_type_hints(kind)
    return kind(*(_SAMPLES[getattr(hints[field], "__name__", None) if isinstance(
        hints[field], type) else str(hints[field])] for field in kind._fields))


def _protocol_rows() -> dict[str, list[str]]:
    text = PROTOCOL.read_text(encoding="utf-8")
    section = text[text.index("## Events"):text.index("## Errors and limits")]
    rows = {}
    for name, fields in re.findall(r"^\| `(\w+)` \| ([^|]*) \|", section, flags=re.M):
        rows[name] = re.findall(r"`(\w+)`", fields)
    return rows


@pytest.mark.parametrize("kind", EVENT_TYPES, ids=lambda k: k.__name__)
def test_every_event_has_words_or_is_declared_unspoken(kind: type[Event]) -> None:
    event = _sample(kind)
    line = describe(event, ["Ann", "Bob", "Cy", "Di"])
    if event.name in UNSPOKEN:
        assert line is None
    else:
        assert isinstance(line, str) and line


@pytest.mark.parametrize("kind", EVENT_TYPES, ids=lambda k: k.__name__)
def test_every_event_has_its_protocol_row_with_its_wire_fields(kind: type[Event]) -> None:
    event = _sample(kind)
    rows = _protocol_rows()
    assert event.name in rows, f"docs/PROTOCOL.md has no row for the {event.name!r} event"
    assert rows[event.name] == list(event.wire()), event.name
    mapping = event_to_mapping(event)
    assert list(mapping)[:2] == ["name", "seat"] and mapping["name"] == event.name


@pytest.mark.parametrize("kind", EVENT_TYPES, ids=lambda k: k.__name__)
def test_every_event_is_news_or_quiet_for_undo(kind: type[Event]) -> None:
    name = _sample(kind).name
    assert (name in NEWS) != (name in QUIET), name


def test_undos_lists_name_only_events_there_are() -> None:
    names = {_sample(kind).name for kind in EVENT_TYPES}
    assert names >= NEWS | QUIET
    assert names >= UNSPOKEN


def test_a_reshuffle_tells_its_card_count_on_the_wire() -> None:
    from handfoot.events import Reshuffled

    assert event_to_mapping(Reshuffled(seat=-1, cards=61)) == {
        "name": "reshuffle", "seat": -1, "count": 61}
