"""Benchmark `dreamhome serve`: from a click to the person's next decision.

    python benchmarks/bench_web.py            # the figures of docs/PERFORMANCE.md
    python benchmarks/bench_web.py --quick    # a smoke run

A real server (`dreamhome serve --port 0` in its own process) and an HTTP client with
keep-alive play seeded games: the person picks a legal action at random (seeded), and the
time of each `POST /act` is measured — the person's action, the bots' moves until the person
decides again, the game file written (fsync) and the view built (every house drawn as SVG).
Beside it, the plain engine on the same steps: `apply_action` and the same bots, no HTTP, no
file, no drawing. Targets: greedy bots p95 ≤ 300 ms, solver bots p95 ≤ 1.5 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402
from bench_core import machine, p95  # noqa: E402
from bench_table import engine_steps  # noqa: E402
from bench_table import start_server as serve_in_process  # noqa: E402

from dreamhome.web.store import PERSON  # noqa: E402


def ms(seconds: float) -> str:
    value = seconds * 1000
    return f"{value:.1f} ms" if value < 10 else f"{value:,.0f} ms"


def start_server(folder: str) -> tuple[subprocess.Popen[str], str]:
    """bench_table's server, with no rate limit (one client, clicking at once); its URL ends in "/"."""
    proc, url = serve_in_process(folder, "--rate", "0")
    return proc, url + "/"


def play_http(http: httpx.Client, url: str, players: int, bots: list[str], seed: int) -> tuple[list[int], list[float], float]:
    """One game through the API: the person's picks, each click's time, the final page's time."""
    rng = random.Random(seed)
    made = http.post(url + "api/games", json={"seats": ["person", *bots], "seed": seed}).json()
    key = made["seats"][0]["url"].rpartition("key=")[2]
    view = http.get(f"{url}api/games/{made['game']}", headers={"X-Seat": "0", "X-Seat-Key": key}).json()
    picks, times = [], []
    while not view["terminal"]:
        index = rng.randrange(len(view["legal"]))
        t0 = time.perf_counter()
        decision = {"seat": 0, "key": key, "index": index, "version": view["version"]}
        r = http.post(f"{url}api/games/{view['id']}/act", json=decision)
        times.append(time.perf_counter() - t0)
        r.raise_for_status()
        view = r.json()
        picks.append(index)
    t0 = time.perf_counter()
    http.get(url.rstrip("/") + view["final"]).raise_for_status()
    return picks, times, time.perf_counter() - t0


def play_engine(players: int, bots: list[str], seed: int, picks: list[int]) -> list[float]:
    """The same game on the engine alone: each step is the person's action and the bots' moves
    (bench_table's `engine_steps`, the person at seat 0)."""
    assert players == 1 + len(bots)
    return engine_steps([PERSON, *bots], seed, picks, whole_game=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--greedy-games", type=int, default=10)
    parser.add_argument("--solver-games", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.greedy_games, args.solver_games = 1, 1
    setups = [
        ("2 players: you + 1 greedy bot", 2, ["greedy"], args.greedy_games, 0.300),
        ("4 players: you + 3 greedy bots", 4, ["greedy"] * 3, args.greedy_games, 0.300),
        ("2 players: you + 1 solver bot", 2, ["solver"], args.solver_games, 1.5),
        ("4 players: you + 3 solver bots", 4, ["solver"] * 3, max(1, args.solver_games // 3), None),
    ]
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        proc, url = start_server(folder)
        try:
            with httpx.Client(timeout=120) as http:
                for label, players, bots, games, target in setups:
                    web, engine, finals = [], [], []
                    for g in range(games):
                        seed = 1000 + g
                        picks, times, final = play_http(http, url, players, bots, seed)
                        web += times
                        finals.append(final)
                        engine += play_engine(players, bots, seed, picks)
                    ok = "" if target is None else (f" ≤ {target * 1000:,.0f} ms " + ("✓" if p95(web) <= target else "✗"))
                    rows.append(
                        f"| {label} | {games} | {len(web)} | {ms(statistics.median(web))} | {ms(p95(web))} | "
                        f"{ms(statistics.median(engine))} | {ms(p95(engine))} | {ms(statistics.median(finals))} | {ok.strip()} |"
                    )
                    print(rows[-1], flush=True)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(f"\n{date} — {machine()}; seeds 1000 onwards\n")
    print("| game | games | clicks | click → your turn, median | p95 | engine alone, median | p95 | final page | target |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
