"""The program's own words in the four languages (issue 22, item 6): floor names, the headers of
`rules show`, and each variant's question for the variant menus."""

from __future__ import annotations

import pytest

from dreamhome import i18n
from dreamhome.dsl.compiler import compile_rules
from dreamhome.house import load_house
from dreamhome.render.house_svg import house_svg
from tests.helpers.cli import run
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
    grid = run("--lang", lang, "check", MIDGAME)
    assert grid.returncode == 0 and all(name in grid.stdout for name in FLOORS[lang][1:])


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
    proc = run("--lang", lang, "rules", "show")
    assert proc.returncode == 0, proc.stderr
    for header in HEADERS[lang]:
        assert header in proc.stdout, header
    if lang != "en":
        assert not [h for h in HEADERS["en"] if h in proc.stdout]
