"""The shared CP-SAT model builder: a house as states of cells holding card classes.

A *card class* is what a cell can hold, up to interchangeability: a plain
face-up card of a room type, one particular card carrying a furnishing token
(tokens travel with their cards, END-HANDYMAN), or an empty room with the
printed type under it (PLACE-EMPTY; the printed type matters once a room-discard swap
swaps it into the discard pile). Two plain kitchens are the same class, which
keeps the models small.

A *stage* is a house in the model: per cell, literals for the classes it may
hold. solver/effects.py (END-SUPPLIER, END-HANDYMAN) and solver/completion.py
(a house in play, then its end game) build the final stage; the rule areas add
their terms for it: engine/rooms.py (PLACE-C, room points, annexes),
engine/functionality.py, engine/furnishings.py (scoring.add_final_score adds
them all).

Every CP-SAT solve of the project is set up here, by `SolveSettings` and
`new_solver`: one settings type, one place that turns it into parameters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from dreamhome import interrupt
from dreamhome.house import House
from dreamhome.ruleset import FACE_DOWN, Ruleset


@dataclass(frozen=True)
class SolveSettings:
    """How one CP-SAT solve runs. `deterministic_time` bounds the work in CP-SAT's deterministic
    units, so an answer that feeds a game or a what-if is the same on any machine under any load;
    `time_limit` bounds wall-clock seconds (a user's --time-limit)."""

    workers: int = 1
    seed: int = 0
    time_limit: float | None = None
    deterministic_time: float | None = None
    presolve: bool = True
    probing: bool = True  # False: no probing at the root nor SAT inprocessing during the search
    linearization_level: int | None = None
    cut_level: int | None = None

    def __post_init__(self) -> None:
        # nan passes every range check (each comparison is false) and CP-SAT took it as "no
        # bound"; a library caller gets one line here, as the command line's options do.
        for name in ("time_limit", "deterministic_time"):
            value = getattr(self, name)
            if value is not None and not (math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite number of seconds from 0, got {value!r}")

    def until(self, deadline: float | None, now: float) -> SolveSettings:
        """These settings with the time left before `deadline` (a perf_counter value) as the limit."""
        if deadline is None:
            return self
        return replace(self, time_limit=max(deadline - now, 0.001))


class InterruptibleSolver(cp_model.CpSolver):
    """A CpSolver whose solve a SIGINT or SIGTERM stops and turns into `interrupt.Interrupted`.

    CP-SAT's own SIGINT handler is off (`catch_sigint_signal`): with it, Ctrl-C merely cut the
    search short and the command went on from the cut-short answer (a self-check tripped, or a
    game continued from another move). dreamhome.interrupt stops the search instead and the
    solve raises, so a stopped search never passes for an answer.
    """

    def solve(self, model: cp_model.CpModel, solution_callback=None) -> cp_model.CpSolverStatus:
        with interrupt.solving(self):
            return super().solve(model, solution_callback)


def new_solver(settings: SolveSettings) -> cp_model.CpSolver:
    """A CP-SAT solver with these settings; the only place the project sets solver parameters."""
    solver = InterruptibleSolver()
    p = solver.parameters
    p.catch_sigint_signal = False  # signals are dreamhome.interrupt's job
    p.num_workers = settings.workers
    p.random_seed = settings.seed
    if settings.time_limit is not None:
        p.max_time_in_seconds = settings.time_limit
    if settings.deterministic_time is not None:
        p.max_deterministic_time = settings.deterministic_time
    if not settings.presolve:
        p.cp_model_presolve = False
    if not settings.probing:
        p.cp_model_probing_level = 0
        p.use_sat_inprocessing = False
    if settings.linearization_level is not None:
        p.linearization_level = settings.linearization_level
    if settings.cut_level is not None:
        p.cut_level = settings.cut_level
    return solver


def found(status: cp_model.CpSolverStatus) -> bool:
    """The solve returned an answer (proven or not)."""
    return status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


@dataclass(frozen=True)
class CardClass:
    kind: str  # "up" (plain face-up), "token" (a face-up card with its token), "down" (an empty room)
    room: int  # room code: the face-up type, or the printed type under an empty room (0: unknown)
    token: int = 0  # furnishing code for "token" classes
    origin: int = -1  # for "token": the cell the card started on (each is one physical card)

    @property
    def face_up_type(self) -> int:
        return self.room if self.kind in ("up", "token") else 0

    @property
    def printed(self) -> int:
        return self.room

    def describe(self, rules: Ruleset) -> str:
        if self.kind == "down":
            under = f" ({rules.room_of_code(self.room).name.lower()} under it)" if self.room else ""
            return f"empty room{under}"
        name = rules.room_of_code(self.room).name.lower()
        if self.kind == "token":
            return f"{name} with {rules.furnishings[self.token - 1].name.lower()}"
        return name


def house_class(house: House, cell: int) -> CardClass:
    code = house.cells[cell]
    if code == FACE_DOWN:
        return CardClass("down", house.under[cell])
    if house.tokens[cell]:
        return CardClass("token", code, house.tokens[cell], cell)
    return CardClass("up", code)


@dataclass
class Stage:
    """One state of the house: content[cell][class index] = the literals meaning
    "this cell holds a card of this class" (at most one of them is true)."""

    content: list[dict[int, list]]
    _up: dict = field(default_factory=dict, repr=False)


@dataclass
class HouseModel:
    """A CP-SAT model over stages of one house; rule areas add to it."""

    rules: Ruleset
    classes: list[CardClass]
    model: cp_model.CpModel = field(default_factory=cp_model.CpModel)
    objective: list = field(default_factory=list)  # (coefficient, expression) pairs
    constant: int = 0

    def __post_init__(self) -> None:
        self.index = {c: k for k, c in enumerate(self.classes)}
        t = self.rules.tables
        # Which classes each cell can hold: PLACE-B for face-up cards; empty rooms go anywhere.
        self.allowed: list[list[int]] = [
            [k for k, c in enumerate(self.classes) if c.kind == "down" or t.allowed[cell][c.room]] for cell in range(t.n_cells)
        ]
        self.types = sorted({c.room for c in self.classes if c.kind in ("up", "token")})

    # ---- derived expressions ----------------------------------------
    def face_up_lits(self, stage: Stage, cell: int, room: int) -> list:
        if not stage._up:
            for c, here in enumerate(stage.content):
                for k, lits in here.items():
                    up = self.classes[k].face_up_type
                    if up:
                        stage._up.setdefault((c, up), []).extend(lits)
        return stage._up.get((cell, room), [])

    def face_up(self, stage: Stage, cell: int, room: int):
        """Linear expression: 1 when `cell` holds a face-up card of `room`."""
        lits = self.face_up_lits(stage, cell, room)
        return sum(lits) if lits else 0

    def token_lits(self, stage: Stage, cell: int, room: int) -> list:
        return [
            v
            for k, lits in stage.content[cell].items()
            if self.classes[k].kind == "token" and self.classes[k].room == room
            for v in lits
        ]

    def class_lits(self, stage: Stage, cell: int, k: int) -> list:
        return stage.content[cell].get(k, [])

    def down_lits(self, stage: Stage) -> list:
        return [v for cell in stage.content for k, lits in cell.items() if self.classes[k].kind == "down" for v in lits]

    def count(self, stage: Stage, k: int):
        return sum(v for cell in stage.content for v in cell.get(k, []))

    def add_objective(self, coefficient: int, expr) -> None:
        if coefficient:
            self.objective.append((coefficient, expr))

    def objective_expr(self):
        return sum(c * e for c, e in self.objective) + self.constant


def classes_for(rules: Ruleset, houses: list[House], extra_types=(), down_types=()) -> list[CardClass]:
    """Every class the given houses hold, plus plain face-up cards of `extra_types` and
    empty rooms printed with `down_types`, in a canonical order."""
    seen: set[CardClass] = set()
    for house in houses:
        for cell in range(rules.board.size):
            seen.add(house_class(house, cell))
    for t in extra_types:
        seen.add(CardClass("up", t))
    for t in down_types:
        seen.add(CardClass("down", t))
    order = {"up": 0, "token": 1, "down": 2}
    return sorted(seen, key=lambda c: (order[c.kind], c.room, c.token, c.origin))


__all__ = [
    "CardClass",
    "HouseModel",
    "InterruptibleSolver",
    "SolveSettings",
    "Stage",
    "classes_for",
    "found",
    "house_class",
    "new_solver",
]
