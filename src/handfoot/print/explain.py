"""The complete rules of any configuration in plain words, laid out as a page.

The words are the core's (handfoot.rulebook: every option's sentence under the clause of
docs/RULES.md it belongs to, house rules marked); this module groups the clauses into sections,
names the rule documents and formats the page as text or Markdown.
"""

from __future__ import annotations

import textwrap

from handfoot.rulebook import clauses, marked, summary_line
from handfoot.rules import Rules

SECTIONS = {
    "1": "Cards", "2": "Setting up", "3": "A turn", "4": "Taking the pile", "5": "Melds",
    "6": "The opening", "7": "Knee and foot", "8": "Going out", "9": "The end of a round",
    "10": "Scoring",
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

