"""Benchmark the foundation's hot paths (issue: rules language, house, scoring).

    python benchmarks/bench_core.py            # full run, prints a Markdown table
    python benchmarks/bench_core.py --quick    # a smoke run

Targets: compile base.dh ≤ 150 ms in a fresh process (after imports); scoring
≥ 50,000 full houses/s; state legality ≥ 30,000 houses/s; legal_placements
≥ 20,000 calls/s on mid-game houses; all on one core.

Each figure is a median over repeats; every repeat draws fresh houses from its
own seed, so no cache can inflate a figure. Each figure stands beside a plain
baseline measured in the same run on the same inputs.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone

from dreamhome import compile_rules
from dreamhome.engine.placement import legal_placements
from dreamhome.generate import random_house
from dreamhome.legality import house_violations
from dreamhome.ruleset import EMPTY, FACE_DOWN, SCAFFOLD
from dreamhome.scoring import score_components, score_house

COMPILE_PROBE = r"""
import time, json
import dreamhome.dsl.compiler as c   # imports (lark, networkx) are not counted
t0 = time.perf_counter(); c.compile_rules(); t1 = time.perf_counter()
from dreamhome.dsl.parser import RulesParser
text = c.BASE_RULES.read_text()
t2 = time.perf_counter(); RulesParser().parse(text, "base.dh"); t3 = time.perf_counter()
print(json.dumps({"compile": t1 - t0, "parse": t3 - t2}))
"""


def plain_placements(rules, house, card):
    """Baseline: try every cell both ways and run the full state check."""
    code = rules.room(card).code
    out = []
    for cell, c in enumerate(house.cells):
        if c not in (EMPTY, SCAFFOLD):
            continue
        if not house_violations(rules, house.place(cell, code)):
            out.append((cell, False))
        if not house_violations(rules, house.place(cell, FACE_DOWN, 0, code)):
            out.append((cell, True))
    return out


def p95(values: list[float]) -> float:
    """The 95th percentile by nearest rank: one definition for every benchmark's p95 column."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else 0.0


def machine() -> str:
    model = platform.processor() or "cpu"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            model = next(line.split(":", 1)[1].strip() for line in handle if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import os

    return f"{model}, {os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}"


def rate(func, items) -> float:
    start = time.perf_counter()
    for item in items:
        func(*item)
    return len(items) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--houses", type=int, default=4000, help="houses per repeat")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--processes", type=int, default=7, help="fresh processes for the compile figure")
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", dest="json_out", help="also write the figures to this JSON file")
    args = parser.parse_args()
    if args.quick:
        args.houses, args.repeats, args.processes = 400, 3, 2

    rules = compile_rules()
    figures: dict[str, list[float]] = {
        k: [] for k in ("score", "score_plain", "legal", "legal_plain_ratio", "place", "place_plain")
    }
    for rep in range(args.repeats):
        rng = random.Random(args.seed + rep)
        full = [(rules, random_house(rules, rng)) for _ in range(args.houses)]
        mid = [
            (rules, random_house(rules, rng, cards=rng.randint(4, 8)), rng.choice(rules.ids("room"))) for _ in range(args.houses)
        ]
        figures["score"].append(rate(score_components, full))
        figures["score_plain"].append(rate(score_house, full))
        figures["legal"].append(rate(house_violations, full))
        figures["place"].append(rate(legal_placements, mid))
        figures["place_plain"].append(rate(plain_placements, mid[: max(1, len(mid) // 10)]))
        print(
            f"repeat {rep + 1}/{args.repeats}: score {figures['score'][-1]:,.0f}/s, "
            f"legal {figures['legal'][-1]:,.0f}/s, place {figures['place'][-1]:,.0f}/s",
            file=sys.stderr,
        )

    compile_runs, parse_runs = [], []
    subprocess.run([sys.executable, "-c", COMPILE_PROBE], capture_output=True, check=True)  # warm Lark's cache file
    for _ in range(args.processes):
        out = subprocess.run([sys.executable, "-c", COMPILE_PROBE], capture_output=True, text=True, check=True)
        probe = json.loads(out.stdout)
        compile_runs.append(probe["compile"] * 1000)
        parse_runs.append(probe["parse"] * 1000)

    med = {k: statistics.median(v) for k, v in figures.items() if v}
    result = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "houses_per_repeat": args.houses,
        "repeats": args.repeats,
        "seed": args.seed,
        "compile_ms": statistics.median(compile_runs),
        "parse_ms": statistics.median(parse_runs),
        "score_per_s": med["score"],
        "score_plain_per_s": med["score_plain"],
        "legal_per_s": med["legal"],
        "place_per_s": med["place"],
        "place_plain_per_s": med["place_plain"],
    }
    rows = [
        (
            "compile base.dh, fresh process (ms)",
            result["compile_ms"],
            "≤ 150",
            f"{result['compile_ms'] / result['parse_ms']:.1f}× the Lark parse alone ({result['parse_ms']:.1f} ms)",
        ),
        (
            "score full houses (/s)",
            result["score_per_s"],
            "≥ 50,000",
            f"{result['score_per_s'] / result['score_plain_per_s']:.1f}× the explained scorer "
            f"({result['score_plain_per_s']:,.0f}/s)",
        ),
        (
            "state legality (/s)",
            result["legal_per_s"],
            "≥ 30,000",
            f"{result['legal_per_s'] / result['score_plain_per_s']:.1f}× the explained scorer on the same houses",
        ),
        (
            "legal_placements, mid-game (/s)",
            result["place_per_s"],
            "≥ 20,000",
            f"{result['place_per_s'] / result['place_plain_per_s']:.1f}× place-and-check-every-cell "
            f"({result['place_plain_per_s']:,.0f}/s)",
        ),
    ]
    print(f"\n{result['date']} — {result['machine']}; {args.repeats} repeats × {args.houses} houses, seed {args.seed}\n")
    print("| figure | median | target | against a plain baseline, same run |")
    print("|---|---|---|---|")
    for name, value, target, ratio in rows:
        shown = f"{value:,.1f}" if value < 1000 else f"{value:,.0f}"
        print(f"| {name} | {shown} | {target} | {ratio} |")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as handle:
            json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main()
