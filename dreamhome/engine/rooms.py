"""Runs and rooms: PLACE-B, PLACE-C and SCORE-ROOMS with the annex bonus, in one place.

A room is a maximal run of face-up cards of one type on a floor (PLACE-C); it
scores its type's points for its size, or, for an annex type, the bonus value
when some card of the room stands beside a card of the named type (SCORE-ROOMS;
"beside" follows the `annex_adjacency` option through `Tables.annex_neighbours`).

Plain Python first — the one run scanner (`room_runs`), the one room value
(`room_points`), the one "beside" test (`annex_beside`), whole-house and
one-floor-row readings built from them — then the CP-SAT builders of the same
rules (`add_max_size`, `add_room_points`, `add_annex_points`). To change how
rooms score, this is the module to edit; legality, both scorers, the end-game
tables, `max` and the CP-SAT models all read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from dreamhome.ruleset import ROOM0

if TYPE_CHECKING:
    from dreamhome.engine.cpsat import HouseModel, Stage
    from dreamhome.house import House
    from dreamhome.ruleset import Ruleset
    from dreamhome.tables import Tables


class Room(NamedTuple):
    """One room of a house: its type code, its cells (left to right), and its points. A named
    tuple, not a dataclass: the end-game tables build hundreds of thousands of them."""

    code: int
    cells: tuple[int, ...]
    points: int
    beside: bool  # an annex room that earns its bonus

    @property
    def size(self) -> int:
        return len(self.cells)


# ---------------------------------------------------------------- plain Python
RoomRun = tuple[int, int, int, int]  # (row index, start, stop, room code): cells rows[row][start:stop]


def room_runs(codes: Sequence[int], rows: Sequence[Sequence[int]]) -> list[RoomRun]:
    """Every room — a maximal run of face-up cards of one type on a row (PLACE-C) — as
    (row index, start, stop, code), rows in order, left to right. The one scanner every reading
    of PLACE-C, SCORE-ROOMS and FURN-ONE is built on: a whole house (`codes` = its cells, `rows`
    = the floors' cells) or one floor row read alone (`rows` = one range over the row)."""
    out = []
    for r, row in enumerate(rows):
        n = len(row)
        i = 0
        while i < n:
            c = codes[row[i]]
            j = i + 1
            while j < n and codes[row[j]] == c:
                j += 1
            if c >= ROOM0:
                out.append((r, i, j, c))
            i = j
    return out


def fits(t: Tables, code: int, size: int) -> bool:
    """PLACE-C: a room of `size` cards of this type is within its maximum."""
    return size <= t.max_size[code]


def room_points(t: Tables, code: int, size: int, beside: bool) -> int:
    """SCORE-ROOMS: the points of one room of `size` cards; `beside` only matters for annex types."""
    if beside and t.annex_target[code]:
        return t.annex_value[code]
    return t.points[code][size - 1]


def annex_beside(t: Tables, codes: Sequence[int], room_cells: Sequence[int], code: int, at: Sequence[int] | None = None) -> bool:
    """SCORE-ROOMS' annex condition: some cell beside the room (per `annex_adjacency`,
    `Tables.annex_neighbours`), not of the room itself, holds a face-up card of the type the annex
    names: a room is never beside itself, even when it names its own type (as `add_annex_points`
    reads it). `codes` is the house's cells, or a floor row with `at` mapping a board cell to its
    place in the row."""
    target = t.annex_target[code]
    if not target:
        return False
    for i in room_cells:
        for j in t.annex_neighbours[i]:
            if codes[j if at is None else at[j]] == target and j not in room_cells:
                return True
    return False


def house_rooms(t: Tables, cells: Sequence[int]) -> Iterator[Room]:
    """Every room of a house (its cell codes), floor by floor, left to right, with its points."""
    floors = t.floor_cells
    for f, start, stop, code in room_runs(cells, floors):
        room_cells = floors[f][start:stop]
        beside = annex_beside(t, cells, room_cells, code)
        yield Room(code, room_cells, room_points(t, code, stop - start, beside), beside)


def rooms_value(t: Tables, cells: Sequence[int]) -> tuple[int, list[int]]:
    """The hot path of SCORE-ROOMS: a house's room points and, per floor, its face-up types as a
    bit mask (what the functionality bonuses read).

    This is `house_rooms` fused into one pass over the cells — the scan of `room_runs`, the value
    of `room_points` and the test of `annex_beside` inline — because games, bots and what-ifs call
    it millions of times and the separate steps measured ~2× slower (docs/PERFORMANCE.md). It
    reads the same tables; `tests/test_engine.py` checks it equals `house_rooms` on random houses
    under random variants. Change the three functions above and this one together.
    """
    points = t.points
    annex_target = t.annex_target
    annex_value = t.annex_value
    neighbours = t.annex_neighbours
    cell_floor = t.cell_floor
    total = 0
    masks = []
    for floor in t.floor_cells:
        mask = 0
        run_code = -1
        run_len = 0
        beside = False
        for i in floor:
            c = cells[i]
            if c == run_code:
                run_len += 1
            else:
                if run_code >= ROOM0:
                    total += annex_value[run_code] if beside else points[run_code][run_len - 1]
                run_code = c
                run_len = 1
                beside = False
                if c >= ROOM0:
                    mask |= 1 << c
            if c >= ROOM0 and not beside:
                target = annex_target[c]
                if target:
                    for j in neighbours[i]:
                        # A card of the annex's own type on its floor beside it is the same room.
                        if cells[j] == target and (target != c or cell_floor[j] != cell_floor[i]):
                            beside = True
                            break
        if run_code >= ROOM0:
            total += annex_value[run_code] if beside else points[run_code][run_len - 1]
        masks.append(mask)
    return total, masks


def rooms_of(rules: Ruleset, house: House) -> list[tuple[int, tuple[int, ...]]]:
    """Every room (PLACE-C): (room code, its cells), floor by floor, left to right."""
    floors = rules.tables.floor_cells
    return [(code, floors[f][start:stop]) for f, start, stop, code in room_runs(house.cells, floors)]


def row_rooms(t: Tables, floor: int, row: Sequence[int]) -> list[Room] | None:
    """The rooms of one floor row read alone (`row[k]` is the code on the floor's k-th cell), or
    None when a room breaks PLACE-C. Needs `t.annex_on_floor`: the row is all the scorer sees."""
    cells = t.floor_cells[floor]
    annex_target = t.annex_target
    out = []
    for _r, start, stop, code in room_runs(row, (range(len(row)),)):
        if not fits(t, code, stop - start):
            return None
        room_cells = cells[start:stop]
        beside = bool(annex_target[code]) and annex_beside(t, row, room_cells, code, t.cell_pos)
        out.append(Room(code, room_cells, room_points(t, code, stop - start, beside), beside))
    return out


def row_value(t: Tables, floor: int, row: Sequence[int]) -> tuple[int, int, list[tuple[int, int]]] | None:
    """`row_rooms` fused into one pass for the end-game tables, which score thousands of rows per
    house: (room points, face-up types as a bit mask, each room's (start, stop) in the row), or
    None when a room breaks PLACE-C. Same tables, same tests (`tests/test_engine.py`) as
    `row_rooms`; change them together."""
    points = t.points
    max_size = t.max_size
    annex_target = t.annex_target
    annex_value = t.annex_value
    neighbours = t.annex_row_neighbours[floor]
    n = len(row)
    total = 0
    mask = 0
    spans = []
    i = 0
    while i < n:
        c = row[i]
        j = i + 1
        while j < n and row[j] == c:
            j += 1
        if c >= ROOM0:
            size = j - i
            if size > max_size[c]:
                return None
            target = annex_target[c]
            beside = False
            if target:
                for k in range(i, j):
                    for q in neighbours[k]:
                        if row[q] == target and not i <= q < j:  # never the room itself
                            beside = True
                            break
                    if beside:
                        break
            total += annex_value[c] if beside else points[c][size - 1]
            mask |= 1 << c
            spans.append((i, j))
        i = j
    return total, mask, spans


def floors_fit(t: Tables, cells: Sequence[int], floors: Iterable[int]) -> bool:
    """PLACE-C on the given floors of a house."""
    rows = [t.floor_cells[f] for f in floors]
    return all(fits(t, code, stop - start) for _r, start, stop, code in room_runs(cells, rows))


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
