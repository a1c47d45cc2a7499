"""The rulebooks' languages: card names in the rules (`name LANG "…"`), the interface catalogue
(dreamhome/i18n.py), `--lang` and cards given by any language's name (docs/language.md, "Names in
other languages"; docs/rules.md, "The card manifest")."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from dreamhome import i18n
from dreamhome.dsl.ast import NAME_FIELD, Decl, VariantDecl
from dreamhome.dsl.compiler import compile_rules
from dreamhome.dsl.parser import RulesParser
from dreamhome.errors import RulesError
from dreamhome.house import load_house
from dreamhome.render.house_svg import house_svg
from dreamhome.ruleset import Ruleset
from tests.helpers.cli import Ran, run_here
from tests.helpers.paths import EXAMPLES

EXAMPLE = str(EXAMPLES / "rulebook_example.json")
MIDGAME = str(EXAMPLES / "midgame.json")
OTHER_LANGS = ("ru", "fr", "hu")

# Names read by hand from the rulebooks of each language (an independent reference, not base.dh):
# the Russian, French and Hungarian rulebooks print these, so base.dh must give them unmarked.
PRINTED = {
    ("handyman", "ru"): "Мастер",
    ("supplier", "ru"): "Курьер",
    ("jackhammer", "ru"): "Отбойный молоток",
    ("pantry", "ru"): "Кладовая",
    ("living_room", "fr"): "Salon",
    ("canopy_bed", "fr"): "Lit à baldaquin",
    ("roofer", "fr"): "Couvreur",
    ("childrens_room", "hu"): "Játékszoba",
    ("concrete_mixer", "hu"): "Betonkeverő",
    ("piano", "hu"): "Zongora",
    ("bathroom_each_floor", "hu"): "Fürdőszoba mind a két szinten",
}


@pytest.fixture(scope="module")
def car() -> Ruleset:
    """The base rules with VAR-CAR on, so that its token is among the cards."""
    return compile_rules(variants=["car"])


def _cards(rules: Ruleset) -> list[str]:
    groups = (rules.rooms, rules.roofs, rules.furnishings, rules.helpers, rules.tools, rules.bonuses)
    return [c.id for group in groups for c in group]


# ---- base.dh: every card named in every language, with where the name comes from -------------


def test_every_card_of_base_has_a_name_in_each_language_with_provenance(car: Ruleset) -> None:
    for ident in _cards(car):
        names = dict(car.item(ident).names)
        assert set(names) == set(i18n.LANGUAGES), ident
        for lang in OTHER_LANGS:
            assert names[lang].strip(), (ident, lang)
            ref = car.provenance[(ident, f"name:{lang}")]
            assert ref.provenance in ("rulebook", "inferred", "assumed"), (ident, lang, ref)
            assert ref.file.endswith("base.dh") and ref.line > 0


def test_names_the_rulebooks_print_are_given_as_printed(car: Ruleset) -> None:
    for (ident, lang), name in PRINTED.items():
        assert car.card_name(ident, lang) == name
        assert car.provenance[(ident, f"name:{lang}")].provenance == "rulebook"


def test_names_are_ours_only_where_marked_and_not_counted_as_assumed_values(car: Ruleset) -> None:
    """A name the rulebook never prints is @assumed (our translation); names change no rule, so
    `assumed_values` (the manifest's 58 numbers) leaves them out."""
    assert car.provenance[("wine_cellar", "name:ru")].provenance == "assumed"
    assert car.provenance[("drill", "name:fr")].provenance == "assumed"
    assert not [f for _i, f, _r in car.assumed_values() if f.startswith("name:")]


def test_every_name_finds_its_card_alone(car: Ruleset) -> None:
    """Within the rules, a name in any language identifies one card: `place кухня` cannot be ambiguous."""
    for ident in _cards(car):
        for _lang, name in car.item(ident).names:
            assert car.find_cards(name) == (ident,), name
            assert car.find_card(name.upper()) == ident


def test_find_card_folds_case_spacing_and_unicode(car: Ruleset) -> None:
    assert car.find_card("living_room") == "living_room"
    assert car.find_card("  LIVING   room ") == "living_room"
    assert car.find_card("Зеленая") == "green"  # ё written as е
    assert car.find_card("ＫＯＮＹＨＡ") == "kitchen"  # full-width letters (NFKC)
    assert car.find_card("Fu\u0308rdo\u030bszoba") == "bathroom"  # combining accents (NFKC)
    assert car.find_card("nope") is None
    assert car.card_name("nope", "ru") == "nope"


def test_card_name_falls_back_to_english() -> None:
    rules = compile_rules(text='include "base.dh"\nroom attic "Attic" { category normal points 1 count 0 }\n', name="a.dh")
    assert rules.card_name("attic", "ru") == "Attic" == rules.card_name("attic", "en")


# ---- the language: parsing, overrides, errors -------------------------------------------------


NAME_TEXTS = [
    'room kitchen "Kitchen" { name ru "Кухня" @printed  name fr "Cuisine"  category normal }',
    'tool drill { count 1  effect swap(house, track) before_take name hu "Fúrógép" @assumed }',
    'helper h { effect scaffold name en "H" }',
    'bonus b "B" { points 3  when has kitchen and has bathroom  name ru "Б"  points 4 }',
    'room name "Name" { name name "x" }',  # `name` as an id and as a language code
    'variant v { token car { name fr "Voiture" room garage } }',
    'roof red { name ru "Красная" @inferred colour "#d9534f" }',
    'room kitchen { name fr "Cuisine" feminine @assumed category normal name ru "Кухня" feminine }',
]
BAD_NAME_TEXTS = [
    "room kitchen { name ru }",
    'room kitchen { name "Кухня" }',
    'room kitchen { name ru "a" "b" }',
    "room kitchen { name ru Кухня }",
    'game g { name ru "x" }',
    'option name = ru "x"',
]


def _name_fields(items) -> list[tuple[str, str]]:
    """(language, text) of every `name` field of the parsed declarations, in order."""
    out = []
    for item in items:
        decls = item.items if isinstance(item, VariantDecl) else (item,)
        for decl in decls:
            if isinstance(decl, Decl):
                out += [(f.value.lang, f.value.text) for f in decl.fields if f.name.startswith(NAME_FIELD)]
    return out


@pytest.mark.parametrize("text", NAME_TEXTS)
def test_names_are_read_as_written(text: str) -> None:
    """Every `name LANG "text"` of the line (found by a regular expression) is one name field."""
    import re

    expected = [(lang, value) for lang, value in re.findall(r'name (\w+) "([^"]*)"', text)]
    assert _name_fields(RulesParser().parse(text, "n.dh").items) == expected


@pytest.mark.parametrize("text", BAD_NAME_TEXTS)
def test_a_bad_name_line_is_refused(text: str) -> None:
    with pytest.raises(RulesError) as info:
        RulesParser().parse(text, "n.dh")
    assert all(d.line == 1 and d.column >= 1 for d in info.value.diagnostics)


MUTATED = (
    'tool drill "Drill" { count 1 effect swap(house, track) before_take name ru "Перфоратор" @assumed name hu "Fúrógép" }\n'
    'bonus b { when has kitchen name fr "B" points 3 }'
)
SPARE = ("name", "ru", '"x"', "@assumed", "{", "}", "effect", "at", "when", "has", "count", "1")


def _mutations() -> list[str]:
    """MUTATED with each token dropped, doubled, or replaced by each of SPARE."""
    tokens = MUTATED.split(" ")
    out = []
    for k in range(len(tokens)):
        out.append(" ".join(tokens[:k] + tokens[k + 1 :]))
        out.append(" ".join(tokens[: k + 1] + tokens[k:]))
        out += [" ".join([*tokens[:k], spare, *tokens[k + 1 :]]) for spare in SPARE]
    return out


def test_mutations_around_names_read_or_fail_with_one_position() -> None:
    """Each mutation reads, or fails with diagnostics on its one line (never another exception)."""
    parser = RulesParser()
    accepted = 0
    for text in _mutations():
        try:
            parser.parse(text, "m.dh")
        except RulesError as exc:
            assert all(d.line in (1, 2) and d.file == "m.dh" for d in exc.diagnostics), text
            continue
        accepted += 1
    assert accepted > 20  # the mutations do reach the reader's name paths, not only its errors


def test_overriding_one_language_keeps_the_others() -> None:
    base = compile_rules()
    rules = compile_rules(text='include "base.dh"\nroom kitchen { name ru "Кухонька" @assumed }\n', name="o.dh")
    assert rules.card_name("kitchen", "ru") == "Кухонька"
    for lang in ("en", "fr", "hu"):
        assert rules.card_name("kitchen", lang) == base.card_name("kitchen", lang)
    assert rules.room("kitchen").points == base.room("kitchen").points  # the other fields stay too
    english = compile_rules(text='include "base.dh"\nroom kitchen { name en "Cookhouse" }\n', name="e.dh")
    assert english.room("kitchen").name == "Cookhouse" == english.card_name("kitchen", "en")
    assert english.card_name("kitchen", "hu") == base.card_name("kitchen", "hu")


def _errors(text: str) -> list[str]:
    with pytest.raises(RulesError) as err:
        compile_rules(text=text, name="x.dh")
    return [d.one_line() for d in err.value.diagnostics]


def test_unknown_language_code_is_refused_at_its_position() -> None:
    errors = _errors('include "base.dh"\nroom kitchen {\n  name de "Küche"\n}\n')
    assert errors == ["x.dh:3:8: error: unknown language 'de' for a name; expected one of en, ru, fr, hu"]


def test_a_name_twice_and_an_empty_name_are_errors() -> None:
    errors = _errors('include "base.dh"\nroom kitchen { name ru "a"  name ru "b" }\nroom bedroom { name hu " " }\n')
    assert any(e.startswith("x.dh:2:29: error: 'name ru' is given twice") for e in errors), errors
    assert any(e.startswith("x.dh:3:16: error: the hu name is empty") for e in errors), errors


# ---- the interface catalogue -------------------------------------------------------------------


def _fields(template: str) -> set[str]:
    return {f for _t, f, _s, _c in string.Formatter().parse(template) if f}


def test_catalogues_hold_the_english_keys_with_the_same_placeholders() -> None:
    english = json.loads((i18n.CATALOGUE_DIR / "en.json").read_text(encoding="utf-8"))["text"]
    assert set(english) == set(i18n.keys())
    for lang in i18n.LANGUAGES:
        data = json.loads((i18n.CATALOGUE_DIR / f"{lang}.json").read_text(encoding="utf-8"))
        assert set(data["text"]) == set(english), lang  # every catalogue complete: no key left to English
        for key, template in data["text"].items():
            assert template.strip() and _fields(template) == _fields(english[key]), (lang, key)
        assert i18n.language_name(lang) == data["language"]


def test_text_formats_falls_back_and_refuses_bad_input() -> None:
    assert i18n.text("place.title", "hu", card="konyha") == "Elhelyezések: konyha"
    assert i18n.text("check.legal") == "legal"
    assert i18n.text("check.legal", "RU") == "по правилам"
    with pytest.raises(KeyError):
        i18n.text("no.such.key", "ru")
    with pytest.raises(i18n.UnknownLanguageError, match="expected one of en, ru, fr, hu"):
        i18n.text("check.legal", "de")


def test_catalogues_ship_in_the_wheel() -> None:
    """pyproject builds the wheel from the whole `dreamhome` package folder, catalogues included."""
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert 'packages = ["dreamhome"]' in pyproject
    assert i18n.CATALOGUE_DIR.parent == Path(i18n.__file__).resolve().parent


# ---- the command line ------------------------------------------------------------------------


def test_place_by_a_name_in_any_language_gives_the_table_of_the_id() -> None:
    by_id = run_here("place", MIDGAME, "kitchen")
    assert by_id.returncode == 0 and "kitchen" in by_id.stdout
    for name in ("кухня", "CUISINE", "Konyha"):
        by_name = run_here("place", MIDGAME, name)
        assert by_name.returncode == 0, by_name.stderr
        assert by_name.stdout == by_id.stdout, name


def test_place_by_the_name_of_a_card_that_is_no_room_says_so() -> None:
    proc = run_here("place", MIDGAME, "Рояль")
    assert proc.returncode == 2 and proc.stderr == "dreamhome: 'Рояль' is the card 'piano', not a room card\n"


def test_lang_ru_score_prints_the_russian_names() -> None:
    proc = run_here("--lang", "ru", "score", EXAMPLE)
    assert proc.returncode == 0, proc.stderr
    for name in ("Гостиная", "Кладовая", "Рояль", "Кошачий", "Гараж", "крыши: красная*, красная, синяя, зелёная"):
        assert name in proc.stdout, name
    # The grid and the held cards speak Russian; the score lines stay the scorer's English sentences.
    assert "roofs:" not in proc.stdout and "+ Piano" not in proc.stdout
    english = run_here("score", EXAMPLE)
    assert "roofs: red*, red, blue, green" in english.stdout and "Гостиная" not in english.stdout


def _run_env(env_lang: str, *args: str) -> Ran:
    """`dreamhome ARGS…` with DREAMHOME_LANG set, in this process (tests/helpers/cli.run_here: the
    environment is the command's own, as in a fresh process; the variable is read when it runs)."""
    return run_here(*args, env={i18n.ENV_VAR: env_lang})


def test_lang_comes_from_the_environment_and_the_option_wins() -> None:
    hungarian = _run_env("hu", "check", EXAMPLE)
    assert hungarian.returncode == 0 and "Nappali" in hungarian.stdout and "szabályos" in hungarian.stdout
    french = _run_env("hu", "--lang", "fr", "check", EXAMPLE)
    assert french.returncode == 0 and "Salon" in french.stdout and "Nappali" not in french.stdout


@pytest.mark.parametrize(
    ("args", "env", "needle"),
    [
        (("--lang", "de", "score", EXAMPLE), "", "--lang: unknown language 'de'; expected one of en, ru, fr, hu"),
        (("score", EXAMPLE), "klingon", "DREAMHOME_LANG: unknown language 'klingon'"),
    ],
)
def test_unknown_language_is_one_line_and_exit_2(args: tuple[str, ...], env: str, needle: str) -> None:
    proc = _run_env(env, *args)
    assert proc.returncode == 2
    assert needle in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_render_draws_names_in_the_language() -> None:
    rules = compile_rules()
    house = load_house(rules, EXAMPLE)
    svg = house_svg(rules, house, lang="hu")
    for tile in (">Nappali<", ">Zongora<", ">lakatlan szoba<", ">tetőkupac (4)<"):
        assert tile in svg, tile
    assert ">Living room<" not in svg and ">Piano<" not in svg  # the tiles; the score lines stay English
