"""The tests' reference readers follow the language (issue 20, item 5): every option value and
effect shape of `dreamhome.vocabulary` has a reading in them, and a word they do not know fails
loudly instead of being read as an old one (SCORE-ROOMS' `annex_adjacency`, END-*, HELP-*)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from dreamhome.ruleset import Effect, HeldCard
from dreamhome.vocabulary import EFFECTS, OPTIONS, TIMING_SUPPORT
from tests.helpers import reference, reference_endgame


def test_every_adjacency_word_has_a_reading(base):
    """SCORE-ROOMS: each `annex_adjacency` value gives the left and right spaces at least; an
    unknown word raises."""
    floor = base.board.floors[1]
    where = (floor.name, floor.columns[1])
    for word in OPTIONS["annex_adjacency"]:
        beside = reference._beside(base, where, word)
        assert {(floor.name, floor.columns[0]), (floor.name, floor.columns[2])} <= set(beside)
    with pytest.raises(reference.UnknownRuleError, match="annex_adjacency = diagonal"):
        reference._beside(base, where, "diagonal")


def test_every_score_keyword_has_a_reading():
    assert set(EFFECTS["score"].keywords) == set(reference.SCORE_KEYWORDS)


def test_every_effect_shape_has_an_end_game_reading():
    """END-*: each effect shape the engine supports is either played by the reference end game or
    known never to act at the end; a new shape fails here until the reference reads it."""
    known = set(reference_endgame.END_SHAPES) | reference_endgame.NOT_AT_END
    assert set(TIMING_SUPPORT) <= known


def test_an_unknown_end_effect_fails_loudly():
    """A house holding a card of an effect shape the reference does not know raises, never skipped
    (`_uses` reads only the held cards' effects, so a stand-in for the rules and the house does)."""
    odd = HeldCard("odd", "Odd", "helper", 1, (Effect("swap", (("track", None), ("roof_pile", None)), "end", frozenset(), 1),))
    rules = SimpleNamespace(held=lambda _id: odd)
    house = SimpleNamespace(helpers=("odd",), tools=())
    with pytest.raises(reference_endgame.UnknownEndEffectError, match="swap"):
        reference_endgame._uses(rules, house)


def test_every_swap_face_down_word_has_a_reading():
    assert set(OPTIONS["swap_face_down"]) == set(reference_endgame.SWAP_FACE_DOWN)
