"""The lessons (docs/WEB.md, "Lessons"): every lesson under every preset it belongs to has a
known line the engine accepts and that reaches its goal; a wrong move is refused naming its
clause; a legal move that misses the goal says so; the words come from the clause texts of
docs/RULES.md; and the HTTP endpoints answer as docs/PROTOCOL.md says."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from handfoot.presets import PRESET_NAMES, preset
from handfoot.print.explain import clauses
from handfoot.record import Record, load_record, record_to_json, replay
from handfoot.server import lessons as L
from handfoot.views import view
from server_helpers import Server

CASES = [(name, lesson.id) for name in PRESET_NAMES for lesson in L.LESSONS
         if lesson.applies(preset(name))]


def _each_lesson_once_fast() -> list[Any]:
    """CASES, each lesson under the first preset that has it in a development run and under
    every preset in the full run."""
    seen: set[str] = set()
    out: list[Any] = []
    for name, lesson_id in CASES:
        out.append((name, lesson_id) if lesson_id not in seen
                   else pytest.param(name, lesson_id, marks=pytest.mark.slow))
        seen.add(lesson_id)
    return out


LESSON_CASES = _each_lesson_once_fast()

# A wrong move for each lesson (after the steps before it) and the clause that refuses it.
MISTAKES: dict[str, tuple[list[str], str, str]] = {
    "draw-discard": ([], "discard B3", "3.5"),  # draw before you discard
    "melds-wilds": (["draw"], "lay A A", "5.1"),  # two cards are no meld
    "canastas": (["draw"], "lay K K 2", "5.6"),  # eight cards: over the canasta
    "opening": (["draw"], "lay K K K, 5 5 5", "6.1"),  # 45 is short of 90
    "pile": ([], "take-pile with 2", "4.3"),  # the pair must be natural
    "red-threes": ([], "discard R3", "3.5"),
    "black-threes": ([], "discard B3", "3.5"),
    "foot": (["draw"], "lay Q Q", "5.1"),
    "knee": ([], "take-pile", "4.3"),  # one 9 does not take the pile
    "going-out": (["draw"], "lay Q Q", "5.1"),
    "asking": (["draw"], "lay Q Q Q Q Q Q 2, 8 8", "7.5.3"),  # not asked yet
    "scoring": (["draw"], "lay Q Q", "5.1"),
}


def test_every_preset_has_ten_lessons_or_more_and_the_knee_only_in_knee_games() -> None:
    for name in PRESET_NAMES:
        rules = preset(name)
        ids = [x["id"] for x in L.listing(rules)]
        assert len(ids) >= 10, (name, ids)
        assert ("knee" in ids) == (len(rules.packets) == 3), name
        assert ("asking" in ids) == rules.permission, name
    assert set(MISTAKES) == {lesson.id for lesson in L.LESSONS}


@pytest.mark.parametrize(("name", "lesson_id"), LESSON_CASES)
def test_the_known_solution_reaches_the_goal(name: str, lesson_id: str) -> None:
    lesson = L.BY_ID[lesson_id]
    steps = lesson.solution(preset(name))
    # Every step on the way is accepted, and the goal is reached only at the end.
    for n in range(len(steps)):
        out = L.play(lesson_id, name, steps[:n + 1])
        assert "refusal" not in out, (steps[:n + 1], out.get("refusal"))
        assert out["status"] == ("done" if n == len(steps) - 1 else "playing"), (n, out)
    assert out["actions"] == steps
    start = L.play(lesson_id, name, [])
    assert start["status"] == "playing" and start["legal"]
    assert start["view"]["seat"] == 0 and start["view"]["actor"] == 0


@pytest.mark.parametrize(("name", "lesson_id"), LESSON_CASES)
def test_every_position_and_solution_is_a_scenario_record_replay_accepts(
        name: str, lesson_id: str) -> None:
    # A lesson is a scenario record (docs/RECORD-FORMAT.md): its deal, the prelude and the
    # solution written as one and read back are checked by replay as `handfoot replay` does.
    rules = preset(name)
    lesson = L.BY_ID[lesson_id]
    game = L.build(rules, lesson.position(rules))
    for text in lesson.solution(rules):
        game.apply(text)
        while game.phase.value == "answer":
            game.apply("answer yes")
    text = record_to_json(Record.from_game(game, description=lesson.title))
    result = replay(load_record(text))
    assert result.ok, (result.illegal, result.mismatches)
    assert view(result.game, 0) == view(game, 0)


@pytest.mark.parametrize(("name", "lesson_id"), LESSON_CASES)
def test_a_wrong_move_is_refused_naming_its_clause(name: str, lesson_id: str) -> None:
    before, wrong, clause = MISTAKES[lesson_id]
    out = L.play(lesson_id, name, [*before, wrong])
    assert out["status"] == "refused"
    refusal = out["refusal"]
    assert refusal["clause"] == clause, refusal
    assert refusal["title"] and refusal["reason"]
    # The steps before it stand: the position is the one the learner was in.
    assert out["actions"] == before


def test_a_legal_move_that_misses_the_goal_says_so_in_the_games_words() -> None:
    out = L.play("pile", "hand-and-foot", ["draw", "discard 4"])
    assert out["status"] == "missed"
    assert out["missed"].startswith("That is legal, but it doesn't reach the goal: you drew")
    assert out["legal"] == []


def test_scoring_ends_with_the_engines_score_sheet() -> None:
    rules = preset("hand-knee-foot")
    out = L.play("scoring", rules.name, L.BY_ID["scoring"].solution(rules))
    assert out["status"] == "done"
    assert out["scores"][0].startswith("round 1 over: You went out")
    assert any("round score" in line for line in out["scores"])
    assert out["view"]["results"]


def test_the_partner_answers_and_the_answer_is_told() -> None:
    out = L.play("asking", "hand-and-foot-13", ["draw", "ask"])
    assert out["status"] == "playing"
    assert out["view"]["asked"] == "yes"
    assert any("yes" in line for line in out["said"]), out["said"]


def test_the_words_are_the_clause_texts_of_the_rules() -> None:
    for name in PRESET_NAMES:
        rules = preset(name)
        explained = {n: (t, s) for n, t, s in clauses(rules, None)}
        for item in L.listing(rules):
            lesson = L.describe_lesson(item["id"], name)
            assert 2 <= len(lesson["intro"]) <= 3
            for c in lesson["clauses"]:
                title, sentences = explained[c["number"]]
                assert (c["title"], c["sentences"]) == (title, sentences)
    # The opening minimum shown is the rules' own.
    club = L.describe_lesson("opening", "hand-knee-foot-club")
    assert "90" in " ".join(club["intro"])
    assert L.describe_lesson("opening", "hand-and-foot")["start"]["view"]["minimum"] == 90


def test_bad_requests_get_one_clear_error() -> None:
    with pytest.raises(L.LessonError, match="unknown preset"):
        L.play("draw-discard", "poker", [])
    with pytest.raises(L.LessonError, match="no lesson"):
        L.play("juggling", None, [])
    with pytest.raises(L.LessonError, match="not part of hand-and-foot"):
        L.play("knee", "hand-and-foot", [])
    with pytest.raises(L.LessonError, match="was refused"):
        L.play("draw-discard", None, ["discard B3", "draw"])
    with pytest.raises(L.LessonError, match="at most"):
        L.play("draw-discard", None, ["draw"] * 50)
    with pytest.raises(L.LessonError, match="the lesson is over"):
        L.play("draw-discard", None, ["draw", "discard B3", "draw"])
    out = L.play("draw-discard", None, ["drow"])
    assert out["status"] == "refused" and "unknown action" in out["refusal"]["reason"]


# ====================================================================== HTTP
def call(server: Server, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server.base}{path}", data=data,
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_the_lessons_over_http(server: Server) -> None:
    with urllib.request.urlopen(f"{server.base}/lessons", timeout=10) as response:
        assert response.status == 200
        assert "lessons.js" in response.read().decode()
        assert "content-security-policy" in response.headers
    status, listing = call(server, "/api/lessons?rules=hand-knee-foot")
    assert status == 200 and "knee" in [x["id"] for x in listing["lessons"]]
    status, lesson = call(server, "/api/lessons/opening?rules=hand-and-foot")
    assert status == 200 and lesson["clauses"][0]["number"] == "6.1"
    assert lesson["start"]["view"]["hand"]
    status, out = call(server, "/api/lessons/opening",
                       {"rules": "hand-and-foot", "actions": ["draw", "lay K K K, 5 5 5"]})
    assert status == 200 and out["refusal"]["clause"] == "6.1"
    status, out = call(server, "/api/lessons/opening",
                       {"rules": "hand-and-foot",
                        "actions": ["draw", "lay K K K, A A A, 5 5 5"]})
    assert status == 200 and out["status"] == "done"
    for path, body, code, want in [
        ("/api/lessons?rules=poker", None, 400, "rules"),
        ("/api/lessons/knee?rules=hand-and-foot", None, 404, "not_found"),
        ("/api/lessons/opening", {"actions": "draw"}, 400, "bad_message"),
        ("/api/lessons/opening", [1], 400, "bad_json"),
        ("/api/lessons/opening", {"rules": 5}, 400, "rules"),
    ]:
        status, out = call(server, path, body)
        assert (status, out["error"]["code"]) == (code, want), (path, out)
