"""Seeded games' records, one JSON line a game, to compare two versions of the code byte for byte.

    PYTHONPATH=/path/to/old python benchmarks/same_games.py old.jsonl
    PYTHONPATH=/path/to/new python benchmarks/same_games.py new.jsonl
    cmp old.jsonl new.jsonl

A change meant to make games cheaper without changing one (issue 32: the lazy look-ahead, the
greedy bot's valuations) must leave every record the same: every event, forced step, score and
winner. The plan covers the greedy, random and easy bots alone and mixed (2, 3 and 4 players, four
seeds each) under the base rules and variants with end-game helpers used during play and at the
end (VAR-CAR, TOOL-TIMING), and the medium and hard bots on fewer seeds (their CP-SAT solves take
seconds). `--quick` keeps the cheap bots only. The CPU time of the whole plan goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from dreamhome import compile_rules
from dreamhome.players.playing import play_game

HANDYMAN_IN_PLAY = 'include "base.dh"\nhelper handyman { effect swap(house, house) before_take }'
"""TOOL-TIMING: a swap of two house cards before a take (a room keeps its best token at once)."""

RULES = [(), ("car",), ("supplier_in_play",), ("more_tools",), ("handyman2", "supplier2"), ("in-play swaps",)]
SOLVER_RULES = [(), ("car",), ("supplier_in_play",), ("in-play swaps",)]


def plan(quick: bool) -> list[tuple[tuple[str, ...], int, list[str], int]]:
    """(variants, players, bots, seed) of every game."""
    games = []
    for variants in RULES:
        for players in (2, 3, 4):
            for bot in ("greedy", "random", "easy"):
                games += [(variants, players, [bot] * players, seed) for seed in range(4)]
            games.append((variants, players, ["greedy", "random", "easy", "greedy"][:players], 7))
    if not quick:
        for variants in SOLVER_RULES:
            for players in (2, 3, 4):
                games += [(variants, players, [bot] * players, players) for bot in ("medium", "hard")]
                games.append((variants, players, ["hard", "medium", "greedy", "easy"][:players], 11))
    return games


def rules_of(variants: tuple[str, ...]):
    if variants == ("in-play swaps",):
        return compile_rules(text=HANDYMAN_IN_PLAY, name="in-play swaps")
    return compile_rules(variants=list(variants))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the JSON lines file to write")
    parser.add_argument("--quick", action="store_true", help="the greedy, random and easy bots only")
    args = parser.parse_args()
    compiled = {}
    start = time.process_time()
    games = plan(args.quick)
    with open(args.out, "w", encoding="utf-8") as out:
        for variants, players, bots, seed in games:
            if variants not in compiled:
                compiled[variants] = rules_of(variants)
            record = play_game(compiled[variants], players, bots, seed).record()
            line = {"variants": variants, "players": players, "bots": bots, "seed": seed, "record": record}
            out.write(json.dumps(line, sort_keys=True) + "\n")
    print(f"{len(games)} games, {time.process_time() - start:.1f} s CPU", file=sys.stderr)


if __name__ == "__main__":
    main()
