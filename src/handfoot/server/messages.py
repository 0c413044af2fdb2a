"""What the server sends, built from views: a seat's view for a seat, the public view for a
spectator.  Nothing here reads the game's hidden state; every card a message names comes from
``handfoot.views.view`` for the seat it goes to, or from the public events.
"""

from __future__ import annotations

import json
from typing import Any

from handfoot.engine import Game
from handfoot.views import view


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def dumps_list(items: list[dict[str, Any]]) -> str:
    return json.dumps(items, ensure_ascii=False, separators=(",", ":"))


def dumps_with(message: dict[str, Any], key: str, json_text: str) -> str:
    """``dumps(message)`` with one more field whose value is already JSON text (written once
    for every client rather than once per client)."""
    return f'{dumps(message)[:-1]},"{key}":{json_text}}}'



def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """The seat's view as docs/PROTOCOL.md sends it: the view's mapping without the rules
    (the ``table`` message carries them once)."""
    mapping = view(game, seat).to_mapping()
    del mapping["rules"]
    return mapping


def public_view(game: Game) -> dict[str, Any]:
    """What a spectator sees: a seat view with its seat and its hand taken out.

    Everything else in a seat view is public (the table, the counts, the cards the whole table
    watched being taken from the pile), so any seat's view without its hand is the same; seat
    0's is used.  The wire tests check that no spectator message ever names a hidden card.
    """
    mapping = seat_view(game, 0)
    del mapping["hand"]
    mapping["seat"] = None
    return mapping


def legal_texts(game: Game, seat: int | None) -> list[str]:
    """The engine's atomic legal actions for ``seat`` if it must act now, as text."""
    if seat is None or game.over or game.actor != seat:
        return []
    return [a.text for a in game.legal_actions()]


def error(code: str, message: str, reply_to: str | int | None = None,
          **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error"}
    if reply_to is not None:
        out["reply_to"] = reply_to
    out |= {"code": code, "message": message, **extra}
    return out


def reply(message: dict[str, Any], reply_to: str | int | None) -> dict[str, Any]:
    """The message as the answer to the client's message ``reply_to`` (its ``id``)."""
    if reply_to is None:
        return message
    return {"type": message["type"], "reply_to": reply_to,
            **{k: v for k, v in message.items() if k != "type"}}
