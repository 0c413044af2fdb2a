"""One round's entries, as a score sheet has them, checked against the rules and turned into
the engine's :class:`~handfoot.scoring.Tally`.

A team's entry is a plain mapping (stored as JSON, read from TOML or JSON files, edited with
``--set path=value``)::

    canastas         {"clean": 1, "dirty": 1, "7s": 1, "dirty Qs": 1, ...}
    red_threes_laid  3
    melded_points    460          or  melded_cards {"jokers": 2, "2s-aces": 6, "K-8": 7, "7-4": 14}
    went_out         0 (nobody) or the number of the team's player who went out (1, 2, ...)
    players          [{"hand": 0, "knee": 0, "foot": 15, "red_threes_held": 0,
                       "black_threes_held": 0}, ...]   one per player of the team
    over_meld, knee_reminders, exact_cuts   counts
    other_penalties  [{"points": 50, "reason": "..."}]
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from handfoot.cards import KIND_TOKENS, NATURAL_RANKS, CardError, agree, parse_kind, plural
from handfoot.derived import derived_for
from handfoot.rules import Rules
from handfoot.scoring import Tally

from . import ScoreError
from .bounds import VALUE_GROUPS, Shoe, shoe_of
from .names import check_text, shown, whole_number

T = TypeVar("T")

PLAYER_THREES = ("red_threes_held", "black_threes_held")
PENALTY_COUNTS = ("over_meld", "knee_reminders", "exact_cuts")
TEAM_KEYS = ("canastas", "red_threes_laid", "melded_points", "melded_cards", "went_out",
             "players", *PENALTY_COUNTS, "other_penalties")


@dataclass(frozen=True, slots=True)
class Seating:
    """The game's teams and, for each team, its players' names (in seat order)."""

    teams: tuple[str, ...]
    players: tuple[tuple[str, ...], ...]

    def team_number(self, ref: object) -> int:
        """A team's index from its number (1-based) or its name (case-insensitive, or a
        unique start of it)."""
        if isinstance(ref, int) and not isinstance(ref, bool):
            if 1 <= ref <= len(self.teams):
                return ref - 1
            raise ScoreError(f"there is no team {ref}: the teams are numbered 1 to "
                             f"{len(self.teams)}")
        text = str(ref).strip()
        number = whole_number(text, "team")
        if number is not None:
            return self.team_number(number)
        return _find_name(text, self.teams, "team")

    def player_number(self, team: int, ref: object) -> int:
        """A player's index within the team, from a number (1-based) or a name."""
        names = self.players[team]
        if isinstance(ref, int) and not isinstance(ref, bool):
            if 1 <= ref <= len(names):
                return ref - 1
            raise ScoreError(f"{self.teams[team]} has no player {ref}: its players are "
                             f"numbered 1 to {len(names)}")
        text = str(ref).strip()
        number = whole_number(text, f"player of {self.teams[team]}")
        if number is not None:
            return self.player_number(team, number)
        return _find_name(text, names, f"player of {self.teams[team]}")


def _find_name(text: str, names: Sequence[str], what: str) -> int:
    low = text.lower()
    exact = [i for i, name in enumerate(names) if name.lower() == low]
    if exact:
        return exact[0]
    starts = [i for i, name in enumerate(names) if name.lower().startswith(low)]
    if len(starts) == 1:
        return starts[0]
    listed = ", ".join(repr(n) for n in names)
    raise ScoreError(f"no {what} is called {shown(text)!r} (known: {listed})")


def packet_keys(rules: Rules) -> tuple[str, ...]:
    """Field names of the packets, e.g. ``hand``, ``knee``, ``foot`` (``knee_1`` for more)."""
    return tuple(name.replace(" ", "_") for name in rules.packet_names)


def canasta_kinds_asked(rules: Rules) -> list[str]:
    """The canasta kinds a sheet has a column for: rank kinds first, then clean, dirty, wild."""
    kinds = [kind for kind, _ in rules.canasta_bonus if kind not in ("clean", "dirty", "wild")]
    kinds += ["clean", "dirty"]
    if rules.wild_melds:
        kinds.append("wild")
    return kinds


# ------------------------------------------------------------------ reading an entry
def _count(field: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        number = whole_number(value, field) if isinstance(value, str) else None
        if number is not None:
            return number
        raise ScoreError(f"{field}: expected a whole number, got {value!r}")
    if value < 0:
        raise ScoreError(f"{field}: cannot be negative ({value})")
    return value


def _table(field: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScoreError(f"{field}: expected a table of names and numbers, got {value!r}")
    return value


def canasta_key(text: str) -> str:
    """The normal spelling of a canasta entry: clean, dirty, wild, ``7s``, ``dirty 5s``,
    ``clean Ks``."""
    words = text.strip().split()
    low = [w.lower() for w in words]
    if len(words) == 1 and low[0] in ("clean", "dirty", "wild"):
        return low[0]
    prefix = ""
    if len(words) == 2 and low[0] in ("clean", "dirty"):
        prefix, words = low[0] + " ", words[1:]
    if len(words) == 1 and len(words[0]) >= 2 and words[0][-1] in "sS":
        try:
            rank = parse_kind(words[0][:-1])
        except CardError:
            rank = -1
        if rank in NATURAL_RANKS:
            return prefix + KIND_TOKENS[rank] + "s"
    raise ScoreError(f"canastas: {text!r} is not a kind of canasta: use clean, dirty, wild, a "
                     "rank such as 7s, or 'dirty 5s' / 'clean Ks' to name the rank")


def group_key(text: str) -> str:
    norm = text.strip().lower().replace("_", "-").replace("/", "-").replace(" ", "")
    for key in VALUE_GROUPS:
        if key.lower() == norm:
            return key
    raise ScoreError(f"melded_cards: {text!r} is not a value group: use "
                     f"{', '.join(VALUE_GROUPS)}")


def _unknown(field: str, key: str, known: Sequence[str], hint: str = "") -> ScoreError:
    close = difflib.get_close_matches(key, list(known), n=1)
    suggestion = f" (did you mean {close[0]!r}?)" if close else ""
    return ScoreError(f"{field}: unknown field {key!r}{suggestion}{hint}; known: "
                      f"{', '.join(known)}")


class Problems:
    """Every problem found while reading a round, so all are reported at once; a field that
    cannot be read is taken as its default meanwhile."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def add(self, message: str) -> None:
        self.found.append(message)

    def read(self, default: T, read: Callable[..., T], *args: Any) -> T:
        """``read(*args)``, or ``default`` with the problem noted."""
        try:
            return read(*args)
        except ScoreError as err:
            self.add(str(err))
            return default

    def raise_all(self, head: str = "") -> None:
        if len(self.found) == 1 and not head:
            raise ScoreError(self.found[0])
        if self.found:
            lines = "\n  ".join(self.found)
            raise ScoreError(f"{head or 'the round cannot be read'}:\n  {lines}")


def _at_most(field: str, n: int, most: int, why: str) -> int:
    if n > most:
        raise ScoreError(f"{field}: {n:,} is more than a table can have: {why} ({most:,} at "
                         "most)")
    return n


def _limited(field: str, value: Any, most: int, why: str) -> int:
    return _at_most(field, _count(field, value), most, why)


def read_team(rules: Rules, seating: Seating, team: int, raw: Mapping[str, Any],
              problems: Problems | None = None) -> dict[str, Any]:
    """A team's entry in normal form.  Malformed fields, and numbers past what the shoe
    allows, are refused with the field named (every one of them: into ``problems`` if given,
    else raised together); whether the entry obeys the rules is :func:`problems`' business."""
    own = Problems() if problems is None else problems
    where = seating.teams[team]
    local = Problems()
    entry = _read_team(rules, seating, team, raw, local)
    for message in local.found:
        own.add(f"{where}: {message}")
    if problems is None:
        own.raise_all(f"{where}'s entry cannot be read" if len(own.found) > 1 else "")
    return entry


def _read_team(rules: Rules, seating: Seating, team: int, raw: Mapping[str, Any],
               p: Problems) -> dict[str, Any]:
    shoe = shoe_of(rules)
    d = plural(rules.decks, "deck")
    for key in raw:
        if key not in (*TEAM_KEYS, "name", "team"):
            p.add(str(_unknown("team entry", key, TEAM_KEYS)))
    canastas: dict[str, int] = {}
    empty: Mapping[str, Any] = {}
    for key, value in p.read(empty, _table, "canastas", raw.get("canastas", {})).items():
        norm = p.read("", canasta_key, str(key))
        if not norm:
            continue
        n = p.read(0, _limited, f"canastas.{key}", value, shoe.most_canastas(norm),
                   f"{d} of {rules.canasta_size}-card canastas make no more")
        if n:
            canastas[norm] = canastas.get(norm, 0) + n
    entry: dict[str, Any] = {"canastas": canastas}
    entry["red_threes_laid"] = p.read(0, _limited, "red_threes_laid",
                                      raw.get("red_threes_laid", 0), shoe.red_threes,
                                      f"{d} hold {shoe.red_threes} red threes")
    points = raw.get("melded_points")
    cards = raw.get("melded_cards")
    if points is not None and cards is not None:
        p.add("give the melded cards either as melded_points (a total) or as "
              "melded_cards (counts by value group), not both")
        cards = None
    entry["melded_points"] = p.read(0, _limited, "melded_points", points, shoe.points,
                                    f"all the cards of {d} are worth {shoe.points:,}") \
        if points is not None else None
    if cards is not None:
        groups: dict[str, int] = {}
        for key, value in p.read(empty, _table, "melded_cards", cards).items():
            group = p.read("", group_key, str(key))
            if group:
                groups[group] = p.read(0, _limited, f"melded_cards.{key}", value,
                                       shoe.group_count(group),
                                       f"{d} hold {shoe.group_count(group)} of them")
        entry["melded_cards"] = groups
    else:
        entry["melded_cards"] = None
    if entry["melded_points"] is None and entry["melded_cards"] is None:
        entry["melded_points"] = 0
    entry["players"] = _read_players(rules, seating, team, raw.get("players", []), p, shoe)
    entry["went_out"] = p.read(0, _read_went_out, seating, team, raw.get("went_out", False),
                               entry["players"], rules)
    limits = {
        "over_meld": (shoe.wilds, f"{d} hold {shoe.wilds} wild cards"),
        "knee_reminders": (len(seating.players[team]) * max(1, len(rules.packets) - 2),
                           "a reminder for each knee of each player of the team"),
        "exact_cuts": (len(seating.players[team]) * len(rules.packets),
                       "the team's players cut only so many packets"),
    }
    for key in PENALTY_COUNTS:
        most, why = limits[key]
        entry[key] = p.read(0, _limited, key, raw.get(key, 0), most, why)
    others = raw.get("other_penalties", [])
    entry["other_penalties"] = []
    if not isinstance(others, list):
        p.add("other_penalties: expected a list of {points, reason} tables")
        others = []
    for i, item in enumerate(others, 1):
        penalty = p.read(None, _read_penalty, i, item, shoe)
        if penalty is not None:
            entry["other_penalties"].append(penalty)
    return entry


def _read_penalty(i: int, item: Any, shoe: Shoe) -> dict[str, Any]:
    table = _table(f"other_penalties[{i}]", item)
    for key in table:
        if key not in ("points", "reason"):
            raise _unknown(f"other_penalties[{i}]", key, ("points", "reason"))
    pts = _limited(f"other_penalties[{i}].points", table.get("points", 0), shoe.round_points,
                   "no penalty is worth more than a whole round can score")
    reason = table.get("reason", "")
    if not isinstance(reason, str) or not reason.strip():
        raise ScoreError(f"other_penalties[{i}].reason: say what the penalty is for")
    check_text(f"other_penalties[{i}].reason", reason, 200)
    if pts == 0:
        raise ScoreError(f"other_penalties[{i}].points: a penalty needs points "
                         "(a positive number, taken off the team's score)")
    return {"points": pts, "reason": reason.strip()}


def _read_players(rules: Rules, seating: Seating, team: int, raw: Any, p: Problems,
                  shoe: Shoe) -> list[dict[str, int]]:
    names = seating.players[team]
    keys = packet_keys(rules)
    fields = (*keys, *PLAYER_THREES)
    empty = [dict.fromkeys(fields, 0) for _ in names]
    if not isinstance(raw, list):
        p.add("players: expected a list with one table per player")
        return empty
    if len(raw) > len(names):
        p.add(f"players: {len(raw)} entries, but the team has {len(names)} "
              f"player{'s' if len(names) != 1 else ''}")
        return empty
    d = plural(rules.decks, "deck")
    most = {key: (shoe.points, f"all the cards of {d} are worth {shoe.points:,}")
            for key in keys}
    most["red_threes_held"] = (shoe.red_threes, f"{d} hold {shoe.red_threes} red threes")
    most["black_threes_held"] = (shoe.black_threes,
                                 f"{d} hold {shoe.black_threes} black threes")
    players: list[dict[str, int] | None] = [None] * len(names)
    for i, item in enumerate(raw):
        table = p.read(None, _table, f"players[{i + 1}]", item)
        if table is None:
            continue
        seat = p.read(-1, seating.player_number, team, table["name"]) \
            if "name" in table else i
        if seat < 0:
            continue
        if players[seat] is not None:
            p.add(f"players: {names[seat]} is entered twice")
            continue
        label = f"players.{names[seat]}"
        for key in table:
            if key == "name":
                continue
            if key not in fields:
                hint = ""
                if key.startswith("knee") and len(keys) == 2:
                    hint = " (these rules deal no knee: only a hand and a foot)"
                p.add(str(_unknown(label, key, fields, hint)))
        players[seat] = {key: p.read(0, _limited, f"{label}.{key}", table.get(key, 0),
                                     *most[key]) for key in fields}
    return [pl if pl is not None else dict.fromkeys(fields, 0) for pl in players]


def holds_cards(player: Mapping[str, int], rules: Rules) -> bool:
    return any(player.get(k, 0) for k in (*packet_keys(rules), *PLAYER_THREES))


def _read_went_out(seating: Seating, team: int, value: Any, players: list[dict[str, int]],
                   rules: Rules) -> int:
    if value is False or value is None or value == 0:
        return 0
    if value is True:
        empty = [i for i, p in enumerate(players) if not holds_cards(p, rules)]
        if not empty:
            raise ScoreError("went_out: the team went out, but every player still holds "
                             "cards; the player who went out has nothing left")
        return empty[0] + 1
    if isinstance(value, str) and value.strip().lower() in ("no", "false", "n", "-", ""):
        return 0
    if isinstance(value, str) and value.strip().lower() in ("yes", "true", "y"):
        return _read_went_out(seating, team, True, players, rules)
    try:
        return seating.player_number(team, value) + 1
    except ScoreError as err:
        text = str(value).strip().lower()
        for other, names in enumerate(seating.players):
            if other != team and text in (n.lower() for n in names):
                raise ScoreError(f"went_out: {value} plays for {seating.teams[other]}; enter "
                                 f"it in that team's entry") from None
        raise ScoreError(f"went_out: {err}") from None


# ------------------------------------------------------------------ what an entry means
def kind_of(key: str) -> str:
    """The canasta kind an entry counts as: ``dirty 5s`` is a dirty canasta, ``clean Ks``
    a clean one (or the rank's own kind)."""
    if key.startswith("dirty "):
        return "dirty"
    if key.startswith("clean "):
        return key.removeprefix("clean ")
    return key


def _kind_for(rules: Rules, key: str) -> str:
    kind = kind_of(key)
    if key.startswith("clean ") and kind not in dict(rules.canasta_bonus):
        return "clean"
    return kind


def canasta_kinds(rules: Rules, entry: Mapping[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, n in entry["canastas"].items():
        kind = _kind_for(rules, key)
        out[kind] = out.get(kind, 0) + n
    return out


def group_values(rules: Rules) -> dict[str, int]:
    """The card value of each value group; a group whose cards differ in value under these
    rules cannot be counted as a group."""
    values = dict(zip(KIND_TOKENS[:13], rules.card_values, strict=True))
    out = {}
    for group, tokens in VALUE_GROUPS.items():
        found = {values[t] for t in tokens}
        if len(found) != 1:
            detail = ", ".join(f"{t} {values[t]}" for t in tokens)
            raise ScoreError(f"melded_cards.{group}: these rules give its cards different "
                             f"values ({detail}); enter melded_points as a total instead")
        out[group] = found.pop()
    return out


def melded_points(rules: Rules, entry: Mapping[str, Any]) -> int:
    if entry.get("melded_cards") is not None:
        values = group_values(rules)
        return sum(values[g] * n for g, n in entry["melded_cards"].items())
    return int(entry.get("melded_points") or 0)


def penalty_points(rules: Rules, entry: Mapping[str, Any]) -> int:
    return int(entry["over_meld"] * rules.over_meld_penalty
               + entry["knee_reminders"] * rules.knee_reminder_penalty
               + sum(p["points"] for p in entry["other_penalties"]))


def tally(rules: Rules, entry: Mapping[str, Any]) -> Tally:
    """The entry as the engine's scoring reads a table."""
    left: dict[str, int] = {}
    for key, name in zip(packet_keys(rules), rules.packet_names, strict=True):
        left[name] = sum(p[key] for p in entry["players"])
    return Tally(
        canastas=canasta_kinds(rules, entry),
        melded_points=melded_points(rules, entry),
        red_threes_laid=entry["red_threes_laid"],
        red_threes_held=sum(p["red_threes_held"] for p in entry["players"]),
        black_threes_held=sum(p["black_threes_held"] for p in entry["players"]),
        left_points=left,
        went_out=entry["went_out"] > 0,
        penalties=penalty_points(rules, entry),
        exact_cuts=entry["exact_cuts"],
    )


# ------------------------------------------------------------------ the checks
def canasta_minimum(rules: Rules, key: str) -> int:
    """The fewest card points a canasta of this entry can hold: canasta_size cards of the
    cheapest make-up the meld rules allow."""
    derived = derived_for(rules)
    size = rules.canasta_size
    values = derived.values
    wild = min(values[11], values[12])
    kind = kind_of(key)
    if kind == "wild":
        return size * wild
    if key.startswith("dirty"):
        ranks = [parse_kind(key.split()[1][:-1])] if " " in key else list(NATURAL_RANKS)
        options = [(size - w) * values[r] + w * wild
                   for r in ranks for w in range(1, size)
                   if r not in rules.no_wild_ranks and derived.fits(r, size - w, w)]
        return min(options, default=0)
    rank_kinds = rules.rank_kinds
    if kind != "clean" and kind in rank_kinds.values():
        rank = next(r for r, k in rank_kinds.items() if k == kind)
        return size * values[rank]
    if key.startswith("clean "):
        return size * values[parse_kind(key.split()[1][:-1])]
    return min(size * values[r] for r in NATURAL_RANKS if r not in rank_kinds)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _kinds_text(kinds: Mapping[str, int]) -> str:
    parts = [f"{n} {kind}" for kind, n in kinds.items() if n]
    return ", ".join(parts) if parts else "none"


def problems(rules: Rules, seating: Seating, entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """Everything in a round's entries (one per team) that the rules do not allow, in plain
    words; an empty list when the round can be scored."""
    out: list[str] = []
    derived = derived_for(rules)
    bonus = dict(rules.canasta_bonus)
    step = math.gcd(*rules.card_values) or 1
    shoe_threes = 2 * rules.decks
    for team, entry in enumerate(entries):
        who = seating.teams[team]
        for key in entry["canastas"]:
            kind = kind_of(key)
            if kind == "wild" and not rules.wild_melds:
                out.append(f"{who}: canastas.wild: these rules allow no melds of wild cards "
                           "(wild_melds is false), so there are no wild canastas")
            elif key.startswith("dirty "):
                rank = parse_kind(key.split()[1][:-1])
                if rank in rules.no_wild_ranks:
                    out.append(f"{who}: canastas.{key}: {key[6:]} take no wild cards under "
                               "these rules (no_wild_ranks), so a canasta of them is never "
                               "dirty")
                elif derived.max_wild_at_canasta == 0:
                    out.append(f"{who}: canastas.{key}: a canasta can hold no wild card under "
                               "these rules, so none is dirty")
            elif kind == "dirty" and derived.max_wild_at_canasta == 0:
                out.append(f"{who}: canastas.dirty: a canasta can hold no wild card under "
                           "these rules, so none is dirty")
            elif kind not in ("clean", "dirty", "wild") and not key.startswith("clean ") \
                    and kind not in bonus:
                out.append(f"{who}: canastas.{key}: a canasta of {kind} is no kind of its own "
                           f"under these rules; enter it as clean (or 'dirty {kind}')")
        if entry["red_threes_laid"] and rules.red_threes == "dead":
            out.append(f"{who}: red_threes_laid: red threes are never laid under these rules "
                       "(red_threes = dead); enter them as red threes held")
        points = melded_points(rules, entry)
        if points % step:
            out.append(f"{who}: melded points {points} cannot be made of cards worth "
                       f"multiples of {step}")
        floor = sum(canasta_minimum(rules, key) * n for key, n in entry["canastas"].items())
        count = sum(entry["canastas"].values())
        if points < floor:
            out.append(f"{who}: melded points {points} are fewer than the "
                       f"{_plural(count, 'canasta')} alone must hold: at least {floor} "
                       f"({rules.canasta_size} cards each at the lowest values the meld "
                       "rules allow)")
        cards = entry.get("melded_cards")
        if cards is not None and sum(cards.values()) < count * rules.canasta_size:
            out.append(f"{who}: melded_cards: {sum(cards.values())} cards melded, but "
                       f"{_plural(count, 'canasta')} need at least "
                       f"{count * rules.canasta_size}")
        names = seating.players[team]
        for i, player in enumerate(entry["players"]):
            for key in packet_keys(rules):
                if player[key] % step:
                    out.append(f"{who}: {names[i]}'s {key} {player[key]} cannot be made of "
                               f"cards worth multiples of {step}")
        went = entry["went_out"]
        if went:
            player = entry["players"][went - 1]
            if holds_cards(player, rules):
                held = [f"{player[k]} points in the {k}" for k in packet_keys(rules)
                        if player[k]]
                held += [f"{_plural(player[k], k.split('_held')[0][:-1])} held"
                         for k in PLAYER_THREES if player[k]]
                out.append(f"{who}: {names[went - 1]} went out, so has no cards left, but "
                           f"the entry has {', '.join(held)}")
            kinds = canasta_kinds(rules, entry)
            flat = [kind for kind, n in kinds.items() for _ in range(n)]
            if not derived.quota_met(flat):
                out.append(f"{who}: went out without the canastas needed to go out: these "
                           f"rules ask for {_kinds_text(dict(rules.quota))}; the team has "
                           f"{_kinds_text(kinds)} (rule 8.1)")
        if entry["over_meld"] and not rules.over_meld_penalty:
            out.append(f"{who}: over_meld: these rules have no over-melded wild card penalty "
                       "(over_meld_penalty = 0); enter it under other_penalties with a reason")
        if entry["knee_reminders"] and not rules.knee_reminder_penalty:
            out.append(f"{who}: knee_reminders: these rules charge nothing for reminding a "
                       "player of the knee (knee_reminder_penalty = 0); enter it under "
                       "other_penalties with a reason")
        if entry["exact_cuts"] and not rules.exact_cut_bonus:
            out.append(f"{who}: exact_cuts: these rules give no exact-cut bonus "
                       "(exact_cut_bonus = 0)")
        cuts = len(names) * len(rules.packets)
        if entry["exact_cuts"] > cuts:
            out.append(f"{who}: exact_cuts: {entry['exact_cuts']} exact cuts, but the team's "
                       f"players cut only {cuts} packets")
    out += _round_problems(rules, seating, entries, shoe_threes)
    out += _shoe_problems(rules, seating, entries)
    return out


def _decks_hold(decks: int) -> str:
    return f"{plural(decks, 'deck')} {agree(decks, 'holds', 'hold')}"


def _round_problems(rules: Rules, seating: Seating, entries: Sequence[Mapping[str, Any]],
                    shoe_threes: int) -> list[str]:
    out = []
    gone = [seating.teams[i] for i, e in enumerate(entries) if e["went_out"]]
    if len(gone) > 1:
        out.append(f"only one player goes out in a round, but {' and '.join(gone)} are both "
                   "entered as going out")
    red = sum(e["red_threes_laid"] + sum(p["red_threes_held"] for p in e["players"])
              for e in entries)
    if red > shoe_threes:
        out.append(f"{red} red threes entered (laid and held), but "
                   f"{_decks_hold(rules.decks)} only {shoe_threes}")
    black = sum(sum(p["black_threes_held"] for p in e["players"]) for e in entries)
    if black > shoe_threes:
        out.append(f"{black} black threes held, but {_decks_hold(rules.decks)} only "
                   f"{shoe_threes}")
    return out


def _shoe_problems(rules: Rules, seating: Seating,
                   entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """What all the teams' entries together ask of the shoe."""
    shoe = shoe_of(rules)
    out = shoe.round_problems(seating.teams, entries)
    melded = sum(melded_points(rules, e) for e in entries)
    left = sum(p[k] for e in entries for p in e["players"] for k in packet_keys(rules))
    problem = shoe.points_problem(melded, left)
    if problem:
        out.append(problem)
    for group in VALUE_GROUPS:
        n = sum((e.get("melded_cards") or {}).get(group, 0) for e in entries)
        if n > shoe.group_count(group):
            out.append(f"melded_cards.{group}: {n} entered for the teams together, but "
                       f"{_decks_hold(rules.decks)} only {shoe.group_count(group)}")
    return out


def read_round(rules: Rules, seating: Seating, data: Mapping[str, Any]) -> tuple[
        int | None, list[dict[str, Any]]]:
    """A round file's contents: the round number if it names one, and every team's entry in
    team order.  Teams are matched by ``name`` or ``team`` (number), else taken in order.

    Every field that cannot be read is reported at once, with what the rules say about the
    teams whose entries could be read, so one attempt shows every problem."""
    p = Problems()
    for key in data:
        if key not in ("round", "teams"):
            p.add(str(_unknown("round file", key, ("round", "teams"))))
    round_no = None
    if "round" in data:
        round_no = p.read(None, _limited, "round", data["round"], rules.rounds,
                          f"these rules play {rules.rounds} rounds")
        if round_no == 0:
            p.add("round: rounds are numbered from 1")
            round_no = None
    teams = data.get("teams")
    if not isinstance(teams, list) or not teams:
        p.add("teams: expected one [[teams]] table per team")
        p.raise_all("the round cannot be read")
        raise AssertionError  # pragma: no cover - raise_all raised
    found: list[dict[str, Any] | None] = [None] * len(seating.teams)
    unread: set[int] = set()
    for i, raw in enumerate(teams):
        table = p.read(None, _table, f"teams[{i + 1}]", raw)
        if table is None:
            continue
        ref = table.get("team", table.get("name"))
        team = p.read(-1, seating.team_number, ref) if ref is not None else i
        if team < 0:
            continue
        if team >= len(found):
            p.add(f"teams: {len(teams)} entries, but the game has {len(seating.teams)} teams")
            break
        if found[team] is not None:
            p.add(f"teams: {seating.teams[team]} is entered twice")
            continue
        before = len(p.found)
        found[team] = read_team(rules, seating, team, table, p)
        if len(p.found) > before:
            unread.add(team)
    missing = [seating.teams[i] for i, e in enumerate(found) if e is None]
    if missing:
        p.add(f"teams: no entry for {', '.join(missing)} (every team is scored each round; "
              "an empty [[teams]] table scores nothing)")
    if p.found:
        if not missing:
            # What the rules say about the teams that could be read, with the rest.
            entries = [e for e in found if e is not None]
            read = [seating.teams[t] for t in range(len(found)) if t not in unread]
            p.found += [m for m in problems(rules, seating, entries)
                        if any(m.startswith(f"{name}: ") for name in read)]
        p.raise_all("the round cannot be entered as it is")
    return round_no, [e for e in found if e is not None]


def check_round(rules: Rules, seating: Seating, entries: Sequence[Mapping[str, Any]],
                round_no: int) -> None:
    found = problems(rules, seating, entries)
    if found:
        lines = "\n  ".join(found)
        raise ScoreError(f"round {round_no} cannot be scored as entered:\n  {lines}")

