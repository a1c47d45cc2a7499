"""A score line (SCORE-*) in the reader's language.

Why a module of its own: the scorer (`scoring.score_house`) explains every point with an English
sentence that JSON outputs and game records keep, and beside it the same sentence as a catalogue
message (`ScoreLine.key`, a `line.*` entry of dreamhome/locales) with arguments that name cards
by id. Saying it in a language is then two lookups, done here once for every place a person
reads score lines (the terminal's score and check, the SVG beside a house, the browser table):
the words from the catalogue (`dreamhome.i18n.text`) and the card names from the rules
(`Ruleset.card_name`), so a house rule that renames a card renames it in the breakdown too.

How arguments are said, by their name (`ScoreLine.args`):

- `room`, `furnishing`, `bonus`: the card's (or bonus's) name, as the rulebook prints it;
- `target`, `where`, `colour`: the card's name in lower case, inside a sentence;
- `helper` (repeated): the helpers that add points, lower case, joined into `{helpers}`;
- `roof`, `roof_window` (repeated, in order): the roof cards, joined into `{colours}`, a card
  with a window said by `line.roof.with_window`;
- anything else (numbers): as it is.

For `lang="en"` the result is exactly `line.text` (tests/test_score_text.py checks it on random
houses under several rule sets), so English stays one sentence however it is reached.
"""

from __future__ import annotations

from dreamhome.i18n import DEFAULT_LANG, text
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import ScoreLine

NAMED = ("room", "furnishing", "bonus")
"""Arguments said by a card's name as printed."""

LOWER = ("target", "where", "colour")
"""Arguments said by a card's name in lower case (inside a sentence, as the English does)."""

ROOF_CARDS = ("roof", "roof_window")
"""The repeated arguments that list a roof's cards, a window or not, in order."""


def _lower(rules: Ruleset, ident: str, lang: str) -> str:
    return rules.card_name(ident, lang).lower()


def line_args(rules: Ruleset, line: ScoreLine, lang: str = DEFAULT_LANG) -> dict[str, str]:
    """The placeholders of `line.key` filled in `lang` (see the module's docstring)."""
    out: dict[str, str] = {}
    helpers: list[str] = []
    roofs: list[str] = []
    for name, value in line.args:
        if name == "helper":
            helpers.append(_lower(rules, str(value), lang))
        elif name in ROOF_CARDS:
            colour = _lower(rules, str(value), lang)
            roofs.append(text("line.roof.with_window", lang, colour=colour) if name == "roof_window" else colour)
        elif name in NAMED:
            out[name] = rules.card_name(str(value), lang)
        elif name in LOWER:
            out[name] = _lower(rules, str(value), lang)
        else:
            out[name] = str(value)
    if helpers:
        out["helpers"] = ", ".join(helpers)
    if roofs:
        out["colours"] = ", ".join(roofs)
    return out


def line_text(rules: Ruleset, line: ScoreLine, lang: str = DEFAULT_LANG) -> str:
    """`line` as a sentence in `lang`; a line with no message (`key` "") keeps its English text."""
    if not line.key:
        return line.text
    return text(line.key, lang, **line_args(rules, line, lang))


__all__ = ["line_args", "line_text"]
