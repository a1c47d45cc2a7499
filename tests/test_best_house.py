"""best_house / `dreamhome max`: exhaustive reference on a tiny ruleset, and the base game."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.errors import DreamhomeError
from dreamhome.house import House
from dreamhome.legality import house_violations
from dreamhome.ruleset import FACE_DOWN
from dreamhome.scoring import best_roof_points, rooms_of, score_total
from dreamhome.solver.best_house import best_house
from tests.helpers.paths import DATA
from tests.helpers.rules import compiled

TINY = compiled(path=DATA / "tiny.dh")


def brute_force_max(rules) -> int:
    """Every house of the tiny board, every token placement, helper set and roof, within the budget."""
    board = rules.board
    alphabets = []
    for i in range(board.size):
        kind = board.cell_kind[i]
        alphabets.append([r.code for r in rules.rooms if r.floor_kind == kind] + [FACE_DOWN])
    roof_deck = [(r.index, k < r.windows) for r in rules.roofs for k in range(r.count)]
    roof_options = [()] + [tuple(c) for c in itertools.combinations(roof_deck, rules.roof_scoring.size)]
    helper_ids = [h.id for h in rules.helpers for _ in range(h.count)]
    best = 0
    for cells in itertools.product(*alphabets):
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


def test_tiny_ruleset_matches_brute_force():
    result = best_house(TINY)
    assert result.optimal
    assert result.total == brute_force_max(TINY)
    assert result.total == score_total(TINY, result.house)
    assert house_violations(TINY, result.house) == []


def test_base_game_max(base):
    """The base game's best house (recorded in docs/SOLVER.md with its proof time)."""
    result = best_house(base, workers=2)
    assert result.optimal
    assert result.total == score_total(base, result.house)
    assert house_violations(base, result.house) == []
    assert result.house.is_finished()
    resources = (
        len(result.house.roofs) + len(result.house.helpers) + len(result.house.outside) + sum(1 for t in result.house.tokens if t)
    )
    assert resources <= base.game.rounds
    # Sanity against the parts: rooms can't beat every cell in its best room, roof ≤ its maximum.
    assert best_roof_points(base, list(result.house.roofs)) <= 9


def test_orthogonal_is_refused_clearly():
    with pytest.raises(DreamhomeError, match="annex_adjacency"):
        best_house(compile_rules(variants=["orthogonal"]))
