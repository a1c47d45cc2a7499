"""Runs and rooms: PLACE-B, PLACE-C and SCORE-ROOMS with the annex bonus, in one place.

A room is a maximal run of face-up cards of one type on a floor (PLACE-C); it
scores its type's points for its size, or, for an annex type, the bonus value
when some card of the room stands beside a card of the named type (SCORE-ROOMS;
"beside" follows the `annex_adjacency` option through `Tables.annex_neighbours`).

Plain Python first — the one run scanner (`runs`), the one room value
(`room_points`), the one "beside" test (`annex_beside`), whole-house and
one-floor-row readings built from them — then the CP-SAT builders of the same
rules (`add_max_size`, `add_room_points`, `add_annex_points`). To change how
rooms score, this is the module to edit; legality, both scorers, the end-game
tables, `max` and the CP-SAT models all read it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dreamhome.ruleset import ROOM0

if TYPE_CHECKING:
    from dreamhome.engine.cpsat import HouseModel, Stage
    from dreamhome.house import House
    from dreamhome.ruleset import Ruleset
    from dreamhome.tables import Tables


@dataclass(frozen=True)
class Room:
    """One room of a house: its type code, its cells (left to right), and its points."""

    code: int
    cells: tuple[int, ...]
    points: int
    beside: bool  # an annex room that earns its bonus

    @property
    def size(self) -> int:
        return len(self.cells)


# ---------------------------------------------------------------- plain Python
def runs(codes: Sequence[int]) -> Iterator[tuple[int, int, int]]:
    """Maximal runs of equal codes, left to right, as (start, stop, code): the one scanner every
    reading of PLACE-C and SCORE-ROOMS is built on."""
    n = len(codes)
    i = 0
    while i < n:
        c = codes[i]
        j = i + 1
        while j < n and codes[j] == c:
            j += 1
        yield i, j, c
        i = j


def fits(t: Tables, code: int, size: int) -> bool:
    """PLACE-C: a room of `size` cards of this type is within its maximum."""
    return size <= t.max_size[code]


def room_points(t: Tables, code: int, size: int, beside: bool) -> int:
    """SCORE-ROOMS: the points of one room of `size` cards; `beside` only matters for annex types."""
    if beside and t.annex_target[code]:
        return t.annex_value[code]
    return t.points[code][size - 1]


def annex_beside(t: Tables, code_at: Callable[[int], int], room_cells: Sequence[int], code: int) -> bool:
    """SCORE-ROOMS' annex condition: some cell beside the room (per `annex_adjacency`) holds a
    face-up card of the type the annex names. `code_at(cell)` reads the house being scored; it may
    return -1 for a cell it cannot see."""
    target = t.annex_target[code]
    if not target:
        return False
    for i in room_cells:
        for j in t.annex_neighbours[i]:
            if code_at(j) == target:
                return True
    return False


def house_rooms(t: Tables, cells: Sequence[int]) -> Iterator[Room]:
    """Every room of a house (its cell codes), floor by floor, left to right, with its points."""
    code_at = cells.__getitem__
    for floor in t.floor_cells:
        row = [cells[i] for i in floor]
        for start, stop, code in runs(row):
            if code >= ROOM0:
                room_cells = floor[start:stop]
                beside = annex_beside(t, code_at, room_cells, code)
                yield Room(code, room_cells, room_points(t, code, stop - start, beside), beside)


def rooms_of(rules: Ruleset, house: House) -> list[tuple[int, tuple[int, ...]]]:
    """Every room (PLACE-C): (room code, its cells), floor by floor, left to right."""
    return [(room.code, room.cells) for room in house_rooms(rules.tables, house.cells)]


def annex_on_floor(t: Tables) -> bool:
    """True when every annex neighbour lies on the cell's own floor (`annex_adjacency =
    horizontal`): only then can a floor row be scored alone (`row_rooms`)."""
    return all(t.cell_floor[j] == t.cell_floor[c] for c in range(t.n_cells) for j in t.annex_neighbours[c])


def row_rooms(t: Tables, floor: int, row: Sequence[int]) -> list[Room] | None:
    """The rooms of one floor row read alone (`row[k]` is the code on the floor's k-th cell), or
    None when a room breaks PLACE-C. Needs `annex_on_floor(t)`: the row is all the scorer sees."""
    cells = t.floor_cells[floor]
    pos = t.cell_pos
    out = []
    for start, stop, code in runs(row):
        if code < ROOM0:
            continue
        if not fits(t, code, stop - start):
            return None
        room_cells = cells[start:stop]
        beside = annex_beside(t, lambda j: row[pos[j]], room_cells, code)
        out.append(Room(code, room_cells, room_points(t, code, stop - start, beside), beside))
    return out


def floors_fit(t: Tables, cells: Sequence[int], floors: Iterator[int] | Sequence[int] | set[int]) -> bool:
    """PLACE-C on the given floors of a house."""
    for f in floors:
        row = [cells[i] for i in t.floor_cells[f]]
        for start, stop, code in runs(row):
            if code >= ROOM0 and not fits(t, code, stop - start):
                return False
    return True


def size_violations(t: Tables, cells: Sequence[int]) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Rooms larger than their type's maximum (PLACE-C): (code, cells)."""
    for floor in t.floor_cells:
        row = [cells[i] for i in floor]
        for start, stop, code in runs(row):
            if code >= ROOM0 and not fits(t, code, stop - start):
                yield code, floor[start:stop]


def category_ok(t: Tables, cell: int, code: int) -> bool:
    """PLACE-B: a face-up card of this type may stand on this cell's floor."""
    return bool(t.allowed[cell][code])


# ---------------------------------------------------------------- CP-SAT
def add_max_size(hm: HouseModel, stage: Stage) -> None:
    """PLACE-C: no max+1 consecutive face-up cards of one type on a floor."""
    t = hm.rules.tables
    for floor in t.floor_cells:
        for room in hm.types:
            size = t.max_size[room]
            for a in range(len(floor) - size):
                window = [lit for cell in floor[a : a + size + 1] for lit in hm.face_up_lits(stage, cell, room)]
                if len(window) > size:
                    hm.model.add(sum(window) <= size)


def add_room_points(hm: HouseModel, stage: Stage, name: str = "win") -> None:
    """SCORE-ROOMS for non-annex types, by windows.

    A room of L cards holds L - k + 1 windows of k consecutive cards, so with
    c_k = p(k) - 2 p(k-1) + p(k-2) (second differences of the points table,
    p(0) = p(-1) = 0) a room of size L earns sum over k ≤ L of (L - k + 1) c_k = p(L).
    A window literal w is the AND of its cells: upper bounds (w ≤ each cell) suffice
    where c_k ≥ 0 under maximisation, and the lower bound is added where c_k < 0.
    PLACE-C keeps windows within the maximum size. This measured 5–10× faster to prove
    than run-start literals (docs/SOLVER.md).
    """
    t = hm.rules.tables
    m = hm.model
    for fi, floor in enumerate(t.floor_cells):
        for room in hm.types:
            if t.annex_target[room]:
                continue
            p = (0, 0) + t.points[room]
            for k in range(1, t.max_size[room] + 1):
                coef = p[k + 1] - 2 * p[k] + p[k - 1]
                if coef == 0:
                    continue
                for a in range(len(floor) - k + 1):
                    inside = [hm.face_up_lits(stage, c, room) for c in floor[a : a + k]]
                    if any(not lits for lits in inside):
                        continue
                    if k == 1:
                        hm.add_objective(coef, sum(inside[0]))
                        continue
                    w = m.new_bool_var(f"{name}_f{fi}_a{a}_k{k}_t{room}")
                    for lits in inside:
                        m.add(w <= sum(lits))
                    if coef < 0:
                        m.add(w >= sum(sum(lits) for lits in inside) - (k - 1))
                    hm.add_objective(coef, w)


def add_annex_points(hm: HouseModel, stage: Stage, name: str = "annex") -> None:
    """SCORE-ROOMS for annex types: the points table, or the bonus value beside the named type.

    Each possible annex room (a run [a, b] no longer than the type's maximum) gets an exactly
    reified literal r; hb = r AND (some neighbour holds the target type), both ways, so the value
    is exact whichever of the two is larger. Neighbours are `Tables.annex_neighbours`, as in
    `annex_beside`.
    """
    t = hm.rules.tables
    m = hm.model
    for fi, floor in enumerate(t.floor_cells):
        for room in hm.types:
            target = t.annex_target[room]
            if not target:
                continue
            for a in range(len(floor)):
                for size in range(1, min(t.max_size[room], len(floor) - a) + 1):
                    cells = floor[a : a + size]
                    inside = [hm.face_up_lits(stage, c, room) for c in cells]
                    if any(not lits for lits in inside):
                        break
                    r = m.new_bool_var(f"{name}_f{fi}_a{a}_m{size}_t{room}")
                    members = [sum(lits) for lits in inside]
                    outside = []
                    if a > 0:
                        outside.append(hm.face_up(stage, floor[a - 1], room))
                    if a + size < len(floor):
                        outside.append(hm.face_up(stage, floor[a + size], room))
                    for expr in members:
                        m.add(r <= expr)
                    for expr in outside:
                        m.add(r + expr <= 1)
                    m.add(r >= sum(members) - sum(outside) - (size - 1))
                    neighbours = sorted({j for c in cells for j in t.annex_neighbours[c] if j not in cells})
                    near = [lit for j in neighbours for lit in hm.face_up_lits(stage, j, target)]
                    plain = room_points(t, room, size, False)
                    bonus = room_points(t, room, size, True)
                    hm.add_objective(plain, r)
                    if not near or bonus == plain:
                        continue
                    hb = m.new_bool_var(f"{name}_bonus_f{fi}_a{a}_m{size}_t{room}")
                    m.add(hb <= r)
                    m.add(hb <= sum(near))
                    for lit in near:
                        m.add(hb >= r + lit - 1)
                    hm.add_objective(bonus - plain, hb)
