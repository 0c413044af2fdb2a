"""``handfoot score``: keep the score of a game played with real cards."""

from __future__ import annotations

import argparse
import functools
import json
import shlex
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from handfoot.scorekeeper import ScoreError
from handfoot.scorekeeper.edit import apply_set, parse_assignment
from handfoot.scorekeeper.entry import read_round
from handfoot.scorekeeper.export import csv_text, game_json, sheet_text
from handfoot.scorekeeper.game import KeptGame, make_seating, summary
from handfoot.scorekeeper.names import check_text, shown, whole_number
from handfoot.scorekeeper.prompt import Asker, ask_round
from handfoot.scorekeeper.roundfile import entry_to_raw, load_round_file, round_toml, template
from handfoot.scorekeeper.store import DEFAULT_WAIT, ScoreFileBusy, Store, default_db_path

from .common import UserError, add_rules_options, load_rules

Run = Callable[[argparse.Namespace], int]
MAX_WAIT = 3600.0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score", help="keep the score of a game played with real cards",
        description="Keep a game's score: enter each round, check it against the rules, see "
        "the breakdown and totals. Games are kept in an SQLite file (see --db).")
    commands = parser.add_subparsers(dest="score_command", metavar="ACTION", required=True)

    new = commands.add_parser("new", help="start a kept game")
    add_rules_options(new)
    new.add_argument("--team", action="append", default=[], metavar="NAME",
                     help="a team's name, once per team, in seat order; 'Ann & Bob' names "
                     "the players too (default: Team 1, Team 2, ...)")
    new.add_argument("--name", default="", help="the game's name (default: game N)")
    _db_and_json(new)
    new.set_defaults(run=_guard(run_new))

    add = commands.add_parser("add", help="enter the next round (asks, or reads --file)")
    add.add_argument("game", metavar="GAME", help="the game's number or name")
    add.add_argument("--file", metavar="FILE", help="a round file (.toml or .json); see "
                     "`handfoot score template GAME` and docs/SCOREKEEPER.md")
    _db_and_json(add)
    add.set_defaults(run=_guard(run_add))

    show = commands.add_parser("show", help="the score sheet: breakdown, totals, next minimum")
    show.add_argument("game", metavar="GAME")
    _db_and_json(show)
    show.set_defaults(run=_guard(run_show))

    edit = commands.add_parser("edit", help="change an entered round (the change is logged)")
    edit.add_argument("game", metavar="GAME")
    edit.add_argument("round", metavar="ROUND", type=_round_number)
    edit.add_argument("team", metavar="TEAM", help="the team's number or name")
    edit.add_argument("--set", dest="assignments", action="append", default=[], required=True,
                      metavar="FIELD=VALUE",
                      help="e.g. canastas.clean=2, melded_points=460, players.Ann.foot=15, "
                      "went_out=Bob (repeatable)")
    _db_and_json(edit)
    edit.set_defaults(run=_guard(run_edit))

    history = commands.add_parser("history", help="every change made to a game's rounds")
    history.add_argument("game", metavar="GAME")
    _db_and_json(history)
    history.set_defaults(run=_guard(run_history))

    listing = commands.add_parser("list", help="the kept games")
    _db_and_json(listing)
    listing.set_defaults(run=_guard(run_list))

    export = commands.add_parser("export", help="write a game to CSV or JSON")
    export.add_argument("game", metavar="GAME")
    export.add_argument("--csv", metavar="FILE", help="a row per team per round")
    export.add_argument("--json", dest="json_file", metavar="FILE",
                        help="everything: rules, entries, lines, totals, history")
    _db(export)
    export.set_defaults(run=_guard(run_export))

    tmpl = commands.add_parser("template", help="print a blank round file for a game, or an "
                               "entered round as a file")
    tmpl.add_argument("game", metavar="GAME")
    tmpl.add_argument("--round", type=_round_number, metavar="N",
                      help="an entered round, as a file")
    _db(tmpl)
    tmpl.set_defaults(run=_guard(run_template))


def _round_number(text: str) -> int:
    """A round's number as typed; a long one is quoted by its start (argparse quotes all)."""
    try:
        number = whole_number(text, "round")
    except ScoreError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    if number is None:
        raise argparse.ArgumentTypeError(f"expected a round number, got {shown(text)!r}")
    return number


def _db_and_json(parser: argparse.ArgumentParser) -> None:
    _db(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def _db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", help="the score file (default: "
                        "$XDG_DATA_HOME/handfoot/scores.sqlite3, else "
                        "~/.local/share/handfoot/scores.sqlite3)")
    parser.add_argument("--wait", type=float, default=DEFAULT_WAIT, metavar="SECONDS",
                        help="how long to wait for a score file another program is writing "
                        f"(default: {DEFAULT_WAIT:g})")


def _guard(run: Run) -> Run:
    @functools.wraps(run)
    def wrapped(args: argparse.Namespace) -> int:
        args.stores = []
        try:
            return run(args)
        except ScoreError as err:
            raise UserError(str(err)) from None
        finally:
            # Close the file at once: a connection left open would keep its log files.
            for store in args.stores:
                store.close()
    return wrapped


def open_store(args: argparse.Namespace) -> Store:
    wait = getattr(args, "wait", DEFAULT_WAIT)
    if not 0 <= wait <= MAX_WAIT:  # also refuses nan
        raise ScoreError(f"--wait must be from 0 to {MAX_WAIT:g} seconds")
    store = Store(Path(args.db) if getattr(args, "db", None) else default_db_path(),
                  wait=wait, on_wait=_tell)
    if isinstance(getattr(args, "stores", None), list):
        args.stores.append(store)
    return store


def _tell(message: str) -> None:
    print(f"handfoot: {message}", file=sys.stderr, flush=True)


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    if getattr(args, "json", False):
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(text, end="")


# ------------------------------------------------------------------ the actions
def run_new(args: argparse.Namespace) -> int:
    rules, base = load_rules(args)
    seating = make_seating(rules, list(args.team))
    store = open_store(args)
    game = store.create(check_text("--name", args.name), rules, base, seating)
    minimum = rules.opening_minimum(1, 0)
    text = (f"Started game {game.id} ({game.name}) under {rules.name}: "
            f"{' vs '.join(seating.teams)}.\n"
            f"Kept in {store.path}. Round 1's initial minimum: {minimum}.\n"
            f"Enter a round with `handfoot score add {game.id}`.\n")
    _emit(args, {"game": game.id, "name": game.name, "db": str(store.path),
                 "rules": rules.name, "teams": list(seating.teams),
                 "players": [list(p) for p in seating.players],
                 "opening_minimum": minimum}, text)
    return 0


def run_add(args: argparse.Namespace) -> int:
    store = open_store(args)
    game = store.load(args.game)
    if game.over:
        raise ScoreError(f"{game.name} is over: all {game.rules.rounds} rounds are entered")
    if args.file:
        path = Path(args.file)
        data = load_round_file(path)
        round_no, entries = read_round(game.rules, game.seating, data)
        try:
            r = store.add_round(game, round_no, entries)
        except ScoreFileBusy as err:
            raise ScoreError(f"{err}; {path} is unchanged: run the same command again") \
                from None
        _show_round(args, game, r)
        _tidy_draft(args, path, game, store)
        return 0
    r = _add_interactively(args, store, game)
    _show_round(args, game, r)
    return 0


def _add_interactively(args: argparse.Namespace, store: Store, game: KeptGame) -> int:
    asker = Asker(sys.stdin, sys.stdout, sys.stdin.isatty())
    r = game.next_round
    data: dict[str, Any] = {}
    try:
        ask_round(game.rules, game.seating, asker, r, into=data)
    except (KeyboardInterrupt, ScoreError) as err:
        # Cut short (Ctrl-C, or the terminal's input ended): keep what was typed.  Piped answers
        # that stop at a bad line are still in their file.
        if isinstance(err, KeyboardInterrupt) or asker.interactive:
            _keep_partial(args, store, game, r, data)
        raise
    try:
        _, entries = read_round(game.rules, game.seating, data)
        return store.add_round(game, r, entries)
    except ScoreError as err:
        # Keep what was typed: the person fixes the file (or waits for the lock) rather than
        # typing it all again.
        where = save_draft(round_toml(data), game, store, r)
        if where is None:
            raise ScoreError(f"{err}\nNothing was saved to the game, and no folder could take "
                             f"a draft; your answers as a round file:\n{round_toml(data)}") \
                from None
        db = f" --db {shlex.quote(str(store.path))}" if getattr(args, "db", None) else ""
        run = f"handfoot score add {game.id} --file {shlex.quote(str(where))}{db}"
        then = "When the score file is free, enter them with" \
            if isinstance(err, ScoreFileBusy) else "Fix them and run"
        raise ScoreError(f"{err}\nNothing was saved to the game; your answers are in {where}. "
                         f"{then} `{run}` (the draft is removed once entered).") from None


def _keep_partial(args: argparse.Namespace, store: Store, game: KeptGame, r: int,
                  data: dict[str, Any]) -> None:
    typed = [t for t in data.get("teams", []) if set(t) - {"name", "canastas"} or t["canastas"]]
    if not typed:
        return
    where = save_draft(round_toml(data), game, store, r)
    if where is not None:
        db = f" --db {shlex.quote(str(store.path))}" if getattr(args, "db", None) else ""
        print(f"\nhandfoot: the answers typed so far are in {where}; complete them there and "
              f"enter them with `handfoot score add {game.id} --file "
              f"{shlex.quote(str(where))}{db}`", file=sys.stderr)


DRAFT_HEAD = "# handfoot score draft:"
# The draft's own path, as JSON (any folder name survives), on the header's second line: a file
# is the scorekeeper's draft only where it was written, never a copy or a move of it.
DRAFT_PATH = "# Written to "


def save_draft(text: str, game: KeptGame, store: Store, r: int) -> Path | None:
    """The answers as a round file beside the score file, or in the first folder that takes
    it (the data folder, the current one, the temporary one); None if none does."""
    folders = [store.path.parent, default_db_path().parent, Path.cwd(),
               Path(tempfile.gettempdir())]
    for folder in dict.fromkeys(folders):
        for n in range(1, 100):
            suffix = "" if n == 1 else f"-{n}"
            path = folder / f"draft-game{game.id}-round{r}{suffix}.toml"
            head = (f"{DRAFT_HEAD} round {r} of game {game.id} ({game.name}) in "
                    f"{store.path.resolve()}, "
                    f"typed {time.strftime('%Y-%m-%d %H:%M')}.\n"
                    f"{DRAFT_PATH}{json.dumps(str(path.resolve()))}: entered from there it is "
                    "removed; a copy of it is kept.\n"
                    f"# Enter it with `handfoot score add {game.id} --file THIS-FILE`.\n\n")
            try:
                with path.open("x", encoding="utf-8") as f:  # never over an older draft
                    f.write(head + text)
                return path
            except FileExistsError:
                continue
            except OSError:
                break
    return None


def draft_origin(path: Path, game: KeptGame, store: Store) -> Path | None:
    """Where the scorekeeper wrote the draft this round file is (or was copied from), if it
    carries the header of a draft for this game and score file."""
    try:
        with path.open(encoding="utf-8") as f:
            first, second = f.readline(), f.readline()
    except (OSError, UnicodeDecodeError):
        return None
    if not (first.startswith(DRAFT_HEAD) and f" of game {game.id} (" in first and
            f" in {store.path.resolve()}, typed " in first and
            second.startswith(DRAFT_PATH)):
        return None
    try:
        written, _ = json.JSONDecoder().raw_decode(second, len(DRAFT_PATH))
    except json.JSONDecodeError:
        return None
    return Path(written) if isinstance(written, str) and written else None


def is_draft(path: Path, game: KeptGame, store: Store) -> bool:
    """Whether a round file is a draft this command wrote for this game and score file, at the
    path it was written to."""
    origin = draft_origin(path, game, store)
    try:
        return origin is not None and path.resolve() == origin.resolve()
    except OSError:
        return False


def _tidy_draft(args: argparse.Namespace, path: Path, game: KeptGame, store: Store) -> None:
    """Once a round file is entered, remove it if it is the scorekeeper's own draft; a file the
    person made (a copy of a draft among them) is never removed."""
    where = sys.stderr if args.json else sys.stdout
    if is_draft(path, game, store):
        path.unlink(missing_ok=True)
        print(f"\nThe draft {path} is entered, so it was removed.", file=where)
        return
    origin = draft_origin(path, game, store)
    if origin is not None and origin.is_file() and is_draft(origin, game, store):
        print(f"\n{path} is kept. The draft it was copied from, {origin}, is still there; "
              "remove it once you no longer need it.", file=where)


def _show_round(args: argparse.Namespace, game: KeptGame, r: int) -> None:
    data = summary(game)
    rnd = next(x for x in data["rounds"] if x["round"] == r)
    if args.json:
        print(json.dumps({"game": game.id, "round": rnd, "totals": data["totals"],
                          "over": data["over"], "next_round": data.get("next_round"),
                          "next_minimums": data.get("next_minimums"),
                          "winners": data.get("winners")}, indent=2, ensure_ascii=False))
        return
    print(f"Round {r} of {game.name} saved.\n")
    print(sheet_text(game), end="")


def run_show(args: argparse.Namespace) -> int:
    game = open_store(args).load(args.game)
    _emit(args, summary(game), sheet_text(game))
    return 0


def run_edit(args: argparse.Namespace) -> int:
    store = open_store(args)
    game = store.load(args.game)
    team = game.seating.team_number(args.team)
    if args.round not in game.rounds:
        entered = ", ".join(map(str, sorted(game.rounds))) or "none yet"
        raise ScoreError(f"round {args.round} of {game.name} is not entered (rounds entered: "
                         f"{entered})")
    entry = game.rounds[args.round][team]
    for text in args.assignments:
        path, value = parse_assignment(text)
        try:
            entry = apply_set(game.rules, game.seating, team, entry, path, value)
        except ScoreError as err:
            raise ScoreError(f"--set {shown(text)}: {err}") from None
    diff = store.replace_entry(game, args.round, team, entry)
    if args.json:
        print(json.dumps({"changes": [{"field": f, "old": o, "new": n} for f, o, n in diff],
                          "summary": summary(game)}, indent=2, ensure_ascii=False))
        return 0
    if not diff:
        print("Nothing changed.")
        return 0
    for field, old, new in diff:
        print(f"round {args.round}, {game.seating.teams[team]}: {field}: {old} -> {new}")
    print()
    print(sheet_text(game), end="")
    return 0


def run_history(args: argparse.Namespace) -> int:
    store = open_store(args)
    game = store.load(args.game)
    rows = store.history(game)
    lines = []
    for row in rows:
        if row["field"] == "*":
            lines.append(f"{row['at']}  round {row['round']}, {row['team']}: {row['note']}")
        else:
            lines.append(f"{row['at']}  round {row['round']}, {row['team']}: {row['field']}: "
                         f"{json.dumps(row['old'])} -> {json.dumps(row['new'])}")
    _emit(args, rows, "\n".join(lines) + "\n" if lines else "No rounds entered yet.\n")
    return 0


def run_list(args: argparse.Namespace) -> int:
    store = open_store(args)
    games = store.games()
    rows = [{"game": i, "name": n, "created": c, "teams": t} for i, n, c, t in games]
    text = "".join(f"{i:>4}  {n}  ({t}; started {c})\n" for i, n, c, t in games) or \
        f"No kept games in {store.path}.\n"
    _emit(args, rows, text)
    return 0


def run_export(args: argparse.Namespace) -> int:
    if not args.csv and not args.json_file:
        raise ScoreError("export: give --csv FILE or --json FILE (or both)")
    store = open_store(args)
    game = store.load(args.game)
    if args.csv:
        Path(args.csv).write_text(csv_text(game), encoding="utf-8")
        print(f"wrote {args.csv}")
    if args.json_file:
        data = game_json(game, store.history(game))
        Path(args.json_file).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
        print(f"wrote {args.json_file}")
    return 0


def run_template(args: argparse.Namespace) -> int:
    game = open_store(args).load(args.game)
    if args.round is None:
        _write_utf8(template(game.rules, game.seating))
        return 0
    if args.round not in game.rounds:
        raise ScoreError(f"round {args.round} of {game.name} is not entered")
    raws = [entry_to_raw(game.seating, t, e) for t, e in enumerate(game.rounds[args.round])]
    _write_utf8(round_toml({"round": args.round, "teams": raws}))
    return 0


def _write_utf8(text: str) -> None:
    """A round file on standard output as UTF-8, the encoding `score add --file` reads,
    whatever the terminal's own (which may not even hold the names)."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        print(text, end="")
        return
    buffer.write(text.encode("utf-8"))
    buffer.flush()
