"""handfoot: a pure rules engine for Hand and Foot and Hand, Knee and Foot.

The modules directly in this package form the core: standard library only, no I/O, no global
random state.  Everything else (command line, bots, simulations, the terminal game, the
server) lives in sub-packages that import the core, never the other way round.

The names below are the public API (docs/API.md)::

    >>> import handfoot
    >>> game = handfoot.Game.new(handfoot.preset("hand-and-foot"), seed=7)
    >>> game
    <Game hand-and-foot, round 1/4, turn 1, seat 1, draw>
"""

from .actions import (
    ACTION_INDEX,
    ATOMIC_ACTIONS,
    Action,
    ActionSyntaxError,
    Add,
    Answer,
    Ask,
    BlackThreeBook,
    Discard,
    Draw,
    Knock,
    LayDown,
    Part,
    PickUpPile,
    Retract,
    Start,
    Stop,
    TakeOnto,
    TakePile,
    parse_action,
)
from .cards import CardError
from .clauses import CLAUSES, IllegalAction
from .deal import Deal, DealError
from .engine import Game, GameSetupError
from .errors import HandfootError
from .events import EVENT_TYPES, Event, Refusal
from .narrate import describe
from .presets import PRESET_NAMES, house_rules, preset, rules_from_text
from .record import Record, RecordError, ReplayResult, load_record, record_to_json, replay
from .rules import Rules, RulesError
from .scoring import Line, RoundResult, TeamScore
from .state import AskState, Phase, Played, RoundEnd
from .views import SeatView, ViewError, sample_world, view

__version__ = "0.1.0"

__all__ = [
    "ACTION_INDEX",
    "ATOMIC_ACTIONS",
    "CLAUSES",
    "EVENT_TYPES",
    "PRESET_NAMES",
    "Action",
    "ActionSyntaxError",
    "Add",
    "Answer",
    "Ask",
    "AskState",
    "BlackThreeBook",
    "CardError",
    "Deal",
    "DealError",
    "Discard",
    "Draw",
    "Event",
    "Game",
    "GameSetupError",
    "HandfootError",
    "IllegalAction",
    "Knock",
    "LayDown",
    "Line",
    "Part",
    "Phase",
    "PickUpPile",
    "Played",
    "Record",
    "RecordError",
    "Refusal",
    "ReplayResult",
    "Retract",
    "RoundEnd",
    "RoundResult",
    "Rules",
    "RulesError",
    "SeatView",
    "Start",
    "Stop",
    "TakeOnto",
    "TakePile",
    "TeamScore",
    "ViewError",
    "describe",
    "house_rules",
    "load_record",
    "parse_action",
    "preset",
    "record_to_json",
    "replay",
    "rules_from_text",
    "sample_world",
    "view",
]
