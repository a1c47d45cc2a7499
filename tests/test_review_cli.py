"""`dreamhome analyze` as a user runs it (issue 23): the table, JSON that validates against
dreamhome/schemas/review.schema.json, the annotated page, a folder of records summed by bot
and seat, bad input as one line with exit 2 — and `replay` still verifies the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamhome.game.record import write_record
from dreamhome.players.playing import play_game
from tests.helpers.cli import run_here
from tests.helpers.review_games import short_rules, short_rules_file

jsonschema = pytest.importorskip("jsonschema")

WORK = "0.02"
"""`analyze --work`: each solve's deterministic time in these tests of the command's outputs and
formats (the review's own numbers at its default work: tests/test_review.py, and the README's
`analyze` in tests/test_readme.py)."""

ROUNDS = 3
"""The games reviewed here have 3 rounds (tests/helpers/review_games.py): each has its rounds'
decisions, its end game and a marked decision, and its review costs a fifth of a 12-round game's.
The commands read a record's rules from the record, so a short game is a record like any other."""


def _validator():
    from importlib.resources import files

    schema = json.loads(files("dreamhome.schemas").joinpath("review.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two short seeded games (ROUNDS) of the greedy and the solver bot, as record files."""
    folder = tmp_path_factory.mktemp("games")
    rules = short_rules(ROUNDS)
    write_record(play_game(rules, 2, ["greedy", "solver"], 4), folder / "a.json")
    write_record(play_game(rules, 2, ["solver", "greedy"], 5), folder / "b.json")
    return folder


@pytest.mark.slow
def test_analyze_prints_the_table_and_the_summary(records: Path) -> None:
    proc = run_here("analyze", records / "a.json", "--work", WORK)
    assert proc.returncode == 0, proc.stderr
    assert "accuracy" in proc.stdout and "luck" in proc.stdout
    assert "player 0 (greedy)" in proc.stdout and "player 1 (solver)" in proc.stdout


@pytest.mark.slow
def test_analyze_json_validates_and_replay_still_verifies(records: Path, tmp_path: Path) -> None:
    path = records / "a.json"
    before = path.read_bytes()
    proc = run_here("analyze", path, "--json", "--html", tmp_path / "review.html", "--work", WORK)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    _validator().validate(data)
    assert [p["seat"] for p in data["players"]] == [0, 1]
    assert {"seat", "bot", "accuracy", "mean_loss", "blunders", "luck"} <= set(data["players"][0])
    assert {"seat", "round", "chosen", "best", "loss", "mark"} <= set(data["decisions"][0])
    assert path.read_bytes() == before
    replay = run_here("replay", path)
    assert replay.returncode == 0 and "every event verified" in replay.stdout
    page = (tmp_path / "review.html").read_text(encoding="utf-8")
    assert 'id="review-chart"' in page and "<polyline" in page
    assert "Content-Security-Policy" in page
    marked = [d for d in data["decisions"] if d["mark"] not in (None, "best")]
    assert marked  # the page's annotation is read on at least one marked decision
    for d in marked:
        assert f"— {d['mark']}: −{d['loss']:g}" in page


@pytest.mark.slow
def test_a_folder_is_summed_by_bot_and_seat(records: Path) -> None:
    proc = run_here("analyze", records, "--json", "--work", WORK)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    _validator().validate(data)
    assert data["games"] == 2
    assert set(data["by_bot"]) == {"greedy", "solver"} and set(data["by_seat"]) == {"0", "1"}
    assert data["by_bot"]["solver"]["games"] == 2
    from rich.console import Console

    from dreamhome.render.review_text import batch_table

    console = Console(width=160, record=True)
    for table in batch_table(data, "fr"):
        console.print(table)
    shown = console.export_text()
    assert "par bot" in shown and "par place" in shown and "solver" in shown


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{tmp}/missing.json"], "missing.json"),
        (["{tmp}/not_a_record.json"], "not a game record"),
        (["{a}", "{a}", "--html", "{tmp}/x.html"], "--html annotates one record"),
        (["{empty}"], "no record"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(records: Path, tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "not_a_record.json").write_text('{"format": "other"}', encoding="utf-8")
    (tmp_path / "empty").mkdir()
    args = [a.format(a=records / "a.json", empty=tmp_path / "empty", tmp=tmp_path) for a in args]
    proc = run_here("analyze", *args)
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert not (tmp_path / "x.html").exists()


def test_an_edited_record_is_refused(records: Path, tmp_path: Path) -> None:
    data = json.loads((records / "a.json").read_text(encoding="utf-8"))
    data["events"][3]["text"] = "something else"
    (tmp_path / "edited.json").write_text(json.dumps(data), encoding="utf-8")
    proc = run_here("analyze", tmp_path / "edited.json", "--html", tmp_path / "out.html")
    assert proc.returncode == 2 and "does not match" in proc.stderr
    assert not (tmp_path / "out.html").exists()


@pytest.mark.slow
def test_review_md_python_example_runs() -> None:
    import re

    from tests.helpers.paths import ROOT

    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / "docs" / "REVIEW.md").read_text(encoding="utf-8"), re.M | re.S)
    assert len(blocks) == 1
    namespace: dict[str, object] = {"__name__": "docs_review"}
    exec(compile(blocks[0], "docs/REVIEW.md", "exec"), namespace)  # noqa: S102 - the docs' own code
    assert "<svg" in str(namespace["page"]) and namespace["worst"]


@pytest.mark.slow
def test_a_finished_game_with_a_person_at_the_table_is_reviewed() -> None:
    """The hooks the terminal seat and the browser table call at a game's end (a person's seat
    is named "human" in the record): summary lines in the person's language, the annotated page
    (a short game, ROUNDS: the hooks' texts and markup are read, not the review's numbers)."""
    from dreamhome.game.record import GameResult
    from dreamhome.render.review_page import review_html
    from dreamhome.render.review_text import summary_lines
    from dreamhome.review import review_game

    played = play_game(short_rules(ROUNDS), 2, ["greedy", "solver"], 4)
    result = GameResult(played.state, ("human", "<b>x</b>"))  # a hostile name stays text
    # Once, at WORK (the hooks' texts and markup are read here, not the review's numbers): the
    # terminal seat prints its summary, the table draws its page.
    review = review_game(result, float(WORK))
    lines = summary_lines(review, "hu")
    assert len(lines) == 2 and lines[0].startswith("0. játékos (human)")
    page = review_html(review, "ru")
    assert 'id="review-chart"' in page and "Достижимый итоговый счёт" in page
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page


@pytest.mark.slow
def test_a_whatifs_games_are_reviewed_from_its_folder(tmp_path: Path) -> None:
    """Issue 23, batch: `whatif --records` keeps each game's record beside the experiment (the
    numbers the same as without), and `analyze OUT` reviews them, each record the game its seed
    plays; a what-if folder without records is one line and exit 2."""
    from dreamhome.game.record import GameResult, load_record

    plain, kept = tmp_path / "plain", tmp_path / "kept"
    # Greedy and random bots (no look-ahead: the games cost nothing beside their reviews), short
    # games (ROUNDS, the rules in use by `--rules`, its `kids` variant the base file's) and the
    # reviews at WORK: this test is about the folder's plumbing, not the numbers.
    rules_file = short_rules_file(tmp_path, ROUNDS)
    args = ["--rules", rules_file, "whatif", "base", "kids", "--games", "2", "--players", "2", "--bots", "greedy,random"]
    args += ["--seed", "40"]
    assert run_here(*args, "--executor", "local", "--chunk", "1", "--out", plain).returncode == 0
    assert (
        run_here(*args, "--executor", "processes", "--workers", "2", "--chunk", "1", "--out", kept, "--records").returncode == 0
    )
    assert json.loads((plain / "results.json").read_text()) == json.loads((kept / "results.json").read_text())
    files = sorted(p.name for p in (kept / "records").iterdir())
    assert files == [f"ruleset{r}-game{g:07d}.json" for r in (0, 1) for g in (0, 1)]
    same = GameResult(play_game(short_rules(ROUNDS), 2, ["greedy", "random"], 41).state, ("greedy", "random")).record()
    assert load_record(kept / "records" / "ruleset0-game0000001.json")["events"] == same["events"]
    proc = run_here("analyze", kept, "--json", "--work", WORK)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    _validator().validate(data)
    assert data["games"] == 4 and set(data["by_bot"]) == {"greedy", "random"}
    proc = run_here("analyze", plain)
    assert proc.returncode == 2 and "--records" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    proc = run_here("whatif", "base", "--games", "1", "--records")
    assert proc.returncode == 2 and "--out" in proc.stderr
