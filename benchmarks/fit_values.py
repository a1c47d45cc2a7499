"""Values from self-play (issue 25): how well the solver bot's look-ahead predicts its final score.

    PYTHONPATH=.:benchmarks python benchmarks/fit_values.py --games 150 --seed 9000 [--out fit.json]

Four solver bots (every column compared) play `--games` seeded games. At each of their column
choices every column's own bound is solved (the best completion with its room card placed, as
`place.best_take_now` values one take), and the chosen column's features are kept: the bound,
the score right after the placement, the resource card's value (`SolverBot._resource_value`)
and whether it brings the first-player marker. Then, per third of the game (rounds 1–4, 5–8,
9–12), a least-squares fit of the final score on those features, and the share of choices whose
best bound was shared by more than one column (a tie the bound cannot break).

The fit is the procedure behind `tuning_bots.ResourcesEarly` (a resource point weighed as the
fit's ratio to a bound point); that bot measured no stronger (docs/PERFORMANCE.md, "A stronger
bot"), so no fitted value ships in the package. `--out` writes the coefficients as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402
from tuning_bots import FiveColumns  # noqa: E402

from dreamhome.engine.placement import apply_placement, legal_placements  # noqa: E402
from dreamhome.errors import DreamhomeError  # noqa: E402
from dreamhome.game.actions import Action, TakeColumn  # noqa: E402
from dreamhome.game.observation import Observation  # noqa: E402
from dreamhome.game.state import MARKER_COLUMN  # noqa: E402
from dreamhome.scoring import score_total  # noqa: E402

PHASES = ((1, 4), (5, 8), (9, 12))
FEATURES = ("constant", "bound", "score now", "resource value", "marker")


class Logging(FiveColumns):
    """`FiveColumns`, logging each column choice: every column's bound, and the chosen one's features."""

    def __init__(self, seed: int, seat: int):
        super().__init__(seed, seat)
        self.rows: list[dict[str, Any]] = []

    def _best_column(self, obs: Observation, legal: list[Action]) -> Action:
        from dreamhome.solver.place import Take, best_take_now

        rules = obs.rules
        house = obs.houses[obs.me]
        light, pool = self._light(obs, house), self._pool(obs)
        bounds: dict[int, tuple[float, dict[str, float]]] = {}
        for action in legal:
            if not isinstance(action, TakeColumn):
                continue
            room = obs.track_rooms[action.column]
            assert room is not None
            placements = legal_placements(rules, house, room)
            if not placements:
                continue
            try:
                value, _i, placement = best_take_now(rules, light, pool, [Take(room, placements)], deterministic_time=0.04)
            except DreamhomeError:
                continue
            marker = action.column == MARKER_COLUMN and obs.round < rules.game.rounds
            bounds[action.column] = (
                value,
                {
                    "bound": value,
                    "score now": score_total(rules, apply_placement(rules, house, room, placement)),
                    "resource value": self._resource_value(obs, obs.track_res[action.column], room),
                    "marker": float(marker),
                },
            )
        choice = super()._best_column(obs, legal)
        if bounds and isinstance(choice, TakeColumn) and choice.column in bounds:
            top = max(v for v, _f in bounds.values())
            tied = sum(1 for v, _f in bounds.values() if v == top) > 1
            self.rows.append({"round": obs.round, "tied": tied, **bounds[choice.column][1]})
        return choice


def play(seed: int) -> list[dict[str, Any]]:
    from dreamhome.dsl.compiler import compile_rules
    from dreamhome.game.state import GameState

    rules = compile_rules()
    bots = [Logging(seed, s) for s in range(4)]
    state = GameState(rules, 4, seed)
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(bots[p].choose(state.observation(p), state.legal_actions()))
    final = state.returns()
    return [{**row, "final": final[s]} for s, bot in enumerate(bots) for row in bot.rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=9000, help="first seed (apart from the tuning and benchmark seeds)")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", help="write the fitted coefficients here (JSON)")
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}\n")
    with ProcessPoolExecutor(args.processes) as pool:
        rows = [r for game in pool.map(play, range(args.seed, args.seed + args.games)) for r in game]
    ties, counts = Counter(r["round"] for r in rows if r["tied"]), Counter(r["round"] for r in rows)
    print("| round | " + " | ".join(str(r) for r in sorted(counts)) + " |")
    print("|---|" + "---|" * len(counts))
    print(
        "| column choices with a tie at the best bound | "
        + " | ".join(f"{ties[r] / counts[r]:.0%}" for r in sorted(counts))
        + " |"
    )
    print(f"\n| rounds | choices | {' | '.join(FEATURES)} | residual (points) | corr(bound, final) |")
    print("|---|---|" + "---|" * (len(FEATURES) + 2))
    fitted = {}
    for lo, hi in PHASES:
        part = [r for r in rows if lo <= r["round"] <= hi]
        x = np.array([[1.0] + [float(r[f]) for f in FEATURES[1:]] for r in part])
        y = np.array([float(r["final"]) for r in part])
        w, *_ = np.linalg.lstsq(x, y, rcond=None)
        residual = float(np.sqrt(np.mean((y - x @ w) ** 2)))
        corr = float(np.corrcoef(x[:, 1], y)[0, 1])
        fitted[f"{lo}-{hi}"] = dict(zip(FEATURES, map(float, w)))
        print(f"| {lo}–{hi} | {len(part)} | {' | '.join(f'{v:.3f}' for v in w)} | {residual:.2f} | {corr:.2f} |")
    if args.out:
        Path(args.out).write_text(json.dumps(fitted, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
