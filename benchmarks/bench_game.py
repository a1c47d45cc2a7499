"""Benchmark the game driver: speed per game and bot strength.

    python benchmarks/bench_game.py                 # as docs/PERFORMANCE.md
    python benchmarks/bench_game.py --games 40 --solver-games 8

Speed: median time of one 4-player game on one core (random bots, greedy bots, a solver bot
seat). Strength: seeded 4-player games; greedy against random (two seats each), and one solver
bot against three greedy bots, the solver's seat rotating with the game number (seat-fair).
Means with 95% intervals (normal approximation).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402

from dreamhome import compile_rules  # noqa: E402
from dreamhome.players.playing import play_game  # noqa: E402


def interval(values):
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--solver-games", type=int, default=40)
    parser.add_argument("--four-solver-games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    rules = compile_rules()
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}\n")

    timing = {}
    for label, bots in (("4 random bots", ["random"] * 4), ("4 greedy bots", ["greedy"] * 4)):
        times = []
        for g in range(args.games):
            t0 = time.perf_counter()
            play_game(rules, 4, bots, args.seed + g)
            times.append(time.perf_counter() - t0)
        timing[label] = times
    greedy, rand = [], []
    for g in range(args.games):
        bots = ["greedy", "random", "greedy", "random"] if g % 2 == 0 else ["random", "greedy", "random", "greedy"]
        scores = play_game(rules, 4, bots, args.seed + g).scores()
        for bot, s in zip(bots, scores):
            (greedy if bot == "greedy" else rand).append(s)
    solver, others, diffs, wins, solver_times = [], [], [], 0, []
    for g in range(args.solver_games):
        seat = g % 4
        bots = ["greedy"] * 4
        bots[seat] = "solver"
        t0 = time.perf_counter()
        result = play_game(rules, 4, bots, args.seed + g)
        solver_times.append(time.perf_counter() - t0)
        scores = result.scores()
        solver.append(scores[seat])
        rest = [s for i, s in enumerate(scores) if i != seat]
        others += rest
        diffs.append(scores[seat] - statistics.mean(rest))
        wins += seat in result.winners()
        print(f"solver game {g + 1}/{args.solver_games}: solver {scores[seat]}, greedy {scores}", file=sys.stderr)
    timing["1 solver bot + 3 greedy bots"] = solver_times
    four = []
    for g in range(args.four_solver_games):
        t0 = time.perf_counter()
        play_game(rules, 4, ["solver"] * 4, 2000 + g)
        four.append(time.perf_counter() - t0)
    if four:
        timing[f"4 solver bots (seeds 2000–{2000 + len(four) - 1})"] = four

    print("| game, 4 players, one core | games | median | 95th pct |")
    print("|---|---|---|---|")
    for label, times in timing.items():
        times = sorted(times)
        print(
            f"| {label} | {len(times)} | {statistics.median(times) * 1000:,.0f} ms | "
            f"{times[min(len(times) - 1, round(0.95 * (len(times) - 1)))] * 1000:,.0f} ms |"
        )
    print()
    g_mean, g_half = interval(greedy)
    r_mean, r_half = interval(rand)
    s_mean, s_half = interval(solver)
    o_mean, o_half = interval(others)
    d_mean, d_half = interval(diffs)
    p = wins / len(solver)
    p_half = 1.96 * math.sqrt(p * (1 - p) / len(solver))
    print("| bots | games | mean score (95% interval) |")
    print("|---|---|---|")
    print(f"| greedy (vs random) | {args.games} | {g_mean:.1f} ± {g_half:.1f} |")
    print(f"| random (vs greedy) | {args.games} | {r_mean:.1f} ± {r_half:.1f} |")
    print(f"| solver (vs 3 greedy) | {len(solver)} | {s_mean:.1f} ± {s_half:.1f}; wins {p:.0%} ± {p_half:.0%} |")
    print(f"| greedy (vs solver) | {len(solver)} | {o_mean:.1f} ± {o_half:.1f} |")
    print(f"\nsolver − the three greedy bots' mean, paired by game: {d_mean:+.2f} ± {d_half:.2f}")


if __name__ == "__main__":
    main()
