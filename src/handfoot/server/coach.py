"""What the browser table shows beside the game that the page must not work out itself: the
table points each team has on the table so far (the engine's scoring), and which moves the
rules can ever offer (so the page shows no button that never applies)."""

from __future__ import annotations

from handfoot.engine import Game
from handfoot.rules import Rules
from handfoot.scoring import Tally, score_team, tally_team, total


def table_points(game: Game) -> list[int]:
    """Each team's points on the table this round: its melds' cards, its canastas' bonuses and
    its red threes laid, scored by the engine's scoring (10.1 to 10.3) as if the round ended
    now, without the cards still held (those are hidden, and come off only at the end)."""
    out = []
    for team in range(game.rules.teams):
        full = tally_team(game, team)
        public = Tally(canastas=full.canastas, melded_points=full.melded_points,
                       red_threes_laid=full.red_threes_laid)
        out.append(total(score_team(game.rules, public)))
    return out


def moves_that_apply(rules: Rules) -> list[str]:
    """The moves beyond draw, meld and discard that these rules can ever allow:

    - ``ask``: asking a partner "may I go out?" (8.5), only with permission on and partners;
    - ``knock``: ending a turn without a discard (3.6), after taking the pile where the rules
      say no discard follows, or holding one card that may not be discarded, which only red
      threes drawn and not replaced can leave (decision D21);
    - ``book``: a book of black threes from the foot (5.7)."""
    out = []
    if rules.permission and rules.team_size > 1:
        out.append("ask")
    if not rules.discard_after_pile or rules.red_three_replacement != "always":
        out.append("knock")
    if rules.black_three_book:
        out.append("book")
    return out
