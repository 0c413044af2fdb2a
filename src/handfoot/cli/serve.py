"""``handfoot serve``: the web table's server (docs/PROTOCOL.md, docs/DEPLOY.md)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from .common import UserError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve tables where people and bots play together over websockets",
        description="Serve Hand and Foot tables: people join from an invite link (a browser, "
        "or handfoot play --join), bots fill the empty seats. Tables and their game records "
        "are kept in a database: SQLite in the user data folder by default.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--db", default=None, metavar="PATH_OR_URL",
                        help="a SQLite file, or postgresql://... (default: tables.sqlite3 in "
                        "the user data folder)")
    parser.add_argument("--public-url", default=None, metavar="URL",
                        help="the address people reach this server at, for invite links "
                        "(default: the address each request came to)")
    parser.add_argument("--bot-workers", type=int, default=None, metavar="N",
                        help="processes for slow bots (search); 0 runs them in the server "
                        "itself (default: cores - 1, at least 1)")
    parser.add_argument("--rate", type=float, default=None, metavar="N",
                        help="messages a second one connection may send, in bursts of twice "
                        "that (default: 10; people need far fewer, scripted clients more)")
    parser.add_argument("--push-key", default=None, metavar="PATH",
                        help="the Web Push (VAPID) key's PEM file, made on the first start "
                        "(default: push-key.pem beside the SQLite database; with PostgreSQL, in "
                        "the user data folder: give every process the same file)")
    parser.add_argument("--push-contact", default=None, metavar="MAILTO_OR_URL",
                        help="whom push services may write to about this server's pushes, "
                        "e.g. mailto:you@example.org (default: mailto:handfoot@localhost; some "
                        "services, Apple's among them, want a real address)")
    parser.add_argument("--log-level", default="warning",
                        choices=["critical", "error", "warning", "info", "debug"])
    parser.add_argument("--export", metavar="TABLE", default=None,
                        help="print a table's game record (for handfoot replay) and exit")
    parser.add_argument("--game", type=int, default=None, metavar="N",
                        help="with --export: which game of the table (default: the latest)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from handfoot.server.database import StorageError
    from handfoot.server.storage import describe_target

    if args.game is not None and args.export is None:
        raise UserError("--game N chooses a game of the table --export prints; give "
                        "--export TABLE too")
    if args.public_url is not None:
        check_public_url(args.public_url)
    if args.push_contact is not None and not args.push_contact.startswith(
            ("mailto:", "https://")):
        raise UserError(f"--push-contact {args.push_contact!r}: give a mailto: or https:// "
                        "address")
    if args.export is not None:
        return asyncio.run(_export(args))
    if not 0 < args.port < 65536:
        raise UserError(f"--port must be 1 to 65535, not {args.port}")
    if args.bot_workers is not None and args.bot_workers < 0:
        raise UserError("--bot-workers cannot be negative")
    if args.rate is not None and not args.rate > 0:
        raise UserError("--rate must be more than 0")
    _check_listen(args.host, args.port)
    asyncio.run(_check_database(args.db))
    _check_push_key(args.db, args.push_key)
    import uvicorn

    from handfoot.server.app import create_app
    from handfoot.server.protocol import MAX_TRANSPORT_FRAME, Limits
    from handfoot.server.push import PushConfig

    limits = Limits(rate=args.rate, burst=2 * args.rate) if args.rate else None
    app = create_app(args.db, args.public_url, args.bot_workers, limits=limits,
                     push=PushConfig(args.push_key, args.push_contact))
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level,
                            ws_max_size=MAX_TRANSPORT_FRAME, lifespan="on",
                            proxy_headers=True, timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    shown = "localhost" if args.host in ("0.0.0.0", "::") else args.host
    where = f"[{shown}]" if ":" in shown else shown
    print(f"handfoot: serving tables at http://{where}:{args.port}/ "
          f"({describe_target(args.db)}); Ctrl+C stops", flush=True)
    try:
        server.run()
    except StorageError as err:
        raise UserError(str(err)) from None
    if not server.started:
        raise UserError(f"the server did not start (is port {args.port} in use?)")
    return 0


def check_public_url(url: str) -> None:
    """The invite links are this address plus /t/TABLE: it must be one a browser can open."""
    from urllib.parse import urlsplit

    example = "e.g. https://cards.example.org or http://192.168.1.20:8000"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - reading it checks the port
    except ValueError as err:
        raise UserError(f"--public-url {url!r}: {err}; give the address people open, "
                        f"{example}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UserError(f"--public-url {url!r} is not a web address; give the address people "
                        f"open, {example}")
    if parts.query or parts.fragment:
        raise UserError(f"--public-url {url!r}: the invite links add /t/TABLE to it, so it "
                        "cannot carry a ?query or #fragment")


def _check_listen(host: str, port: int) -> None:
    """Fail in one line, before the server starts, when the address cannot be listened on."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as err:
        raise UserError(f"--host {host!r}: {getattr(err, 'strerror', None) or err}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            raise UserError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None


def _check_push_key(db: str | None, override: str | None) -> None:
    """Make (on the first start) or read the Web Push key before serving: a bad file is one
    line here, not a server that does not start."""
    from handfoot.server.database import StorageError
    from handfoot.server.push import key_path, load_or_make_key

    try:
        load_or_make_key(key_path(db, override))
    except (StorageError, OSError) as err:
        raise UserError(f"--push-key: {err}") from None


async def _check_database(db: str | None) -> None:
    """Open the database (creating its tables) before serving, so a bad --db is one line."""
    from handfoot.server.database import StorageError
    from handfoot.server.storage import Storage

    try:
        storage = await Storage.open(db)
    except StorageError as err:
        raise UserError(str(err)) from None
    await storage.close()


async def _export(args: argparse.Namespace) -> int:
    from handfoot.server.database import StorageError
    from handfoot.server.keeping import KeepingError, export_json
    from handfoot.server.storage import Storage

    try:
        storage = await Storage.open(args.db)
    except StorageError as err:
        raise UserError(str(err)) from None
    try:
        stored = await storage.load(args.export)
        if stored is None:
            raise UserError(f"no table {args.export!r} in the database")
        game_no = args.game if args.game is not None else stored.row.game
        game = await storage.game(args.export, game_no) if game_no > 0 else None
        if game is None:
            raise UserError(f"table {args.export!r} has no game {game_no}")
        try:
            text = export_json(game.header, game.deals,
                               [(a.round, a.seat, a.action) for a in game.actions])
        except KeepingError as err:
            raise UserError(str(err)) from None
        sys.stdout.write(text)
    finally:
        await storage.close()
    return 0
