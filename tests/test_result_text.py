"""The end of a game in one sentence (SCORE-WIN): the winner and the points in the language's
plural form, or the tie at the top and how it was settled (issue 33, item 9: a 33–33 tie was
announced "you won" with no word of the tie-break). Checked against the rule read here
directly: the most points, then the most children on face-up room cards."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dreamhome.game.state import GameState
from dreamhome.generate import random_house
from dreamhome.i18n import count_text
from dreamhome.render.result_text import result_line
from dreamhome.ruleset import ROOM0
from dreamhome.scoring import score_total
from tests.helpers.rules import compiled

NAMES = ["Ann", "Bob"]


def _children(rules, house) -> int:
    """SCORE-WIN's count, read from the manifest's per-card numbers (not the state's method)."""
    return sum(rules.room_of_code(c).children for c in house.cells if c >= ROOM0)


def _pair(rules, same_children: bool):
    """Two seeded random houses with the same score, their children equal or not."""
    rng = random.Random(11)
    seen: dict[int, list] = {}
    for _ in range(400):
        house = random_house(rules, rng)
        total = score_total(rules, house)
        for other in seen.get(total, []):
            if (_children(rules, other) == _children(rules, house)) == same_children:
                return other, house
        seen.setdefault(total, []).append(house)
    raise AssertionError("no such pair among 400 seeded houses")


def _ended(rules, houses) -> GameState:
    state = GameState(rules, 2, 1)
    state.houses[:] = list(houses)
    return state


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "hu"])
def test_a_tie_names_its_tie_break_and_the_winner(lang: str) -> None:
    rules = compiled()
    a, b = _pair(rules, same_children=False)
    state = _ended(rules, (a, b))
    winner = 0 if _children(rules, a) > _children(rules, b) else 1
    assert state.winners() == [winner]
    line = result_line(state, NAMES, lang)
    assert f"{NAMES[0]} {_children(rules, a)}" in line and f"{NAMES[1]} {_children(rules, b)}" in line
    assert count_text("result.points", score_total(rules, a), lang) in line
    assert line.count(NAMES[winner]) == 3 and line.count(NAMES[1 - winner]) == 2  # tied, children; the winner once more


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "hu"])
def test_an_unbroken_tie_is_a_shared_victory(lang: str) -> None:
    rules = compiled()
    a, b = _pair(rules, same_children=True)
    state = _ended(rules, (a, b))
    assert state.winners() == [0, 1]
    line = result_line(state, NAMES, lang)
    assert all(name in line for name in NAMES) and str(_children(rules, a)) in line
    assert count_text("result.points", score_total(rules, a), lang) in line


def test_without_a_tie_break_a_tie_is_shared_and_no_children_are_counted() -> None:
    """Option `tiebreak = none` (SCORE-WIN's decision): the same tie is a shared victory."""
    rules = compiled()
    a, b = _pair(rules, same_children=False)
    plain = replace(rules, options={**rules.options, "tiebreak": "none"})
    state = _ended(plain, (a, b))
    assert state.winners() == [0, 1]
    assert result_line(state, NAMES, "en") == f"Ann, Bob share the victory with {score_total(rules, a)} points"


def test_one_winner_is_said_with_the_points_in_the_plural_form() -> None:
    rules = compiled()
    rng = random.Random(4)
    a, b = random_house(rules, rng), random_house(rules, rng)
    while score_total(rules, a) == score_total(rules, b):
        b = random_house(rules, rng)
    state = _ended(rules, (a, b))
    winner = 0 if score_total(rules, a) > score_total(rules, b) else 1
    top = max(score_total(rules, a), score_total(rules, b))
    assert result_line(state, NAMES, "en") == f"{NAMES[winner]} won with {top} point{'s' if top != 1 else ''}"


@pytest.mark.parametrize(
    ("n", "said"), [(1, "1 очко"), (21, "21 очко"), (33, "33 очка"), (34, "34 очка"), (35, "35 очков"), (11, "11 очков")]
)
def test_points_take_the_russian_plural_forms(n: int, said: str) -> None:
    """CLDR's Russian plural rules (by Babel): one for 1, 21; few for 2–4, 33; many for 5–20, 35."""
    assert count_text("result.points", n, "ru") == said
