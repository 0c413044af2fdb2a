"""Text for each part of the screen, built from the person's view (Rich markup).

Every function takes the session and reads ``session.view()``: the person's own cards, what
the whole table can see, and the engine's answers about the person's own moves.
"""

from __future__ import annotations

from rich.markup import escape

from ..bots.knowledge import missing
from ..cards import BLACK_THREE, JOKER, KIND_TOKENS, NATURAL_RANKS, RED_THREE, TWO, slot_token
from ..narrate import ending_words, meld_text, plural
from ..scoring import winners
from ..tables import tables_for
from ..views import SeatView
from .session import Session
from .words import YOU

PHASE_WORDS = {
    "draw": "draw (s) or take the pile (p)",
    "pile-opening": "finish your opening from the pile (Enter) or take it back (r)",
    "meld": "meld, then discard (d)",
    "answer": "answer",
}


def _counted(kind: int, n: int) -> str:
    token = KIND_TOKENS[kind]
    return f"[b]{token}[/b]" + (f"×{n}" if n > 1 else "")


def status_line(s: Session) -> str:
    v = s.view()
    rules = v.rules
    if s.game.over:
        return f"[b]Game over[/b] · {escape(rules.name)} · seed {s.game.seed}"
    head = f"Round {v.round_no}/{v.rounds} · {escape(rules.name)} · turn {v.turns}"
    if v.actor == s.human:
        if v.phase == "answer":
            asker = s.names[v.turn]
            what = f"[reverse] {asker} asks: may I go out? y / n [/reverse]"
        else:
            what = f"[reverse] Your turn: {PHASE_WORDS.get(v.phase, v.phase)} [/reverse]"
    else:
        what = f"{s.names[v.actor]} to play…"
    return f"{head} · {what}"


def table_text(s: Session) -> str:
    v = s.view()
    refusal = s.pile_status()
    if v.pile:
        top = KIND_TOKENS[v.pile[-1]]
        mine = v.turn == s.human and v.phase == "draw"
        if refusal is None:
            state = "[green]you may take it[/green]" if mine else "[green]open to you[/green]"
        else:
            word = "blocked" if refusal[0] in ("4.2", "4.4") else "not for you"
            state = f"[red]{word}:[/red] {escape(refusal[1])} (rule {refusal[0]})"
        pile = f"Pile [b]{len(v.pile)}[/b], top [b]{top}[/b] · {state}"
    else:
        pile = "Pile empty"
    return f"Stock [b]{v.stock_size}[/b] · {pile}"


def players_text(s: Session) -> str:
    v = s.view()
    names = v.rules.packet_names
    lines = []
    for seat, info in enumerate(v.seats):
        mark = "▶" if seat == v.turn else " "
        name = s.names[seat]
        team = v.rules.team_of(seat)
        waiting = [f"{names[info.packet_no + 1 + i]} {n}" for i, n in enumerate(info.packets)]
        more = f" · waiting: {', '.join(waiting)}" if waiting else ""
        extras = ""
        if info.red3:
            extras += f" · R3×{info.red3}"
        if info.knee_pending:
            extras += " · knee due"
        known = [k for k in range(len(info.known)) if info.known[k]] if seat != s.human else []
        if known:
            extras += " · holds " + " ".join(_counted(k, info.known[k]) for k in known)
        label = f"[b]{name}[/b]" if name == YOU else name
        lines.append(f"{mark}{label} (t{team}): [b]{info.hand_n}[/b] in "
                     f"{names[info.packet_no]}{more}{extras}")
    return "\n".join(lines)


def _meld_words(v: SeatView, slot: int, n: int, twos: int, jokers: int) -> str:
    t = tables_for(v.rules)
    size = n + twos + jokers
    wild = twos + jokers
    if slot == 11:
        mark = "wild"
    elif wild:
        mark = "dirty"
    else:
        mark = "clean"
    cards = f"{slot_token(slot)}:{n}" + (f"+{wild}w" if wild and slot != 11 else "")
    if slot == 11:
        cards = f"wild:{wild}"
    colour = {"clean": "green", "dirty": "yellow", "wild": "magenta"}[mark]
    text = f"[{colour}]{cards} {mark}[/{colour}]"
    if size >= t.canasta:
        text = f"[b]{text} ★[/b]"
    else:
        text += f" ({size}/{t.canasta})"
    return text


def team_melds(s: Session, team: int) -> str:
    v = s.view()
    info = v.teams[team]
    parts = []
    for slot, (n, tw, j) in enumerate(info.melds):
        if n + tw + j:
            parts.append(_meld_words(v, slot, n, tw, j))
    closed = [f"[b]★{slot_token(c[0])} {c[4]}[/b]" for c in info.closed]
    mine = team == v.team
    who = "Us" if mine else f"Them t{team}"
    opened = "open" if info.opened else f"not open, needs {info.minimum}"
    body = "  ".join(closed + parts) or "[dim]no melds[/dim]"
    return f"[u]{who}[/u] ({opened}): {body}"


def melds_text(s: Session) -> str:
    v = s.view()
    order = [v.team] + [t for t in range(v.rules.teams) if t != v.team]
    return "\n".join(team_melds(s, t) for t in order)


def quota_text(s: Session) -> str:
    v = s.view()
    need = missing(v, v.team)
    items = []
    for kind, count in v.rules.quota:
        if not count:
            continue
        lacking = need.get(kind, 0)
        for i in range(count):
            done = i < count - lacking
            items.append(("☑ " if done else "☐ ") + kind)
    quota = "Go out needs: " + "  ".join(items)
    info = v.teams[v.team]
    if info.opened:
        opening = "opened"
    else:
        laid = v.staged if v.turn == s.human else 0
        total = laid + s.staged_points()
        colour = "green" if total >= info.minimum else "yellow"
        opening = f"opening [{colour}]{total}[/{colour}]/{info.minimum}"
    return f"{quota} · {opening}"


def hand_text(s: Session) -> str:
    v = s.view()
    hand = v.hand
    names = v.rules.packet_names
    ranks = "  ".join(_counted(k, hand[k]) for k in NATURAL_RANKS if hand[k]) or "—"
    wild = "  ".join(_counted(k, hand[k]) for k in (TWO, JOKER) if hand[k]) or "—"
    threes = "  ".join(_counted(k, hand[k]) for k in (RED_THREE, BLACK_THREE) if hand[k])
    packet = names[v.packet_no]
    waiting = ", ".join(f"{names[v.packet_no + 1 + i]} {n}" for i, n in enumerate(v.packets))
    head = f"Your {packet}: [b]{sum(hand)}[/b] cards" + (f" · waiting: {waiting}"
                                                        if waiting else " · no packet waiting")
    line = f"{ranks}  │ wild {wild}" + (f" │ {threes}" if threes else "")
    return f"{head}\n{line}"


def stage_text(s: Session) -> str:
    picked = s.picked
    chosen = " ".join(KIND_TOKENS[k] for k in range(len(picked)) for _ in range(picked[k]))
    lines = [f"Picked: {chosen or '—'}"]
    if s.staged:
        parts = ", ".join(
            f"{slot_token(p.slot)}: {meld_text(p.slot, p.naturals, p.twos, p.jokers)}"
            for p in s.staged)
        lines.append(f"To lay: {parts} = {s.staged_points()} pts (Enter lays down)")
    return "\n".join(lines)


def scores_text(s: Session) -> str:
    v = s.view()
    lines = ["[u]Scores[/u]"]
    for team in range(v.rules.teams):
        who = "Us" if team == v.team else ("Them" if v.rules.teams == 2 else f"t{team}")
        per_round = " ".join(str(r.teams[team].total) for r in v.results)
        lines.append(f"{who:>4} [b]{v.totals[team]:>6}[/b]  {per_round}")
    return "\n".join(lines)


def round_result_text(s: Session, index: int) -> str:
    """The engine's breakdown of a finished round for each team, with the running totals."""
    result = s.game.results[index]
    rules = s.rules
    ended = ending_words(result.ended_by, result.went_out, s.names, s.human)
    lines = [f"[b]Round {result.round} over[/b]: {escape(ended)} after "
             f"{plural(result.turns, 'turn')}", ""]
    running = [0] * rules.teams
    for r in s.game.results[: index + 1]:
        for t, row in enumerate(r.teams):
            running[t] += row.total
    for team, row in enumerate(result.teams):
        mine = team == rules.team_of(s.human)
        seats = ", ".join(s.names[x] for x in rules.seats_of(team))
        lines.append(f"[u]{'Us' if mine else 'Them'} (team {team}: {escape(seats)})[/u]")
        for line in row.lines:
            lines.append(f"  {escape(line.label):<26}{line.points:>7}")
        lines.append(f"  {'round total':<26}[b]{row.total:>7}[/b]")
        lines.append(f"  {'game total':<26}[b]{running[team]:>7}[/b]")
    if index == len(s.game.results) - 1 and s.game.over:
        lines.append("")
        lines.append(winner_text(s))
    return "\n".join(lines)


def winner_text(s: Session) -> str:
    totals = list(s.game.totals)
    best = winners(totals)
    mine = s.rules.team_of(s.human)
    if len(best) > 1:
        return f"[b]A tie at {totals[best[0]]}[/b]"
    if best[0] == mine:
        return f"[b green]Your team wins, {totals[mine]} points![/b green]"
    return f"[b red]Team {best[0]} wins with {totals[best[0]]} points[/b red]"
