"""Fuzzing the rules language at scale: rules files drawn from the grammar, each run to the end.

    PYTHONPATH=. python benchmarks/bench_fuzz.py --files 2000            # the full run
    PYTHONPATH=. python benchmarks/bench_fuzz.py --files 2000 --keep DIR # also save every crashing file
    PYTHONPATH=. python benchmarks/bench_fuzz.py --quick                 # a smoke run (40 files)
    PYTHONPATH=. python benchmarks/bench_fuzz.py --budget 1500           # start no file after 25 minutes

tests/test_language_fuzz.py runs a CI-sized sample of the same files; this runs many more, from
a fixed seed (file i is `rules_text(Random(seed + i))`), so every finding is reproducible.

Each file (tests/helpers/rules_strategies.py, `run_file`): `rules check`; if it passes, `play`
with random bots at up to three allowed player counts, `optimize` on a house
`dreamhome.generate` builds, and `place` of a room card, each through the command line in
process, the whole file in a forked child killed at --bound seconds. Two children run side by
side (--processes). Printed: files, passed check, crashes (an exception other than the project's
clear errors, or an exit status outside 0/1/2), hangs (a child still running at the bound), and
the median and 95th-percentile time per file, for all files and for those that passed check.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

from benchmarks.bench_core import machine
from tests.helpers.rules_strategies import CHECK_OK, Outcome, rules_text, run_file

DEFAULT_SEED = 20261126


def percentile(values: list[float], q: float) -> float:
    """The q-quantile by nearest rank (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def one(index: int, seed: int, bound: float, stop_at: float) -> tuple[int, str, Outcome] | None:
    """File `index` run to the end, or None when the time budget is spent before it starts."""
    if time.perf_counter() > stop_at:
        return None
    text = rules_text(random.Random(seed + index))
    return index, text, run_file(text, seed + index, bound)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--processes", type=int, default=2, help="files run side by side (one forked child each)")
    ap.add_argument("--bound", type=float, default=20.0, help="seconds per file before it counts as a hang")
    ap.add_argument("--keep", metavar="DIR", default=None, help="save every crashing or hanging file (and its traceback) here")
    ap.add_argument("--quick", action="store_true", help="40 files")
    ap.add_argument(
        "--budget",
        type=float,
        default=None,
        metavar="SECONDS",
        help="start no file after this many seconds (a shared machine's slot); the report says how many ran",
    )
    ns = ap.parse_args()
    files = 40 if ns.quick else ns.files
    keep = Path(ns.keep) if ns.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    stop_at = start + ns.budget if ns.budget is not None else float("inf")
    outcomes: list[Outcome] = []
    found: list[tuple[int, str, Outcome]] = []
    # Threads only wait: each file runs in its own forked child (run_file), so --processes cores work.
    with ThreadPoolExecutor(max_workers=ns.processes) as pool:
        for done, result in enumerate(pool.map(lambda i: one(i, ns.seed, ns.bound, stop_at), range(files)), 1):
            if result is None:
                continue
            index, text, outcome = result
            outcomes.append(outcome)
            if outcome.crash or outcome.hang:
                found.append((index, text, outcome))
                if keep:
                    digest = hashlib.sha256(text.encode()).hexdigest()[:10]
                    what = "hang" if outcome.hang else "crash"
                    (keep / f"{what}-{index}-{digest}.dh").write_text(text, encoding="utf-8")
                    (keep / f"{what}-{index}-{digest}.txt").write_text(
                        outcome.crash or f"hang: over {ns.bound} s", encoding="utf-8"
                    )
            if done % 100 == 0:
                print(f"  {done}/{files} files, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    seconds = time.perf_counter() - start
    ran = len(outcomes)
    passed = [o for o in outcomes if o.check == CHECK_OK]
    crashes = [f for f in found if f[2].crash]
    hangs = [f for f in found if f[2].hang]
    times = [o.seconds for o in outcomes]
    passed_times = [o.seconds for o in passed]
    print(f"## Fuzzing the rules language ({datetime.now(timezone.utc):%Y-%m-%d}, seed {ns.seed})\n")
    print(f"Machine: {machine()}; {ns.processes} files side by side, bound {ns.bound:.0f} s per file.\n")
    print("| figure | value |")
    print("|---|---:|")
    stopped = f" of {files} (the {ns.budget:.0f} s budget ran out)" if ran < files else ""
    print(f"| files | {ran}{stopped} |")
    print(f"| passed `rules check` | {len(passed)} ({100 * len(passed) / max(ran, 1):.0f}%) |")
    print(f"| crashes | {len(crashes)} |")
    print(f"| hangs (over {ns.bound:.0f} s) | {len(hangs)} |")
    print(f"| time per file, median / p95 (s) | {statistics.median(times):.2f} / {percentile(times, 0.95):.2f} |")
    if passed_times:
        print(
            f"| time per passed file (check, play ×≤3, optimize, place), median / p95 (s) | "
            f"{statistics.median(passed_times):.2f} / {percentile(passed_times, 0.95):.2f} |"
        )
    print(f"| wall time (s) | {seconds:.0f} |\n")
    for index, _text, outcome in found:
        head = outcome.crash.strip().splitlines()[-1] if outcome.crash else f"hang (over {ns.bound:.0f} s)"
        print(f"file {index}: {head}")
    if found and not keep:
        print("(rerun with --keep DIR to save the files)")


if __name__ == "__main__":
    main()
