"""One person's game against bots, without any screen: the table the terminal game draws.

The session owns the game (which keeps its own history), the bots, the person's picked and
staged cards and the undo stack.  Everything the screen shows comes from ``view(game, human)``
and the events; the game object itself is only asked what is legal and told what was done.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..actions import Action, Draw, LayDown, Part, TakePile
from ..bots import is_bot, make_bot
from ..bots.base import Bot
from ..bots.hint import hint_words
from ..cards import (
    JOKER,
    NUM_KINDS,
    TWO,
    WILD_SLOT,
    plural,
)
from ..clauses import CLAUSES
from ..derived import derived_for
from ..engine import Game
from ..errors import HandfootError
from ..events import (
    Event,
    Refusal,
    RoundDealt,
)
from ..narrate import YOU, describe
from ..pile import pile_status
from ..record import Record, record_to_json, replay
from ..rules import Rules
from ..undo import TurnUndo
from ..views import SeatView, view
from .table import Log, Table, add_staged

__all__ = ["DEFAULT_BOT", "HUMAN_NAME", "Log", "PlayError", "Session", "add_staged",
           "refusal_text", "write_atomic"]

HUMAN_NAME = "you"
# The strongest bot a person can wait for: about 60% of rounds against the heuristic
# (docs/BOTS.md), a few hundredths of a second a decision on average (under half a second at
# most), and a fixed number of worlds, so the same seed replays the same game.
DEFAULT_BOT = "search"


def seat_names(rules: Rules, human: int) -> list[str]:
    """``You``, ``Partner 2``, ``Opp 1``: short enough for a narrow terminal."""
    names = []
    for seat in range(rules.players):
        if seat == human:
            names.append(YOU)
        elif rules.team_of(seat) == rules.team_of(human):
            names.append(f"Partner {seat}")
        else:
            names.append(f"Opp {seat}")
    return names


def _draw_hands(record: Record, human: int, last: int) -> list[_Hands]:
    """The person's hand before and after each of their draws among the record's ``last``
    moves (None for other moves), so a resumed log names the cards they drew, as it did."""
    steps = [(seat, action) for rnd in record.rounds for seat, action in rnd.actions]
    out: list[_Hands] = []
    game = record.new_game()
    for i, (seat, action) in enumerate(steps):
        mine = i >= len(steps) - last and seat == human and isinstance(action, Draw)
        before = view(game, human).hand if mine else None
        game.apply(action)
        if i >= len(steps) - last:
            out.append((before, view(game, human).hand) if before is not None else None)
    return out


_Hands = tuple[tuple[int, ...], tuple[int, ...]] | None  # the person's, before and after a draw


class PlayError(HandfootError):
    """A step the person asked for that cannot be built (not a rules refusal)."""


@dataclass(slots=True)
class _Mark:
    """Beside each step the undo stack holds: the log's length and the staged cards before it."""

    log: int
    staged: list[Part]


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a kill at any moment leaves either the old file
    or the new one, never a part: a temporary file in the same folder, synced, renamed over.

    A link is followed (the file it names is replaced, the link kept).  A path that is not a
    regular file (``/dev/null``, a pipe) is written into: renaming over it would replace the
    device itself."""
    path = Path(os.path.realpath(path))
    try:
        info: os.stat_result | None = path.stat()
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    if info is not None:
        mode = info.st_mode & 0o777
    else:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with contextlib.suppress(OSError):
            os.chmod(tmp, mode)  # as a file written in place would be, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        # The data is on the disk before the name points at it.  The folder is not synced:
        # after a power cut the name may still point at the previous record, which is whole.
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def refusal_text(refusal: Refusal) -> str:
    if not refusal.clause:  # not the engine's (a remote table's move still on its way)
        return refusal.reason
    title = CLAUSES.get(refusal.clause, "")
    return f"{refusal.reason} [rule {refusal.clause}{': ' + title if title else ''}]"


class Session(Table):
    """A local game: the person's seat, the engine behind it, and bots at the other seats."""

    steps_bots = True
    offers_new_game = True

    def __init__(self, game: Game, names: list[str], human: int, bots: dict[int, Bot],
                 save_path: Path | None = None, description: str = "") -> None:
        super().__init__(game.rules, seat_names(game.rules, human), human)
        self.game = game
        self.record_names = names  # as the record names the seats: bot levels and "you"
        self.description = description
        self.bots = bots
        self.save_path = save_path
        self._undo = TurnUndo()
        self._marks: list[_Mark] = []  # one per step in self._undo, oldest first
        self.shown_results = len(game.results)  # round-end screens already shown
        self._start_log()

    # ------------------------------------------------------------------ building
    @classmethod
    def new(cls, rules: Rules, seed: int, bots: list[str], human: int = 0,
            save_path: Path | None = None) -> Session:
        """``bots`` names one level per other seat (in seat order), or a single level."""
        others = [s for s in range(rules.players) if s != human]
        if len(bots) == 1:
            bots = bots * len(others)
        if len(bots) != len(others):
            raise PlayError(f"{len(others)} bot seats need {len(others)} bot levels, "
                            f"not {len(bots)}")
        names = [""] * rules.players
        players: dict[int, Bot] = {}
        for i, (seat, spec) in enumerate(zip(others, bots, strict=True)):
            players[seat] = make_bot(spec, seed=seed * 10 + i + 1)
            names[seat] = spec
        names[human] = HUMAN_NAME
        return cls(Game.new(rules, seed=seed), names, human, players, save_path,
                   f"handfoot play, seed {seed}")

    @classmethod
    def resume(cls, record: Record, save_path: Path | None = None,
               default_bot: str = DEFAULT_BOT) -> Session:
        """Replay a saved record and carry on from where it stopped.  Seats the record names
        with a bot level keep that level; other seats (a record of people, such as the
        examples) get ``default_bot``."""
        names = [s.name for s in record.seats]
        human = names.index(HUMAN_NAME) if HUMAN_NAME in names else 0
        outcome = replay(record)
        if outcome.illegal is not None:
            raise PlayError(f"the saved game does not replay: {outcome.illegal.message()}")
        # The current round's events, so the log picks up where the game was left.
        this_round: list[tuple[list[Event], int]] = []
        for step in outcome.steps:
            if any(isinstance(e, RoundDealt) for e in step.events):
                this_round.clear()
            else:
                this_round.append((step.events, step.seat))
        seed = record.seed or 0
        players: dict[int, Bot] = {}
        for seat, name in enumerate(names):
            if seat != human:
                spec = name if is_bot(name) else default_bot
                players[seat] = make_bot(spec, seed=seed * 10 + seat + 17)
                names[seat] = spec
        session = cls(outcome.game, names, human, players, save_path, record.description)
        game = outcome.game
        session.shown_results = len(game.results)
        if game.results and (game.over or not record.rounds[-1].actions):
            # Left on a round's score screen (the next round has not begun): show it again.
            session.shown_results -= 1
        hands = _draw_hands(record, human, len(this_round))
        for (events, seat), around in zip(this_round, hands, strict=True):
            session._log_events(events, seat, *(around or (None, None)))
        moves = sum(len(r.actions) for r in record.rounds)
        session.log.add(f"resumed after {plural(moves, 'move')}")
        return session

    @property
    def bot_specs(self) -> list[str]:
        """The bot levels of the other seats in seat order."""
        return [n for seat, n in enumerate(self.record_names) if seat != self.human]

    def next_game(self, seed: int, save_path: Path | None) -> Session:
        """A new game at the same table: the same rules, seat and bot levels."""
        return Session.new(self.rules, seed, list(self.bot_specs), self.human, save_path)

    def _start_log(self) -> None:
        g = self.game
        rules = g.rules
        self.log.add(f"{rules.name}: {rules.players} players, seed {g.seed}")
        if not g.over:
            self.log.add(describe(RoundDealt(g.dealer, g.round_no), self.names, self.human)
                         or "")
            self._log_minimum()

    # ------------------------------------------------------------------ reading
    def view(self) -> SeatView:
        return view(self.game, self.human)

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def human_to_act(self) -> bool:
        g = self.game
        return not g.over and g.actor == self.human

    @property
    def can_undo(self) -> bool:
        return self._undo.can_undo

    @property
    def intro(self) -> str:
        seed = self.game.seed
        # A record made without a seed (a dealt scenario) fixes its deal instead.
        return f"Seed {seed}." if seed is not None else "Dealt as recorded (no seed)."

    def legal(self) -> list[Action]:
        return self.game.legal_actions() if self.human_to_act else []

    def pile_status(self) -> Refusal | None:
        """Why the person may not take the pile now (or were it their draw), by the engine;
        None when they may."""
        return pile_status(self.game, self.human).refusal

    def take_refusal(self) -> Refusal | None:
        return self.game.refusal(TakePile())

    def hint(self) -> str:
        if not self.human_to_act:
            return "nothing to do: it is not your move"
        return hint_words(self.game, self.human)[1]

    def staged_points(self) -> int:
        values = derived_for(self.rules).values
        return sum((p.naturals * values[p.slot] if p.slot != WILD_SLOT else 0)
                   + p.twos * values[TWO] + p.jokers * values[JOKER] for p in self.staged)

    # ------------------------------------------------------------------ acting
    def act(self, action: Action) -> Refusal | None:
        """The person's move: refused with the engine's reason, or applied and logged."""
        g = self.game
        if not self.human_to_act:
            return Refusal("3.1", "it is not your move")
        refusal = g.refusal(action)
        if refusal is not None:
            return refusal
        mark = _Mark(len(self.log.lines), list(self.staged))
        before = self.view().hand
        events = self._undo.step(g, action)
        if self._undo.can_undo:
            self._marks.append(mark)
        else:
            self._marks.clear()  # the step taught something: it and all before it stand
        if isinstance(action, LayDown):
            self.clear()
        self._log_events(events, self.human, hand_before=before)
        if any(e.name in ("turn", "round_end") for e in events):
            self.clear()  # the turn is over: nothing staged carries into the next
        self._after(events)
        self.autosave()
        return None

    def undo(self) -> bool:
        """Take back the person's last step of this turn, if nothing has been learned since."""
        if not self._undo.can_undo:
            return False
        self.game = self._undo.undo()
        mark = self._marks.pop()
        self.log.truncate(mark.log)
        self.picked = [0] * NUM_KINDS
        self.staged = mark.staged
        self.log.add("(undone)")
        self.autosave()
        return True

    def bot_step(self) -> list[Event]:
        """One move by the bot that must act now."""
        g = self.game
        actor = g.actor
        bot = self.bots[actor]
        action = bot.choose(view(g, actor), g.legal_actions())
        events = g.apply(action)
        self._log_events(events, actor)
        self._after(events)
        self.autosave()
        return events

    def _after(self, events: list[Event]) -> None:
        if any(e.name in ("round_end", "game_end") for e in events):
            self._undo.clear()
            self._marks.clear()

    def _log_minimum(self) -> None:
        g = self.game
        if not g.over:
            self.log.add(f"minimum for your team: {g.opening_minimum(self.human % g.rules.teams)}")

    # ------------------------------------------------------------------ results and saving
    def unseen_results(self) -> list[int]:
        """Indexes of finished rounds whose score screen the person has not seen."""
        return list(range(self.shown_results, len(self.game.results)))

    def record(self) -> Record:
        return Record.from_game(self.game, self.record_names, self.description)

    def record_json(self) -> str:
        return record_to_json(self.record())

    def save(self) -> Path | None:
        """Write the game record (atomically); raises OSError when it cannot be written."""
        if self.save_path is None:
            return None
        write_atomic(self.save_path, self.record_json())
        return self.save_path

    def autosave(self) -> bool:
        """Save after a move, so a closed terminal, a kill or a crash loses nothing; a failure
        is kept in ``save_error`` for the screen, not raised."""
        try:
            self.save()
        except OSError as err:
            self.save_error = f"cannot save to {self.save_path}: {err.strerror or err}"
            return False
        self.save_error = None
        return True
