"""Benchmark the human seat's `hint` (dreamhome.players.hints) beside the engine's `legal_actions`.

    python benchmarks/bench_hint.py                # as docs/PERFORMANCE.md
    python benchmarks/bench_hint.py --games 4 --every 3

Mid-game states: seeded 3-player games between greedy bots, every `--every`-th decision of
rounds 3 to 10 (every kind of decision the rounds have: discards, takes, placements, tokens,
tools). For each state, one `hint(state)` (the review's look-ahead settings, `HINT_WORK`
deterministic time a solve, one solve an option) and one `legal_actions()` on a fresh copy of
the state (no cache): the plain baseline of the same run. Prints p50/p95/max of both, the share
of hints whose every value was proven, and the issue's target (hint p95 ≤ 1 s). Then the same
for every decision of the end game (END-ORDER), where the pick is the end-game plan's step.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402

from dreamhome import compile_rules  # noqa: E402
from dreamhome.game.state import GameState  # noqa: E402
from dreamhome.players.hints import HINT_WORK, hint  # noqa: E402
from dreamhome.players.roster import make_bot  # noqa: E402

PLAYERS = 3
ROUNDS = range(3, 11)
TARGET = 1.0


def mid_game_states(rules, games: int, every: int, seed: int, end: bool = False) -> list[GameState]:
    """Every `every`-th decision of rounds 3–10 (or, with `end`, every decision of the end game)."""
    states = []
    for g in range(games):
        state = GameState(rules, PLAYERS, seed + g)
        bots = [make_bot("greedy", seed + g, p) for p in range(PLAYERS)]
        k = 0
        while not state.is_terminal():
            if (state.observation(lookahead=False).phase == "end") if end else (state.round in ROUNDS):
                if k % every == 0:
                    states.append(state.clone())
                k += 1
            bot = bots[state.current_player()]
            state.apply_action(bot.choose(state.observation(lookahead=bot.looks_ahead), state.legal_actions()))
    return states


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2000)
    args = parser.parse_args()
    rules = compile_rules()
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}\n")
    measure(rules, mid_game_states(rules, args.games, args.every, args.seed), f"rounds {ROUNDS.start}–{ROUNDS.stop - 1}")
    measure(rules, mid_game_states(rules, args.games, 1, args.seed, end=True), "the end game")


def measure(rules, states: list[GameState], label: str) -> None:
    hint_times, legal_times, proven, options = [], [], 0, 0
    for state in states:
        fresh = GameState.from_dict(rules, state.to_dict())  # no cached legal actions
        t0 = time.perf_counter()
        fresh.legal_actions()
        legal_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        h = hint(state, HINT_WORK)
        hint_times.append(time.perf_counter() - t0)
        proven += all(o.proven for o in h.options if o.bound is not None)
        options += len(h.options)
    print(f"{len(states)} states ({label}, {PLAYERS} players), {options / len(states):.1f} options each")
    for label, times in (("hint", hint_times), ("legal_actions", legal_times)):
        print(
            f"  {label:<14} p50 {statistics.median(times) * 1000:8.2f} ms   p95 {quantile(times, 0.95) * 1000:8.2f} ms"
            f"   max {max(times) * 1000:8.2f} ms"
        )
    print(f"  every bound proven within the budget: {proven}/{len(states)} hints")
    p95 = quantile(hint_times, 0.95)
    print(f"  target: hint p95 ≤ {TARGET:g} s — {'met' if p95 <= TARGET else 'NOT met'} ({p95:.3f} s)\n")


if __name__ == "__main__":
    main()
