"""Entering a round by answering questions, one per line, with a default shown in brackets.

Works the same from a terminal or from piped input; when the input is not a terminal a bad
answer stops the entry (the next lines were meant for the next questions) instead of asking
again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from handfoot.cards import plural
from handfoot.rules import Rules

from . import ScoreError
from .bounds import Shoe, shoe_of
from .entry import Seating, canasta_key, canasta_kinds_asked, group_key, packet_keys
from .names import check_text

T = TypeVar("T")


class Asker:
    def __init__(self, stdin: TextIO, stdout: TextIO, interactive: bool) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.interactive = interactive

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")

    def ask(self, question: str, default: str | None, parse: Callable[[str], T]) -> T:
        shown = f" [{default}]" if default is not None else ""
        while True:
            self.stdout.write(f"{question}{shown}: ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.stdout.write("\n")
                raise ScoreError(f"the input ended while asking: {question}")
            text = line.strip()
            if not self.interactive:
                self.stdout.write(text + "\n")  # piped answers show up in the transcript
            if not text:
                if default is None:
                    if not self.interactive:
                        raise ScoreError(f"{question}: an answer is needed (no default)")
                    self.say("  an answer is needed")
                    continue
                text = default
            try:
                return parse(text)
            except ScoreError as err:
                if not self.interactive:
                    raise ScoreError(f"{question}: {err}") from None
                self.say(f"  {err}")


def _count(text: str) -> int:
    try:
        n = int(text.replace(",", ""))
    except ValueError:
        raise ScoreError(f"expected a whole number, got {text!r}") from None
    if n < 0:
        raise ScoreError("cannot be negative")
    return n


def _at_most(most: int, why: str) -> Callable[[str], int]:
    """A whole number no larger than the table can have (see :mod:`.bounds`)."""

    def parse(text: str) -> int:
        n = _count(text)
        if n > most:
            raise ScoreError(f"{n:,} is more than a table can have: {why} ({most:,} at most)")
        return n

    return parse


def _melded(shoe: Shoe, decks: str) -> Callable[[str], int | dict[str, int]]:
    def parse(text: str) -> int | dict[str, int]:
        if "=" not in text:
            return _at_most(shoe.points, f"all the cards of {decks} are worth "
                            f"{shoe.points:,}")(text)
        groups: dict[str, int] = {}
        for part in text.replace(",", " ").split():
            key, sep, value = part.partition("=")
            if not sep:
                raise ScoreError(f"{part!r}: write counts as GROUP=N, e.g. K-8=7")
            group = group_key(key)
            most = shoe.group_count(group)
            groups[group] = _at_most(most, f"{decks} hold {most} {group}")(value)
        return groups

    return parse


def _went_out(seating: Seating, team: int) -> Callable[[str], str | None]:
    """The name of the team's player who went out, or None; checked as it is typed, so a
    player of another team is refused at once (and that team is still asked)."""
    players = seating.players[team]
    name = seating.teams[team]

    def parse(text: str) -> str | None:
        low = text.strip().lower()
        if low in NO:
            return None
        listed = " or ".join(players)
        if low in ("yes", "y"):
            if len(players) == 1:
                return players[0]
            raise ScoreError(f"say which player went out: {listed} (or no)")
        try:
            return players[seating.player_number(team, text)]
        except ScoreError:
            pass
        for other, names in enumerate(seating.players):
            if other != team and low in (n.lower() for n in names):
                raise ScoreError(f"{text} plays for {seating.teams[other]}, not {name}; this "
                                 f"question is about {name}: {listed}, or no") from None
        raise ScoreError(f"no player of {name} is called {text!r}: answer {listed}, or no")

    return parse


NO = ("no", "n", "false", "-", "0", "nobody", "none")


def ask_round(rules: Rules, seating: Seating, asker: Asker, round_no: int,
              into: dict[str, Any] | None = None) -> dict[str, Any]:
    """The round's answers in round-file form (see :mod:`.roundfile`).  Each answer is checked
    as it is typed against what the shoe allows; the checks of the rules come after.

    The answers are written into ``into`` as they are given, so an entry cut short (Ctrl-C,
    the input ending) still has what was typed."""
    shoe = shoe_of(rules)
    decks = plural(rules.decks, "deck")
    asker.say(f"Round {round_no}. Press Enter to take the value in brackets.")
    teams: list[dict[str, Any]] = []
    data = into if into is not None else {}
    data.update(round=round_no, teams=teams)
    someone_out = False
    for team, name in enumerate(seating.teams):
        asker.say(f"\n-- {name} --")
        raw: dict[str, Any] = {"name": name, "canastas": {}}
        teams.append(raw)
        for kind in canasta_kinds_asked(rules):
            most = shoe.most_canastas(canasta_key(kind))
            n = asker.ask(f"{kind} canastas", "0", _at_most(
                most, f"{decks} of {rules.canasta_size}-card canastas make no more"))
            if n:
                raw["canastas"][kind] = n
        if rules.red_threes == "bonus":
            raw["red_threes_laid"] = asker.ask("red threes laid", "0", _at_most(
                shoe.red_threes, f"{decks} hold {shoe.red_threes} red threes"))
        default = None if raw["canastas"] else "0"
        melded = asker.ask("melded card points (a total, or counts such as "
                           "'jokers=2 2s-aces=6 K-8=7 7-4=14')", default, _melded(shoe, decks))
        if isinstance(melded, dict):
            raw["melded_cards"] = melded
        else:
            raw["melded_points"] = melded
        players = seating.players[team]
        went: str | None = None
        if not someone_out:
            choices = f"{' or '.join(players)}" if len(players) > 1 else "yes"
            went = asker.ask(f"went out? ({choices}, or no)", "no", _went_out(seating, team))
            if went is not None:
                raw["went_out"] = went
                someone_out = True
        raw["players"] = []
        held = {key: _at_most(shoe.points, f"all the cards of {decks} are worth "
                              f"{shoe.points:,}") for key in packet_keys(rules)}
        red = _at_most(shoe.red_threes, f"{decks} hold {shoe.red_threes} red threes")
        black = _at_most(shoe.black_threes, f"{decks} hold {shoe.black_threes} black threes")
        for player in players:
            if went == player:
                raw["players"].append({"name": player})
                continue
            row: dict[str, Any] = {"name": player}
            who = f"{player}: " if len(players) > 1 else ""
            for key in packet_keys(rules):
                row[key] = asker.ask(f"{who}points left in {key.replace('_', ' ')}", "0",
                                     held[key])
            row["red_threes_held"] = asker.ask(f"{who}red threes held", "0", red)
            row["black_threes_held"] = asker.ask(f"{who}black threes held", "0", black)
            raw["players"].append(row)
        if rules.over_meld_penalty:
            raw["over_meld"] = asker.ask(
                f"over-melded wild cards found ({rules.over_meld_penalty} each)", "0",
                _at_most(shoe.wilds, f"{decks} hold {shoe.wilds} wild cards"))
        if rules.knee_reminder_penalty:
            most = len(players) * max(1, len(rules.packets) - 2)
            raw["knee_reminders"] = asker.ask(
                f"knee reminders ({rules.knee_reminder_penalty} each)", "0",
                _at_most(most, "a reminder for each knee of each player of the team"))
        if rules.exact_cut_bonus:
            raw["exact_cuts"] = asker.ask(
                f"exact cuts ({rules.exact_cut_bonus} each)", "0",
                _at_most(len(players) * len(rules.packets),
                         "the team's players cut only so many packets"))
        other = asker.ask("other penalty points", "0", _at_most(
            shoe.round_points, "no penalty is worth more than a whole round can score"))
        if other:
            reason = asker.ask("what for", None, _reason)
            raw["other_penalties"] = [{"points": other, "reason": reason}]
    return data


def _reason(text: str) -> str:
    return check_text("reason", text, 200)
