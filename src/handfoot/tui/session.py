"""One person's game against bots, without any screen: the table the terminal game draws.

The session owns the game (which keeps its own history), the bots, the person's picked and
staged cards and the undo stack.  Everything the screen shows comes from ``view(game, human)``
and the events; the game object itself is only asked what is legal and told what was done.
"""

from __future__ import annotations

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
from ..bots import BotError, make_bot
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
    slot_token,
)
from ..clauses import CLAUSES
from ..engine import Game
from ..events import Drew, Event, Melded, Refusal, RoundDealt
from ..narrate import describe, meld_text
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


def _is_bot(name: str) -> bool:
    try:
        make_bot(name)
    except BotError:
        return False
    return True


class PlayError(ValueError):
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

    def add(self, line: str) -> None:
        self.lines.append(line)
        self.revision += 1
        self._run_seat = -1

    def meld(self, seat: int, name: str, slot: int, counts: list[int]) -> None:
        if self._run_seat != seat:
            self.lines.append("")
            self._run_seat, self._run = seat, {}
        old = self._run.setdefault(slot, [0, 0, 0])
        for i in range(3):
            old[i] += counts[i]
        melds = " · ".join(f"{slot_token(s)}: {meld_text(s, *c)}" for s, c in self._run.items())
        self.lines[-1] = f"{name} {'meld' if name == YOU else 'melds'} {melds}"
        self.revision += 1

    def truncate(self, n: int) -> None:
        del self.lines[n:]
        self.revision += 1
        self._run_seat = -1


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
        self.names = seat_names(game.rules, human)
        self.log = Log()
        self.picked = [0] * NUM_KINDS  # cards chosen but not yet put on a meld
        self.staged: list[Part] = []  # melds and additions waiting for "lay down"
        self._undo: list[_Saved] = []
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
                spec = name if _is_bot(name) else default_bot
                players[seat] = make_bot(spec, seed=seed * 10 + seat + 17)
                names[seat] = spec
        session = cls(outcome.game, names, human, players, save_path, record.description)
        session.shown_results = len(outcome.game.results)
        for events, seat in this_round:
            session._log_events(events, seat)
        session.log.add(f"resumed after {sum(len(r.actions) for r in record.rounds)} moves")
        return session

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
        legal = self.legal()
        if not legal:
            return "nothing to do: it is not your move"
        best = hint(self.view(), legal)
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
        part = Part(slot, n, p[TWO], p[JOKER])
        for i, old in enumerate(self.staged):
            if old.slot == slot:
                self.staged[i] = Part(slot, old.naturals + part.naturals, old.twos + part.twos,
                                      old.jokers + part.jokers)
                break
        else:
            self.staged.append(part)
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
        return events

    def _after(self, events: list[Event]) -> None:
        if any(e.name in ("round_end", "game_end") for e in events):
            self.save()
            self._undo.clear()

    def _log_events(self, events: list[Event], actor: int,
                    hand_before: tuple[int, ...] | None = None) -> None:
        for e in events:
            if isinstance(e, Drew) and e.seat == self.human and hand_before is not None:
                # The person sees their own new cards; the table sees only how many.
                self.log.add(drawn_text(hand_before, self.view().hand, e, self.names))
                continue
            if isinstance(e, Melded):
                self.log.meld(e.seat, self.names[e.seat], e.slot,
                              [e.naturals, e.twos, e.jokers])
                continue
            line = describe(e, self.names, self.human)
            if line:
                self.log.add(line)
            if isinstance(e, RoundDealt):
                self._log_minimum()

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
        if self.save_path is None:
            return None
        self.save_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.save_path.with_suffix(self.save_path.suffix + ".tmp")
        tmp.write_text(self.record_json(), encoding="utf-8")
        tmp.replace(self.save_path)
        return self.save_path

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
