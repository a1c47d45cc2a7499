"""Benchmark `place` and `max`.

    python benchmarks/bench_queries.py              # as docs/PERFORMANCE.md
    python benchmarks/bench_queries.py --houses 5   # quicker

place: half-full houses (6 of 12 cards, built by legal play, seeded), one
random room card each; the time for all its placements, for three helper sets.
Baseline in the same run: scoring every placement as it stands (no look-ahead).
max: the base rules' best house, proven, repeated; baseline in the same run:
the row enumeration alone (pure Python), which the CP-SAT proof builds on.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402

from dreamhome import compile_rules  # noqa: E402
from dreamhome.engine.placement import apply_placement, legal_placements  # noqa: E402
from dreamhome.generate import random_house  # noqa: E402
from dreamhome.scoring import score_total  # noqa: E402
from dreamhome.solver.best_house import best_house, floor_rows  # noqa: E402
from dreamhome.solver.place import placement_bounds  # noqa: E402

SWAPS = ("architect", "handyman", "supplier")
HELPER_SETS = {  # label: (helpers, processes)
    "no helpers": ((), None),
    "architect": (("architect",), None),
    "supplier + handyman + architect, 1 process": (SWAPS, 1),
    "supplier + handyman + architect, 2 processes (the default here)": (SWAPS, 2),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--houses", type=int, default=20)
    parser.add_argument("--max-runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261125)
    args = parser.parse_args()
    rules = compile_rules()
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}; seed {args.seed}\n")
    print("| query | houses | median | 95th pct | max | baseline, same run |")
    print("|---|---|---|---|---|---|")
    for label, (helpers, processes) in HELPER_SETS.items():
        rng = random.Random(args.seed)
        times, plain = [], []
        for _ in range(args.houses):
            house = random_house(rules, rng, cards=6, helpers=helpers, discard_rooms=rng.randint(3, 8))
            card = rng.choice(rules.ids("room"))
            t0 = time.perf_counter()
            placement_bounds(rules, house, card, processes=processes)
            t1 = time.perf_counter()
            for p in legal_placements(rules, house, card):
                score_total(rules, apply_placement(rules, house, card, p))
            t2 = time.perf_counter()
            times.append(t1 - t0)
            plain.append(t2 - t1)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(
            f"| place, all placements, {label} | {len(times)} | {statistics.median(times):.2f} s | {p95:.2f} s "
            f"| {times[-1]:.2f} s | {statistics.median(times) / statistics.median(plain):,.0f}× scoring each "
            f"placement as it stands ({statistics.median(plain) * 1000:.2f} ms) |"
        )
    proofs, enum = [], []
    for run in range(args.max_runs):
        t0 = time.perf_counter()
        floor_rows(rules, rules.board.floor_index("top"))
        t1 = time.perf_counter()
        result = best_house(rules, seed=run)
        proofs.append(result.seconds)
        enum.append(t1 - t0)
        assert result.optimal
    print(
        f"| max, base rules: {result.total}, proven optimal | {args.max_runs} runs | "
        f"{statistics.median(proofs):.1f} s | | {max(proofs):.1f} s | {statistics.median(proofs) / statistics.median(enum):.0f}× "
        f"the row enumeration alone ({statistics.median(enum):.2f} s) |"
    )


if __name__ == "__main__":
    main()
