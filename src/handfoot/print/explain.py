"""The complete rules of any configuration in plain words, generated from the rules object.

Every option becomes a sentence under the clause of docs/RULES.md it belongs to; an option
that differs from the preset the rules are built on is marked as a house rule, with what the
preset says.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import fields

from handfoot.cards import KIND_NAMES, parse_kind, plural
from handfoot.clauses import CLAUSES
from handfoot.presets import preset
from handfoot.rules import CARD_VALUE_KEYS, CHOICES, UNLIMITED, Rules, RulesError

SECTIONS = {
    "1": "Cards", "2": "Setting up", "3": "A turn", "4": "Taking the pile", "5": "Melds",
    "6": "The opening", "7": "Knee and foot", "8": "Going out", "9": "The end of a round",
    "10": "Scoring",
}

# Which clause each option belongs to (as in docs/RULES.md).
OPTION_CLAUSE: dict[str, str] = {
    "card_values": "1.1", "players": "2.1", "team_size": "2.1", "decks": "2.2",
    "packets": "2.3", "red_threes": "2.4", "red_three_replacement": "2.4", "upcard": "2.5",
    "upcard_rejects": "2.5", "upcard_rejected": "2.5", "discard_after_pile": "3.5",
    "pile_take": "4.1", "pile_pair": "4.3", "pile_wild_top": "4.4",
    "pile_before_opening": "4.6", "meld_min": "5.1", "naturals_before_wild": "5.3",
    "max_wilds": "5.3", "wild_ratio": "5.3", "wilds_first": "5.3", "no_wild_ranks": "5.4",
    "wild_melds": "5.5", "canasta_size": "5.6", "add_to_canasta": "5.6", "opening_by": "6.1",
    "opening_minimums": "6.1", "opening_score_table": "6.1", "knee_pickup": "7.1",
    "empty_before_knee": "7.2", "quota": "8.1", "special_fills_clean": "8.2",
    "clean_fills_dirty": "8.2", "partner_in_foot": "8.4", "permission": "8.5",
    "permission_yes": "8.5", "canasta_pennies": "5.6",
    "last_card": "8.6", "stock_out": "9.1", "turn_cap": "9.2", "canasta_bonus": "10.2",
    "red_three_bonus": "10.3", "red_three_set_size": "10.3", "red_three_set_bonus": "10.3",
    "red_three_bonus_needs_canasta": "10.3", "red_three_penalty": "10.5",
    "black_three_penalty": "10.5", "going_out_bonus": "10.6", "exact_cut_bonus": "10.7",
    "knee_reminder_penalty": "10.7", "over_meld_penalty": "10.7", "rounds": "10.8",
    "jokers": "2.2", "draw_count": "3.2", "black_three_blocks": "4.2", "pile_onto_meld": "4.7",
    "pile_any_card": "4.8", "black_three_book": "5.7", "opening_counts_bonuses": "6.2",
    "whole_hand_opening": "6.4", "foot_replaces_draw": "7.3", "final_lap": "8.7",
    "max_reshuffles": "9.3", "pile_opening_checked": "4.6", "strip_bare": "7.5",
}
LABELS = ("name", "source")

# Options that some rules never consult: their sentence is left out there (a line about a
# table that is never looked at only misleads), unless a house rule changed them.
USED: dict[str, Callable[[Rules], bool]] = {
    "opening_score_table": lambda r: r.opening_by == "score",
}

# The presets' sources are the five written rule documents, by number (docs/RULES.md).
DOCUMENTS = {
    "000": "Hand, Knee and Foot",
    "001": "Triple Play",
    "002": "Hand and Foot, the card makers' version",
    "003": "Hand and Foot, a reference write-up with variants",
    "004": "Hand and Foot, a 13/13 guide",
}


def source_words(source: str) -> str:
    """``000 Hand, Knee and Foot`` as ``rule document 000 (Hand, Knee and Foot)``: the number
    alone means nothing to a reader who has not seen the list of documents."""
    number, _, rest = source.partition(" ")
    if number not in DOCUMENTS:
        return source
    return f"rule document {number}, {rest}" if rest else f"rule document {number}"


def documents_note(source: str) -> str:
    number = source.partition(" ")[0]
    return (f"Rule document {number} ({DOCUMENTS[number]}) is one of the five written "
            "sources the presets follow, numbered 000 to 004; docs/RULES.md lists them.")

# Clauses that no option changes, in a sentence each.
FIXED: dict[str, str] = {
    "1.2": "Every 2 and every joker is wild.",
    "1.3": "Threes are never melded with other cards or wild cards.",
    "2.6": "The deal passes one seat to the left each round; the player on the dealer's left "
    "plays first.",
    "3.1": "Turns pass to the left.",
    "3.3": "A red three drawn is laid at once where red threes are bonus cards.",
    "3.4": "After drawing, a player melds from their own hand onto the team's melds.",
    "3.5": "A turn ends when the player discards one card onto the pile. Discarding the last "
    "card of a packet brings the next one (7.3); discarding the last card of the foot goes "
    "out, where going out is allowed (8).",
    "4.2": "Nobody may take the pile while a red three is on top of it.",
    "4.5": "The top card and the pair join the team's open meld of that rank, or start one; "
    "the result must obey the meld rules.",
    "5.2": "Melds belong to the team; a team has one unfinished meld of a rank at a time.",
    # Canasta bonuses are the option opening_counts_bonuses's sentence, not said twice here.
    "6.2": "The opening counts the card values of the cards laid down that turn; red threes "
    "do not count.",
    "6.3": "A player whose opening falls short may take it back once per turn and meld no "
    "more that turn.",
    "7.3": "A player who plays every card of a packet picks up the next: at once after a "
    "meld, from the next turn after a discard. The last packet is the foot.",
    "7.4": "Red threes found in a packet just picked up are laid at once.",
    "8.3": "A player goes out only from the foot.",
    "10.1": "Every card in the team's melds scores its card value.",
    "10.4": "Every card still held (the packet in play and any not yet picked up) counts "
    "against the team at its card value.",
}


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


def _choice(key: str, lead: str = "") -> Callable[[Rules], str]:
    def sentence(r: Rules) -> str:
        text = f"{lead}{CHOICES[key][getattr(r, key)]}."
        return text[0].upper() + text[1:]
    return sentence


def _count(n: int) -> str:
    return ("one card", "two cards", "three cards")[n - 1] if 1 <= n <= 3 else f"{n} cards"


def decks_words(n: int) -> str:
    """``1 deck``, ``5 decks``."""
    return f"{n} deck" + ("" if n == 1 else "s")


def _yes(flag: bool, yes: str, no: str) -> str:
    return yes if flag else no


# Whole sentences: the option's meaning (rules.CHOICES) is written to stand alone in a list,
# not to follow a lead-in.
REPLACEMENT = {
    "always": "Every red three laid is replaced from the stock, wherever it was found.",
    "not_from_packets": "A red three laid is replaced when it was dealt in the hand or drawn, "
    "not when it is found in a knee or foot.",
    "first_packet_only": "A red three laid is replaced only while the player is still in the "
    "first packet.",
    "never": "A red three laid is never replaced.",
}

SENTENCES: dict[str, Callable[[Rules], str]] = {
    "card_values": lambda r: f"Card values: {_values(r)}.",
    "players": lambda r: f"{r.players} players.",
    "team_size": lambda r: (f"They play in {r.teams} teams of {r.team_size}, partners "
                            "sitting apart." if r.team_size > 1 else "Everyone plays alone."),
    "decks": lambda r: (f"{r.decks} decks are shuffled together" if r.decks > 1
                        else "1 deck is shuffled") + f" ({r.shoe_size} cards).",
    "jokers": lambda r: ("The decks have no jokers." if not r.jokers else
                         f"Each deck has {r.jokers} jokers."),
    "draw_count": lambda r: f"A turn starts by drawing {_count(r.draw_count)} from the stock "
    "(what is left if fewer), or by taking the pile.",
    "black_three_blocks": lambda r: _yes(
        r.black_three_blocks, "A black three on top blocks the pile until another card "
        "covers it.", "A black three on top does not block the pile: it is taken as the rules "
        "below allow (a book of black threes, or picking the pile up)."),
    "pile_onto_meld": lambda r: _yes(
        r.pile_onto_meld, "The pile may also be taken by adding its top card alone to one of "
        "the team's open melds of its rank.", "The top card alone never takes the pile."),
    "pile_any_card": lambda r: _yes(
        r.pile_any_card, "The pile may also be picked up into the hand when any card of it can "
        "be melded at once: the next meld must use one, and before the opening every picked-up "
        "card melded counts toward the minimum.",
        "The pile is never picked up just because another card of it could be melded."),
    "black_three_book": lambda r: _yes(
        r.black_three_book, f"A player in the foot may meld {r.canasta_size} black threes at "
        "once as a book, a clean canasta.", "Black threes are never melded, not even as a "
        "book of their own."),
    "opening_counts_bonuses": lambda r: _yes(
        r.opening_counts_bonuses, "The bonus of a canasta finished in the opening lay-down "
        "counts toward the minimum.", "Canasta bonuses do not count toward the opening."),
    "whole_hand_opening": lambda r: _yes(
        r.whole_hand_opening, "A player who melds every card of the hand while opening opens "
        "whatever the count, and goes on into the next packet.",
        "Melding the whole hand opens only when it reaches the minimum."),
    "foot_replaces_draw": lambda r: _yes(
        r.foot_replaces_draw, "A player whose discard emptied a packet plays the next packet "
        "on the next turn without drawing.", "A player whose discard emptied a packet draws "
        "as usual on the next turn."),
    "final_lap": _choice("final_lap", "Going out: "),
    "pile_opening_checked": lambda r: _yes(
        r.pile_opening_checked, "A pile taken before the team's opening must be able to reach "
        "the minimum with the cards in hand, checked when it is taken.", "A pile taken before "
        "the team's opening is checked only as it is melded: a short one is taken back (6.3)."),
    "strip_bare": lambda r: _yes(
        r.strip_bare, "A player in the foot who may not go out may still discard the last "
        "card: the turn ends with no cards held, and the player draws and plays on next turn; "
        "a meld empties the foot only to go out.", "A player empties the foot only by going "
        "out, and keeps cards back until allowed to."),
    "max_reshuffles": lambda r: (
        "Where the pile is reshuffled into a new stock, "
        + ("once a round at most." if r.max_reshuffles == 1 else
           f"at most {r.max_reshuffles} times a round.")),
    "packets": lambda r: "Each player is dealt " + ", ".join(
        f"a {name} of {n}" for name, n in zip(r.packet_names, r.packets, strict=True)) + ".",
    "red_threes": _choice("red_threes"),
    "red_three_replacement": lambda r: REPLACEMENT.get(
        r.red_three_replacement, _choice("red_three_replacement")(r)),
    "upcard": lambda r: _yes(r.upcard, "After the deal a card is turned up to start the pile.",
                             "No card is turned up: the pile starts with the first discard."),
    "upcard_rejects": lambda r: "These may not be the upcard: "
    f"{_cards(r.upcard_rejects)}.",
    "upcard_rejected": _choice("upcard_rejected", "When one turns up, "),
    "discard_after_pile": lambda r: _yes(
        r.discard_after_pile, "So does a turn that began by taking the pile.",
        "Except a turn that began by taking the pile: it ends with a knock, not a discard "
        "(3.6)."),
    "pile_take": lambda r: ("Taking the pile takes the whole pile." if r.pile_take == 0 else
                            "Taking the pile takes only its top card." if r.pile_take == 1 else
                            f"Taking the pile takes the top {r.pile_take} cards."),
    "pile_pair": _choice("pile_pair", "The pile is taken with "),
    "pile_wild_top": _choice("pile_wild_top"),
    "pile_before_opening": _choice("pile_before_opening",
                                   "Taking the pile before the team's opening: "),
    "meld_min": lambda r: f"A meld starts with {r.meld_min} cards of one rank.",
    "naturals_before_wild": lambda r: f"A meld needs "
    f"{plural(r.naturals_before_wild, 'natural card')} before it may hold a wild card.",
    "max_wilds": lambda r: ("A meld may hold any number of wild cards (no cap)."
                            if r.max_wilds == UNLIMITED else
                            f"A meld holds at most {plural(r.max_wilds, 'wild card')}."),
    "wild_ratio": lambda r: "No ratio of wild cards to naturals applies." if r.wild_ratio ==
    "none" else f"Wild cards and naturals: {CHOICES['wild_ratio'][r.wild_ratio]}.",
    "wilds_first": lambda r: _yes(
        r.wilds_first, "Wild cards may go into a meld ahead of its naturals.",
        "The wild-card limits hold at every step of a meld."),
    "no_wild_ranks": lambda r: ("Every rank may take wild cards." if not r.no_wild_ranks else
                                f"Melds of {_cards(r.no_wild_ranks)} never take wild cards."),
    "wild_melds": lambda r: _yes(r.wild_melds, "Wild cards may be melded on their own, "
                                 "making a wild canasta at full size.",
                                 "Wild cards may not be melded on their own: there are no "
                                 "wild canastas."),
    "canasta_size": lambda r: f"A meld of {r.canasta_size} cards is a canasta.",
    "add_to_canasta": _choice("add_to_canasta", "Adding to a canasta: "),
    "opening_by": _choice("opening_by", "Opening: "),
    "opening_minimums": lambda r: "Opening minimums by round: " + ", ".join(
        f"round {i} {_n(m)}" for i, m in enumerate(r.opening_minimums, 1)) + ".",
    "opening_score_table": lambda r: "By team score (where the opening follows the score): "
    + "; ".join(f"from {_n(s)}, {_n(m)}" for s, m in r.opening_score_table) + ".",
    "knee_pickup": lambda r: ("There is no knee in this game." if len(r.packets) < 3 else
                              _choice("knee_pickup")(r)),
    "empty_before_knee": lambda r: ("With no knee, emptying the hand early does not arise."
                                    if len(r.packets) < 3 else "Emptying the hand before the "
                                    f"knee: {CHOICES['empty_before_knee'][r.empty_before_knee]}."),
    "quota": lambda r: "To go out the team needs these canastas: "
    + ", ".join(f"{n} {kind}" for kind, n in r.quota if n) + ".",
    "special_fills_clean": lambda r: _yes(
        r.special_fills_clean, "A spare rank canasta (such as 7s) counts as a clean one.",
        "A spare rank canasta (such as 7s) does not count as a clean one."),
    "clean_fills_dirty": lambda r: _yes(
        r.clean_fills_dirty, "A spare clean canasta counts as a dirty one.",
        "A clean canasta does not count as a dirty one."),
    "partner_in_foot": _choice("partner_in_foot", "Partners: "),
    "permission": lambda r: _yes(r.permission, "A player in a team asks the partner \"may I "
                                 "go out?\" first; a no binds for the turn.",
                                 "Nobody asks permission to go out."),
    "permission_yes": _choice("permission_yes", "Where a player asks, "),
    "canasta_pennies": lambda r: ("No card is set aside when a canasta is finished."
                                  if not r.canasta_pennies else
                                  f"Each time a canasta is finished, {r.canasta_pennies} "
                                  f"card{'s' * (r.canasta_pennies != 1)} from the stock "
                                  "go face down beside it, out of play (pennies)."),
    "last_card": _choice("last_card", "The last card: "),
    "stock_out": _choice("stock_out", "When the stock runs out, "),
    "turn_cap": lambda r: f"A round that reaches {_n(r.turn_cap)} turns ends as it lies.",
    "canasta_bonus": lambda r: f"Canasta bonuses: {_kinds(r.canasta_bonus)}.",
    "red_three_bonus": lambda r: f"Each red three laid scores {_n(r.red_three_bonus)}.",
    "red_three_set_size": lambda r: ("No extra bonus for a set of red threes."
                                     if not r.red_three_set_size else
                                     f"A team that lays {r.red_three_set_size} or more red "
                                     "threes scores a set bonus."),
    "red_three_set_bonus": lambda r: f"The red-three set bonus is {_n(r.red_three_set_bonus)}.",
    "red_three_bonus_needs_canasta": lambda r: _yes(
        r.red_three_bonus_needs_canasta, "Red threes score only for a team with a canasta.",
        "Red threes score even for a team without a canasta."),
    "red_three_penalty": lambda r: f"A red three still held costs {_n(r.red_three_penalty)}.",
    "black_three_penalty": lambda r: "A black three still held costs "
    f"{_n(r.black_three_penalty)}.",
    "going_out_bonus": lambda r: f"Going out scores {_n(r.going_out_bonus)}.",
    "exact_cut_bonus": lambda r: ("No bonus for an exact cut." if not r.exact_cut_bonus else
                                  f"Cutting exactly a packet's cards scores "
                                  f"{_n(r.exact_cut_bonus)}."),
    "knee_reminder_penalty": lambda r: ("No penalty for reminding a player of the knee."
                                        if not r.knee_reminder_penalty else
                                        "Reminding a player to pick up the knee costs "
                                        f"{_n(r.knee_reminder_penalty)}."),
    "over_meld_penalty": lambda r: ("No penalty for an over-melded wild card."
                                    if not r.over_meld_penalty else "A wild card melded beyond "
                                    "the limits, found after the turn, costs "
                                    f"{_n(r.over_meld_penalty)}."),
    "rounds": lambda r: f"A game is {plural(r.rounds, 'round')}; the highest total wins.",
}


def _base_rules(base: str | None, players: int) -> Rules | None:
    if base is None:
        return None
    try:
        return preset(base, players)
    except RulesError:
        return None


def marked(rules: Rules, base: str | None) -> dict[str, str]:
    """Option -> the preset's sentence, for every option that differs from the preset."""
    before = _base_rules(base, rules.players)
    if before is None:
        return {}
    out = {}
    for f in fields(Rules):
        if f.name in LABELS:
            continue
        if getattr(before, f.name) != getattr(rules, f.name):
            out[f.name] = SENTENCES[f.name](before)
    return out


def _always(rules: Rules) -> bool:
    return True


def summary_line(rules: Rules) -> str:
    seats = (f"{rules.players} players in {rules.teams} teams" if rules.team_size > 1
             else f"{rules.players} players alone")
    packets = "+".join(str(n) for n in rules.packets)
    quota = ", ".join(f"{n} {kind}" for kind, n in rules.quota if n)
    return (f"{seats}; {packets} cards ({'/'.join(rules.packet_names)}); "
            f"{decks_words(rules.decks)}; "
            f"to go out: {quota}")


def clauses(rules: Rules, base: str | None) -> list[tuple[str, str, list[str]]]:
    """(clause number, title, sentences) in rule-book order; house rules carry their mark."""
    changed = marked(rules, base)
    by_clause: dict[str, list[str]] = {}
    for f in fields(Rules):
        if f.name in LABELS:
            continue
        if f.name not in changed and not USED.get(f.name, _always)(rules):
            continue
        sentence = SENTENCES[f.name](rules)
        if f.name in changed:
            was = changed[f.name].rstrip(".")
            sentence += f" (house rule; the preset says: {was[0].lower()}{was[1:]})"
        by_clause.setdefault(OPTION_CLAUSE[f.name], []).append(sentence)
    out = []
    for number, title in CLAUSES.items():
        sentences = ([FIXED[number]] if number in FIXED else []) + by_clause.get(number, [])
        if sentences:
            out.append((number, title, sentences))
    return out


def explain(rules: Rules, base: str | None = None, fmt: str = "text", width: int = 88) -> str:
    """The rules as text or Markdown."""
    changed = marked(rules, base)
    source = source_words(rules.source)
    head = f"{rules.name} - {source}"
    lines: list[str] = []
    if fmt == "markdown":
        lines += [f"# The rules: {rules.name}", "",
                  f"*{source[:1].upper()}{source[1:]}*. {summary_line(rules)}."]
    else:
        lines += [head, "=" * min(len(head), width), summary_line(rules) + "."]
    if source != rules.source:
        note = documents_note(rules.source)
        lines += ["", note] if fmt == "markdown" else ["", *textwrap.wrap(note, width)]
    if base is not None:
        note = (f"Built on the {base} preset; {len(changed)} house "
                f"rule{'s' if len(changed) != 1 else ''} marked." if changed else
                f"The {base} preset, unchanged.")
        lines += ["", note]
    section = ""
    for number, title, sentences in clauses(rules, base):
        top = number.split(".")[0]
        if top != section:
            section = top
            name = SECTIONS[top]
            lines += ["", f"## {name}" if fmt == "markdown" else f"{name}\n{'-' * len(name)}"]
        if fmt == "markdown":
            lines += ["", f"### {number} {title}", ""]
            lines += [f"- {s}" for s in sentences]
        else:
            lines.append(f"{number} {title}")
            for s in sentences:
                lines += textwrap.wrap(s, width, initial_indent="  - ",
                                       subsequent_indent="    ")
    return "\n".join(lines) + "\n"

