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

Then the review (issue 33: its page's first byte within 1 s, its content within 10 times a game
of four solver bots), `--reviews` times on the same server: a game of four solver bots started
(the start answers once the bots have played it to its end, its time the game's), and its review
page asked for at once (`dreamhome serve` starts a game's review as the game ends): the first
answer's first byte (the waiting page, 202), then the page asked again every `POLL` seconds
until it is the review (200): the time from the game's end, against the game's own time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_core import machine, p95  # noqa: E402
from bench_table import ms  # noqa: E402

from dreamhome import compile_rules  # noqa: E402
from dreamhome.players.playing import play_game  # noqa: E402
from tests.helpers.load import Timings, browser, play, start_game, start_server, static_baseline, under_load, warm  # noqa: E402

LANGS = ("en", "fr")
POLL = 0.2
"""Seconds between two asks for a review page not ready yet (the page itself asks every 3 s:
this measures the review's own time, not the page's wait)."""


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


def solver_game(seed: int) -> float:
    """Seconds of a game of four solver bots played in this process (the server idle): what
    issue 23 measures a review against."""
    t0 = time.perf_counter()
    play_game(compile_rules(), 4, ["solver"] * 4, seed)
    return time.perf_counter() - t0


async def review_round(url: str, seed: int) -> tuple[float, float, float]:
    """A 4-player game at the table (a person clicking the first legal action, three solver
    bots) played to its end, and its review page asked for at once: the game's seconds at the
    table, the review page's first byte, and the seconds from the game's end until the review
    page answers 200."""
    async with browser(url) as http:
        made = await http.post("/api/games", json={"seats": ["person", "solver", "solver", "solver"], "seed": seed})
        made.raise_for_status()
        game_id, key = made.json()["game"], made.json()["seats"][0]["url"].rpartition("key=")[2]
    t0 = time.perf_counter()
    await play(browser(url), game_id, key, Timings(), asyncio.Event())
    ended = time.perf_counter()
    async with browser(url) as http:
        async with http.stream("GET", f"/games/{game_id}/review") as first:
            first_byte = time.perf_counter() - ended
            status = first.status_code
            await first.aread()
        while status != 200:
            if status != 202:
                raise RuntimeError(f"the review page answered {status}")
            await asyncio.sleep(POLL)
            status = (await http.get(f"/games/{game_id}/review")).status_code
    return ended - t0, first_byte, time.perf_counter() - ended


async def reviews(url: str, times: int) -> list[tuple[float, float, float]]:
    return [await review_round(url, seed) for seed in range(times)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--loads", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reviews", type=int, default=3, help="games of four solver bots reviewed (0: none)")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 5 games and 5 page loads, one review")
    args = parser.parse_args()
    games, loads, runs = (5, 5, 2) if args.quick else (args.games, args.loads, args.runs)
    times = min(args.reviews, 1) if args.quick else args.reviews
    with tempfile.TemporaryDirectory() as folder:
        proc, url = start_server(Path(folder), "--rate", "0")
        try:
            results = asyncio.run(rounds(url, games, loads, runs))
            solver_game(999)  # imports and first solves, not timed
            solo = [solver_game(seed) for seed in range(times)]
            reviewed = asyncio.run(reviews(url, times))
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
    for seed, (alone, (game, first, content)) in enumerate(zip(solo, reviewed)):
        print(
            f"  seed {seed}: four solver bots' game {alone:.2f} s; at the table (a person, three solver bots)"
            f" {game:.2f} s, its review page's first byte {ms(first)}, the review {content:.2f} s after the"
            f" game's end ({content / alone:.1f}x the four solvers' game)"
        )


if __name__ == "__main__":
    main()
