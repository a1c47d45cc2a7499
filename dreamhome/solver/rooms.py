"""Rooms and runs: PLACE-C on every stage, and SCORE-ROOMS points on the final one.

Points by windows: a room of L cards holds L - k + 1 windows of k consecutive
cards, so with c_k = p(k) - 2 p(k-1) + p(k-2) (second differences of the
points table, p(0) = p(-1) = 0) a room of size L earns
sum over k ≤ L of (L - k + 1) c_k = p(L). A window literal w is the AND of its
cells: upper bounds (w ≤ each cell) suffice where c_k ≥ 0 under maximisation,
and the lower bound is added where c_k < 0. PLACE-C keeps windows within the
maximum size. This measured 5–10× faster to prove than run-start literals
(docs/SOLVER.md). Annex types, whose value depends on a neighbour, are scored
in annex.py instead.
"""

from __future__ import annotations

from dreamhome.solver.model import HouseModel, Stage


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
    """SCORE-ROOMS for non-annex types, by windows."""
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
