"""The bot levels (issue 25): `easy`, `medium`, `hard` wherever a bot is named, the easy bot's
place between the greedy and the random bot, and the strongest bot as OpenSpiel's `pyspiel.Bot`.

Small seeded counts: the full measure is benchmarks/bench_levels.py (docs/PERFORMANCE.md)."""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import Action
from dreamhome.game.observation import Observation
from dreamhome.game.state import GameState
from dreamhome.players.bots import GreedyBot, RandomBot, SolverBot
from dreamhome.players.easy_bot import EasyBot
from dreamhome.players.hard_bot import HardBot
from dreamhome.players.roster import BOT_NAMES, LEVELS, make_bot
from tests.helpers.cli import run_here
from tests.helpers.duel import duel

LEVEL_NAMES = ("easy", "medium", "hard")


def test_the_levels_are_the_documented_bots() -> None:
    """medium is the solver bot itself (same class, same random stream), hard the hard bot,
    easy the easy bot; the old names still make their bots."""
    assert tuple(LEVELS) == LEVEL_NAMES
    assert type(make_bot("medium", 3, 1)) is SolverBot and type(make_bot("solver", 3, 1)) is SolverBot
    assert isinstance(make_bot("hard", 3, 1), HardBot) and isinstance(make_bot("easy", 3, 1), EasyBot)
    assert type(make_bot("greedy", 3, 1)) is GreedyBot and type(make_bot("random", 3, 1)) is RandomBot
    assert BOT_NAMES[:3] == LEVEL_NAMES and {"random", "greedy", "solver"} <= set(BOT_NAMES)


def test_an_unknown_bot_is_one_line_listing_the_levels() -> None:
    with pytest.raises(DreamhomeError) as err:
        make_bot("expert", 1, 0)
    text = str(err.value)
    assert "\n" not in text and all(level in text for level in LEVEL_NAMES)
    proc = run_here("play", "--bots", "human,expert")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert all(level in proc.stderr for level in LEVEL_NAMES)


@pytest.mark.parametrize(
    ("bots", "said"),
    [
        ("hard", "name one per seat"),  # "me against hard": one seat is no game
        ("expert", "unknown bot 'expert'"),  # a single unknown name is named, not counted
        ("", "unknown bot ''"),
        ("hard@5", "unknown bot 'hard@5'"),
    ],
)
def test_play_says_what_is_wrong_with_its_bots(bots: str, said: str) -> None:
    proc = run_here("play", "--bots", bots, "--seed", "1")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and said in proc.stderr, proc.stderr


def test_whatif_takes_its_players_from_its_bots(tmp_path: Path) -> None:
    """As `play`: three names are three players, without --players."""
    proc = run_here("whatif", "base", "--games", "1", "--bots", "easy,medium,hard", "--json", "--out", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["experiment"]["players"] == 3


def test_play_help_names_the_levels() -> None:
    proc = run_here("play", "--help")
    assert proc.returncode == 0 and all(level in proc.stdout for level in LEVEL_NAMES)


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_every_level_plays_and_replays_from_the_command_line(level: str, tmp_path: Path) -> None:
    """`play --bots LEVEL,greedy --record` plays a whole game, its record names the level as
    chosen, and `replay` checks the record."""
    path = tmp_path / "game.json"
    proc = run_here("play", "--bots", f"{level},greedy", "--seed", "4", "--record", path, "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["bots"] == [level, "greedy"] and len(summary["scores"]) == 2
    assert json.loads(path.read_text())["bots"] == [level, "greedy"]
    replayed = run_here("replay", path)
    assert replayed.returncode == 0, replayed.stderr


@pytest.mark.slow
def test_every_level_sits_at_the_terminal(tmp_path: Path) -> None:
    """`play --bots human,LEVEL`: a person at the terminal (always option 1) plays a whole game
    against each level, and the record names the seats as given."""
    for level in LEVEL_NAMES:
        path = tmp_path / f"{level}.json"
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "dreamhome",
                "play",
                "--bots",
                f"human,{level}",
                "--seed",
                "2",
                "--no-review",
                "--record",
                str(path),
            ],
            input="1\n" * 600,
            capture_output=True,
            text=True,
            env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "HOME": "/tmp"},
        )
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        record = json.loads(path.read_text())
        assert record["bots"] == ["human", level] and "finished" not in record


def test_every_level_plays_a_what_if(tmp_path: Path) -> None:
    """whatif's experiments take the levels as bots (one game of three seats, one per level)."""
    from dreamhome.whatif.experiment import build_experiment
    from dreamhome.whatif.runner import run_experiment

    exp = build_experiment(["base"], games=1, players=3, bots=list(LEVEL_NAMES), seed=1, chunk=1)
    results = run_experiment(exp, tmp_path / "out", executor_name="local", workers=1)
    assert [r["games"] for r in results["rulesets"]] == [1]


@pytest.mark.slow
def test_the_levels_make_a_report_ladder(tmp_path: Path) -> None:
    """`report --bots easy,medium,hard`: the levels as the skill ladder, each rung played."""
    proc = run_here(
        "report", "--players", "2", "--games", "2", "--heavy-games", "1", "--bots", "easy,medium,hard", "--out", tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    ladder = json.loads((tmp_path / "report.json").read_text())["ladder"]
    assert [(rung["weaker"], rung["stronger"]) for rung in ladder] == [("easy", "medium"), ("medium", "hard")]
    assert all(rung["games"] >= 1 and rung["crashed"] == 0 for rung in ladder)


def test_medium_plays_the_solver_bots_game() -> None:
    """A level is a name: medium's games are the solver bot's, seed for seed (the record keeps
    the name chosen, the game is the same)."""
    medium = run_here("play", "--bots", "medium,greedy", "--seed", "9", "--json")
    solver = run_here("play", "--bots", "solver,greedy", "--seed", "9", "--json")
    a, b = json.loads(medium.stdout), json.loads(solver.stdout)
    assert a["scores"] == b["scores"] and a["houses"] == b["houses"]


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_every_level_sits_at_the_browser_table(level: str, tmp_path: Path) -> None:
    """The web store takes each level for a seat, the options list it with a label in the
    page's language, and a whole game is played with the person always taking option 0."""
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
    from tests.helpers.table import acted, client, start

    c = client(tmp_path)
    options = c.get("/api/options", params={"lang": "fr"}).json()
    assert level in options["bots"] and options["texts"][f"table.level.{level}"] != level
    view = start(c, [level])
    for _ in range(500):
        if view["terminal"]:
            break
        view = acted(c, view, 0) if view["your_turn"] else view
    assert view["terminal"] and len(view["houses"]) == 2


def test_every_locale_labels_every_level() -> None:
    """A new page text is in all four catalogues, each in its own words."""
    folder = Path(__file__).resolve().parent.parent / "dreamhome" / "locales"
    catalogues = {p.stem: json.loads(p.read_text(encoding="utf-8"))["text"] for p in folder.glob("*.json")}
    assert len(catalogues) == 4
    for level in LEVEL_NAMES:
        labels = {lang: texts[f"table.level.{level}"] for lang, texts in catalogues.items()}
        assert len(set(labels.values())) == 4, labels


def test_a_level_seat_is_named_in_the_pages_language() -> None:
    """The page's "{bot} bot (seat N)" names a level in the page's language, its short name
    beginning the menu's label; another bot keeps its name."""
    from types import SimpleNamespace

    from dreamhome.i18n import text
    from dreamhome.web.store import Settings
    from dreamhome.web.view import seat_label

    game: Any = SimpleNamespace(settings=Settings(seats=("person", "hard", "greedy"), variant="", seed=1))  # all it reads
    for lang in ("en", "fr", "hu", "ru"):
        short = text("table.level_short.hard", lang)
        assert text("table.level.hard", lang).startswith(short)
        assert short in seat_label(game, 1, lang, you=0)
        assert "greedy" in seat_label(game, 2, lang, you=0)


def _duel(a: str, b: str, seed: int, seat: int) -> float:
    """A 2-player game of `a` (at `seat`) against `b`: 1 won, ½ tied, 0 lost (tests/helpers/duel.py,
    the game benchmarks/bench_levels.py measures the levels by)."""
    return duel((a, b, seed, seat))


def _interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def test_the_easy_bot_is_deterministic_per_seed() -> None:
    def events(seed: int) -> list[dict]:
        bots = [make_bot("easy", seed, 0), make_bot("easy", seed, 1)]
        state = GameState(compile_rules(), 2, seed)
        while not state.is_terminal():
            bot = bots[state.current_player()]
            state.apply_action(bot.choose(state.observation(), state.legal_actions()))
        return state.events

    assert events(21) == events(21)


@pytest.mark.slow
def test_the_easy_bot_sits_between_random_and_greedy() -> None:
    """Over 40 seeded 2-player games each, the easy bot's win rate is below one half against
    the greedy bot and above it against the random bot, the 95% intervals clear of each other
    (the newcomer it stands for plays between those two)."""
    games = 40
    against_greedy = _interval([_duel("easy", "greedy", 700 + g, g % 2) for g in range(games)])
    against_random = _interval([_duel("easy", "random", 700 + g, g % 2) for g in range(games)])
    assert against_greedy[1] < 0.5 < against_random[0], (against_greedy, against_random)


def test_the_strongest_bot_is_a_pyspiel_bot() -> None:
    """OpenSpiel's own `evaluate_bots` seats the hard bot against its uniform random bot for a
    whole game; the returns are the dreamhome engine's for the same deals and moves (the
    decisions replayed on a plain `GameState` with the same deals stacked)."""
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    from dreamhome.openspiel.game import DreamHomeGame, game_space, resource_kinds
    from dreamhome.players.spiel_bot import DreamhomeSpielBot

    game = DreamHomeGame({"players": 2})
    state = game.new_initial_state()
    hard = DreamhomeSpielBot(0)
    assert isinstance(hard, pyspiel.Bot) and isinstance(hard.bot, HardBot)
    returns = evaluate_bots.evaluate_bots(state, [hard, UniformRandomBot(1, np.random.RandomState(3))], np.random.RandomState(5))
    assert state.is_terminal()

    # The same game on the engine alone: walk the history, dealing each chance outcome onto the
    # decks (GameState.stack_deal) when a deal is complete and playing each decision.
    rules = compile_rules()
    space = game_space(game)
    g = rules.game
    walk = game.new_initial_state()
    engine: GameState | None = None
    first: int | None = None
    rooms: list[int] = []
    res: list = []
    pending: Action | None = None
    for number in state.history():
        if walk.is_chance_node():
            dealing = "first" if first is None else ("room" if len(rooms) < g.deal_rooms else "res")
            if dealing == "first":
                first = number
            elif dealing == "room":
                rooms.append(rules.rooms[number].code)
            else:
                res.append(resource_kinds(rules)[number])  # the chance outcomes' order of resource kinds
            if len(rooms) == g.deal_rooms and len(res) == g.deal_resources:
                if engine is None:
                    engine = GameState(rules, 2, 0, first, first_deal=(rooms, res))
                else:
                    assert pending is not None  # a later deal follows the move that ended a round
                    engine.stack_deal(rooms, res)
                    engine.apply_action(pending)
                    pending = None
                rooms, res = [], []
        else:
            assert engine is not None
            move = space.action(number)
            assert move in engine.legal_actions()
            if engine.round < engine.child(move).round <= g.rounds:
                pending = move  # a round ends: its next deal comes first (ROUND-2)
            else:
                engine.apply_action(move)
        walk.apply_action(number)
    assert engine is not None and engine.is_terminal()
    assert sum(1 for e in engine.events if e.get("player") == 0 and not e.get("forced")) > g.rounds  # the bot played
    assert returns == [float(s) for s in engine.returns()] == state.returns()


class SeenBot(GreedyBot):
    """The greedy bot, keeping the type of every argument it is given (the SEE-1 test below)."""

    name = "seen"
    seen: list[type] = []

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        SeenBot.seen.append(type(obs))
        return super().choose(obs, legal)


def test_the_pyspiel_bot_hands_its_bot_only_the_observation() -> None:
    """SEE-1: seated through OpenSpiel, a bot is given the player's `Observation` at each of its
    decisions, never OpenSpiel's state nor the game state (which hold the decks)."""
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    from dreamhome.openspiel.game import DreamHomeGame
    from dreamhome.players.spiel_bot import DreamhomeSpielBot

    SeenBot.seen.clear()
    game = DreamHomeGame({"players": 2})
    bots = [UniformRandomBot(0, np.random.RandomState(1)), DreamhomeSpielBot(1, "tests.test_levels:SeenBot", seed=4)]
    evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(2))
    assert SeenBot.seen and set(SeenBot.seen) == {Observation}
