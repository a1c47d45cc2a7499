"""Every card explains itself, and "How to play" follows the rules the table plays
(dreamhome/render/card_text.py, dreamhome/render/how_to_play.py; issue 22, item 3).

The expected values are read from the rules files (points tables, bonuses, effects), never
from the explanation code's own output."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamhome.dsl.compiler import compile_rules
from dreamhome.i18n import LANGUAGES
from dreamhome.render.card_text import all_card_texts, card_text, effect_text
from dreamhome.render.how_to_play import PHASES, how_to_play, phase_reason, phase_reasons
from dreamhome.ruleset import Ruleset

LEFTOVER = re.compile(r"\{[a-z_]*\}|cardtext\.|howto\.")
"""A placeholder left unfilled or a catalogue key shown instead of its text."""


def _all_text(rules: Ruleset, lang: str) -> list[str]:
    return [line for card in all_card_texts(rules, lang).values() for line in (card.name, *card.lines)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_of_base_explains_itself_in_every_language(base: Ruleset, lang: str) -> None:
    cards = all_card_texts(base, lang)
    every = [*base.rooms, *base.roofs, *base.furnishings, *base.helpers, *base.tools]
    assert set(cards) == {c.id for c in every}
    for ident, card in cards.items():
        assert card.name == base.card_name(ident, lang)
        assert len(card.lines) >= 2, ident
        for line in card.lines:
            assert line.strip() and not LEFTOVER.search(line), (ident, line)
    # the panel and every phase's reason too
    for section in how_to_play(base, lang):
        assert section.title and section.paragraphs
        for paragraph in (section.title, *section.paragraphs):
            assert not LEFTOVER.search(paragraph), paragraph
    for phase, reason in phase_reasons(base, 3, lang).items():
        assert reason and not LEFTOVER.search(reason), phase


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_explanations_are_translated(base: Ruleset, lang: str) -> None:
    """Not the English words with translated names: every sentence around the values differs."""
    english = {c.id: c.lines for c in all_card_texts(base, "en").values()}
    for ident, card in all_card_texts(base, lang).items():
        assert all(a != b for a, b in zip(card.lines, english[ident])), (ident, card.lines)


def test_a_room_says_its_points_size_bonus_and_tokens(base: Ruleset) -> None:
    """PLACE-C, SCORE-ROOMS, SCORE-FUNC, FURN-TYPE: read from the rules, not from a text per card."""
    for room in base.rooms:
        said = " ".join(card_text(base, room.id).lines)
        for size, points in enumerate(room.points, start=1):
            assert f"{size} → {points}" in said, room.id
        assert f"largest size: {room.max_size}" in said
        if room.bonus is not None:
            value, beside = room.bonus
            assert f"Worth {value} instead" in said and base.card_name(beside) in said
            assert "left or right on the same floor" in said  # annex_adjacency = horizontal
        for bonus in base.bonuses:
            named = any(clause.room == room.id for clause in bonus.clauses)
            assert (base.card_name(bonus.id) in said) == named, (room.id, bonus.id)
        for furn in base.furnishings:
            if furn.room == room.id:
                assert base.card_name(furn.id) in said
    assert card_text(base, "kitchen").category == "normal"
    assert card_text(base, "garage").category == "basement"


def test_roofs_furnishings_helpers_and_tools(base: Ruleset) -> None:
    roof = base.roofs[0]
    said = " ".join(card_text(base, roof.id).lines)
    scoring = base.roof_scoring
    assert f"choose {scoring.size} roof cards" in said and f"score {scoring.uniform}" in said
    assert card_text(base, roof.id).colour == roof.colour  # drawn in its colour
    for furn in base.furnishings:
        said = " ".join(card_text(base, furn.id).lines)
        assert f"Worth {furn.points} points" in said
        assert ("outside your house" in said) == furn.outside
    for card in base.helpers + base.tools:
        explained = card_text(base, card.id)
        assert explained.kind == card.kind
        said = " ".join(explained.lines)
        for effect in card.effects:  # TOOL-TIMING: each effect with when it acts
            assert effect_text(base, effect) in said
            when = {"end": "At the end of the game", "round_start": "At the start of a round", None: None}
            if effect.timing in ("end", "round_start"):
                assert when[effect.timing] in said
        if any("skip_turn" in e.flags for e in card.effects):
            assert "costs your turn" in said
        if card.kind == "tool":
            assert "last round" in said  # TOOL-LAST


def test_a_variant_changes_the_explanations() -> None:
    """A variant's table explains that variant: kitchen3's kitchen grows to 3 cards; orthogonal
    counts above and below; kids has no discard; rounds10 has 10 rounds; car awards a token."""
    base = compile_rules()
    kitchen3 = compile_rules(None, ["kitchen3"])
    said = " ".join(card_text(kitchen3, "kitchen").lines)
    assert kitchen3.room("kitchen").points == (1, 3, 6)
    assert "3 → 6" in said and "largest size: 3" in said
    assert "3 → 6" not in " ".join(card_text(base, "kitchen").lines)

    orthogonal = compile_rules(None, ["orthogonal"])
    assert "above or below" in " ".join(card_text(orthogonal, "pantry").lines)
    assert "above or below" not in " ".join(card_text(base, "pantry").lines)

    def panel(rules: Ruleset) -> str:
        return " ".join(p for s in how_to_play(rules) for p in (s.title, *s.paragraphs))

    assert "discards one column" in panel(base)
    kids = compile_rules(None, ["kids"])
    assert "discards one column" not in panel(kids) and "Nobody discards" in panel(kids)
    assert "in 12 rounds" in panel(base)
    assert "in 10 rounds" in panel(compile_rules(None, ["rounds10"]))
    car = compile_rules(None, ["car"])
    assert "first player who completes" in panel(car) and "variant" in panel(car)


def test_a_rules_file_of_its_own_explains_its_cards() -> None:
    """A card a rules file adds explains itself with no line of Python: its points, its new effect."""
    rules = compile_rules(
        text='include "base.dh"\n'
        'room attic "Attic" { category normal  points 2 5 7 11  count 2  children 0 }\n'
        'tool crowbar "Crowbar" { count 1  effect swap(house, room_discard) before_take }\n',
        name="house.dh",
    )
    attic = " ".join(card_text(rules, "attic").lines)
    assert "4 → 11" in attic and "largest size: 4" in attic
    crowbar = " ".join(card_text(rules, "crowbar").lines)
    assert "before you take a column" in crowbar and "the room discard pile" in crowbar


def test_why_each_phase(base: Ruleset) -> None:
    """ROUND-1: the discard says why, with the player counts the rules give."""
    low, high = base.game.discard_players or (0, 0)
    assert f"({low}–{high} players do)" in phase_reason(base, "discard", 3)
    assert set(phase_reasons(base, 2)) == set(PHASES)
    with pytest.raises(KeyError):
        card_text(base, "no_such_card")


def test_every_variant_of_the_catalogue_explains_itself() -> None:
    """Every packaged variant's cards, panel and phases, in every language: no placeholder or key
    left, and a card's points table as its rules give it."""
    from dreamhome.web.store import rules_for, variant_catalogue

    for variant in variant_catalogue():
        rules = rules_for(variant)
        for lang in LANGUAGES:
            for line in _all_text(rules, lang):
                assert not LEFTOVER.search(line), (variant, lang, line)
            for section in how_to_play(rules, lang):
                assert all(not LEFTOVER.search(p) for p in (section.title, *section.paragraphs)), (variant, lang)
            assert all(phase_reasons(rules, rules.game.min_players, lang).values()), (variant, lang)
        for room in rules.rooms:
            said = " ".join(card_text(rules, room.id).lines)
            assert all(f"{k} → {p}" in said for k, p in enumerate(room.points, start=1)), (variant, room.id)


@given(
    points=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=5), annex=st.booleans(), bonus=st.integers(1, 9)
)
def test_any_points_table_and_bonus_is_said_as_the_rules_give_it(points: list[int], annex: bool, bonus: int) -> None:
    """PLACE-C, SCORE-ROOMS: whatever points table (and, for an annex, bonus) a rules file gives a
    room, its explanation says each size's points, its largest size and the bonus."""
    points = sorted(points)  # a room's points never fall as it grows (the compiler's check)
    table = " ".join(map(str, points))
    extra = f"bonus {bonus} beside kitchen" if annex else ""
    category = "annex" if annex else "normal"
    card = f'room attic "Attic" {{ category {category}  points {table}  {extra}  count 2  children 0 }}'
    rules = compile_rules(text=f'include "base.dh"\n{card}\n', name="house.dh")
    said = " ".join(card_text(rules, "attic").lines)
    assert all(f"{size} → {p}" in said for size, p in enumerate(points, start=1))
    assert f"largest size: {len(points)}" in said
    assert (f"Worth {bonus} instead" in said) == annex
