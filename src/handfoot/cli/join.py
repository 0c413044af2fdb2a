"""``handfoot play --join INVITE_URL --plain``: a terminal player at a web table, in plain lines.

A second client of the web table's protocol (docs/PROTOCOL.md), beside the browser: the log
scrolls by in words, and when it is your move the table, your hand and the engine's legal
actions are printed and a prompt waits for an action in its text form (``draw``,
``lay K K K, 7 7 2``, ``discard 9``, ...) or a command (``undo``, ``hint``, ``say TEXT``,
``table``, ``start``, ``rematch``, ``quit``).  The seat token is kept in the user data folder,
so running the same command again takes the same seat back; a dropped connection is retried
by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from handfoot.cards import plural
from handfoot.server.client import ClientError, TableClient, parse_invite

from .common import UserError

HELP = """Type an action as the engine writes it, or a command:
  draw | stop | take-pile | take-pile with 2 | meld K K 2 | add K: 2 | discard 9 | knock
  lay K K K, 7 7 2, wild: JK 2 2    (several melds and additions as one lay-down)
  ask | answer yes | answer no | retract
  undo        take back your last step this turn
  hint        what the strongest bot the table allows would do (if the table allows hints)
  say TEXT    a line to the table
  table       show the table again;  log: the last 30 lines of the log
  start       (host) start the game;  rematch: (host) a new game with the same seats
  quit        leave (your seat is held, then a bot plays it until you come back)"""


def seats_file() -> Path:
    from handfoot.files.folder import data_folder

    return data_folder() / "seats.json"


def _load_tokens() -> dict[str, str]:
    try:
        data = json.loads(seats_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _save_token(key: str, token: str) -> None:
    path = seats_file()
    tokens = _load_tokens()
    tokens[key] = token
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    # The seat token is a secret: only the user may read it.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(tokens, f, indent=1)
    tmp.replace(path)


# ====================================================================== the table in words
def table_text(client: TableClient) -> str:
    v, table = client.view, client.table
    if v is None or table is None:
        return "(no game yet: the host starts it)"
    names = [s["name"] for s in table["seats"]]
    seat = client.seat
    teams = table["rules"]["players"] // table["rules"]["team_size"]
    lines = [f"[version {client.version}] round {v['round']} of {v['rounds']}, "
             f"turn {v['turns']}: {names[v['turn']]}'s turn"
             + (f", {names[v['actor']]} to answer" if v["actor"] != v["turn"] else "")
             + f" · stock {v['stock_size']} · pile {len(v['pile'].split())}"
             + (f" (top {v['pile_top']})" if v["pile_top"] else "")]
    for t, team in enumerate(v["teams"]):
        who = ", ".join(names[s] for s in range(t, len(names), teams))
        melds = " · ".join(f"{rank}: {n}+{w2 + wj}w" for rank, (n, w2, wj)
                           in team["melds"].items()) or "no melds"
        canastas = " ".join(f"★{c[0]} {c[4]}" for c in team["canastas"])
        state = "opened" if team["opened"] else f"needs {team['minimum']} to open"
        mine = " (you)" if seat is not None and seat % teams == t else ""
        lines.append(f"team {t}{mine} [{who}]: {state}; {melds}"
                     + (f"; canastas {canastas}" if canastas else "")
                     + f"; total {v['totals'][t]}")
    packet_names = table.get("packet_names") or []
    for s, info in enumerate(v["seats"]):
        drive = table["seats"][s]["driver"]
        mark = "▶ " if s == v["actor"] else "  "
        packet = packet_names[info["packet"]] if info["packet"] < len(packet_names) \
            else f"packet {info['packet']}"
        extra = f", known {info['known']}" if info["known"] else ""
        bot = " (bot)" if drive == "bot" else ""
        lines.append(f"{mark}{names[s]}{bot}: {plural(info['hand_size'], 'card')} in {packet}"
                     f"{extra}")
    if "hand" in v:
        lines.append(f"your hand: {v['hand'] or '(empty)'}")
    return "\n".join(lines)


def results_text(client: TableClient, index: int) -> str:
    v, table = client.view, client.table
    assert v is not None and table is not None
    result = v["results"][index]
    lines = [f"— round {result['round']} over ({result['ended_by'].replace('_', ' ')})"]
    for t, row in enumerate(result["teams"]):
        lines.append(f"  team {t}: " + ", ".join(f"{label} {points}"
                                                 for label, points in row["lines"])
                     + f" = {row['total']}")
    if v["phase"] == "game-over":
        totals = v["totals"]
        best = max(totals)
        winners = [t for t, x in enumerate(totals) if x == best]
        lines.append(f"game over: {', '.join(str(x) for x in totals)}; "
                     f"team {' and '.join(map(str, winners))} "
                     f"{'wins' if len(winners) == 1 else 'tie'}")
    return "\n".join(lines)


# ====================================================================== the session
class LineClient:
    def __init__(self, client: TableClient, out: TextIO, host_token: str | None) -> None:
        self.client = client
        self.out = out
        self.host_token = host_token
        self.shown_results = -1
        self.prompted = -1
        self.done = asyncio.Event()

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def on_message(self, m: dict[str, Any]) -> None:
        kind = m.get("type")
        c = self.client
        if kind == "update":
            for line in m["log"]:
                self.say(line)
        elif kind == "catch_up":
            for entry in m["entries"]:
                for line in entry["log"]:
                    self.say(line)
        elif kind == "state":
            self.say("\n".join(m["log"][-15:]))
        elif kind == "refused":
            self.say(f"not allowed: {m['reason']} [rule {m['clause']}: {m['rule']}]")
            self.prompted = -1
        elif kind == "error":
            self.say(f"error: {m['message']}")
            self.prompted = -1
        elif kind == "hint":
            self.say(f"hint: {m['text']}")
        elif kind == "chat":
            self.say(f"{m['name']} says: {_unescape(m['text'])}")
        elif kind == "table":
            seats = ", ".join(f"{s['seat']} {s['name'] or '(open)'}"
                              + ("" if s["connected"] or s["occupant"] != "person"
                                 else " (away)") for s in m["seats"])
            if m["status"] == "lobby":
                self.say(f"table {m['table']} (lobby): {seats}")
        if kind in ("state", "update") and c.view is not None:
            results = c.view["results"]
            if self.shown_results < 0:
                self.shown_results = len(results)
            while self.shown_results < len(results):
                self.say(results_text(c, self.shown_results))
                self.shown_results += 1
            if c.view["phase"] == "game-over":
                self.say("the game is over" + ("; type rematch for another"
                                               if self.host_token else "; quit to leave"))
        self.maybe_prompt()

    def maybe_prompt(self) -> None:
        c = self.client
        if c.legal and self.prompted != c.version:
            self.prompted = c.version
            self.say(table_text(c))
            if c.view is not None and c.view["phase"] == "answer":
                self.say("your partner asks: may I go out? (answer yes / answer no)")
            self.say("legal: " + " | ".join(c.legal) + (" | undo" if c.can_undo else ""))
            self.say("> ")

    async def command(self, line: str) -> None:
        c = self.client
        text = line.strip()
        if not text:
            return
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("quit", "exit"):
            self.done.set()
        elif word in ("help", "?"):
            self.say(HELP)
        elif word == "table":
            self.say(table_text(c))
        elif word == "log":
            self.say("\n".join(c.log[-30:]))
        elif word == "say":
            await c.send({"type": "chat", "text": rest})
        elif word == "hint":
            await c.send({"type": "hint"})
        elif word == "undo":
            await c.send({"type": "undo", "version": c.version})
        elif word in ("start", "rematch"):
            await c.send({"type": word})
        else:
            await c.send({"type": "act", "version": c.version, "action": text})

    async def read_server(self) -> None:
        c = self.client
        while not self.done.is_set():
            try:
                await c.recv(3600)
            except TimeoutError:
                continue
            except ClientError as err:
                if self.done.is_set():
                    return
                self.say(f"connection lost ({err}); reconnecting ...")
                await c.reconnect(tries=60)
                self.prompted = -1
                self.say("reconnected")

    async def read_keyboard(self, stdin: TextIO) -> None:
        loop = asyncio.get_running_loop()
        while not self.done.is_set():
            line = await loop.run_in_executor(None, stdin.readline)
            if not line:  # end of input
                self.done.set()
                return
            try:
                await self.command(line)
            except ClientError:
                self.say("not sent: the connection is down; try again in a moment")


def _unescape(text: str) -> str:
    import html

    return html.unescape(text)


async def connect(args: argparse.Namespace) -> tuple[TableClient, str]:
    """Connect to the invite's table with the kept seat token (or ``--token``), and the host
    token if given; the table's key for the kept tokens.  A token the table no longer knows
    (the seat was given up) is dropped: the connection is made without it."""
    try:
        invite = parse_invite(args.join)
    except ClientError as err:
        raise UserError(str(err)) from None
    key = f"{invite.base}/t/{invite.table}"
    token = args.token or _load_tokens().get(key)
    try:
        client = await TableClient.connect(invite.websocket, seat_token=token,
                                           host_token=args.host_token)
    except ClientError as err:
        if token and "bad_token" in str(err):
            try:
                client = await TableClient.connect(invite.websocket,
                                                   host_token=args.host_token)
            except ClientError as again:
                raise UserError(str(again)) from None
        else:
            raise UserError(str(err)) from None
    except TimeoutError:
        raise UserError(f"{invite.websocket} did not answer the hello") from None
    return client, key


async def sit(client: TableClient, args: argparse.Namespace, key: str) -> str | None:
    """Take a seat in the lobby (``--seat``, or the first open one) and keep its token; what
    to say about it, or None when the game has started without this client."""
    await client.until("table")
    table = client.table
    assert table is not None
    if table["status"] != "lobby":
        return None
    seats = [s["seat"] for s in table["seats"] if s["occupant"] == "open"]
    seat = args.seat if args.seat is not None else (seats[0] if seats else None)
    if seat is None:
        raise UserError("every seat is taken")
    name = args.name or getpass.getuser() or "player"
    try:
        await client.join(seat, name)
    except ClientError as err:
        raise UserError(f"cannot join seat {seat}: {err}") from None
    assert client.seat_token is not None
    _save_token(key, client.seat_token)
    return f"handfoot: seated at {key}, seat {seat}, as {name}"


async def session(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    client, key = await connect(args)
    ui = LineClient(client, out, args.host_token)
    client.on_message = ui.on_message
    if client.seat is None:
        seated = await sit(client, args, key)
        if seated is None:
            ui.say("the game has started without you: watching (quit to leave)")
        else:
            ui.say(f"{seated}; help lists the commands")
    else:
        ui.say(f"handfoot: back at {key}, seat {client.seat}")
    ui.maybe_prompt()
    tasks = [asyncio.create_task(ui.read_server()), asyncio.create_task(ui.read_keyboard(stdin))]
    await ui.done.wait()
    for task in tasks:
        task.cancel()
    with contextlib.suppress(Exception):
        await client.close()
    return 0


def run(args: argparse.Namespace) -> int:
    return asyncio.run(session(args, sys.stdin, sys.stdout))
