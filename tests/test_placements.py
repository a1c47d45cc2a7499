"""legal_placements against an independent reading of PLACE-* (place, then check)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamhome.engine.placement import Placement, apply_placement, legal_placements
from dreamhome.house import House
from dreamhome.ruleset import FACE_DOWN, ROOM0, SCAFFOLD
from tests.helpers.exhaustive import reference_placements
from tests.helpers.rules import compiled
from tests.helpers.strategies import legal_houses

BASE = compiled()
K3 = compiled("kitchen3")


@given(legal_houses(BASE, max_cards=11), st.data())
def test_legal_placements_match_reference(house, data):
    room = data.draw(st.sampled_from(BASE.ids("room")))
    assert legal_placements(BASE, house, room) == reference_placements(BASE, house, room)


@given(legal_houses(BASE, max_cards=11), st.data())
def test_legal_placements_with_designer(house, data):
    """HELP-DESIGNER: tokens do not close rooms; FURN-ONE still holds on a merge."""
    from dataclasses import replace

    house = replace(house, helpers=("interior_designer",))
    room = data.draw(st.sampled_from(BASE.ids("room")))
    assert legal_placements(BASE, house, room) == reference_placements(BASE, house, room)


@given(legal_houses(K3, max_cards=11), st.data())
def test_legal_placements_override_rules(house, data):
    room = data.draw(st.sampled_from(K3.ids("room")))
    assert legal_placements(K3, house, room) == reference_placements(K3, house, room)


def test_empty_board(base):
    house = House.empty(base)
    cells = {p.describe(base) for p in legal_placements(base, house, "kitchen")}
    # PLACE-A: only middle/0-2 stand on the roof pile; the basement takes no kitchen (PLACE-B).
    assert cells == {
        "middle/0",
        "middle/0 face down",
        "middle/1",
        "middle/1 face down",
        "middle/2",
        "middle/2 face down",
        "basement/3 face down",
        "basement/4 face down",
    }


def test_token_closes_a_room(base):
    """PLACE-CLOSED: a bedroom with a canopy bed cannot grow; with the designer it can."""
    b = base.board
    bed = base.room("bedroom").code
    house = House.empty(base).place(b.index["middle/0"], bed, base.furnishing("canopy_bed").code)
    ups = {p.cell for p in legal_placements(base, house, "bedroom") if not p.face_down}
    assert b.index["middle/1"] not in ups
    from dataclasses import replace

    designer = replace(house, helpers=("interior_designer",))
    ups = {p.cell for p in legal_placements(base, designer, "bedroom") if not p.face_down}
    assert b.index["middle/1"] in ups


def test_merge_of_two_rooms(base):
    """PLACE-MERGE: a living room joining 1 + 1 is fine; joining 2 + 1 would exceed 3 (PLACE-C)."""
    b = base.board
    lr = base.room("living_room").code
    house = House.empty(base).place(b.index["middle/0"], lr).place(b.index["middle/2"], lr)
    assert Placement(b.index["middle/1"], False) in legal_placements(base, house, "living_room")
    house = house.place(b.index["basement/3"], FACE_DOWN).place(b.index["middle/3"], lr)
    assert Placement(b.index["middle/1"], False) not in legal_placements(base, house, "living_room")
    # Two rooms each with a token may not merge, even with the designer (FURN-ONE).
    from dataclasses import replace

    tokens = replace(
        House.empty(base)
        .place(b.index["middle/0"], lr, base.furnishing("piano").code)
        .place(b.index["middle/2"], lr, base.furnishing("fireplace").code),
        helpers=("interior_designer",),
    )
    assert Placement(b.index["middle/1"], False) not in legal_placements(base, tokens, "living_room")


def test_scaffolding_takes_a_card(base):
    """PLACE-SCAFFOLD: the card goes on the scaffolding's space; the scaffolding goes."""
    b = base.board
    house = House.empty(base).place(b.index["basement/3"], SCAFFOLD)
    placements = legal_placements(base, house, "garage")
    assert Placement(b.index["basement/3"], False) in placements
    after = apply_placement(base, house, "garage", Placement(b.index["basement/3"], False))
    assert after.cells[b.index["basement/3"]] == base.room("garage").code and SCAFFOLD not in after.cells
    assert ROOM0 <= after.cells[b.index["basement/3"]]
