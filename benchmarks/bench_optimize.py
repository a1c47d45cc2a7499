"""Benchmark `optimize` (best_final_score) against the exhaustive reference.

    python benchmarks/bench_optimize.py             # 200 houses, as docs/PERFORMANCE.md
    python benchmarks/bench_optimize.py --houses 20 # a quicker look

Houses: random full end-game houses built by legal play (seeded), each holding
the supplier, handyman, roofer and architect, with 20–30 room cards and 0–4
roof cards in the discard piles. For every house the CP-SAT answer must equal
the exhaustive enumeration's (tests/reference_endgame.py); the run stops with
an error if one differs. Figures: median and 95th percentile per house, and
the ratio reference / CP-SAT per house (median), and how many houses needed
more than one solve (a proposal with no legal order of actions, cut off).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the tests package: its exhaustive reference
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_core import machine  # noqa: E402

from dreamhome import compile_rules  # noqa: E402
from dreamhome.generate import random_house  # noqa: E402
from dreamhome.solver.optimize import best_final_score  # noqa: E402
from tests.helpers.reference_endgame import reference_best_final  # noqa: E402

HELPERS = ("architect", "handyman", "roofer", "supplier")


def houses(rules, n: int, seed: int):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        house = random_house(rules, rng, helpers=HELPERS, discard_rooms=rng.randint(20, 30))
        deck = [(r.index, k < r.windows) for r in rules.roofs for k in range(r.count)]
        for roof in house.roofs:
            deck.remove(roof)
        rng.shuffle(deck)
        out.append(replace(house, discard_roofs=tuple(deck[: rng.randint(0, 4)])))
    return out


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--houses", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args()
    rules = compile_rules()
    sample = houses(rules, args.houses, args.seed)
    best_final_score(rules, sample[0])  # load the native library before timing
    solver_s, reference_s, ratios, refused = [], [], [], []
    for i, house in enumerate(sample):
        t0 = time.perf_counter()
        result = best_final_score(rules, house)
        t1 = time.perf_counter()
        expected = reference_best_final(rules, house)
        t2 = time.perf_counter()
        if result.total != expected or not result.optimal:
            raise SystemExit(f"house {i}: CP-SAT {result.total} (optimal={result.optimal}) != reference {expected}")
        solver_s.append(t1 - t0)
        refused.append(result.refused)
        reference_s.append(t2 - t1)
        ratios.append((t2 - t1) / (t1 - t0))
        if (i + 1) % 20 == 0:
            print(
                f"{i + 1}/{len(sample)} houses: CP-SAT median {statistics.median(solver_s) * 1000:.0f} ms, "
                f"reference median {statistics.median(reference_s) * 1000:.0f} ms",
                file=sys.stderr,
            )
    result = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "houses": len(sample),
        "seed": args.seed,
        "optimize_median_ms": statistics.median(solver_s) * 1000,
        "optimize_p95_ms": percentile(solver_s, 0.95) * 1000,
        "reference_median_ms": statistics.median(reference_s) * 1000,
        "reference_p95_ms": percentile(reference_s, 0.95) * 1000,
        "ratio_median": statistics.median(ratios),
        "houses_refused": sum(1 for r in refused if r),
        "most_refused": max(refused),
        "identical": True,
    }
    print(
        f"\n{result['date']} — {result['machine']}; {len(sample)} houses, seed {args.seed}; "
        "every optimum identical to the exhaustive reference\n"
    )
    print("| figure | median | 95th percentile | target |")
    print("|---|---|---|---|")
    print(
        f"| optimize (CP-SAT, 1 worker) | {result['optimize_median_ms']:.0f} ms | {result['optimize_p95_ms']:.0f} ms "
        "| ≤ 50 ms / ≤ 40 ms (issue #15) |"
    )
    print(f"| exhaustive reference | {result['reference_median_ms']:.0f} ms | {result['reference_p95_ms']:.0f} ms | |")
    print(f"| reference ÷ CP-SAT, per house | {result['ratio_median']:.1f}× | | ≥ 5× |")
    print(
        f"\nHouses whose first proposal had no legal order (cut off, solved again): {result['houses_refused']}"
        f" of {len(sample)}, at most {result['most_refused']} cuts for one house."
    )
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
