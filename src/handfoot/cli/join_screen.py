"""``handfoot play --join INVITE_URL``: the terminal game (tui/) at a web table.

The same screen, keys and boxes as ``handfoot play``, driven by the table's server rather than
a local engine (:class:`handfoot.tui.remote.RemoteTable`).  Taking a seat and keeping its token
are the line client's (cli/join.py), so both take the same seat back.  Before the game starts
the lobby is a few plain lines: the host starts the game with Enter.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from handfoot.server.client import ClientError, TableClient, parse_invite

from . import join
from .common import UserError


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


async def wait_for_game(client: TableClient, host: bool) -> dict[str, Any]:
    """The table's first state: at once for a game in play, else once the host starts it."""
    table = client.table
    if table is None or table.get("status") == "lobby":
        if host:
            _say("handfoot: press Enter to start the game (bots take the open seats); "
                 "Ctrl+C leaves")
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            await client.send({"type": "start"})
        else:
            _say("handfoot: waiting for the host to start the game; Ctrl+C leaves")
    while True:
        try:
            return await client.until("state", timeout=3600)
        except TimeoutError:
            continue


async def screen(args: argparse.Namespace) -> int:
    from handfoot.tui.app import PlayApp
    from handfoot.tui.remote import RemoteTable

    client, key = await join.connect(args)
    try:
        if client.seat is None:
            seated = await join.sit(client, args, key)
            if seated is None:
                raise UserError("the game at this table started without you: the terminal "
                                "game needs a seat (watch with --plain, or in the browser)")
            _say(seated)
        state = await wait_for_game(client, args.host_token is not None)
        table = RemoteTable(client, state)
        app = PlayApp(table)
        await app.run_async()
        gone = table.stopped if table.stopped != "closed" else ""
    except ClientError as err:
        raise UserError(str(err)) from None
    finally:
        await client.close()
    if gone:
        _say(f"handfoot: {gone}")
        return 1
    print(f"handfoot: you left {key}; your seat waits for you (then a bot plays it), and "
          "the same command takes it back")
    return 0 if app.return_code in (None, 0) else app.return_code


def run(args: argparse.Namespace) -> int:
    try:
        parse_invite(args.join)  # a bad link is told before anything else
    except ClientError as err:
        raise UserError(str(err)) from None
    # The game reads keys from standard input and draws on standard error, as handfoot play.
    for stream, name in ((sys.stdin, "standard input"), (sys.stderr, "standard error")):
        if not stream.isatty():
            raise UserError(f"handfoot play --join needs a terminal, and {name} is not one; "
                            "--plain plays in lines of text (for scripts and screen readers)")
    try:
        return asyncio.run(screen(args))
    except KeyboardInterrupt:
        _say("handfoot: left the table")
        return 130
