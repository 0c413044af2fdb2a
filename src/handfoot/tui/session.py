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
from dataclasses import dataclass, field
from pathlib import Path

from ..actions import (
    Action,
    Ask,
    Draw,
    Knock,
    LayDown,
    Part,
    Retract,
    Stop,
)
from ..bots import is_bot, make_bot
from ..bots.base import Bot
from ..bots.hint import hint
from ..cards import (
    BLACK_THREE,
    JOKER,
    NATURAL_RANKS,
    NUM_KINDS,
    RED_THREE,
    TWO,
    WILD_SLOT,
    plural,
    slot_token,
)
from ..clauses import CLAUSES
from ..engine import Game
from ..errors import HandfootError
from ..events import (
    Answered,
    AskedToGoOut,
    CanastaFinished,
    Drew,
    Event,
    GameEnded,
    Melded,
    Refusal,
    RoundDealt,
    RoundEnded,
    TurnBegan,
)
from ..narrate import describe, meld_text, merge_melds
from ..pile import pile_status
from ..record import Record, record_to_json, replay
from ..rules import Rules
from ..tables import tables_for
from ..undo import teaches
from ..views import SeatView, view
from .words import YOU, drawn_text, seat_names

HUMAN_NAME = "you"
# The strongest bot a person can wait for: about 60% of rounds against the heuristic
# (docs/BOTS.md), a few hundredths of a second a decision on average (under half a second at
# most), and a fixed number of worlds, so the same seed replays the same game.
DEFAULT_BOT = "search"


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
class _Saved:
    game: Game
    log: int
    staged: list[Part]


@dataclass(slots=True)
class Log:
    """The running log.  A seat's melds in a row share one line: bots add a card at a time."""

    lines: list[str] = field(default_factory=list)
    revision: int = 0  # bumped on every change, so the screen knows to redraw
    _run_seat: int = -1
    _run: dict[int, list[int]] = field(default_factory=dict)

    def add(self, line: str) -> int:
        """Add a line; its index."""
        self.lines.append(line)
        self.revision += 1
        self._run_seat = -1
        return len(self.lines) - 1

    def meld(self, seat: int, name: str, slot: int, counts: list[int]) -> int:
        """Add a meld to the seat's current line of melds; that line's index."""
        if self._run_seat != seat:
            self.lines.append("")
            self._run_seat, self._run = seat, {}
        old = self._run.setdefault(slot, [0, 0, 0])
        for i in range(3):
            old[i] += counts[i]
        melds = " · ".join(f"{slot_token(s)}: {meld_text(s, *c)}" for s, c in self._run.items())
        self.lines[-1] = f"{name} {'meld' if name == YOU else 'melds'} {melds}"
        self.revision += 1
        return len(self.lines) - 1

    def truncate(self, n: int) -> None:
        del self.lines[n:]
        self.revision += 1
        self._run_seat = -1


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
    clause, reason = refusal
    title = CLAUSES.get(clause, "")
    return f"{reason} [rule {clause}{': ' + title if title else ''}]"


class Session:
    def __init__(self, game: Game, names: list[str], human: int, bots: dict[int, Bot],
                 save_path: Path | None = None, description: str = "") -> None:
        self.game = game
        self.record_names = names  # as the record names the seats: bot levels and "you"
        self.description = description
        self.human = human
        self.bots = bots
        self.save_path = save_path
        self.save_error: str | None = None  # why the last save failed, until one succeeds
        self.names = seat_names(game.rules, human)
        self.log = Log()
        self.picked = [0] * NUM_KINDS  # cards chosen but not yet put on a meld
        self.staged: list[Part] = []  # melds and additions waiting for "lay down"
        self._undo: list[_Saved] = []
        self.shown_results = len(game.results)  # round-end screens already shown
        # What the table watched happen lately, for the screen's highlights: each seat's
        # latest turn (its events), the melds other seats changed since the
        # person's last turn, and this turn's "may I go out?" (asker, asked, answer or None).
        self.last_events: dict[int, list[Event]] = {}
        self._new_turn: set[int] = set()  # seats whose turn began, with no move yet
        self.latest = -1  # the other seat that moved last
        self.recent: set[tuple[int, int]] = set()
        self.question: tuple[int, int, bool | None] | None = None
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
    @property
    def rules(self) -> Rules:
        return self.game.rules

    def view(self) -> SeatView:
        return view(self.game, self.human)

    @property
    def human_to_act(self) -> bool:
        g = self.game
        return not g.over and g.actor == self.human

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def legal(self) -> list[Action]:
        return self.game.legal_actions() if self.human_to_act else []

    def pile_status(self) -> Refusal | None:
        """Why the person may not take the pile now (or were it their draw), by the engine;
        None when they may."""
        return pile_status(self.game, self.human).refusal

    def hint(self) -> str:
        best = hint(self.game, self.human) if self.human_to_act else None
        if best is None:
            return "nothing to do: it is not your move"
        return f"the heuristic bot would {best.text}"

    # ------------------------------------------------------------------ picking and staging
    def available(self, kind: int) -> int:
        """Cards of ``kind`` in hand not yet picked or staged."""
        hand = self.view().hand
        used = self.picked[kind]
        for p in self.staged:
            if kind == TWO:
                used += p.twos
            elif kind == JOKER:
                used += p.jokers
            elif p.slot == kind:
                used += p.naturals
        return hand[kind] - used

    def pick(self, kind: int) -> str | None:
        if self.available(kind) <= 0:
            return "you hold no more of that card"
        self.picked[kind] += 1
        return None

    def unpick(self) -> None:
        """Put back the last kind picked (highest kind first: wild cards before naturals)."""
        for k in reversed(range(NUM_KINDS)):
            if self.picked[k]:
                self.picked[k] -= 1
                return

    def clear(self) -> None:
        self.picked = [0] * NUM_KINDS
        self.staged = []

    def picked_wild_only(self) -> bool:
        return sum(self.picked) > 0 and not any(self.picked[r] for r in NATURAL_RANKS) \
            and not self.picked[RED_THREE] and not self.picked[BLACK_THREE]

    def stage(self, slot: int | None = None) -> str | None:
        """Move the picked cards to the staged lay-down, as a new meld or an addition to the
        meld of their rank (``slot`` names the meld for wild cards alone)."""
        p = self.picked
        if not sum(p):
            return "pick cards first: press their rank keys (4-9, 0 for 10, j q k a, 2, w)"
        if p[RED_THREE] or p[BLACK_THREE]:
            return "threes are never melded"
        ranks = [r for r in NATURAL_RANKS if p[r]]
        if len(ranks) > 1:
            return "one rank per meld: stage each rank on its own"
        if ranks:
            if slot is not None and slot != ranks[0]:
                return "those cards do not match that meld"
            slot = ranks[0]
        if slot is None:
            return "name the meld for the wild cards"
        n = p[slot] if slot != WILD_SLOT else 0
        v = self.view()
        self.staged = add_staged(self.staged, Part(slot, n, p[TWO], p[JOKER]),
                                 sum(v.teams[self.rules.team_of(self.human)].melds[slot]),
                                 self.rules.canasta_size)
        self.picked = [0] * NUM_KINDS
        return None

    def staged_points(self) -> int:
        values = tables_for(self.rules).values
        return sum((p.naturals * values[p.slot] if p.slot != WILD_SLOT else 0)
                   + p.twos * values[TWO] + p.jokers * values[JOKER] for p in self.staged)

    def laydown(self) -> LayDown | None:
        return LayDown(tuple(self.staged)) if self.staged else None

    # ------------------------------------------------------------------ acting
    def act(self, action: Action) -> Refusal | None:
        """The person's move: refused with the engine's reason, or applied and logged."""
        g = self.game
        if not self.human_to_act:
            return ("3.1", "it is not your move")
        refusal = g.refusal(action)
        if refusal is not None:
            return refusal
        saved = _Saved(g.clone(history=True), len(self.log.lines), list(self.staged))
        before = self.view().hand
        events = g.apply(action)
        if isinstance(action, LayDown):
            self.clear()
        self._log_events(events, self.human, hand_before=before)
        news = teaches(action, events)
        if news:
            self._undo.clear()
        if any(e.name in ("turn", "round_end") for e in events):
            self.clear()  # the turn is over: nothing staged carries into the next
        if not news:
            self._undo.append(saved)
        self._after(events)
        self.autosave()
        return None

    def undo(self) -> bool:
        """Take back the person's last step of this turn, if nothing has been learned since."""
        if not self._undo:
            return False
        saved = self._undo.pop()
        self.game = saved.game.clone(history=True)
        self.log.truncate(saved.log)
        self.picked = [0] * NUM_KINDS
        self.staged = saved.staged
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

    def _log_events(self, events: list[Event], actor: int,
                    hand_before: tuple[int, ...] | None = None,
                    hand_after: tuple[int, ...] | None = None) -> None:
        if actor == self.human and any(isinstance(e, TurnBegan) for e in events):
            # The person's turn is over: what the others change from now on is new.
            self.recent.clear()
        for e in events:
            self._watch(e)
            if isinstance(e, Drew) and e.seat == self.human and hand_before is not None:
                # The person sees their own new cards; the table sees only how many.
                after = hand_after if hand_after is not None else self.view().hand
                self.log.add(drawn_text(hand_before, after, e, self.names))
            elif isinstance(e, Melded):
                self.log.meld(e.seat, self.names[e.seat], e.slot,
                              [e.naturals, e.twos, e.jokers])
            else:
                line = describe(e, self.names, self.human)
                if line:
                    self.log.add(line)
                if isinstance(e, RoundDealt):
                    self._log_minimum()

    def _watch(self, e: Event) -> None:
        """Keep the table's recent happenings that the screen highlights."""
        if isinstance(e, RoundDealt):
            self.last_events.clear()
            self._new_turn.clear()
            self.recent.clear()
            self.question = None
            self.latest = -1
        elif isinstance(e, TurnBegan):
            self._new_turn.add(e.seat)
            self.question = None
        elif isinstance(e, RoundEnded | GameEnded) or not 0 <= e.seat < self.rules.players:
            return
        else:
            if e.seat in self._new_turn:
                # The seat's previous turn stays in sight until it makes its first move.
                self._new_turn.discard(e.seat)
                self.last_events[e.seat] = []
            self.last_events.setdefault(e.seat, []).append(e)
            if e.seat != self.human:
                self.latest = e.seat
            if isinstance(e, Melded | CanastaFinished) and e.seat != self.human:
                self.recent.add((self.rules.team_of(e.seat), e.slot))
            elif isinstance(e, AskedToGoOut):
                self.question = (e.seat, e.partner, None)
            elif isinstance(e, Answered) and self.question is not None:
                self.question = (self.question[0], self.question[1], e.yes)

    def last_move(self, seat: int) -> list[str]:
        """The seat's latest turn in words, without its name in front."""
        out: list[str] = []
        previous: Event | None = None
        for e in merge_melds(self.last_events.get(seat, [])):
            words = describe(e, self.names, self.human, subject=False)
            if not words:
                continue
            if isinstance(e, Melded) and isinstance(previous, Melded) and out:
                # Melds in a row read as one: "melds 9: 9 · 7: 7 7 2".
                out[-1] += " · " + words.removeprefix("melds ")
            else:
                out.append(words)
            previous = e
        return out

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

    def key_action(self, name: str) -> Action | None:
        """The atomic action a single key stands for, in the current phase."""
        v = self.view()
        if name == "draw":
            return Draw() if v.stock_size else Stop()
        if name == "knock":
            return Knock()
        if name == "retract":
            return Retract()
        if name == "ask":
            return Ask()
        return None


def add_staged(staged: list[Part], part: Part, open_cards: int, size: int) -> list[Part]:
    """The staged lay-down with ``part`` added: its cards go into the last staged meld of their
    slot until that holds a canasta's worth (counting the team's open meld of the slot,
    ``open_cards``, for the first one), and the rest begin another staged meld of the slot.

    This only groups cards, as the web page does: the engine decides whether a later group
    starts a new meld (the canasta before it closed) or adds to the same one (a canasta that
    keeps growing), and refuses what no rule allows (5.1, 5.6).  A meld already past a
    canasta's size takes every card into one group."""
    out = list(staged)
    mine = [i for i, p in enumerate(out) if p.slot == part.slot]
    if mine:
        at = mine[-1]
    else:
        out.append(Part(part.slot, 0, 0, 0))
        at = len(out) - 1
    counts = [out[at].naturals, out[at].twos, out[at].jokers]
    first = len(mine) <= 1
    room = (part.size if open_cards >= size  # room for every card of the part
            else size - sum(counts) - (open_cards if first else 0))
    for key, n in enumerate((part.naturals, part.twos, part.jokers)):
        for _ in range(n):
            if room <= 0:
                out[at] = Part(part.slot, *counts)
                out.append(Part(part.slot, 0, 0, 0))
                at, counts, room = len(out) - 1, [0, 0, 0], size
            counts[key] += 1
            room -= 1
    out[at] = Part(part.slot, *counts)
    return out
