"""One rules core: each rule area's readings agree on random houses under random variants.

For every rule area of dreamhome/engine/ — rooms and annexes, functionality
bonuses, furnishing tokens — the CP-SAT builder on a model fixed to a house
gives exactly the plain-Python value, and the final score agrees three ways:
the fast scorer, the explained scorer and the CP-SAT objective of
`add_final_score`. Variants are drawn: room points tables and maximum sizes,
annex bonus values and targets, bonus points, helper amounts and the
`annex_adjacency` option.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from dreamhome.dsl.compiler import compile_rules
from dreamhome.engine.cpsat import HouseModel, SolveSettings, new_solver
from dreamhome.engine.functionality import add_functionality, floor_masks, functionality_points
from dreamhome.engine.furnishings import add_tokens, token_points
from dreamhome.engine.helpers import helper_amounts
from dreamhome.engine.roof import best_roof_points
from dreamhome.engine.rooms import (
    add_annex_points,
    add_room_points,
    house_rooms,
    room_runs,
    rooms_value,
    row_rooms,
    row_value,
)
from dreamhome.generate import random_house
from dreamhome.house import House
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import add_final_score, score_components, score_house
from dreamhome.vocabulary import EFFECTS, OPTIONS
from tests.helpers.cpsat import fixed_stage

ROOMS = ("living_room", "bedroom", "kitchen", "bathroom", "childrens_room", "study")
ANNEXES = (("pantry", "kitchen"), ("sauna", "bathroom"), ("dressing_room", "bedroom"))
_compiled: dict[str, Ruleset] = {}


@st.composite
def variant_texts(draw) -> str:
    """An override file over base.dh that changes numbers and options every rule area reads."""
    lines = ['include "base.dh"']
    for room in draw(st.lists(st.sampled_from(ROOMS), max_size=3, unique=True)):
        points = sorted(draw(st.lists(st.integers(0, 9), min_size=1, max_size=3)))  # never falling (compiler)
        lines.append(f"room {room} {{ points {' '.join(map(str, points))} }}")
    for annex, _target in draw(st.lists(st.sampled_from(ANNEXES), max_size=2, unique=True)):
        target = draw(st.sampled_from(ROOMS))
        points = sorted(draw(st.lists(st.integers(0, 6), min_size=1, max_size=3)))
        bonus = draw(st.integers(0, 9))
        lines.append(f"room {annex} {{ points {' '.join(map(str, points))}  bonus {bonus} beside {target} }}")
    if draw(st.booleans()):
        lines.append(f"bonus full_service {{ points {draw(st.integers(0, 9))} }}")
    if draw(st.booleans()):  # the keywords the vocabulary gives score(...), a new one drawn too
        words = draw(st.lists(st.sampled_from(EFFECTS["score"].keywords), min_size=1, unique=True))
        amounts = ", ".join(f"{word} {draw(st.integers(0, 3))}" for word in words)
        lines.append(f"helper architect {{ effect score({amounts}) }}")
    lines.append(f"option annex_adjacency = {draw(st.sampled_from(OPTIONS['annex_adjacency']))}")
    return "\n".join(lines) + "\n"


def compiled(text: str) -> Ruleset:
    if text not in _compiled:
        _compiled[text] = compile_rules(text=text, name="variant.dh")
    return _compiled[text]


def objective(hm: HouseModel) -> int:
    hm.model.maximize(hm.objective_expr())
    solver = new_solver(SolveSettings(workers=1, seed=0))
    status = solver.solve(hm.model)
    assert status == cp_model.OPTIMAL, solver.status_name(status)
    return round(solver.objective_value)


def houses(rules: Ruleset, seed: int, n: int) -> list[House]:
    rng = random.Random(seed)
    return [random_house(rules, rng, cards=rng.choice([None, None, 6, 9])) for _ in range(n)]


@settings(max_examples=25, deadline=None)
@given(variant_texts(), st.integers(0, 10_000))
def test_rooms_three_readings_agree(text, seed):
    """SCORE-ROOMS and the annex bonus: house_rooms = the hot pass = CP-SAT on the fixed house."""
    rules = compiled(text)
    t = rules.tables
    for house in houses(rules, seed, 3):
        plain = sum(room.points for room in house_rooms(t, house.cells))
        assert rooms_value(t, house.cells)[0] == plain
        hm, stage = fixed_stage(rules, house)
        add_room_points(hm, stage)
        add_annex_points(hm, stage)
        assert objective(hm) == plain


@settings(max_examples=25, deadline=None)
@given(variant_texts(), st.integers(0, 10_000))
def test_functionality_readings_agree(text, seed):
    """SCORE-FUNC: the plain reading of the clauses = CP-SAT on the fixed house."""
    rules = compiled(text)
    t = rules.tables
    for house in houses(rules, seed, 3):
        plus = helper_amounts(t, house.helpers).bonus_plus
        plain = functionality_points(t, floor_masks(t, house.cells), plus)
        assert rooms_value(t, house.cells)[1] == floor_masks(t, house.cells)
        hm, stage = fixed_stage(rules, house)
        add_functionality(hm, stage, plus)
        assert objective(hm) == plain


@settings(max_examples=25, deadline=None)
@given(variant_texts(), st.integers(0, 10_000))
def test_tokens_readings_agree(text, seed):
    """SCORE-FURN with FURN-ONE: tokens in the house = CP-SAT on the fixed house."""
    rules = compiled(text)
    for house in houses(rules, seed, 3):
        plus = helper_amounts(rules.tables, house.helpers).token_plus
        inside = token_points(rules, house, plus) - sum(rules.furnishing(f).points + plus for f in house.outside)
        hm, stage = fixed_stage(rules, house)
        add_tokens(hm, stage, plus)
        assert objective(hm) == inside


@settings(max_examples=25, deadline=None)
@given(variant_texts(), st.integers(0, 10_000))
def test_final_score_fast_explained_and_cpsat_agree(text, seed):
    """The whole score: fast scorer = explained scorer = CP-SAT objective (+ the roof, scored apart)."""
    rules = compiled(text)
    for house in houses(rules, seed, 3):
        fast = sum(score_components(rules, house))
        assert score_house(rules, house).total == fast
        hm, stage = fixed_stage(rules, house)
        add_final_score(hm, stage, house)
        assert objective(hm) + best_roof_points(rules, house.roofs) == fast


@settings(max_examples=25, deadline=None)
@given(variant_texts(), st.integers(0, 10_000))
def test_row_readings_agree_with_the_house(text, seed):
    """A floor row read alone (`row_rooms`, its fused `row_value`) scores as the house does, floor by
    floor, wherever annex neighbours stay on the floor (the end-game tables and `max` rely on it)."""
    rules = compiled(text)
    t = rules.tables
    if not t.annex_on_floor:
        return
    for house in houses(rules, seed, 3):
        by_floor = [0] * len(t.floor_cells)
        for room in house_rooms(t, house.cells):
            by_floor[t.cell_floor[room.cells[0]]] += room.points
        for f, floor in enumerate(t.floor_cells):
            row = [house.cells[i] for i in floor]
            rooms = row_rooms(t, f, row)
            value = row_value(t, f, row)
            assert rooms is not None and value is not None
            assert sum(r.points for r in rooms) == value[0] == by_floor[f]
            assert [(t.cell_pos[r.cells[0]], t.cell_pos[r.cells[-1]] + 1) for r in rooms] == value[2]


def test_room_runs_reads_maximal_runs(base):
    """PLACE-C's room: a maximal run of one face-up type on a row; empty spaces and empty rooms end it."""
    k, b = base.room("kitchen").code, base.room("bedroom").code
    row = [k, k, b, 0, b, b, 2, k]
    assert room_runs(row, (range(len(row)),)) == [(0, 0, 2, k), (0, 2, 3, b), (0, 4, 6, b), (0, 7, 8, k)]


@pytest.mark.parametrize("variant", ["", "orthogonal"])
def test_annex_beside_follows_the_option(variant):
    """SCORE-ROOMS: with `orthogonal`, a card above or below counts as beside; with `horizontal`, not."""
    rules = compile_rules(variants=[variant] if variant else [])
    board = rules.board
    cells = [0] * board.size
    pantry, kitchen = rules.room("pantry").code, rules.room("kitchen").code
    top = board.floor_cells[board.floor_index("top")]
    middle = board.floor_cells[board.floor_index("middle")]
    below_top = board.below[top[0]]
    assert below_top in middle
    cells[below_top] = kitchen
    cells[top[0]] = pantry
    room = next(r for r in house_rooms(rules.tables, cells) if r.code == pantry)
    assert room.beside is (variant == "orthogonal")
