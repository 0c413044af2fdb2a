"""The protocol both ways (docs/PROTOCOL.md): the messages clients send, as schemas
(pydantic), with the limits on them; and the messages the server sends, as types
(``TypedDict``) the builders of those messages are checked against.

``parse_message`` turns one text frame into one typed message or a :class:`ProtocolError`
naming what was wrong; nothing a client sends reaches a table unchecked.  Each list of message
types is derived from its union, so a message is declared once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired, TypedDict, get_args, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

PROTOCOL_VERSION = 1

MAX_FRAME = 4096  # bytes of one message; larger ones are refused with "too_large"
MAX_TRANSPORT_FRAME = 65536  # the websocket layer closes the connection above this (1009)
RATE_PER_SECOND = 10.0  # messages a second over time ...
RATE_BURST = 20.0  # ... with bursts of this many
CHAT_PER_SECOND = 1.0
CHAT_BURST = 3.0
OVER_LIMIT_CLOSE = 200  # messages over the rate limit before the connection is closed
HELLO_TIMEOUT = 10.0  # seconds to say hello
NAME_LENGTH = 24
CHAT_LENGTH = 200
TABLE_NAME_LENGTH = 40
HISTORY = 128  # updates held for reconnecting clients (older ones: a fresh state)
LOG_LINES = 200  # lines of the log in a state message

# Close codes (4000-4999 are the application's own).
CLOSE_NO_HELLO = 4000
CLOSE_REPLACED = 4001
CLOSE_PROTOCOL = 4002
CLOSE_BEHIND = 4003  # a reader too slow for its messages: reconnect and catch up
CLOSE_UNKNOWN_TABLE = 4004
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_RESTART = 1012


@dataclass(frozen=True, slots=True)
class Limits:
    """Rate limits per connection (the tests and benchmarks script faster than people play)."""

    rate: float = RATE_PER_SECOND
    burst: float = RATE_BURST
    chat_rate: float = CHAT_PER_SECOND
    chat_burst: float = CHAT_BURST


class ProtocolError(Exception):
    """A message the server cannot use: ``code`` as listed in docs/PROTOCOL.md."""

    def __init__(self, code: str, message: str, reply_to: str | int | None = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reply_to = reply_to
        self.extra = extra


MessageId = Annotated[str, Field(max_length=64)] | int | None
Token = Annotated[str, Field(min_length=1, max_length=100)]
Version = Annotated[int, Field(ge=0)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: MessageId = None


# A table's pace (docs/WEB.md, "Turn-based tables"): live, or turn-based with a limit on
# each turn and what happens when it passes.
Pace = Literal["live", "turn-based"]
TurnLimit = Literal["none", "1h", "12h", "24h", "3d"]
OnLimit = Literal["bot", "wait"]
TURN_LIMITS: dict[str, float | None] = {"none": None, "1h": 3600.0, "12h": 12 * 3600.0,
                                        "24h": 24 * 3600.0, "3d": 3 * 24 * 3600.0}


class TableOptions(BaseModel):
    """A table's options (the host may change them)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    hints: bool = False
    seat_hold: Annotated[float, Field(ge=0, le=3600)] = 60.0
    bot_pace: Annotated[float, Field(ge=0, le=10)] = 0.8
    pace: Pace = "live"
    turn_limit: TurnLimit = "none"
    on_limit: OnLimit = "bot"

    @model_validator(mode="after")
    def _limit_needs_turns(self) -> TableOptions:
        if self.pace == "live" and self.turn_limit != "none":
            raise ValueError("turn_limit: a turn limit is for a turn-based table (pace "
                             "\"turn-based\"); a live table has the seat hold")
        return self

    @property
    def turn_based(self) -> bool:
        return self.pace == "turn-based"

    @property
    def limit_seconds(self) -> float | None:
        """The turn limit in seconds; None: no limit (or a live table)."""
        return TURN_LIMITS[self.turn_limit] if self.turn_based else None


class OptionChanges(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    hints: bool | None = None
    seat_hold: Annotated[float, Field(ge=0, le=3600)] | None = None
    bot_pace: Annotated[float, Field(ge=0, le=10)] | None = None
    pace: Pace | None = None
    turn_limit: TurnLimit | None = None
    on_limit: OnLimit | None = None


BotLevels = Annotated[str, Field(max_length=40)] | Annotated[
    list[Annotated[str, Field(max_length=40)]], Field(min_length=1, max_length=8)]


class Hello(_Message):
    type: Literal["hello"]
    protocol: int
    seat_token: Token | None = None
    host_token: Token | None = None
    last_version: Version | None = None


class Join(_Message):
    type: Literal["join"]
    seat: Annotated[int, Field(ge=0, le=7)]
    name: Annotated[str, Field(max_length=100)]


class Leave(_Message):
    type: Literal["leave"]


class Start(_Message):
    type: Literal["start"]


class Options(_Message):
    type: Literal["options"]
    options: OptionChanges | None = None
    bots: BotLevels | None = None


class Act(_Message):
    type: Literal["act"]
    version: Version
    action: Annotated[str, Field(min_length=1, max_length=400)]


class Check(_Message):
    type: Literal["check"]
    action: Annotated[str, Field(min_length=1, max_length=400)]


class Undo(_Message):
    type: Literal["undo"]
    version: Version


class Hint(_Message):
    type: Literal["hint"]


class Chat(_Message):
    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=CHAT_LENGTH)]


class Rematch(_Message):
    type: Literal["rematch"]


class Sync(_Message):
    type: Literal["sync"]
    last_version: Version | None = None


class Ping(_Message):
    type: Literal["ping"]


_CLIENT_MESSAGES = (Hello | Join | Leave | Start | Options | Act | Check | Undo | Hint | Chat
                    | Rematch | Sync | Ping)
ClientMessage = Annotated[_CLIENT_MESSAGES, Field(discriminator="type")]


def _type_of(message: type) -> str:
    """The one value of a message class's ``type`` field (its ``Literal``)."""
    kind: str = get_args(get_type_hints(message)["type"])[0]
    return kind


# The client's message types in the union's order (the order the unknown_type error names).
MESSAGE_TYPES: tuple[str, ...] = tuple(_type_of(m) for m in get_args(_CLIENT_MESSAGES))
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def parse_message(text: str) -> ClientMessage:
    """One client frame as a typed message, or a ProtocolError naming the problem."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FRAME:
        raise ProtocolError("too_large", f"the message is {size} bytes; at most {MAX_FRAME}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as err:
        raise ProtocolError("bad_json", f"not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", f"expected a JSON object, got {_json_type(data)}")
    reply_to = _reply_to(data.get("id"))
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "the message has no \"type\" (a string)", reply_to)
    if kind not in MESSAGE_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}; known: "
                            f"{', '.join(MESSAGE_TYPES)}", reply_to)
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as err:
        raise ProtocolError("bad_message", _first_error(kind, err), reply_to) from None


def peek_id(text: str) -> str | int | None:
    """The ``id`` of a frame that will not be handled (over the rate limit), to answer it."""
    if len(text) > MAX_FRAME:
        return None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    return _reply_to(data.get("id")) if isinstance(data, dict) else None


def _reply_to(value: Any) -> str | int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and len(value) <= 64):
        return value
    return None


def _json_type(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return "a number"


def _first_error(kind: str, err: ValidationError) -> str:
    first = err.errors(include_url=False)[0]
    # The discriminated union puts the type first in the location; the client knows it.
    loc = [str(part) for part in first["loc"]]
    if loc and loc[0] == kind:
        loc = loc[1:]
    return _where(".".join([kind, *loc]), first["msg"])


def _where(where: str, message: str) -> str:
    """"options.turn_limit: ...": a check across fields names its field in its message."""
    message = message.removeprefix("Value error, ")
    key, sep, rest = message.partition(": ")
    if sep and key.isidentifier() and " " not in key:
        return f"{where}.{key}: {rest}"
    return f"{where}: {message}"


def validation_text(where: str, err: ValidationError) -> str:
    first = err.errors(include_url=False)[0]
    loc = ".".join(str(part) for part in first["loc"])
    return _where(f"{where}.{loc}" if loc else where, first["msg"])


# ====================================================================== server to client
# Each message the server sends over the websocket, field for field in the order it is sent.
# The copy that answers a client's message also carries ``reply_to`` (its id), put second by
# messages.reply (an update's: after the fields below); an update's ``events`` are written
# once for every reader as JSON text and appended last (messages.dumps_with).  The view, the
# rules and the events are the core's own mappings (views.py, rules.py, server/updates.py).
ReplyTo = str | int | None  # a client message's id, answered as ``reply_to``
TableStatus = Literal["lobby", "playing", "over"]
LOBBY: TableStatus = "lobby"
PLAYING: TableStatus = "playing"
OVER: TableStatus = "over"


class You(TypedDict):
    seat: int | None
    host: bool
    name: str


class Welcome(TypedDict):
    type: Literal["welcome"]
    protocol: int
    server: str
    table: str
    you: You


class Joined(TypedDict):
    type: Literal["joined"]
    seat: int
    seat_token: str


class TableSeat(TypedDict):
    seat: int
    team: int
    name: str
    occupant: str  # person, bot, open
    driver: str  # person, bot, open
    connected: bool
    hold: float | None
    hold_counting: bool
    bot: str


class TurnInfo(TypedDict):
    """Whose turn it is at a turn-based table, since when, and its limit."""

    seat: int
    since: str  # UTC, ISO 8601: when the turn (or the question to the partner) began
    waited: float  # seconds since then, by the server's clock
    deadline: str | None  # when the limit passes (null: no limit)
    left: float | None  # seconds until then (0 once it has passed); null: no limit
    by_bot: bool  # the limit passed and the seat's bot plays this turn
    waiting: bool  # the limit passed and the game waits for this seat


class TableMessage(TypedDict):
    type: Literal["table"]
    table: str
    name: str
    status: TableStatus
    game: int
    version: int
    rules: dict[str, Any]
    packet_names: list[str]
    options: dict[str, Any]
    moves: list[str]
    seats: list[TableSeat]
    spectators: int
    turn: TurnInfo | None  # a turn-based table in play; null otherwise


class PileInfo(TypedDict):
    open: bool
    clause: str
    rule: str
    reason: str
    take: str | None
    uses: str
    short: int
    needs: str


class SeatPayload(TypedDict):
    """What ``state`` and ``update`` both carry, built from the reader's seat."""

    view: dict[str, Any]
    legal: list[str]
    can_undo: bool
    pile: PileInfo | None
    quota_missing: list[dict[str, int]]
    table_points: list[int]


class State(SeatPayload):
    type: Literal["state"]
    version: int
    game: int
    log: list[str]


class Update(SeatPayload):
    type: Literal["update"]
    version: int
    game: int
    seat: int
    by: str
    action: str
    log: list[str]


class CatchUpEntry(TypedDict):
    version: int
    seat: int
    by: str
    action: str
    events: list[dict[str, Any]]
    log: list[str]


# "from" is a Python keyword: the functional form.
CatchUp = TypedDict("CatchUp", {"type": Literal["catch_up"], "from": int, "to": int,
                                "entries": list[CatchUpEntry]})


class Refused(TypedDict):
    type: Literal["refused"]
    action: str
    clause: str
    rule: str
    reason: str


class Opening(TypedDict):
    laid: int
    minimum: int


class Checked(TypedDict):
    type: Literal["checked"]
    action: str
    ok: bool
    clause: str
    rule: str
    reason: str
    points: int
    opening: Opening | None


class HintAnswer(TypedDict):
    type: Literal["hint"]
    action: str | None
    text: str


class ChatLine(TypedDict):
    type: Literal["chat"]
    seat: int
    name: str
    text: str


class ErrorMessage(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    version: NotRequired[int]  # stale: the table's version now
    supported: NotRequired[list[int]]  # protocol: the versions this server speaks


class Pong(TypedDict):
    type: Literal["pong"]
    reply_to: str | int | None  # always sent: null when the ping had no id


ServerMessage = (Welcome | Joined | TableMessage | State | Update | CatchUp | Refused | Checked
                 | HintAnswer | ChatLine | ErrorMessage | Pong)
SERVER_MESSAGE_TYPES: tuple[str, ...] = tuple(_type_of(m) for m in get_args(ServerMessage))


# ====================================================================== HTTP: a new table
class RulesChoice(BaseModel):
    """A preset with house rules, or the text of a rules file."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True,
                              populate_by_name=True)

    preset: Annotated[str, Field(max_length=60)] | None = None
    players: Annotated[int, Field(ge=2, le=8)] | None = None
    team_size: Annotated[int, Field(ge=1, le=4)] | None = None
    overrides: dict[str, Any] | None = Field(default=None, alias="set")
    file: Annotated[str, Field(max_length=65536)] | None = None
    format: Literal["toml", "json"] | None = None


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: Annotated[str, Field(max_length=TABLE_NAME_LENGTH)] = ""
    rules: RulesChoice = RulesChoice()
    bots: BotLevels = "heuristic"
    options: TableOptions = TableOptions()
    host_token: Token | None = None


def parse_create(data: Any) -> CreateTable:
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", f"expected a JSON object, got {_json_type(data)}")
    try:
        return CreateTable.model_validate(data)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "(body)"
        raise ProtocolError("bad_message", _where(where, first["msg"])) from None
