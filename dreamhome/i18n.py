"""The interface's words in the languages of the rulebooks: one catalogue per language.

Card names are not here: they belong to the rules (`name LANG "…"` in a rules file,
`Ruleset.card_name(ident, lang)`, `Ruleset.find_card(text)`), so that a house rule that
renames a card renames it everywhere. This module holds only what the program itself says
to a person around those names: labels, headers, "legal", "face down".

API (for the CLI, the terminal seat and the browser table):

- `LANGUAGES`: the supported codes, English first (`en`, `ru`, `fr`, `hu`).
- `DEFAULT_LANG` (`en`) and `ENV_VAR` (`DREAMHOME_LANG`): `language_from_env()` reads it.
- `check_lang(code) -> str`: the code lower-cased, or `UnknownLanguageError` (a
  `DreamhomeError`: one line for the user, exit 2 at the command line).
- `text(key, lang="en", **args) -> str`: the catalogue entry `key` in `lang`, formatted with
  `str.format(**args)`; a key a language's catalogue lacks falls back to English. An unknown
  key is a bug in the caller (`KeyError`), never a silent blank.
- `language_name(lang)`: the language's own name ("Русский"), for a language menu.
- `has_text(key)`: whether the key exists (labels built from data fall back to the data).
- `keys()`: every key (the English catalogue's), for tests.

Agreement with a card's gender: a card's name in a language may carry its grammatical gender
(`name fr "Cuisine" feminine` in a rules file), and `Ruleset.card_name` returns it as a
`CardName`, a `str` that also knows its gender. A catalogue entry agrees with a placeholder by
a format spec listing the forms, `{card:masculine=défaussé|feminine=défaussée}`: the form of the
value's gender, else the first one (a plain string, or a name with no gender given). So the
words around a card follow the card wherever a caller puts its name, and a caller never passes
a gender itself. Which genders a language's forms may name is `GENDERS`; English and Hungarian
take none (tests/test_lang_agreement.py checks every form). The spec `{room:lower}` writes a
name in lower case, for the languages whose sentences do (English "a … card").

Catalogues are JSON files shipped inside the package (`dreamhome/locales/LANG.json`,
`{"language": "…", "text": {key: string}}`), read once on first use. Keys are dotted by
where they are used: `grid.*`, `held.*`, `score.*`, `check.*`, `place.*`, `line.*` (a score
line's sentence, dreamhome/render/score_text.py), `violation.*` (a broken rule's sentence,
dreamhome/render/violation_text.py), `word.*` (the rules' vocabulary: categories, floor kinds),
`floor.*` (a floor by its id), `rules.*` (`rules show`), `variant.*` (the variant menu); the
terminal seat adds `seat.*`, the browser table `table.*`, and both share `action.*` (one text
per action class, `dreamhome.render.action_text`), `card.*`, `phase.*` and `event.*`. A new key
goes into every catalogue at once: `tests/test_i18n.py` checks that all four hold exactly the same keys
with the same placeholders.
"""

from __future__ import annotations

import json
import os
import string
from functools import cache
from pathlib import Path
from typing import Any

from dreamhome.errors import DreamhomeError

LANGUAGES = ("en", "ru", "fr", "hu")
DEFAULT_LANG = "en"
ENV_VAR = "DREAMHOME_LANG"
CATALOGUE_DIR = Path(__file__).resolve().parent / "locales"


GENDERS: dict[str, tuple[str, ...]] = {
    "fr": ("masculine", "feminine"),
    "ru": ("masculine", "feminine", "neuter", "plural"),
}
"""The genders a language's sentences agree with (a name's `gender`, a form's spec); a language
not listed (English, Hungarian) agrees with none: its catalogue has no forms and its names no gender."""


class CardName(str):
    """A card's name in one language together with its grammatical gender there (None: not
    given), so a catalogue entry can agree with it (see the module docstring). Compares, hashes
    and serialises as the plain name; a string method (`lower()`) returns a plain `str`."""

    __slots__ = ("gender",)
    gender: str | None

    def __new__(cls, name: str, gender: str | None = None) -> CardName:
        value = super().__new__(cls, name)
        value.gender = gender
        return value


def form_of(spec: str, gender: str | None) -> str | None:
    """The form a format spec `masculine=placé|feminine=placée` gives `gender` (the first form
    when the gender is None or not listed); None when `spec` is not a list of forms."""
    forms = []
    for part in spec.split("|"):
        name, sep, word = part.partition("=")
        if not sep:
            return None
        forms.append((name.strip(), word))
    return next((word for name, word in forms if name == gender), forms[0][1])


def form_specs(template: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each gendered placeholder of `template` and the genders its forms name (for the tests)."""
    out = []
    for _literal, field, spec, _conv in string.Formatter().parse(template):
        if field is not None and spec and "=" in spec:
            out.append((field, tuple(part.partition("=")[0].strip() for part in spec.split("|"))))
    return out


class _AgreeingFormatter(string.Formatter):
    """`str.format` that reads a spec of forms as agreement with the value's gender."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec == "lower":  # a name inside a sentence, in the languages that write it so
            return str(value).lower()
        if format_spec and "=" in format_spec:
            form = form_of(format_spec, getattr(value, "gender", None))
            if form is not None:
                return form
        return super().format_field(value, format_spec)


_FORMATTER = _AgreeingFormatter()


class UnknownLanguageError(DreamhomeError):
    """A language code the catalogues and the rules' names do not cover."""


def check_lang(code: str) -> str:
    """`code` as a supported language (case-insensitive), or one clear line saying which are."""
    lang = code.strip().lower()
    if lang not in LANGUAGES:
        raise UnknownLanguageError(f"unknown language {code!r}; expected one of {', '.join(LANGUAGES)}")
    return lang


def language_from_env() -> str:
    """The language `DREAMHOME_LANG` asks for (checked), English when it is unset or blank."""
    value = os.environ.get(ENV_VAR, "").strip()
    return check_lang(value) if value else DEFAULT_LANG


@cache
def _catalogue(lang: str) -> dict[str, object]:
    data = json.loads((CATALOGUE_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):  # pragma: no cover - the shipped files are tested
        raise ValueError(f"{lang}.json: not a catalogue")
    return data


def _entries(lang: str) -> dict[str, str]:
    entries = _catalogue(lang).get("text", {})
    return entries if isinstance(entries, dict) else {}


def keys() -> tuple[str, ...]:
    """Every key of the interface text (the English catalogue is the reference)."""
    return tuple(_entries(DEFAULT_LANG))


def has_text(key: str) -> bool:
    """Whether the catalogue has `key`: for labels built from data (a score part a later
    scorer adds), which then fall back to the data's own spelling."""
    return key in _entries(DEFAULT_LANG)


def label(key: str, fallback: str, lang: str = DEFAULT_LANG) -> str:
    """The catalogue's `key` in `lang` where the catalogue has it, else `fallback`: for words
    that come from the rules (a floor's id, a category a house rule adds), which then show as
    the rules file spells them rather than as a blank or an error."""
    return text(key, lang) if has_text(key) else fallback


def floor_name(floor: str, lang: str = DEFAULT_LANG) -> str:
    """A floor of the board by its id (`top`), as people call it in `lang` (`floor.top`); the
    id itself for a floor the catalogue does not know (a house rule's own board)."""
    return label(f"floor.{floor}", floor, lang)


def language_name(lang: str) -> str:
    """The language's name in itself, as a language menu shows it."""
    return str(_catalogue(check_lang(lang)).get("language", lang))


def count_text(key: str, n: float, lang: str = DEFAULT_LANG, **args: object) -> str:
    """`n` with its noun in `lang`'s plural form ("33 очка", "35 очков", "1,5 points perdus"): the
    entry `key.FORM`, FORM the CLDR plural category of `n` as shown in `lang` (one, few, many or
    other), as Babel picks it — each language's plural rules are CLDR data, not ours to
    hand-write. A whole number is shown as it is, a fraction in `lang`'s decimal format
    (`decimal_text`) and its category read from the digits shown ("1.5" is other in English,
    one in French). Every catalogue gives all four forms of such a key (one language's unused
    forms repeat another)."""
    from decimal import Decimal

    from babel import Locale

    whole = float(n).is_integer()
    operand: int | Decimal = int(n) if whole else Decimal(f"{n:.2f}".rstrip("0"))
    shown: object = int(n) if whole else decimal_text(n, lang)
    return text(f"{key}.{Locale.parse(check_lang(lang)).plural_form(operand)}", lang, n=shown, **args)


def decimal_text(value: float, lang: str = DEFAULT_LANG, fixed: int | None = None) -> str:
    """`value` with at most two decimals, or exactly `fixed`, in `lang`'s decimal format ("1.19",
    "1,19", "1 234,50"): a player reads numbers in their language's conventions (CLDR data
    through Babel)."""
    from babel.numbers import format_decimal

    pattern = "#,##0.##" if fixed is None else "#,##0" + ("." + "0" * fixed if fixed > 0 else "")
    return str(format_decimal(value, format=pattern, locale=check_lang(lang)))


def text(key: str, lang: str = DEFAULT_LANG, **args: object) -> str:
    """The interface text `key` in `lang` with `args` filled in; English where `lang` lacks it."""
    english = _entries(DEFAULT_LANG)
    if key not in english:
        raise KeyError(f"no interface text {key!r} in {DEFAULT_LANG}.json")
    template = _entries(check_lang(lang)).get(key) or english[key]
    return _FORMATTER.format(template, **args) if args else template
