"""Furnishing tokens at scoring (SCORE-FURN, FURN-ONE, END-HANDYMAN, HELP-DESIGNER).

Each token travels with its card. At the end a token counts if its card is
still in the house and it is the one kept in its room: two tokens standing in
one room of the final house may not both be kept (the owner keeps the best;
the maximisation picks it).
"""

from __future__ import annotations

from dreamhome.solver.model import HouseModel, Stage


def add_tokens(hm: HouseModel, stage: Stage, token_plus: int, name: str = "token") -> dict[int, object]:
    rules = hm.rules
    t = rules.tables
    m = hm.model
    kept: dict[int, object] = {}
    token_classes = [k for k, c in enumerate(hm.classes) if c.kind == "token"]
    for k in token_classes:
        cls = hm.classes[k]
        alive = m.new_bool_var(f"{name}_{k}")
        m.add(alive <= hm.count(stage, k))
        hm.add_objective(t.token_points[cls.token] + token_plus, alive)
        kept[k] = alive
    for i, k1 in enumerate(token_classes):
        for k2 in token_classes[i + 1 :]:
            room = hm.classes[k1].room
            if hm.classes[k2].room != room:
                continue  # tokens of different room types never share a room
            for floor in t.floor_cells:
                for a in range(len(floor)):
                    for b in range(a + 1, min(len(floor), a + t.max_size[room])):
                        between = [hm.face_up(stage, c, room) for c in floor[a + 1 : b]]
                        for first, second in ((k1, k2), (k2, k1)):
                            at_a = hm.class_lits(stage, floor[a], first)
                            at_b = hm.class_lits(stage, floor[b], second)
                            if not at_a or not at_b:
                                continue
                            at_a, at_b = sum(at_a), sum(at_b)
                            # both kept only if they do not share a room
                            m.add(kept[first] + kept[second] + at_a + at_b + sum(between) <= 3 + len(between))
    return kept
