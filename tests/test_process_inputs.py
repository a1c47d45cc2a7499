"""Issue 34, items 9, 10, 12 and 13: numbers, seeds, seats and output folders, each refused with
one line (exit 2 on the command line) before any work is done.

- 9: NaN and the infinities, wherever a number is read (`analyze --work nan` ran every solve on
  nan work: every decision "best"); the JSON loaders already refuse them (test_json_numbers).
- 10: seeds from 0 (`random.Random(-k)` deals as `random.Random(k)`: `whatif --seed -3 --games
  6` counted six games of which four were distinct); seeds from 0 deal today's games.
- 12: `DreamhomeSpielBot(5)` on a 2-player game, accepted until its first `step`.
- 13: `whatif --out exp --records` with `exp/records` a file, found only after the first games.
"""

from __future__ import annotations

import json
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamhome.errors import DreamhomeError
from dreamhome.game.state import GameState
from dreamhome.game.values import GameStateError
from dreamhome.seeds import check_seed
from tests.helpers.cli import run_here
from tests.helpers.paths import GOLDEN

NOT_FINITE = ["nan", "NaN", "inf", "-inf", "Infinity", "-Infinity", "+nan", "1e999"]


def _one_line(proc, *words: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("value", NOT_FINITE)
def test_analyze_refuses_work_that_is_not_a_finite_number(value: str) -> None:
    """Item 9, as reported: `analyze --work nan` (and inf, 1e999) is one line, exit 2."""
    _one_line(run_here("analyze", GOLDEN / "two_players_kids.json", "--work", value), "--work")


@pytest.mark.parametrize("value", NOT_FINITE)
def test_every_float_option_refuses_what_is_not_finite(value: str) -> None:
    """Item 9: every other float option of the command line (the seconds of --time-limit)."""
    from tests.helpers.paths import EXAMPLES

    _one_line(run_here("optimize", EXAMPLES / "endgame.json", "--time-limit", value), "--time-limit")


def test_every_float_option_of_every_command_is_read_as_a_finite_number() -> None:
    """Item 9 as a class: no float option of any command is a plain float or click.FloatRange
    (both take nan); each is `FiniteRange` or `Seconds`, which refuse nan and the infinities."""
    import click

    from dreamhome.cli import main
    from dreamhome.cli.options import FiniteRange, Seconds

    def commands(group: click.Command, path: str):
        yield path, group
        for name, sub in getattr(group, "commands", {}).items():
            yield from commands(sub, f"{path} {name}")

    loose = []
    for path, command in commands(main, "dreamhome"):
        for param in command.params:
            kind = param.type
            if isinstance(kind, (click.types.FloatParamType, click.FloatRange)) and not isinstance(kind, (FiniteRange, Seconds)):
                loose.append(f"{path} {param.name}")
    assert loose == []


def test_the_solver_settings_refuse_what_is_not_finite() -> None:
    """Item 9 in the library: nan passed every range check and CP-SAT took it as no bound."""
    from dreamhome.engine.cpsat import SolveSettings

    for value in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError, match="finite"):
            SolveSettings(deterministic_time=value)
        with pytest.raises(ValueError, match="finite"):
            SolveSettings(time_limit=value)
    assert SolveSettings(deterministic_time=0.1).deterministic_time == 0.1


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--seed", "-3"],
        ["play", "--bots", "human,greedy", "--seed", "-1"],
        ["whatif", "base", "--seed", "-3", "--games", "6"],
        ["report", "--seed", "-1", "--games", "2"],
    ],
)
def test_a_negative_seed_is_refused_on_the_command_line(args: list[str], tmp_path) -> None:
    """Item 10, as reported (`whatif --seed -3 --games 6`, `report --seed -1`) and `play`."""
    if args[0] == "report":
        args = [*args, "--out", str(tmp_path / "report")]
    _one_line(run_here(*args), "--seed", "from 0")
    assert not (tmp_path / "report").exists()


def test_negative_seeds_did_repeat_positive_games() -> None:
    """Why item 10 refuses them: the shuffle of seed -k is the shuffle of seed k."""
    for k in (1, 3, 12345):
        assert random.Random(-k).random() == random.Random(k).random()


def test_a_game_state_refuses_a_negative_seed(base) -> None:
    """Item 10 in the library, so a record or a table start body with one is refused too."""
    with pytest.raises(GameStateError, match="seed"):
        GameState(base, 2, -1)


def test_a_record_with_a_negative_seed_is_refused(tmp_path) -> None:
    """Item 10: a record (hand-made: none is made with one any more) replays no negative seed."""
    from dreamhome.game.record import record_digest

    data = json.loads((GOLDEN / "two_players_kids.v2.json").read_text(encoding="utf-8"))
    data["seed"] = -data["seed"] - 1
    data["digest"] = record_digest(data)
    path = tmp_path / "negative.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    _one_line(run_here("replay", path), "seed")


def test_an_experiment_refuses_a_negative_seed() -> None:
    from dreamhome.whatif.experiment import build_experiment

    with pytest.raises(DreamhomeError, match="--seed"):
        build_experiment(["base"], games=2, players=2, bots=None, seed=-1, chunk=1)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=-(10**30), max_value=10**30) | st.booleans() | st.floats(allow_nan=True) | st.text(max_size=3))
def test_check_seed_accepts_exactly_the_whole_numbers_from_0(value) -> None:
    """Item 10 as a property over every value: a seed is an int (not a bool) from 0."""
    valid = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    try:
        assert check_seed(value) == value and valid
    except DreamhomeError as exc:
        assert not valid and "\n" not in str(exc)


def test_seeds_from_0_deal_the_games_they_always_dealt(base) -> None:
    """Item 10: the check changes nothing for seeds from 0 — the deals are those of the golden
    record/2 files, made before it (their events replay)."""
    from dreamhome.game.record import load_record, replay_record

    for name in ("four_players.v2.json", "two_players_kids.v2.json", "three_players_car.v2.json"):
        data = load_record(GOLDEN / name)
        assert data["seed"] >= 0
        replay_record(data)


def test_the_spiel_bot_refuses_a_seat_the_game_does_not_have() -> None:
    """Item 12: seat 5 of a 2-player game is refused when the bot is made (the game given), or
    when OpenSpiel starts it in the game (`restart_at`, before any move), with one line."""
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    from dreamhome.openspiel.game import DreamHomeGame
    from dreamhome.players.spiel_bot import DreamhomeSpielBot

    game = DreamHomeGame({"players": 2})
    with pytest.raises(ValueError, match="not a seat of this 2-player game") as made:
        DreamhomeSpielBot(5, "greedy", game=game)
    assert "\n" not in str(made.value)
    for seat in (-1, True, 16, "0"):
        with pytest.raises(ValueError, match="not a seat"):
            DreamhomeSpielBot(seat, "greedy")  # type: ignore[arg-type]
    bots = [UniformRandomBot(0, np.random.RandomState(1)), DreamhomeSpielBot(5, "greedy")]
    with pytest.raises(ValueError, match="not a seat of this 2-player game"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(2))
    assert DreamhomeSpielBot(1, "greedy", game=game).player_id() == 1


@pytest.mark.parametrize(
    ("make", "named"),
    [
        (lambda out: (out / "records").write_text("a file"), "records"),
        (lambda out: (out / "chunks").write_text("a file"), "chunks"),
        (lambda out: (out / "results.json").mkdir(), "results.json"),
        (lambda out: (out / "scores.svg").mkdir(), "scores.svg"),
        (lambda out: (out / "records").symlink_to(out / "nowhere"), "records"),
    ],
)
def test_whatif_refuses_an_output_it_could_not_write_before_any_game(tmp_path, make, named: str) -> None:
    """Item 13, as reported: `exp/records` a file stopped `whatif --records` with "File exists"
    after its first games, naming nothing. Now every output of the folder is checked first:
    one line naming the path, exit 2, in well under the time of one game, and nothing played
    (no manifest, no chunk)."""
    out = tmp_path / "exp"
    out.mkdir()
    make(out)
    before = sorted(p.name for p in out.iterdir())
    started = time.monotonic()
    proc = run_here("whatif", "base", "--games", "50", "--chunk", "1", "--workers", "1", "--out", out, "--records")
    line = _one_line(proc, f"exp/{named}")
    assert time.monotonic() - started < 30, line
    assert sorted(p.name for p in out.iterdir()) == before


def test_report_refuses_an_output_it_could_not_write_before_any_game(tmp_path) -> None:
    """Item 13 for `report`: its pages are checked before its games, not after them."""
    out = tmp_path / "rep"
    (out / "report.html").mkdir(parents=True)
    _one_line(run_here("report", "--games", "2", "--players", "2", "--no-cards", "--out", out), "rep/report.html")
    assert sorted(p.name for p in out.iterdir()) == ["report.html"]


@pytest.mark.parametrize("width", ["nan", "inf", "-1", "0", "1.5"])
def test_report_precision_refuses_what_is_no_interval_width(width: str, tmp_path) -> None:
    """`--precision nan` passed the (0, 1] range check (NaN compares false with both bounds) and
    the report stopped at once as if every interval were narrow enough: now one line, exit 2."""
    _one_line(run_here("report", "--precision", width, "--games", "2", "--out", str(tmp_path / "r")), "--precision")


@pytest.mark.parametrize("width", [float("nan"), float("inf"), -1.0, 0.0, True, "0.1"])
def test_check_precision_refuses_what_is_no_width(width: object) -> None:
    from dreamhome.report.run import check_precision

    with pytest.raises(DreamhomeError, match="--precision"):
        check_precision(width)
    assert check_precision(0.04) == 0.04 and check_precision(1) == 1.0


def test_every_library_bot_maker_refuses_a_negative_seed() -> None:
    """Item 10 past the command line: the roster, the report's plan, OpenSpiel's bot wrapper
    refuse -1 (it would replay seed 1's bots and deals) and accept 0."""
    from dreamhome.players.roster import make_bot
    from dreamhome.report.plan import build_plan

    with pytest.raises(DreamhomeError, match="from 0"):
        make_bot("random", -1, 0)
    assert make_bot("random", 0, 0) is not None
    with pytest.raises(DreamhomeError, match="--seed.*from 0"):
        build_plan(rules_path=None, seed=-1, games=2, cards=False)
    assert build_plan(rules_path=None, seed=0, games=2, chunk=2, cards=False).seed == 0
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    from dreamhome.players.spiel_bot import DreamhomeSpielBot

    with pytest.raises(ValueError, match="seed.*from 0") as refused:
        DreamhomeSpielBot(0, "greedy", seed=-1)
    assert "\n" not in str(refused.value)
    assert DreamhomeSpielBot(0, "greedy", seed=0).player_id() == 0


def test_report_summary_prints_the_rules_file_name_as_written(tmp_path) -> None:
    """A ruleset's name is the user's path: the summary once echoed it raw, so an ANSI escape in
    it would repaint the terminal. It is now printed escaped (\\x1b), markup left as written."""
    from tests.helpers.paths import EXAMPLES

    name = tmp_path / "[bold]x\x1b[31m.dh"
    name.write_bytes((EXAMPLES / "my_rules.dh").read_bytes())
    quick = ("--games", "2", "--no-cards", "--players", "2", "--bots", "random")
    proc = run_here("report", "--rules", str(name), *quick, "--out", str(tmp_path / "r"))
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout
    title = next(line for line in proc.stdout.splitlines() if line.startswith("Balance report:"))
    assert title == f"Balance report: {str(name).replace(chr(27), chr(92) + 'x1b')}", title
