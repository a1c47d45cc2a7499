"""Rules files → one compiled, immutable `Ruleset`.

Pipeline: load (parse, follow includes, detect cycles) → merge (later
declarations override earlier ones field by field; variants apply last) →
check (every static error docs/language.md lists, all of them, each with a position) →
build (typed records, the board graph, scoring terms, compiled effects).

Each stage is linear in the number of declarations: merging is one dict update
per declaration, room references are checked against a set, and diagnostics
are kept in dicts used as ordered sets, so a file of tens of thousands of
declarations (or of errors) compiles in time proportional to its size.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import stat
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import cast

from dreamhome.board import Board, Floor, build_board
from dreamhome.dsl.ast import (
    GENDERS,
    NAME_FIELD,
    Condition,
    Decl,
    EffectSpec,
    Field,
    Include,
    Inlined,
    Item,
    NameValue,
    OptionDecl,
    Pos,
    RulesFile,
    VariantDecl,
)
from dreamhome.dsl.parser import BOM, RulesParser
from dreamhome.dsl.playability import (
    MAX_SPACES,
    Decks,
    Where,
    board_size_problem,
    extra_take_problem,
    playability_problems,
    scaffold_kinds_problem,
)
from dreamhome.errors import Diagnostic, RulesError
from dreamhome.fileio import MAX_BYTES_ENV, max_input_bytes, printable
from dreamhome.gc_pause import cyclic_gc_paused
from dreamhome.i18n import GENDERS as LANGUAGE_GENDERS
from dreamhome.i18n import LANGUAGES
from dreamhome.ruleset import (
    DEFAULT_ROOF_COLOUR,
    Bonus,
    Clause,
    Effect,
    Furnishing,
    GameSpec,
    HeldCard,
    RoofScoring,
    RoofType,
    RoomType,
    Ruleset,
    SourceRef,
)
from dreamhome.vocabulary import (
    AWARDS,
    BONUS_CATEGORIES,
    CARD_KIND_EFFECTS,
    CARD_KIND_REFUSALS,
    CATEGORY_FLOOR_KIND,
    EFFECTS,
    FLOOR_KINDS,
    MAX_USES,
    OPTIONS,
    PROVENANCE_TAGS,
    ROOF_SCORING_FIELDS,
    SKIP_TURN_SHAPES,
    SKIP_TURN_TIMINGS,
    TIMINGS,
    EffectShape,
    supported_timings,
)

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
BASE_RULES = RULES_DIR / "base.dh"
VARIANTS_DIR = RULES_DIR / "variants"

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
SINGLETONS = ("game", "board", "roof_scoring")
MAX_NUMBER = 1_000_000
"""The largest number (in absolute value) a rules file may write: points, counts, uses, rounds,
players, deal sizes, columns, options. Far above any game; below it every score a house can
make stays exact in CP-SAT's 64-bit arithmetic, so a typo like 10**100 is refused here with a
position instead of reaching the solver as MODEL_INVALID."""
RULES_SUFFIX = ".dh"
INCLUDES = ("relative", "absolute", "none")
"""Which includes a compile follows: `relative` (beside the including file or in the packaged
rules folder; the default), `absolute` (those and absolute paths: --allow-absolute-includes),
`none` (a game record's self-contained source: every include was inlined when it was written)."""
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


class _Names:
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
            hint = _suggest(name, self._names) if len(self._hints) < self.HINT_BUDGET else ""
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


def _suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


# ---- typed views of field values ---------------------------------------
# The parser gives each field name one shape (parser.py, `_ToAst`); these name
# that shape for the type checker in one place instead of at every use.


def _int(fld: Field) -> int:
    return cast(int, fld.value)


def _ints(fld: Field) -> tuple[int, ...]:
    return cast("tuple[int, ...]", fld.value)


def _pair(fld: Field) -> tuple[int, int]:
    return cast("tuple[int, int]", fld.value)


def _ref(fld: Field) -> tuple[str, Pos]:
    """`room ROOM`, `award NAME`: the name and where it is written."""
    return cast("tuple[str, Pos]", fld.value)


def _label(name: str) -> str:
    """How a field reads in a message: `name ru` for a name field, `top` for `floor top`."""
    if name.startswith(NAME_FIELD):
        return "name " + name[len(NAME_FIELD) :]
    return name.split(":")[-1]


def _card_names(ident: str, merged: _Merged) -> tuple[str, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The English name (`name en`, else the title string, else the id), every language's
    name in LANGUAGES order, and the genders given with them (`name fr "Cuisine" feminine`).
    A language without a name is left out: `Ruleset.card_name` falls back to English for it."""
    given = {
        cast(NameValue, fld.value).lang: cast(NameValue, fld.value)
        for key, fld in merged.fields.items()
        if key.startswith(NAME_FIELD)
    }
    english = given["en"].text if "en" in given else (merged.name or ident)
    names = tuple((lang, english if lang == "en" else given[lang].text) for lang in LANGUAGES if lang in given or lang == "en")
    genders = tuple((lang, g) for lang in LANGUAGES if lang in given and (g := given[lang].gender) is not None)
    return english, names, genders


def _span(fld: Field) -> tuple[str, int, int]:
    """`floor NAME KIND columns LO..HI`, `roof_pile under FLOOR columns LO..HI`."""
    return cast("tuple[str, int, int]", fld.value)


@dataclass
class _Merged:
    """One id's declarations so far: fields by name, a later declaration's replacing the earlier's."""

    kind: str
    id: str | None
    name: str | None
    fields: dict[str, Field]
    pos: Pos


@dataclass
class _State:
    """All files merged in order: declarations by id (singletons by kind), options, and
    variants with the file that declares them (their items merge only when turned on)."""

    decls: dict[str, _Merged] = field(default_factory=dict)
    options: dict[str, OptionDecl] = field(default_factory=dict)
    variants: dict[str, tuple[VariantDecl, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class _Scope:
    """What the card builders look up: the merged declarations, the board, and
    the room ids as a set, so that each reference is checked in constant time."""

    decls: Mapping[str, _Merged]
    board: Board | None
    floor_kinds: frozenset[str]
    room_ids: frozenset[str]
    room_names: _Names


@dataclass
class _Cards:
    """The records built so far, each list in declaration order (its index is the card's)."""

    rooms: list[RoomType] = field(default_factory=list)
    roofs: list[RoofType] = field(default_factory=list)
    furnishings: list[Furnishing] = field(default_factory=list)
    helpers: list[HeldCard] = field(default_factory=list)
    tools: list[HeldCard] = field(default_factory=list)
    bonuses: list[Bonus] = field(default_factory=list)


_CardBuilder = Callable[[str, _Merged, _Scope, _Cards], None]


def _biggest(decls: Mapping[str, _Merged], cards: Sequence[RoomType | RoofType | Furnishing | HeldCard]) -> Pos | None:
    """Where the largest `count` among these cards was declared: the first place to look in a deck too big."""
    best = max(cards, key=lambda c: c.count, default=None)
    return decls[best.id].fields["count"].pos if best is not None and "count" in decls[best.id].fields else None


class NotRegularError(OSError):
    """A rules file that is a pipe, a device or a folder: refused before a byte is read."""


NOT_REGULAR = "not a regular file (a pipe, a device or a folder); save the rules to a file"


def rules_file_problem(path: str | Path) -> str | None:
    """Why `path` cannot be read as a rules file, without reading it (a FIFO's content is read
    once, by the compiler): not a regular file (`<(cat f.dh)`, /dev/zero), or None."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None  # missing or unnameable: the compiler's own diagnostic says so
    return None if stat.S_ISREG(mode) else NOT_REGULAR


def read_rules_text(path: Path) -> str:
    """A rules file's text, read once: a regular file only (opened without blocking, so a FIFO
    with no writer cannot hang), at most the input size cap (`fileio.max_input_bytes`), UTF-8.
    Raises OSError (NotRegularError) or UnicodeDecodeError."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise NotRegularError(0, NOT_REGULAR)
        cap = max_input_bytes()
        data = handle.read(cap + 1)
    if len(data) > cap:
        raise OSError(0, f"larger than {cap} bytes (set {MAX_BYTES_ENV} to raise the limit)")
    return data.decode("utf-8")


def _is_packaged(file: str) -> bool:
    """Is `file` (a diagnostic's file name) one of the rules files the package ships?"""
    try:
        return Path(file).resolve().is_relative_to(RULES_DIR)
    except (OSError, ValueError):
        return False


def _is_file(path: Path) -> bool:
    """`path.is_file()`, False where the name cannot even be looked up (too long, a NUL in it)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _numbers(value: object) -> Iterator[int]:
    """Every integer written in a field's value (tuples, effect specs), for the range check."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, tuple):
        for part in value:
            yield from _numbers(part)
    elif isinstance(value, EffectSpec):
        yield from _numbers(value.args)
        if value.uses is not None:
            yield value.uses


class _Compiler:
    def __init__(self, includes: str = "relative") -> None:
        if includes not in INCLUDES:
            raise ValueError(f"includes must be one of {INCLUDES}, got {includes!r}")
        self.includes = includes
        self.parser = RulesParser()
        # Dicts as ordered sets: a diagnostic found twice is kept once, in O(1).
        self.errors: dict[Diagnostic, None] = {}
        self.warnings: dict[Diagnostic, None] = {}
        self.texts: dict[str, list[str]] = {}
        # Where each included file was included (its first `include`), to show a problem found in a
        # packaged file at the user's own line (`relocate`).
        self.included_at: dict[str, Pos] = {}
        self.top: str | None = None
        self.card_builders: dict[str, _CardBuilder] = {
            "room": self.build_room,
            "roof": self.build_roof,
            "furnishing": self.build_token,
            "token": self.build_token,
            "helper": self.build_held,
            "tool": self.build_held,
            "bonus": self.build_bonus,
        }

    # ---- diagnostics -------------------------------------------------
    def error(self, pos: Pos, message: str, severity: str = "error") -> None:
        lines = self.texts.get(pos.file, [])
        source = lines[pos.line - 1] if 0 < pos.line <= len(lines) else ""
        diag = Diagnostic(pos.file, pos.line, pos.column, message, source, severity)
        (self.errors if severity == "error" else self.warnings)[diag] = None

    def relocate(self, diags: Iterable[Diagnostic]) -> list[Diagnostic]:
        """Diagnostics found in a packaged rules file (base.dh) that the user's file includes, moved
        to the user's `include` line with the packaged position in the message (issue 21): the user
        cannot edit base.dh, and the problem comes from what their file changed. Diagnostics of the
        user's own files, and of the packaged rules compiled on their own, stay where they are."""
        top = self.top
        if top is None or _is_packaged(top):
            return list(diags)
        out: dict[Diagnostic, None] = {}
        for diag in diags:
            at = self.included_at.get(diag.file) if _is_packaged(diag.file) else None
            seen = {diag.file}
            while at is not None and at.file != top and at.file not in seen:
                seen.add(at.file)
                at = self.included_at.get(at.file)
            if at is None or at.file != top:
                out[diag] = None
                continue
            lines = self.texts.get(top, [])
            source = lines[at.line - 1] if 0 < at.line <= len(lines) else ""
            where = f"{Path(diag.file).name}:{diag.line}:{diag.column}"
            out[Diagnostic(top, at.line, at.column, f"{diag.message} (in {where}, included here)", source, diag.severity)] = None
        return list(out)

    # ---- loading -----------------------------------------------------
    def read(self, path: Path, at: Pos | None) -> RulesFile | None:
        try:
            text = read_rules_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            if at is None:
                raise RulesError([Diagnostic(str(path), 0, 0, f"cannot read rules file: {reason}")]) from None
            self.error(at, f"cannot read included file '{path}': {reason}")
            return None
        return self.parse_text(text, str(path))

    def parse_text(self, text: str, name: str) -> RulesFile | None:
        self.texts[name] = text.removeprefix(BOM).split("\n")
        try:
            return self.parser.parse(text, name)
        except RulesError as exc:
            self.errors.update(dict.fromkeys(exc.diagnostics))
            return None

    def include_refused(self, target: str) -> str | None:
        """Why this compile does not follow `include TARGET`, or None. Only rules files are read,
        so no other file's content can reach a diagnostic (`include "/proc/self/environ"`), and
        absolute paths only on request, so a file from elsewhere (a game record's source) cannot
        probe the machine's files."""
        if self.includes == "none":
            return "includes are not followed here (a game record's rules are self-contained)"
        if not target.endswith(RULES_SUFFIX):
            return f"only rules files ({RULES_SUFFIX}) can be included"
        if Path(target).is_absolute() and self.includes != "absolute":
            return "an absolute include path needs --allow-absolute-includes; write it relative to this file"
        return None

    @staticmethod
    def resolve_include(base_dir: Path | None, target: str) -> Path | None:
        candidate = Path(target)
        options = []
        if candidate.is_absolute():
            options.append(candidate)
        else:
            if base_dir is not None:
                options.append(base_dir / candidate)
            options.append(RULES_DIR / candidate)
        return next((p for p in options if _is_file(p)), None)

    def flatten(self, rules_file: RulesFile, stack: tuple[str, ...]) -> tuple[list[tuple[str, Item]], str]:
        """Items in order with includes expanded, and the source with includes inlined."""
        items: list[tuple[str, Item]] = []
        pieces: list[str] = []
        cursor = 0
        base_dir = Path(rules_file.path).parent if not rules_file.path.startswith("<") else None

        def expand(segment: str, inlined_items: Iterable[Item]) -> None:
            for sub in inlined_items:
                if isinstance(sub, Inlined):
                    expand(f"{segment}::{sub.path}", sub.items)
                else:
                    items.append((segment, sub))

        for item in rules_file.items:
            if isinstance(item, Inlined):
                expand(f"{rules_file.path}::{item.path}", item.items)
                continue
            if not isinstance(item, Include):
                items.append((rules_file.path, item))
                continue
            pieces.append(rules_file.text[cursor : item.start])
            cursor = item.end
            refused = self.include_refused(item.path)
            if refused is not None:
                self.error(item.pos, f"cannot include '{printable(item.path[:200])}': {refused}")
                continue
            path = self.resolve_include(base_dir, item.path)
            if path is None:
                self.error(
                    item.pos,
                    f"cannot find included file '{printable(item.path[:200])}' "
                    "(looked beside this file and in the packaged rules)",
                )
                continue
            key = str(path.resolve())
            if key in stack:
                chain = " → ".join(Path(p).name for p in stack[stack.index(key) :] + (key,))
                self.error(item.pos, f"include cycle: {chain}")
                continue
            self.included_at.setdefault(str(path), item.pos)
            included = self.read(path, item.pos)
            if included is None:
                continue
            sub_items, sub_text = self.flatten(included, stack + (key,))
            items.extend(sub_items)
            pieces.append(f'inlined "{item.path}" {{\n{sub_text}\n}}')
        pieces.append(rules_file.text[cursor:])
        return items, "".join(pieces)

    # ---- merging -----------------------------------------------------
    def check_fields(self, decl: Decl) -> None:
        """Within one declaration: no field twice (effects may repeat, each with its own words),
        no condition twice in a `when`, and known provenance tags."""
        seen_fields: set[str] = set()
        for fld in decl.fields:
            if fld.name in seen_fields and fld.name != "effect":
                self.error(fld.pos, f"'{_label(fld.name)}' is given twice in this declaration")
            seen_fields.add(fld.name)
            if fld.name == "when":
                self.check_conditions(cast("tuple[Condition, ...]", fld.value))
            if fld.name.startswith(NAME_FIELD):
                self.check_name(fld)
            if any(abs(n) > MAX_NUMBER for n in _numbers(fld.value)):
                self.error(fld.pos, f"'{_label(fld.name)}': a number out of range (at most {MAX_NUMBER:,} either way)")
            if fld.provenance is not None and fld.provenance not in PROVENANCE_TAGS:
                self.error(
                    fld.pos,
                    f"unknown provenance '@{fld.provenance}'; expected one of " + ", ".join("@" + t for t in PROVENANCE_TAGS),
                )

    def check_conditions(self, conditions: Sequence[Condition]) -> None:
        """`when has ROOM and has ROOM`: a condition twice is a repeat, as a field twice is."""
        seen: set[tuple[str, str | None]] = set()
        for cond in conditions:
            if (cond.room, cond.scope) in seen:
                said = f"every {cond.scope} floor has {cond.room}" if cond.scope else f"has {cond.room}"
                self.error(cond.pos, f"'{said}' is given twice in this condition")
            seen.add((cond.room, cond.scope))

    def check_name(self, fld: Field) -> None:
        """`name LANG "text"`: LANG one of the supported languages, the text not blank and plain text."""
        value = cast(NameValue, fld.value)
        lang, text = value.lang, value.text
        if lang not in LANGUAGES:
            self.error(value.lang_pos, f"unknown language '{lang}' for a name; expected one of {', '.join(LANGUAGES)}")
            return
        if not text.strip():
            self.error(fld.pos, f"the {lang} name is empty")
        elif (problem := name_problem(text)) is not None:
            self.error(fld.pos, f"the {lang} name: {problem}")
        gender, gpos = value.gender, value.gender_pos or fld.pos
        allowed = LANGUAGE_GENDERS.get(lang, ())
        if gender is None:
            return
        if gender not in GENDERS:
            self.error(gpos, f"unknown gender '{gender}' for the {lang} name; expected one of {', '.join(GENDERS)}")
        elif not allowed:
            self.error(gpos, f"the {lang} name takes no gender: no {lang} sentence of the program agrees with one")
        elif gender not in allowed:
            self.error(gpos, f"the {lang} name is {' or '.join(allowed)}, not {gender}")

    def check_display_name(self, name: str | None, pos: Pos) -> None:
        """The quoted name after a declaration's id (`room ID "Name"`): plain text too."""
        problem = name_problem(name) if name is not None else None
        if problem is not None:
            self.error(pos, problem)

    def merge_decl(self, state: _State, decl: Decl, seen_in_file: dict[str, Pos] | None) -> None:
        """Later declarations override earlier ones field by field: one dict update, O(fields)."""
        key = decl.kind if decl.kind in SINGLETONS or decl.id is None else decl.id
        self.check_display_name(decl.name, decl.pos)
        self.check_fields(decl)
        if seen_in_file is not None and decl.kind not in SINGLETONS:
            if key in seen_in_file:
                first = seen_in_file[key]
                self.error(decl.pos, f"'{key}' is declared twice in this file (first at line {first.line})")
            seen_in_file[key] = decl.pos
        existing = state.decls.get(key)
        if existing is None:
            state.decls[key] = _Merged(decl.kind, decl.id, decl.name, {f.name: f for f in decl.fields}, decl.pos)
            return
        if existing.kind != decl.kind:
            self.error(
                decl.pos,
                f"'{key}' is already {KIND_WORDS.get(existing.kind, existing.kind)} "
                f"({existing.pos.file}:{existing.pos.line}); ids share one namespace",
            )
            return
        if decl.name is not None:
            existing.name = decl.name
        if decl.kind == "board":  # docs/language.md: a board declared again replaces the whole board
            existing.fields, existing.pos = {}, decl.pos
        for fld in decl.fields:
            # A replaced field moves to the end: the fields stay in the order they were last written,
            # so a check between two fields can name the one the latest declaration gave.
            existing.fields.pop(fld.name, None)
            existing.fields[fld.name] = fld

    def merge_item(self, state: _State, file: str, item: Item, seen: dict[str, Pos] | None) -> None:
        if isinstance(item, Decl):
            self.merge_decl(state, item, seen)
        elif isinstance(item, OptionDecl):
            if isinstance(item.value, int) and abs(item.value) > MAX_NUMBER:
                self.error(item.pos, f"option '{item.name}': a number out of range (at most {MAX_NUMBER:,} either way)")
            if seen is not None:  # set twice in one file: a repeat, as a field twice is
                key = f"option {item.name}"
                if key in seen:
                    self.error(item.pos, f"option '{item.name}' is set twice in this file (first at line {seen[key].line})")
                seen[key] = item.pos
            state.options[item.name] = item
        elif isinstance(item, VariantDecl):
            self.check_display_name(item.name, item.pos)
            self.check_variant_repeats(item)
            self.check_variant_titles(item)
            if seen is not None:
                key = f"variant {item.id}"
                if key in seen:
                    self.error(item.pos, f"variant '{item.id}' is declared twice in this file (first at line {seen[key].line})")
                seen[key] = item.pos
            state.variants[item.id] = (item, file)

    def check_variant_titles(self, variant: VariantDecl) -> None:
        """`name LANG "…"` in a variant block: a title per language, plain text, and no gender
        (no sentence agrees with a variant's title)."""
        seen: set[str] = set()
        for fld in variant.names:
            value = cast(NameValue, fld.value)
            if value.lang in seen:
                self.error(fld.pos, f"'name {value.lang}' is given twice in variant '{variant.id}'")
            seen.add(value.lang)
            if value.gender is not None:
                self.error(value.gender_pos or fld.pos, "a variant's title takes no gender")
            else:
                self.check_name(fld)

    def check_variant_repeats(self, variant: VariantDecl) -> None:
        """Within one `variant` block each declaration and option once (checked where the block is
        declared, so `rules check` finds it whether or not the variant is switched on)."""
        inner: dict[str, Pos] = {}
        for sub in variant.items:
            if isinstance(sub, OptionDecl):
                key, said = f"option {sub.name}", f"option '{sub.name}' is set"
            else:
                key = sub.kind if sub.kind in SINGLETONS or sub.id is None else sub.id
                said = f"'{key}' is declared"
            if key in inner:
                self.error(sub.pos, f"{said} twice in variant '{variant.id}' (first at line {inner[key].line})")
            inner[key] = sub.pos

    # ---- checks shared by the builders -------------------------------
    @staticmethod
    def prov(fld: Field | None) -> str:
        return fld.provenance if fld is not None and fld.provenance else "rulebook"

    def require(self, merged: _Merged) -> bool:
        """Every required field present and no field foreign to the kind (docs/language.md, the fields of each kind)."""
        required, optional = CARD_FIELDS.get(merged.kind, (set(), set()))
        ok = True
        for name in sorted(required - merged.fields.keys()):
            what = KIND_WORDS.get(merged.kind, f"the {merged.kind} block")
            label = f"'{merged.id}'" if merged.id and merged.kind not in SINGLETONS else what
            self.error(merged.pos, f"{label} has no '{name}'" + (f" ({what})" if merged.kind not in SINGLETONS else ""))
            ok = False
        if merged.kind != "board":
            for name, fld in merged.fields.items():
                if name not in required | optional and not name.startswith(NAME_FIELD):
                    self.error(
                        fld.pos,
                        f"'{name}' does not belong in {KIND_WORDS.get(merged.kind, merged.kind)}"
                        + (f"; expected one of {', '.join(sorted(required | optional))}"),
                    )
                    ok = False
        return ok

    def check_room_ref(self, name: str, pos: Pos, scope: _Scope) -> bool:
        """A name used as a room (annex bonus, furnishing, bonus clause) must be a declared room."""
        if name in scope.room_ids:
            return True
        other = scope.decls.get(name)
        if other is not None:
            self.error(pos, f"'{name}' is {KIND_WORDS.get(other.kind, other.kind)}, not a room")
        else:
            self.error(pos, f"unknown room '{name}'" + scope.room_names.suggest(name))
        return False

    # ---- building, one builder per declaration kind -------------------
    def build(self, state: _State, variants_on: tuple[str, ...], source: str, path: str) -> Ruleset | None:
        """Compose the builders in the order their diagnostics are reported."""
        decls = state.decls
        provenance: dict[tuple[str, str], SourceRef] = {}
        game = self.build_game(decls.get("game"), path, provenance)
        board = self.build_board(decls.get("board"), path)
        scope = self.scope(decls, board)
        cards = self.build_cards(scope, provenance)
        roof_scoring = self.build_roof_scoring(decls.get("roof_scoring"), path, provenance)
        options = self.build_options(state.options)
        game_decl = decls.get("game")
        if game is not None and game_decl is not None and board is not None:
            self.check_playability(game, board, decls, cards, options)
        if self.errors or game is None or board is None or roof_scoring is None:
            return None
        content_hash = hashlib.sha256((source + "\n#variants:" + ",".join(variants_on)).encode("utf-8")).hexdigest()
        return Ruleset(
            game=game,
            board=board,
            rooms=tuple(cards.rooms),
            roofs=tuple(cards.roofs),
            furnishings=tuple(cards.furnishings),
            helpers=tuple(cards.helpers),
            tools=tuple(cards.tools),
            bonuses=tuple(cards.bonuses),
            roof_scoring=roof_scoring,
            options=MappingProxyType(options),
            variants_on=variants_on,
            variants_available=MappingProxyType(self.variants_available(state)),
            variant_titles=MappingProxyType(self.variant_titles(state)),
            provenance=MappingProxyType(provenance),
            source=source,
            content_hash=content_hash,
            warnings=tuple(self.relocate(self.warnings)),
            path=path,
        )

    def note(self, ident: str, merged: _Merged, provenance: dict[tuple[str, str], SourceRef]) -> None:
        """Record where each value was declared and how sure it is (the provenance marks of docs/language.md)."""
        for name, fld in merged.fields.items():
            provenance[(ident, name)] = SourceRef(fld.pos.file, fld.pos.line, fld.pos.column, self.prov(fld))

    def build_game(self, game_decl: _Merged | None, path: str, provenance: dict[tuple[str, str], SourceRef]) -> GameSpec | None:
        """The `game` block: players, rounds and the deal (SETUP-1, ROUND-6, COMP-1, COMP-3)."""
        if game_decl is None:
            self.error(Pos(path, 1, 1), "no 'game' block: the rules must say players, rounds and deal")
            return None
        if not self.require(game_decl):
            return None
        f = game_decl.fields
        lo, hi = _pair(f["players"])
        rounds = _int(f["rounds"])
        dr, dres = _pair(f["deal"])
        if lo < 1 or hi < lo:
            self.error(f["players"].pos, f"players {lo}..{hi} is not a range of player counts")
        if rounds < 1:
            self.error(f["rounds"].pos, "rounds must be at least 1")
        if dr < 0 or dres < 0:
            self.error(f["deal"].pos, "the deal cannot be negative")
        discard = _pair(f["discard"]) if "discard" in f else None
        if discard is not None and (discard[0] < 1 or discard[1] < discard[0]):
            self.error(f["discard"].pos, f"discard players {discard[0]}..{discard[1]} is not a range of player counts")
        game = GameSpec(
            game_decl.id or "game", game_decl.name or game_decl.id or "game", lo, hi, rounds, dr, dres, discard_players=discard
        )
        self.note("game", game_decl, provenance)
        return game

    def build_board(self, board_decl: _Merged | None, path: str) -> Board | None:
        """The `board` block: floors top to bottom and the roof pile, as a graph (COMP-2)."""
        if board_decl is None:
            self.error(Pos(path, 1, 1), "no 'board' block: the rules must declare the floors")
            return None
        floors: list[Floor] = []
        roof_pile = None
        for name, fld in board_decl.fields.items():
            if name.startswith("floor:"):
                kind, lo, hi = _span(fld)
                if kind not in FLOOR_KINDS:
                    self.error(fld.pos, f"unknown floor kind '{kind}'; expected one of {', '.join(FLOOR_KINDS)}")
                floors.append(Floor(name.split(":", 1)[1], kind, self.columns(fld, lo, hi)))
        fields = board_decl.fields
        if "roof_pile" in fields:
            under, lo, hi = _span(fields["roof_pile"])
            if under not in {fl.name for fl in floors}:
                self.error(fields["roof_pile"].pos, f"unknown floor '{under}'" + _suggest(under, [fl.name for fl in floors]))
            roof_pile = (under, self.columns(fields["roof_pile"], lo, hi))
        if not floors:
            self.error(board_decl.pos, "the board has no floors")
            return None
        too_big = board_size_problem(sum(len(fl.columns) for fl in floors))
        if too_big is not None:
            self.error(board_decl.pos, too_big)
            return None
        return build_board(floors, roof_pile)

    def columns(self, fld: Field, lo: int, hi: int) -> tuple[int, ...]:
        """`columns LO..HI` (COMP-2): a range from 0 up, at most MAX_SPACES wide, checked before a
        column is made (`columns 0..1000000` must not build a million columns to refuse them)."""
        if lo < 0 or hi < lo:
            self.error(fld.pos, f"columns {lo}..{hi} is not a range (write LO..HI, 0 ≤ LO ≤ HI)")
            return ()
        if hi - lo + 1 > MAX_SPACES:
            self.error(
                fld.pos,
                f"columns {lo}..{hi} is {hi - lo + 1:,} columns, more than a house can hold: at most {MAX_SPACES:,} spaces",
            )
            return ()
        return tuple(range(lo, hi + 1))

    @staticmethod
    def scope(decls: Mapping[str, _Merged], board: Board | None) -> _Scope:
        """Everything a card may refer to, gathered once before the cards are built."""
        room_ids = [k for k, d in decls.items() if d.kind == "room"]
        floor_kinds = frozenset(fl.kind for fl in board.floors) if board else frozenset(FLOOR_KINDS)
        return _Scope(decls, board, floor_kinds, frozenset(room_ids), _Names(room_ids))

    def build_cards(self, scope: _Scope, provenance: dict[tuple[str, str], SourceRef]) -> _Cards:
        """Every card and bonus in declaration order, each by the builder of its kind."""
        cards = _Cards()
        for ident, merged in scope.decls.items():
            if merged.kind in SINGLETONS:
                continue
            self.note(ident, merged, provenance)
            if not self.require(merged):
                continue
            builder = self.card_builders.get(merged.kind)
            if builder is not None:
                builder(ident, merged, scope, cards)
        return cards

    def build_room(self, ident: str, merged: _Merged, scope: _Scope, cards: _Cards) -> None:
        """A room type: its category picks the floor kind (PLACE-B), its points table
        the maximum size (PLACE-C), an annex its bonus beside another room (SCORE-ROOMS)."""
        f = merged.fields
        category = cast(str, f["category"].value)
        if category not in CATEGORY_FLOOR_KIND:
            self.error(
                f["category"].pos,
                f"unknown category '{category}'; expected one of "
                + ", ".join(CATEGORY_FLOOR_KIND)
                + _suggest(category, CATEGORY_FLOOR_KIND),
            )
            return
        points = _ints(f["points"])
        self.check_points(f["points"], points)
        if CATEGORY_FLOOR_KIND[category] not in scope.floor_kinds:
            self.error(f["category"].pos, f"no floor of the board takes {category} rooms")
        bonus = None
        if "bonus" in f:
            value, target, tpos = cast("tuple[int, str, Pos]", f["bonus"].value)
            if category not in BONUS_CATEGORIES:
                # SCORE-ROOMS: only an annex scores a bonus; name the field written last (an override
                # of either the category or the bonus is where the conflict was made).
                last = [name for name in f if name in ("category", "bonus")][-1]
                self.error(
                    f[last].pos,
                    f"a {category} room has no bonus: only an annex scores 'bonus N beside ROOM' (SCORE-ROOMS)",
                )
            elif value < 0:
                self.error(f["bonus"].pos, "a bonus cannot be negative (SCORE-ROOMS: like points)")
            elif self.check_room_ref(target, tpos, scope):
                bonus = (value, target)
        children = _int(f["children"]) if "children" in f else 0
        self.check_count(f["count"])
        english, names, genders = _card_names(ident, merged)
        room = RoomType(
            ident,
            english,
            category,
            CATEGORY_FLOOR_KIND[category],
            points,
            _int(f["count"]),
            children,
            bonus,
            len(cards.rooms),
            names,
            genders,
        )
        cards.rooms.append(room)

    def build_roof(self, ident: str, merged: _Merged, scope: _Scope, cards: _Cards) -> None:
        """A roof colour: its cards and how many carry a window (SCORE-ROOF)."""
        f = merged.fields
        self.check_count(f["count"])
        count = _int(f["count"])
        windows = _int(f["windows"]) if "windows" in f else 0
        if "windows" in f and (windows < 0 or windows > max(count, 0)):  # a negative count is reported above
            self.error(f["windows"].pos, f"windows must be between 0 and the count ({count})")
        colour = cast(str, f["colour"].value) if "colour" in f else DEFAULT_ROOF_COLOUR
        if not _COLOUR.fullmatch(colour):
            self.error(f["colour"].pos, f'colour {colour!r} is not a colour; write it as "#rrggbb"')
        english, names, genders = _card_names(ident, merged)
        cards.roofs.append(RoofType(ident, english, count, windows, len(cards.roofs), colour, names, genders))

    def build_token(self, ident: str, merged: _Merged, scope: _Scope, cards: _Cards) -> None:
        """A furnishing (a resource card, RES-FURN) or a card-less token (VAR-CAR):
        in one room type or outside the house (FURN-TYPE), one points value."""
        f = merged.fields
        room = None
        if ("room" in f) == ("outside" in f):
            self.error(merged.pos, f"'{ident}' needs exactly one of 'room ROOM' or 'outside'")
            return
        if "room" in f:
            room, rpos = _ref(f["room"])
            if not self.check_room_ref(room, rpos, scope):
                return
        award = None
        if "award" in f:
            award, apos = _ref(f["award"])
            if award not in AWARDS:
                self.error(apos, f"unknown award '{award}'; expected one of {', '.join(AWARDS)}")
        points = _ints(f["points"])
        if len(points) != 1:
            self.error(f["points"].pos, "a token has one points value")
        if points[0] < 0:
            self.error(f["points"].pos, "points cannot be negative")
        count = _int(f["count"]) if "count" in f else 1
        if "count" in f:
            self.check_count(f["count"])
        is_card = merged.kind == "furnishing"
        english, names, genders = _card_names(ident, merged)
        index = len(cards.furnishings)
        cards.furnishings.append(Furnishing(ident, english, room, points[0], count, award, is_card, index, names, genders))

    def build_held(self, ident: str, merged: _Merged, scope: _Scope, cards: _Cards) -> None:
        """A helper or tool card and its compiled effects (RES-HELPER, RES-TOOL)."""
        f = merged.fields
        self.check_count(f["count"])
        specs = cast("tuple[EffectSpec, ...]", f["effect"].value)
        effects = tuple(e for e in (self.compile_effect(spec) for spec in specs) if e)
        for spec in specs:  # RES-EFFECTS: compile_effect does not know the card's kind; check it here
            if spec.name in EFFECTS and spec.name not in CARD_KIND_EFFECTS[merged.kind]:
                why = CARD_KIND_REFUSALS.get((merged.kind, spec.name), "see docs/language.md (RES-EFFECTS)")
                self.error(spec.pos, f"{spec.name} on {KIND_WORDS[merged.kind]}: {why}")
        effects = tuple(e for e in effects if e.name in CARD_KIND_EFFECTS[merged.kind])
        english, names, genders = _card_names(ident, merged)
        card = HeldCard(ident, english, merged.kind, _int(f["count"]), effects, names, genders)
        (cards.helpers if merged.kind == "helper" else cards.tools).append(card)

    def build_bonus(self, ident: str, merged: _Merged, scope: _Scope, cards: _Cards) -> None:
        """A functionality bonus: clauses over rooms and floors (SCORE-FUNC-*)."""
        f = merged.fields
        points = _ints(f["points"])
        if len(points) != 1:
            self.error(f["points"].pos, "a bonus has one points value")
        conditions = cast("tuple[Condition, ...]", f["when"].value)
        clauses: list[Clause] = []
        for cond in conditions:
            if self.check_room_ref(cond.room, cond.pos, scope):
                clauses.extend(self.clauses(cond, scope))
        english, names, genders = _card_names(ident, merged)
        cards.bonuses.append(Bonus(ident, english, points[0], tuple(clauses), self.describe_when(conditions), names, genders))

    def clauses(self, cond: Condition, scope: _Scope) -> list[Clause]:
        """`has ROOM`: one clause over every floor; `every KIND floor has ROOM`: one per floor of that kind."""
        board = scope.board
        if cond.scope is None:
            return [Clause(cond.room, tuple(fl.name for fl in board.floors) if board else ())]
        if cond.scope not in scope.floor_kinds:
            self.error(cond.pos, f"no floor of kind '{cond.scope}'; expected one of " + ", ".join(sorted(scope.floor_kinds)))
            return []
        if board is None:
            return []
        return [Clause(cond.room, (fl.name,)) for fl in board.floors if fl.kind == cond.scope]

    def build_roof_scoring(
        self, rs_decl: _Merged | None, path: str, provenance: dict[tuple[str, str], SourceRef]
    ) -> RoofScoring | None:
        """The `roof_scoring` block: what complete roofs and windows score (SCORE-ROOF)."""
        if rs_decl is None:
            self.error(Pos(path, 1, 1), "no 'roof_scoring' block")
            return None
        for name, fld in rs_decl.fields.items():
            if name not in ROOF_SCORING_FIELDS:
                self.error(
                    fld.pos,
                    f"unknown roof scoring field '{name}'; expected one of "
                    + ", ".join(ROOF_SCORING_FIELDS)
                    + _suggest(name, ROOF_SCORING_FIELDS),
                )
        if not self.require(rs_decl):
            return None
        vals = {k: _int(rs_decl.fields[k]) for k in ROOF_SCORING_FIELDS}
        if vals["size"] < 1:
            self.error(rs_decl.fields["size"].pos, "a complete roof has at least 1 card")
        for k in ("uniform", "mixed", "window"):
            if vals[k] < 0:
                # Like points; the closed form of SCORE-ROOF (engine.roof.best_roof_points) takes
                # as many windows as it can, which a negative window would turn into a loss.
                self.error(rs_decl.fields[k].pos, f"roof scoring '{k}' cannot be negative (SCORE-ROOF: like points)")
        self.note("roof_scoring", rs_decl, provenance)
        return RoofScoring(**vals)

    def build_options(self, declared: Mapping[str, OptionDecl]) -> dict[str, str]:
        """Options over their defaults (docs/rules.md, Options); only the engine's options and values (vocabulary.OPTIONS)."""
        options = {name: values[0] for name, values in OPTIONS.items()}
        for name, decl in declared.items():
            if name not in OPTIONS:
                self.error(decl.pos, f"unknown option '{name}'; expected one of {', '.join(OPTIONS)}" + _suggest(name, OPTIONS))
            elif str(decl.value) not in OPTIONS[name]:
                self.error(decl.pos, f"option {name} cannot be '{decl.value}'; expected one of " + ", ".join(OPTIONS[name]))
            else:
                options[name] = str(decl.value)
        return options

    def check_playability(
        self, game: GameSpec, board: Board, decls: Mapping[str, _Merged], cards: _Cards, options: Mapping[str, str]
    ) -> None:
        """Rules that compile but cannot be played are refused here (dsl/playability.py)."""
        g, b = decls["game"], decls["board"]
        resources: list[RoofType | Furnishing | HeldCard] = [
            *cards.roofs,
            *(x for x in cards.furnishings if x.is_card),
            *cards.helpers,
            *cards.tools,
        ]
        decks = Decks(
            sum(r.count for r in cards.rooms),
            sum(r.count for r in resources),
            _biggest(decls, cards.rooms),
            _biggest(decls, resources),
        )
        floors = {name.split(":", 1)[1]: fld.pos for name, fld in b.fields.items() if name.startswith("floor:")}
        where = Where(
            g.fields["players"].pos,
            g.fields["rounds"].pos,
            g.fields["deal"].pos,
            g.fields["discard"].pos if "discard" in g.fields else None,
            b.pos,
            floors,
        )
        for problem in playability_problems(game, board, decks, options, where):
            self.error(problem.pos, problem.message, problem.severity)
        self.check_idle_takes(game, board, decls, cards, options)
        scaffolds = [c.id for c in cards.tools if c.count and c.effect("scaffold")]
        message = scaffold_kinds_problem(scaffolds)
        if message is not None:
            self.error(decls[scaffolds[-1]].pos, message)

    def check_idle_takes(
        self, game: GameSpec, board: Board, decls: Mapping[str, _Merged], cards: _Cards, options: Mapping[str, str]
    ) -> None:
        """A held card whose round-start take (a SKIP_TURN_SHAPES effect at a SKIP_TURN_TIMINGS
        timing) has no `skip_turn` and no spare space to land on can never act: warn at the effect."""
        for card in (*cards.helpers, *cards.tools):
            if not card.count:
                continue
            specs = cast("tuple[EffectSpec, ...]", decls[card.id].fields["effect"].value) if card.id in decls else ()
            for k, effect in enumerate(card.effects):
                places = effect.places()
                when = effect.timing or next(iter(supported_timings(effect.name, places)), None)
                if (effect.name, places) not in SKIP_TURN_SHAPES or when not in SKIP_TURN_TIMINGS or "skip_turn" in effect.flags:
                    continue
                message = extra_take_problem(game, board.size, options, f"{card.id}'s {effect.describe()}")
                if message is not None:
                    pos = specs[k].pos if k < len(specs) else decls[card.id].pos
                    self.error(pos, message, "warning")

    @staticmethod
    def variant_titles(state: _State) -> dict[str, tuple[tuple[str, str], ...]]:
        """Each variant block's title in other languages (`name LANG "…"`), LANGUAGES order."""
        out: dict[str, tuple[tuple[str, str], ...]] = {}
        for vid, (v, _f) in state.variants.items():
            given = {cast(NameValue, f.value).lang: cast(NameValue, f.value).text for f in v.names}
            if given:
                out[vid] = tuple((lang, given[lang]) for lang in LANGUAGES if lang in given)
        return out

    @staticmethod
    def variants_available(state: _State) -> dict[str, str]:
        """The file's own variants by label, then the packaged variant files not shadowed by one."""
        available = {vid: (v.name or vid) for vid, (v, _f) in state.variants.items()}
        for vpath in sorted(VARIANTS_DIR.glob("*.dh")):
            available.setdefault(vpath.stem, f"rules file {vpath.name}")
        return available

    @staticmethod
    def describe_when(conditions: Sequence[Condition]) -> str:
        """The bonus's condition in words, for reports and explanations."""
        parts = []
        for c in conditions:
            parts.append(f"every {c.scope} floor has {c.room}" if c.scope else f"has {c.room}")
        return " and ".join(parts)

    def check_points(self, fld: Field, points: tuple[int, ...]) -> None:
        """A points table: its length is the room's maximum size (PLACE-C), so it is
        non-empty, and a bigger room never scores less."""
        if not points:
            self.error(fld.pos, "a points table needs at least one value")
        if any(p < 0 for p in points):
            self.error(fld.pos, "points cannot be negative")
        for a, b in zip(points, points[1:]):
            if b < a:
                self.error(fld.pos, f"points must not fall as a room grows ({b} after {a})")
                break

    def check_count(self, fld: Field) -> None:
        """Cards in the deck: zero is allowed (a card type left out), fewer is not."""
        if _int(fld) < 0:
            self.error(fld.pos, "a count cannot be negative")

    def compile_effect(self, spec: EffectSpec) -> Effect | None:
        """One effect call checked against the engine's vocabulary (vocabulary.EFFECTS)."""
        shape = EFFECTS.get(spec.name)
        if shape is None:
            self.error(
                spec.pos,
                f"unknown effect '{spec.name}'; the engine implements " + ", ".join(EFFECTS) + _suggest(spec.name, EFFECTS),
            )
            return None
        for word, where in spec.repeats:  # `uses 2 uses 3`, `skip_turn skip_turn`: as a field given twice
            shown = "uses" if word == "uses" else word
            self.error(where, f"'{shown}' is given twice in this effect ({spec.name})")
        if spec.repeats:
            return None
        ok = self.check_effect_args(spec, shape)
        flags: dict[str, Pos] = {}
        given: list[tuple[str, Pos]] = []  # the timings written: `at NAME`, or the flag `before_take`
        for flag, fpos in spec.flags:
            if flag.startswith("at "):
                when = flag[3:]
                if when not in TIMINGS:
                    self.error(
                        fpos,
                        f"unknown timing '{flag}' for {spec.name}; expected "
                        + self.timing_words(TIMINGS)
                        + _suggest(when, TIMINGS),
                    )
                    ok = False
                else:
                    given.append((when, fpos))
            elif flag == "before_take":  # the form base.dh uses: a timing written as a flag
                flags[flag] = fpos
                given.append((flag, fpos))
            elif flag not in shape.flags:
                allowed_f = ", ".join(shape.flags) or "no flags"
                self.error(fpos, f"unknown flag '{flag}' for {spec.name}; expected {allowed_f}" + _suggest(flag, shape.flags))
                ok = False
            else:
                flags[flag] = fpos
        if len(given) > 1:
            self.error(given[1][1], f"{spec.name} has two timings ({given[0][0]}, {given[1][0]}); give one")
            ok = False
        if ok:
            ok = self.check_effect_timing(spec, shape, given[0] if given else None, flags)
        if spec.uses is not None and spec.uses < 1:
            self.error(spec.pos, "uses must be at least 1")
            ok = False
        elif spec.uses is not None and spec.uses > MAX_USES:
            self.error(spec.pos, f"uses {spec.uses} is out of range (at most {MAX_USES}; see TOOL-TIMING)")
            ok = False
        if not ok:
            return None
        return Effect(spec.name, spec.args, spec.timing, frozenset(flags), spec.uses or 1)

    @staticmethod
    def timing_words(timings: Iterable[str]) -> str:
        """Timings as a rules file writes them: `before_take` bare (as base.dh does), the others `at …`."""
        return ", ".join(t if t == "before_take" else "at " + t for t in timings)

    def check_effect_timing(
        self, spec: EffectSpec, shape: EffectShape, given: tuple[str, Pos] | None, flags: dict[str, Pos]
    ) -> bool:
        """TOOL-TIMING: the effect's shape supports its timing (vocabulary.TIMING_SUPPORT), `skip_turn`
        only before the round's turns, `uses` only for effects that are used (not passive ones)."""
        places = tuple(a for a, _ in spec.args) if shape.positional else ()
        shown = f"{spec.name}({', '.join(places)})" if places else spec.name
        supported = supported_timings(spec.name, places)
        words = self.timing_words(supported)
        if not supported:
            self.error(spec.pos, f"{shown} has no timing the engine can play (TOOL-TIMING); see docs/language.md")
            return False
        when, pos = given if given is not None else (supported[0], spec.pos)
        if when not in supported:
            self.error(pos, f"{shown} cannot act {self.timing_words([when])} (TOOL-TIMING); it supports {words}")
            return False
        if "skip_turn" in flags and when not in SKIP_TURN_TIMINGS:
            self.error(
                flags["skip_turn"],
                f"skip_turn needs {self.timing_words(SKIP_TURN_TIMINGS)}; {shown} acts {self.timing_words([when])}",
            )
            return False
        if "skip_turn" in flags and (spec.name, places) not in SKIP_TURN_SHAPES:
            self.error(
                flags["skip_turn"],
                f"skip_turn is for an effect that takes a room card instead of the turn's take (take_room); "
                f"{shown} brings none, so the skipped turn's space would stay empty (ROUND-6)",
            )
            return False
        if spec.uses is not None and when == "once":
            self.error(spec.pos, f"{shown} acts once, from the moment the card is taken: 'uses' does not apply")
            return False
        return True

    def check_effect_args(self, spec: EffectSpec, shape: EffectShape) -> bool:
        """Keyword effects take known keywords with numbers; positional ones one place per slot."""
        ok = True
        if shape.keywords:
            given: set[str] = set()
            for arg, value in spec.args:
                if arg in given:
                    self.error(spec.pos, f"{spec.name}() is given '{arg}' twice")
                    ok = False
                given.add(arg)
                if arg not in shape.keywords:
                    self.error(
                        spec.pos,
                        f"{spec.name}() does not take '{arg}'; expected "
                        + ", ".join(shape.keywords)
                        + _suggest(arg, shape.keywords),
                    )
                    ok = False
                elif value is None:
                    self.error(spec.pos, f"expected a number after '{arg}' in {spec.name}()")
                    ok = False
                elif value < 0:
                    # Like points: the solvers' models bound each amount from above (HELP-ARCHITECT,
                    # HELP-DESIGNER), so a penalty would be read as nothing by some of them.
                    self.error(spec.pos, f"{spec.name}({arg} {value}): an amount cannot be negative")
                    ok = False
        elif len(spec.args) != len(shape.positional):
            self.error(spec.pos, f"{spec.name} takes {len(shape.positional)} argument(s), got {len(spec.args)}")
            ok = False
        else:
            for (arg, value), allowed in zip(spec.args, shape.positional):
                if arg not in allowed or value is not None:
                    self.error(spec.pos, f"{spec.name}() cannot use '{arg}' there; expected one of " + ", ".join(allowed))
                    ok = False
        return ok


@dataclass(frozen=True)
class _Loaded:
    items: list[tuple[str, Item]]
    source: str
    path: str


def _load(compiler: _Compiler, path: Path | None, text: str | None, name: str | None) -> _Loaded | None:
    if text is None:
        path = Path(path) if path is not None else BASE_RULES
        rules_file = compiler.read(path, None)
        key = str(path.resolve())
        display = str(path)
    else:
        display = name or "<string>"
        rules_file = compiler.parse_text(text, display)
        key = display
    compiler.top = display
    if rules_file is None:
        return None
    items, source = compiler.flatten(rules_file, (key,))
    return _Loaded(items, source, display)


def _merge_all(compiler: _Compiler, loaded: _Loaded) -> _State:
    state = _State()
    seen_per_file: dict[str, dict[str, Pos]] = {}
    for file, item in loaded.items:
        compiler.merge_item(state, file, item, seen_per_file.setdefault(file, {}))
    return state


_VARIANT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def variant_name_problem(name: str) -> str | None:
    """Why `name` cannot name a variant, or None. A variant name is a NAME of the language (a
    `variant NAME {…}` block, or a catalogue file `rules/variants/NAME.dh`), never a path:
    `--variant ../base` or `--variant /tmp/x` must not read a file outside the catalogue."""
    if _VARIANT_NAME.fullmatch(name):
        return None
    shown = printable(name[:80])
    return f"'{shown}' is not a variant name: a variant is named by letters, digits and '_' (see `dreamhome rules variants`)"


def _variant_file_items(compiler: _Compiler, name: str) -> tuple[list[tuple[str, Item]], str] | None:
    """A variant given as `rules/variants/NAME.dh`: its own declarations, applied
    on top of the rules in use (its includes stand for those rules)."""
    vpath = VARIANTS_DIR / f"{name}.dh"
    if not vpath.is_file():
        return None
    vfile = compiler.read(vpath, None)
    if vfile is None:
        return [], ""
    items: list[tuple[str, Item]] = [(vfile.path, it) for it in vfile.items if not isinstance(it, (Include, VariantDecl))]
    body: list[str] = []
    cursor = 0
    for it in vfile.items:
        if isinstance(it, Include):
            body.append(vfile.text[cursor : it.start])
            cursor = it.end
    body.append(vfile.text[cursor:])
    return items, "".join(body)


def compile_rules(
    path: str | Path | None = None,
    variants: Sequence[str] = (),
    *,
    text: str | None = None,
    name: str | None = None,
    allow_absolute_includes: bool = False,
    allow_includes: bool = True,
) -> Ruleset:
    """Compile a rules file (default: the packaged base rules) with variants on.

    `include` follows rules files (.dh) beside the including file or in the packaged rules;
    `allow_absolute_includes` also follows absolute paths; `allow_includes=False` follows none
    (a game record's source, whose includes were inlined when it was written).
    Raises `RulesError` carrying every error found.
    """
    includes = "none" if not allow_includes else "absolute" if allow_absolute_includes else "relative"
    with cyclic_gc_paused():
        return _compile(path, variants, text, name, includes)


def _compile(path: str | Path | None, variants: Sequence[str], text: str | None, name: str | None, includes: str) -> Ruleset:
    compiler = _Compiler(includes)
    loaded = _load(compiler, Path(path) if path is not None else None, text, name)
    if loaded is None or compiler.errors:
        raise RulesError(compiler.relocate(compiler.errors))
    state = _merge_all(compiler, loaded)
    source = loaded.source
    for vname in variants:
        refused = variant_name_problem(vname)
        if refused is not None:
            raise RulesError([Diagnostic("", 0, 0, refused)])
        if vname in state.variants:
            vdecl, vfile = state.variants[vname]
            for own_item in vdecl.items:
                compiler.merge_item(state, vfile, own_item, None)
            continue
        from_file = _variant_file_items(compiler, vname)
        if from_file is None:
            known = sorted(set(state.variants) | {p.stem for p in VARIANTS_DIR.glob("*.dh")})
            # Named on the command line (or by a caller), not in any rules file: no file position.
            message = f"unknown variant '{vname}'" + _suggest(vname, known) + f"; known variants: {', '.join(known)}"
            raise RulesError([Diagnostic("", 0, 0, message)])
        items, body = from_file
        for file, item in items:
            compiler.merge_item(state, file, item, None)
        source += f"\n\nvariant {vname} {{\n{body}\n}}\n"
    ruleset = compiler.build(state, tuple(variants), source, loaded.path)
    if ruleset is None:
        raise RulesError(compiler.relocate(compiler.errors))
    return ruleset


def check_rules(
    path: str | Path | None = None,
    *,
    text: str | None = None,
    name: str | None = None,
    allow_absolute_includes: bool = False,
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Every error and warning of a rules file, with each of its variants tried on.

    Returns (errors, warnings); never raises for a bad file.
    """
    errors: dict[Diagnostic, None] = {}  # ordered sets: each diagnostic once, in O(1)
    warnings: dict[Diagnostic, None] = {}

    def absorb(diags: Iterable[Diagnostic]) -> None:
        for d in diags:
            (errors if d.severity == "error" else warnings)[d] = None

    try:
        rules = compile_rules(path, text=text, name=name, allow_absolute_includes=allow_absolute_includes)
    except RulesError as exc:
        absorb(exc.diagnostics)
        return list(errors), list(warnings)
    absorb(rules.warnings)
    own_variants = [v for v, label in rules.variants_available.items() if not label.startswith("rules file ")]
    for variant in own_variants:
        try:
            absorb(compile_rules(path, [variant], text=text, name=name, allow_absolute_includes=allow_absolute_includes).warnings)
        except RulesError as exc:
            absorb(exc.diagnostics)
    return list(errors), list(warnings)
