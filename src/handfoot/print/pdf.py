"""Printable PDFs: a score sheet for a rule set (blank, or filled from a kept game) and a
one-page rules card."""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path
from typing import Any, BinaryIO

from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from handfoot.rules import Rules
from handfoot.scorekeeper.entry import canasta_kinds, canasta_kinds_asked, packet_keys
from handfoot.scorekeeper.game import KeptGame, summary

from ..rulebook import clauses, marked, summary_line
from .explain import SECTIONS
from .fonts import SANS, SANS_BOLD, markup, register, runs

GRID = colors.HexColor("#555555")
SHADE = colors.HexColor("#e8eef4")


def _n(n: int) -> str:
    return f"{n:,}"


def _title(rules: Rules) -> str:
    return "Hand, Knee and Foot" if len(rules.packets) >= 3 else "Hand and Foot"


def minimum_text(rules: Rules, round_no: int) -> str:
    if rules.opening_by == "score":
        return "by score"
    return _n(rules.opening_minimum(round_no, 0))


def rules_notes(rules: Rules) -> list[str]:
    """The figures a scorer needs, one short paragraph each."""
    bonus = dict(rules.canasta_bonus)
    kinds = ", ".join(f"{k} <b>{_n(bonus[k])}</b>" for k in canasta_kinds_asked(rules))
    quota = ", ".join(f"{n} {k}" for k, n in rules.quota if n)
    notes = [f"<b>Canasta values</b> ({rules.canasta_size} cards): {kinds}.",
             f"<b>To go out</b>: {quota}; going out scores <b>{_n(rules.going_out_bonus)}</b>."]
    if rules.opening_by == "round":
        mins = ", ".join(f"round {i}: <b>{_n(m)}</b>"
                         for i, m in enumerate(rules.opening_minimums[:rules.rounds], 1))
        notes.append(f"<b>Initial minimum</b>: {mins}.")
    else:
        rows = "; ".join(f"total from {_n(s)}: <b>{_n(m)}</b>" for s, m in
                         rules.opening_score_table)
        notes.append(f"<b>Initial minimum by team score</b>: {rows}.")
    threes = (f"<b>Red threes</b>: {_n(rules.red_three_bonus)} each laid"
              if rules.red_threes == "bonus" else "<b>Red threes</b> are never laid")
    threes += f", minus {_n(rules.red_three_penalty)} each held"
    if rules.red_three_set_size:
        threes += (f"; {rules.red_three_set_size} or more laid: "
                   f"{_n(rules.red_three_set_bonus)} more")
    threes += f". <b>Black threes</b>: minus {_n(rules.black_three_penalty)} each held."
    notes.append(threes)
    values: dict[int, list[str]] = {}
    for token, v in zip(("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "Joker"),
                        rules.card_values, strict=True):
        values.setdefault(v, []).append(token)
    notes.append("<b>Card values</b>: " + "; ".join(
        f"{' '.join(ts)}: {v}" for v, ts in sorted(values.items(), key=lambda kv: -kv[0]))
        + ". Cards left in " + ", ".join(rules.packet_names) + " count against the team.")
    extra = []
    if rules.over_meld_penalty:
        extra.append(f"over-melded wild card found late: minus {_n(rules.over_meld_penalty)}")
    if rules.knee_reminder_penalty:
        extra.append(f"reminding a player of the knee: minus "
                     f"{_n(rules.knee_reminder_penalty)}")
    if rules.exact_cut_bonus:
        extra.append(f"exact cut: {_n(rules.exact_cut_bonus)}")
    if extra:
        notes.append("<b>Table penalties and bonuses</b>: " + "; ".join(extra) + ".")
    return notes


def _styles() -> dict[str, ParagraphStyle]:
    base = getSampleStyleSheet()
    sans = register()
    return {
        "title": ParagraphStyle("t", parent=base["Title"], fontName=SANS_BOLD, fontSize=16,
                                spaceAfter=2),
        "sub": ParagraphStyle("s", parent=base["Normal"], fontName=sans, fontSize=9,
                              alignment=1, spaceAfter=6),
        "note": ParagraphStyle("n", parent=base["Normal"], fontName=sans, fontSize=8.5,
                               leading=11),
        "cell": ParagraphStyle("c", parent=base["Normal"], fontName=sans, fontSize=9,
                               leading=10.5),
        "small": ParagraphStyle("m", parent=base["Normal"], fontName=sans, fontSize=8,
                                leading=9, alignment=1),
        "head": ParagraphStyle("h", parent=base["Normal"], fontName=SANS_BOLD, fontSize=7,
                               leading=8, alignment=1),
        "bold": ParagraphStyle("b", parent=base["Normal"], fontName=SANS_BOLD, fontSize=9,
                               leading=10.5),
    }


# A name is set in its cell's type if it fits on one line, else in smaller type, else on two
# lines of the smallest, the second cut short with an ellipsis: a name never runs into the
# columns people write in, and never off the page (the scorekeeper allows 80 characters).
NAME_SIZES = (9.0, 8.0, 7.0)
NAME_LINES = 2
ELLIPSIS = "\u2026"
PAD = 6.0  # a table cell's padding, left and right (ReportLab's default)
# Characters that belong to the one before: a line is never cut before them.
_JOINED = frozenset("\u200d\ufe0e\ufe0f") | frozenset(chr(c) for c in range(0x1F3FB, 0x1F400))


def text_width(text: str, size: float, font: str = SANS) -> float:
    """How wide ``text`` is set in ``font`` (or, for a character it lacks, the fallback
    font that draws it), in points."""
    return sum(stringWidth(chunk, other or font, size) for other, chunk in runs(text))


def _cuttable(text: str, i: int) -> bool:
    """Whether a line may end before ``text[i]`` (not inside an accented letter or an emoji
    sequence)."""
    ch = text[i]
    return not (unicodedata.combining(ch) or ch in _JOINED or text[i - 1] == "\u200d")


def _first_line(text: str, size: float, room: float, font: str) -> int:
    """How many characters of ``text`` start a line ``room`` points wide: up to the last
    space that fits, else as many characters as fit (a word longer than the line, or a
    script written without spaces), at least one."""
    width = 0.0
    fits = 0
    for i, ch in enumerate(text):
        width += text_width(ch, size, font)
        if width > room:
            break
        fits = i + 1
    if fits == len(text):
        return fits
    spaces = [i for i in range(1, fits + 1) if text[i].isspace()]
    if spaces:
        return spaces[-1]
    cut = next((i for i in range(fits, 0, -1) if _cuttable(text, i)), 0)
    return max(cut, 1)


def fit_name(text: str, room: float, font: str = SANS,
             largest: float = NAME_SIZES[0]) -> tuple[float, list[str]]:
    """The type size and the lines a name is set in to fit ``room`` points across, from
    ``largest`` (the cell's own type) down."""
    sizes = [largest, *(size for size in NAME_SIZES if size < largest)]
    for size in sizes:
        if text_width(text, size, font) <= room:
            return size, [text]
    size = sizes[-1]
    lines: list[str] = []
    rest = text
    while rest and len(lines) < NAME_LINES:
        n = _first_line(rest, size, room, font)
        lines.append(rest[:n].rstrip())
        rest = rest[n:].lstrip()
    if rest:
        last = lines[-1]
        while last and text_width(last + ELLIPSIS, size, font) > room:
            cut = next((i for i in range(len(last) - 1, 0, -1) if _cuttable(last, i)), 0)
            last = last[:cut].rstrip()
        lines[-1] = last + ELLIPSIS
    return size, lines


def _name(text: str, style: ParagraphStyle, width: float) -> Paragraph:
    """A name in a table cell ``width`` points wide, fitted (see NAME_SIZES); each run of
    characters DejaVu lacks is set in a font that has them."""
    font = SANS_BOLD if style.fontName == SANS_BOLD else SANS
    size, lines = fit_name(text, width - 2 * PAD, font, style.fontSize)
    fitted = ParagraphStyle(f"{style.name}-{size:g}", parent=style, fontSize=size,
                            leading=size * 1.17)
    return Paragraph("<br/>".join(markup(line) for line in lines), fitted)


def _by_clause(lines: list[dict[str, Any]], clause: str) -> int | None:
    found = [ln["points"] for ln in lines if ln["clause"] == clause]
    return sum(found) if found else None


def _kind_points(lines: list[dict[str, Any]]) -> dict[str, int]:
    """Each canasta kind's points, from the score lines (``clean canastas x2``)."""
    out: dict[str, int] = {}
    for ln in lines:
        if ln["clause"] == "10.2":
            kind = ln["label"].split(" canastas")[0]
            out[kind] = out.get(kind, 0) + ln["points"]
    return out


def _signed(n: int | None) -> str:
    return "" if n is None else _n(n)


def _team_rows(rules: Rules, row: dict[str, Any], name: Paragraph, kinds: list[str],
               style: ParagraphStyle, went_width: float) -> list[list[Any]]:
    """A kept team's round as two labelled rows: what was counted (canastas, red threes,
    who went out, threes held) and the points each column is worth."""
    e = row["entry"]
    lines = row["lines"]
    counts = canasta_kinds(rules, e)
    points = _kind_points(lines)
    cards = e.get("melded_cards")
    red = sum(p["red_threes_held"] for p in e["players"])
    black = sum(p["black_threes_held"] for p in e["players"])
    held = Paragraph("<br/>".join(part for part in (f"{red} red" if red else "",
                                                     f"{black} black" if black else "")
                                  if part), style)
    penalties = [f"{e[k]}" for k in ("over_meld", "knee_reminders", "exact_cuts") if e[k]]
    count_row = [
        "", name, "count", *(str(counts[k]) if counts.get(k) else "" for k in kinds),
        str(e["red_threes_laid"] or ""),
        f"{sum(cards.values())} cards" if cards else "",
        _name(row["went_out"], style, went_width) if row["went_out"] else "", "", held,
        " + ".join(penalties), "", "",
    ]
    points_row = [
        "", "", "points", *(_n(points[k]) if k in points else "" for k in kinds),
        _signed(_by_clause(lines, "10.3")), _signed(_by_clause(lines, "10.1")),
        _signed(_by_clause(lines, "10.6")), _signed(_by_clause(lines, "10.4")),
        _signed(_by_clause(lines, "10.5")), _signed(_by_clause(lines, "10.7")),
        _n(row["total"]), _n(row["running_total"]),
    ]
    return [count_row, points_row]


def sheet_widths(kinds: int, filled: bool) -> list[float]:
    """The score sheet's column widths in points: round, team, (row label,) a column per
    canasta kind, red threes, melded cards, went out, left in, threes held, penalties, round
    score and running total; narrowed together to fit the page."""
    # The team's column takes what "Left in" can spare (its heading wraps, its figures are
    # short), so a 40-character name fits on two lines.
    widths = [0.85 * inch, 1.6 * inch, *([0.45 * inch] * filled),
              *([0.55 * inch] * kinds), 0.7 * inch, 0.62 * inch, 0.62 * inch,
              0.7 * inch, 0.62 * inch, 0.65 * inch, 0.65 * inch, 0.75 * inch]
    scale = min(1.0, (10.2 * inch) / sum(widths))
    return [w * scale for w in widths]


def _sheet(rules: Rules, teams: list[str], game: KeptGame | None) -> list[Flowable]:
    st = _styles()
    bonus = dict(rules.canasta_bonus)
    kinds = canasta_kinds_asked(rules)
    keys = packet_keys(rules)
    filled = game is not None
    # A filled sheet has a column saying which row holds counts and which points.
    label = [""] if filled else []
    head = ["Round", "Team", *label, *(f"{k}\n{_n(bonus[k])}" for k in kinds),
            f"Red 3s laid\n{_n(rules.red_three_bonus)} ea", "Melded\ncards",
            f"Went out\n{_n(rules.going_out_bonus)}",
            "Left in\n" + ", ".join(keys), "Threes\nheld", "Penalties", "Round\nscore",
            "Running\ntotal"]
    widths = sheet_widths(len(kinds), filled)
    team_width, went_width = widths[1], widths[len(label) + len(kinds) + 4]
    # Headings as paragraphs, so a long one ("Left in hand, knee, foot") wraps in its column.
    rows: list[list[Any]] = [[Paragraph(markup(h).replace("\n", "<br/>"), st["head"])
                              for h in head]]
    heights: list[float | None] = [0.42 * inch]
    data = summary(game) if game is not None else None
    by_round = {r["round"]: r for r in data["rounds"]} if data else {}
    style: list[Any] = [
        ("GRID", (0, 0), (-1, -1), 0.5, GRID),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("FONT", (0, 0), (-1, 0), SANS_BOLD, 8),
        ("FONT", (0, 1), (-1, -1), SANS, 9),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("ALIGN", (1, 1), (1, -1), "LEFT"),
        ("LEFTPADDING", (0, 0), (-1, 0), 1.5),
        ("RIGHTPADDING", (0, 0), (-1, 0), 1.5),
    ]
    if filled:
        style += [("FONT", (2, 1), (2, -1), SANS, 7), ("TEXTCOLOR", (2, 1), (2, -1), GRID)]
    for r in range(1, rules.rounds + 1):
        first = len(rows)
        rnd = by_round.get(r)
        for team, name in enumerate(teams):
            cell = _name(name, st["cell"], team_width)
            if rnd is None:
                text = f"Round {r}\nmin {minimum_text(rules, r)}"
                if game is not None and rules.opening_by == "score":
                    # By score only the next round's minimum is known, if the teams share it.
                    mins = set(game.minimums(r)) if r == game.next_round else set()
                    text = f"Round {r}\nmin {_n(mins.pop())}" if len(mins) == 1 \
                        else f"Round {r}"
                rows.append([text if team == 0 else "", cell, *([""] * (len(head) - 2))])
                heights.append(0.5 * inch if not filled else 0.34 * inch)
                continue
            row = rnd["teams"][team]
            pair = _team_rows(rules, row, cell, kinds, st["small"], went_width)
            shown = f"min {_n(row['opening_minimum'])}"
            differ = len({t["opening_minimum"] for t in rnd["teams"]}) > 1
            pair[0][0] = f"Round {r}\n{shown}" if team == 0 else (shown if differ else "")
            style.append(("SPAN", (1, len(rows)), (1, len(rows) + 1)))
            rows += pair
            heights += [None, None]  # as tall as a wrapped name needs
            style.append(("LINEABOVE", (2, len(rows) - 1), (-1, len(rows) - 1), 0.25,
                          colors.HexColor("#bbbbbb")))
        if len(rows) - first > 1 and not (rnd is not None and len(teams) > 1 and
                                          len({t["opening_minimum"]
                                               for t in rnd["teams"]}) > 1):
            style.append(("SPAN", (0, first), (0, len(rows) - 1)))
        if r % 2 == 0:
            style.append(("BACKGROUND", (0, first), (-1, len(rows) - 1),
                          colors.HexColor("#f6f6f6")))
    if data:
        first = len(rows)
        for name, score in zip(teams, data["totals"], strict=True):
            rows.append(["Total" if name == teams[0] else "",
                         _name(name, st["bold"], team_width), *([""] * (len(head) - 3)),
                         _n(score)])
            heights.append(0.34 * inch)  # room for a name on two lines
        if len(teams) > 1:
            style.append(("SPAN", (0, first), (0, len(rows) - 1)))
        style.append(("FONT", (0, first), (-1, len(rows) - 1), SANS_BOLD, 9))
    table = Table(rows, colWidths=widths, rowHeights=heights, repeatRows=1)
    table.setStyle(TableStyle(style))
    flow: list[Flowable] = [
        Paragraph(f"{_title(rules)} score sheet", st["title"]),
        Paragraph(markup(f"{rules.name} - {rules.source}. {summary_line(rules)}."), st["sub"]),
    ]
    if game is not None:
        state = (f"Winner: {', '.join(data['winners'])}" if data and data["over"] and
                 data.get("winners") else
                 f"Next: round {data['next_round']}, initial minimum "
                 + ", ".join(f"{t} {_n(m)}" for t, m in
                             zip(teams, data["next_minimums"], strict=True))
                 if data else "")
        flow.append(Paragraph(markup(f"Game {game.id}: {game.name}. {state}"), st["sub"]))
    flow += [table, Spacer(1, 8)]
    if filled:
        flow.append(Paragraph("Each entered round has two rows per team: <b>count</b> (canastas "
                              "of each kind, red threes laid, who went out, threes held) and "
                              "<b>points</b> (what each column scores).", st["note"]))
    flow += [Paragraph(note, st["note"]) for note in rules_notes(rules)]
    return flow


def score_sheet(rules: Rules, path: Path | BinaryIO, teams: list[str] | None = None) -> None:
    """A blank sheet: a row per team per round, the round minimums and canasta values."""
    names = teams or [f"Team {i}" for i in range(1, rules.teams + 1)]
    _build_sheet(path, _sheet(rules, names, None), rules)


def filled_sheet(game: KeptGame, path: Path | BinaryIO) -> None:
    _build_sheet(path, _sheet(game.rules, list(game.seating.teams), game), game.rules)


def _build_sheet(path: Path | BinaryIO, flow: list[Flowable], rules: Rules) -> None:
    doc = SimpleDocTemplate(str(path) if isinstance(path, Path) else path,
                            pagesize=landscape(letter), leftMargin=0.4 * inch,
                            rightMargin=0.4 * inch, topMargin=0.4 * inch,
                            bottomMargin=0.4 * inch, title=f"{_title(rules)} score sheet",
                            author="handfoot", initialFontName=register())
    doc.build(flow)


# ------------------------------------------------------------------ the rules card
def _card_flow(rules: Rules, base: str | None, size: float) -> list[Flowable]:
    base_style = getSampleStyleSheet()["Normal"]
    body = ParagraphStyle("b", parent=base_style, fontName=register(), fontSize=size,
                          leading=size * 1.2)
    head = ParagraphStyle("h", parent=body, fontName=SANS_BOLD, fontSize=size + 1.5,
                          leading=(size + 1.5) * 1.3, spaceBefore=size * 0.6,
                          textColor=colors.HexColor("#1f3b57"))
    title = ParagraphStyle("t", parent=body, fontName=SANS_BOLD, fontSize=size + 6,
                           leading=(size + 6) * 1.2)
    flow: list[Flowable] = [
        Paragraph(f"{_title(rules)}: the rules", title),
        Paragraph(markup(f"{rules.name} - {rules.source}. {summary_line(rules)}."), body),
    ]
    changed = marked(rules, base)
    if base is not None and changed:
        flow.append(Paragraph(f"<i>House rules on the {markup(base)} preset are marked "
                              "(house rule).</i>", body))
    flow.append(Paragraph("Scoring at a glance", head))
    flow += [Paragraph(note, body) for note in rules_notes(rules)]
    section = ""
    for number, clause_title, sentences in clauses(rules, base):
        top = number.split(".")[0]
        if top != section:
            section = top
            flow.append(Paragraph(SECTIONS[top], head))
        text = " ".join(markup(s) for s in sentences)
        flow.append(Paragraph(f"<b>{number} {markup(clause_title)}.</b> {text}", body))
    return flow


def rules_card(rules: Rules, path: Path | BinaryIO, base: str | None = None) -> int:
    """The complete rules on one page, in two columns; the type shrinks until they fit.
    Returns the number of pages (1 unless even the smallest type overflows)."""
    pages = 0
    for size in (8.5, 8.0, 7.5, 7.0, 6.6, 6.2, 5.8, 5.4):
        buf = io.BytesIO()
        pages = _build_card(buf, rules, base, size)
        if pages == 1:
            break
    if isinstance(path, Path):
        path.write_bytes(buf.getvalue())
    else:
        path.write(buf.getvalue())
    return pages


def _build_card(out: io.BytesIO, rules: Rules, base: str | None, size: float) -> int:
    width, height = letter
    margin = 0.45 * inch
    gap = 0.25 * inch
    col = (width - 2 * margin - gap) / 2
    frames = [Frame(margin, margin, col, height - 2 * margin, id="left", leftPadding=0,
                    rightPadding=0, topPadding=0, bottomPadding=0),
              Frame(margin + col + gap, margin, col, height - 2 * margin, id="right",
                    leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)]
    doc = BaseDocTemplate(out, pagesize=letter, title=f"{_title(rules)} rules card",
                          author="handfoot", initialFontName=register())
    doc.addPageTemplates([PageTemplate(id="two", frames=frames)])
    doc.build(_card_flow(rules, base, size))
    return int(doc.page)
