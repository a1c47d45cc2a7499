"""Exhaustive readings the tests compare the engines with, shared by several test modules: the
best house of a tiny board by brute force (`max`), every completion of a house from a pool of
cards and its best final score (`place`), and the legal placements of a room card by trying
every cell (PLACE-*)."""

from __future__ import annotations

import itertools
from dataclasses import replace

from dreamhome.engine.placement import Placement, apply_placement, legal_placements
from dreamhome.house import House
from dreamhome.legality import house_violations
from dreamhome.ruleset import EMPTY, FACE_DOWN, SCAFFOLD
from dreamhome.scoring import rooms_of, score_total
from tests.helpers.reference_endgame import reference_best_final


def brute_force_max(rules) -> int:
    """Every house of the tiny board, every token placement, helper set and roof, within the budget;
    a house holds exactly one room card a round (ROUND-6), the other spaces empty."""
    board = rules.board
    alphabets = []
    for i in range(board.size):
        kind = board.cell_kind[i]
        alphabets.append([r.code for r in rules.rooms if r.floor_kind == kind] + [FACE_DOWN, EMPTY])
    roof_deck = [(r.index, k < r.windows) for r in rules.roofs for k in range(r.count)]
    roof_options = [()] + [tuple(c) for c in itertools.combinations(roof_deck, rules.roof_scoring.size)]
    helper_ids = [h.id for h in rules.helpers for _ in range(h.count)]
    best = 0
    for cells in itertools.product(*alphabets):
        if sum(1 for c in cells if c != EMPTY) != rules.game.rounds:
            continue
        under = tuple(rules.rooms[0].code if c == FACE_DOWN else 0 for c in cells)
        house = House(tuple(cells), (0,) * board.size, under)
        if [v for v in house_violations(rules, house) if v.rule != "COMP-5" or "cards" in v.message]:
            continue
        rooms = rooms_of(rules, house)
        # every way to put tokens: each furnishing not used, outside, or on one card of a room of its type
        options = []
        for furn in rules.furnishings:
            opts = [None]
            if furn.outside:
                opts.append("outside")
            else:
                code = rules.room(furn.room).code
                opts += [cells_[0] for c, cells_ in rooms if c == code]
            options.append(opts)
        for choice in itertools.product(*options):
            spots = [c for c in choice if c not in (None, "outside")]
            if len(spots) != len(set(spots)):
                continue
            tokens = [0] * board.size
            outside = []
            for furn, spot in zip(rules.furnishings, choice):
                if spot == "outside":
                    outside.append(furn.id)
                elif spot is not None:
                    tokens[spot] = furn.code
            furnished = replace(house, tokens=tuple(tokens), outside=tuple(outside))
            if house_violations(rules, furnished):
                continue  # FURN-ONE: two tokens in one room
            used = sum(1 for c in choice if c is not None)
            for n_help in range(len(helper_ids) + 1):
                for helpers in set(itertools.combinations(helper_ids, n_help)):
                    for roofs in roof_options:
                        if used + n_help + len(roofs) > rules.game.rounds:
                            continue
                        final = replace(furnished, helpers=tuple(helpers), roofs=roofs)
                        best = max(best, score_total(rules, final))
    return best


def completions(rules, house, pool):
    """Every finished house reachable by placing pool cards one by one, legally (PLACE-*)."""
    seen = set()
    frontier = [(house, tuple(sorted(pool.items())))]
    done = set()
    while frontier:
        nxt = []
        for current, left in frontier:
            if current.is_finished():
                done.add(current)
                continue
            counts = dict(left)
            for code, n in counts.items():
                if n <= 0:
                    continue
                for placement in legal_placements(rules, current, code):
                    after = apply_placement(rules, current, code, placement)
                    rest = dict(counts)
                    rest[code] -= 1
                    key = (after, tuple(sorted(rest.items())))
                    if key not in seen:
                        seen.add(key)
                        nxt.append(key)
        frontier = nxt
    return done


def exact_best(rules, house, pool):
    best = 0
    for finished in completions(rules, house, pool):
        best = max(best, reference_best_final(rules, finished))
    return best


def reference_placements(rules, house, room_id):
    """Try every cell both ways; keep what leaves a legal state and joins no closed room."""
    code = rules.room(room_id).code
    b = rules.board
    keep_open = any(rules.held(h).effect("tokens_keep_open") for h in house.helpers)
    token_rooms = [set(cells) for c, cells in rooms_of(rules, house) if any(house.tokens[i] for i in cells)]

    def legal(h):  # the card in hand exists, so deck counts (COMP-5) are not at stake here
        return not [v for v in house_violations(rules, h) if v.rule != "COMP-5"]

    out = []
    for cell in range(b.size):
        if house.cells[cell] not in (EMPTY, SCAFFOLD):
            continue
        if b.below[cell] >= 0 and house.cells[b.below[cell]] == EMPTY:
            continue  # PLACE-A
        up = house.place(cell, code)
        joined_closed = any(
            (n in room) and house.cells[n] == code for room in token_rooms for n in (b.left[cell], b.right[cell]) if n >= 0
        )
        if legal(up) and (keep_open or not joined_closed):
            out.append(Placement(cell, False))
        if legal(house.place(cell, FACE_DOWN, 0, code)):
            out.append(Placement(cell, True))
    return out
