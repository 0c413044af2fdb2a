"""What the server sends, built from views: a seat's view for a seat, the public view for a
spectator.  Nothing here reads the game's hidden state; every card a message names comes from
``handfoot.views.view`` for the seat it goes to, or from the public events.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from handfoot.actions import Action, Add, LayDown, Start
from handfoot.cards import JOKER, TWO, WILD_SLOT
from handfoot.clauses import CLAUSES
from handfoot.derived import derived_for
from handfoot.engine import Game
from handfoot.events import Refusal
from handfoot.pile import pile_status
from handfoot.scoring import winners
from handfoot.views import view

from . import protocol as p

M = TypeVar("M", bound=Mapping[str, object])


def dumps(message: Mapping[str, object]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def dumps_list(items: list[dict[str, Any]]) -> str:
    return json.dumps(items, ensure_ascii=False, separators=(",", ":"))


def dumps_with(message: Mapping[str, object], key: str, json_text: str) -> str:
    """``dumps(message)`` with one more field whose value is already JSON text (written once
    for every client rather than once per client)."""
    return f'{dumps(message)[:-1]},"{key}":{json_text}}}'



def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """The seat's view as docs/PROTOCOL.md sends it: the view's mapping without the rules
    (the ``table`` message carries them once); once the game is over, the winning team or
    the tied teams, as the engine's scoring decides them (the page does not)."""
    mapping = view(game, seat).to_mapping()
    del mapping["rules"]
    if game.over:
        mapping["winners"] = winners(list(game.totals))
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


_NONE = Refusal("", "")  # the pile is open: no clause, no reason


def pile_mapping(game: Game, seat: int | None) -> p.PileInfo | None:
    """Whether the seat may take the pile (or could, at its draw), the engine's reason if not,
    and what a take needs; None for a spectator, who takes nothing."""
    if seat is None:
        return None
    status = pile_status(game, seat)
    refusal = status.refusal or _NONE
    return {"open": status.open, "clause": refusal.clause, "rule": CLAUSES.get(refusal.clause, ""),
            "reason": refusal.reason, "take": status.take.text if status.take else None,
            "uses": status.uses, "short": status.short, "needs": status.needs}


def quota_missing(game: Game) -> list[dict[str, int]]:
    """The canastas each team still lacks to go out, by kind (public: the melds are)."""
    return [game.quota_missing(team) for team in range(game.rules.teams)]


def meld_points(game: Game, action: Action) -> int:
    """The card points a meld step or lay-down puts down (what counts toward an opening), by
    the rules' card values."""
    values = derived_for(game.rules).values
    if isinstance(action, Add):
        return int(values[action.kind])
    if isinstance(action, Start):
        parts = [(action.slot, action.naturals, action.twos, action.jokers)]
    elif isinstance(action, LayDown):
        parts = [(p.slot, p.naturals, p.twos, p.jokers) for p in action.parts]
    else:
        return 0
    return sum((n * values[slot] if slot != WILD_SLOT else 0) + tw * values[TWO]
               + j * values[JOKER] for slot, n, tw, j in parts)


def error(code: str, message: str, reply_to: p.ReplyTo = None,
          **extra: Any) -> p.ErrorMessage:
    out: dict[str, Any] = {"type": "error"}
    if reply_to is not None:
        out["reply_to"] = reply_to
    out |= {"code": code, "message": message, **extra}
    return cast(p.ErrorMessage, out)


def reply(message: M, reply_to: p.ReplyTo) -> M:
    """The message as the answer to the client's message ``reply_to`` (its ``id``), which
    goes second, after the type."""
    if reply_to is None:
        return message
    return cast(M, {"type": message["type"], "reply_to": reply_to,
                    **{k: v for k, v in message.items() if k != "type"}})
