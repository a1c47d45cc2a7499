"""This checkout against an earlier commit, on the same machine in the same run.

    python benchmarks/bench_against.py 7188a43            # the commit before the rules core
    python benchmarks/bench_against.py HEAD~5 --rounds 5 --optimize-houses 60

The machine is shared and noisy, so a figure from another day says little about a change. This
checks the earlier commit out into a temporary git worktree and runs `bench_core.py` and
`bench_optimize.py` in both trees, alternating (earlier, this, earlier, this, …), each run a fresh
process with the same seeds, and prints the median of each figure and the ratio this ÷ earlier.
Above 1 is faster for rates (houses/s), below 1 is faster for times (ms).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ("score_per_s", "legal_per_s", "place_per_s", "compile_ms")
OPTIMIZE = ("optimize_median_ms", "optimize_p95_ms")


def run_json(tree: Path, script: str, args: list[str]) -> dict:
    """One benchmark run in `tree`, its figures read from the JSON it writes."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "figures.json"
        env = dict(os.environ, PYTHONPATH=str(tree))
        subprocess.run(
            [sys.executable, str(tree / "benchmarks" / script), *args, "--json", str(out)],
            cwd=tree,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return json.loads(out.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rev", help="the earlier commit (any git revision)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each tree")
    parser.add_argument("--optimize-houses", type=int, default=40)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        earlier = Path(tmp) / "earlier"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(earlier), args.rev], check=True)
        try:
            figures: dict[str, dict[str, list[float]]] = {"earlier": {}, "this": {}}
            for rnd in range(args.rounds):
                for label, tree in (("earlier", earlier), ("this", ROOT)):
                    core = run_json(tree, "bench_core.py", ["--repeats", "3", "--houses", "3000", "--processes", "3"])
                    opt = run_json(tree, "bench_optimize.py", ["--houses", str(args.optimize_houses)])
                    for key in CORE:
                        if key in core:
                            figures[label].setdefault(key, []).append(core[key])
                    for key in OPTIMIZE:
                        figures[label].setdefault(key, []).append(opt[key])
                    print(f"round {rnd + 1}/{args.rounds}: {label} done", file=sys.stderr)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(earlier)], check=False)

    print(f"\nthis checkout against {args.rev}: medians of {args.rounds} alternating runs each\n")
    print(f"| figure | {args.rev} | this | this ÷ {args.rev} |")
    print("|---|---|---|---|")
    for key in CORE + OPTIMIZE:
        if key not in figures["earlier"] or key not in figures["this"]:
            continue
        a = statistics.median(figures["earlier"][key])
        b = statistics.median(figures["this"][key])
        print(f"| {key} | {a:,.1f} | {b:,.1f} | {b / a:.2f} |")


if __name__ == "__main__":
    main()
