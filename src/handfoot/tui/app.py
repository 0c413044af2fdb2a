"""The terminal game: a Textual app over a :class:`Session`, played from the keyboard.

Card keys pick cards (4-9, 0 for 10, j q k a, 2, w for a joker, 3 for a three); ``m`` stages
the picked cards as a meld or an addition, Enter lays the staged melds down as one lay-down the
engine checks, ``d`` discards.  Bots move on a timer so a person can follow them; ``f`` skips
ahead to the person's next move.
"""

from __future__ import annotations

import io
import time
from typing import ClassVar

from rich.console import Console
from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Footer, Static

from ..actions import Action, Answer, Discard, TakePile
from ..cards import (
    ACE,
    BLACK_THREE,
    EIGHT,
    FIVE,
    FOUR,
    JACK,
    JOKER,
    KING,
    NINE,
    QUEEN,
    RED_THREE,
    SEVEN,
    SIX,
    TEN,
    TWO,
    WILD_SLOT,
)
from ..events import Refusal
from ..state import Phase
from . import render
from .session import Session, refusal_text

LOG_LINES = 300  # the running log keeps this many lines on screen

# Card keys: the kind each stands for.  ``3`` is resolved to whichever three is held.
CARD_KEYS = {
    "4": FOUR, "5": FIVE, "6": SIX, "7": SEVEN, "8": EIGHT, "9": NINE, "0": TEN, "t": TEN,
    "j": JACK, "q": QUEEN, "k": KING, "a": ACE, "2": TWO, "w": JOKER, "x": JOKER,
    "3": BLACK_THREE,
}

HELP = """[b]Keys[/b]
  s          draw from the stock (stop, when the stock is empty)
  p          take the pile (with a picked wild card: take it with that wild)
  4-9 0 t    pick a card: 0 or t is a 10
  j q k a    pick a jack, queen, king, ace
  2 w x 3    pick a 2, a joker (w or x), a three
  Backspace  put the last picked card back
  m          stage the picked cards: a new meld, or onto your meld of that rank
             (wild cards alone: then a rank key, or w for the wild meld)
  Enter      lay down everything staged, checked by the engine as one lay-down
  d + card   discard that card (or d with one card picked)
  n          knock (end the turn without a discard, where the rules say so)
  g          ask your partner "may I go out?"
  y / n      answer your partner
  r          take back a short opening
  u          undo your last meld this turn (until you learn something new)
  h          hint: what the heuristic bot would do
  Esc        clear the picked cards, then the staged melds
  f, Space   skip the bots ahead to your next move
  + / -      bots faster / slower
  Ctrl+Q     save and quit"""


def screen_text(app: App[object]) -> str:
    """The screen as plain text, as a terminal would show it (for tests and checks)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system=None, record=True, legacy_windows=False, safe_box=False)
    update = app.screen._compositor.render_update(  # the same render export_screenshot uses
        full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text(styles=False)


class ResultScreen(ModalScreen[None]):
    """A finished round's breakdown (and the winner after the last round)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,space", "close", "Continue")]
    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    ResultScreen > VerticalScroll {
        width: 74; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.text + "\n\n[dim]Enter: continue[/dim]", id="result")

    def action_close(self) -> None:
        self.dismiss(None)


class PlayApp(App[None]):
    TITLE = "handfoot"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-darken-2; color: $text; }
    #body { height: 1fr; }
    #left { width: 1fr; padding: 0 1 0 0; }
    #tablebox { height: 1fr; scrollbar-size-vertical: 1; }
    #right { width: 38%; min-width: 28; max-width: 56; border-left: vkey $primary; }
    #table, #players, #melds, #quota, #hand, #stage { height: auto; }
    #players, #melds { margin-top: 1; }
    #hand { background: $boost; }
    #scores { height: auto; }
    #log { height: 1fr; scrollbar-size-vertical: 1; }
    #message { height: auto; max-height: 3; color: $warning; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "draw", "Draw"),
        Binding("p", "pile", "Pile"),
        Binding("m", "stage", "Meld"),
        Binding("enter", "commit", "Lay"),
        Binding("d", "discard", "Discard"),
        Binding("u", "undo", "Undo"),
        Binding("h", "hint", "Hint"),
        Binding("f", "skip", "Skip"),
        Binding("question_mark", "help", "Keys"),
        Binding("n", "no", "Knock/No", show=False),
        Binding("y", "yes", "Yes", show=False),
        Binding("g", "ask", "Ask", show=False),
        Binding("r", "retract", "Retract", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("backspace", "unpick", "Unpick", show=False),
        Binding("plus,equals_sign", "pace(-1)", "Faster", show=False),
        Binding("minus", "pace(1)", "Slower", show=False),
        Binding("space", "skip", "Skip", show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True),
        *[Binding(key, f"pick('{key}')", "Pick", show=False) for key in CARD_KEYS],
    ]

    def __init__(self, session: Session, pace: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.pace = max(0.0, pace)
        self.fast = False
        self.mode = ""  # "discard" or "target" while waiting for a card key
        self._timer: Timer | None = None
        self._logged = -1

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                # The table scrolls when the melds grow; the hand stays in sight below it.
                with VerticalScroll(id="tablebox", can_focus=False):
                    yield Static(id="table")
                    yield Static(id="players")
                    yield Static(id="melds")
                yield Static(id="quota")
                yield Static(id="hand")
                yield Static(id="stage")
            with Vertical(id="right"):
                yield Static(id="scores")
                # A Static rewraps on resize, which RichLog's written lines do not.
                with VerticalScroll(id="log", can_focus=False):
                    yield Static(id="logtext", markup=False)
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_table()
        self._say(f"Seed {self.session.game.seed}. ? shows the keys.")
        if self.session.unseen_results():
            self._show_results()
        else:
            self._schedule()

    # ------------------------------------------------------------------ drawing
    def refresh_table(self) -> None:
        s = self.session
        self.query_one("#status", Static).update(render.status_line(s))
        self.query_one("#table", Static).update(render.table_text(s))
        self.query_one("#players", Static).update(render.players_text(s))
        self.query_one("#melds", Static).update(render.melds_text(s))
        self.query_one("#quota", Static).update(render.quota_text(s))
        self.query_one("#hand", Static).update(render.hand_text(s))
        self.query_one("#stage", Static).update(render.stage_text(s))
        self.query_one("#scores", Static).update(render.scores_text(s))
        lines = s.log.lines
        if s.log.revision != self._logged:
            self._logged = s.log.revision
            self.query_one("#logtext", Static).update("\n".join(lines[-LOG_LINES:]))
            log = self.query_one("#log", VerticalScroll)
            # After the new text is laid out, or the end is not yet where it will be.
            self.call_after_refresh(log.scroll_end, animate=False)

    def _say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

    def _refused(self, refusal: Refusal) -> None:
        self._say(f"[b red]Not allowed:[/b red] {escape(refusal_text(refusal))}")

    # ------------------------------------------------------------------ bots
    def _schedule(self) -> None:
        s = self.session
        if self._timer is not None or s.human_to_act or s.game.over:
            return
        # Textual's timers need a positive delay.
        delay = 0.01 if self.fast else max(self.pace, 0.01)
        self._timer = self.set_timer(delay, self._bot_tick)

    def _bot_tick(self) -> None:
        self._timer = None
        s = self.session
        if isinstance(self.screen, ResultScreen):
            # The bots wait while a score or help screen is open.
            self._timer = self.set_timer(0.2, self._bot_tick)
            return
        started = time.monotonic()
        while not s.human_to_act and not s.game.over:
            events = s.bot_step()
            if any(e.name == "round_end" for e in events):
                break
            # Skipping ahead still repaints and reads keys a few times a second: a searching
            # bot takes a noticeable moment a move.
            if (self.pace and not self.fast) or time.monotonic() - started > 0.2:
                break
        self.refresh_table()
        if s.unseen_results():
            self._show_results()
            return
        if s.human_to_act:
            self.fast = False
            if s.game.phase is Phase.ANSWER:
                self._say(f"{s.names[s.game.seat]} asks: may I go out? Press y or n.")
        self._schedule()

    def _show_results(self) -> None:
        s = self.session
        pending = s.unseen_results()
        if not pending:
            return
        index = pending[0]

        def done(_: None) -> None:
            s.shown_results = index + 1
            self.fast = False
            self.refresh_table()
            if s.unseen_results():
                self._show_results()
            elif s.game.over:
                where = f" Saved to {s.save_path}." if s.save_path else ""
                self._say(f"{render.winner_text(s)}.{escape(where)} Ctrl+Q quits.")
            else:
                self._say(f"Round {s.game.round_no} begins.")
                self._schedule()

        self.push_screen(ResultScreen(render.round_result_text(s, index)), done)

    # ------------------------------------------------------------------ the person's moves
    def _act(self, action: Action | None) -> bool:
        s = self.session
        if action is None:
            return False
        refusal = s.act(action)
        if refusal is not None:
            self._refused(refusal)
            self.refresh_table()
            return False
        self._say("")
        self.refresh_table()
        if s.unseen_results():
            self._show_results()
        else:
            self._schedule()
        return True

    def _my_move(self) -> bool:
        if not self.session.human_to_act:
            self._say("Wait for your turn (f skips the bots ahead).")
            return False
        return True

    def action_pick(self, key: str) -> None:
        s = self.session
        kind = CARD_KEYS[key]
        if kind == BLACK_THREE and s.available(BLACK_THREE) <= 0:
            kind = RED_THREE
        mode, self.mode = self.mode, ""
        if mode == "discard":
            if kind == BLACK_THREE and s.view().hand[BLACK_THREE] == 0:
                kind = RED_THREE
            if self._my_move():
                self._act(Discard(kind))
            return
        if mode == "target":
            slot = WILD_SLOT if kind in (TWO, JOKER) else kind
            error = s.stage(slot)
            self._say(error or "")
            self.refresh_table()
            return
        error = s.pick(kind)
        if error:
            self._say(error)
        self.refresh_table()

    def action_unpick(self) -> None:
        self.mode = ""
        self.session.unpick()
        self.refresh_table()

    def action_clear(self) -> None:
        s = self.session
        if self.mode:
            self.mode = ""
        elif any(s.picked):
            s.picked = [0] * len(s.picked)
        else:
            s.staged = []
        self._say("")
        self.refresh_table()

    def action_stage(self) -> None:
        s = self.session
        if s.picked_wild_only():
            self.mode = "target"
            self._say("Wild cards onto which meld? Press its rank key, or w for the wild meld.")
            return
        error = s.stage()
        self._say(error or "Staged. Pick more, or Enter to lay down.")
        self.refresh_table()

    def action_commit(self) -> None:
        s = self.session
        if any(s.picked):
            if s.picked_wild_only():
                self.action_stage()
                return
            error = s.stage()
            if error:
                self._say(error)
                self.refresh_table()
                return
        laydown = s.laydown()
        if laydown is None:
            self._say("Nothing staged: pick cards with their keys, then m.")
            return
        if self._my_move() and self._act(laydown):
            self._say(f"Laid down: {laydown.text[4:]}")

    def action_discard(self) -> None:
        s = self.session
        if not self._my_move():
            return
        if s.staged:
            self._say("You have melds staged: Enter lays them down, Esc clears them.")
            return
        picked = [k for k in range(len(s.picked)) for _ in range(s.picked[k])]
        if len(picked) == 1:
            self._act(Discard(picked[0]))
            return
        self.mode = "discard"
        self._say("Discard which card? Press its key (Esc cancels).")

    def action_draw(self) -> None:
        if self._my_move():
            action = self.session.key_action("draw")
            assert action is not None
            self._act(action)

    def action_pile(self) -> None:
        s = self.session
        if not self._my_move():
            return
        takes = [a for a in s.legal() if isinstance(a, TakePile)]
        wild = [a for a in takes if a.wild >= 0 and s.picked[a.wild]]
        choice = (wild or [a for a in takes if a.wild < 0] or takes or [TakePile()])[0]
        self._act(choice)

    def action_no(self) -> None:
        s = self.session
        if not self._my_move():
            return
        self._act(Answer(False) if s.game.phase is Phase.ANSWER else s.key_action("knock"))

    def action_yes(self) -> None:
        if self._my_move():
            self._act(Answer(True))

    def action_ask(self) -> None:
        if self._my_move():
            self._act(self.session.key_action("ask"))

    def action_retract(self) -> None:
        if self._my_move():
            self._act(self.session.key_action("retract"))

    def action_undo(self) -> None:
        if self.session.undo():
            self._say("Undone.")
        else:
            self._say("Nothing to undo since you last learned something new.")
        self.refresh_table()

    def action_hint(self) -> None:
        self._say("Hint: " + escape(self.session.hint()))

    def action_skip(self) -> None:
        self.fast = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._schedule()

    def action_pace(self, step: int) -> None:
        self.pace = max(0.0, round(self.pace + 0.2 * step, 1))
        self._say(f"Bot pace: {self.pace:.1f} s a move.")

    def action_help(self) -> None:
        self.push_screen(ResultScreen(HELP))

    async def action_quit(self) -> None:
        saved = self.session.save()
        del saved
        self.exit()

    def on_unmount(self) -> None:
        self.session.save()
