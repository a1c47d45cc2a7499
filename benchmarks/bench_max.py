"""Benchmark `dreamhome max`: the whole process, per ruleset, for both engines.

    python benchmarks/bench_max.py                        # as docs/PERFORMANCE.md: base + every catalogue variant
    python benchmarks/bench_max.py --only base wide       # some rulesets
    python benchmarks/bench_max.py --cpsat-runs 1         # quicker: one CP-SAT run each
    python benchmarks/bench_max.py --cpsat-runs 0         # the search alone (about a minute)

Each run is a fresh `python -m dreamhome [--variant NAME] max` (imports, compiling the rules,
the search, and printing the house and its breakdown, as a user runs it), timed from outside;
the table gives the median of the runs, wall and CPU (user + system of the child: less
sensitive to a busy machine; CP-SAT's two workers make its CPU time up to twice its wall time).
The default engine (`search`, plain Python) and the CP-SAT model (`--engine cpsat`) run in the
same invocation, so their ratio is the baseline; their totals must agree (a mismatch stops the
benchmark), which makes this also the check of the variants too slow for CP-SAT in the tests
(wide). A variant either engine refuses (orthogonal) is listed with the message.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402

VARIANTS = sorted(p.stem for p in (ROOT / "dreamhome" / "rules" / "variants").glob("*.dh"))


def run_max(name: str, engine: str) -> tuple[float, float, tuple[int, bool] | str]:
    """One whole `dreamhome [--variant NAME] max --engine ENGINE` process, its picture printed as a
    user sees it: (wall seconds, CPU seconds, (best total, proven) read off its last line, or its
    error line)."""
    args = [sys.executable, "-m", "dreamhome"] + ([] if name == "base" else ["--variant", name])
    args += ["max", "--engine", engine]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    found = re.search(r"best house possible: (\d+) \((proven optimal|not proven)", proc.stdout)
    if proc.returncode != 0 or not found:
        return seconds, cpu, proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
    return seconds, cpu, (int(found.group(1)), found.group(2) == "proven optimal")


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
    print("| rules | best | proven | search: wall (CPU) | CP-SAT: wall (CPU) | CP-SAT / search, wall |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
    for name in names:
        fast = [run_max(name, "search") for _ in range(args.runs)]
        slow = [run_max(name, "cpsat") for _ in range(args.cpsat_runs)]
        answers = [a for _, _, a in fast + slow]
        if any(isinstance(a, str) for a in answers):
            message = next(a for a in answers if isinstance(a, str))
            print(f"| {name} | refused: {message} | | | | |")
            continue
        totals = {a[0] for a in answers if not isinstance(a, str)}
        proven = all(not isinstance(a, str) and a[1] for a in answers)
        if len(totals) != 1:
            sys.exit(f"{name}: the engines disagree: {sorted(totals)}")
        fast_t = statistics.median(w for w, _, _ in fast)
        worst = max(worst, fast_t)
        search = f"{fast_t:.2f} s ({statistics.median(c for _, c, _ in fast):.2f} s)"
        if slow:
            slow_t = statistics.median(w for w, _, _ in slow)
            cpsat = f"{slow_t:.1f} s ({statistics.median(c for _, c, _ in slow):.1f} s) | {slow_t / fast_t:.0f}×"
        else:
            cpsat = "not run |"
        print(f"| {name} | {totals.pop()} | {'yes' if proven else 'NO'} | {search} | {cpsat} |", flush=True)
    print(f"\nslowest search: {worst:.2f} s; {load()} at the end")


if __name__ == "__main__":
    main()
