"""The program's own words in the four languages (issue 22, item 6): floor names, the headers of
`rules show`, and each variant's question for the variant menus."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamhome import i18n
from dreamhome.dsl.compiler import VARIANTS_DIR, compile_rules
from dreamhome.errors import RulesError
from dreamhome.house import load_house
from dreamhome.render.house_svg import house_svg
from dreamhome.variant_menu import file_questions, variant_menu, variant_question
from tests.helpers.cli import run_here
from tests.helpers.paths import EXAMPLES

MIDGAME = str(EXAMPLES / "midgame.json")

# The floors as each rulebook calls them: the Russian "второй и третий этажи" and "подвал", the
# French "sous-sol", the Hungarian "első/második szint" and "alagsor".
FLOORS = {
    "ru": ("3-й этаж", "2-й этаж", "подвал"),
    "fr": ("étage du haut", "étage du milieu", "sous-sol"),
    "hu": ("második szint", "első szint", "alagsor"),
}


@pytest.mark.parametrize("lang", sorted(FLOORS))
def test_floor_names_are_said_in_the_language(lang: str) -> None:
    rules = compile_rules()
    said = tuple(i18n.floor_name(floor.name, lang) for floor in rules.board.floors)
    assert said == FLOORS[lang]
    svg = house_svg(rules, load_house(rules, MIDGAME), lang=lang)
    assert all(f">{name}<" in svg for name in FLOORS[lang])
    grid = run_here("--lang", lang, "check", MIDGAME)
    # The grid's floor column wraps a long name (80 columns hold the grid in every language), and
    # a translated floor shows the id the options name its cells by ("middle/2") under it.
    assert grid.returncode == 0 and all(word in grid.stdout for name in FLOORS[lang][1:] for word in name.split())
    if lang != "en":
        assert all(f"({floor.name})" in grid.stdout for floor in rules.board.floors[1:])


def test_a_floor_the_catalogue_does_not_know_is_shown_by_its_id() -> None:
    assert i18n.floor_name("attic", "ru") == "attic"
    assert [i18n.floor_name(f.name) for f in compile_rules().board.floors] == ["top", "middle", "basement"]


HEADERS = {
    "en": ("Room cards", "Resource cards", "Scoring", "points by size"),
    "ru": ("Карты комнат", "Карты ресурсов", "Подсчёт очков", "очки по размеру"),
    "fr": ("Cartes pièces", "Cartes ressources", "Décompte des points", "points selon la taille"),
    "hu": ("Szobakártyák", "Erőforráskártyák", "Pontozás", "pont méret szerint"),
}


@pytest.mark.parametrize("lang", sorted(HEADERS))
def test_rules_show_headers_are_in_the_language(lang: str) -> None:
    proc = run_here("--lang", lang, "rules", "show")
    assert proc.returncode == 0, proc.stderr
    for header in HEADERS[lang]:
        assert header in proc.stdout, header
    if lang != "en":
        assert not [h for h in HEADERS["en"] if h in proc.stdout]


# ---- the variant menus: each variant's question in the language ------------------------------


def test_every_variant_has_its_question_in_every_language() -> None:
    rules = compile_rules()
    for lang in i18n.LANGUAGES:
        menu = variant_menu(rules, lang)
        assert [c.name for c in menu] == list(rules.variants_available)
        for choice in menu:
            english = variant_question(rules, choice.name, "en")
            assert choice.text.strip() and choice.text != choice.name, (lang, choice)
            if lang != "en":
                assert choice.text != english, (lang, choice.name)  # translated, not the English fallback
            if choice.source == "file":
                assert choice.text.endswith("?"), choice
    first_lines = {
        c.name: (VARIANTS_DIR / f"{c.name}.dh").read_text(encoding="utf-8").splitlines()[0] for c in menu if c.source == "file"
    }
    assert all(variant_question(rules, name, "en") == line[2:] for name, line in first_lines.items())
    assert variant_question(rules, "kids", "ru") == "Без сброса столбца при игре вдвоём или втроём"
    assert variant_question(rules, "kids") == rules.variants_available["kids"]


def test_a_question_without_a_translation_shows_the_english_one(tmp_path: Path) -> None:
    variant = tmp_path / "v.dh"
    variant.write_text(
        '# What if?\n# ru: А если?\n# de: Was wäre, wenn?\n# fr : Et si ?\ninclude "base.dh"\n# hu: not a header\n',
        encoding="utf-8",
    )
    assert file_questions(str(variant)) == {"en": "What if?", "ru": "А если?", "fr": "Et si ?"}
    assert file_questions(str(tmp_path / "missing.dh")) == {}


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ('name de "Kinder"', "unknown language 'de' for a name"),
        ('name ru "Дети" feminine', "a variant's title takes no gender"),
        ('name ru "Дети"  name ru "Дети 2"', "'name ru' is given twice in variant 'kids2'"),
    ],
)
def test_a_wrong_variant_title_is_refused(block: str, message: str) -> None:
    with pytest.raises(RulesError) as err:
        compile_rules(text=f'include "base.dh"\nvariant kids2 "Kids" {{ {block} option round_discard = off }}\n', name="v.dh")
    assert [d.one_line() for d in err.value.diagnostics if message in d.message], err.value.diagnostics


def test_a_variant_title_is_read_from_the_block() -> None:
    rules = compile_rules(
        text='include "base.dh"\nvariant kids2 "Kids" { name hu "Gyerekek" option round_discard = off }\n', name="v.dh"
    )
    assert variant_question(rules, "kids2", "hu") == "Gyerekek" and variant_question(rules, "kids2", "fr") == "Kids"
    assert compile_rules(text=rules.source, name="v.dh", variants=["kids2"]).option("round_discard") == "off"
