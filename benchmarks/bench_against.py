"""This checkout against an earlier commit, on the same machine in the same run.

    python benchmarks/bench_against.py 7188a43            # the commit before the rules core
    python benchmarks/bench_against.py HEAD~5 --rounds 5 --optimize-houses 60

The machine is shared and noisy, so a figure from another day says little about a change. This
checks the earlier commit out into a temporary git worktree and runs `bench_core.py` and
`bench_optimize.py` in both trees, alternating (earlier, this, earlier, this, …), each run a fresh
process with the same seeds, and prints the median of each figure and the ratio this ÷ earlier.
Above 1 is faster for rates (houses/s), below 1 is faster for times (ms).

It also times whole commands as a user runs them, from outside, in each tree (`--commands`, on by
default): a four-solver-bot game (`play --players 4 --bots solver,solver,solver,solver --seed S`,
seeds 1–3 in turn), `max` on the base rules and `max --variant wide` (the search engine). These
are the figures the game driver, the bots and `max` are judged by; through the CLI they compare
across any two commits, whatever moved inside.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ("score_per_s", "legal_per_s", "place_per_s", "compile_ms")
OPTIMIZE = ("optimize_median_ms", "optimize_p95_ms")
COMMANDS = {
    "four_solver_game_ms": ["play", "--players", "4", "--bots", "solver,solver,solver,solver", "--seed", "{seed}"],
    "max_base_ms": ["max", "--json"],
    "max_wide_ms": ["--variant", "wide", "max", "--json"],
}


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


def time_command(tree: Path, args: list[str]) -> float:
    """Wall milliseconds of one `python -m dreamhome ARGS` in `tree`, a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "dreamhome", *args], cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rev", help="the earlier commit (any git revision)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each tree")
    parser.add_argument("--optimize-houses", type=int, default=40)
    parser.add_argument("--no-commands", action="store_true", help="leave out the whole-command timings")
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
                    for key, command in ({} if args.no_commands else COMMANDS).items():
                        argv = [a.replace("{seed}", str(1 + rnd % 3)) for a in command]
                        figures[label].setdefault(key, []).append(time_command(tree, argv))
                    print(f"round {rnd + 1}/{args.rounds}: {label} done", file=sys.stderr)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(earlier)], check=False)

    print(f"\nthis checkout against {args.rev}: medians of {args.rounds} alternating runs each\n")
    print(f"| figure | {args.rev} | this | this ÷ {args.rev} |")
    print("|---|---|---|---|")
    for key in (*CORE, *OPTIMIZE, *COMMANDS):
        if key not in figures["earlier"] or key not in figures["this"]:
            continue
        a = statistics.median(figures["earlier"][key])
        b = statistics.median(figures["this"][key])
        print(f"| {key} | {a:,.1f} | {b:,.1f} | {b / a:.2f} |")


if __name__ == "__main__":
    main()
