"""SCORE-*: the rulebook example, the fast path against two independent readings."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from dreamhome.dsl.compiler import compile_rules
from dreamhome.house import house_to_json, load_house
from dreamhome.scoring import best_roof_choice, best_roof_points, score_components, score_house, score_total
from tests.helpers.paths import EXAMPLES
from tests.helpers.reference import reference_roof, reference_score
from tests.helpers.rules import compiled
from tests.helpers.strategies import legal_houses

BASE = compiled()
ORTHO = compiled("orthogonal")
K3 = compiled("kitchen3", "car")


def test_rulebook_scoring_example(base):
    """SCORE-EXAMPLE: 29 = 15 rooms + 4 furnishings + 6 functionality + 4 roof."""
    house = load_house(base, EXAMPLES / "rulebook_example.json")
    score = score_house(base, house)
    assert score.total == 29
    assert score.components() == {"rooms": 15, "furnishings": 4, "functionality": 6, "roof": 4, "empty_rooms": 0}
    rooms = Counter((ln.text.split(",")[0].split(" beside")[0], ln.points) for ln in score.lines if ln.part == "rooms")
    # The rulebook's line items: children's room 2, living room (2 cards) 4, bathroom 1 twice, dressing room 1
    # (not beside a bedroom), bedroom 1, kitchen 1 twice, pantry 3 beside a kitchen, garage 0, empty room 0.
    assert rooms == Counter(
        {
            ("Children's room", 2): 1,
            ("Living room", 4): 1,
            ("Bathroom", 1): 2,
            ("Dressing room", 1): 1,
            ("Bedroom", 1): 1,
            ("Kitchen", 1): 2,
            ("Pantry", 3): 1,
            ("Garage", 0): 1,
            ("empty room", 0): 1,
        }
    )
    assert sorted(ln.points for ln in score.lines if ln.part == "furnishings") == [1, 3]  # cat house, piano
    assert [ln.points for ln in score.lines if ln.part == "functionality"] == [3, 3]
    (roof,) = [ln for ln in score.lines if ln.part == "roof"]
    assert roof.points == 4 and "mixed colours: 3, windows 1" in roof.text
    assert "Pantry beside kitchen" in [ln.text for ln in score.lines]
    assert score_total(base, house) == 29 == reference_score(base, house_to_json(base, house))["total"]


def test_orthogonal_adjacency_changes_the_example():
    """SCORE-ROOMS option: the dressing room at top/4 sits above the bedroom at middle/4."""
    house = load_house(ORTHO, EXAMPLES / "rulebook_example.json")
    assert score_total(ORTHO, house) == 31


def test_architect_and_designer(base):
    """HELP-ARCHITECT: +1 per bonus and per empty room; HELP-DESIGNER: +1 per token."""
    house = load_house(base, EXAMPLES / "rulebook_example.json")
    from dataclasses import replace

    both = replace(house, helpers=("architect", "interior_designer"), outside=("treehouse",))
    parts = score_house(base, both).components()
    assert parts["functionality"] == 6 + 2
    assert parts["empty_rooms"] == 1
    assert parts["furnishings"] == (3 + 1) + (1 + 1) + (2 + 1)
    two = replace(house, helpers=("architect", "architect"))
    assert score_house(base, two).components()["functionality"] == 6 + 4  # HELP-COPIES


@given(legal_houses(BASE))
def test_fast_scorer_matches_breakdown_and_reference(house):
    fast = score_components(BASE, house)
    explained = score_house(BASE, house)
    ref = reference_score(BASE, json.loads(json.dumps(house_to_json(BASE, house))))
    assert fast == tuple(explained.components().values())
    assert sum(fast) == explained.total == ref["total"] >= 0
    assert dict(zip(("rooms", "furnishings", "functionality", "roof", "empty_rooms"), fast)) == {
        k: ref[k] for k in ("rooms", "furnishings", "functionality", "roof", "empty_rooms")
    }


@given(legal_houses(ORTHO, full=True))
def test_fast_scorer_matches_reference_orthogonal(house):
    assert score_total(ORTHO, house) == reference_score(ORTHO, house_to_json(ORTHO, house))["total"]


@given(legal_houses(K3))
def test_fast_scorer_matches_reference_override(house):
    assert score_total(K3, house) == reference_score(K3, house_to_json(K3, house))["total"]


roof_cards = st.lists(st.tuples(st.integers(0, 3), st.booleans()), max_size=9)


@given(roof_cards)
def test_roof_closed_form_matches_enumeration(roofs):
    """SCORE-ROOF: best 4; uniform 8, else 3; +1 per window among the chosen."""
    as_json = [{"color": BASE.roofs[c].id, "window": w} for c, w in roofs]
    expected = reference_roof(BASE, as_json)
    assert best_roof_points(BASE, roofs) == expected == best_roof_choice(BASE, roofs)[0]


def test_roof_under_odd_scoring(tmp_path):
    """A what-if where mixed roofs beat uniform ones, and complete roofs are 2 cards."""
    path = tmp_path / "roof.dh"
    path.write_text('include "base.dh"\nroof_scoring { size 2 uniform 1 mixed 5 window 2 }\n')
    rules = compile_rules(path)
    for roofs in ([(0, True), (0, True)], [(0, True), (0, True), (1, False)], [(0, False)], [(1, True), (2, True)]):
        as_json = [{"color": rules.roofs[c].id, "window": w} for c, w in roofs]
        assert best_roof_points(rules, roofs) == reference_roof(rules, as_json)
    assert best_roof_points(rules, [(0, True), (0, True), (1, False)]) == 7


def test_no_roof_without_four_cards(base):
    assert best_roof_points(base, [(0, True)] * 3) == 0


@given(
    st.lists(st.tuples(st.integers(0, 5), st.booleans()), max_size=12),
    st.integers(0, 6),
    st.integers(-3, 9),
    st.integers(-3, 9),
    st.integers(-2, 3),
)
def test_roof_choice_equals_the_enumeration(roofs, size, uniform, mixed, window):
    """SCORE-ROOF: the dynamic programme picks exactly the choice the enumeration keeps (the
    first best sorted tuple), under any roof scoring, negative values and size 0 included."""
    from types import SimpleNamespace

    from dreamhome.engine.roof import best_roof_choice_enumerated

    rules = SimpleNamespace(roof_scoring=SimpleNamespace(size=size, uniform=uniform, mixed=mixed, window=window))
    assert best_roof_choice(rules, roofs) == best_roof_choice_enumerated(rules, roofs)


def test_roof_choice_of_many_colours_is_quick():
    """A ruleset of 16 colours and a roof of 8 (61 million choices to enumerate) is answered by
    the dynamic programme. Each colour has 4 cards with a window and 4 without: one colour's 8
    cards score 8 + 4 windows = 12, beating 8 windowed cards of mixed colours (3 + 8 = 11); the
    first such colour in order is colour 0."""
    from types import SimpleNamespace

    rules = SimpleNamespace(roof_scoring=SimpleNamespace(size=8, uniform=8, mixed=3, window=1))
    roofs = [(c, w) for c in range(16) for w in (False, True) for _ in range(4)]
    assert best_roof_choice(rules, roofs) == (12, ((0, False),) * 4 + ((0, True),) * 4)
