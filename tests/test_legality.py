"""State legality: generated legal houses pass; each single mutation names its rule."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dreamhome.house import House, load_house
from dreamhome.legality import house_violations, is_legal
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0, SCAFFOLD
from dreamhome.scoring import rooms_of, score_total
from tests.helpers.paths import EXAMPLES
from tests.helpers.rules import compiled
from tests.helpers.strategies import legal_houses

BASE = compiled()
CAR = compiled("car")


def rules_broken(rules, house):
    return {v.rule for v in house_violations(rules, house)}


@given(legal_houses(BASE))
def test_generated_houses_are_legal_and_score_at_least_zero(house):
    assert house_violations(BASE, house) == []
    assert score_total(BASE, house) >= 0


@given(legal_houses(CAR))
def test_generated_houses_are_legal_under_the_car_variant(house):
    assert is_legal(CAR, house)


@given(legal_houses(BASE, min_cards=1), st.data())
def test_card_over_an_empty_space_is_place_a(house, data):
    """PLACE-A: put a card on a space whose space below is empty."""
    b = BASE.board
    targets = [i for i in range(b.size) if b.below[i] >= 0 and house.cells[b.below[i]] == EMPTY]
    assume(targets)
    cell = data.draw(st.sampled_from(targets))
    mutated = house.place(cell, FACE_DOWN)
    names = {(v.rule, v.cell) for v in house_violations(BASE, mutated)}
    assert ("PLACE-A", b.cells[cell]) in names


@given(legal_houses(BASE), st.data())
def test_basement_card_upstairs_is_place_b(house, data):
    """PLACE-B: a basement card on an upper floor."""
    b = BASE.board
    free = [
        i
        for i in range(b.size)
        if house.cells[i] == EMPTY and b.cell_kind[i] == "upper" and (b.below[i] < 0 or house.cells[b.below[i]] != EMPTY)
    ]
    assume(free)
    cell = data.draw(st.sampled_from(free))
    basement = data.draw(st.sampled_from([r for r in BASE.rooms if r.category == "basement"]))
    mutated = house.place(cell, basement.code)
    assert ("PLACE-B", b.cells[cell]) in {(v.rule, v.cell) for v in house_violations(BASE, mutated)}


@given(legal_houses(BASE, min_cards=4), st.data())
def test_room_one_card_over_its_maximum_is_place_c(house, data):
    """PLACE-C: extend a full room by one card of its type."""
    b = BASE.board
    candidates = []
    for code, cells in rooms_of(BASE, house):
        if len(cells) == BASE.tables.max_size[code]:
            for side in (b.left[cells[0]], b.right[cells[-1]]):
                if side >= 0 and house.cells[side] == EMPTY and (b.below[side] < 0 or house.cells[b.below[side]] != EMPTY):
                    candidates.append((side, code))
    assume(candidates)
    cell, code = data.draw(st.sampled_from(candidates))
    assert "PLACE-C" in rules_broken(BASE, house.place(cell, code))


@pytest.mark.slow
@settings(suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(legal_houses(BASE, full=True), st.data())
def test_second_token_in_a_room_is_furn_one(house, data):
    """FURN-ONE: a room that holds one token gets a second on another of its cards."""
    two_kinds = {
        code
        for code in range(BASE.tables.n_codes)
        if sum(1 for f in BASE.furnishings if f.room and BASE.room(f.room).code == code) >= 2
    }
    rooms = [(code, cells) for code, cells in rooms_of(BASE, house) if len(cells) >= 2 and code in two_kinds]
    assume(rooms)
    code, cells = data.draw(st.sampled_from(rooms))
    first, second = [f.code for f in BASE.furnishings if f.room and BASE.room(f.room).code == code][:2]
    cleared = replace(house, tokens=tuple(0 if t in (first, second) or i in cells else t for i, t in enumerate(house.tokens)))
    one = cleared.with_token(cells[0], first)
    assert is_legal(BASE, one)
    assert rules_broken(BASE, one.with_token(cells[1], second)) == {"FURN-ONE"}


def test_token_rules(base):
    house = load_house(base, EXAMPLES / "rulebook_example.json")
    b = base.board
    piano = base.furnishing("piano").code
    # On the wrong room type.
    wrong = house.with_token(b.index["middle/0"], piano).with_token(b.index["top/2"], 0)
    assert ("FURN-TYPE", "middle/0") in {(v.rule, v.cell) for v in house_violations(base, wrong)}
    # On an empty room.
    facedown = house.with_token(b.index["basement/4"], base.furnishing("canopy_bed").code)
    assert ("FURN-TYPE", "basement/4") in {(v.rule, v.cell) for v in house_violations(base, facedown)}
    # An outside token on a card, an inside token outside.
    assert "FURN-TYPE" in rules_broken(base, house.with_token(b.index["top/1"], base.furnishing("treehouse").code))
    assert "FURN-TYPE" in rules_broken(base, replace(house, outside=("piano",)))
    # Two pianos in one house: the game has one.
    two = house.with_token(b.index["top/1"], 0)
    second_room = two.place(b.index["top/0"], base.room("living_room").code, piano)
    assert "COMP-5" in rules_broken(base, second_room)


def test_scaffolding_limit(base):
    house = House.empty(base)
    b = base.board
    one = house.place(b.index["middle/0"], SCAFFOLD)
    assert is_legal(base, one)
    two = one.place(b.index["middle/1"], SCAFFOLD)
    assert ("TOOL-SCAFFOLDING", "middle/0") in {(v.rule, v.cell) for v in house_violations(base, two)}
    # Scaffolding holds a card up (PLACE-A).
    assert is_legal(base, one.place(b.index["top/0"], base.room("bedroom").code))


def test_car_only_in_a_complete_garage(car_rules):
    b = car_rules.board
    garage = car_rules.room("garage").code
    car = car_rules.furnishing("car").code
    house = House.empty(car_rules).place(b.index["basement/3"], garage, car)
    assert "VAR-CAR" in rules_broken(car_rules, house)
    house = house.place(b.index["basement/4"], garage)
    assert is_legal(car_rules, house)


def test_card_counts_against_the_manifest(base):
    b = base.board
    house = House.empty(base)
    for i in range(5):
        house = house.place(
            b.index[f"middle/{i}"], base.room("workshop").code if i == 0 else FACE_DOWN, 0, base.room("workshop").code if i else 0
        )
    assert "PLACE-B" in rules_broken(base, house)
    assert "COMP-5" in rules_broken(base, house)


def test_every_room_code_has_a_category(base):
    assert all(base.tables.max_size[ROOM0 + r.index] == r.max_size for r in base.rooms)
