"""Variants: the ones a ruleset offers (its own `variant` blocks, then the packaged catalogue's
files), their titles, and turning them on, which merges their declarations last."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import cast

from dreamhome.dsl.ast import Include, Item, NameValue, VariantDecl
from dreamhome.dsl.compile.checks import suggest
from dreamhome.dsl.compile.declarations import State
from dreamhome.dsl.compile.diagnostics import Diagnostics
from dreamhome.dsl.compile.files import VARIANTS_DIR
from dreamhome.dsl.compile.includes import Reader
from dreamhome.dsl.compile.merging import merge_item
from dreamhome.errors import Diagnostic, RulesError
from dreamhome.fileio import printable
from dreamhome.i18n import LANGUAGES

_VARIANT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def variant_name_problem(name: str) -> str | None:
    """Why `name` cannot name a variant, or None. A variant name is a NAME of the language (a
    `variant NAME {…}` block, or a catalogue file `rules/variants/NAME.dh`), never a path:
    `--variant ../base` or `--variant /tmp/x` must not read a file outside the catalogue."""
    if _VARIANT_NAME.fullmatch(name):
        return None
    shown = printable(name[:80])
    return f"'{shown}' is not a variant name: a variant is named by letters, digits and '_' (see `dreamhome rules variants`)"


def variant_file_items(reader: Reader, name: str) -> tuple[list[tuple[str, Item]], str] | None:
    """A variant given as `rules/variants/NAME.dh`: its own declarations, applied
    on top of the rules in use (its includes stand for those rules)."""
    vpath = VARIANTS_DIR / f"{name}.dh"
    if not vpath.is_file():
        return None
    vfile = reader.read(vpath, None)
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


def apply_variants(reader: Reader, report: Diagnostics, state: State, variants: Sequence[str], source: str) -> str:
    """Merge each variant's declarations, in the order named, over the state; the source with
    each catalogue variant's body appended (a record's rules hold what was played). A name that
    is no variant raises `RulesError` with no file position: it was named by a caller."""
    for vname in variants:
        refused = variant_name_problem(vname)
        if refused is not None:
            raise RulesError([Diagnostic("", 0, 0, refused)])
        if vname in state.variants:
            vdecl, vfile = state.variants[vname]
            for own_item in vdecl.items:
                merge_item(report, state, vfile, own_item, None)
            continue
        from_file = variant_file_items(reader, vname)
        if from_file is None:
            known = sorted(set(state.variants) | {p.stem for p in VARIANTS_DIR.glob("*.dh")})
            # Named on the command line (or by a caller), not in any rules file: no file position.
            message = f"unknown variant '{vname}'" + suggest(vname, known) + f"; known variants: {', '.join(known)}"
            raise RulesError([Diagnostic("", 0, 0, message)])
        items, body = from_file
        for file, item in items:
            merge_item(report, state, file, item, None)
        source += f"\n\nvariant {vname} {{\n{body}\n}}\n"
    return source


def variant_titles(state: State) -> dict[str, tuple[tuple[str, str], ...]]:
    """Each variant block's title in other languages (`name LANG "…"`), LANGUAGES order."""
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    for vid, (v, _f) in state.variants.items():
        given = {cast(NameValue, f.value).lang: cast(NameValue, f.value).text for f in v.names}
        if given:
            out[vid] = tuple((lang, given[lang]) for lang in LANGUAGES if lang in given)
    return out


def variants_available(state: State) -> dict[str, str]:
    """The file's own variants by label, then the packaged variant files not shadowed by one."""
    available = {vid: (v.name or vid) for vid, (v, _f) in state.variants.items()}
    for vpath in sorted(VARIANTS_DIR.glob("*.dh")):
        available.setdefault(vpath.stem, f"rules file {vpath.name}")
    return available
