"""The bot levels (issue 25): each level's strength and time a decision, in one table.

    PYTHONPATH=. python benchmarks/bench_levels.py                     # the table of docs/PERFORMANCE.md
    PYTHONPATH=. python benchmarks/bench_levels.py --games 40 --levels easy,hard --processes 1
    PYTHONPATH=. python benchmarks/bench_levels.py --seed 5000 --games 300 --easy-shares 0.4,0.5,0.6   # easy's knob

Two measures per level:

- **4-player**, against three greedy bots and against three random bots: `bench_strength.py`'s
  games (its `play`, imported: one seat for the level, rotating with the game number, paired
  by seed), the level's score minus the mean of the other three (95% interval), its win share,
  and its seconds a decision (its own `choose` time: mean and 95th percentile).
- **2-player**, the measure that defines *easy*: the level's win rate against greedy and against
  random (a tie counts half), seat alternating with the game number, and the mean of the two.
  A newcomer is taken to play somewhere between those two stand-ins, so the easy bot's mean
  should be about 50%: a newcomer then beats it about half the time.

Seeds start at --seed (default 50,000, as bench_strength.py's; the easy bot's knob was set on
seeds from 5,000). Games run in --processes processes, each deterministic by its seed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine, p95  # noqa: E402
from bench_strength import interval, play  # noqa: E402

from dreamhome.players.roster import LEVELS  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests.helpers
from tests.helpers.duel import duel  # noqa: E402

OPPONENTS = ("greedy", "random")


def spec(level: str) -> str:
    """The level's bot as `module:Class`, the form `bench_strength.play` builds any bot from."""
    cls = LEVELS[level]
    return f"{cls.__module__}:{cls.__qualname__}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per level and opponent (each measure)")
    parser.add_argument("--seed", type=int, default=50_000, help="the first game's seed")
    parser.add_argument("--levels", default=",".join(LEVELS), help=f"levels, comma-separated (of {', '.join(LEVELS)})")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--easy-shares",
        default=None,
        metavar="Q,Q,…",
        help="the easy bot's tuning run instead: its 2-player win rates for each greedy_share "
        "(docs/PERFORMANCE.md used --seed 5000 --games 300 --easy-shares 0,0.2,0.3,0.4,0.5,0.6,0.7)",
    )
    args = parser.parse_args()
    if args.easy_shares is not None:
        tune_easy(args)
        return
    levels = [name.strip() for name in args.levels.split(",")]
    unknown = [name for name in levels if name not in LEVELS]
    if unknown or args.games < 2 or args.processes < 1:
        bad = f"unknown level {unknown[0]!r}; " if unknown else ""
        parser.exit(2, f"bench_levels: {bad}levels are {', '.join(LEVELS)}; --games at least 2, --processes at least 1\n")
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}\n")
    print("4-player: the level in one seat (rotating), three of the opponent in the others, paired by seed.\n")
    print("| level | against 3× | games | level − mean others (95%) | level wins | s/decision mean | s/decision p95 |")
    print("|---|---|---|---|---|---|---|")
    duels: dict[str, dict[str, tuple[float, float]]] = {}
    with ProcessPoolExecutor(args.processes) as pool:
        for level in levels:
            times: list[float] = []
            for opponent in OPPONENTS:
                jobs = [(spec(level), opponent, args.seed + g, g % 4) for g in range(args.games)]
                results = list(pool.map(play, jobs))
                diff, half = interval([r[0] for r in results])
                wins = sum(r[1] for r in results) / len(results)
                level_times = [t for r in results for t in r[2]]
                times += level_times
                print(
                    f"| {level} | {opponent} | {len(results)} | {diff:+.2f} ± {half:.2f} | {wins:.0%} "
                    f"| {statistics.mean(level_times):.4f} | {p95(level_times):.4f} |",
                    flush=True,
                )
            duels[level] = {}
            for opponent in OPPONENTS:
                jobs = [(level, opponent, args.seed + g, g % 2) for g in range(args.games)]
                duels[level][opponent] = interval(list(pool.map(duel, jobs)))
    print("\n2-player: the level's win rate (a tie counts half), seat alternating; a newcomer plays")
    print("between greedy and random, so the mean of the two is what a newcomer faces.\n")
    print("| level | games | win rate against greedy (95%) | against random (95%) | mean of the two |")
    print("|---|---|---|---|---|")
    for level, rates in duels.items():
        (g, gh), (r, rh) = rates["greedy"], rates["random"]
        print(f"| {level} | {args.games} | {g:.0%} ± {gh:.0%} | {r:.0%} ± {rh:.0%} | {(g + r) / 2:.0%} |")


def tune_easy(args: argparse.Namespace) -> None:
    """The 2-player win rates of the easy bot for each `greedy_share` of `--easy-shares`."""
    try:
        shares = [float(q) for q in args.easy_shares.split(",")]
    except ValueError:
        shares = []
    if not shares or not all(0.0 <= q <= 1.0 for q in shares) or args.games < 2 or args.processes < 1:
        print("bench_levels: --easy-shares takes numbers from 0 to 1, comma-separated; --games at least 2", file=sys.stderr)
        sys.exit(2)
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}, seeds from {args.seed}\n")
    print("| greedy_share | games | win rate against greedy (95%) | against random (95%) | mean of the two |")
    print("|---|---|---|---|---|")
    with ProcessPoolExecutor(args.processes) as pool:
        for q in shares:
            rates = {}
            for opponent in OPPONENTS:
                jobs = [("easy", opponent, args.seed + g, g % 2, q) for g in range(args.games)]
                rates[opponent] = interval(list(pool.map(duel, jobs)))
            (g, gh), (r, rh) = rates["greedy"], rates["random"]
            print(f"| {q:g} | {args.games} | {g:.0%} ± {gh:.0%} | {r:.0%} ± {rh:.0%} | {(g + r) / 2:.0%} |", flush=True)


if __name__ == "__main__":
    main()
