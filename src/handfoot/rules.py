"""The rules object: one frozen, validated description of a table's rules.

Every point on which the rule documents disagree is a field here.  Presets (presets.py) are
plain mappings of these fields; a table's house rules are a preset plus overrides.  Nothing is
silently defaulted: a mapping must name every field, and unknown keys, wrong types and
impossible combinations are refused with the key named.  Each field is declared, with its
kind, choices, clause and meaning, in the table of options.py; this module reads and writes the
mapping form by that table and checks the combinations.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from .cards import KIND_TOKENS, NATURAL_RANKS, CardError, agree, parse_kind, plural
from .errors import HandfootError
from .options import BY_KEY, Option

# Declared with the options; imported from here by the rest of handfoot as before.
from .options import CARD_VALUE_KEYS as CARD_VALUE_KEYS
from .options import CHOICES as CHOICES
from .options import UNLIMITED as UNLIMITED


class RulesError(HandfootError):
    """A rules setting that is unknown, of the wrong type, or contradicts another."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"rules: {key}: {message}")
        self.key = key


# The choice fields' types, so a misspelt choice fails type checking as well as validation.
# The choices themselves are declared in options.py; tests/test_options.py checks that every
# Literal here names exactly those.
UpcardRejected = Literal["bury", "cover"]
RedThrees = Literal["bonus", "dead"]
RedThreeReplacement = Literal["always", "not_from_packets", "first_packet_only", "never"]
PilePair = Literal["natural", "meldable"]
PileWildTop = Literal["matching_pair", "blocked"]
PileBeforeOpening = Literal["top_card_counts", "hand_only", "top_card_only", "never"]
AddToCanasta = Literal["never", "always", "not_special"]
WildRatio = Literal["fewer_than_naturals", "at_most_half", "at_most_naturals", "none"]
OpeningBy = Literal["round", "score"]
KneePickup = Literal["team_first_canasta", "when_empty"]
EmptyBeforeKnee = Literal["forbidden", "take_knee"]
PartnerInFoot = Literal["no", "in_foot", "played_from_foot"]
PermissionYes = Literal["binding", "allows"]
LastCard = Literal["meld_or_discard", "discard"]
StockOut = Literal["end_of_turn", "cannot_draw", "pile_only", "nobody_takes", "reshuffle"]
FinalLap = Literal["never", "meld_out", "always"]
# Numbers a table picks from a short list: Literal types too, checked by validate().
DrawCount = Literal[1, 2, 3]
JokersPerDeck = Literal[0, 2, 4]
DRAW_COUNTS = BY_KEY["draw_count"].allowed
JOKERS_PER_DECK = BY_KEY["jokers"].allowed

BASE_CANASTA_KINDS = ("clean", "dirty", "wild")


def canasta_kind_rank(kind: str) -> int | None:
    """The rank of a rank canasta kind such as ``7s``; None for clean, dirty and wild."""
    if kind in BASE_CANASTA_KINDS:
        return None
    if not kind.endswith("s"):
        raise CardError(f"unknown canasta kind {kind!r}")
    rank = parse_kind(kind[:-1])
    if rank not in NATURAL_RANKS:
        raise CardError(f"{kind!r} is not a meldable rank")
    return rank


def rank_kind_name(rank: int) -> str:
    return KIND_TOKENS[rank] + "s"


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set.  Build with :func:`Rules.from_mapping` or :mod:`handfoot.presets`."""

    name: str
    source: str
    # Seats and cards
    players: int
    team_size: int
    decks: int
    jokers: JokersPerDeck  # jokers in each deck
    packets: tuple[int, ...]
    rounds: int
    card_values: tuple[int, ...]  # by kind, naturals and wilds (13 entries)
    # The upcard
    upcard: bool
    upcard_rejects: frozenset[int]
    upcard_rejected: UpcardRejected
    # Threes
    red_threes: RedThrees
    red_three_bonus: int
    red_three_penalty: int
    red_three_replacement: RedThreeReplacement
    red_three_set_size: int
    red_three_set_bonus: int
    red_three_bonus_needs_canasta: bool
    black_three_penalty: int
    black_three_book: bool  # black threes may be melded from the foot as a book
    black_three_blocks: bool  # a black three on top of the pile blocks it
    # The turn
    draw_count: DrawCount  # cards drawn from the stock
    # The pile
    pile_take: int  # 0 = the whole pile
    pile_pair: PilePair
    pile_wild_top: PileWildTop
    pile_before_opening: PileBeforeOpening
    pile_opening_checked: bool  # a pile taken before the opening must be able to reach it
    pile_onto_meld: bool  # the top card alone may go onto the team's open meld of its rank
    pile_any_card: bool  # the pile may be picked up when any card of it plays at once
    discard_after_pile: bool
    # Melds
    meld_min: int
    canasta_size: int
    add_to_canasta: AddToCanasta
    wild_ratio: WildRatio
    max_wilds: int  # UNLIMITED (-1): no cap
    naturals_before_wild: int
    wilds_first: bool
    no_wild_ranks: frozenset[int]
    wild_melds: bool
    # The opening
    opening_by: OpeningBy
    opening_minimums: tuple[int, ...]
    opening_score_table: tuple[tuple[int, int], ...]
    opening_counts_bonuses: bool  # canastas finished in the opening count their bonus
    whole_hand_opening: bool  # melding the whole hand opens below the minimum
    # Knee and foot
    knee_pickup: KneePickup
    empty_before_knee: EmptyBeforeKnee
    foot_replaces_draw: bool  # a packet reached by a discard replaces the next turn's draw
    # Going out
    quota: tuple[tuple[str, int], ...]
    special_fills_clean: bool
    clean_fills_dirty: bool
    partner_in_foot: PartnerInFoot
    permission: bool
    permission_yes: PermissionYes
    last_card: LastCard
    strip_bare: bool  # the foot's last card may be discarded without going out
    going_out_bonus: int
    final_lap: FinalLap
    stock_out: StockOut
    max_reshuffles: int  # the most times a round's pile becomes a new stock (9.3)
    turn_cap: int
    # Scoring
    canasta_bonus: tuple[tuple[str, int], ...]
    canasta_pennies: int  # cards set aside from the stock when a canasta is finished
    exact_cut_bonus: int
    knee_reminder_penalty: int
    over_meld_penalty: int

    # ----------------------------------------------------------------- derived facts
    @property
    def teams(self) -> int:
        return self.players // self.team_size

    def team_of(self, seat: int) -> int:
        return seat % self.teams

    def seats_of(self, team: int) -> tuple[int, ...]:
        return tuple(range(team, self.players, self.teams))

    @property
    def packet_names(self) -> tuple[str, ...]:
        n = len(self.packets)
        if n == 2:
            return ("hand", "foot")
        if n == 3:
            return ("hand", "knee", "foot")
        return ("hand", *(f"knee {i}" for i in range(1, n - 1)), "foot")

    @property
    def shoe_size(self) -> int:
        return self.decks * (52 + self.jokers)

    @property
    def wilds_per_deck(self) -> int:
        return 4 + self.jokers

    def canasta_bonus_of(self, kind: str) -> int:
        return dict(self.canasta_bonus).get(kind, 0)

    @property
    def rank_kinds(self) -> dict[int, str]:
        """Ranks whose clean canastas are a kind of their own (e.g. 7s), by rank."""
        out: dict[int, str] = {}
        for kind, _ in self.canasta_bonus:
            rank = canasta_kind_rank(kind)
            if rank is not None:
                out[rank] = kind
        return out

    def opening_minimum(self, round_no: int, team_score: int) -> int:
        if self.opening_by == "score":
            minimum = 0
            for at_least, value in self.opening_score_table:
                if team_score >= at_least:
                    minimum = value
            return minimum
        return self.opening_minimums[min(round_no, len(self.opening_minimums)) - 1]

    # ----------------------------------------------------------------- mapping form
    def to_mapping(self) -> dict[str, Any]:
        """Plain TOML/JSON-friendly mapping; ``Rules.from_mapping`` rebuilds an equal object."""
        out: dict[str, Any] = {}
        for f in fields(self):
            out[f.name] = _to_plain(f.name, getattr(self, f.name))
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise RulesError(key, "unknown setting" + _suggest(key, known))
        missing = [k for k in known if k not in data]
        if missing:
            raise RulesError(", ".join(sorted(missing)), "missing setting (no silent defaults)")
        values = {key: _from_plain(key, data[key]) for key in known}
        rules = cls(**values)
        rules.validate()
        return rules

    def replace(self, **overrides: Any) -> Rules:
        """A copy with some settings changed, given in mapping form, and validated again.

        >>> from handfoot.presets import preset
        >>> preset("hand-and-foot").replace(pile_take="whole").to_mapping()["pile_take"]
        'whole'
        >>> preset("hand-and-foot").replace(pile_tak="whole")
        Traceback (most recent call last):
        handfoot.rules.RulesError: rules: pile_tak: unknown setting (did you mean 'pile_take'?)
        """
        data = self.to_mapping()
        data.update(overrides)
        return Rules.from_mapping(data)

    def to_json(self) -> str:
        return json.dumps(self.to_mapping(), indent=2, ensure_ascii=False)

    def to_toml(self) -> str:
        return dump_toml(self.to_mapping())

    # ----------------------------------------------------------------- validation
    def validate(self) -> None:
        def need(ok: bool, key: str, message: str) -> None:
            if not ok:
                raise RulesError(key, message)

        for key, choices in CHOICES.items():
            value = getattr(self, key)
            need(value in choices, key, f"{value!r} is not one of {', '.join(choices)}")
        need(2 <= self.players <= 6, "players", "must be from 2 to 6 (no rule document "
             "seats more than six)")
        need(self.team_size >= 1, "team_size", "must be at least 1")
        need(
            self.players % self.team_size == 0 and self.players // self.team_size >= 2,
            "team_size",
            f"{self.players} players do not split into two or more teams of {self.team_size}",
        )
        need(self.decks >= 1, "decks", "must be at least 1")
        # Upper bounds keep a typing slip (decks = 10000000) from asking for gigabytes or a
        # round that never ends; each is far past what the documents or a table use.
        need(self.decks <= 20, "decks", "at most 20: the documents shuffle at most 7 decks, "
             "one more than the players, and 20 is more than a table can shuffle")
        need(self.jokers in JOKERS_PER_DECK, "jokers", "must be 0, 2 or 4 jokers a deck")
        need(self.draw_count in DRAW_COUNTS, "draw_count", "must be 1, 2 or 3 cards")
        need(len(self.packets) >= 2, "packets", "needs at least a hand and a foot")
        need(all(p >= 1 for p in self.packets), "packets", "every packet needs a card")
        dealt = self.players * sum(self.packets)
        need(
            dealt + 2 <= self.shoe_size,
            "packets",
            f"{self.players} players x {sum(self.packets)} cards = {dealt} dealt, but "
            f"{plural(self.decks, 'deck')} {agree(self.decks, 'holds', 'hold')} "
            f"{self.shoe_size} cards and the stock needs some",
        )
        need(self.rounds >= 1, "rounds", "must be at least 1")
        need(self.rounds <= 100, "rounds", "at most 100: the documents play 4")
        need(len(self.card_values) == 13, "card_values", "needs a value for every natural rank "
             "and wild card")
        need(all(v >= 0 for v in self.card_values), "card_values", "values cannot be negative")
        need(self.meld_min >= 1, "meld_min", "must be at least 1")
        need(self.meld_min == 3, "meld_min", "the engine melds three cards at a time "
             "when a meld starts; only 3 is supported")
        need(self.canasta_size > self.meld_min, "canasta_size", "must exceed meld_min")
        most = (4 + self.wilds_per_deck) * self.decks
        need(self.canasta_size <= most, "canasta_size",
             f"at most {most}: a canasta is cards of one rank and wild cards, and "
             f"each deck holds 4 of a rank and {self.wilds_per_deck} wild cards")
        need(self.max_wilds == UNLIMITED or 0 <= self.max_wilds < self.canasta_size,
             "max_wilds", "must be 'unlimited' or from 0 to one less than canasta_size")
        need(self.naturals_before_wild >= 1, "naturals_before_wild", "must be at least 1")
        need(self.pile_take >= 0, "pile_take", "must be 'whole' or a positive count")
        need(1 <= self.max_reshuffles <= 100, "max_reshuffles", "must be from 1 to 100 "
             "reshuffles a round (the turn cap bounds a round as well)")
        need(self.turn_cap >= 10, "turn_cap", "must be at least 10 turns")
        need(self.turn_cap <= 10_000, "turn_cap", "at most 10000 turns: the presets cap a "
             "round at 400 or 600, and a real round ends far sooner")
        need(len(self.opening_minimums) >= 1, "opening_minimums", "needs at least one value")
        need(all(m >= 0 for m in self.opening_minimums), "opening_minimums",
             "minimums cannot be negative")
        if self.opening_by == "round":
            need(len(self.opening_minimums) >= self.rounds, "opening_minimums",
                 f"needs a minimum for each of the {self.rounds} rounds")
        else:
            need(len(self.opening_score_table) >= 1, "opening_score_table",
                 "opening_by = 'score' needs a table of [score at least, minimum] rows")
        steps = [row[0] for row in self.opening_score_table]
        need(steps == sorted(steps), "opening_score_table", "rows must be in rising score order")
        kinds = dict(self.canasta_bonus)
        for kind in BASE_CANASTA_KINDS:
            need(kind in kinds, "canasta_bonus", f"needs a value for {kind!r} canastas")
        for kind, count in self.quota:
            need(kind in kinds, "quota", f"{kind!r} canastas have no entry in canasta_bonus")
            need(count >= 0, "quota", f"{kind!r}: a count cannot be negative")
        quota = dict(self.quota)
        if quota.get("wild", 0):
            need(self.wild_melds, "quota", "asks for a wild canasta but wild_melds is false")
        if quota.get("dirty", 0):
            need(self.max_wilds != 0, "quota", "asks for a dirty canasta but max_wilds is 0")
        need(self.pile_wild_top != "matching_pair" or self.wild_melds, "pile_wild_top",
             "'matching_pair' melds three wild cards, but wild_melds is false")
        if self.red_threes == "dead":
            need(self.red_three_replacement == "never", "red_three_replacement",
                 "must be 'never' when red_threes is 'dead'")
            need(self.red_three_bonus == 0 and self.red_three_set_bonus == 0, "red_three_bonus",
                 "dead red threes are never laid, so they cannot earn a bonus")
        need(self.red_three_set_size >= 0, "red_three_set_size", "cannot be negative")
        for key in ("red_three_bonus", "red_three_penalty", "black_three_penalty",
                    "going_out_bonus", "exact_cut_bonus", "knee_reminder_penalty",
                    "over_meld_penalty", "red_three_set_bonus"):
            need(getattr(self, key) >= 0, key, "write penalties as positive numbers")
        need(self.canasta_pennies >= 0, "canasta_pennies", "cannot be negative")
        need(len(self.upcard_rejects) < 15, "upcard_rejects",
             "rejects every card: no upcard could ever be turned")
        need(self.black_three_blocks or self.black_three_book or self.pile_any_card,
             "black_three_blocks", "false needs a way to take a black three on top: "
             "black_three_book (a book from the foot) or pile_any_card (another card plays)")
        need(not (self.pile_any_card and self.pile_before_opening == "hand_only"),
             "pile_any_card", "counts the cards picked up from the pile toward the opening, "
             "but pile_before_opening = 'hand_only' counts only the hand's")


# --------------------------------------------------------------------- conversion helpers
# One reader and one writer per kind of option (options.KINDS); which kind each option is, the
# table of options says.
def _type_name(value: Any) -> str:
    return type(value).__name__


def _int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(key, f"expected a whole number, got {_type_name(value)} {value!r}")
    return value


def _from_plain(key: str, value: Any) -> Any:
    option = BY_KEY.get(key)
    if option is None:  # pragma: no cover - keys are checked first
        raise RulesError(key, "unknown setting")
    return _READERS[option.kind](option, value)


def _read_int(option: Option, value: Any) -> int:
    return _int(option.key, value)


def _read_bool(option: Option, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError(option.key, f"expected true or false, got {value!r}")
    return value


def _read_text(option: Option, value: Any) -> str:
    if not isinstance(value, str):
        raise RulesError(option.key, f"expected text, got {_type_name(value)} {value!r}")
    return value


def _read_pile_take(option: Option, value: Any) -> int:
    if value == "whole":
        return 0
    n = _int(option.key, value)
    if n < 1:
        raise RulesError(option.key, "must be 'whole' or a count of at least 1")
    return n


def _read_max_wilds(option: Option, value: Any) -> int:
    if value == "unlimited":
        return UNLIMITED
    n = _int(option.key, value)
    if n < 0:
        raise RulesError(option.key, "must be 'unlimited' or a count from 0")
    return n


def _read_ints(option: Option, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise RulesError(option.key, f"expected a list of whole numbers, got {value!r}")
    return tuple(_int(option.key, v) for v in value)


def _read_card_values(option: Option, value: Any) -> tuple[int, ...]:
    key = option.key
    table = _table(key, value)
    out = []
    for token in CARD_VALUE_KEYS:
        if token not in table:
            raise RulesError(key, f"needs a value for {token!r}")
        out.append(_int(f"{key}.{token}", table[token]))
    extra = set(table) - set(CARD_VALUE_KEYS)
    if extra:
        raise RulesError(key, f"unknown card {sorted(extra)[0]!r}; threes are priced by "
                         "red_three_* and black_three_penalty")
    return tuple(out)


def _read_cards(option: Option, value: Any) -> frozenset[int]:
    key = option.key
    if not isinstance(value, list | tuple):
        raise RulesError(key, f"expected a list of cards, got {value!r}")
    try:
        kinds = frozenset(parse_kind(str(v)) for v in value)
    except CardError as err:
        raise RulesError(key, str(err)) from None
    if any(k not in option.cards for k in kinds):
        raise RulesError(key, option.cards_refused)
    return kinds


def _read_kinds(option: Option, value: Any) -> tuple[tuple[str, int], ...]:
    key = option.key
    table = _table(key, value)
    out_pairs = []
    for kind, count in table.items():
        try:
            canasta_kind_rank(kind)
        except CardError as err:
            raise RulesError(f"{key}.{kind}", f"{err}: kinds are clean, dirty, wild or a "
                             "rank such as 7s") from None
        out_pairs.append((kind, _int(f"{key}.{kind}", count)))
    return tuple(out_pairs)


def _read_score_table(option: Option, value: Any) -> tuple[tuple[int, int], ...]:
    key = option.key
    if not isinstance(value, list | tuple):
        raise RulesError(key, "expected a list of [score at least, minimum] pairs")
    rows = []
    for row in value:
        if not isinstance(row, list | tuple) or len(row) != 2:
            raise RulesError(key, f"row {row!r} is not a [score at least, minimum] pair")
        rows.append((_int(key, row[0]), _int(key, row[1])))
    return tuple(rows)


def _table(key: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RulesError(key, f"expected a table, got {_type_name(value)} {value!r}")
    return value


def _same(value: Any) -> Any:
    return value


_READERS: dict[str, Callable[[Option, Any], Any]] = {
    "text": _read_text, "int": _read_int, "bool": _read_bool, "choice": _read_text,
    "ints": _read_ints, "pile_take": _read_pile_take, "max_wilds": _read_max_wilds,
    "card_values": _read_card_values, "cards": _read_cards, "kinds": _read_kinds,
    "score_table": _read_score_table,
}
_WRITERS: dict[str, Callable[[Any], Any]] = {
    "text": _same, "int": _same, "bool": _same, "choice": _same, "ints": list,
    "pile_take": lambda v: "whole" if v == 0 else v,
    "max_wilds": lambda v: "unlimited" if v == UNLIMITED else v,
    "card_values": lambda v: dict(zip(CARD_VALUE_KEYS, v, strict=True)),
    "cards": lambda v: [KIND_TOKENS[k] for k in sorted(v)],
    "kinds": dict,
    "score_table": lambda v: [list(row) for row in v],
}


def _to_plain(key: str, value: Any) -> Any:
    return _WRITERS[BY_KEY[key].kind](value)


def _suggest(key: str, known: set[str]) -> str:
    import difflib

    close = difflib.get_close_matches(key, sorted(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


# --------------------------------------------------------------------- TOML and JSON text
# Python's TOML and JSON readers recurse once per bracket, so a few hundred nested brackets end
# in RecursionError, which is the text's fault: no rules value nests more than three deep.
TOO_DEEP = "brackets nested too deeply; no rules value nests so deep"


def parse_value(key: str, text: str) -> Any:
    """A value from the command line (``--set key=value``), read as TOML, else as text."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except RecursionError:
        raise RulesError(key, TOO_DEEP) from None
    except tomllib.TOMLDecodeError:
        if text.startswith(("[", "{")):
            raise RulesError(key, f"cannot read {text!r} as a TOML list or table") from None
        return text
    except ValueError:  # Python's limit on an integer's digits (4,300), met inside tomllib
        raise RulesError(key, "a number of thousands of digits is past any value") from None


def loads_toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulesError("(file)", f"not valid TOML: {err}") from None
    except RecursionError:
        raise RulesError("(file)", TOO_DEEP) from None


def loads_json(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RulesError("(file)", f"not valid JSON: {err}") from None
    except RecursionError:
        raise RulesError("(file)", TOO_DEEP) from None
    if not isinstance(data, dict):
        raise RulesError("(file)", "a rules file must hold one object")
    return data


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) \
            + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() and key.isascii() \
        and not key[0].isdigit() else json.dumps(key)


def dump_toml(data: Mapping[str, Any]) -> str:
    return "".join(f"{_toml_key(k)} = {_toml_value(v)}\n" for k, v in data.items())

