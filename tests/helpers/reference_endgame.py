"""Exhaustive end-game reference: every sequence of helper actions, in every order.

Plain breadth-first enumeration over house states (END-ORDER), written from
docs/rules.md END-* without the CP-SAT model or its replay code. Used by the tests
and by benchmarks/bench_solver.py as the baseline.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

from dreamhome.legality import house_violations
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0
from dreamhome.scoring import best_roof_points, rooms_of, score_total


def _end_timing(effect):
    """docs/language.md: `at end` written, or no timing at all (the end-game shapes' default);
    `before_take` (flag or timing) acts during play instead."""
    return effect.timing == "end" or (effect.timing is None and "before_take" not in effect.flags)


END_SHAPES = {
    ("swap", ("house", "room_discard")): 0,  # END-SUPPLIER
    ("swap", ("house", "house")): 1,  # END-HANDYMAN
    ("take", ("roof_discard", "roof_pile")): 2,  # END-ROOFER
    ("swap", ("floor", "floor")): 3,  # END-FLOOR-SWAP
}
"""The end-game shapes this reference plays, by the slot of `_uses`' answer."""
NOT_AT_END = {
    ("swap", ("house", "track")),  # TOOL-DRILL
    ("swap", ("track", "track")),  # TOOL-MIXER
    ("take_room", ("track",)),  # TOOL-JACKHAMMER
    ("score", ()),  # HELP-ARCHITECT, HELP-DESIGNER: read by the scorer
    ("tokens_keep_open", ()),  # HELP-DESIGNER: read by `_keeps_open`
    ("scaffold", ()),  # TOOL-SCAFFOLDING
}
"""Effect shapes that never act in the end game (during play, or once: TOOL-TIMING)."""


SWAP_FACE_DOWN = {"allowed": True, "forbidden": False}
"""TOOL-DRILL, END-SUPPLIER: may a swap bring a card in face down, per the option's word."""


def _shape(effect):
    """(name, places) of an effect; keyword effects (score) have no places."""
    return (effect.name, () if effect.name == "score" else effect.places())


class UnknownEndEffectError(AssertionError):
    """An effect shape this reference has no reading of: a new end-game tool must get its reading
    here (its own slot and successor states) before a test can trust the comparison."""


def _uses(rules, house):
    """Every end-game use of the helpers and tools the house holds, `uses` times each (TOOL-TIMING).
    An effect of a shape it does not know raises `UnknownEndEffectError` rather than being skipped."""
    uses = [0, 0, 0, 0]
    for hid in house.helpers + house.tools:
        for effect in rules.held(hid).effects:
            slot = END_SHAPES.get(_shape(effect))
            if slot is None and _shape(effect) not in NOT_AT_END:
                raise UnknownEndEffectError(f"reference end game: no reading of {effect.describe()}")
            if slot is not None and _end_timing(effect):
                uses[slot] += effect.uses
    sup, hand, roof, floor = uses
    return sup, hand, roof, floor


def _keeps_open(rules, house):
    return any(rules.held(h).effect("tokens_keep_open") for h in house.helpers)


def _sizes_ok(rules, house):
    return not [v for v in house_violations(rules, house) if v.rule in ("PLACE-B", "PLACE-C")]


def _supplier_ok(rules, house, cell, room, face_down):
    """END-SUPPLIER: legal on the emptied space as during play (PLACE-B/C/CLOSED/MERGE)."""
    if face_down:
        word = rules.options["swap_face_down"]
        if word not in SWAP_FACE_DOWN:
            raise UnknownEndEffectError(f"reference end game: no reading of swap_face_down = {word}")
        return SWAP_FACE_DOWN[word]
    emptied = house.place(cell, EMPTY)
    placed = emptied.place(cell, room)
    if not _sizes_ok(rules, placed):
        return False
    b = rules.board
    neighbour_rooms = [
        cells for code, cells in rooms_of(rules, emptied) if code == room and (b.left[cell] in cells or b.right[cell] in cells)
    ]
    tokens = sum(1 for cells in neighbour_rooms for i in cells if emptied.tokens[i])
    if tokens and not _keeps_open(rules, house):
        return False  # PLACE-CLOSED
    return tokens <= 1  # PLACE-MERGE / FURN-ONE


def _best_kept(rules, house):
    tokens = list(house.tokens)
    for _code, cells in rooms_of(rules, house):
        held = [i for i in cells if tokens[i]]
        if len(held) > 1:
            best = max(rules.tables.token_points[tokens[i]] for i in held)
            keep = next(i for i in held if rules.tables.token_points[tokens[i]] == best)
            for i in held:
                if i != keep:
                    tokens[i] = 0
    return replace(house, tokens=tuple(tokens))


def _successors(rules, house, sup, hand, floor=0):
    if sup:
        for room_id in sorted(set(house.discard_rooms)):
            room = rules.room(room_id).code
            for cell, code in enumerate(house.cells):
                out = code if code >= ROOM0 else house.under[cell]
                for face_down in (False, True):
                    if not _supplier_ok(rules, house, cell, room, face_down):
                        continue
                    pile = list(house.discard_rooms)
                    pile.remove(room_id)
                    if out:
                        pile.append(rules.room_of_code(out).id)
                    new = house.place(cell, FACE_DOWN, 0, room) if face_down else house.place(cell, room)
                    yield replace(new, discard_rooms=tuple(sorted(pile))), sup - 1, hand, floor
    if hand or floor:
        row = {c: f for f, cells in enumerate(rules.board.floor_cells) for c in cells}
        for a, b in combinations(range(len(house.cells)), 2):
            cells, tokens, under = list(house.cells), list(house.tokens), list(house.under)
            for seq in (cells, tokens, under):
                seq[a], seq[b] = seq[b], seq[a]
            new = replace(house, cells=tuple(cells), tokens=tuple(tokens), under=tuple(under))
            if (hand or row[a] == row[b]) and _sizes_ok(rules, new):
                if hand:
                    yield new, sup, hand - 1, floor
                if floor and row[a] == row[b]:  # END-FLOOR-SWAP: two cards of one floor
                    yield new, sup, hand, floor - 1


def reference_best_rooms(rules, house) -> int:
    """Best score over every reachable house, roofs as they are."""
    sup, hand, _roof, floor = _uses(rules, house)
    start = replace(house, discard_rooms=tuple(sorted(house.discard_rooms)))
    seen = {(start, sup, hand, floor)}
    frontier = [(start, sup, hand, floor)]
    best = score_total(rules, _best_kept(rules, start))
    while frontier:
        nxt = []
        for state in frontier:
            for succ in _successors(rules, *state):
                if succ not in seen:
                    seen.add(succ)
                    nxt.append(succ)
                    best = max(best, score_total(rules, _best_kept(rules, succ[0])))
        frontier = nxt
    return best


def reference_roof_gain(rules, house) -> int:
    _sup, _hand, roof, _floor = _uses(rules, house)
    base = best_roof_points(rules, list(house.roofs))
    best = base
    pile = list(house.discard_roofs)
    for n in range(1, min(roof, len(pile)) + 1):
        for pick in combinations(range(len(pile)), n):
            best = max(best, best_roof_points(rules, list(house.roofs) + [pile[i] for i in pick]))
    return best - base


def reference_best_final(rules, house) -> int:
    """The exhaustive optimum: rooms and tokens by enumeration, plus the roofer's best pick."""
    return reference_best_rooms(rules, house) + reference_roof_gain(rules, house)


def uses_of(rules, house):
    return Counter(dict(zip(("supplier", "handyman", "roofer"), _uses(rules, house))))
