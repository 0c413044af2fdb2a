"""Each protocol message declared once: the client's types come from the union of their
models, every one has a route and a row in docs/PROTOCOL.md; the server's come from their
types, every one with a row too; and whatever sends messages (the page, the Python clients)
sends only types the server knows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args, get_type_hints

import pytest

from handfoot.server import protocol as p
from handfoot.server.connection import ROUTES

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
SRC = ROOT / "src" / "handfoot"


def rows(section: str) -> set[str]:
    """The message names in the first column of the first table under ``## section``."""
    body = DOC.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    table = re.search(r"(?m)^\|.*\|\n\|[-|]+\|\n((?:\|.*\|\n)+)", body)
    assert table is not None, f"no table under '## {section}'"
    names: set[str] = set()
    for line in table.group(1).splitlines():
        names |= set(re.findall(r"`(\w+)`", line.split("|")[1]))
    return names


def test_client_message_types_come_from_the_union() -> None:
    members = get_args(get_args(p.ClientMessage)[0])
    kinds = [get_args(get_type_hints(m)["type"])[0] for m in members]
    assert list(p.MESSAGE_TYPES) == kinds
    assert len(set(kinds)) == len(kinds)


def test_every_client_message_has_a_route() -> None:
    assert set(ROUTES) == set(p.MESSAGE_TYPES)


def test_every_client_message_has_a_row_in_the_protocol() -> None:
    assert rows("Client to server") == set(p.MESSAGE_TYPES)
    for kind in p.MESSAGE_TYPES:
        assert re.search(rf"(?m)^### `{kind}`", DOC), f"no section for {kind}"


def test_every_server_message_has_a_row_in_the_protocol() -> None:
    assert len(set(p.SERVER_MESSAGE_TYPES)) == len(p.SERVER_MESSAGE_TYPES)
    assert rows("Server to client") == set(p.SERVER_MESSAGE_TYPES)
    for kind in p.SERVER_MESSAGE_TYPES:
        assert re.search(rf"(?m)^### `{kind}`", DOC), f"no section for {kind}"


# A message sent with its type written out: the page's `send({ type: "act", ...})` and
# `request(...)`, the Python clients' `send({"type": "act", ...})` and the like.
SENT = re.compile(r"""(?:send|request)\(\{\s*["']?type["']?\s*:\s*["'](\w+)["']""")


@pytest.mark.parametrize("folder,suffix", [("server/static/js", ".js"), ("", ".py")])
def test_clients_send_only_types_the_server_knows(folder: str, suffix: str) -> None:
    sent: dict[str, set[str]] = {}
    for path in sorted((SRC / folder).rglob(f"*{suffix}")):
        for kind in SENT.findall(path.read_text(encoding="utf-8")):
            sent.setdefault(kind, set()).add(str(path.relative_to(SRC)))
    assert sent, "no sent messages found: has the way they are written changed?"
    unknown = {k: v for k, v in sent.items() if k not in p.MESSAGE_TYPES}
    assert not unknown
