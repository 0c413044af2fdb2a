"""The seam between the terminal game's screen and whatever plays the game behind it.

The screen (app.py, render.py) reads one :class:`Table`: the person's view, the legal actions,
the log and the table's recent happenings, the cards picked and staged; and it sends the
person's actions through it.  Two tables implement it:

- :class:`~handfoot.tui.session.Session`: a local ``Game`` with bots, stepped by the screen's
  timer; the engine answers at once.
- :class:`~handfoot.tui.remote.RemoteTable`: a seat at a web table (docs/PROTOCOL.md); the
  server plays the bots and answers a moment later, through :meth:`Table.listen`.

Neither holds a rule of its own: refusals, hints and the pile's state are the engine's answers
(asked directly, or by the server's ``refused``, ``hint``, ``checked`` and ``pile``).  What
lives here is what both share and is not a rule: picking and grouping cards for a lay-down,
and watching the events for the screen's highlights and the log.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..actions import Action, Ask, Draw, Knock, LayDown, Part, Retract, Stop
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
from ..narrate import YOU, describe, drawn_text, meld_text, merge_melds
from ..rules import Rules
from ..views import SeatView


@dataclass(frozen=True, slots=True)
class News:
    """Something a remote table says after the fact (a local table answers at once).

    ``kind``: ``changed`` (a new view: redraw, show a finished round), ``refused`` (the
    engine refused the person's action: ``refusal``), ``hint``, ``said`` (a line for the
    message bar: a connection's state, an error), ``missed`` (what happened while the
    connection was down: ``lines``)."""

    kind: str
    text: str = ""
    refusal: Refusal | None = None
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StagedCheck:
    """What the engine says of the staged lay-down: its card points, and its refusal (None:
    it would be accepted)."""

    action: str
    points: int
    refusal: Refusal | None


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


class Table(ABC):
    """The person's seat at a table, as the terminal game's screen reads and drives it."""

    # Whether the screen steps the other seats (a local game's bots); a web table's server
    # plays its own bots at its own pace.
    steps_bots = False
    # Whether ``n`` after the last round starts a new game here.
    offers_new_game = False
    # Whether the table has people to talk to (a web table's chat).
    chats = False
    chat_length = 0  # the longest chat line the table takes

    def __init__(self, rules: Rules, names: list[str], human: int) -> None:
        self.rules = rules
        self.names = names  # as the screen shows the seats: the person is YOU
        self.human = human
        self.save_path: Path | None = None
        self.save_error: str | None = None  # why the last save failed, until one succeeds
        self.log = Log()
        self.picked = [0] * NUM_KINDS  # cards chosen but not yet put on a meld
        self.staged: list[Part] = []  # melds and additions waiting for "lay down"
        self.shown_results = 0  # round-end screens already shown
        # What the table watched happen lately, for the screen's highlights: each seat's
        # latest turn (its events), the melds other seats changed since the
        # person's last turn, and this turn's "may I go out?" (asker, asked, answer or None).
        self.last_events: dict[int, list[Event]] = {}
        self._new_turn: set[int] = set()  # seats whose turn began, with no move yet
        self.latest = -1  # the other seat that moved last
        self.recent: set[tuple[int, int]] = set()
        self.question: tuple[int, int, bool | None] | None = None

    # ------------------------------------------------------------------ what a table answers
    @abstractmethod
    def view(self) -> SeatView:
        """The person's seat view, as the engine builds it."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """Whether the game has ended."""

    @property
    def human_to_act(self) -> bool:
        v = self.view()
        return not self.over and v.actor == self.human

    @property
    @abstractmethod
    def can_undo(self) -> bool: ...

    @abstractmethod
    def legal(self) -> list[Action]:
        """The person's atomic legal actions now (empty when it is not their move)."""

    @abstractmethod
    def pile_status(self) -> Refusal | None:
        """Why the person may not take the pile now (or were it their draw), by the engine;
        None when they may."""

    @abstractmethod
    def take_refusal(self) -> Refusal | None:
        """The engine's refusal of a plain take of the pile now."""

    @abstractmethod
    def act(self, action: Action) -> Refusal | None:
        """Send the person's action: refused with the engine's reason, or applied (a remote
        table: sent; a refusal comes later as ``News("refused")``)."""

    @abstractmethod
    def undo(self) -> bool | None:
        """Take back the person's last step: done (True), nothing to take back (False), or
        asked of a remote table (None: the answer comes as news)."""

    @abstractmethod
    def hint(self) -> str | None:
        """The hint's words, or None when it is asked of a remote table (it comes as news)."""

    @abstractmethod
    def staged_points(self) -> int:
        """The card points of the staged lay-down (the engine's card values)."""

    @property
    def hints(self) -> bool:
        """Whether the table gives hints."""
        return True

    @property
    def intro(self) -> str:
        """The first words in the message bar."""
        return ""

    def notes(self) -> list[str]:
        """Lines about the table itself for the status line (a connection, a seat hold)."""
        return []

    def seat_note(self, seat: int) -> str:
        """Who plays a seat, when it is not its person (away, or a bot plays for them)."""
        return ""

    def staged_check(self) -> StagedCheck | None:
        """The engine's verdict on the staged lay-down, where the table asks for one as the
        cards are staged; None when it does not (or has not answered yet)."""
        return None

    def chat(self, text: str) -> str | None:
        """Say ``text`` to the table; why not, in words, or None when it is sent."""
        return "a game on this computer has nobody to chat with"

    def rematch(self) -> str:
        """Ask for the next game at this table (after the last round); what happens, in
        words.  A local game's next game is the screen's own (``offers_new_game``)."""
        return "A new game is not this table's to start."

    def listen(self, notify: Callable[[News], None]) -> None:  # noqa: B027 (a local table says nothing later)
        """Start telling ``notify`` what the table says after the fact (a remote table)."""

    async def close(self) -> None:  # noqa: B027 (a local table has nothing to close)
        """Leave the table (a remote table closes its connection)."""

    def autosave(self) -> bool:
        """Keep the game after a move; a table that keeps it elsewhere has nothing to do."""
        return True

    def bot_step(self) -> list[Event]:
        """One move by the bot that must act now (only where ``steps_bots``)."""
        raise NotImplementedError

    def unseen_results(self) -> list[int]:
        """Indexes of finished rounds whose score screen the person has not seen."""
        return list(range(self.shown_results, len(self.view().results)))

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

    def laydown(self) -> LayDown | None:
        return LayDown(tuple(self.staged)) if self.staged else None

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

    # ------------------------------------------------------------------ watching the table
    def _log_minimum(self) -> None:
        if not self.over:
            team = self.view().teams[self.rules.team_of(self.human)]
            self.log.add(f"minimum for your team: {team.minimum}")

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
                self.log.add(drawn_text(e, hand_before, after, self.names, self.human))
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
