"""Benchmark the balance report: the default base report's wall time, beside the what-if
engine's greedy games a second measured in the same run.

    python benchmarks/bench_report.py                     # the whole default report
    python benchmarks/bench_report.py --fraction 0.25 --out DIR   # a quarter of every condition
    python benchmarks/bench_report.py --catalogue --fraction 0.1  # `report --catalogue --no-cards --players 2 --bots greedy`

The default report (`dreamhome report`: players 2,3,4; ladder random < greedy < solver; 700
games a light bot's condition, 140 a heavy one's; every card type's restricted play at 2
players) runs with the processes executor on 2 workers. `--fraction F` plays F of every
condition's games; each condition's work is linear in its games, so the full report's time is
extrapolated as the measured time ÷ F (said so in the output). The baseline: a what-if of
greedy 2-player games (the report's commonest game) on the same executor, the same run.

`--catalogue` times the catalogue instead (issue 35): every variant against the base rules,
greedy 2-player self-play, `--alt-games` at its default (a fifth of 700: 140 games a variant)
times F, beside the rules' own 700 × F games; extrapolated the same way.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402

from dreamhome.report.document import build_document, summary  # noqa: E402
from dreamhome.report.html import write_report  # noqa: E402
from dreamhome.report.plan import DEFAULT_GAMES, HEAVY_SHARE, build_plan  # noqa: E402
from dreamhome.report.run import run_plan  # noqa: E402
from dreamhome.whatif.experiment import Experiment, resolve_ruleset  # noqa: E402
from dreamhome.whatif.runner import run_experiment  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fraction", type=float, default=1.0, help="Share of the default games to play (0 < F ≤ 1).")
    parser.add_argument("--baseline-games", type=int, default=400, help="Greedy 2-player games of the what-if baseline.")
    parser.add_argument("--out", default=None, help="Keep the report here (default: a temporary directory).")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--catalogue", action="store_true", help="Time `report --catalogue --no-cards --players 2 --bots greedy`."
    )
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}\n")
    exp = Experiment((resolve_ruleset("base"),), args.baseline_games, 2, ("greedy",) * 2, 0, 25)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        run_experiment(exp, tmp, executor_name="processes", workers=args.workers)
        base_seconds = time.perf_counter() - t0
    base_rate = args.baseline_games / base_seconds
    games = max(1, round(DEFAULT_GAMES * args.fraction))
    heavy = max(1, round(DEFAULT_GAMES // HEAVY_SHARE * args.fraction))
    if args.catalogue:
        plan = build_plan(
            rules_path=None, players=[2], ladder=["greedy"], games=games, cards=False, catalogue=True, alt_games=heavy
        )
    else:
        plan = build_plan(rules_path=None, games=games, heavy_games=heavy)
    played = sum(c.games for c in plan.conditions())
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out or tmp)
        t0 = time.perf_counter()
        results = run_plan(plan, out, executor_name="processes", workers=args.workers)
        t1 = time.perf_counter()
        doc = build_document(plan, results, plan.compiled())
        write_report(out, doc)
        t2 = time.perf_counter()
    seconds = t2 - t0
    light = sum(c.games for c in plan.conditions() if c.games == games)
    print("| run | games | wall time | games/s | against the baseline, same run |")
    print("|---|---|---|---|---|")
    what = "what-if, greedy 2-player games (baseline)"
    print(f"| {what} | {args.baseline_games} | {base_seconds:.1f} s | {base_rate:.1f} | baseline |")
    print(
        f"| report{' --catalogue' if args.catalogue else ''}, {args.fraction:g} of the default "
        f"({games} light / {heavy} heavy games a condition, "
        f"{len(plan.conditions())} conditions) | {played} ({light} light) | {seconds:.0f} s "
        f"(games {t1 - t0:.0f} s, statistics and figures {t2 - t1:.1f} s) | {played / (t1 - t0):.1f} | "
        f"{seconds / (played / base_rate):.2f}× the time of as many greedy games |"
    )
    if args.fraction < 1:
        print(f"\nThe full default run, extrapolated (÷ {args.fraction:g}): {seconds / args.fraction / 60:.1f} min")
    else:
        print(f"\nThe full default run: {seconds / 60:.1f} min")
    print("\n" + summary(doc))


if __name__ == "__main__":
    main()
