"""Game records: what was dealt and what each seat did, as versioned JSON; and their replay.

A record holds the complete rules, the deal of every round (also for seeded games, so a record
stays valid if the shuffle ever changes), every action with the seat that took it, and each
round's result.  ``Record.from_game`` writes down a game, which keeps its own history; a saved
game resumes as ``replay(record).game``.  A *scenario* is a record whose rounds may leave out
their results: replay computes them.  This module works on text and mappings only; reading and
writing files is the command line's business.  The format is described in
docs/RECORD-FORMAT.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, ActionSyntaxError, parse_action
from .cards import CardError, excerpt, format_cards, parse_cards
from .clauses import CLAUSES
from .deal import Deal, DealError
from .engine import Game, wrong_seat
from .errors import HandfootError
from .events import Event, Refusal
from .options import added_since
from .rules import Rules, RulesError
from .scoring import RoundResult
from .state import RoundEnd

FORMAT = "handfoot-record"
VERSION = 4
READS = (1, 2, 3, VERSION)


def rules_as_played(raw: dict[str, Any], version: int) -> dict[str, Any]:
    """A rules mapping written under format ``version``, with every setting added since filled
    in as it was played then (mostly off): what a record, or a model's record of its table,
    meant.  Which version added which setting, and how it was played before, the table of
    options says (``Option.since`` and ``Option.played_before``)."""
    if version >= VERSION:
        return raw
    return added_since(version) | raw


_TOP_FIELDS = ("format", "version", "description", "rules", "seed", "first_dealer",
               "first_round", "seats", "rounds", "totals", "ended")
_ROUND_FIELDS = ("round", "deal", "actions", "reshuffles", "result")
_RESULT_FIELDS = ("round", "ended_by", "went_out", "turns", "teams")


class RecordError(HandfootError):
    """A record that cannot be read: ``field`` names where, e.g. ``rounds[0].deal.stock``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


@dataclass(frozen=True, slots=True)
class Seat:
    team: int
    name: str = ""


@dataclass(slots=True)
class RoundRecord:
    """One round: its deal, the actions in order with the seat that took each, its result."""

    round: int
    deal: Deal
    actions: list[tuple[int, Action]] = field(default_factory=list)
    result: RoundResult | None = None  # None while unfinished (or left out by a scenario)
    # The new stock, top first, of each time the pile was shuffled into one (9.3).
    reshuffles: list[tuple[int, ...]] = field(default_factory=list)


@dataclass(slots=True)
class Record:
    rules: Rules
    seats: list[Seat]
    rounds: list[RoundRecord]
    seed: int | None = None
    first_dealer: int = 0  # the dealer of the first recorded round
    first_round: int = 1  # a scenario may start later in the game (round 3 opens at 120)
    totals: list[int] | None = None  # None: not checked on replay (a scenario)
    ended: bool | None = None  # None: not checked on replay
    description: str = ""
    version: int = VERSION  # the format version it was read from (it is written as VERSION)

    def new_game(self) -> Game:
        """A fresh game dealt as the record's rounds were dealt."""
        return Game.new(self.rules, seed=self.seed, deals=[r.deal for r in self.rounds],
                        first_dealer=self.first_dealer, first_round=self.first_round,
                        reshuffles=[r.reshuffles for r in self.rounds])

    @classmethod
    def from_game(cls, game: Game, names: list[str] | None = None,
                  description: str = "") -> Record:
        """The record of a game so far: its deals, every action, every finished round."""
        if game.history is None:
            raise ValueError("this game keeps no history (it was made with history=False)")
        rules = game.rules
        if names is not None and len(names) != rules.players:
            raise ValueError(f"names: {rules.players} seats need {rules.players} names")
        seats = [Seat(rules.team_of(s), names[s] if names else "") for s in range(rules.players)]
        rounds = [RoundRecord(game.first_round + i, deal,
                              reshuffles=list(game.round_restocks[i])
                              if i < len(game.round_restocks) else [])
                  for i, deal in enumerate(game.round_deals)]
        for played in game.history:
            rounds[played.round - game.first_round].actions.append((played.seat, played.action))
        for i, result in enumerate(game.results):
            rounds[i].result = result
        return cls(rules=rules, seats=seats, rounds=rounds, seed=game.seed,
                   first_dealer=game.first_dealer, first_round=game.first_round,
                   totals=list(game.totals), ended=game.over, description=description)


# ====================================================================== writing
def record_to_mapping(record: Record) -> dict[str, Any]:
    """The record as plain JSON data, fields in the canonical order."""
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if record.description:
        out["description"] = record.description
    rules = record.rules.to_mapping()
    out["rules"] = {key: rules[key] for key in sorted(rules)}
    out["seed"] = record.seed
    out["first_dealer"] = record.first_dealer
    out["first_round"] = record.first_round
    out["seats"] = [({"name": s.name} if s.name else {}) | {"team": s.team}
                    for s in record.seats]
    rounds = []
    for r in record.rounds:
        row: dict[str, Any] = {"round": r.round, "deal": r.deal.to_mapping(),
                               "actions": [[seat, a.text] for seat, a in r.actions]}
        if r.reshuffles:
            row["reshuffles"] = [format_cards(order) for order in r.reshuffles]
        if r.result is not None:
            row["result"] = r.result.to_mapping()
        rounds.append(row)
    out["rounds"] = rounds
    if record.totals is not None:
        out["totals"] = list(record.totals)
    if record.ended is not None:
        out["ended"] = record.ended
    return out


def record_to_json(record: Record) -> str:
    """Canonical text: the same record always gives the same bytes, one action per line."""
    return mapping_to_json(record_to_mapping(record))


def _j(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def mapping_to_json(data: dict[str, Any]) -> str:
    """Write a record mapping in the canonical layout (indent 1, small values on one line)."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key == "rules":
            lines.append(' "rules": {')
            rules = list(value.items())
            lines += [f"  {_j(k)}: {_j(v)}{',' if j < len(rules) - 1 else ''}"
                      for j, (k, v) in enumerate(rules)]
            lines.append(f" }}{comma}")
        elif key == "seats":
            lines.append(' "seats": [')
            lines += [f"  {_j(s)}{',' if j < len(value) - 1 else ''}"
                      for j, s in enumerate(value)]
            lines.append(f" ]{comma}")
        elif key == "rounds":
            lines.append(' "rounds": [')
            for j, row in enumerate(value):
                lines += _round_lines(row, j < len(value) - 1)
            lines.append(f" ]{comma}")
        else:
            lines.append(f" {_j(key)}: {_j(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _list_block(indent: str, key: str, items: list[str], last: bool) -> list[str]:
    if not items:
        return [f"{indent}{_j(key)}: []{'' if last else ','}"]
    out = [f"{indent}{_j(key)}: ["]
    out += [f"{indent} {text}{',' if j < len(items) - 1 else ''}" for j, text in enumerate(items)]
    out.append(f"{indent}]{'' if last else ','}")
    return out


def _round_lines(row: dict[str, Any], more: bool) -> list[str]:
    out = ["  {", f"   \"round\": {_j(row['round'])},", '   "deal": {']
    deal = row["deal"]
    out += _list_block("    ", "packets", [_j(p) for p in deal["packets"]], False)
    out.append(f"    \"stock\": {_j(deal['stock'])}{',' if 'pile' in deal else ''}")
    if "pile" in deal:
        out.append(f"    \"pile\": {_j(deal['pile'])}")
    out.append("   },")
    result = row.get("result")
    reshuffles = row.get("reshuffles")
    out += _list_block("   ", "actions", [_j(a) for a in row["actions"]],
                       result is None and reshuffles is None)
    if reshuffles is not None:
        out += _list_block("   ", "reshuffles", [_j(r) for r in reshuffles], result is None)
    if result is not None:
        out.append('   "result": {')
        for key in _RESULT_FIELDS[:-1]:
            out.append(f"    {_j(key)}: {_j(result[key])},")
        out.append('    "teams": [')
        teams = result["teams"]
        for t, team in enumerate(teams):
            out.append("     {")
            out.append(f"      \"total\": {_j(team['total'])},")
            out += _list_block("      ", "lines", [_j(line) for line in team["lines"]], True)
            out.append(f"     }}{',' if t < len(teams) - 1 else ''}")
        out.append("    ]")
        out.append("   }")
    out.append(f"  }}{',' if more else ''}")
    return out


# ====================================================================== reading
def load_record(text: str) -> Record:
    """Read a record or scenario from JSON text, checking every field."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError("(file)", f"not valid JSON: {err}") from None
    except RecursionError:
        # Python's JSON reader recurses once per bracket; a record nests five deep at most.
        raise RecordError("(file)", "brackets nested too deeply; "
                          "no game record nests so deep") from None
    return record_from_mapping(data)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _need_int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if not _is_int(value):
        raise RecordError(where, f"expected a whole number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise RecordError(where, f"must be {span}, got {value}")
    return int(value)


def _need_list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(where, f"expected a list, got {type(value).__name__}")
    return value


def _need_object(value: Any, where: str, known: tuple[str, ...],
                 required: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(where, f"expected an object, got {type(value).__name__}")
    for key in value:
        if key not in known:
            raise RecordError(_join(where, str(key)), "unknown field")
    for key in required:
        if key not in value:
            raise RecordError(_join(where, key), "missing field")
    return value


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def record_from_mapping(data: Any) -> Record:
    """Build a record from parsed JSON, naming the first bad field in a ``RecordError``."""
    _need_object(data, "", _TOP_FIELDS, ("format", "version"))
    if data["format"] != FORMAT:
        raise RecordError("format", f"expected {FORMAT!r}, got {data['format']!r}")
    version = data["version"]
    if not _is_int(version):
        raise RecordError("version", f"expected a whole number, got {version!r}")
    if version not in READS:
        newer = " (written by a newer handfoot)" if version > VERSION else ""
        raise RecordError("version", f"unknown version {version}{newer}; this handfoot reads "
                          f"versions {', '.join(map(str, READS))}")
    _need_object(data, "", _TOP_FIELDS, ("rules", "seats", "rounds"))
    raw_rules = data["rules"]
    if version < VERSION and isinstance(raw_rules, dict):
        # Read as played: the settings added since were not there, so they did not apply.
        raw_rules = rules_as_played(raw_rules, version)
    rules = _read_rules(raw_rules)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise RecordError("description", "expected text")
    seed = data.get("seed")
    if seed is not None and not _is_int(seed):
        raise RecordError("seed", f"expected a whole number or null, got {seed!r}")
    first_dealer = _need_int(data.get("first_dealer", 0), "first_dealer", 0, rules.players - 1)
    first_round = _need_int(data.get("first_round", 1), "first_round", 1, rules.rounds)
    seats = _read_seats(data["seats"], rules)
    rows = _need_list(data["rounds"], "rounds")
    if not rows:
        raise RecordError("rounds", "a record needs at least one round")
    if len(rows) > rules.rounds - first_round + 1:
        raise RecordError("rounds", f"{len(rows)} rounds, but a game starting at round "
                          f"{first_round} has {rules.rounds - first_round + 1}")
    rounds = [_read_round(row, f"rounds[{i}]", first_round + i, rules, version)
              for i, row in enumerate(rows)]
    totals: list[int] | None = None
    if "totals" in data:
        raw = _need_list(data["totals"], "totals")
        if len(raw) != rules.teams:
            raise RecordError("totals", f"expected {rules.teams} team totals, got {len(raw)}")
        totals = [_need_int(v, f"totals[{i}]") for i, v in enumerate(raw)]
    ended = data.get("ended")
    if ended is not None and not isinstance(ended, bool):
        raise RecordError("ended", f"expected true or false, got {ended!r}")
    return Record(rules, seats, rounds, seed, first_dealer, first_round, totals, ended,
                  description, version)


def _read_rules(value: Any) -> Rules:
    if not isinstance(value, dict):
        raise RecordError("rules", "expected the complete rules as an object")
    try:
        return Rules.from_mapping(value)
    except RulesError as err:
        prefix = f"rules: {err.key}: "
        text = str(err)
        raise RecordError(f"rules.{err.key}", text.removeprefix(prefix)) from None


def _read_seats(value: Any, rules: Rules) -> list[Seat]:
    raw = _need_list(value, "seats")
    if len(raw) != rules.players:
        raise RecordError("seats", f"the rules seat {rules.players} players, the record lists "
                          f"{len(raw)}")
    seats = []
    for s, item in enumerate(raw):
        where = f"seats[{s}]"
        _need_object(item, where, ("name", "team"), ("team",))
        name = item.get("name", "")
        if not isinstance(name, str):
            raise RecordError(f"{where}.name", "expected text")
        team = _need_int(item["team"], f"{where}.team")
        if team != rules.team_of(s):
            raise RecordError(f"{where}.team", f"seat {s} plays in team {rules.team_of(s)} "
                              f"(team = seat mod {rules.teams}), not {team}")
        seats.append(Seat(team, name))
    return seats


def _read_round(row: Any, where: str, number: int, rules: Rules,
                version: int = VERSION) -> RoundRecord:
    known = _ROUND_FIELDS if version >= 3 else tuple(f for f in _ROUND_FIELDS
                                                     if f != "reshuffles")
    _need_object(row, where, known, ("round", "deal", "actions"))
    got = _need_int(row["round"], f"{where}.round")
    if got != number:
        raise RecordError(f"{where}.round", f"expected round {number} (rounds follow "
                          f"first_round in order), got {got}")
    deal = _read_deal(row["deal"], f"{where}.deal", rules)
    actions = []
    for i, item in enumerate(_need_list(row["actions"], f"{where}.actions")):
        at = f"{where}.actions[{i}]"
        if not isinstance(item, list) or len(item) != 2:
            raise RecordError(at, "expected [seat, \"action text\"]")
        seat = _need_int(item[0], f"{at}[0]", 0, rules.players - 1)
        if not isinstance(item[1], str):
            raise RecordError(f"{at}[1]", "expected the action as text")
        try:
            action = parse_action(item[1])
        except ActionSyntaxError as err:
            raise RecordError(f"{at}[1]", str(err)) from None
        actions.append((seat, action))
    reshuffles = []
    for i, text in enumerate(_need_list(row.get("reshuffles", []), f"{where}.reshuffles")):
        at = f"{where}.reshuffles[{i}]"
        if not isinstance(text, str):
            raise RecordError(at, "expected the new stock as card text, top card first")
        try:
            reshuffles.append(tuple(parse_cards(text)))
        except CardError as err:
            raise RecordError(at, str(err)) from None
    result = None
    if "result" in row:
        result = _read_result(row["result"], f"{where}.result", number, rules)
    return RoundRecord(number, deal, actions, result, reshuffles)


def _read_deal(value: Any, where: str, rules: Rules) -> Deal:
    _need_object(value, where, ("packets", "stock", "pile"), ("packets", "stock"))
    # Card tokens are checked here first so the error can name the exact packet.
    seats = _need_list(value["packets"], f"{where}.packets")
    texts = [(f"{where}.packets[{s}][{p}]", packet)
             for s, seat in enumerate(seats) if isinstance(seat, list)
             for p, packet in enumerate(seat)]
    texts += [(f"{where}.{key}", value[key]) for key in ("stock", "pile") if key in value]
    for at, text in texts:
        if not isinstance(text, str):
            raise RecordError(at, "expected cards as text, such as \"K K 2 R3\"")
        try:
            parse_cards(text)
        except CardError as err:
            raise RecordError(at, str(err)) from None
    try:
        return Deal.from_mapping(value, rules)
    except DealError as err:
        raise RecordError(where, str(err)) from None


def _read_result(raw: Any, where: str, number: int, rules: Rules) -> RoundResult:
    value = _need_object(raw, where, _RESULT_FIELDS, _RESULT_FIELDS)
    if value["round"] != number:
        raise RecordError(f"{where}.round", f"expected {number}, got {value['round']!r}")
    if value["ended_by"] not in tuple(RoundEnd):
        raise RecordError(f"{where}.ended_by", f"expected one of {', '.join(RoundEnd)}, got "
                          f"{value['ended_by']!r}")
    _need_int(value["went_out"], f"{where}.went_out", -1, rules.players - 1)
    _need_int(value["turns"], f"{where}.turns", 0)
    teams = _need_list(value["teams"], f"{where}.teams")
    if len(teams) != rules.teams:
        raise RecordError(f"{where}.teams", f"expected {rules.teams} teams, got {len(teams)}")
    for t, team in enumerate(teams):
        at = f"{where}.teams[{t}]"
        _need_object(team, at, ("lines", "total"), ("lines", "total"))
        _need_int(team["total"], f"{at}.total")
        for i, line in enumerate(_need_list(team["lines"], f"{at}.lines")):
            if (not isinstance(line, list) or len(line) != 2 or not isinstance(line[0], str)
                    or not _is_int(line[1])):
                raise RecordError(f"{at}.lines[{i}]", "expected [\"label\", points]")
    return RoundResult.from_mapping(value)


# ====================================================================== replay
@dataclass(frozen=True, slots=True)
class Step:
    """One replayed action: where it stands in the record and what it caused."""

    round: int
    index: int  # position in the round's "actions" list, from 0
    turn: int
    seat: int
    action: Action
    events: list[Event]


@dataclass(frozen=True, slots=True)
class IllegalStep:
    """The first action of a record the rules refuse."""

    round: int
    index: int
    seat: int
    text: str
    clause: str
    reason: str

    def message(self) -> str:
        title = CLAUSES.get(self.clause, "")
        rule = f"rule {self.clause}" + (f" ({title})" if title else "")
        return (f"round {self.round}, actions[{self.index}]: seat {self.seat} "
                f"{excerpt(self.text)} is illegal: {self.reason} [{rule}]")


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A recorded figure the replay does not reproduce.  ``round`` is None for the game's
    totals and end."""

    round: int | None
    field: str
    recorded: Any
    replayed: Any

    def message(self) -> str:
        where = f"round {self.round}: " if self.round is not None else ""
        return (f"{where}{self.field}: the record says {_j(self.recorded)}, the replay gives "
                f"{_j(self.replayed)}")


@dataclass(slots=True)
class ReplayResult:
    game: Game
    record: Record  # the record as replayed (saving it reproduces a complete record's bytes)
    steps: list[Step]
    illegal: IllegalStep | None = None
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.illegal is None and not self.mismatches

    @property
    def results(self) -> list[RoundResult]:
        return self.game.results

    @property
    def totals(self) -> list[int]:
        return self.game.totals


def replay(record: Record) -> ReplayResult:
    """Play the record's actions on its deals, checking each actor, each round's result and
    the totals.  Stops at the first illegal action."""
    game = record.new_game()
    names = [s.name for s in record.seats]
    out = ReplayResult(game, record, [])
    for r, rnd in enumerate(record.rounds):
        for i, (seat, action) in enumerate(rnd.actions):
            refusal = _step_refusal(game, r, seat, action)
            if refusal is not None:
                out.illegal = IllegalStep(rnd.round, i, seat, action.text, *refusal)
                out.record = Record.from_game(game, names, record.description)
                return out
            turn = game.turns
            try:
                events = game.apply(action)
            except DealError as err:
                raise RecordError(f"{_where_round(r)}.reshuffles", str(err)) from None
            out.steps.append(Step(rnd.round, i, turn, seat, action, events))
        if not _check_round(game, record, r, out.mismatches):
            break  # the round did not end: later rounds' actions would land in it
    out.record = Record.from_game(game, names, record.description)
    if record.totals is not None and record.totals != game.totals:
        out.mismatches.append(Mismatch(None, "totals", record.totals, game.totals))
    if record.ended is not None and record.ended != game.over:
        out.mismatches.append(Mismatch(None, "ended", record.ended, game.over))
    return out


def problems(outcome: ReplayResult) -> list[str]:
    """What keeps a replayed record from matching, one line each (none when it matches): the
    words ``handfoot replay`` prints and the web page's upload answers with."""
    lines = [] if outcome.illegal is None else [f"illegal action: {outcome.illegal.message()}"]
    return lines + [f"mismatch: {m.message()}" for m in outcome.mismatches]


def _where_round(r: int) -> str:
    return f"rounds[{r}]"


def _step_refusal(game: Game, r: int, seat: int, action: Action) -> Refusal | None:
    if game.over:
        return Refusal("10.8", "the game is over")
    if len(game.results) > r:
        return Refusal("3.1", "this round has already ended")
    if seat != game.actor:
        return Refusal("3.1", wrong_seat(game, seat))
    return game.refusal(action)


def _check_round(game: Game, record: Record, r: int, mismatches: list[Mismatch]) -> bool:
    """Compare round ``r``'s result; False when the round should have ended and did not."""
    rnd = record.rounds[r]
    finished = len(game.results) > r
    if not finished:
        if rnd.result is not None or r < len(record.rounds) - 1:
            mismatches.append(Mismatch(rnd.round, "ended", True, False))
            return False
        return True
    if rnd.result is not None:
        recorded, replayed = rnd.result.to_mapping(), game.results[r].to_mapping()
        if record.version == 1:
            recorded, replayed = _v1_lines(recorded), _v1_lines(replayed)
        _compare(rnd.round, "result", recorded, replayed, mismatches)
    return True


def _v1_lines(result: dict[str, Any]) -> dict[str, Any]:
    """A result with its "cards left in ..." lines as one: version 1 named the packet being
    played after the knee "knee" where version 2 says "hand", so only their sum compares."""
    for team in result["teams"]:
        left = [line for line in team["lines"] if line[0].startswith("cards left in")]
        rest = [line for line in team["lines"] if not line[0].startswith("cards left in")]
        if left:
            rest.append(["cards left", sum(points for _, points in left)])
        team["lines"] = rest
    return result


def _compare(round_no: int, where: str, recorded: Any, replayed: Any,
             mismatches: list[Mismatch]) -> None:
    """Record the differences between two JSON values, down to the first differing leaf."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in list(recorded) + [k for k in replayed if k not in recorded]:
            _compare(round_no, f"{where}.{key}", recorded.get(key), replayed.get(key),
                     mismatches)
        return
    if (isinstance(recorded, list | tuple) and isinstance(replayed, list | tuple)
            and len(recorded) == len(replayed)
            and not all(isinstance(x, str | int) for x in (*recorded, *replayed))):
        for i, (a, b) in enumerate(zip(recorded, replayed, strict=True)):
            _compare(round_no, f"{where}[{i}]", a, b, mismatches)
        return
    if _plain(recorded) != _plain(replayed):
        mismatches.append(Mismatch(round_no, where, recorded, replayed))


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
