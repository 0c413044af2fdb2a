"""The text of each numbered clause of docs/RULES.md, for the browser table's "Why?".

docs/RULES.md is not installed with the package, so its clauses travel as a data file beside
this module (``rule_texts.json``), made from the document by ``scripts/rule-texts``; a test keeps
the two in step.  Every refusal names a clause (handfoot.clauses), and the page shows its text.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

_HEADING = re.compile(r"^### (\d+\.\d+(?:\.\d+)?) (.+)$")
# A clause may also be cited by a sub-number the document keeps in its text (8.5.4): the
# nearest numbered heading above it is what a reader opens.
_SUB = re.compile(r"^(\d+\.\d+)\.\d+$")


def parse(markdown: str) -> dict[str, dict[str, str]]:
    """Each ``### N.M Title`` section of the rules document: its title and its text (the
    Markdown up to the next heading, blank lines between paragraphs kept)."""
    out: dict[str, dict[str, str]] = {}
    clause: str | None = None
    title = ""
    body: list[str] = []

    def close() -> None:
        if clause is not None:
            out[clause] = {"title": title, "text": "\n".join(body).strip()}

    for line in markdown.splitlines():
        m = _HEADING.match(line)
        if m or line.startswith(("# ", "## ")):
            close()
            clause, title, body = (m.group(1), m.group(2).strip(), []) if m else (None, "", [])
            continue
        if clause is not None:
            body.append(line.rstrip())
    close()
    return out


@cache
def texts() -> dict[str, dict[str, str]]:
    data = resources.files(__package__).joinpath("rule_texts.json").read_text("utf-8")
    loaded: dict[str, dict[str, str]] = json.loads(data)
    return loaded


def clause_text(clause: str) -> dict[str, Any] | None:
    """``{"clause", "title", "text"}`` for a clause or a sub-clause of one; None if the rules
    have no such clause."""
    known = texts()
    found = clause if clause in known else None
    if found is None and (m := _SUB.match(clause)) and m.group(1) in known:
        found = m.group(1)
    if found is None:
        return None
    return {"clause": found, **known[found]}
