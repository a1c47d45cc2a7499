"""A broken rule (`legality.Violation`) in the reader's language.

Why a module of its own: the legality check explains every broken rule with an English sentence
that JSON outputs keep (`Violation.message`), and beside it the same sentence as a catalogue
message (`Violation.key`, a `violation.*` entry of dreamhome/locales) with arguments that name
cards by id. Saying it in a language is two lookups, done here once for every place a person
reads a violation (`dreamhome check`, the terminal seat, the browser table): the words from the
catalogue and the card names from the rules (`Ruleset.card_name`, which carry their gender, so a
sentence agrees with the card: "«Строительные леса» остались").

How arguments are said, by their name (`Violation.args`):

- `room`, `target`, `furnishing`, `roof`, `card`: the card's name in the language (the
  catalogue writes `{room:lower}` where the sentence wants it in lower case);
- `category`, `kind`: the rules' vocabulary word (`word.category.*`, `word.floor_kind.*`),
  the word itself where the catalogue has none;
- anything else (numbers, cells): as it is.

For `lang="en"` the result is exactly `violation.message` (tests/test_lang_violations.py checks
it on random illegal houses), so English stays one sentence however it is reached.
"""

from __future__ import annotations

from dreamhome.i18n import DEFAULT_LANG, label, text
from dreamhome.legality import Violation
from dreamhome.ruleset import Ruleset

CARDS = ("room", "target", "furnishing", "roof", "card")
"""Arguments that hold a card's id, said by its name."""

WORDS = {"category": "word.category.", "kind": "word.floor_kind."}
"""Arguments that hold a word of the rules' vocabulary, and their catalogue prefix."""


def word_text(prefix: str, word: str, lang: str = DEFAULT_LANG) -> str:
    """A vocabulary word (`normal`, `upper`) in `lang`; the word itself where the catalogue has none."""
    return label(prefix + word, word, lang)


def violation_args(rules: Ruleset, violation: Violation, lang: str = DEFAULT_LANG) -> dict[str, object]:
    """The placeholders of `violation.key` filled in `lang` (see the module's docstring)."""
    out: dict[str, object] = {}
    for name, value in violation.args:
        if name in CARDS:
            out[name] = rules.card_name(str(value), lang)
        elif name in WORDS:
            out[name] = word_text(WORDS[name], str(value), lang)
        else:
            out[name] = value
    return out


def violation_text(rules: Ruleset, violation: Violation, lang: str = DEFAULT_LANG) -> str:
    """`violation` as a sentence in `lang`; one with no message (`key` "") keeps its English text."""
    if not violation.key:
        return violation.message
    return text(violation.key, lang, **violation_args(rules, violation, lang))


def violation_line(rules: Ruleset, violation: Violation, lang: str = DEFAULT_LANG) -> str:
    """The whole line: the rule id, the cell and the sentence ("PLACE-A at top/0: …"), as
    `str(violation)` says it in English."""
    where = f" {text('check.at', lang, cell=violation.cell)}" if violation.cell else ""
    return f"{violation.rule}{where}: {violation_text(rules, violation, lang)}"


__all__ = ["violation_args", "violation_line", "violation_text", "word_text"]
