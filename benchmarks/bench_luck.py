"""Luck by the expected measure over many seeded games (issue 31, item 3; docs/REVIEW.md).

    PYTHONPATH=. python benchmarks/bench_luck.py                       # 200 games, as the issue asks
    PYTHONPATH=. python benchmarks/bench_luck.py --games 40 --samples 4 --bots greedy,hard

Seeded 2-player games of two bots, the seats swapping with the seed. For every game, each
seat's luck — what the deals did, by play-outs (`dreamhome.review.luck.deal_luck`, the value
after each real deal less the value before it) — is computed without the rest of the review
(the losses are not needed for it). Printed: per bot and per seat, the mean luck with its 95%
interval over games (`dreamhome.intervals.mean_ci`), which should hold 0 (the luck of a deal
has mean zero by construction; a leak of the deck's order into the samples, or a deal read
before it happened, would show here), and the mean standard error of one game's luck.
Deterministic: the same figures on any machine and any number of workers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402

from dreamhome import compile_rules  # noqa: E402
from dreamhome.game.state import GameState  # noqa: E402
from dreamhome.intervals import mean_ci  # noqa: E402
from dreamhome.players.roster import make_bot  # noqa: E402
from dreamhome.review.luck import deal_luck  # noqa: E402


def one_game(args: tuple[int, list[str], int]) -> list[tuple[str, int, float, float]]:
    """(bot, seat, luck, its error) for each seat of one seeded game."""
    seed, bots, samples = args
    names = bots if seed % 2 == 0 else bots[::-1]
    seats = [make_bot(n, seed, s) for s, n in enumerate(names)]
    state = GameState(compile_rules(), len(names), seed)
    positions, actions, deals = [state.snapshot()], [], []
    while not state.is_terminal():
        bot = seats[state.current_player()]
        action = bot.choose(state.observation(lookahead=bot.looks_ahead), state.legal_actions())
        seen = len(state.events)
        state.apply_action(action)
        actions.append(action)
        deals.append(any(e.get("event") == "deal" for e in state.events[seen:]))  # ROUND-2: a new round dealt
        positions.append(state.snapshot())
    luck = deal_luck(positions, actions, deals, samples)
    return [(names[p], p, s.luck, s.error) for p, s in enumerate(luck)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--samples", type=int, default=4, help="play-outs a value")
    parser.add_argument("--bots", default="greedy,hard")
    parser.add_argument("--workers", type=int, default=2)
    a = parser.parse_args()
    bots = a.bots.split(",")
    print(machine())
    t = time.perf_counter()
    with ProcessPoolExecutor(a.workers) as pool:
        rows = [r for game in pool.map(one_game, [(s, bots, a.samples) for s in range(a.games)]) for r in game]
    print(f"{a.games} games of {' vs '.join(bots)}, {a.samples} play-outs a value, {time.perf_counter() - t:.0f} s")
    groups: dict[str, list[float]] = {}
    for bot, seat, luck, _ in rows:
        groups.setdefault(f"bot {bot}", []).append(luck)
        groups.setdefault(f"seat {seat}", []).append(luck)
    for name, values in groups.items():
        ci = mean_ci(values)
        holds = ci["low"] is not None and ci["high"] is not None and ci["low"] <= 0 <= ci["high"]
        print(
            f"{name:<14} mean luck {statistics.fmean(values):+.2f}  95% [{ci['low']:+.2f}, {ci['high']:+.2f}]  holds 0: {holds}"
        )
    print(f"one game's luck: standard error {statistics.fmean(e for *_, e in rows):.2f} (mean over seats and games)")


if __name__ == "__main__":
    main()
