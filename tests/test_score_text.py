"""Score lines (SCORE-*) in the reader's language (dreamhome/render/score_text.py, the `line.*` entries of
dreamhome/locales): English stays the scorer's own sentence, every language says every line
with its rulebook's card names, and the terminal, the SVG and the browser table follow `--lang`
/ `?lang=`."""

from __future__ import annotations

import random
import string
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import given, settings

from dreamhome import i18n
from dreamhome.generate import random_house
from dreamhome.house import load_house
from dreamhome.render.house_svg import house_svg
from dreamhome.render.score_text import line_text
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import Arg, ScoreLine, score_house
from tests.helpers.cli import run_here
from tests.helpers.paths import EXAMPLES
from tests.helpers.rules import compiled
from tests.helpers.strategies import legal_houses

EXAMPLE = EXAMPLES / "rulebook_example.json"
BASE = compiled()
RULE_SETS = {
    "base": BASE,
    "car": compiled("car"),
    "architect2": compiled("architect2"),  # a helper's empty-room points
    "kitchen3+car": compiled("kitchen3", "car"),
    "roof3": compiled("roof3"),
    "roof_windows2": compiled("roof_windows2"),
    "office": compiled("office"),
    "wide": compiled("wide"),
}
LINE_KEYS = tuple(k for k in i18n.keys() if k.startswith("line.") and k != "line.roof.with_window")


def _placeholders(template: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name}


# ---- English: exactly the scorer's sentence ----------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_english_line_text_is_the_scorers_text(name: str) -> None:
    """`line_text(…, "en")` == `ScoreLine.text` on every line of many random houses, so the
    catalogue's English and the scorer's English cannot drift apart."""
    rules = RULE_SETS[name]
    rng = random.Random(name)
    seen: set[str] = set()
    for _ in range(120):
        house = random_house(rules, rng, cards=rng.randint(0, rules.board.size))
        for line in score_house(rules, house).lines:
            assert line.key in LINE_KEYS, line
            assert line_text(rules, line, "en") == line.text, line
            seen.add(line.key)
    # the generator reaches rooms, tokens, bonuses, empty rooms and roofs under every rule set
    assert {"line.room.one", "line.token", "line.bonus", "line.empty"} <= {k.removesuffix(".helpers") for k in seen}, seen


@settings(max_examples=60, deadline=None)
@given(legal_houses(BASE))
def test_english_line_text_is_the_scorers_text_on_hypothesis_houses(house) -> None:
    for line in score_house(BASE, house).lines:
        assert line_text(BASE, line, "en") == line.text


def test_every_line_key_is_reached_in_english() -> None:
    """Each `line.*` message the scorer can give is given somewhere on random houses (a key no
    house reaches would be an untested sentence)."""
    seen: set[str] = set()
    for name, rules in RULE_SETS.items():
        rng = random.Random(f"keys {name}")
        for _ in range(150):
            house = random_house(rules, rng, cards=rng.randint(0, rules.board.size))
            seen |= {line.key for line in score_house(rules, house).lines}
    # a room with an annex bonus is at most one card in these rule sets, so the plural form of
    # "not beside" is only reached by the synthetic lines below
    assert set(LINE_KEYS) - seen <= {"line.room.not_beside.many"}, set(LINE_KEYS) - seen


# ---- every language: every key, every placeholder ----------------------------------------------


def _distinct(rules: Ruleset, items: tuple) -> str:
    """An id whose names differ in all four languages (so a line that drops a name shows)."""
    for item in items:
        if len({rules.card_name(item.id, lang).lower() for lang in i18n.LANGUAGES}) == len(i18n.LANGUAGES):
            return str(item.id)
    raise AssertionError("no card named differently in every language")


def _synthetic(rules: Ruleset, key: str) -> tuple[ScoreLine, dict[str, str]]:
    """A line with message `key`, its arguments from the English placeholders and real card ids;
    and, per placeholder that names a card, the id it names."""
    room = _distinct(rules, rules.rooms)
    ids = {
        "room": room,
        "target": room,
        "where": room,
        "furnishing": _distinct(rules, rules.furnishings),
        "bonus": _distinct(rules, rules.bonuses),
        "colour": _distinct(rules, rules.roofs),
    }
    args: list[Arg] = []
    named: dict[str, str] = {}
    for name in sorted(_placeholders(i18n.text(key))):
        if name == "helpers":
            helper = _distinct(rules, rules.helpers)
            args.append(("helper", helper))
            named["helpers"] = helper
        elif name == "colours":
            roof = _distinct(rules, rules.roofs)
            args += [("roof", roof), ("roof_window", roof)]
            named["colours"] = roof
        elif name in ids:
            args.append((name, ids[name]))
            named[name] = ids[name]
        else:
            args.append((name, 7))
    return ScoreLine("rooms", 0, "", (), key, tuple(args)), named


def test_the_four_catalogues_hold_the_line_keys_with_the_same_placeholders() -> None:
    for key in LINE_KEYS + ("line.roof.with_window",):
        english = _placeholders(i18n._entries("en")[key])
        for lang in i18n.LANGUAGES:
            assert _placeholders(i18n._entries(lang)[key]) == english, (key, lang)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_each_language_renders_every_line_key_with_its_names(lang: str) -> None:
    """No placeholder left, no argument missing, and every card the line names said by its
    name in `lang` (lower case inside a sentence, as printed at the head of one)."""
    rules = RULE_SETS["car"]
    for key in LINE_KEYS:
        line, named = _synthetic(rules, key)
        said = line_text(rules, line, lang)
        assert said.strip() and "{" not in said and "}" not in said, (key, said)
        assert "7" in said or not any(isinstance(v, int) for _n, v in line.args), (key, said)
        for ident in named.values():
            assert rules.card_name(ident, lang).lower() in said.lower(), (key, lang, ident, said)
        if lang != "en":
            for ident in named.values():  # no English name left in another language's line
                assert rules.card_name(ident, "en").lower() not in said.lower(), (key, lang, said)
        if key == "line.roof.mixed":
            window = i18n.text("line.roof.with_window", lang, colour=rules.card_name(named["colours"], lang).lower())
            assert window in said, said


def test_a_line_with_no_message_keeps_its_text() -> None:
    line = ScoreLine("rooms", 1, "a line from elsewhere")
    assert line_text(BASE, line, "ru") == "a line from elsewhere"


# ---- where a person reads them -----------------------------------------------------------------


def test_lang_ru_score_prints_russian_lines_with_russian_names() -> None:
    """`dreamhome --lang ru score`: the living room of two cards (SCORE-EXAMPLE) in Russian, with
    the Russian rulebook's name; no English sentence of the scorer is left."""
    proc = run_here("--lang", "ru", "score", EXAMPLE)
    assert proc.returncode == 0, proc.stderr
    assert "Гостиная, карт: 2" in proc.stdout
    assert "Кладовая рядом с комнатой «кухня»" in proc.stdout  # SCORE-ROOMS: pantry beside a kitchen
    house = load_house(BASE, EXAMPLE)
    for line in score_house(BASE, house).lines:
        assert line.text not in proc.stdout, line.text
    english = run_here("score", EXAMPLE)
    assert "Living room, 2 cards" in english.stdout and "Гостиная" not in english.stdout


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_svg_breakdown_follows_lang(lang: str) -> None:
    house = load_house(BASE, EXAMPLE)
    svg = house_svg(BASE, house, lang=lang)
    for line in score_house(BASE, house).lines:
        assert escape(line_text(BASE, line, lang)) in svg
        if lang != "en":
            assert escape(line.text) not in svg, line.text


def test_web_view_lines_follow_lang(tmp_path: Path) -> None:
    """The browser table's final scores (`?lang=`): each line as `line_text` says it in that
    language, for the houses the engine holds."""
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
    from dreamhome.web.store import GameStore
    from tests.helpers.table import acted, client, start

    c = client(tmp_path)
    view = start(c, seed=3)
    while not view["terminal"]:
        view = acted(c, view, 0)
    game = GameStore(tmp_path).get(view["id"])  # the engine's houses, as the server saved them
    shown = {lang: c.get(f"/api/games/{view['id']}?lang={lang}").json()["scores"] for lang in i18n.LANGUAGES}
    english = [[ln["text"] for ln in s["lines"]] for s in shown["en"]]
    for lang, scores in shown.items():
        assert [s["total"] for s in scores] == [s["total"] for s in shown["en"]]
        for s, en_lines in zip(scores, english):
            texts = [ln["text"] for ln in s["lines"]]
            assert len(texts) == len(en_lines)
            if lang != "en":
                assert texts != en_lines, lang
    rules = game.state.rules
    for lang, scores in shown.items():
        for p, house in enumerate(game.state.houses):
            lines = score_house(rules, house).lines
            assert [ln["text"] for ln in scores[p]["lines"]] == [line_text(rules, ln, lang) for ln in lines]
            assert lang != "en" or [ln["text"] for ln in scores[p]["lines"]] == [ln.text for ln in lines]
