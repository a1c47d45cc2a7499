"""Benchmark what-if throughput: workers, executors, and 10,000 greedy games.

    python benchmarks/bench_whatif.py                  # as docs/PERFORMANCE.md
    python benchmarks/bench_whatif.py --games 100 --big 0

Throughput of the same experiment (greedy bots, 4 players, base rules, seeds
from 5000) with the processes executor at 1 and 2 workers, then with Ray on
this machine (2 CPUs, a fresh local runtime, its start-up included and also
shown apart); then the wall time of 10,000 greedy 4-player games with 2
workers. Each configuration's numbers are checked identical to the others'.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402

from dreamhome.whatif.experiment import Experiment, resolve_ruleset  # noqa: E402
from dreamhome.whatif.runner import run_experiment  # noqa: E402


def timed(exp, executor, workers):
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        doc = run_experiment(exp, out, executor_name=executor, workers=workers)
        return time.perf_counter() - t0, doc["rulesets"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--big", type=int, default=10_000)
    args = parser.parse_args()
    base = (resolve_ruleset("base"),)
    exp = Experiment(base, args.games, 4, ("greedy",) * 4, 5000, 25)
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}\n")
    one, ref = timed(exp, "processes", 1)
    two, res2 = timed(exp, "processes", 2)
    assert res2 == ref, "2 workers changed the numbers"
    rows = [("processes, 1 worker", one, "baseline"), ("processes, 2 workers", two, f"{one / two:.2f}× 1 worker")]
    try:
        import ray

        t0 = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        startup = time.perf_counter() - t0
        ray_t, res3 = timed(exp, "ray", 2)
        ray.shutdown()
        assert res3 == ref, "ray changed the numbers"
        rows.append(("ray, 2 CPUs, runtime already up", ray_t, f"{ray_t / two:.2f}× the time of processes, 2 workers"))
        rows.append(("ray runtime start-up alone", startup, ""))
    except ImportError:
        rows.append(("ray", float("nan"), "not installed (pip install -e '.[ray]')"))
    print(f"| {args.games} greedy 4-player games | wall time | games/s | against the baseline, same run |")
    print("|---|---|---|---|")
    for label, seconds, ratio in rows:
        rate = f"{args.games / seconds:.1f}" if "start-up" not in label else ""
        print(f"| {label} | {seconds:.1f} s | {rate} | {ratio} |")
    if args.big:
        big = Experiment(base, args.big, 4, ("greedy",) * 4, 5000, 50)
        seconds, _ = timed(big, "processes", 2)
        print(f"\n{args.big:,} greedy 4-player games, processes, 2 workers: {seconds:.0f} s ({args.big / seconds:.1f} games/s)")


if __name__ == "__main__":
    main()
