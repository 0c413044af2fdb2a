"""Hints for people: what the strongest bot the table allows would do in their place (the
terminal game's ``h`` and the web table's ``hint``).

The bot is ``levels.ranker(rules)``: the shipped network (the ``strong`` level's policy, one
forward pass a step) where a model fits the table, else the heuristic (``casual``).  Both rank
every legal action, which a hint needs: its best step that is not a meld when the lay-down
falls short.  ``expert`` is not asked: its search takes a tenth of a second or more a
decision, and it ranks whole-turn plans, not the legal actions.

A hint is a whole step the engine accepts as it stands.  The bot melds one atomic step at a
time, and before the team's opening a single step rarely reaches the round's minimum (6.1): a
person who laid ``10 10 2`` alone, as the bot's first step reads, was refused, and the same
hint came back forever.  So the bot's meld steps of this turn are played out on a copy of the
game and handed over as the one lay-down they make together; where that is refused (or the bot
would not reach the minimum), the hint is the bot's best step that is not a meld: a draw, a
discard, a retract.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..actions import Action, Add, LayDown, Part, Start
from ..cards import JOKER, TWO
from ..engine import Game
from ..rules import Rules
from ..views import SeatView, view
from .levels import ranker

# A turn melds at most every card in hand; the cap only guards against a bot that never stops.
_MOST_STEPS = 200


class Ranker(Protocol):
    name: str

    def rank(self, view: SeatView, legal: Sequence[Action]) -> list[Action]:
        """The legal actions, best first."""
        ...


def hinter(rules: Rules) -> tuple[Ranker, str]:
    """The bot that hints at this table, and its name in the hint's words."""
    bot = ranker(rules)
    return bot, bot.name


def hint(game: Game, seat: int, bot: Ranker | None = None) -> Action | None:
    """The step the table's hinting bot (``hinter``) would take for ``seat`` now, whole; None
    when the seat has nothing to do.  The engine accepts it:
    ``game.refusal(hint(game, seat), seat) is None``."""
    if game.over or game.actor != seat:
        return None
    legal = game.legal_actions()
    if not legal:
        return None
    # A fresh bot each time (or one that keeps no state): a hint depends only on the
    # position, never on earlier hints.
    bot = bot or hinter(game.rules)[0]
    ranked = bot.rank(view(game, seat), legal)
    best = ranked[0]
    if not isinstance(best, (Start, Add)):
        return best
    lay = _lay_down(game, seat, bot, best)
    if lay is not None and game.refusal(lay, seat) is None:
        return lay
    if game.opened[game.team_of(seat)]:
        return best  # after the opening every meld step stands alone
    for action in ranked:
        if not isinstance(action, (Start, Add)):
            return action
    return best  # only meld steps are legal (and the engine stages them one by one)


def hint_words(game: Game, seat: int) -> tuple[Action | None, str]:
    """The hint and its words as a person reads them: ``the strong bot would lay K K K``."""
    bot, name = hinter(game.rules)
    best = hint(game, seat, bot)
    if best is None:
        return None, "nothing to do: it is not your move"
    return best, f"the {name} bot would {best.text}"


def _lay_down(game: Game, seat: int, bot: Ranker, first: Start | Add) -> LayDown | None:
    """The bot's meld steps of this turn, starting with ``first``, as one lay-down.  They stop
    at the first step that is not a meld, and where a step picks up the next packet: the bot
    would then choose by cards the person has not seen yet."""
    trial = game.clone()
    packet = trial.packet_no[seat]
    parts: list[Part] = []
    step: Action = first
    for _ in range(_MOST_STEPS):
        if isinstance(step, Start):
            parts.append(Part(step.slot, step.naturals, step.twos, step.jokers))
        elif isinstance(step, Add):
            # An addition joins the last part of its meld, or stands as a part of its own
            # (onto a meld opened before).
            for i in range(len(parts) - 1, -1, -1):
                if parts[i].slot == step.slot:
                    parts[i] = _plus(parts[i], step.kind)
                    break
            else:
                parts.append(_plus(Part(step.slot, 0, 0, 0), step.kind))
        else:
            break
        trial.apply(step, seat)
        if trial.over or trial.actor != seat or trial.packet_no[seat] != packet:
            break
        legal = trial.legal_actions()
        if not legal:
            break
        step = bot.rank(view(trial, seat), legal)[0]
    return LayDown(tuple(parts)) if parts else None


def _plus(part: Part, kind: int) -> Part:
    if kind == TWO:
        return Part(part.slot, part.naturals, part.twos + 1, part.jokers)
    if kind == JOKER:
        return Part(part.slot, part.naturals, part.twos, part.jokers + 1)
    return Part(part.slot, part.naturals + 1, part.twos, part.jokers)
