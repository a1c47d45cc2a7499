"""`best_house(rules)` by CP-SAT: the best house possible under the rules, the independent check
of the plain-Python search `dreamhome.exact.best_house` (which `dreamhome max` runs by default;
`max --engine cpsat` runs this one, `max --check` both).

One player's house: one room card a round placed legally (ROUND-6, PLACE-A/B/C;
with fewer rounds than spaces the rows may hold EMPTY and the model keeps no card
above an empty space), at most one resource card per round (roofs, furnishings,
helpers), no card used more often than the manifest holds. The rows are this
model's own enumeration (`legal_rows`, read by `engine.rooms.row_rooms`), not the
search's, so `max --check` compares two independent computations.

Floors interact only through card counts, tokens and the functionality
bonuses (with horizontal annex adjacency), so the model is built on per-floor
row tables: every legal row of a floor is enumerated once in Python, rows with
the same cross-floor signature (cards of each type used, rooms of each
furnishable type, complete rooms for award tokens) keep only the best-scoring
one, and CP-SAT picks one signature per floor. Each row value is exact, which
keeps the LP bound tight and the proof short (the design notes measured a plain
per-cell model failing to prove optimality in 25 minutes).

Helpers that score (HELP-ARCHITECT, HELP-DESIGNER, any `score(...)` effect) are
chosen copy by copy; swap helpers add nothing here, since any legal final house
can be built directly. The roof is a complete roof of the best cards or none.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from ortools.sat.python import cp_model

from dreamhome.engine.cpsat import SolveSettings, found, new_solver
from dreamhome.engine.deck import roof_cards
from dreamhome.engine.functionality import add_bonuses
from dreamhome.engine.furnishings import takes_token, token_room, token_value
from dreamhome.engine.helpers import card_amounts, empty_room_points
from dreamhome.engine.roof import best_roof_choice
from dreamhome.engine.rooms import fits, row_rooms
from dreamhome.errors import DreamhomeError
from dreamhome.exact.best_house import MAX_ROWS, BestHouse, build_house, refuse_unsupported
from dreamhome.legality import final_state_violations
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0, Furnishing, Ruleset
from dreamhome.scoring import score_total
from dreamhome.solver.expr import Expr

__all__ = ["MAX_ROWS", "BestHouse", "FloorRows", "RowKind", "best_house", "floor_rows"]


@dataclass(frozen=True)
class RowKind:
    counts: tuple[int, ...]  # cards of each room code of the alphabet
    rooms: tuple[int, ...]  # rooms of each furnishable code
    complete: tuple[int, ...]  # complete rooms of each award-token code
    filled: tuple[bool, ...]  # per cell of the floor: holds a card (ROUND-6: not so, an empty space)
    empties: int  # face-down cards
    score: int
    row: tuple[int, ...]


FloorRows: TypeAlias = tuple[list[int], list[RowKind], int]
"""A floor's rows: (its alphabet of room codes then FACE_DOWN, the best row per signature, legal rows)."""


def floor_alphabet(rules: Ruleset, floor: int) -> list[int]:
    """The codes a finished floor's cell may hold: its kind's room types, then FACE_DOWN (PLACE-B)."""
    kind = rules.board.floors[floor].kind
    return [r.code for r in rules.rooms if r.floor_kind == kind] + [FACE_DOWN]


def legal_rows(rules: Ruleset, floor: int, codes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every row of the floor over `codes` whose rooms keep PLACE-C (`engine.rooms.fits`), built
    left to right: a prefix whose last run is already too large is not extended. This model's own
    enumeration, so `max --check` does not share the search's (its mirror pairs, its fused scorer)."""
    t = rules.tables
    width = len(t.floor_cells[floor])
    row: list[int] = []

    def extend(run: int) -> Iterator[tuple[int, ...]]:
        if len(row) == width:
            yield tuple(row)
            return
        for code in codes:
            size = run + 1 if row and row[-1] == code else 1
            if code >= ROOM0 and not fits(t, code, size):
                continue
            row.append(code)
            yield from extend(size)
            row.pop()

    return extend(0)


def floor_rows(rules: Ruleset, floor: int, empty_ok: bool = False) -> FloorRows:
    """Every legal row of this floor (each room read by `engine.rooms.row_rooms`), reduced to the
    best row per signature of this model: cards of each type, rooms of each furnishable type,
    complete rooms of each award type, which cells hold a card (`empty_ok`: a space may stay empty,
    ROUND-6)."""
    t = rules.tables
    alphabet = floor_alphabet(rules, floor)
    if len(alphabet) ** len(t.floor_cells[floor]) > MAX_ROWS:
        floor_kind = rules.board.floors[floor].kind
        raise DreamhomeError(f"max: a {floor_kind} floor of {len(t.floor_cells[floor])} cells has too many rows to enumerate")
    # Every type a token stands in, award tokens too (VAR-CAR): each token needs a room of its own.
    furnishable = sorted({token_room(t, f.code) for f in rules.furnishings if f.room} & set(alphabet))
    awarded = sorted({token_room(t, f.code) for f in rules.furnishings if f.room and f.award} & set(alphabet))
    awards = [f.code for f in rules.furnishings if f.award]
    best: dict[tuple[object, ...], RowKind] = {}
    legal = 0
    for row in legal_rows(rules, floor, alphabet + ([EMPTY] if empty_ok else [])):
        rooms = row_rooms(t, floor, row)
        if rooms is None:
            continue
        legal += 1
        kind = RowKind(
            tuple(row.count(c) for c in alphabet[:-1]),
            tuple(sum(1 for r in rooms if r.code == code) for code in furnishable),
            tuple(
                sum(1 for r in rooms if r.code == code and any(takes_token(t, a, code, r.size) for a in awards))
                for code in awarded
            ),
            tuple(c != EMPTY for c in row),
            row.count(FACE_DOWN),
            sum(r.points for r in rooms),
            row,
        )
        key = (kind.counts, kind.rooms, kind.complete, kind.filled)
        kept = best.get(key)
        if kept is None or kind.score > kept.score:
            best[key] = kind
    return alphabet, list(best.values()), legal


@dataclass
class _Floors:
    """The model's rows, floor by floor (one literal per legal row, exactly one chosen), and the
    expressions the other parts of the model read from them."""

    chosen: list[list[tuple[cp_model.IntVar, RowKind]]]  # per floor: [(literal, RowKind)]
    filled: list[Expr]  # per cell: 1 when it holds a card
    type_count: dict[int, Expr]  # linear expressions per room code
    rooms_of_type: dict[int, list[Expr]]
    complete_of_type: dict[int, list[Expr]]
    presence: list[dict[int, Expr]]
    empties: list[Expr]
    total_rows: int


def _add_floors(m: cp_model.CpModel, rules: Ruleset, empty_ok: bool, objective: list[Expr]) -> _Floors:
    """One literal per legal row of each floor (PLACE-A..C within the row), the rows' scores
    into `objective`."""
    t = rules.tables
    board = rules.board
    total_rows = 0
    cache: dict[tuple[str, int, tuple[tuple[int, ...], ...]], FloorRows] = {}
    filled: list[Expr] = [0] * board.size
    chosen_lits: list[list[tuple[cp_model.IntVar, RowKind]]] = []
    type_count: dict[int, Expr] = {}
    rooms_of_type: dict[int, list[Expr]] = {}
    complete_of_type: dict[int, list[Expr]] = {}
    presence: list[dict[int, Expr]] = []
    empties: list[Expr] = []
    for fi, floor in enumerate(board.floors):
        # Floors alike in kind, width and annex neighbours have the same rows: enumerate them once.
        cells = t.floor_cells[fi]
        key = (floor.kind, len(cells), tuple(tuple(t.cell_pos[j] for j in t.annex_neighbours[c]) for c in cells))
        if key not in cache:
            cache[key] = floor_rows(rules, fi, empty_ok)
            total_rows += cache[key][2]
        alphabet, kinds, _legal = cache[key]
        lits = [(m.new_bool_var(f"{floor.name}_r{k}"), kind) for k, kind in enumerate(kinds)]
        m.add_exactly_one(v for v, _ in lits)
        chosen_lits.append(lits)
        objective.append(sum(kind.score * v for v, kind in lits if kind.score))
        here: dict[int, Expr] = {}
        for a, code in enumerate(alphabet[:-1]):
            uses = [(kind.counts[a], v) for v, kind in lits if kind.counts[a]]
            type_count[code] = type_count.get(code, 0) + sum(n * v for n, v in uses)
            here[code] = sum(v for n, v in uses) if uses else 0
        presence.append(here)
        furnishable = sorted({token_room(t, f.code) for f in rules.furnishings if f.room} & set(alphabet))  # VAR-CAR too
        for a, code in enumerate(furnishable):
            rooms_of_type.setdefault(code, []).append(sum(kind.rooms[a] * v for v, kind in lits if kind.rooms[a]))
        awarded = sorted({token_room(t, f.code) for f in rules.furnishings if f.room and f.award} & set(alphabet))
        for a, code in enumerate(awarded):
            complete_of_type.setdefault(code, []).append(sum(kind.complete[a] * v for v, kind in lits if kind.complete[a]))
        empties.append(sum(kind.empties * v for v, kind in lits if kind.empties))
        for k, cell in enumerate(cells):
            filled[cell] = sum(v for v, kind in lits if kind.filled[k])
    return _Floors(chosen_lits, filled, type_count, rooms_of_type, complete_of_type, presence, empties, total_rows)


def _add_tokens(
    m: cp_model.CpModel, rules: Ruleset, floors: _Floors, objective: list[Expr], budget: list[Expr]
) -> list[tuple[Furnishing, cp_model.IntVar]]:
    """Tokens: one per room (FURN-ONE), each furnishing at most its count; award tokens need a
    complete room. Furnishing cards count against the resource budget."""
    t = rules.tables
    token_uses: list[tuple[Furnishing, cp_model.IntVar]] = []
    by_room: dict[int, list[cp_model.IntVar]] = {}
    for furn in rules.furnishings:
        use = m.new_int_var(0, furn.count if not furn.award else 1, f"tok_{furn.id}")
        token_uses.append((furn, use))
        objective.append(token_value(t, furn.code, 0) * use)
        if furn.is_card:
            budget.append(use)
        if furn.award:
            code = token_room(t, furn.code)
            m.add(use <= sum(floors.complete_of_type.get(code, [0])))
            by_room.setdefault(code, []).append(use)
        elif furn.room:
            by_room.setdefault(token_room(t, furn.code), []).append(use)
    for code, room_uses in by_room.items():
        m.add(sum(room_uses) <= sum(floors.rooms_of_type.get(code, [0])))
    return token_uses


def _add_helpers(
    m: cp_model.CpModel,
    rules: Ruleset,
    bonus_lits: list[cp_model.IntVar],
    empties: list[Expr],
    n_tokens: Expr,
    objective: list[Expr],
    budget: list[Expr],
) -> list[tuple[str, cp_model.IntVar]]:
    """Helpers that score (HELP-*): one boolean per copy, each copy one resource card."""
    t = rules.tables
    n_cells = rules.board.size
    helper_copies: list[tuple[str, cp_model.IntVar]] = []
    for card in rules.helpers + rules.tools:
        if card.kind != "helper":
            continue
        amounts = card_amounts(t, card.id)
        plus_b, plus_e, plus_t = amounts.bonus_plus, empty_room_points(amounts, 1), amounts.token_plus
        if not (plus_b or plus_e or plus_t):
            continue
        copies = [m.new_bool_var(f"{card.id}_{k}") for k in range(card.count)]
        for earlier, later in zip(copies, copies[1:]):
            m.add(earlier >= later)
        for k, copy in enumerate(copies):
            helper_copies.append((card.id, copy))
            budget.append(copy)
            if plus_b:
                for b, lit in enumerate(bonus_lits):
                    y = m.new_bool_var(f"{card.id}_{k}_b{b}")
                    m.add(y <= copy)
                    m.add(y <= lit)
                    objective.append(plus_b * y)
            if plus_e:
                z = m.new_int_var(0, n_cells, f"{card.id}_{k}_e")
                m.add(z <= sum(empties))
                m.add(z <= n_cells * copy)
                objective.append(empty_room_points(amounts, z))
            if plus_t:
                limit = sum(f.count for f in rules.furnishings)
                z = m.new_int_var(0, limit, f"{card.id}_{k}_t")
                m.add(z <= n_tokens)
                m.add(z <= limit * copy)
                objective.append(plus_t * z)
    return helper_copies


def _add_roof(m: cp_model.CpModel, rules: Ruleset, objective: list[Expr], budget: list[Expr]) -> cp_model.IntVar:
    """Roof: a complete roof of the best cards (SCORE-ROOF), or none."""
    roof_deck = roof_cards(rules)
    roof_value, roof_choice = best_roof_choice(rules, roof_deck)
    roof = m.new_bool_var("roof")
    if roof_choice:
        objective.append(roof_value * roof)
        budget.append(len(roof_choice) * roof)
    else:
        m.add(roof == 0)
    return roof


def best_house(rules: Ruleset, *, time_limit: float | None = None, workers: int = 2, seed: int = 0) -> BestHouse:
    started = time.perf_counter()
    cards = refuse_unsupported(rules)
    empty_ok = cards < rules.board.size  # ROUND-6: fewer rounds than spaces leave spaces empty
    t = rules.tables
    board = rules.board
    m = cp_model.CpModel()
    objective: list[Expr] = []
    floors = _add_floors(m, rules, empty_ok, objective)

    if empty_ok:  # ROUND-6: one card a round; PLACE-A: no card above an empty space
        m.add(sum(floors.filled) == cards)
        for cell, below in enumerate(board.below):
            if below >= 0:
                m.add(floors.filled[cell] <= floors.filled[below])

    for room in rules.rooms:  # COMP-5: no more cards of a type than the deck holds
        if not isinstance(floors.type_count.get(room.code, 0), int):
            m.add(floors.type_count[room.code] <= room.count)

    # Functionality bonuses from presence per floor.
    def support(code: int, f: int) -> list[Expr]:
        here = floors.presence[f].get(code, 0)
        return [here] if not isinstance(here, int) else []

    bonuses = add_bonuses(m, t, support)
    bonus_lits = [lit for lit, _points in bonuses]
    objective += [points * lit for lit, points in bonuses]

    budget: list[Expr] = []
    token_uses = _add_tokens(m, rules, floors, objective, budget)
    n_tokens = sum(u for _, u in token_uses)
    helper_copies = _add_helpers(m, rules, bonus_lits, floors.empties, n_tokens, objective, budget)
    roof = _add_roof(m, rules, objective, budget)
    m.add(sum(budget) <= rules.game.rounds)  # one resource card a round at most

    m.maximize(sum(objective))
    solver = new_solver(SolveSettings(workers=workers, seed=seed, time_limit=time_limit))
    result = solver.solve(m)
    if not found(result):
        raise DreamhomeError(f"max: no house found ({solver.status_name(result)}); try a longer --time-limit")

    # Build the house the model chose, then score it with the ordinary scorer.
    rows = [next(kind for v, kind in lits if solver.value(v)).row for lits in floors.chosen]
    helpers = tuple(hid for hid, copy in helper_copies if solver.value(copy))
    token_counts = [(furn, solver.value(use)) for furn, use in token_uses]
    house = build_house(rules, rows, token_counts, helpers, bool(solver.value(roof)))
    total = score_total(rules, house)
    claimed = round(solver.objective_value)
    problems = [v for v in final_state_violations(rules, house)]
    # A proven answer must score exactly what the model claims; a search stopped by the time limit
    # (FEASIBLE) may leave objective terms below what its house really scores, never above.
    # (A search stopped by a signal never gets here: the solve raises interrupt.Interrupted.)
    proven = result == cp_model.OPTIMAL
    if (total != claimed if proven else total < claimed) or problems:
        raise RuntimeError(f"internal error: max model claims {claimed}, the house scores {total}; {problems[:2]}")
    return BestHouse(total, proven, house, solver.status_name(result), time.perf_counter() - started, floors.total_rows)
