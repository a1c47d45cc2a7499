"""`dreamhome place HOUSE CARD`: every legal placement of a room card, with its bound.

The bound of a placement is the best final score the house could still reach
if every remaining free cell were filled with the best still-available room
cards (the pool), no further resource card came, and the end-game helpers it
holds were used optimally (completion.py). Ranked best bound first; ties go
face up before face down, then to the lower cell index (top/0 … basement/4).
"""

from __future__ import annotations

import difflib
import multiprocessing
import os
import time
from collections import Counter
from dataclasses import dataclass
from typing import TypeAlias

from ortools.sat.python import cp_model

from dreamhome.engine.cpsat import CardClass, HouseModel, SolveSettings, found, new_solver
from dreamhome.engine.deck import rooms_left
from dreamhome.engine.endgame import best_roof_discard_picks, helper_uses
from dreamhome.engine.helpers import keeps_rooms_open
from dreamhome.engine.placement import Placement, apply_placement, legal_placements
from dreamhome.errors import DreamhomeError
from dreamhome.house import House
from dreamhome.legality import house_violations, summarize_violations
from dreamhome.ruleset import EMPTY, SCAFFOLD, Ruleset
from dreamhome.scoring import add_final_score
from dreamhome.solver.completion import Completion, InHand, add_completion, completion_classes
from dreamhome.solver.expr import Expr
from dreamhome.solver.swaps import Swaps

Option: TypeAlias = tuple[int, int, Placement]
"""A way to place a card in hand now: (its take's index, its room code, the placement)."""
BoundJob: TypeAlias = tuple[Ruleset, House, dict[int, int], float | None, int]
"""One placement's bound to solve: (rules, the house after the placement, pool, deadline, CP-SAT workers)."""


@dataclass(frozen=True)
class PlacementBound:
    placement: Placement
    bound: int
    optimal: bool  # CP-SAT proved the bound (else: the best found when time ran out)

    def to_json(self, rules: Ruleset) -> dict[str, object]:
        return {
            "cell": rules.board.cells[self.placement.cell],
            "face_down": self.placement.face_down,
            "bound": self.bound,
            "optimal": self.optimal,
        }


def read_pool(rules: Ruleset, data: object, source: str) -> dict[int, int]:
    """A pool file: {"rooms": {"<room id>": 3, …}} or a list of room ids.

    Everything is checked, since a pool comes from a user's file: the shape, every id,
    and every count (a whole number from 0 to the size of the room deck; a larger count
    cannot come and would only slow the solver down).
    """
    from dreamhome.fileio import printable

    shape = f'{source}: expected {{"rooms": {{"<room id>": 3, ...}}}} or a list of room ids'
    if isinstance(data, dict):
        extra = sorted(set(data) - {"rooms"})
        if extra:
            raise DreamhomeError(f"{source}: unknown key {printable(repr(extra[0]))}; expected rooms")
        items = data.get("rooms")
    else:
        items = data
    if isinstance(items, list):
        bad = next((i for i, rid in enumerate(items) if not isinstance(rid, str)), None)
        if bad is not None:
            raise DreamhomeError(f"{source}: [{bad}]: expected a room id (a string)")
        items = Counter(items)
    if not isinstance(items, dict):
        raise DreamhomeError(shape)
    deck = sum(r.count for r in rules.rooms)
    pool: dict[int, int] = {}
    for rid, n in items.items():
        if not isinstance(rid, str) or not rules.has_room(rid):
            close = difflib.get_close_matches(str(rid), rules.ids("room"), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise DreamhomeError(f"{source}: unknown room {printable(repr(rid))}{hint}")
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= deck:
            raise DreamhomeError(f"{source}: rooms.{rid}: expected a count, a whole number from 0 to {deck} (the room deck)")
        pool[rules.room(rid).code] = n
    return pool


def completion_bound(
    rules: Ruleset,
    house: House,
    pool: dict[int, int],
    *,
    time_limit: float | None = None,
    workers: int = 1,
    seed: int = 0,
    deterministic_time: float | None = None,
) -> tuple[int, bool]:
    """The best final score of any completion of `house` (then its end game), and whether it is
    proven."""
    value, proven, _ = _solve_completion(rules, house, pool, [], time_limit, workers, seed, deterministic_time)
    return value, proven


def best_placement_now(
    rules: Ruleset,
    house: House,
    pool: dict[int, int],
    card: int,
    placements: list[Placement],
    *,
    deterministic_time: float | None = None,
    seed: int = 0,
) -> tuple[int, Placement]:
    """One solve instead of one per placement: the completion where the card in hand goes on one
    of `placements` now (`pool`: the cards still to come, the card in hand not among them).
    Returns the best completion's score and the placement the card in hand takes. The solver
    bot uses this; `place` needs every placement's own bound."""
    value, _proven, chosen = best_placement_bound(
        rules, house, pool, card, placements, deterministic_time=deterministic_time, seed=seed
    )
    return value, chosen


def best_placement_bound(
    rules: Ruleset,
    house: House,
    pool: dict[int, int],
    card: int,
    placements: list[Placement],
    *,
    time_limit: float | None = None,
    deterministic_time: float | None = None,
    seed: int = 0,
    bonus: list[int] | None = None,
) -> tuple[int, bool, Placement]:
    """`best_placement_now` under a wall-clock limit, saying whether the value is proven: the
    hints of a human seat (dreamhome.players.hints) must answer within a second and say so when
    the solver ran out of time. `bonus`: whole points added to the value of each placement (one
    a placement), in the objective: the look-ahead's bound on what a furnishing still to resolve
    adds after the placement (RES-FURN, `players.lookahead`)."""
    options = [(0, card, pl) for pl in placements]
    total, proven, chosen = _solve_completion(
        rules, house, pool, options, time_limit, 1, seed, deterministic_time, option_bonus=bonus
    )
    assert chosen is not None  # the model places the card in hand on exactly one of `placements`
    return total, proven, placements[chosen]


@dataclass(frozen=True)
class Take:
    """One card on the track the player may take now (`best_take_now`): its room code, the
    placements it may take, and a value added for what comes with it (its resource card)."""

    card: int
    placements: list[Placement]
    bonus: float = 0.0


TAKE_SCALE = 1000
"""`best_take_now`'s objective unit: a point is 1,000, a bonus is kept to 1/100 of a point."""


def take_options(takes: list[Take], per: int = 1) -> tuple[list[Option], list[int]]:
    """The options of a choice among takes, and each one's bonus in the objective's unit
    (`TAKE_SCALE`, for an objective that sums `per` completions): a bonus kept to the hundredth
    of a point, the last digit preferring earlier takes among equal values (at most 9 takes)."""
    options = [(i, take.card, pl) for i, take in enumerate(takes) for pl in take.placements]
    if not options:
        raise DreamhomeError("place: no take has a placement")
    if len(takes) > 9:
        raise DreamhomeError("place: at most 9 takes are compared in one solve")
    return options, [take_bonus_units(takes[i].bonus, i, len(takes), per) for i, _c, _p in options]


def take_bonus_units(value: float, index: int, takes: int, per: int = 1) -> int:
    """A bonus of `value` points for the take at `index` of `takes`, in `take_options`' unit: one
    place, so a caller that weighs its options otherwise (benchmarks' measured variants) keeps
    the same rounding and the same preference for earlier takes."""
    return round(value * per * 100) * 10 + (takes - index)


def best_take_now(
    rules: Ruleset,
    house: House,
    pool: dict[int, int],
    takes: list[Take],
    *,
    deterministic_time: float | None = None,
    seed: int = 0,
) -> tuple[float, int, Placement]:
    """One solve for a choice among cards on the track, instead of one `best_placement_now` per
    card: `pool` counts every card of `takes` (they are still to come until one is taken). The
    value of a take is the best completion with its card placed now plus its bonus; returns the
    best value, the index of its take and the placement. Equal values go to the earlier take, so
    a caller ranks its takes by preference. (The solver bot compares columns with it.)"""
    options, bonus = take_options(takes)
    total, _proven, chosen = _solve_completion(
        rules, house, pool, options, None, 1, seed, deterministic_time, from_pool=True, scale=TAKE_SCALE, option_bonus=bonus
    )
    assert chosen is not None  # the model places exactly one option
    i, _card, placement = options[chosen]
    return (total - (len(takes) - i)) / TAKE_SCALE, i, placement


class CompletionModel:
    """One CP-SAT model of a house's completion (then its end game), the card in hand placed by
    the model on one of `options`; with `from_pool`, cards the pool still counts, one of which
    the model takes (`best_take_now`). Built in steps — `add_completion`, `count`, `solve` — so
    a model may hold several completions sharing the card in hand's cell (the sampled futures
    measured in benchmarks/tuning_bots.py, tests/helpers/sampled_futures.py)."""

    def __init__(self, rules: Ruleset, house: House, pool: dict[int, int], options: list[Option], from_pool: bool = False):
        self.rules, self.house, self.pool, self.options = rules, house, pool, options
        uses = helper_uses(rules, house)
        self.discard = Counter(rules.room(r).code for r in house.discard_rooms)
        self.n_sup = len(uses.room_discard_swap) if self.discard else 0
        self.swaps = Swaps.of(uses)
        self.roof_points, _picks = best_roof_discard_picks(rules, house.roofs, house.discard_roofs, len(uses.roof_discard_take))
        cards = {card for _i, card, _pl in options}
        self.classes = completion_classes(house, rules, sorted(set(pool) | set(self.discard) | cards))
        self.model = cp_model.CpModel()
        self.objective: list[Expr] = []
        self.chosen = [self.model.new_bool_var(f"hand{j}") for j in range(len(options))]
        self.in_hand: InHand | None = None
        if options:
            self.model.add_exactly_one(self.chosen)
            # The card in hand is one card: face up, a card of its type; face down, an empty room.
            pairs = list(zip(self.chosen, options))
            self.in_hand = InHand(
                face_up={c: sum(z for z, (_i, card, pl) in pairs if card == c and not pl.face_down) for c in cards},
                from_pool={c: sum(z for z, (_i, card, _pl) in pairs if card == c) for c in cards} if from_pool else {},
            )

    def add_completion(self, name: str) -> tuple[HouseModel, Completion]:
        """One completion of the house on the model (its variables named from `name`)."""
        hm = HouseModel(self.rules, self.classes, model=self.model)
        house = self.house
        keep_open = keeps_rooms_open(self.rules, house)
        final = add_completion(hm, house, self.pool, dict(self.discard), self.n_sup, self.swaps, keep_open, name, self.in_hand)
        return hm, final

    def count(self, hm: HouseModel, final: Completion, weight: int = 1) -> None:
        """The completion's final score into the objective (× `weight`), the card in hand on the
        cell its chosen option names."""
        add_final_score(hm, final.stage, self.house)
        hm.constant += self.roof_points
        self.objective.append(hm.objective_expr() * weight)
        down = hm.index.get(CardClass("down", 0))
        for z, (_i, card, pl) in zip(self.chosen, self.options):
            k = down if pl.face_down else hm.index.get(CardClass("up", card))
            lit = final.fresh.get((pl.cell, k)) if k is not None else None  # no such class: no such card
            self.model.add_implication(z, lit) if lit is not None else self.model.add(z == 0)

    def solve(
        self,
        time_limit: float | None,
        workers: int,
        seed: int,
        deterministic_time: float | None,
        *,
        scale: int = 1,
        option_bonus: list[int] | None = None,
    ) -> tuple[int, bool, int | None]:
        """The optimum — `scale` × the counted completions' values, plus the chosen option's
        bonus — whether it is proven, and the index of the option the card in hand takes (None
        without a card in hand)."""
        model = self.model
        extra: Expr = sum(b * z for b, z in zip(option_bonus, self.chosen)) if option_bonus else 0
        model.maximize(scale * sum(self.objective) + extra)
        # The full linear relaxation (PLACE-C windows, token pairs, closure) in the LP, without CP-SAT's
        # generated cuts: measured ~10× faster proofs with a room-discard swap and a house swap, where the default
        # LP bound stays far above the optimum (docs/PERFORMANCE.md).
        settings = SolveSettings(
            workers=workers,
            seed=seed,
            time_limit=None if time_limit is None else max(time_limit, 0.001),
            deterministic_time=deterministic_time,  # reproducible whatever the machine's load (bots, what-ifs)
            linearization_level=2,
            cut_level=0,
        )
        solver = new_solver(settings)
        result = solver.solve(model)
        if not found(result):
            raise DreamhomeError(f"place: no completion of the house found ({solver.status_name(result)})")
        chosen = next((j for j, z in enumerate(self.chosen) if solver.value(z)), None)
        return round(solver.objective_value), result == cp_model.OPTIMAL, chosen


def _solve_completion(
    rules: Ruleset,
    house: House,
    pool: dict[int, int],
    options: list[Option],
    time_limit: float | None,
    workers: int,
    seed: int,
    deterministic_time: float | None,
    *,
    from_pool: bool = False,
    scale: int = 1,
    option_bonus: list[int] | None = None,
) -> tuple[int, bool, int | None]:
    """`CompletionModel` with one completion, solved."""
    built = CompletionModel(rules, house, pool, options, from_pool)
    built.count(*built.add_completion("s0"))
    return built.solve(time_limit, workers, seed, deterministic_time, scale=scale, option_bonus=option_bonus)


def placement_bounds(
    rules: Ruleset,
    house: House,
    card: str,
    *,
    pool: dict[int, int] | None = None,
    time_limit: float | None = None,
    workers: int = 1,
    processes: int | None = None,
) -> list[PlacementBound]:
    """Every legal placement of `card` with its bound, best first. Each bound is its own solve
    (one CP-SAT worker each unless `workers` says otherwise); `processes` solves placements side
    by side in forked processes — the answers do not depend on it. None: one per core when the
    house holds a swap helper (the slow case), else one."""
    if not rules.has_room(card):
        close = difflib.get_close_matches(card, rules.ids("room"), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise DreamhomeError(f"unknown room card '{card}'{hint}")
    violations = house_violations(rules, house)
    if violations:
        raise DreamhomeError(f"the house is illegal ({summarize_violations(violations)}); see `dreamhome check`")
    code = rules.room(card).code
    pool = dict(rooms_left(rules, house) if pool is None else pool)
    if pool.get(code, 0) > 0:
        pool[code] -= 1  # the card in hand comes out of the pool
    free = sum(1 for c in house.cells if c in (EMPTY, SCAFFOLD))
    if free and sum(pool.values()) < free - 1:
        raise DreamhomeError(
            f"the pool holds {sum(pool.values())} room cards, but {free - 1} free spaces would remain to fill after this card"
        )
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    placements = legal_placements(rules, house, card)
    jobs = [(rules, apply_placement(rules, house, card, p), pool, deadline, workers) for p in placements]
    if processes is None:
        uses = helper_uses(rules, house)
        processes = (os.cpu_count() or 1) if (uses.room_discard_swap or Swaps.of(uses)) else 1
    processes = min(processes, len(jobs))
    nested = multiprocessing.current_process().daemon  # a pool's worker may not start another pool
    if processes > 1 and not nested and "fork" in multiprocessing.get_all_start_methods():
        # Forked children inherit the rules and houses; only indexes and two ints travel.
        global _JOBS
        _JOBS = jobs
        try:
            with multiprocessing.get_context("fork").Pool(processes) as workers_pool:
                results = workers_pool.map(_bound_of_job, range(len(jobs)), chunksize=1)
        finally:
            _JOBS = []
    else:
        results = [_bound(*job) for job in jobs]
    out = [PlacementBound(p, bound, proven) for p, (bound, proven) in zip(placements, results)]
    out.sort(key=lambda b: (-b.bound, b.placement.face_down, b.placement.cell))
    return out


_JOBS: list[BoundJob] = []


def _bound_of_job(index: int) -> tuple[int, bool]:
    return _bound(*_JOBS[index])


def _bound(rules: Ruleset, after: House, pool: dict[int, int], deadline: float | None, workers: int) -> tuple[int, bool]:
    left = None if deadline is None else deadline - time.perf_counter()
    return completion_bound(rules, after, pool, time_limit=left, workers=workers)
