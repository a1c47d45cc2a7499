"""What the variant menus say: each variant's question (or title) in the reader's language.

Why a module: a variant comes from two places and both carry their own words, so that a new
variant needs no list in Python. A packaged variant file (dreamhome/rules/variants/NAME.dh)
opens with its question as a comment, in English on the first line, then one line per other
language, `# ru: …`, `# fr: …`, `# hu: …`. A `variant` block of a rules file has its title
string (English) and may give `name LANG "…"` inside the block (docs/language.md). A language
without its own line shows the English one; a file without a question shows its name.

API (for the browser table's start page, the terminal and `rules variants`):

- `variant_question(rules, name, lang)`: one variant of `rules.variants_available`.
- `variant_menu(rules, lang)`: every variant of `rules.variants_available`, in its order, as
  `VariantChoice(name, text, source)` (`source`: "block" or "file").
- `file_questions(path)`: a variant file's questions by language, read from its header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from dreamhome.dsl.compiler import VARIANTS_DIR
from dreamhome.i18n import DEFAULT_LANG, LANGUAGES, check_lang
from dreamhome.ruleset import Ruleset

FILE_LABEL = "rules file "
"""How `Ruleset.variants_available` labels a packaged file (its blocks are labelled by title)."""

HEADER_LINES = 12
"""How many leading lines of a variant file may hold its questions."""

_TRANSLATION = re.compile(r"#\s*([a-z]{2})\s*:\s*(.+)")


@dataclass(frozen=True)
class VariantChoice:
    """One entry of a variant menu: the name `--variant` takes and what the menu says for it."""

    name: str
    text: str
    source: str  # "block" (a `variant` block of the rules) or "file" (rules/variants/NAME.dh)


@lru_cache(maxsize=256)
def file_questions(path: str) -> dict[str, str]:
    """The questions a variant file's header asks, by language: the first line's comment is the
    English one, `# LANG: …` lines the others (a code outside `i18n.LANGUAGES` is ignored). An
    unreadable file has none: the menu then shows the variant's name."""
    out: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            lines = [handle.readline() for _ in range(HEADER_LINES)]
    except (OSError, UnicodeDecodeError):
        return out
    for k, raw in enumerate(lines):
        line = raw.strip()
        if not line.startswith("#"):
            break
        match = _TRANSLATION.fullmatch(line)
        if match and match.group(1) in LANGUAGES:
            out.setdefault(match.group(1), match.group(2).strip())
        elif k == 0:
            out[DEFAULT_LANG] = line.lstrip("#").strip()
    return out


def variant_question(rules: Ruleset, name: str, lang: str = DEFAULT_LANG) -> str:
    """What the menu says for variant `name` of `rules` in `lang` (see the module docstring)."""
    lang = check_lang(lang)
    label = rules.variants_available.get(name, name)
    if not label.startswith(FILE_LABEL):
        titles = dict(rules.variant_titles.get(name, ()))
        return titles.get(lang) or label
    questions = file_questions(str(Path(VARIANTS_DIR) / f"{name}.dh"))
    return questions.get(lang) or questions.get(DEFAULT_LANG) or name


def variant_menu(rules: Ruleset, lang: str = DEFAULT_LANG) -> tuple[VariantChoice, ...]:
    """Every variant `rules` can switch on, in `variants_available` order, said in `lang`."""
    return tuple(
        VariantChoice(name, variant_question(rules, name, lang), "file" if label.startswith(FILE_LABEL) else "block")
        for name, label in rules.variants_available.items()
    )


__all__ = ["VariantChoice", "file_questions", "variant_menu", "variant_question"]
