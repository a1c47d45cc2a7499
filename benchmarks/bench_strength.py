"""Bot strength against each other, OpenSpiel's searches included.

    PYTHONPATH=. python benchmarks/bench_strength.py                       # the table of docs/PERFORMANCE.md
    PYTHONPATH=. python benchmarks/bench_strength.py --games 40 --pairs solver/greedy,ismcts@20/greedy
    PYTHONPATH=.:benchmarks python benchmarks/bench_strength.py --seed 5000 --games 300 \
        --pairs tuning_bots:FiveColumns/greedy,tuning_bots:WithSwaps/greedy     # issue 25's tuning runs

Each pairing A/B plays seeded 4-player games with A in one seat and B in the other three, A's
seat rotating with the game number (seat-fair). Per game, A's score minus the mean of the B
seats: the paired difference; the table gives its mean with a 95% interval (normal
approximation), A's win share, and each bot's mean seconds per decision (its own `choose`
time, measured in the same games; the 95th percentile beside the mean). Every pairing after the
first also gets its paired difference against the first: the same seeds and seats, game by
game, which cancels much of the deal's luck (issue 25: a variant against its baseline).
Games run on all cores (one process per game, each
deterministic by its seed), so the figures do not depend on the number of cores.
Seeds start at --seed (default 50,000, kept apart from the seeds any bot was tuned on).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine, p95  # noqa: E402

DEFAULT_PAIRS = "solver/greedy,ismcts@10/greedy,ismcts@40/greedy,solver/ismcts@40,mcts@40/greedy"


def play(args: tuple[str, str, int, int]) -> tuple[float, bool, list[float], list[float]]:
    """One game: (A − mean B, A won, A's decision times, B's decision times)."""
    from dreamhome.dsl.compiler import compile_rules
    from dreamhome.game.state import GameState
    from dreamhome.players.roster import make_bot

    a, b, seed, seat = args
    rules = compile_rules()
    names = [b] * 4
    names[seat] = a
    bots = [make_bot(n, seed, s) for s, n in enumerate(names)]
    state = GameState(rules, 4, seed)
    times: list[list[float]] = [[], [], [], []]
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        t0 = time.perf_counter()
        action = bots[p].choose(state.observation(p, lookahead=bots[p].looks_ahead), legal)
        times[p].append(time.perf_counter() - t0)
        state.apply_action(action)
    scores = state.returns()
    rest = [s for i, s in enumerate(scores) if i != seat]
    return (
        scores[seat] - statistics.mean(rest),
        seat in state.winners(),
        times[seat],
        [t for i, ts in enumerate(times) if i != seat for t in ts],
    )


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help="A/B pairings, comma-separated")
    parser.add_argument("--seed", type=int, default=50_000)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}\n")
    head = "| A / B (A in one seat of 4) | games | A − mean B (95%) | paired vs the first row | A wins"
    print(head + " | A s/decision (p95) | B s/decision | wall |")
    print("|---|---|---|---|---|---|---|---|")
    first: list[float] | None = None
    with ProcessPoolExecutor(args.processes) as pool:
        for pair in args.pairs.split(","):
            a, b = pair.split("/")
            t0 = time.perf_counter()
            jobs = [(a, b, args.seed + g, g % 4) for g in range(args.games)]
            results = list(pool.map(play, jobs))
            wall = time.perf_counter() - t0
            diffs = [r[0] for r in results]
            diff, half = interval(diffs)
            paired = "—"
            if first is None:
                first = diffs
            else:
                mean, width = interval([x - y for x, y in zip(diffs, first)])
                paired = f"{mean:+.2f} ± {width:.2f}"
            wins = sum(r[1] for r in results) / len(results)
            times = [t for r in results for t in r[2]]
            ta = statistics.mean(times)
            tb = statistics.mean(t for r in results for t in r[3])
            row = (
                f"| {a} / {b} | {len(results)} | {diff:+.2f} ± {half:.2f} | {paired} | {wins:.0%} | {ta:.3f} ({p95(times):.3f}) "
                f"| {tb:.3f} | {wall:,.0f} s |"
            )
            print(row, flush=True)


if __name__ == "__main__":
    main()
