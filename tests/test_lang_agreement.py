"""Languages done properly (issue 22, item 6): the words around a card agree with the card's
grammatical gender (`name LANG "…" GENDER`, docs/language.md), and each language uses its
rulebook's terms (the rulebooks in /work/shared/rulebooks, read by hand: an independent
reference, never the catalogue's own output)."""

from __future__ import annotations

import json
import re

import pytest

from dreamhome import i18n
from dreamhome.dsl.compiler import compile_rules
from dreamhome.errors import RulesError
from dreamhome.ruleset import Ruleset


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return compile_rules(variants=["car"])


def _catalogue(lang: str) -> dict[str, str]:
    return json.loads((i18n.CATALOGUE_DIR / f"{lang}.json").read_text(encoding="utf-8"))["text"]


def _discarded(rules: Ruleset, card: str, lang: str) -> str:
    return i18n.text("event.furnishing_discarded", lang, when="x", who="x", card=rules.card_name(card, lang))


# ---- agreement: a feminine and a masculine card, the same sentence -------------------------


def test_french_participles_follow_the_card(rules: Ruleset) -> None:
    # "Maison de chat" and "Cheminée" are feminine, "Piano" and "Lit à baldaquin" masculine.
    assert "Maison de chat est défaussée " in _discarded(rules, "cat_house", "fr")
    assert "Cheminée est défaussée " in _discarded(rules, "fireplace", "fr")
    assert "Piano est défaussé " in _discarded(rules, "piano", "fr")
    assert "Lit à baldaquin est défaussé " in _discarded(rules, "canopy_bed", "fr")
    # The pronoun agrees too: "une carte de pièce doit la remplacer" for "Cuisine", "le" for "Salon".
    kitchen = i18n.text("violation.scaffold_left", "fr", card=rules.card_name("kitchen", "fr"))
    living = i18n.text("violation.scaffold_left", "fr", card=rules.card_name("living_room", "fr"))
    assert "doit la remplacer" in kitchen and "doit le remplacer" in living


def test_russian_discarded_follows_the_card(rules: Ruleset) -> None:
    assert "«Рояль» сброшен " in _discarded(rules, "piano", "ru")  # masculine
    assert "«Кровать с балдахином» сброшена " in _discarded(rules, "canopy_bed", "ru")  # feminine
    assert "«Джакузи» сброшено " in _discarded(rules, "jacuzzi", "ru")  # neuter


def test_a_name_without_a_gender_takes_the_first_form() -> None:
    """A house rule's card with no gender given (and any plain string) reads the first form,
    never a blank or a format error."""
    assert i18n.text("event.furnishing_discarded", "fr", when="x", who="x", card="Tabouret").count("défaussé ") == 1
    assert "сброшен " in i18n.text("event.furnishing_discarded", "ru", when="x", who="x", card="Табурет")


def test_french_roof_colours_agree_with_toit(rules: Ruleset) -> None:
    """ "toit" is masculine: "toit bleu", "toit vert", never "toit bleue"."""
    said = [i18n.text("card.roof", "fr", color=rules.card_name(r, "fr").lower()) for r in rules.ids("roof")]
    assert said == ["toit rouge", "toit bleu", "toit vert", "toit jaune"]
    assert all(rules.card_gender(r, "fr") == "masculine" for r in rules.ids("roof"))
    assert all(rules.card_gender(r, "ru") == "feminine" for r in rules.ids("roof"))  # "крыша"


def test_every_french_and_russian_name_of_base_has_a_gender(rules: Ruleset) -> None:
    """Every sentence can agree: base.dh gives each card's French and Russian name its gender."""
    for group in (rules.rooms, rules.roofs, rules.furnishings, rules.helpers, rules.tools):
        for card in group:
            for lang in ("fr", "ru"):
                assert rules.card_gender(card.id, lang) in i18n.GENDERS[lang], (card.id, lang)
            assert rules.card_gender(card.id, "hu") is None and rules.card_gender(card.id, "en") is None


def test_every_form_names_genders_its_language_has() -> None:
    """A catalogue's forms (`{card:masculine=…|feminine=…}`) name only its language's genders,
    and English and Hungarian have none."""
    for lang in i18n.LANGUAGES:
        for key, template in _catalogue(lang).items():
            for _field, genders in i18n.form_specs(template):
                assert genders and set(genders) <= set(i18n.GENDERS.get(lang, ())), (lang, key, genders)


# ---- the language: a gender is given with a name, or refused at its place -------------------


def _errors(text: str) -> list[str]:
    with pytest.raises(RulesError) as err:
        compile_rules(text=text, name="g.dh")
    return [d.one_line() for d in err.value.diagnostics]


def test_a_gender_overrides_with_its_name() -> None:
    rules = compile_rules(text='include "base.dh"\nroom kitchen { name fr "Coin cuisine" masculine }\n', name="g.dh")
    assert rules.card_name("kitchen", "fr") == "Coin cuisine" and rules.card_gender("kitchen", "fr") == "masculine"
    plain = compile_rules(text='include "base.dh"\nroom kitchen { name ru "Кухонька" }\n', name="g.dh")
    assert plain.card_gender("kitchen", "ru") is None  # a new name without a gender keeps no old one
    assert plain.card_gender("kitchen", "fr") == "feminine"


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ('name hu "Konyha" feminine', "error: the hu name takes no gender"),
        ('name en "Kitchen" neuter', "error: the en name takes no gender"),
        ('name fr "Cuisine" neuter', "error: the fr name is masculine or feminine, not neuter"),
        ('name ru "Кухня" femme', "error: unknown gender 'femme' for the ru name; expected one of"),
    ],
)
def test_a_wrong_gender_is_refused_at_its_position(field: str, message: str) -> None:
    errors = _errors(f'include "base.dh"\nroom kitchen {{ {field} }}\n')
    column = len("room kitchen { ") + field.rindex(" ") + 2  # the gender word, 1-based
    assert errors == [f"g.dh:2:{column}: " + errors[0].split(": ", 1)[1]] and message in errors[0], errors


# ---- each language's rulebook terms --------------------------------------------------------


def test_hungarian_says_it_as_its_rulebook() -> None:
    """The Hungarian rulebook: "erőforráskártya" (resource card), "lakatlan szoba" (empty room),
    "eszköz" (tool; the issue's term), and "kör" is a round ("A játék 12 körig tart"), a turn is not."""
    hu = _catalogue("hu")
    values = " ".join(hu.values())
    for wrong in ("nyersanyag", "üres szoba", "szerszám", "forduló", "sáv"):
        assert wrong not in values, wrong
    assert hu["grid.empty_room"] == hu["line.empty"] == "lakatlan szoba"
    assert all("lakatlan szoba" in hu[f"seat.brief_empty.{form}"] for form in ("one", "few", "many", "other"))
    assert "erőforráskártya" in hu["seat.resource"] and "erőforráskártya" in hu["seat.hint_explain"]
    assert hu["card.kind.tool"] == "eszköz" and hu["held.tools"] == "eszközök"
    assert hu["table.round"] == "Kör" and "kör" in hu["seat.rule"] and "kör" not in hu["phase.turn"]
    assert hu["event.when.round"] == "{round}. kör"
    assert all(hu[k].startswith("{when}:") for k in hu if k.startswith("event.") and not k.startswith("event.when."))


def test_russian_says_column_never_row() -> None:
    """The Russian rulebook takes a "столбец" of the "игровой планшет"; "ряд" (row) is not the track."""
    ru = _catalogue("ru")
    assert not [k for k, v in ru.items() if re.search(r"\bряд(а|у|ы|ов)?\b", v, re.IGNORECASE)]
    assert "столбц" in ru["action.TakeRoomAtRoundStart"] and ru["seat.column"] == "столбец"


def test_french_says_its_rulebook_words() -> None:
    """The French rulebook: "manche" (round), "tour" (turn), "personnages" (helpers), "plateau de jeu"."""
    fr = _catalogue("fr")
    assert fr["table.round"] == "Manche" and fr["phase.turn"] == "tour"
    assert fr["held.helpers"] == "personnages" and fr["table.track"] == "Plateau de jeu"
    assert not [k for k, v in fr.items() if "piste" in v.lower()]


def test_every_form_of_every_entry_reads_for_every_gender() -> None:
    """Each entry with forms, filled with names of each gender its language has (and none):
    one of its forms, whole, and never a bit of the form syntax."""
    import string

    for lang, genders in i18n.GENDERS.items():
        for key, template in _catalogue(lang).items():
            if not i18n.form_specs(template):
                continue
            fields = {f for _t, f, _s, _c in string.Formatter().parse(template) if f}
            for gender in (*genders, None):
                said = i18n.text(key, lang, **{f: i18n.CardName("Xx", gender) for f in fields})
                assert not set("{}|=") & set(said), (lang, key, gender, said)
                for _t, _f, spec, _c in string.Formatter().parse(template):
                    if spec and "=" in spec:
                        forms = dict(part.split("=", 1) for part in spec.split("|"))
                        want = forms.get(gender or "", next(iter(forms.values())))
                        assert want in said, (lang, key, gender, said)
