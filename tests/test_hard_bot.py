"""The hard level's bot (issue 25): what it changes from the solver bot, and its strength on a
small seeded count (the full measure: benchmarks/bench_strength.py, docs/PERFORMANCE.md)."""

from __future__ import annotations

import math
import statistics

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.game.actions import SwapWithTrack, TakeColumn
from dreamhome.game.state import GameState
from dreamhome.players.bots import SolverBot
from dreamhome.players.hard_bot import HardBot
from dreamhome.players.lookahead import MEDIUM, best_index, option_values
from dreamhome.players.roster import make_bot


def _game(names: list[str], seed: int) -> GameState:
    rules = compile_rules()
    bots = [make_bot(name, seed, seat) for seat, name in enumerate(names)]
    state = GameState(rules, len(names), seed)
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(bots[p].choose(state.observation(p, lookahead=bots[p].looks_ahead), state.legal_actions()))
    return state


def test_the_hard_bot_changes_two_documented_knobs_of_the_solver_bot() -> None:
    """Every column compared (a 4-player track has 5), and the look-ahead keeps the swap helpers
    (END-HANDYMAN, END-SUPPLIER) the solver bot drops."""
    rules = compile_rules()
    assert HardBot.settings.columns is None and SolverBot.settings.columns is not None  # None: every column
    assert rules.game.deal_rooms > SolverBot.settings.columns
    state = GameState(rules, 4, 3)
    obs = state.observation(0)
    swap_helpers = tuple(h.id for h in rules.helpers if h.effect("swap") is not None)
    assert swap_helpers  # the base game has them
    house = obs.houses[0]
    held = type(house)(**{**house.__dict__, "helpers": swap_helpers})
    assert HardBot(3, 0)._light(obs, held).helpers == swap_helpers
    assert SolverBot(3, 0)._light(obs, held).helpers == ()


def test_the_hard_bot_replays_its_games() -> None:
    """The same seed gives the same game (its CP-SAT work is bounded deterministically)."""
    names = ["hard", "greedy", "hard", "greedy"]
    assert _game(names, 41).events == _game(names, 41).events


@pytest.mark.slow
def test_the_hard_bot_beats_three_greedy_bots() -> None:
    """Seat-rotated 4-player games (8: each seat twice, seeds apart from the benchmark's): the hard
    bot's score less the greedy bots' mean, its 95% interval above 0 (the benchmark: +6.3 over 200
    games). Measured 2026-11-29: +7.5 ± 3.8 on these 8 seeds, +7.1 ± 4.0 after issue 31's roof outlook
    and uses before a take (12 seeds cost half as much again for an interval already clear of 0)."""
    diffs = []
    for g in range(8):
        seat = g % 4
        names = ["greedy"] * 4
        names[seat] = "hard"
        scores = _game(names, 900 + g).returns()
        diffs.append(scores[seat] - statistics.mean(s for i, s in enumerate(scores) if i != seat))
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    assert mean - half > 0, (mean, half)


def test_the_look_ahead_bots_play_a_track_tool_the_look_ahead_prefers() -> None:
    """TOOL-DRILL, TOOL-TIMING, issue 31: before its take the medium (solver) bot plays a use when
    the one look-ahead (`lookahead.option_values`, its own settings: the review's reading, after
    a use the best take still to make) values the position after it above every take (the bot
    values the three uses that gain most at once; the test reads every option). On seed 1
    (solver, greedy, greedy, hard) seat 0 holds a drill in round 8 and swaps a house card with
    the track: the look-ahead values that above every column, and the bot plays it (before issue
    31 it played a track tool never, and the review charged it 4 points twice in that game)."""
    rules = compile_rules()
    names = ["solver", "greedy", "greedy", "hard"]
    bots = [make_bot(name, 1, seat) for seat, name in enumerate(names)]
    state = GameState(rules, 4, 1)
    seen = 0
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        action = bots[p].choose(state.observation(p, lookahead=bots[p].looks_ahead), legal)
        if p == 0 and any(isinstance(a, SwapWithTrack) for a in legal) and any(isinstance(a, TakeColumn) for a in legal):
            values = option_values(state, MEDIUM)
            best = best_index(values)
            assert best is not None and legal[best] == action
            takes = [v.ranking for v, a in zip(values, legal) if isinstance(a, TakeColumn) and v is not None]
            top = values[best]
            assert isinstance(action, SwapWithTrack) and top is not None and top.ranking > max(takes)
            seen += 1
        state.apply_action(action)
    assert seen == 1
