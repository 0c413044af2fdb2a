"""The rules in words, clause by clause: what ``handfoot rules explain``, the printed rules card,
the web table's rules and the terminal game say.

Every option's sentence comes from the table of options (options.py), under the clause of
docs/RULES.md it belongs to; clauses that no option changes have a fixed sentence here.  An
option that differs from the preset the rules are built on is marked as a house rule, with what
the preset says.  Laying the clauses out as a page is print/explain.py's.
"""

from __future__ import annotations

from .clauses import CLAUSES
from .options import OPTIONS
from .presets import preset
from .rules import Rules, RulesError

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


def decks_words(n: int) -> str:
    """``1 deck``, ``5 decks``."""
    return f"{n} deck" + ("" if n == 1 else "s")


_SENTENCES = {o.key: o.sentence for o in OPTIONS if o.sentence is not None}


def sentence(key: str, rules: Rules) -> str:
    """One option's sentence for these rules."""
    return _SENTENCES[key](rules)


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
    for key, said in _SENTENCES.items():
        if getattr(before, key) != getattr(rules, key):
            out[key] = said(before)
    return out


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
    for option in OPTIONS:
        if option.clause is None or option.sentence is None:
            continue  # a label: it names the rules
        if (option.key not in changed and option.used is not None
                and not option.used(rules)):
            continue  # a line about a setting these rules never consult only misleads
        said = option.sentence(rules)
        if option.key in changed:
            was = changed[option.key].rstrip(".")
            said += f" (house rule; the preset says: {was[0].lower()}{was[1:]})"
        by_clause.setdefault(option.clause, []).append(said)
    out = []
    for number, title in CLAUSES.items():
        sentences = ([FIXED[number]] if number in FIXED else []) + by_clause.get(number, [])
        if sentences:
            out.append((number, title, sentences))
    return out
