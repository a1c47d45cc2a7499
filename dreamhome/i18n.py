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

Catalogues are JSON files shipped inside the package (`dreamhome/locales/LANG.json`,
`{"language": "…", "text": {key: string}}`), read once on first use. Keys are dotted by
where they are used: `grid.*`, `held.*`, `score.*`, `check.*`, `place.*`, `line.*` (a score
line's sentence, dreamhome/render/score_text.py); the terminal seat adds `seat.*`, the browser table
`table.*`, and both share `action.*` (one text per action class, `dreamhome.game.action_text`),
`card.*`, `phase.*` and `event.*`. A new key goes into
every catalogue at once: `tests/test_i18n.py` checks that all four hold exactly the same keys
with the same placeholders.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

from dreamhome.errors import DreamhomeError

LANGUAGES = ("en", "ru", "fr", "hu")
DEFAULT_LANG = "en"
ENV_VAR = "DREAMHOME_LANG"
CATALOGUE_DIR = Path(__file__).resolve().parent / "locales"


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


def language_name(lang: str) -> str:
    """The language's name in itself, as a language menu shows it."""
    return str(_catalogue(check_lang(lang)).get("language", lang))


def text(key: str, lang: str = DEFAULT_LANG, **args: object) -> str:
    """The interface text `key` in `lang` with `args` filled in; English where `lang` lacks it."""
    english = _entries(DEFAULT_LANG)
    if key not in english:
        raise KeyError(f"no interface text {key!r} in {DEFAULT_LANG}.json")
    template = _entries(check_lang(lang)).get(key) or english[key]
    return template.format(**args) if args else template
