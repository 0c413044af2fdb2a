"""Entering a round by answering questions, one per line, with a default shown in brackets.

Works the same from a terminal or from piped input; when the input is not a terminal a bad
answer stops the entry (the next lines were meant for the next questions) instead of asking
again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from handfoot.rules import Rules

from . import ScoreError
from .entry import Seating, canasta_kinds_asked, group_key, packet_keys

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


def _melded(text: str) -> int | dict[str, int]:
    if "=" not in text:
        return _count(text)
    groups: dict[str, int] = {}
    for part in text.replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep:
            raise ScoreError(f"{part!r}: write counts as GROUP=N, e.g. K-8=7")
        groups[group_key(key)] = _count(value)
    return groups


def ask_round(rules: Rules, seating: Seating, asker: Asker, round_no: int) -> dict[str, Any]:
    """The round's answers in round-file form (see :mod:`.roundfile`)."""
    asker.say(f"Round {round_no}. Press Enter to take the value in brackets.")
    teams: list[dict[str, Any]] = []
    someone_out = False
    for team, name in enumerate(seating.teams):
        asker.say(f"\n-- {name} --")
        raw: dict[str, Any] = {"name": name, "canastas": {}}
        for kind in canasta_kinds_asked(rules):
            n = asker.ask(f"{kind} canastas", "0", _count)
            if n:
                raw["canastas"][kind] = n
        if rules.red_threes == "bonus":
            raw["red_threes_laid"] = asker.ask("red threes laid", "0", _count)
        default = None if raw["canastas"] else "0"
        melded = asker.ask("melded card points (a total, or counts such as "
                           "'jokers=2 2s-aces=6 K-8=7 7-4=14')", default, _melded)
        if isinstance(melded, dict):
            raw["melded_cards"] = melded
        else:
            raw["melded_points"] = melded
        players = seating.players[team]
        went: str | None = None
        if not someone_out:
            choices = "a player's name" if len(players) > 1 else "yes"
            answer = asker.ask(f"went out? ({choices}, or no)", "no", str)
            if answer.lower() not in ("no", "n", "false", "-"):
                went = players[0] if len(players) == 1 and answer.lower() in ("yes", "y") \
                    else answer
                raw["went_out"] = went
                someone_out = True
        raw["players"] = []
        for number, player in enumerate(players, 1):
            if went is not None and went.lower() in (player.lower(), str(number)):
                raw["players"].append({"name": player})
                continue
            row: dict[str, Any] = {"name": player}
            who = f"{player}: " if len(players) > 1 else ""
            for key in packet_keys(rules):
                row[key] = asker.ask(f"{who}points left in {key.replace('_', ' ')}", "0",
                                     _count)
            row["red_threes_held"] = asker.ask(f"{who}red threes held", "0", _count)
            row["black_threes_held"] = asker.ask(f"{who}black threes held", "0", _count)
            raw["players"].append(row)
        if rules.over_meld_penalty:
            raw["over_meld"] = asker.ask(
                f"over-melded wild cards found ({rules.over_meld_penalty} each)", "0", _count)
        if rules.knee_reminder_penalty:
            raw["knee_reminders"] = asker.ask(
                f"knee reminders ({rules.knee_reminder_penalty} each)", "0", _count)
        if rules.exact_cut_bonus:
            raw["exact_cuts"] = asker.ask(f"exact cuts ({rules.exact_cut_bonus} each)", "0",
                                          _count)
        other = asker.ask("other penalty points", "0", _count)
        if other:
            reason = asker.ask("what for", None, str)
            raw["other_penalties"] = [{"points": other, "reason": reason}]
        teams.append(raw)
    return {"round": round_no, "teams": teams}
