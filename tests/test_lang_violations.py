"""Broken rules in the reader's language (issue 22, item 6): every violation the legality check
makes has a catalogue message (`violation.*`) in the four languages with the same placeholders,
English says exactly the check's own sentence, and the other languages name the cards in their
own names, agreeing with them."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from dreamhome import i18n
from dreamhome.house import House
from dreamhome.legality import Violation, final_state_violations, house_violations
from dreamhome.render.violation_text import violation_line, violation_text
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0, SCAFFOLD, Ruleset
from tests.helpers.cli import run_here
from tests.helpers.paths import EXAMPLES
from tests.helpers.rules import compiled

BASE = compiled()
CAR = compiled("car")
LEGALITY = Path(__file__).resolve().parent.parent / "dreamhome" / "legality.py"


@st.composite
def any_houses(draw: st.DrawFn, rules: Ruleset) -> House:
    """Houses with any card anywhere: most break several rules at once."""
    n = rules.board.size
    codes = st.sampled_from([EMPTY, SCAFFOLD, FACE_DOWN, *range(ROOM0, ROOM0 + len(rules.rooms))])
    cells = tuple(draw(st.lists(codes, min_size=n, max_size=n)))
    tokens = tuple(draw(st.lists(st.integers(0, len(rules.furnishings)), min_size=n, max_size=n)))
    roofs = tuple(draw(st.lists(st.tuples(st.integers(0, len(rules.roofs) - 1), st.booleans()), max_size=30)))
    outside = tuple(draw(st.lists(st.sampled_from(rules.ids("furnishing")), max_size=4)))
    held = st.sampled_from(rules.ids("helper") + rules.ids("tool"))
    helpers = tuple(h for h in draw(st.lists(held, max_size=6)) if rules.held(h).kind == "helper")
    tools = tuple(h for h in draw(st.lists(held, max_size=6)) if rules.held(h).kind == "tool")
    rooms = tuple(draw(st.lists(st.sampled_from(rules.ids("room")), max_size=12)))
    return House(cells, tokens, (0,) * n, roofs, outside, helpers, tools, rooms)


def _violations(rules: Ruleset, house: House) -> list[Violation]:
    return house_violations(rules, house) + final_state_violations(rules, house)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_english_is_the_checks_own_sentence_and_every_language_fills_it(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from([BASE, CAR]))
    house = data.draw(any_houses(rules))
    for v in _violations(rules, house):
        assert v.key, v  # the base rules always have a scaffold card and 12 rounds: every sentence is keyed
        assert violation_text(rules, v, "en") == v.message
        assert violation_line(rules, v, "en") == str(v)
        for lang in ("ru", "fr", "hu"):
            said = violation_text(rules, v, lang)
            assert said.strip() and "{" not in said and "=" not in said, (lang, v)


def test_every_violation_key_the_check_makes_is_in_every_catalogue_with_the_same_placeholders() -> None:
    written = set(re.findall(r'"(violation\.[a-z_.]+)"', LEGALITY.read_text(encoding="utf-8")))
    composed = {"violation.over_empty" + s for s in (".room", ".scaffold", ".face_down")}  # _what_key's suffixes
    composed |= {"violation.token_on.scaffold", "violation.token_on.face_down"}  # a room card is token_room's
    composed |= {"violation.too_few" + a + b for a in ("", ".every") for b in ("", ".empty")}
    made = (written - {"violation.over_empty", "violation.token_on", "violation.too_few"}) | composed
    catalogue_keys = {k for k in i18n.keys() if k.startswith("violation.")}
    assert made == catalogue_keys  # every sentence has its message, and no message is left unused
    for key in catalogue_keys:
        fields = {f for _t, f, _s, _c in string.Formatter().parse(i18n.text(key)) if f}
        for lang in i18n.LANGUAGES:
            template = i18n._catalogue(lang)["text"][key]  # type: ignore[index]
            assert {f for _t, f, _s, _c in string.Formatter().parse(template) if f} == fields, (lang, key)


def _house(rules: Ruleset, **cells: int) -> House:
    house = House.empty(rules)
    for name, code in cells.items():
        house = house.place(rules.board.index[name.replace("_", "/")], code)
    return house


def test_a_sentence_agrees_with_the_card_it_names() -> None:
    """The scaffold is "Строительные леса" (plural) in Russian and "Échafaudage" (masculine) in
    French: the sentence that it is left at the end agrees."""
    house = _house(BASE, basement_3=SCAFFOLD)
    left = [v for v in final_state_violations(BASE, house) if v.key == "violation.scaffold_left"]
    assert len(left) == 1
    assert violation_text(BASE, left[0], "ru").startswith("«Строительные леса» остались в конце игры")
    assert "une carte de pièce doit le remplacer" in violation_text(BASE, left[0], "fr")


def test_cards_and_words_are_said_in_the_language() -> None:
    garage = BASE.room("garage").code
    house = _house(BASE, basement_3=FACE_DOWN, middle_3=garage)  # PLACE-B: a basement card upstairs
    (category,) = [v for v in house_violations(BASE, house) if v.rule == "PLACE-B"]
    assert violation_text(BASE, category, "en") == "a basement card (garage) cannot go on a upper floor"
    assert violation_text(BASE, category, "ru") == "«Гараж» (подвал) нельзя класть на этаж типа «верхний»"
    assert violation_text(BASE, category, "hu") == "alagsori szobakártya (garázs) nem kerülhet erre a szintre: felső szint"
    assert violation_line(BASE, category, "fr").startswith("PLACE-B en middle/3: la carte Garage (sous-sol)")


def test_check_prints_the_violations_in_the_language(tmp_path: Path) -> None:
    data = json.loads((EXAMPLES / "midgame.json").read_text(encoding="utf-8"))
    data["floors"]["top"][2] = {"room": "garage"}  # PLACE-A (nothing below) and PLACE-B (a basement card upstairs)
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(data), encoding="utf-8")
    russian = run_here("--lang", "ru", "check", str(illegal))
    english = run_here("check", str(illegal))
    assert russian.returncode == english.returncode == 1, russian.stderr
    assert "не по правилам" in russian.stdout
    pattern = re.compile(r"^\s+(PLACE-[A-C]) (\S+): (.*)$", re.MULTILINE)
    said_en, said_ru = pattern.findall(english.stdout), pattern.findall(russian.stdout)
    assert [r for r, _c, _t in said_en] == [r for r, _c, _t in said_ru] == ["PLACE-A", "PLACE-B"]
    assert said_en[1][2] == "a basement card (garage) cannot go on a upper floor"
    assert said_ru[0][2] == "карта «Гараж» лежит над пустой ячейкой middle/2"
    assert said_ru[1][2] == "«Гараж» (подвал) нельзя класть на этаж типа «верхний»"
