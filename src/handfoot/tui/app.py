"""The terminal game: a Textual app over a :class:`Session`, played from the keyboard.

Card keys pick cards (4-9, 0 for 10, j q k a, 2, w for a joker, 3 for a three); ``m`` stages
the picked cards as a meld or an addition, Enter lays the staged melds down as one lay-down the
engine checks, ``d`` discards.  Bots move on a timer so a person can follow them; ``f`` skips
ahead to the person's next move.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal
import textwrap
import time
from collections.abc import Callable
from typing import ClassVar, TypeVar

from rich.console import Console
from rich.style import Style as RichStyle
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Static

from ..actions import Action, Answer, BlackThreeBook, Discard, PickUpPile, TakeOnto, TakePile
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
    slot_token,
)
from ..events import Refusal
from ..state import Phase
from . import render
from .render import escape
from .session import Session, refusal_text
from .table import News, Table

W = TypeVar("W", bound=Widget)

LOG_LINES = 300  # the running log keeps this many lines on screen

# Card keys: the kind each stands for.  ``3`` is resolved to whichever three is held.
CARD_KEYS = {
    "4": FOUR, "5": FIVE, "6": SIX, "7": SEVEN, "8": EIGHT, "9": NINE, "0": TEN,
    "j": JACK, "q": QUEEN, "k": KING, "a": ACE, "2": TWO, "w": JOKER, "x": JOKER,
    "3": BLACK_THREE,
}

# The keys and what each does.  The ? box wraps the words to the terminal, under a column of
# keys of their own, so a wrapped line keeps its indent at any width.
KEYS_HELP: tuple[tuple[str, str], ...] = (
    ("s", "draw from the stock (with the stock empty: stop)"),
    ("p", "take the pile (with a 2 or joker picked: take it with that; where house rules "
          "allow, the top card onto your meld or the pile picked up)"),
    ("4-9, 0", "pick a card (0 is a 10)"),
    ("j q k a", "pick a jack, queen, king, ace"),
    ("2, w x, 3", "pick a 2, a joker, a three"),
    ("Backspace", "put the last picked card back"),
    ("m", "stage the picked cards: a new meld, or onto your team's meld of that rank (wild "
          "cards alone: then their meld's rank key, or w for a meld of wild cards)"),
    ("Enter", "lay down everything staged (the engine checks it as one)"),
    ("d + card", "discard that card (d alone: the one card picked)"),
    ("n", "knock: end the turn without a discard, where the rules say so"),
    ("g", "ask your partner \"may I go out?\""),
    ("b", "meld a book of black threes from the foot (where house rules allow)"),
    ("y / n", "answer your partner"),
    ("r", "take back a short opening"),
    ("u", "undo your last lay-down this turn (until you learn more)"),
    ("h", "hint: what the strongest bot the table allows would do"),
    ("Esc", "clear the picked cards, then the staged melds"),
    ("t", "the whole table: every meld in full, the scores by round"),
    ("l", "the whole log"),
    ("c", "chat: say something to the table (at a web table)"),
    ("f, Space", "skip the bots ahead to your next move"),
    ("+ / -", "bots faster / slower"),
    ("Ctrl+Q", "save and quit (Ctrl+C too); every move is saved as it is made"),
    ("n", "after the last round: a new game"),
)
HELP_NOTES: tuple[tuple[str, str], ...] = (
    ("Mouse", "Click a card of your hand to pick it, a picked card to put it back, a meld of "
              "your team to put the picked cards on it, the stock to draw, the pile to take "
              "it, a key at the bottom to press it."),
    ("Screen", "▶ marks whose turn it is.  Melds: ★ and a kind for finished canastas (★clean "
               "K J: clean canastas of kings and jacks), then open melds as rank:naturals+wild "
               "cards (8:4+1).  Bold melds lack one card for a canasta; reversed ones changed "
               "since your last turn.  R3: red threes laid.  \"Seen in hand\": cards a seat took "
               "from the pile and still holds."),
)
KEY_COLUMN = 11


def help_text(width: int) -> str:
    """The ? box's text wrapped to ``width`` columns (at most 76, which reads best)."""
    width = max(30, min(width, 76))
    lines: list[str] = []
    for key, words in KEYS_HELP:
        lines += textwrap.wrap(words, width, initial_indent=f"{key:<{KEY_COLUMN}}",
                               subsequent_indent=" " * KEY_COLUMN, break_on_hyphens=False)
    for title, words in HELP_NOTES:
        lines += ["", f"[b]{title}[/b]", *textwrap.wrap(words, width, break_on_hyphens=False)]
    return "\n".join(lines)


def screen_text(app: App[object]) -> str:
    """The screen as plain text, as a terminal would show it (for tests and checks)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system=None, record=True, legacy_windows=False, safe_box=False)
    update = app.screen._compositor.render_update(  # the same render export_screenshot uses
        full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text(styles=False)


class TextScreen(ModalScreen[None]):
    """A box of text over the table: a finished round's breakdown, the keys, the whole table,
    the log.  What closes it is on its frame, so it is in sight however long the text."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,space", "close", "Continue")]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll {
        width: auto; min-width: 40; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
        border-subtitle-color: $text; border-subtitle-style: bold;
    }
    TextScreen Static { width: auto; }
    """

    def __init__(self, text: str | Callable[[int], str], title: str = "",
                 close: str = "Enter: continue", end: bool = False) -> None:
        super().__init__()
        # Text given as a function of the width is wrapped by it (the keys' column stays put).
        self.text = text
        self.title_text = title
        self.close_text = close
        self.end = end  # scroll to the end when shown (the log)

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = self.title_text
            box.border_subtitle = self.close_text
            yield Static(self._text(), id="text")

    def on_mount(self) -> None:
        self._fit()
        box = self.query_one(VerticalScroll)
        box.focus()  # the arrow keys and page keys scroll a long text
        if self.end:
            self.call_after_refresh(box.scroll_end, animate=False)

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        # Long lines wrap inside the frame: its border and padding take four columns, the
        # scroll bar two (a line one column wider lost its last letter under the bar).
        text = self.query_one("#text", Static)
        text.styles.max_width = self._width()
        if callable(self.text):
            text.update(self._text())

    def _width(self) -> int:
        return max(20, self.app.size.width - 6)

    def _text(self) -> str:
        return self.text(self._width()) if callable(self.text) else self.text

    def action_close(self) -> None:
        self.dismiss(None)


class ChatScreen(ModalScreen[str | None]):
    """One line to say to the table: Enter sends it, Esc goes back without a word."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Back")]
    DEFAULT_CSS = """
    ChatScreen { align: center bottom; }
    ChatScreen > Input { width: 100%; max-width: 80; border: round $accent; }
    """

    def __init__(self, length: int) -> None:
        super().__init__()
        self.length = length  # the longest line the table takes

    def compose(self) -> ComposeResult:
        box = Input(placeholder="Say to the table (Enter sends, Esc: back)", id="chat",
                    max_length=self.length)
        box.border_title = "Chat"
        yield box

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ResultScreen(TextScreen):
    """A finished round's breakdown (and the winner after the last round)."""


class Part(Static):
    """A part of the table whose cards, melds, stock, pile or keys are clickable: they keep
    their own colours (clean green, dirty yellow) and light up under the mouse."""

    @property
    def link_style(self) -> RichStyle:
        return RichStyle()


class Frame(Vertical):
    """The table's parts, redrawn to the new size whenever the terminal is resized."""

    def on_resize(self) -> None:
        app = self.app
        if isinstance(app, PlayApp):
            app.refresh_table()


class PlayApp(App[None]):
    TITLE = "handfoot"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; overflow: hidden; }
    Part { link-background-hover: $accent 50%; }
    #frame { height: 1fr; }
    #status { background: $primary-darken-2; color: $text; }
    #status, #table, #seats, #quota, #hand, #stage, #message, #keys { height: auto; }
    #teams { height: 3; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    #hand { background: $boost; }
    #log { height: 1fr; scrollbar-size-vertical: 1; scrollbar-gutter: stable;
           border-top: hkey $primary; }
    #message { color: $warning; }
    #keys { background: $primary-darken-3; }
    #small { display: none; height: 1fr; content-align: center middle; text-align: center; }
    #frame.too-small #small { display: block; }
    #frame.no-log #log { display: none; }
    #frame.too-small .part { display: none; }
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
        Binding("t", "table", "Table"),
        Binding("l", "show_log", "Log"),
        Binding("c", "chat", "Chat"),
        Binding("n", "no", "Knock/No"),
        Binding("y", "yes", "Yes"),
        Binding("g", "ask", "Ask"),
        Binding("b", "book", "Book"),
        Binding("r", "retract", "Retract"),
        Binding("escape", "clear", "Clear"),
        Binding("backspace", "unpick", "Unpick"),
        Binding("plus,equals_sign", "pace(-1)", "Faster"),
        Binding("minus", "pace(1)", "Slower"),
        Binding("space", "skip", "Skip"),
        Binding("ctrl+q,ctrl+c", "quit", "Quit", priority=True),
        *[Binding(key, f"pick('{key}')", "Pick") for key in CARD_KEYS],
    ]

    # Smaller than this, the table cannot be shown whole.
    MIN_WIDTH = 60
    LOG_ROWS = 2  # the log's least: its top border and a line

    def __init__(self, session: Table, pace: float = 0.6,
                 new_game: Callable[[Session], Session] | None = None) -> None:
        super().__init__()
        self.session = session
        self.pace = max(0.0, pace)
        self.fast = False
        self.mode = ""  # "discard" or "target" while waiting for a card key
        self.new_game = new_game  # builds the next game at the same table, when one ends
        self._timer: Timer | None = None
        self._logged = -1
        self._message: tuple[str, str, str] = ("", "", "")  # lead, its style, text
        self.signalled = 0  # the signal that ended the game (SIGHUP, SIGTERM), if any

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Frame(id="frame"):
            yield Part(id="status", classes="part")
            yield Part(id="table", classes="part")
            yield Part(id="seats", classes="part")
            # The melds scroll when they outgrow their share; the rest stays in sight.
            with VerticalScroll(id="teams", can_focus=False, classes="part"):
                yield Part(id="teamtext")
            yield Part(id="quota", classes="part")
            yield Part(id="hand", classes="part")
            yield Part(id="stage", classes="part")
            # A Static rewraps on resize, which RichLog's written lines do not.
            with VerticalScroll(id="log", can_focus=False, classes="part"):
                yield Static(id="logtext", markup=False)
            yield Part(id="message", classes="part")
            yield Part(id="keys", classes="part")
            yield Static(id="small")

    def on_mount(self) -> None:
        self._catch_signals()
        self.refresh_table()
        self._say(f"{self.session.intro} ? shows the keys, t the whole table.")
        self.session.listen(self._news)
        if not self.session.steps_bots:
            # A seat hold's countdown ticks on the status line.
            self.set_interval(1.0, self._tick)
        if self.session.unseen_results():
            self._show_results()
        else:
            self._schedule()

    # ------------------------------------------------------------------ drawing
    def refresh_table(self) -> None:
        """Draw every part to the terminal's size.  Each part is wrapped here, so its height
        is known: the log takes what is left, and gives way first when room is short; then
        the melds go to one line a team; below that the screen says it is too small."""
        s = self.session
        width, height = self.size
        parts = {
            "status": render.status_lines(s, width),
            "table": render.table_lines(s, width),
            "seats": render.seat_lines(s, width),
            "quota": render.quota_lines(s, width),
            "hand": render.hand_lines(s, width),
            "stage": render.stage_lines(s, width),
            "keys": render.key_hints(s, width, s.over),
        }
        message = self._message_lines(width)
        fixed = sum(len(lines) for lines in parts.values())
        teams_least = s.rules.teams + 1  # a header, and a line a team
        room = height - fixed - len(message)
        log = room - self.LOG_ROWS >= teams_least
        while not log and room < teams_least and len(message) > 1:
            # A long message gives way a line at a time, its end cut with an ellipsis.
            message = render.shorten(message, len(message) - 1, width)
            room += 1
        if width < self.MIN_WIDTH or room < teams_least:
            self._part("#frame", Frame).set_class(True, "too-small")
            need = max(height - room + teams_least, 24)
            self._part("#small", Static).update(
                f"[b]Terminal too small[/b]\n\nThe table needs at least "
                f"{self.MIN_WIDTH}x{need} here; this terminal is {width}x{height}.\n"
                f"Enlarge the window, or Ctrl+Q to save and quit.")
            return
        frame = self._part("#frame", Frame)
        frame.set_class(False, "too-small")
        frame.set_class(not log, "no-log")
        parts["message"] = message
        for name, lines in parts.items():
            part = self._part(f"#{name}", Static)
            part.update("\n".join(lines))
            part.styles.height = len(lines)
        # A column for the scroll bar, in case a resize outruns a redraw.
        teams = render.team_lines(s, width - 1, room - self.LOG_ROWS if log else room)
        self._part("#teams", VerticalScroll).styles.height = len(teams) if log else room
        self._part("#teamtext", Static).update("\n".join(teams))
        if s.log.revision != self._logged:
            self._logged = s.log.revision
            self._part("#logtext", Static).update("\n".join(s.log.lines[-LOG_LINES:]))
            box = self._part("#log", VerticalScroll)
            # After the new text is laid out, or the end is not yet where it will be.
            self.call_after_refresh(box.scroll_end, animate=False)

    def _part(self, selector: str, kind: type[W]) -> W:
        """A part of the table (the first screen), also while a box is open over it."""
        return self.screen_stack[0].query_one(selector, kind)

    def _message_lines(self, width: int) -> list[str]:
        lead, style, text = self._message
        error = self.session.save_error
        if error:
            lead, style, text = "Not saved:", "b red", error
        words = [render.bit(w) for w in text.split()]
        if lead:
            words.insert(0, render.bit(lead, style))
        if not words:
            return []
        lines = render.wrap(words[0], words[1:], width, indent=0)
        return render.shorten(lines, 3, width) if len(lines) > 3 else lines

    def _say(self, text: str, lead: str = "", style: str = "") -> None:
        self._message = (lead, style, text)
        width = self.size.width
        self._part("#message", Static).update("\n".join(self._message_lines(width)))
        self.refresh_table()

    def _refused(self, refusal: Refusal) -> None:
        self._say(refusal_text(refusal), "Not allowed:", "b red")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A box over the table takes the keys: only closing it, or quitting, goes through.
        return action in ("quit", "close") or not isinstance(self.screen, TextScreen)

    # ------------------------------------------------------------------ signals
    def _catch_signals(self) -> None:
        """A closed terminal (SIGHUP) or a kill (SIGTERM) saves and ends the game cleanly
        (the game is saved after every move anyway)."""
        loop = asyncio.get_running_loop()
        for name in ("SIGHUP", "SIGTERM"):
            number = getattr(signal, name, None)
            if number is None:
                continue
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(number, self._on_signal, int(number))

    def _on_signal(self, number: int) -> None:
        self.signalled = number
        self.session.autosave()
        if number == getattr(signal, "SIGHUP", -1):
            # The terminal is gone: nothing can be drawn or restored on it.
            os._exit(128 + number)
        self.exit(return_code=128 + number)

    # ------------------------------------------------------------------ bots
    def _schedule(self) -> None:
        s = self.session
        if self._timer is not None or s.human_to_act or s.over or not s.steps_bots:
            return
        # Textual's timers need a positive delay.
        delay = 0.01 if self.fast else max(self.pace, 0.01)
        self._timer = self.set_timer(delay, self._bot_tick)

    def _bot_tick(self) -> None:
        self._timer = None
        s = self.session
        if isinstance(self.screen, TextScreen):
            # The bots wait while a score, table or help screen is open.
            self._timer = self.set_timer(0.2, self._bot_tick)
            return
        started = time.monotonic()
        while not s.human_to_act and not s.over:
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
            self._prompt_answer()
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
            if s.unseen_results():
                self._show_results()
            elif s.over:
                where = f" Saved to {s.save_path}." if s.save_path else ""
                again = " n: new game," if s.offers_new_game else ""
                self._say(f"{render.winner_plain(s)}.{where}{again} Ctrl+Q: quit.",
                          "Game over:", "b")
            else:
                self._say(f"Round {s.view().round_no} begins.")
                self._schedule()

        self.push_screen(ResultScreen(render.round_result_text(s, index),
                                      title=f"Round {s.view().results[index].round} of "
                                            f"{s.rules.rounds}"),
                         done)

    def _prompt_answer(self) -> None:
        s = self.session
        v = s.view()
        if s.human_to_act and v.phase is Phase.ANSWER:
            self._say(f"{s.names[v.turn]} asks you: may I go out? Press y or n.")

    # ------------------------------------------------------------------ a remote table
    def _log_to_end(self, _: None = None) -> None:
        # The log was filled while a box covered it: its end is where it is laid out now.
        self.call_after_refresh(self._part("#log", VerticalScroll).scroll_end, animate=False)

    def _tick(self) -> None:
        if self.session.notes():
            self.refresh_table()

    def _news(self, news: News) -> None:
        """What a remote table says after the fact: a new view, a refusal, a hint, a line
        about the connection, or what happened while the connection was down."""
        if news.kind == "refused" and news.refusal is not None:
            self._refused(news.refusal)
        elif news.kind == "hint":
            self._say(news.text, "Hint:", "b")
        elif news.kind == "said":
            self._say(news.text)
        elif news.kind == "missed":
            self.push_screen(TextScreen(escape("\n".join(news.lines)),
                                        title="While you were away", close="Esc: close"),
                             self._log_to_end)
        else:
            if news.text:
                self._say(news.text)
            else:
                self.refresh_table()
            if self.session.unseen_results() and not isinstance(self.screen, ResultScreen):
                self._show_results()
            elif news.kind == "changed":
                self._prompt_answer()

    # ------------------------------------------------------------------ the person's moves
    def _act(self, action: Action | None) -> bool:
        s = self.session
        if action is None:
            return False
        refusal = s.act(action)
        if refusal is not None:
            self._refused(refusal)
            return False
        self._say("")
        if s.unseen_results():
            self._show_results()
        else:
            self._schedule()
        return True

    def _my_move(self) -> bool:
        if self.session.over:
            self._say("The game is over: n starts a new one." if self.session.offers_new_game
                      else "The game is over.")
            return False
        if not self.session.human_to_act:
            self._say("Wait for your turn (f skips the bots ahead)." if self.session.steps_bots
                      else "Wait for your turn.")
            return False
        return True

    def action_pick(self, key: str) -> None:
        s = self.session
        kind = CARD_KEYS[key]
        if kind == BLACK_THREE and s.available(BLACK_THREE) <= 0:
            kind = RED_THREE
        if self.mode == "discard" and kind == BLACK_THREE and s.view().hand[BLACK_THREE] == 0:
            kind = RED_THREE
        self.action_pick_kind(kind)

    def action_pick_kind(self, kind: int) -> None:
        """A card key or a click on a card of the hand."""
        s = self.session
        mode, self.mode = self.mode, ""
        if mode == "discard":
            if self._my_move():
                self._act(Discard(kind))
            return
        if mode == "target":
            slot = WILD_SLOT if kind in (TWO, JOKER) else kind
            self.action_onto(slot)
            return
        error = s.pick(kind)
        self._say(error or "")

    def action_unpick_kind(self, kind: int) -> None:
        """A click on a picked card puts it back."""
        s = self.session
        if s.picked[kind]:
            s.picked[kind] -= 1
        self._say("")

    def action_onto(self, slot: int) -> None:
        """Stage the picked cards onto the team's meld in ``slot`` (a key after m, or a click
        on the meld)."""
        s = self.session
        self.mode = ""
        if not any(s.picked):
            self._say(f"Pick cards first (their keys, or click them in your hand), then "
                      f"click the {slot_token(slot)} meld.")
            return
        error = s.stage(slot)
        self._say(error or "Staged. Pick more, or Enter to lay down.")

    def action_unpick(self) -> None:
        self.mode = ""
        self.session.unpick()
        self._say("")

    def action_clear(self) -> None:
        s = self.session
        if self.mode:
            self.mode = ""
        elif any(s.picked):
            s.picked = [0] * len(s.picked)
        else:
            s.staged = []
        self._say("")

    def action_stage(self) -> None:
        s = self.session
        if s.picked_wild_only():
            self.mode = "target"
            self._say("Wild cards onto which meld? Press its rank key (w for the wild meld), "
                      "or click the meld.")
            return
        error = s.stage()
        self._say(error or "Staged. Pick more, or Enter to lay down.")

    def action_commit(self) -> None:
        s = self.session
        if any(s.picked):
            if s.picked_wild_only():
                self.action_stage()
                return
            error = s.stage()
            if error:
                self._say(error)
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
        self._say("Discard which card? Press its key or click it (Esc cancels).")

    def action_draw(self) -> None:
        if self._my_move():
            action = self.session.key_action("draw")
            assert action is not None
            self._act(action)

    def action_pile(self) -> None:
        s = self.session
        if not self._my_move():
            return
        legal = s.legal()
        takes = [a for a in legal if isinstance(a, TakePile)]
        wild = [a for a in takes if a.wild >= 0 and s.picked[a.wild]]
        # The house rules' other ways (4.7, 4.8) where no pair takes it.
        others = [a for a in legal if isinstance(a, TakeOnto | PickUpPile)]
        choice = (wild or [a for a in takes if a.wild < 0] or others or takes
                  or [TakePile()])[0]
        self._act(choice)

    def action_book(self) -> None:
        if self._my_move():
            self._act(BlackThreeBook())

    def action_no(self) -> None:
        s = self.session
        if s.over:
            self.action_new_game()
            return
        if not self._my_move():
            return
        self._act(Answer(False) if s.view().phase is Phase.ANSWER else s.key_action("knock"))

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
        done = self.session.undo()
        if done is None:
            self._say("Taking back your last step…")
        elif done:
            self._say("Undone.")
        else:
            self._say("Nothing to undo since you last learned something new.")

    def action_hint(self) -> None:
        if not self.session.hints:
            self._say("This table gives no hints (its host may allow them).")
            return
        text = self.session.hint()
        self._say(text if text is not None else "asking the table…", "Hint:", "b")

    def action_skip(self) -> None:
        if not self.session.steps_bots:
            self._say("The table's server plays its bots at the pace its host set.")
            return
        self.fast = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._schedule()

    def action_pace(self, step: int) -> None:
        if not self.session.steps_bots:
            self._say("The table's server plays its bots at the pace its host set.")
            return
        self.pace = max(0.0, round(self.pace + 0.2 * step, 1))
        self._say(f"Bot pace: {self.pace:.1f} s a move.")

    def action_faster(self) -> None:
        self.action_pace(-1)

    def action_help(self) -> None:
        self.push_screen(TextScreen(help_text, title="Keys", close="Esc: close"))

    def action_table(self) -> None:
        self.push_screen(TextScreen(render.full_table_text(self.session), title="The table",
                                    close="Esc: close"))

    def action_show_log(self) -> None:
        text = escape("\n".join(self.session.log.lines))
        self.push_screen(TextScreen(text, title="Log", close="Esc: close", end=True))

    def action_chat(self) -> None:
        if not self.session.chats:
            self._say(self.session.chat("") or "")
            return

        def said(text: str | None) -> None:
            if text:
                why = self.session.chat(text)
                if why:
                    self._say(why)

        self.push_screen(ChatScreen(self.session.chat_length), said)

    def action_new_game(self) -> None:
        s = self.session
        if s.over and not isinstance(s, Session):
            self._say(s.rematch())  # a web table's next game is its host's to start
            return
        if not s.over or self.new_game is None or not isinstance(s, Session):
            if not s.over:
                self._say("A new game starts when this one is over (Ctrl+Q saves and quits).")
            return
        s.autosave()  # the finished game's record, whole
        fresh = self.session = self.new_game(s)
        self.mode = ""
        self.fast = False
        self._logged = -1
        where = f" Saving to {fresh.save_path}." if fresh.save_path else ""
        self._say(f"New game, seed {fresh.game.seed}.{where}")
        self._schedule()

    async def action_quit(self) -> None:
        self.session.autosave()
        await self.session.close()
        self.exit()

    def on_unmount(self) -> None:
        self.session.autosave()
