"""The static checks of one declaration, each reported at its position: names are plain text,
no field or condition twice, numbers in range, known provenance tags and languages, the fields
each kind needs and allows, points tables and counts. Also the "did you mean" hints the
messages end with."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import cast

from dreamhome.dsl.ast import GENDERS, NAME_FIELD, Condition, Decl, EffectSpec, Field, NameValue, OptionDecl, Pos, VariantDecl
from dreamhome.dsl.compile.declarations import SINGLETONS, Merged, as_int, decl_key, label
from dreamhome.dsl.compile.diagnostics import Diagnostics
from dreamhome.i18n import GENDERS as LANGUAGE_GENDERS
from dreamhome.i18n import LANGUAGES
from dreamhome.vocabulary import PROVENANCE_TAGS, ROOF_SCORING_FIELDS

MAX_NUMBER = 1_000_000
"""The largest number (in absolute value) a rules file may write: points, counts, uses, rounds,
players, deal sizes, columns, options. Far above any game; below it every score a house can
make stays exact in CP-SAT's 64-bit arithmetic, so a typo like 10**100 is refused here with a
position instead of reaching the solver as MODEL_INVALID."""
CARD_FIELDS = {
    "room": ({"category", "points", "count"}, {"bonus", "children"}),
    "roof": ({"count"}, {"windows", "colour"}),
    "furnishing": ({"points", "count"}, {"room", "outside"}),
    "token": ({"points"}, {"room", "outside", "award", "count"}),
    "helper": ({"count", "effect"}, set()),
    "tool": ({"count", "effect"}, set()),
    "bonus": ({"points", "when"}, set()),
    "game": ({"players", "rounds", "deal"}, {"discard"}),
    "roof_scoring": (set(ROOF_SCORING_FIELDS), set()),
}
KIND_WORDS = {
    "room": "a room",
    "roof": "a roof",
    "furnishing": "a furnishing",
    "token": "a token",
    "helper": "a helper",
    "tool": "a tool",
    "bonus": "a bonus",
}


def suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


class Names:
    """Known names for "did you mean" hints over a list that grows with the file (room ids).

    Each hint compares the misspelling with every name, so hints are memoised and
    only the first `HINT_BUDGET` distinct misspellings get one: a file with more
    unknown names than that has a systematic problem no hint will fix, and
    hinting them all would make compiling quadratic in the file's size.
    """

    HINT_BUDGET = 20

    def __init__(self, names: Iterable[str]) -> None:
        self._names = list(names)
        self._hints: dict[str, str] = {}

    def suggest(self, name: str) -> str:
        hint = self._hints.get(name)
        if hint is None:
            hint = suggest(name, self._names) if len(self._hints) < self.HINT_BUDGET else ""
            self._hints[name] = hint
        return hint


_NOT_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
"""What a name may not hold (issue 21): C0 and C1 control characters and DEL (ESC, NUL, tab, a
newline from `\\n`), the bidirectional controls that reorder what a terminal shows, lone
surrogates (not text at all) and U+FFFE/U+FFFF (not XML). A name is printed as written
everywhere (terminal, SVG, HTML, JSON), so it must be plain text."""


def name_problem(text: str) -> str | None:
    """Why `text` cannot be a card's or a ruleset's name, or None (see `_NOT_TEXT`)."""
    bad = _NOT_TEXT.search(text)
    if bad is None:
        if text and all(unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp", "Mn") for ch in text):
            return "a name needs a visible character (this one is only spaces or invisible marks); names are plain text"
        return None
    code = ord(bad.group())
    what = (
        "a lone surrogate"
        if 0xD800 <= code <= 0xDFFF
        else "a bidirectional control"
        if code in (0x61C, 0x200E, 0x200F) or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069
        else "a noncharacter"
        if code in (0xFFFE, 0xFFFF)
        else "a control character"
    )
    return f"a name cannot hold {what} (U+{code:04X}); names are plain text, shown as written"


def numbers(value: object) -> Iterator[int]:
    """Every integer written in a field's value (tuples, effect specs), for the range check."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, tuple):
        for part in value:
            yield from numbers(part)
    elif isinstance(value, EffectSpec):
        yield from numbers(value.args)
        if value.uses is not None:
            yield value.uses


# ---- one declaration, as written -----------------------------------------


def check_fields(report: Diagnostics, decl: Decl) -> None:
    """Within one declaration: no field twice (effects may repeat, each with its own words),
    no condition twice in a `when`, and known provenance tags."""
    seen_fields: set[str] = set()
    for fld in decl.fields:
        if fld.name in seen_fields and fld.name != "effect":
            report.error(fld.pos, f"'{label(fld.name)}' is given twice in this declaration")
        seen_fields.add(fld.name)
        if fld.name == "when":
            check_conditions(report, cast("tuple[Condition, ...]", fld.value))
        if fld.name.startswith(NAME_FIELD):
            check_name(report, fld)
        if any(abs(n) > MAX_NUMBER for n in numbers(fld.value)):
            report.error(fld.pos, f"'{label(fld.name)}': a number out of range (at most {MAX_NUMBER:,} either way)")
        if fld.provenance is not None and fld.provenance not in PROVENANCE_TAGS:
            report.error(
                fld.pos,
                f"unknown provenance '@{fld.provenance}'; expected one of " + ", ".join("@" + t for t in PROVENANCE_TAGS),
            )


def check_conditions(report: Diagnostics, conditions: Sequence[Condition]) -> None:
    """`when has ROOM and has ROOM`: a condition twice is a repeat, as a field twice is."""
    seen: set[tuple[str, str | None]] = set()
    for cond in conditions:
        if (cond.room, cond.scope) in seen:
            said = f"every {cond.scope} floor has {cond.room}" if cond.scope else f"has {cond.room}"
            report.error(cond.pos, f"'{said}' is given twice in this condition")
        seen.add((cond.room, cond.scope))


def check_name(report: Diagnostics, fld: Field) -> None:
    """`name LANG "text"`: LANG one of the supported languages, the text not blank and plain text."""
    value = cast(NameValue, fld.value)
    lang, text = value.lang, value.text
    if lang not in LANGUAGES:
        report.error(value.lang_pos, f"unknown language '{lang}' for a name; expected one of {', '.join(LANGUAGES)}")
        return
    if not text.strip():
        report.error(fld.pos, f"the {lang} name is empty")
    elif (problem := name_problem(text)) is not None:
        report.error(fld.pos, f"the {lang} name: {problem}")
    gender, gpos = value.gender, value.gender_pos or fld.pos
    allowed = LANGUAGE_GENDERS.get(lang, ())
    if gender is None:
        return
    if gender not in GENDERS:
        report.error(gpos, f"unknown gender '{gender}' for the {lang} name; expected one of {', '.join(GENDERS)}")
    elif not allowed:
        report.error(gpos, f"the {lang} name takes no gender: no {lang} sentence of the program agrees with one")
    elif gender not in allowed:
        report.error(gpos, f"the {lang} name is {' or '.join(allowed)}, not {gender}")


def check_display_name(report: Diagnostics, name: str | None, pos: Pos) -> None:
    """The quoted name after a declaration's id (`room ID "Name"`): plain text too."""
    problem = name_problem(name) if name is not None else None
    if problem is not None:
        report.error(pos, problem)


def check_variant_titles(report: Diagnostics, variant: VariantDecl) -> None:
    """`name LANG "…"` in a variant block: a title per language, plain text, and no gender
    (no sentence agrees with a variant's title)."""
    seen: set[str] = set()
    for fld in variant.names:
        value = cast(NameValue, fld.value)
        if value.lang in seen:
            report.error(fld.pos, f"'name {value.lang}' is given twice in variant '{variant.id}'")
        seen.add(value.lang)
        if value.gender is not None:
            report.error(value.gender_pos or fld.pos, "a variant's title takes no gender")
        else:
            check_name(report, fld)


def check_variant_repeats(report: Diagnostics, variant: VariantDecl) -> None:
    """Within one `variant` block each declaration and option once (checked where the block is
    declared, so `rules check` finds it whether or not the variant is switched on)."""
    inner: dict[str, Pos] = {}
    for sub in variant.items:
        if isinstance(sub, OptionDecl):
            key, said = f"option {sub.name}", f"option '{sub.name}' is set"
        else:
            key = decl_key(sub.kind, sub.id)
            said = f"'{key}' is declared"
        if key in inner:
            report.error(sub.pos, f"{said} twice in variant '{variant.id}' (first at line {inner[key].line})")
        inner[key] = sub.pos


# ---- one merged declaration, before it is built ---------------------------


def require(report: Diagnostics, merged: Merged) -> bool:
    """Every required field present and no field foreign to the kind (docs/language.md, the fields of each kind)."""
    required, optional = CARD_FIELDS.get(merged.kind, (set(), set()))
    ok = True
    for name in sorted(required - merged.fields.keys()):
        what = KIND_WORDS.get(merged.kind, f"the {merged.kind} block")
        shown = f"'{merged.id}'" if merged.id and merged.kind not in SINGLETONS else what
        report.error(merged.pos, f"{shown} has no '{name}'" + (f" ({what})" if merged.kind not in SINGLETONS else ""))
        ok = False
    if merged.kind != "board":
        for name, fld in merged.fields.items():
            if name not in required | optional and not name.startswith(NAME_FIELD):
                report.error(
                    fld.pos,
                    f"'{name}' does not belong in {KIND_WORDS.get(merged.kind, merged.kind)}"
                    + (f"; expected one of {', '.join(sorted(required | optional))}"),
                )
                ok = False
    return ok


def check_points(report: Diagnostics, fld: Field, points: tuple[int, ...]) -> None:
    """A points table: its length is the room's maximum size (PLACE-C), so it is
    non-empty, and a bigger room never scores less."""
    if not points:
        report.error(fld.pos, "a points table needs at least one value")
    if any(p < 0 for p in points):
        report.error(fld.pos, "points cannot be negative")
    for a, b in zip(points, points[1:]):
        if b < a:
            report.error(fld.pos, f"points must not fall as a room grows ({b} after {a})")
            break


def check_count(report: Diagnostics, fld: Field) -> None:
    """Cards in the deck: zero is allowed (a card type left out), fewer is not."""
    if as_int(fld) < 0:
        report.error(fld.pos, "a count cannot be negative")
