"""The numbered clauses of docs/RULES.md that the engine cites when it refuses an action.

Every illegal-action error names one of these, so a player reads which rule stopped them and a
test can be named after it.  docs/RULES.md carries the same numbers (a test keeps them in step).
"""

from __future__ import annotations

from .errors import HandfootError

CLAUSES: dict[str, str] = {
    "1.1": "Card values",
    "1.2": "Wild cards",
    "1.3": "Threes are never melded",
    "2.1": "Seats and teams",
    "2.2": "The shoe",
    "2.3": "The deal",
    "2.4": "Red threes in the dealt hand",
    "2.5": "The upcard",
    "2.6": "Dealer and first player",
    "3.1": "Whose turn it is",
    "3.2": "Drawing from the stock",
    "3.3": "Red threes drawn",
    "3.4": "Melding",
    "3.5": "Discarding ends the turn",
    "3.6": "Knocking after taking the pile",
    "4.1": "Taking the pile instead of drawing",
    "4.2": "A three on top blocks the pile",
    "4.3": "The pair that takes the pile",
    "4.4": "A wild card on top",
    "4.5": "The taken cards must fit the meld",
    "4.6": "Taking the pile before the opening",
    "4.7": "The top card onto a team meld",
    "4.8": "Picking up the pile for any card that plays",
    "5.1": "Melds: ranks and size",
    "5.2": "Team melds, one open meld per rank",
    "5.3": "Wild cards in a meld",
    "5.4": "Ranks that take no wild cards",
    "5.5": "Melds of wild cards",
    "5.6": "Canastas",
    "5.7": "A book of black threes",
    "6.1": "The opening minimum",
    "6.2": "Counting the opening",
    "6.3": "Taking back a short opening",
    "6.4": "Laying down the whole hand",
    "7.1": "Picking up the knee",
    "7.2": "Emptying the hand before the knee",
    "7.3": "Picking up the foot",
    "7.4": "Red threes found in a knee or foot",
    "7.5": "No stripping bare",
    "7.5.1": "No stripping bare: the quota is not met",
    "7.5.2": "No stripping bare: a partner is not in the foot",
    "7.5.3": "No stripping bare: the partner has not been asked",
    "7.5.4": "No stripping bare: the partner said no",
    "8.1": "The going-out quota",
    "8.2": "Which canasta fills which requirement",
    "8.3": "Going out from the foot",
    "8.4": "Partners in their feet",
    "8.5": "Asking permission",
    "8.5.1": "Ask before going out",
    "8.5.2": "A no binds for the turn",
    "8.5.3": "A yes binds: go out this turn",
    "8.5.4": "Ask only when you can go out",
    "8.6": "The last card",
    "8.7": "The final lap",
    "9.1": "The stock running out",
    "9.2": "The turn cap",
    "9.3": "Reshuffling the pile",
    "10.1": "Melded cards",
    "10.2": "Canasta bonuses",
    "10.3": "Red threes",
    "10.4": "Cards left in hand, knee and foot",
    "10.5": "Threes still held",
    "10.6": "Going out",
    "10.7": "Penalties and the exact cut",
    "10.8": "The game",
}


class IllegalAction(HandfootError):
    """An action the rules do not allow here.  ``clause`` is a number in docs/RULES.md."""

    def __init__(self, clause: str, message: str, action: object = None) -> None:
        title = CLAUSES.get(clause, "?")
        super().__init__(f"{message} (rule {clause}, {title})")
        self.clause = clause
        self.reason = message
        self.action = action
