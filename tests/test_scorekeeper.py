"""The scorekeeper: the documents' worked rounds, every check, edits and their history,
export, interactive entry from piped input, and the SQLite file itself."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from handfoot.cli.main import main
from handfoot.presets import preset
from handfoot.scorekeeper import ScoreError
from handfoot.scorekeeper.entry import check_round, read_round
from handfoot.scorekeeper.game import make_seating
from handfoot.scorekeeper.store import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TEAMS = ["--team", "Ann & Bob", "--team", "Cy & Di"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def new_game(capsys: pytest.CaptureFixture[str], db: Path, rules: str, *extra: str) -> None:
    code, _, err = run(capsys, "score", "new", "--rules", rules, *TEAMS, "--db", str(db),
                       *extra)
    assert code == 0, err


def write(tmp_path: Path, text: str, name: str = "round.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------- the worked examples
@pytest.mark.parametrize(("rules", "example", "score", "lines"), [
    ("hand-knee-foot", "score-hkf-12245.toml", 12245,
     {"melded cards": 460, "7s canastas x1": 5000, "5s canastas x1": 3000,
      "wild canastas x1": 2500, "clean canastas x1": 500, "dirty canastas x1": 300,
      "red threes laid x3": 300, "going out": 200, "cards left in foot": -15}),
    ("hand-and-foot", "score-hf-1935.toml", 1935,
     {"melded cards": 350, "clean canastas x2": 1000, "dirty canastas x1": 300,
      "red threes laid x2": 200, "going out": 100, "cards left in foot": -15}),
])
def test_worked_examples_reproduce(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   rules: str, example: str, score: int,
                                   lines: dict[str, int]) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db, rules)
    code, out, err = run(capsys, "score", "add", "1", "--file", str(EXAMPLES / example),
                         "--db", str(db), "--json")
    assert code == 0, err
    data = json.loads(out)
    ann = data["round"]["teams"][0]
    assert ann["total"] == score
    assert {ln["label"]: ln["points"] for ln in ann["lines"]} == lines
    assert ann["went_out"] == "Bob"
    assert data["totals"] == [score, 0]
    assert data["next_minimums"] == [90, 90]
    code, out, _ = run(capsys, "score", "show", "1", "--db", str(db))
    assert f"{score:,}" in out and "Round 2 of 4: initial minimum Ann & Bob 90" in out


# ---------------------------------------------------------------- the checks
HKF = preset("hand-knee-foot")
SEATS = make_seating(HKF, ["Ann & Bob", "Cy & Di"])
FULL = {"7s": 1, "5s": 1, "wild": 1, "clean": 1, "dirty": 1}


def refusal(rules_name: str, ann: dict[str, object], cy: dict[str, object] | None = None) -> str:
    rules = preset(rules_name)
    seats = make_seating(rules, ["Ann & Bob", "Cy & Di"])
    try:
        _, entries = read_round(rules, seats, {"teams": [ann, cy or {}]})
        check_round(rules, seats, entries, 1)
    except ScoreError as err:
        return str(err)
    raise AssertionError("the entry was accepted")


def test_going_out_without_the_quota_is_refused() -> None:
    message = refusal("hand-knee-foot", {"canastas": {"clean": 1, "dirty": 1, "7s": 1},
                                        "melded_points": 400, "went_out": "Bob"})
    assert "went out without the canastas needed" in message and "1 5s" in message


def test_quota_uses_the_engines_assignment() -> None:
    # A second 7s canasta fills the clean requirement (special_fills_clean, D2).
    rules = preset("hand-knee-foot")
    _, entries = read_round(rules, SEATS, {"teams": [
        {"canastas": {"7s": 2, "5s": 1, "wild": 1, "dirty": 1}, "melded_points": 1000,
         "went_out": "Bob"}, {}]})
    check_round(rules, SEATS, entries, 1)


def test_dirty_canasta_of_a_rank_without_wild_cards_is_refused() -> None:
    message = refusal("hand-knee-foot", {"canastas": {"dirty 5s": 1}, "melded_points": 200})
    assert "5s take no wild cards" in message


def test_wild_canasta_without_wild_melds_is_refused() -> None:
    message = refusal("hand-and-foot-13", {"canastas": {"wild": 1}, "melded_points": 200})
    assert "no wild canastas" in message


def test_more_red_threes_than_the_shoe_holds_is_refused() -> None:
    message = refusal("hand-and-foot", {"red_threes_laid": 7},
                      {"red_threes_laid": 3, "players": [{"red_threes_held": 1}]})
    assert "11 red threes" in message and "5 decks hold only 10" in message


def test_going_out_player_with_cards_left_is_refused() -> None:
    message = refusal("hand-and-foot", {"canastas": {"clean": 1, "dirty": 1},
                                        "melded_points": 200, "went_out": "Bob",
                                        "players": [{}, {"foot": 10}]})
    assert "Bob went out, so has no cards left" in message and "10 points in the foot" in message


def test_melded_points_below_the_canastas_are_refused() -> None:
    message = refusal("hand-and-foot", {"canastas": {"clean": 2}, "melded_points": 60})
    assert "fewer than the 2 canastas alone must hold: at least 70" in message


def test_penalties_the_rules_do_not_have_are_refused() -> None:
    assert "no over-melded wild card penalty" in refusal("hand-and-foot", {"over_meld": 1})
    assert "charge nothing for reminding" in refusal("hand-and-foot", {"knee_reminders": 1})
    assert "no exact-cut bonus" in refusal("hand-and-foot", {"exact_cuts": 1})


def test_two_teams_going_out_is_refused() -> None:
    both = {"canastas": {"clean": 1, "dirty": 1}, "melded_points": 100, "went_out": True}
    assert "only one player goes out" in refusal("hand-and-foot", both, dict(both))


def test_penalties_and_exact_cut_score() -> None:
    rules = preset("hand-knee-foot")
    _, entries = read_round(rules, SEATS, {"teams": [
        {"knee_reminders": 1, "other_penalties": [{"points": 50, "reason": "table talk"}]},
        {}]})
    from handfoot.scorekeeper.entry import tally
    from handfoot.scoring import score_team, total
    assert total(score_team(rules, tally(rules, entries[0]))) == -1050
    classic = preset("hand-and-foot-classic")
    seats = make_seating(classic, ["A & B", "C & D"])
    _, entries = read_round(classic, seats, {"teams": [{"exact_cuts": 1}, {}]})
    assert total(score_team(classic, tally(classic, entries[0]))) == 100
    h13 = preset("hand-and-foot-13")
    _, entries = read_round(h13, seats, {"teams": [{"over_meld": 1}, {}]})
    assert total(score_team(h13, tally(h13, entries[0]))) == -100


def test_bad_input_names_the_field_and_loses_nothing(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db, "hand-and-foot")
    bad = write(tmp_path, '[[teams]]\ncanastas = { clean = "two" }\n[[teams]]\n')
    code, _, err = run(capsys, "score", "add", "1", "--file", bad, "--db", str(db))
    assert code == 2 and "canastas.clean" in err and "Traceback" not in err
    knee = write(tmp_path, '[[teams]]\n[[teams.players]]\nknee = 5\n[[teams]]\n', "k.toml")
    code, _, err = run(capsys, "score", "add", "1", "--file", knee, "--db", str(db))
    assert code == 2 and "no knee" in err
    code, out, _ = run(capsys, "score", "show", "1", "--db", str(db), "--json")
    assert json.loads(out)["rounds"] == []


# ---------------------------------------------------------------- edits and history
def test_edit_rescores_and_keeps_history(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db, "hand-and-foot")
    run(capsys, "score", "add", "1", "--file", str(EXAMPLES / "score-hf-1935.toml"),
        "--db", str(db))
    code, out, err = run(capsys, "score", "edit", "1", "1", "Ann & Bob", "--set",
                         "canastas.clean=3", "--set", "melded_points=420", "--db", str(db),
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["summary"]["totals"][0] == 1935 + 500 + 70
    assert {c["field"] for c in data["changes"]} == {"canastas.clean", "melded_points"}
    # A refused edit changes nothing.
    code, _, err = run(capsys, "score", "edit", "1", "1", "2", "--set", "canastas.dirty 5s=1",
                       "--set", "melded_points=100", "--set", "went_out=true", "--db", str(db))
    assert code == 2 and "only one player goes out" in err
    code, out, _ = run(capsys, "score", "history", "1", "--db", str(db), "--json")
    rows = json.loads(out)
    assert [r["field"] for r in rows] == ["*", "*", "canastas.clean", "melded_points"]
    clean = rows[2]
    assert (clean["old"], clean["new"], clean["team"]) == (2, 3, "Ann & Bob") and clean["at"]
    # The history is append-only in the file itself.
    with sqlite3.connect(db) as conn, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM edits")


# ---------------------------------------------------------------- storage and export
def test_sqlite_file_is_real_and_reopens(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    code, _, err = run(capsys, "score", "new", "--rules", "hand-knee-foot", *TEAMS,
                       "--name", "Friday")
    assert code == 0, err
    path = tmp_path / "data" / "handfoot" / "scores.sqlite3"
    assert path.is_file()
    run(capsys, "score", "add", "Friday", "--file", str(EXAMPLES / "score-hkf-12245.toml"))
    with sqlite3.connect(path) as conn:
        (entry,) = conn.execute("SELECT entry FROM entries WHERE round = 1 AND team = 0").fetchone()
    assert json.loads(entry)["canastas"]["7s"] == 1
    store = Store(path)
    game = store.load("friday")
    assert game.rules == preset("hand-knee-foot") and game.seating.players[0] == ("Ann", "Bob")
    assert game.rounds[1][0]["went_out"] == 2
    store.close()
    code, out, _ = run(capsys, "score", "list")
    assert "Friday" in out and "Ann & Bob vs Cy & Di" in out


def test_export_csv_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db, "hand-knee-foot")
    run(capsys, "score", "add", "1", "--file", str(EXAMPLES / "score-hkf-12245.toml"),
        "--db", str(db))
    out_csv, out_json = tmp_path / "g.csv", tmp_path / "g.json"
    code, _, err = run(capsys, "score", "export", "1", "--csv", str(out_csv), "--json",
                       str(out_json), "--db", str(db))
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    assert rows[0]["team"] == "Ann & Bob" and rows[0]["round_score"] == "12245"
    assert rows[0]["canastas 7s"] == "1" and rows[0]["melded_points"] == "460"
    assert rows[1]["running_total"] == "0"
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["totals"] == [12245, 0] and data["history"][0]["note"] == "round entered"
    assert data["rules_mapping"]["name"] == "hand-knee-foot"


def test_round_trips_through_a_round_file(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db, "hand-knee-foot")
    run(capsys, "score", "add", "1", "--file", str(EXAMPLES / "score-hkf-12245.toml"),
        "--db", str(db))
    code, text, _ = run(capsys, "score", "template", "1", "--round", "1", "--db", str(db))
    new_game(capsys, db, "hand-knee-foot")
    again = write(tmp_path, text.replace("round = 1\n", ""))
    code, out, err = run(capsys, "score", "add", "2", "--file", again, "--db", str(db),
                         "--json")
    assert code == 0, err
    assert json.loads(out)["totals"] == [12245, 0]


# ---------------------------------------------------------------- interactive entry
def test_interactive_add_reads_piped_stdin(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db, "hand-and-foot")
    answers = [
        # Ann & Bob: clean, dirty, wild canastas; red threes laid; melded; who went out
        "2", "1", "", "2", "K-8=14 jokers=2 2s-aces=3 7-4=5", "Bob",
        "", "15", "", "",  # Ann (Bob went out): hand, foot, red and black threes held
        "",  # other penalty points
        # Cy & Di: no canastas, nothing melded (going out is not asked again)
        "", "", "", "", "",
        "40", "", "", "1",  # Cy: 40 in hand, one black three
        "", "", "", "",  # Di
        "",
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    code, out, err = run(capsys, "score", "add", "1", "--db", str(db))
    assert code == 0, err
    assert "1,910" in out  # 325 melded + 1,300 books + 200 red threes + 100 out - 15
    code, out, _ = run(capsys, "score", "show", "1", "--db", str(db), "--json")
    data = json.loads(out)
    ann, cy = data["rounds"][0]["teams"]
    assert ann["went_out"] == "Bob"
    assert {ln["label"]: ln["points"] for ln in ann["lines"]}["melded cards"] == 140 + 100 + 60 + 25
    assert cy["total"] == -40 - 5


def test_interactive_add_stops_cleanly_and_keeps_a_draft(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db, "hand-knee-foot")
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nlots\n"))
    code, _, err = run(capsys, "score", "add", "1", "--db", str(db))
    assert code == 2 and "expected a whole number" in err and "Traceback" not in err
    # Answers that fail the checks are kept in a draft round file.
    answers = ["0", "0", "1", "0", "0", "0", "50", "Bob"] + [""] * 30
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    code, _, err = run(capsys, "score", "add", "1", "--db", str(db))
    assert code == 2 and "went out without the canastas" in err
    draft = tmp_path / "draft-game1-round1.toml"
    assert draft.is_file() and "went_out = \"Bob\"" in draft.read_text(encoding="utf-8")


# ---------------------------------------------------------------- templates read back
TEMPLATE_NAMES = [
    ("😀 & 🎉", "Zoë & José"),
    ("李 & 王", "Ünïcödé Crew"),
    ('Say "hi" & O\'Neil', "back\\slash & C:\\dir\\"),
    ("👩\u200d👩\u200d👧 family", "Øyvind, Ǆemal"),
    ("A" * 40 + " & " + "é" * 37, "ß/ﬁ"),
]


# The knee game's templates differ only by a packet: the full run reads them back too.
@pytest.mark.parametrize("rules", ["hand-and-foot",
                                   pytest.param("hand-knee-foot", marks=pytest.mark.slow)])
@pytest.mark.parametrize("teams", TEMPLATE_NAMES, ids=lambda t: "-".join(t)[:20])
def test_every_template_reads_back_with_its_names_in_utf8(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, rules: str,
        teams: tuple[str, str]) -> None:
    db = tmp_path / "s.db"
    code, _, err = run(capsys, "score", "new", "--rules", rules, "--team", teams[0], "--team",
                       teams[1], "--db", str(db))
    assert code == 0, err
    code, text, err = run(capsys, "score", "template", "1", "--db", str(db))
    assert code == 0, err
    assert "\\u" not in text  # names written as themselves, not escaped
    assert all(ch in text for team in teams for ch in team if ch not in '"\\')
    blank = tmp_path / "blank.toml"
    blank.write_bytes(text.encode("utf-8"))
    code, out, err = run(capsys, "score", "add", "1", "--file", str(blank), "--db", str(db),
                         "--json")
    assert code == 0, err
    assert [t["team"] for t in json.loads(out)["round"]["teams"]] == list(teams)
    # An entered round, as a file, reads back too (into a second game of the same teams).
    code, text, err = run(capsys, "score", "template", "1", "--round", "1", "--db", str(db))
    assert code == 0 and "\\u" not in text, err
    run(capsys, "score", "new", "--rules", rules, "--team", teams[0], "--team", teams[1],
        "--db", str(db))
    again = tmp_path / "again.toml"
    again.write_bytes(text.replace("round = 1\n", "").encode("utf-8"))
    code, out, err = run(capsys, "score", "add", "2", "--file", str(again), "--db", str(db))
    assert code == 0, err


def test_a_template_is_utf8_whatever_the_terminal_encoding(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    code, _, err = run(capsys, "score", "new", "--team", "Zoë & 李", "--team", "😀 & Bo",
                       "--db", str(db))
    assert code == 0, err
    raw = io.BytesIO()
    terminal = io.TextIOWrapper(raw, encoding="latin-1")
    monkeypatch.setattr("sys.stdout", terminal)
    assert main(["score", "template", "1", "--db", str(db)]) == 0
    terminal.flush()
    text = raw.getvalue().decode("utf-8")  # a round file is read as UTF-8
    assert 'name = "Zoë & 李"' in text and 'name = "😀"' in text


# ---------------------------------------------------------------- numbers past any game
HUGE = ["99999999999999999999999", "9" * 5000, "²", "١٢٣٤٥٦٧٨٩٠" * 3]


@pytest.mark.parametrize("argv", [
    pytest.param(["score", "show", "{n}"], id="show-GAME"),
    pytest.param(["score", "add", "{n}"], id="add-GAME"),
    pytest.param(["score", "history", "{n}"], id="history-GAME"),
    pytest.param(["score", "template", "{n}"], id="template-GAME"),
    pytest.param(["score", "export", "{n}", "--csv", "{dir}/x.csv"], id="export-GAME"),
    pytest.param(["score", "edit", "{n}", "1", "1", "--set", "melded_points=1"], id="edit-GAME"),
    pytest.param(["score", "edit", "1", "1", "{n}", "--set", "melded_points=1"], id="edit-TEAM"),
    pytest.param(["score", "edit", "1", "{n}", "1", "--set", "melded_points=1"],
                 id="edit-ROUND"),
    pytest.param(["score", "template", "1", "--round", "{n}"], id="template-round"),
    pytest.param(["score", "edit", "1", "1", "1", "--set", "players.{n}.foot=1"],
                 id="edit-player"),
    pytest.param(["score", "edit", "1", "1", "1", "--set", "went_out={n}"], id="edit-went-out"),
    pytest.param(["score", "edit", "1", "1", "1", "--set", "canastas.clean={n}"],
                 id="edit-count"),
    pytest.param(["print", "sheet", "{n}", "-o", "{dir}/x.pdf"], id="print-sheet-GAME"),
])
def test_a_game_round_team_or_player_number_past_any_is_one_clear_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db, "hand-and-foot")
    code, _, err = run(capsys, "score", "add", "1", "--file",
                       str(EXAMPLES / "score-hf-1935.toml"), "--db", str(db))
    assert code == 0, err
    for number in HUGE:  # 23 digits, 5,000 digits, a superscript, Arabic-Indic digits
        line = [a.format(n=number, dir=tmp_path) for a in argv]
        code, _, err = run(capsys, *line, "--db", str(db))
        assert code == 2, err
        assert err.startswith("handfoot: error: ") and err.count("\n") == 1, err
        assert "internal error" not in err and len(err) < 400


@pytest.mark.parametrize("name", ["round.toml", "round.json"])
def test_a_round_file_number_of_thousands_of_digits_is_one_clear_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    db = tmp_path / "s.db"
    new_game(capsys, db, "hand-and-foot")
    huge = "9" * 5000
    text = f"round = {huge}\n" if name.endswith(".toml") else f'{{"round": {huge}}}'
    code, _, err = run(capsys, "score", "add", "1", "--file", write(tmp_path, text, name),
                       "--db", str(db))
    assert code == 2 and err.startswith("handfoot: error: ") and err.count("\n") == 1, err
    assert "internal error" not in err and len(err) < 400



def test_one_deck_holds_agrees_with_its_count() -> None:
    """Refusals that count a shoe's threes read "1 deck holds", as "5 decks hold"."""
    from handfoot.scorekeeper.entry import _round_problems
    from handfoot.scorekeeper.game import make_seating

    rules = preset("hand-and-foot").replace(decks=1, packets=[5, 5])
    seating = make_seating(rules, ["Us", "Them"])
    held = {"red_threes_held": 3, "black_threes_held": 3}
    entries = [{"went_out": False, "red_threes_laid": 0, "players": [held]},
               {"went_out": False, "red_threes_laid": 0, "players": []}]
    lines = _round_problems(rules, seating, entries, shoe_threes=2)
    assert lines == ["3 red threes entered (laid and held), but 1 deck holds only 2",
                     "3 black threes held, but 1 deck holds only 2"]
