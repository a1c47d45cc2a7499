"""Benchmark `dreamhome serve` under load: any request's p95 with 20 games played and 20 page
loads at once (issue 33: ≤ 0.5 s), beside a plain request measured in the same run.

    python benchmarks/bench_table_load.py            # the figures of docs/PERFORMANCE.md
    python benchmarks/bench_table_load.py --quick    # a smoke run

A real server (its own process, no rate limit) keeps `--games` games, each played meanwhile by
a person clicking its first legal action as fast as the server answers (a greedy bot opposite),
while `--loads` browsers open a game's page at once (the page, its script, style and icon, the
options, the rules, the game's view and the front page's list; half in English, half in
French). The caches are warmed first, as a server that has run a while has them. The baseline
is a static file fetched alone, before each round, on the same server and machine. Each figure
is the median over `--runs` rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_core import machine, p95  # noqa: E402
from bench_table import ms  # noqa: E402

from tests.helpers.load import Timings, browser, start_game, start_server, static_baseline, under_load, warm  # noqa: E402

LANGS = ("en", "fr")


async def rounds(url: str, games: int, loads: int, runs: int) -> list[tuple[float, Timings, int]]:
    async with browser(url) as http:
        started = [await start_game(http, seed) for seed in range(games)]
    await warm(url, started[0][0], LANGS)
    out = []
    for _ in range(runs):
        base = p95(await static_baseline(url))
        timings, made = await under_load(url, started, loads, LANGS)
        out.append((base, timings, made))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--loads", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="2 rounds of 5 games and 5 page loads")
    args = parser.parse_args()
    games, loads, runs = (5, 5, 2) if args.quick else (args.games, args.loads, args.runs)
    with tempfile.TemporaryDirectory() as folder:
        proc, url = start_server(Path(folder), "--rate", "0")
        try:
            results = asyncio.run(rounds(url, games, loads, runs))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    kinds = sorted({what for _, t, _ in results for what in t.seconds})
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}")
    print(f"{games} games played and {loads} page loads at once; median of {runs} rounds")
    print(f"  baseline, a static file alone, p95: {ms(statistics.median(b for b, _, _ in results))}")
    print(f"  any request under load, p95:        {ms(statistics.median(p95(t.all()) for _, t, _ in results))}")
    print(f"  any request under load, slowest:    {ms(statistics.median(t.slowest()[1] for _, t, _ in results))}")
    for what in kinds:
        p = statistics.median(p95(t.seconds.get(what, [0.0])) for _, t, _ in results)
        n = statistics.median(len(t.seconds.get(what, [])) for _, t, _ in results)
        print(f"    {what:<9} p95 {ms(p):>8}  ({n:.0f} requests a round)")
    print(f"  decisions made while the pages loaded: {statistics.median(m for _, _, m in results):.0f} a round")


if __name__ == "__main__":
    main()
