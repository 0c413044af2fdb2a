"""Every rules option, declared once: the one table the rest of handfoot derives from.

Each :class:`Option` names a field of :class:`handfoot.rules.Rules` (in the same order) with its
kind of value, its choices, the clause of docs/RULES.md it belongs to, the value that means
"off" where a house rule can be off, the record version that added it and how records before it
were played, one line of meaning, and its sentence in ``handfoot rules explain``.  From it come
parsing (rules.py dispatches on ``kind``), ``rules.CHOICES``, the presets' shared block of
house rules (presets.py), the record upgrades (record.rules_as_played), the explanation
(rulebook.py) and the web form's controls (server/rules_form.py).

"Off" is what a preset plays unless its document says otherwise; it is never a silent default:
a rules mapping still names every setting.  Values here (``off``, ``before``, choices) are in
mapping form, as a rules file writes them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .cards import KIND_NAMES, KIND_TOKENS, NATURAL_RANKS, parse_kind, plural

if TYPE_CHECKING:  # the sentences read a Rules; rules.py imports this module
    from .rules import Rules

# max_wilds in the object when a meld may hold any number of wild cards ("unlimited").
UNLIMITED = -1
CARD_VALUE_KEYS = KIND_TOKENS[:13]  # naturals and wilds; threes are priced by their own keys

# The kinds of value an option takes (the web form's controls have the same names):
#   text        a label, not a rule (name, source)
#   int, bool   a whole number, true or false
#   choice      one of the option's choices (text)
#   ints        a list of whole numbers
#   pile_take   "whole" or a count from 1;   max_wilds   "unlimited" or a count from 0
#   card_values a value for every natural rank and wild card
#   cards       a list of card kinds, among the option's ``cards``
#   kinds       canasta kind -> whole number
#   score_table [score at least, minimum] rows
KINDS = ("text", "int", "bool", "choice", "ints", "pile_take", "max_wilds", "card_values",
         "cards", "kinds", "score_table")


@dataclass(frozen=True, slots=True, eq=False)
class Option:
    key: str
    kind: str
    clause: str | None  # None for the labels (name, source), which no clause states
    meaning: str
    sentence: Callable[[Rules], str] | None = None  # for `rules explain`; None for labels
    choices: Mapping[str, str] = field(default_factory=dict)  # choice -> what it means
    allowed: tuple[int, ...] = ()  # an int picked from a short list (a Literal in Rules)
    cards: tuple[int, ...] = ()  # kind "cards": the card kinds it may list
    cards_refused: str = ""  # kind "cards": why a card outside ``cards`` is refused
    off: Any = None  # the value that turns the house rule off; None: no such value
    since: int = 1  # the record version that added the option
    before: Any = None  # how records before ``since`` played (None: ``off``)
    used: Callable[[Rules], bool] | None = None  # rules that never consult it (explain omits)

    @property
    def played_before(self) -> Any:
        """The value a record older than ``since`` was played with."""
        return self.off if self.before is None else self.before


# ------------------------------------------------------------------ words for the sentences
def _n(n: int) -> str:
    return f"{n:,}"


def _card(kind: int) -> str:
    return KIND_NAMES[kind] + "s"


def _cards(tokens: frozenset[int]) -> str:
    names = [_card(k) for k in sorted(tokens)]
    if not names:
        return "none"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _kinds(table: tuple[tuple[str, int], ...], unit: str = "") -> str:
    parts = [f"{kind} {_n(v)}{unit}" for kind, v in table]
    return ", ".join(parts)


def _values(r: Rules) -> str:
    by_value: dict[int, list[str]] = {}
    for token, value in zip(CARD_VALUE_KEYS, r.card_values, strict=True):
        by_value.setdefault(value, []).append(KIND_NAMES[parse_kind(token)])
    return "; ".join(f"{', '.join(names)}: {v}" for v, names in
                     sorted(by_value.items(), key=lambda kv: -kv[0]))


def _meaning(key: str, value: str) -> str:
    return BY_KEY[key].choices[value]


def _choice(key: str, lead: str = "") -> Callable[[Rules], str]:
    """The sentence of a choice: its meaning after a lead-in, as a sentence."""
    def sentence(r: Rules) -> str:
        text = f"{lead}{_meaning(key, getattr(r, key))}."
        return text[0].upper() + text[1:]
    return sentence


def _count(n: int) -> str:
    return ("one card", "two cards", "three cards")[n - 1] if 1 <= n <= 3 else f"{n} cards"


def _yes(flag: bool, yes: str, no: str) -> str:
    return yes if flag else no


# Whole sentences: the choices' meanings are written to stand alone in a list, not to follow a
# lead-in.
_REPLACEMENT = {
    "always": "Every red three laid is replaced from the stock, wherever it was found.",
    "not_from_packets": "A red three laid is replaced when it was dealt in the hand or drawn, "
    "not when it is found in a knee or foot.",
    "first_packet_only": "A red three laid is replaced only while the player is still in the "
    "first packet.",
    "never": "A red three laid is never replaced.",
}


def _pennies(r: Rules) -> str:
    if not r.canasta_pennies:
        return "No card is set aside when a canasta is finished."
    return (f"Each time a canasta is finished, {r.canasta_pennies} "
            f"card{'s' * (r.canasta_pennies != 1)} from the stock go face down beside it, out "
            "of play (pennies).")


# ------------------------------------------------------------------ the table
# In the order of the fields of Rules (tests/test_options.py checks it), which is the order of
# a rules mapping and so of a record's bytes.
OPTIONS: tuple[Option, ...] = (
    Option("name", "text", None, "the rules' name, as a table shows it"),
    Option("source", "text", None, "the rule document the rules follow"),
    # Seats and cards
    Option("players", "int", "2.1", "how many play", lambda r: f"{r.players} players."),
    Option("team_size", "int", "2.1", "players in a team (1: everyone alone)",
           lambda r: (f"They play in {r.teams} teams of {r.team_size}, partners sitting apart."
                      if r.team_size > 1 else "Everyone plays alone.")),
    Option("decks", "int", "2.2", "decks shuffled together into the shoe",
           lambda r: (f"{r.decks} decks are shuffled together" if r.decks > 1
                      else "1 deck is shuffled") + f" ({r.shoe_size} cards)."),
    Option("jokers", "int", "2.2", "jokers in each deck",
           lambda r: ("The decks have no jokers." if not r.jokers else
                      f"Each deck has {r.jokers} jokers."),
           allowed=(0, 2, 4), off=2, since=3),
    Option("packets", "ints", "2.3", "the cards of each packet dealt: hand, knees, foot",
           lambda r: "Each player is dealt " + ", ".join(
               f"a {name} of {n}" for name, n in zip(r.packet_names, r.packets, strict=True))
           + "."),
    Option("rounds", "int", "10.8", "rounds in a game",
           lambda r: f"A game is {plural(r.rounds, 'round')}; the highest total wins."),
    Option("card_values", "card_values", "1.1", "what each natural rank and wild card scores",
           lambda r: f"Card values: {_values(r)}."),
    # The upcard
    Option("upcard", "bool", "2.5", "a card is turned up to start the pile",
           lambda r: _yes(r.upcard, "After the deal a card is turned up to start the pile.",
                          "No card is turned up: the pile starts with the first discard.")),
    Option("upcard_rejects", "cards", "2.5", "cards that may not be the upcard",
           lambda r: f"These may not be the upcard: {_cards(r.upcard_rejects)}.",
           cards=tuple(range(len(KIND_TOKENS)))),
    Option("upcard_rejected", "choice", "2.5", "what happens to an upcard that may not be one",
           _choice("upcard_rejected", "When one turns up, "), choices={
               "bury": "a rejected upcard is buried in the middle of the stock and another is "
               "turned",
               "cover": "a rejected upcard stays in the pile and another card is turned onto it",
           }),
    # Threes
    Option("red_threes", "choice", "2.4", "whether red threes are bonus cards",
           _choice("red_threes"), choices={
               "bonus": "red threes are laid face up as bonus cards",
               "dead": "red threes are never laid: they only cost points if still held",
           }),
    Option("red_three_bonus", "int", "10.3", "what each red three laid scores",
           lambda r: f"Each red three laid scores {_n(r.red_three_bonus)}."),
    Option("red_three_penalty", "int", "10.5", "what a red three still held costs",
           lambda r: f"A red three still held costs {_n(r.red_three_penalty)}."),
    Option("red_three_replacement", "choice", "2.4", "when a red three laid is replaced",
           lambda r: _REPLACEMENT[r.red_three_replacement], choices={
               "always": "every red three laid is replaced from the stock, wherever it was "
               "found",
               "not_from_packets": "replaced when dealt in the hand or drawn, not when found "
               "in a knee or foot",
               "first_packet_only": "replaced only while the player is still in the first "
               "packet",
               "never": "never replaced",
           }),
    Option("red_three_set_size", "int", "10.3", "red threes a team lays for a set bonus (0: none)",
           lambda r: ("No extra bonus for a set of red threes." if not r.red_three_set_size
                      else f"A team that lays {r.red_three_set_size} or more red threes scores "
                      "a set bonus."),
           off=0),
    Option("red_three_set_bonus", "int", "10.3", "what a set of red threes scores",
           lambda r: f"The red-three set bonus is {_n(r.red_three_set_bonus)}.", off=0),
    Option("red_three_bonus_needs_canasta", "bool", "10.3",
           "red threes score only for a team with a canasta",
           lambda r: _yes(r.red_three_bonus_needs_canasta, "Red threes score only for a team "
                          "with a canasta.", "Red threes score even for a team without a "
                          "canasta."),
           off=False),
    Option("black_three_penalty", "int", "10.5", "what a black three still held costs",
           lambda r: f"A black three still held costs {_n(r.black_three_penalty)}."),
    Option("black_three_book", "bool", "5.7",
           "black threes may be melded from the foot as a book",
           lambda r: _yes(r.black_three_book, f"A player in the foot may meld "
                          f"{r.canasta_size} black threes at once as a book, a clean canasta.",
                          "Black threes are never melded, not even as a book of their own."),
           off=False, since=3),
    Option("black_three_blocks", "bool", "4.2", "a black three on top of the pile blocks it",
           lambda r: _yes(r.black_three_blocks, "A black three on top blocks the pile until "
                          "another card covers it.", "A black three on top does not block the "
                          "pile: it is taken as the rules below allow (a book of black threes, "
                          "or picking the pile up)."),
           off=True, since=3),
    # The turn
    Option("draw_count", "int", "3.2", "cards drawn from the stock",
           lambda r: f"A turn starts by drawing {_count(r.draw_count)} from the stock (what is "
           "left if fewer), or by taking the pile.",
           allowed=(1, 2, 3), off=2, since=3),
    # The pile
    Option("pile_take", "pile_take", "4.1", "how much of the pile is taken",
           lambda r: ("Taking the pile takes the whole pile." if r.pile_take == 0 else
                      "Taking the pile takes only its top card." if r.pile_take == 1 else
                      f"Taking the pile takes the top {r.pile_take} cards.")),
    Option("pile_pair", "choice", "4.3", "the pair that takes the pile",
           _choice("pile_pair", "The pile is taken with "), choices={
               "natural": "two natural cards of the top card's rank",
               "meldable": "any two cards that make a legal meld with the top card",
           }),
    Option("pile_wild_top", "choice", "4.4", "whether a wild card on top may be taken",
           _choice("pile_wild_top"), choices={
               "matching_pair": "a wild card on top is taken only with two of the same wild "
               "(two 2s for a 2, two jokers for a joker)",
               "blocked": "a wild card on top cannot be taken",
           }),
    Option("pile_before_opening", "choice", "4.6", "taking the pile before the team's opening",
           _choice("pile_before_opening", "Taking the pile before the team's opening: "),
           choices={
               "top_card_counts": "allowed; the top card counts toward the minimum, the cards "
               "beneath do not",
               "hand_only": "allowed only if the minimum is met from the hand, the top card "
               "not counting",
               "top_card_only": "allowed, but only the top card is taken",
               "never": "not allowed until the team has made its opening",
           }),
    Option("pile_opening_checked", "bool", "4.6",
           "a pile taken before the opening must be able to reach it",
           lambda r: _yes(r.pile_opening_checked, "A pile taken before the team's opening must "
                          "be able to reach the minimum with the cards in hand, checked when it "
                          "is taken.", "A pile taken before the team's opening is checked only "
                          "as it is melded: a short one is taken back (6.3)."),
           off=False, since=4),
    Option("pile_onto_meld", "bool", "4.7",
           "the top card alone may go onto the team's open meld of its rank",
           lambda r: _yes(r.pile_onto_meld, "The pile may also be taken by adding its top card "
                          "alone to one of the team's open melds of its rank.", "The top card "
                          "alone never takes the pile."),
           off=False, since=3),
    Option("pile_any_card", "bool", "4.8",
           "the pile may be picked up when any card of it plays at once",
           lambda r: _yes(r.pile_any_card, "The pile may also be picked up into the hand when "
                          "any card of it can be melded at once: the next meld must use one, "
                          "and before the opening every picked-up card melded counts toward the "
                          "minimum.", "The pile is never picked up just because another card "
                          "of it could be melded."),
           off=False, since=3),
    Option("discard_after_pile", "bool", "3.5", "a turn that took the pile ends with a discard",
           lambda r: _yes(r.discard_after_pile, "So does a turn that began by taking the pile.",
                          "Except a turn that began by taking the pile: it ends with a knock, "
                          "not a discard (3.6).")),
    # Melds
    Option("meld_min", "int", "5.1", "cards that start a meld",
           lambda r: f"A meld starts with {r.meld_min} cards of one rank."),
    Option("canasta_size", "int", "5.6", "cards that make a canasta",
           lambda r: f"A meld of {r.canasta_size} cards is a canasta."),
    Option("add_to_canasta", "choice", "5.6", "whether a canasta keeps growing",
           _choice("add_to_canasta", "Adding to a canasta: "), choices={
               "never": "a canasta is closed at its size; another meld of the rank may be "
               "started",
               "always": "a canasta keeps growing; the rank's meld stays open",
               "not_special": "a canasta keeps growing unless it is a wild canasta or a rank "
               "canasta with its own bonus (such as 7s and 5s)",
           }),
    Option("wild_ratio", "choice", "5.3", "how many wild cards a meld may hold for its naturals",
           lambda r: ("No ratio of wild cards to naturals applies." if r.wild_ratio == "none"
                      else f"Wild cards and naturals: {_meaning('wild_ratio', r.wild_ratio)}."),
           choices={
               "fewer_than_naturals": "a meld always has more naturals than wild cards",
               "at_most_half": "a meld has at most half as many wild cards as naturals",
               "at_most_naturals": "wild cards never outnumber naturals",
               "none": "no ratio; only the count limits apply",
           }),
    Option("max_wilds", "max_wilds", "5.3", "the most wild cards in a meld",
           lambda r: ("A meld may hold any number of wild cards (no cap)."
                      if r.max_wilds == UNLIMITED else
                      f"A meld holds at most {plural(r.max_wilds, 'wild card')}.")),
    Option("naturals_before_wild", "int", "5.3", "naturals a meld needs before a wild card",
           lambda r: f"A meld needs {plural(r.naturals_before_wild, 'natural card')} before it "
           "may hold a wild card."),
    Option("wilds_first", "bool", "5.3", "wild cards may go into a meld ahead of its naturals",
           lambda r: _yes(r.wilds_first, "Wild cards may go into a meld ahead of its naturals.",
                          "The wild-card limits hold at every step of a meld."),
           off=False),
    Option("no_wild_ranks", "cards", "5.4", "ranks whose melds take no wild cards",
           lambda r: ("Every rank may take wild cards." if not r.no_wild_ranks else
                      f"Melds of {_cards(r.no_wild_ranks)} never take wild cards."),
           cards=tuple(NATURAL_RANKS), cards_refused="only ranks 4 to ace can refuse wild "
           "cards"),
    Option("wild_melds", "bool", "5.5", "wild cards may be melded on their own",
           lambda r: _yes(r.wild_melds, "Wild cards may be melded on their own, making a wild "
                          "canasta at full size.", "Wild cards may not be melded on their own: "
                          "there are no wild canastas.")),
    # The opening
    Option("opening_by", "choice", "6.1", "what the opening minimum follows",
           _choice("opening_by", "Opening: "), choices={
               "round": "the opening minimum follows the round number",
               "score": "the opening minimum follows the team's game score",
           }),
    Option("opening_minimums", "ints", "6.1", "the opening minimum of each round",
           lambda r: "Opening minimums by round: " + ", ".join(
               f"round {i} {_n(m)}" for i, m in enumerate(r.opening_minimums, 1)) + "."),
    Option("opening_score_table", "score_table", "6.1",
           "the opening minimum by team score, where the opening follows the score",
           lambda r: "By team score (where the opening follows the score): "
           + "; ".join(f"from {_n(s)}, {_n(m)}" for s, m in r.opening_score_table) + ".",
           used=lambda r: r.opening_by == "score"),
    Option("opening_counts_bonuses", "bool", "6.2",
           "canastas finished in the opening count their bonus toward it",
           lambda r: _yes(r.opening_counts_bonuses, "The bonus of a canasta finished in the "
                          "opening lay-down counts toward the minimum.", "Canasta bonuses do "
                          "not count toward the opening."),
           off=False, since=3),
    Option("whole_hand_opening", "bool", "6.4", "melding the whole hand opens below the minimum",
           lambda r: _yes(r.whole_hand_opening, "A player who melds every card of the hand "
                          "while opening opens whatever the count, and goes on into the next "
                          "packet.", "Melding the whole hand opens only when it reaches the "
                          "minimum."),
           off=False, since=3),
    # Knee and foot
    Option("knee_pickup", "choice", "7.1", "when the knee is picked up",
           lambda r: ("There is no knee in this game." if len(r.packets) < 3 else
                      _choice("knee_pickup")(r)), choices={
               "team_first_canasta": "the knee is picked up when the team finishes its first "
               "canasta: the finisher at once, partners on their next turn after drawing",
               "when_empty": "the knee is picked up when the hand is empty, like the foot",
           }),
    Option("empty_before_knee", "choice", "7.2", "emptying the hand before the knee is available",
           lambda r: ("With no knee, emptying the hand early does not arise."
                      if len(r.packets) < 3 else "Emptying the hand before the knee: "
                      f"{_meaning('empty_before_knee', r.empty_before_knee)}."), choices={
               "forbidden": "a player may not empty the hand before the knee is available",
               "take_knee": "a player who empties the hand early picks up the knee like a foot",
           }),
    Option("foot_replaces_draw", "bool", "7.3",
           "a packet reached by a discard replaces the next turn's draw",
           lambda r: _yes(r.foot_replaces_draw, "A player whose discard emptied a packet plays "
                          "the next packet on the next turn without drawing.", "A player whose "
                          "discard emptied a packet draws as usual on the next turn."),
           off=False, since=3),
    # Going out
    Option("quota", "kinds", "8.1", "the canastas a team needs to go out",
           lambda r: "To go out the team needs these canastas: "
           + ", ".join(f"{n} {kind}" for kind, n in r.quota if n) + "."),
    Option("special_fills_clean", "bool", "8.2", "a spare rank canasta counts as a clean one",
           lambda r: _yes(r.special_fills_clean, "A spare rank canasta (such as 7s) counts as "
                          "a clean one.", "A spare rank canasta (such as 7s) does not count as "
                          "a clean one.")),
    Option("clean_fills_dirty", "bool", "8.2", "a spare clean canasta counts as a dirty one",
           lambda r: _yes(r.clean_fills_dirty, "A spare clean canasta counts as a dirty one.",
                          "A clean canasta does not count as a dirty one.")),
    Option("partner_in_foot", "choice", "8.4", "what partners' packets must be to go out",
           _choice("partner_in_foot", "Partners: "), choices={
               "no": "partners' packets do not matter for going out",
               "in_foot": "every partner must have picked up their foot",
               "played_from_foot": "every partner must have played at least part of a turn "
               "from their foot",
           }),
    Option("permission", "bool", "8.5", "a player asks the partner before going out",
           lambda r: _yes(r.permission, "A player in a team asks the partner \"may I go out?\" "
                          "first; a no binds for the turn.", "Nobody asks permission to go "
                          "out.")),
    Option("permission_yes", "choice", "8.5", "what a partner's yes means",
           _choice("permission_yes", "Where a player asks, "), choices={
               "binding": "a partner's yes obliges the player to go out that turn",
               "allows": "a partner's yes allows going out that turn without forcing it",
           }, since=2, before="allows"),
    Option("last_card", "choice", "8.6", "how going out may end",
           _choice("last_card", "The last card: "), choices={
               "meld_or_discard": "going out by melding every card or by discarding the last "
               "one",
               "discard": "going out must end with a discard",
           }),
    Option("strip_bare", "bool", "7.5",
           "the foot's last card may be discarded without going out",
           lambda r: _yes(r.strip_bare, "A player in the foot who may not go out may still "
                          "discard the last card: the turn ends with no cards held, and the "
                          "player draws and plays on next turn; a meld empties the foot only "
                          "to go out.", "A player empties the foot only by going out, and "
                          "keeps cards back until allowed to."),
           off=False, since=4),
    Option("going_out_bonus", "int", "10.6", "what going out scores",
           lambda r: f"Going out scores {_n(r.going_out_bonus)}."),
    Option("final_lap", "choice", "8.7", "whether going out gives the others one more turn",
           _choice("final_lap", "Going out: "), choices={
               "never": "going out ends the round at once",
               "meld_out": "going out by melding the last card, with no discard, gives every "
               "other player one more turn before the round is scored",
               "always": "going out, by a meld or a discard, gives every other player one more "
               "turn before the round is scored",
           }, off="never", since=3),
    Option("stock_out", "choice", "9.1", "what happens when the stock runs out",
           _choice("stock_out", "When the stock runs out, "), choices={
               "end_of_turn": "the round ends at the end of the turn in which the stock runs "
               "out",
               "cannot_draw": "the round ends when the player to move finds the stock empty",
               "pile_only": "with the stock empty, play goes on while players take the pile; "
               "the round ends when the player to move cannot or will not",
               "nobody_takes": "with the stock empty, each player in turn may take the pile or "
               "pass; the round ends when every player in a row has passed or could not take it",
               "reshuffle": "the pile, all but its top card, is shuffled into a new stock and "
               "play goes on; the round ends only when the pile has no card to spare",
           }),
    # Off at 1: it counts only under stock_out = "reshuffle" (decision D24).
    Option("max_reshuffles", "int", "9.3", "the most times a round's pile becomes a new stock",
           lambda r: "Where the pile is reshuffled into a new stock, "
           + ("once a round at most." if r.max_reshuffles == 1 else
              f"at most {r.max_reshuffles} times a round."),
           off=1, since=3),
    Option("turn_cap", "int", "9.2", "turns after which a round ends as it lies",
           lambda r: f"A round that reaches {_n(r.turn_cap)} turns ends as it lies."),
    # Scoring
    Option("canasta_bonus", "kinds", "10.2", "what each kind of canasta scores",
           lambda r: f"Canasta bonuses: {_kinds(r.canasta_bonus)}."),
    Option("canasta_pennies", "int", "5.6",
           "cards set aside from the stock when a canasta is finished",
           _pennies, off=0, since=2),
    Option("exact_cut_bonus", "int", "10.7", "what cutting exactly a packet's cards scores",
           lambda r: ("No bonus for an exact cut." if not r.exact_cut_bonus else
                      f"Cutting exactly a packet's cards scores {_n(r.exact_cut_bonus)}."),
           off=0),
    Option("knee_reminder_penalty", "int", "10.7",
           "what reminding a player of the knee costs",
           lambda r: ("No penalty for reminding a player of the knee."
                      if not r.knee_reminder_penalty else "Reminding a player to pick up the "
                      f"knee costs {_n(r.knee_reminder_penalty)}."),
           off=0),
    Option("over_meld_penalty", "int", "10.7",
           "what a wild card melded beyond the limits costs",
           lambda r: ("No penalty for an over-melded wild card." if not r.over_meld_penalty
                      else "A wild card melded beyond the limits, found after the turn, costs "
                      f"{_n(r.over_meld_penalty)}."),
           off=0),
)

BY_KEY: Mapping[str, Option] = MappingProxyType({o.key: o for o in OPTIONS})
# The labels: they name the rules and are no rule of their own.
LABELS = tuple(o.key for o in OPTIONS if o.clause is None)
# Choices of every enumerated option, with what each value means (`rules show`, the web form).
CHOICES: dict[str, dict[str, str]] = {o.key: dict(o.choices) for o in OPTIONS
                                      if o.kind == "choice"}
# Which clause of docs/RULES.md each option belongs to.
OPTION_CLAUSE: dict[str, str] = {o.key: o.clause for o in OPTIONS if o.clause is not None}


def off_values() -> dict[str, Any]:
    """Every option that a house rule turns on, off: what a preset plays unless its document
    says otherwise (presets.py starts from it)."""
    return {o.key: o.off for o in OPTIONS if o.off is not None}


def added_since(version: int) -> dict[str, Any]:
    """The options a record of format ``version`` did not know, as such records were played."""
    return {o.key: o.played_before for o in OPTIONS if o.since > version}
