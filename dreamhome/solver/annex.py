"""Annex rooms (SCORE-ROOMS): the points table, or the bonus value beside the named type.

Each possible annex room (a run [a, b] no longer than the type's maximum) gets
an exactly reified literal r; hb = r AND (some neighbour holds the target
type), both ways, so the value is exact whichever of the two is larger.
Neighbours follow the `annex_adjacency` option through the index tables.
"""

from __future__ import annotations

from dreamhome.solver.model import HouseModel, Stage


def add_annex_points(hm: HouseModel, stage: Stage, name: str = "annex") -> None:
    t = hm.rules.tables
    m = hm.model
    for fi, floor in enumerate(t.floor_cells):
        for room in hm.types:
            target = t.annex_target[room]
            if not target:
                continue
            points = t.points[room]
            bonus = t.annex_value[room]
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
                    hm.add_objective(points[size - 1], r)
                    if not near or bonus == points[size - 1]:
                        continue
                    hb = m.new_bool_var(f"{name}_bonus_f{fi}_a{a}_m{size}_t{room}")
                    m.add(hb <= r)
                    m.add(hb <= sum(near))
                    for lit in near:
                        m.add(hb >= r + lit - 1)
                    hm.add_objective(bonus - points[size - 1], hb)
