"""Text for each part of the screen, built from the person's view (Textual markup).

Every function takes the session and reads ``session.view()``: the person's own cards, what
the whole table can see, and the engine's answers about the person's own moves.  Parts that
must fit a width take it and return lines already wrapped, so the screen knows how tall each
part is and can keep every part in sight at 80x24.  Cards, melds, the stock and the pile carry
click actions (``[@click=app....]``), so the mouse does what their keys do.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from textual.markup import to_content

from ..actions import BlackThreeBook, Discard, Knock, PickUpPile, TakeOnto, TakePile
from ..bots.knowledge import missing
from ..cards import (
    BLACK_THREE,
    JOKER,
    KIND_TOKENS,
    NATURAL_RANKS,
    RED_THREE,
    TWO,
    WILD_SLOT,
    plural,
    slot_token,
)
from ..derived import derived_for
from ..events import Refusal
from ..narrate import YOU, ending_words, meld_text
from ..rulebook import decks_words
from ..scoring import winners
from .table import Table

PHASE_WORDS = {
    "draw": "draw (s) or take the pile (p)",
    "pile-opening": "lay your opening (Enter) or take it back (r)",
    "meld": "meld, then discard (d)",
    "answer": "answer",
}

KIND_COLOURS = {"clean": "green", "dirty": "yellow", "wild": "magenta"}


# ---------------------------------------------------------------------- pieces of text
def escape(text: str) -> str:
    """Text shown as it is, never read as markup: every opening bracket escaped (escaping
    piece by piece must not leave a bracket that a later piece closes)."""
    return text.replace("[", "\\[")


@dataclass(frozen=True, slots=True)
class Bit:
    """A piece of a line: its plain text (for widths) and its markup."""

    text: str
    markup: str

    @property
    def width(self) -> int:
        return cell_len(self.text)


def bit(text: str, style: str = "", click: str = "") -> Bit:
    markup = escape(text)
    if style:
        markup = f"[{style}]{markup}[/]"
    if click:
        markup = f"[@click={click}]{markup}[/]"
    return Bit(text, markup)


def join(bits: list[Bit], sep: str = " ") -> Bit:
    return Bit(sep.join(b.text for b in bits), escape(sep).join(b.markup for b in bits))


def wrap(head: Bit, bits: list[Bit], width: int, indent: int | None = None,
         sep: str = " ") -> list[str]:
    """``head`` then ``bits`` separated by ``sep``, wrapped to ``width`` with continuation lines
    indented under the first bit (or by ``indent``).  A bit never breaks."""
    indent = head.width + cell_len(sep) if indent is None else indent
    lines: list[str] = []
    text, used = head.markup, head.width
    fresh = not head.text  # nothing on the line yet
    for b in bits:
        gap = 0 if fresh else cell_len(sep)
        if not fresh and used + gap + b.width > width:
            lines.append(text)
            text, used = " " * indent + b.markup, indent + b.width
        else:
            text += ("" if fresh else escape(sep)) + b.markup
            used += gap + b.width
        fresh = False
    lines.append(text)
    return lines


def clip(bits: list[tuple[str, str]], width: int, sep: str = " · ") -> str:
    """Styled pieces of text (text, style) joined by ``sep`` and cut to ``width`` cells with
    an ellipsis, each piece keeping its style."""
    out: list[str] = []
    used = 0
    for i, (text, style) in enumerate(bits):
        piece = (sep if i else "") + text
        room = width - used
        if cell_len(piece) > room:
            while piece and cell_len(piece) > room - 1:
                piece = piece[:-1]
            piece += "…"
        markup = escape(piece)
        out.append(f"[{style}]{markup}[/]" if style else markup)
        used += cell_len(piece)
        if piece.endswith("…") and used >= width - 1:
            break
    return "".join(out)


def plain(markup: str) -> str:
    """The text of some markup, as shown."""
    return to_content(markup).plain


def shorten(lines: list[str], n: int, width: int) -> list[str]:
    """The first ``n`` of some wrapped lines, the last of them ending in an ellipsis."""
    rest = " ".join(plain(line) for line in lines[n - 1:])
    return [*lines[:n - 1], clip([(rest, "")], width)]


def _counted(kind: int, n: int) -> str:
    return KIND_TOKENS[kind] + (f"×{n}" if n > 1 else "")


def team_name(s: Table, team: int) -> str:
    """``Us`` and ``Them``; a team of one is its player; several opposing teams are told apart
    by number."""
    rules = s.rules
    if rules.team_size == 1:
        return s.names[rules.seats_of(team)[0]]
    if team == rules.team_of(s.human):
        return "Us"
    return "Them" if rules.teams == 2 else f"Them {team}"


# ---------------------------------------------------------------------- the top line
def question_text(s: Table) -> str:
    """This turn's "may I go out?", for everyone at the table."""
    if s.question is None:
        return ""
    asker, asked, answer = s.question
    who, whom = s.names[asker], s.names[asked]
    whom = "you" if whom == YOU else whom
    said = "…" if answer is None else (" yes" if answer else " no")
    verb = "ask" if who == YOU else "asks"
    if answer is not None:
        verb = "asked"
    text = f"{who} {verb} {whom} “may I go out?”{':' if answer is not None else ''}{said}"
    if asker == s.human and answer is not None:
        # What the answer means for the person, as the engine will hold them to it.
        if not answer:
            text += ": not this turn (rule 8.5.2)"
        elif s.rules.permission_yes == "binding":
            text += ": go out this turn (rule 8.5.3)"
    return text


def status_lines(s: Table, width: int) -> list[str]:
    v = s.view()
    rules = v.rules
    about = bit(f"{rules.name}, {decks_words(rules.decks)}", "dim")
    if s.over:
        head = [bit("Game over", "b"), bit(winner_plain(s)),
                *([bit("n: new game", "b", "app.new_game")] if s.offers_new_game else []),
                bit("Ctrl+Q: quit")]
        if sum(b.width + 3 for b in head) + about.width <= width:
            head.append(about)
        return wrap(head[0], head[1:], width, indent=0, sep=" · ")
    bits = [bit(f"Round {v.round_no}/{v.rounds} · turn {v.turns}")]
    if v.actor == s.human:
        if v.phase == "answer":
            bits.append(bit(f"{s.names[v.turn]} asks you: may I go out? y / n", "reverse"))
        else:
            words = PHASE_WORDS.get(v.phase, v.phase)
            legal = s.legal()
            if (v.phase == "meld" and not any(isinstance(a, Discard) for a in legal)
                    and any(isinstance(a, Knock) for a in legal)):
                # After taking the pile where a knock ends the turn (3.6), or holding no card
                # to discard (D21, D34).
                words = "meld, then knock (n)" if len(legal) > 1 else "knock (n)"
            bits.append(bit(f"Your turn: {words}", "reverse"))
    else:
        bits.append(bit(f"{s.names[v.actor]} to {'answer' if v.phase == 'answer' else 'play'}…"))
    question = question_text(s)
    if question and not (v.actor == s.human and v.phase == "answer"):
        bits.append(bit(question, "b"))
    bits += [bit(note, "b $warning") for note in s.notes()]
    used = sum(b.width + 3 for b in bits)
    if used + about.width <= width:
        bits.append(about)
    return wrap(bits[0], bits[1:], width, indent=0, sep=" · ")


# ---------------------------------------------------------------------- stock and pile
def pile_state(s: Table) -> tuple[str, str]:
    """Whether the person may take the pile, asked of the engine: ``open`` (their draw, and a
    take is legal), ``closed`` (their draw, refused), ``blocked`` (closed to everyone), or
    ``later-open`` / ``later-closed`` (as things stand, at their draw); with the words."""
    refusal = s.pile_status()
    # A three on top, or a wild card where the rules block it, closes the pile to everyone.
    if refusal is not None and (refusal.clause == "4.2" or (
            refusal.clause == "4.4" and s.rules.pile_wild_top == "blocked")):
        return "blocked", f"{refusal.reason} (rule {refusal.clause})"
    if s.human_to_act and s.view().phase == "draw":
        legal = s.legal()
        takes = [a for a in legal if isinstance(a, TakePile)]
        if any(a.wild < 0 for a in takes) or any(isinstance(a, TakeOnto | PickUpPile)
                                                  for a in legal):
            return "open", "p takes it"
        if takes:
            wild = " or ".join(KIND_TOKENS[a.wild] for a in takes)
            return "open", f"pick {wild}, then p"
        refusal = s.take_refusal() or refusal or Refusal("", "not now")
        return "closed", f"{refusal.reason} (rule {refusal.clause})"
    if refusal is None:
        return "later-open", "you could take it"
    return "later-closed", f"{refusal.reason} (rule {refusal.clause})"


def table_lines(s: Table, width: int) -> list[str]:
    v = s.view()
    stock = bit(f"Stock {v.stock_size}", "b", "app.draw")
    if not v.pile:
        return wrap(stock, [bit("Pile empty")], width, indent=2, sep=" · ")
    pile = bit(f"Pile {len(v.pile)}, top {KIND_TOKENS[v.pile[-1]]}", "b", "app.pile")
    if s.over:
        return [join([stock, pile], " · ").markup]
    state, words = pile_state(s)
    label = {"open": ("open to you:", "b green"), "closed": ("closed to you:", "b red"),
             "blocked": ("blocked:", "b red"), "later-open": ("at your draw:", "dim"),
             "later-closed": ("at your draw:", "dim")}[state]
    head = join([stock, pile], " · ")
    head = Bit(head.text + " ·", head.markup + " ·")
    return wrap(head, [bit(*label), *map(bit, words.split(" "))], width, indent=2)


# ---------------------------------------------------------------------- seats
def seat_lines(s: Table, width: int) -> list[str]:
    v = s.view()
    packet_names = v.rules.packet_names
    name_w = max(4, *(cell_len(n) for n in s.names))
    rows = []
    for seat, info in enumerate(v.seats):
        waiting = " ".join(packet_names[info.packet_no + 1 + i] for i in range(len(info.packets)))
        rows.append((seat, info, waiting or "—"))
    wait_w = max(7, *(len(w) for _, _, w in rows))
    head = (f"  {'Seat':<{name_w}} {'Cards':<10} {'Waiting':<{wait_w}} R3  "
            f"Seen in hand · last move")
    lines = [f"[dim]{escape(head[:width])}[/]"]
    latest = s.latest
    for seat, info, waiting in rows:
        mark = "▶" if seat == v.turn else " "
        name = s.names[seat]
        cards = f"{info.hand_n:>2} in {packet_names[info.packet_no]}"
        r3 = str(info.red3) if info.red3 else ""
        left = f"{mark} {name:<{name_w}} {cards:<10} {waiting:<{wait_w}} {r3:>2}  "
        style = "b" if seat == s.human else ""
        rest: list[tuple[str, str]] = []
        if info.knee_pending:
            who = "you pick" if seat == s.human else "picks"
            rest.append((f"{who} up the knee after the next draw", "b"))
        known = [k for k in range(len(info.known)) if info.known[k]] if seat != s.human else []
        if known:
            rest.append(("holds " + " ".join(_counted(k, info.known[k]) for k in known), ""))
        note = s.seat_note(seat)
        if note:
            rest.append((note, "b $warning"))
        if seat != s.human:
            moves = s.last_move(seat)
            if moves:
                # The last move of each other seat, highlighted; the latest mover's in bold.
                rest.append((" · ".join(moves), "b $accent" if seat == latest else "$accent"))
        tail = clip(rest, max(0, width - cell_len(left)))
        lines.append((f"[{style}]{escape(left)}[/]" if style else escape(left)) + tail)
    return lines


# ---------------------------------------------------------------------- melds
def _meld_bits(s: Table, team: int) -> list[Bit]:
    v = s.view()
    derived = derived_for(v.rules)
    info = v.teams[team]
    mine = team == v.team
    bits: list[Bit] = []
    # Finished canastas, grouped by kind: "★clean 6 J K".
    groups: dict[str, list[int]] = {kind: [] for kind in KIND_COLOURS}
    for c in info.closed:
        groups.setdefault(c[4], []).append(c[0])
    groups = {kind: slots for kind, slots in groups.items() if slots}
    for kind, slots in groups.items():
        colour = KIND_COLOURS.get(kind, "cyan")
        recent = any((team, slot) in s.recent for slot in slots)
        style = f"b {colour}" + (" reverse" if recent else "")
        if kind == "wild" or all(f"{slot_token(x)}s" == kind for x in slots):
            label = f"★{kind}" + (f"×{len(slots)}" if len(slots) > 1 else "")
            bits.append(bit(label, style))
        else:
            bits.append(bit(f"★{kind} " + " ".join(slot_token(x) for x in slots), style))
    opened = []
    for slot, (n, tw, j) in enumerate(info.melds):
        size = n + tw + j
        if not size:
            continue
        wild = tw + j
        if slot == WILD_SLOT:
            text, colour = f"wild:{wild}", "magenta"
        else:
            text, colour = f"{slot_token(slot)}:{n}" + (f"+{wild}" if wild else ""), \
                "yellow" if wild else "green"
        style = colour
        if size >= derived.canasta - 1:
            style = f"b {colour}"  # one card from a canasta
        if (team, slot) in s.recent:
            style += " reverse"
        opened.append(bit(text, style, f"app.onto({slot})" if mine else ""))
    if bits and opened:
        bits.append(bit("│", "dim"))
    bits += opened
    return bits or [bit("no melds", "dim")]


def _team_columns(s: Table) -> tuple[list[int], int, int, int, str]:
    """The teams in screen order (the person's first) and the widths of the columns."""
    v = s.view()
    rules = v.rules
    order = [v.team] + [t for t in range(rules.teams) if t != v.team]
    who = "Player" if rules.team_size == 1 else "Team"
    name_w = max(len(who), *(cell_len(team_name(s, t)) for t in order))
    score_w = max(5, *(len(str(x)) for x in v.totals))
    open_w = max(7, *(len(f"needs {v.teams[t].minimum}") for t in order))
    return order, name_w, score_w, open_w, who


def _team_header(s: Table, width: int, melds: str) -> str:
    _, name_w, score_w, open_w, who = _team_columns(s)
    head = f"  {who:<{name_w}} {'Score':>{score_w}}  {'Opening':<{open_w}}  {melds}"
    legend = " · new since your turn"
    if cell_len(head) + cell_len(legend) <= width:
        # What the reversed melds mean, written in their own style.
        return f"[dim]{escape(head)} · [/][reverse]new[/][dim] since your turn[/]"
    return f"[dim]{escape(head[:width])}[/]"


def team_lines(s: Table, width: int, room: int | None = None) -> list[str]:
    """Each team's score, opening and melds, wrapped under the melds column.  With less than
    ``room`` lines for all of that, one line a team, its melds cut where the line ends and
    the header saying so: every team's score and opening stay in sight."""
    v = s.view()
    order, name_w, score_w, open_w, _ = _team_columns(s)
    rows = []
    for team in order:
        info = v.teams[team]
        opening = "open" if info.opened else f"needs {info.minimum}"
        left = f"  {team_name(s, team):<{name_w}} {v.totals[team]:>{score_w}}  " \
               f"{opening:<{open_w}} "
        style = "b" if team == v.team else ""
        head_bit = Bit(left, f"[{style}]{escape(left)}[/]" if style else escape(left))
        rows.append((head_bit, _meld_bits(s, team)))
    lines = [_team_header(s, width, "Melds: ★canastas │ rank:naturals+wild")]
    for head_bit, bits in rows:
        lines += wrap(head_bit, bits, width)
    if room is None or len(lines) <= room:
        return lines
    header = _team_header(s, width, "Melds ▶ cut at the line's end: t shows all")
    lines = [header.replace("[dim]", "[b]", 1)]
    for head_bit, bits in rows:
        line, used = head_bit.markup, head_bit.width
        for b in bits:
            if used + 1 + b.width > width - 2:
                line += " [b]…[/]"
                break
            line += " " + b.markup
            used += 1 + b.width
        lines.append(line)
    return lines


def quota_lines(s: Table, width: int) -> list[str]:
    """The going-out quota as a checklist, the person's opening against the minimum until the
    team opens, and the canasta size."""
    v = s.view()
    need = missing(v, v.team)
    items = []
    for kind, count in v.rules.quota:
        lacking = need.get(kind, 0)
        for i in range(count):
            items.append(bit(("☑ " if i < count - lacking else "☐ ") + kind))
    bits = items or [bit("no canastas needed")]
    info = v.teams[v.team]
    if not info.opened:
        laid = v.staged if v.turn == s.human else 0
        total = laid + s.staged_points()
        colour = "green" if total >= info.minimum else "yellow"
        bits.append(Bit(f"· your opening {total}/{info.minimum}",
                        f"· your opening [{colour}]{total}[/]/{info.minimum}"))
    bits.append(bit(f"· canasta {derived_for(v.rules).canasta} cards"))
    return wrap(bit("To go out:"), bits, width, indent=2)


# ---------------------------------------------------------------------- hand and staging
def hand_lines(s: Table, width: int) -> list[str]:
    v = s.view()
    hand = v.hand
    names = v.rules.packet_names
    packet = names[v.packet_no]
    waiting = ", ".join(f"{names[v.packet_no + 1 + i]} {n}" for i, n in enumerate(v.packets))
    n = sum(hand)
    head = [Bit(f"Your {packet}: {n} card{'' if n == 1 else 's'}",
                f"Your {packet}: [b]{n}[/] card{'' if n == 1 else 's'}"),
            bit(f"waiting: {waiting}" if waiting else "no packet waiting")]
    if v.seats[s.human].knee_pending:
        head.append(bit("you pick up your knee after your next draw (rule 7.1)", "b"))

    def card(k: int) -> Bit:
        left = s.available(k)
        style = "b" if left > 0 else "dim"
        return bit(_counted(k, hand[k]), style, f"app.pick_kind({k})")

    bits = [card(k) for k in NATURAL_RANKS if hand[k]] or [bit("—")]
    bits += [bit("│ wild", "dim")] + ([card(k) for k in (TWO, JOKER) if hand[k]] or [bit("—")])
    threes = [card(k) for k in (RED_THREE, BLACK_THREE) if hand[k]]
    if threes:
        bits += [bit("│", "dim"), *threes]
    return [*wrap(head[0], head[1:], width, indent=2, sep=" · "),
            *wrap(bits[0], bits[1:], width, indent=0, sep="  ")]


def stage_lines(s: Table, width: int) -> list[str]:
    picked = s.picked
    chosen = [bit(KIND_TOKENS[k], "b", f"app.unpick_kind({k})")
              for k in range(len(picked)) for _ in range(picked[k])]
    if not chosen and not s.staged:
        return []  # the line appears with the first card picked
    lines = wrap(bit("Picked:"), chosen or [bit("—")], width)
    if s.staged:
        # A dot between melds: two staged melds of a rank would otherwise read as one.
        parts = [bit(("· " if i else "")
                     + f"{slot_token(p.slot)}: {meld_text(p.slot, p.naturals, p.twos, p.jokers)}")
                 for i, p in enumerate(s.staged)]
        tail = bit(f"= {s.staged_points()} pts (Enter lays down, Esc clears)")
        check = s.staged_check()
        verdict = []
        if check is not None and check.refusal is not None:
            # The engine's answer as the cards are staged (a web table asks its server).
            verdict = [bit("✗", "b red"), *map(bit, _refusal_words(check.refusal).split(" "))]
        lines += wrap(bit("To lay:"), [*parts, tail, *verdict], width)
    return lines


def _refusal_words(refusal: Refusal) -> str:
    if not refusal.clause:
        return refusal.reason
    return f"{refusal.reason} (rule {refusal.clause})"


# ---------------------------------------------------------------------- keys
def key_hints(s: Table, width: int, over: bool) -> list[str]:
    """The keys that matter now, clickable; the least needed give way on a narrow screen
    (``?`` lists them all)."""
    def k(key: str, words: str, action: str, rank: int = 0) -> tuple[int, Bit]:
        return rank, Bit(f"{key} {words}",
                         f"[@click={action}][b]{escape(key)}[/b] {escape(words)}[/]")

    if over:
        hints = [k("n", "new game", "app.new_game")] if s.offers_new_game else []
        hints += [k("t", "table", "app.table", 1), k("l", "log", "app.show_log", 2)]
    elif not s.human_to_act:
        hints = [k("f", "skip ahead", "app.skip"), k("+/-", "pace", "app.faster", 3)] \
            if s.steps_bots else []
        hints += [k("t", "table", "app.table", 1), k("l", "log", "app.show_log", 3),
                  k("?", "keys", "app.help", 1)]
    else:
        phase = s.view().phase
        legal = s.legal()
        if phase == "answer":
            hints = [k("y", "yes", "app.yes"), k("n", "no", "app.no")]
        elif phase == "draw":
            hints = [k("s", "draw", "app.draw"), k("p", "pile", "app.pile")]
        else:
            hints = [k("4-A 2 w", "pick", "app.help", 2), k("m", "meld", "app.stage"),
                     k("⏎", "lay", "app.commit")]
            if phase == "pile-opening":
                hints.append(k("r", "take back", "app.retract"))
            else:
                hints.append(k("d", "discard", "app.discard"))
            if any(isinstance(a, Knock) for a in legal):
                hints.append(k("n", "knock", "app.no"))
            if any(a.text == "ask" for a in legal):
                hints.append(k("g", "ask to go out", "app.ask", 1))
            if any(isinstance(a, BlackThreeBook) for a in legal):
                hints.append(k("b", "book of B3", "app.book", 1))
            if s.can_undo:
                hints.append(k("u", "undo", "app.undo", 2))
        if s.hints:
            hints.append(k("h", "hint", "app.hint", 2))
        hints += [k("t", "table", "app.table", 1), k("?", "keys", "app.help", 1)]
    hints.append(k("^q", "quit", "app.quit"))
    keep: set[int] = set()
    used = -2
    for i in sorted(range(len(hints)), key=lambda i: hints[i][0]):
        if used + 2 + hints[i][1].width <= width:
            keep.add(i)
            used += 2 + hints[i][1].width
    return [join([h for i, (_, h) in enumerate(hints) if i in keep], "  ").markup]


# ---------------------------------------------------------------------- a finished round
def round_result_text(s: Table, index: int) -> str:
    """The engine's breakdown of a finished round as a table, a column per team, with the
    running totals (short enough to fit 80x24 with up to six teams)."""
    results = s.view().results
    result = results[index]
    rules = s.rules
    ended = ending_words(result.ended_by, result.went_out, s.names, s.human)
    title = f"[b]Round {result.round} over[/b]: {escape(ended)}, {plural(result.turns, 'turn')}"
    running = [0] * rules.teams
    for r in results[: index + 1]:
        for t, row in enumerate(r.teams):
            running[t] += row.total
    me = rules.team_of(s.human)
    order = [me] + [t for t in range(rules.teams) if t != me]
    # Rows by label, a count moved out of the label into the cell: "clean canastas x2" is
    # the row "clean canastas" and the cell "2 = 1000", the points being for both together.
    # Every team's lines come in the engine's order; a row missing from one team goes where
    # the others have it.
    labels: list[str] = []
    rows: dict[str, dict[int, str]] = {}
    for team in order:
        at = 0
        for line in result.teams[team].lines:
            base, count = line.counted()
            if base in labels:
                at = labels.index(base) + 1
            else:
                labels.insert(at, base)
                at += 1
            rows.setdefault(base, {})[team] = (f"{count} = " if count else "") + str(line.points)
    rows = {label: rows[label] for label in labels}
    names = [team_name(s, t) for t in order]
    col = max(9, *(len(n) + 2 for n in names), *(len(c) + 2 for r in rows.values()
                                               for c in r.values()))
    label_w = max(18, *(len(r) for r in rows))
    lines = [title, ""]
    lines.append(" " * label_w + "".join(" " * (col - cell_len(n)) + f"[u]{escape(n)}[/u]"
                                         for n in names))
    for label, cells in rows.items():
        lines.append(f"{escape(label):<{label_w}}"
                     + "".join(f"{cells.get(t, '·'):>{col}}" for t in order))
    lines.append(f"{'round total':<{label_w}}"
                 + "".join(f"[b]{result.teams[t].total:>{col}}[/b]" for t in order))
    lines.append(f"{'game total':<{label_w}}"
                 + "".join(f"[b]{running[t]:>{col}}[/b]" for t in order))
    if rules.team_size > 1:
        members = " · ".join(f"{team_name(s, t)}: "
                             + ", ".join(s.names[x] for x in rules.seats_of(t)) for t in order)
        lines.append(f"[dim]{escape(members)}[/dim]")
    if index == len(results) - 1 and s.over:
        lines.append("")
        lines.append(winner_text(s))
    return "\n".join(lines)


def winner_plain(s: Table) -> str:
    totals = list(s.view().totals)
    best = winners(totals)
    mine = s.rules.team_of(s.human)
    if len(best) > 1:
        return f"a tie at {totals[best[0]]}"
    if best[0] == mine:
        who = "you win" if s.rules.team_size == 1 else "your team wins"
        return f"{who}, {totals[mine]} points"
    name = team_name(s, best[0])
    who = "they win" if name == "Them" else f"{name} wins"
    return f"{who} with {totals[best[0]]} points"


def winner_text(s: Table) -> str:
    text = winner_plain(s)
    best = winners(list(s.view().totals))
    colour = "green" if len(best) == 1 and best[0] == s.rules.team_of(s.human) else "red"
    return f"[b {colour}]{escape(text[0].upper() + text[1:])}[/]"


# ---------------------------------------------------------------------- the whole table
def full_table_text(s: Table) -> str:
    """Everything on the table in full, for the table screen (``t``): every seat, every meld
    of every team with its cards, and the scores of every round."""
    v = s.view()
    rules = v.rules
    derived = derived_for(rules)
    lines = [f"[b]{escape(rules.name)}[/b], {decks_words(rules.decks)}, "
             f"{rules.players} players · canasta {derived.canasta} cards"]
    lines.append("")
    me = v.team
    for team in [me] + [x for x in range(rules.teams) if x != me]:
        info = v.teams[team]
        seats = ", ".join(s.names[x] for x in rules.seats_of(team))
        opening = "open" if info.opened else f"not open, needs {info.minimum}"
        lines.append(f"[u]{escape(team_name(s, team))}[/u] ({escape(seats)}): {opening}, "
                     f"score {v.totals[team]}")
        for slot, n, tw, j, kind in info.closed:
            of = "" if kind in ("wild", f"{slot_token(slot)}s") else f" of {slot_token(slot)}s"
            lines.append(f"  ★ {kind} canasta{of}: {meld_text(slot, n, tw, j)}")
        for slot, (n, tw, j) in enumerate(info.melds):
            if n + tw + j:
                mark = "wild" if slot == WILD_SLOT else ("dirty" if tw + j else "clean")
                lines.append(f"  {slot_token(slot)}: {meld_text(slot, n, tw, j)} "
                             f"({mark}, {n + tw + j}/{derived.canasta})")
        if not info.closed and not any(sum(m) for m in info.melds):
            lines.append("  no melds")
    if v.results:
        lines.append("")
        lines.append("[u]Scores by round[/u]")
        order = [me] + [x for x in range(rules.teams) if x != me]
        lines.append("       " + "".join(f"{team_name(s, x):>10}" for x in order))
        for r in v.results:
            lines.append(f"  {r.round:>3}  " + "".join(f"{r.teams[x].total:>10}" for x in order))
        lines.append("total  " + "".join(f"{v.totals[x]:>10}" for x in order))
    return "\n".join(lines)
