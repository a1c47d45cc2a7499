"""Benchmark `dreamhome max`: the whole process, per ruleset, for both engines.

    python benchmarks/bench_max.py                        # as docs/PERFORMANCE.md: base + every catalogue variant
    python benchmarks/bench_max.py --only base wide       # some rulesets
    python benchmarks/bench_max.py --cpsat-runs 1         # quicker: one CP-SAT run each
    python benchmarks/bench_max.py --cpsat-runs 0         # the search alone (about a minute)

Each run is a fresh `python -m dreamhome [--variant NAME] max` (imports, compiling the rules, the
search, and printing the house and its breakdown, as a user runs it), timed from outside; the table gives the median of the
runs. The default engine (`search`, plain Python) and the CP-SAT model (`--engine cpsat`) run in
the same invocation, so their ratio is the baseline; their totals must agree (a mismatch stops
the benchmark), which makes this also the check of the variants too slow for CP-SAT in the
tests (wide). A variant either engine refuses (orthogonal) is listed with the message.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402

VARIANTS = sorted(p.stem for p in (ROOT / "dreamhome" / "rules" / "variants").glob("*.dh"))


def run_max(name: str, engine: str) -> tuple[float, tuple[int, bool] | str]:
    """One whole `dreamhome [--variant NAME] max --engine ENGINE` process, its picture printed as a
    user sees it: (wall seconds, (best total, proven) read off its last line, or its error line)."""
    args = [sys.executable, "-m", "dreamhome"] + ([] if name == "base" else ["--variant", name])
    args += ["max", "--engine", engine]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT)
    seconds = time.perf_counter() - start
    found = re.search(r"best house possible: (\d+) \((proven optimal|not proven)", proc.stdout)
    if proc.returncode != 0 or not found:
        return seconds, proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
    return seconds, (int(found.group(1)), found.group(2) == "proven optimal")


def load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load {one:.1f} / {five:.1f} (1 / 5 min)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs of the default engine per ruleset")
    parser.add_argument("--cpsat-runs", type=int, default=3, help="runs of --engine cpsat per ruleset")
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME", help="base and/or catalogue variant names")
    args = parser.parse_args()
    names = args.only or ["base", *VARIANTS]
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}; {load()} at the start\n")
    print("| rules | best | proven | search, whole process | CP-SAT, whole process | CP-SAT / search |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
    for name in names:
        fast = [run_max(name, "search") for _ in range(args.runs)]
        slow = [run_max(name, "cpsat") for _ in range(args.cpsat_runs)]
        answers = [a for _, a in fast + slow]
        if any(isinstance(a, str) for a in answers):
            message = next(a for a in answers if isinstance(a, str))
            print(f"| {name} | refused: {message} | | | | |")
            continue
        fast_t = statistics.median(s for s, _ in fast)
        slow_t = statistics.median(s for s, _ in slow) if slow else 0.0
        totals = {a[0] for a in answers if not isinstance(a, str)}
        proven = all(not isinstance(a, str) and a[1] for a in answers)
        if len(totals) != 1:
            sys.exit(f"{name}: the engines disagree: {sorted(totals)}")
        worst = max(worst, fast_t)
        cpsat = f"{slow_t:.1f} s | {slow_t / fast_t:.0f}×" if slow else "not run |"
        print(f"| {name} | {totals.pop()} | {'yes' if proven else 'NO'} | {fast_t:.2f} s | {cpsat} |", flush=True)
    print(f"\nslowest search: {worst:.2f} s; {load()} at the end")


if __name__ == "__main__":
    main()
