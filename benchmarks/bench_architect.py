"""What a helper that adds to bonuses (HELP-ARCHITECT: each functionality bonus +1, each empty
room 1) is worth, three ways (issue 31, item 4: the bots value it at the greedy bot's 2 points,
the review reads it in the house):

- the review's reading at the take: the best completion of the taker's house holding it less
  the best completion without it (`solver.place.completion_bound`, the review's work 0.05, the
  pool of unseen cards, SEE-1);
- what it gave at the end: the final house's score less the same house without that helper.

    PYTHONPATH=. python benchmarks/bench_architect.py 0 40     # seeds 0–39, docs/PERFORMANCE.md

Seats hard, solver, greedy, greedy rotating with the seed, as `bench_review.py --levels`; every
seat's takes of such a helper counted. A line a take, then the means.
"""

from __future__ import annotations

import statistics
import sys
from dataclasses import replace

from dreamhome import compile_rules
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import TakeColumn
from dreamhome.game.state import GameState
from dreamhome.players.lookahead import REVIEW, unseen_pool
from dreamhome.players.playing import bot_turn, make_seats
from dreamhome.scoring import score_total
from dreamhome.solver.place import completion_bound

SEATS = ["hard", "solver", "greedy", "greedy"]


def game(rules, seed: int) -> list[tuple[int, str, int, int | None, int]]:
    """(seed, bot, round, the review's reading at the take, the points it gave at the end) a take."""
    t = rules.tables
    bots = SEATS[seed % 4 :] + SEATS[: seed % 4]
    seats = make_seats(bots, seed)
    state = GameState(rules, 4, seed)
    taken = []
    while not state.is_terminal():
        p = state.current_player()
        seat = seats[p]
        assert seat is not None
        action = bot_turn(state, seat)
        res = state.track_res[action.column] if isinstance(action, TakeColumn) else None
        if res is not None and res.kind == "helper" and t.helper_bonus_plus.get(res.id):
            obs = state.observation(p, lookahead=False)
            house, pool = obs.houses[p], unseen_pool(obs)
            try:
                without, _ = completion_bound(rules, house, pool, deterministic_time=REVIEW.work)
                holding = replace(house, helpers=house.helpers + (res.id,))
                read: int | None = completion_bound(rules, holding, pool, deterministic_time=REVIEW.work)[0] - without
            except DreamhomeError:
                read = None
            taken.append((p, res.id, state.round, read))
        state.apply_action(action)
    out = []
    for p, helper, rnd, read in taken:
        final = state.observation(p, lookahead=False).house_with_piles(p)
        rest = list(final.helpers)
        rest.remove(helper)
        worth = score_total(rules, final) - score_total(rules, replace(final, helpers=tuple(rest)))
        out.append((seed, bots[p], rnd, read, worth))
    return out


def main() -> None:
    first, last = int(sys.argv[1]), int(sys.argv[2])
    rules = compile_rules()
    rows = []
    for seed in range(first, last):
        for row in game(rules, seed):
            rows.append(row)
            print(f"seed {row[0]} {row[1]} round {row[2]}: review's reading {row[3]}, final worth {row[4]}", flush=True)
    reads = [r[3] for r in rows if r[3] is not None]
    worth = statistics.fmean(r[4] for r in rows)
    print(f"{len(rows)} takes: review's reading {statistics.fmean(reads):.2f}, final worth {worth:.2f}")


if __name__ == "__main__":
    main()
