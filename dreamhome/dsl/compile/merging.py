"""Merging: every file's declarations in order into one `State`, a later declaration
overriding an earlier one field by field (a board declared again replaces the whole board),
each declaration checked as written on the way in (`checks`). One dict update per
declaration: linear in the size of the files."""

from __future__ import annotations

from collections.abc import Iterable

from dreamhome.dsl.ast import Decl, Item, OptionDecl, Pos, VariantDecl
from dreamhome.dsl.compile.checks import (
    KIND_WORDS,
    MAX_NUMBER,
    check_display_name,
    check_fields,
    check_variant_repeats,
    check_variant_titles,
)
from dreamhome.dsl.compile.declarations import SINGLETONS, Merged, State, decl_key
from dreamhome.dsl.compile.diagnostics import Diagnostics


def merge_all(report: Diagnostics, items: Iterable[tuple[str, Item]]) -> State:
    """Every item of the loaded files, in order, each file's repeats checked within that file."""
    state = State()
    seen_per_file: dict[str, dict[str, Pos]] = {}
    for file, item in items:
        merge_item(report, state, file, item, seen_per_file.setdefault(file, {}))
    return state


def merge_decl(report: Diagnostics, state: State, decl: Decl, seen_in_file: dict[str, Pos] | None) -> None:
    """Later declarations override earlier ones field by field: one dict update, O(fields)."""
    key = decl_key(decl.kind, decl.id)
    check_display_name(report, decl.name, decl.pos)
    check_fields(report, decl)
    if seen_in_file is not None and decl.kind not in SINGLETONS:
        if key in seen_in_file:
            first = seen_in_file[key]
            report.error(decl.pos, f"'{key}' is declared twice in this file (first at line {first.line})")
        seen_in_file[key] = decl.pos
    existing = state.decls.get(key)
    if existing is None:
        state.decls[key] = Merged(decl.kind, decl.id, decl.name, {f.name: f for f in decl.fields}, decl.pos)
        return
    if existing.kind != decl.kind:
        report.error(
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


def merge_item(report: Diagnostics, state: State, file: str, item: Item, seen: dict[str, Pos] | None) -> None:
    """One item into the state: a declaration, an option, or a variant (kept, merged when turned on).
    `seen` holds what this file declared so far (None for a variant's items: no repeat check)."""
    if isinstance(item, Decl):
        merge_decl(report, state, item, seen)
    elif isinstance(item, OptionDecl):
        if isinstance(item.value, int) and abs(item.value) > MAX_NUMBER:
            report.error(item.pos, f"option '{item.name}': a number out of range (at most {MAX_NUMBER:,} either way)")
        if seen is not None:  # set twice in one file: a repeat, as a field twice is
            key = f"option {item.name}"
            if key in seen:
                report.error(item.pos, f"option '{item.name}' is set twice in this file (first at line {seen[key].line})")
            seen[key] = item.pos
        state.options[item.name] = item
    elif isinstance(item, VariantDecl):
        check_display_name(report, item.name, item.pos)
        check_variant_repeats(report, item)
        check_variant_titles(report, item)
        if seen is not None:
            key = f"variant {item.id}"
            if key in seen:
                report.error(item.pos, f"variant '{item.id}' is declared twice in this file (first at line {seen[key].line})")
            seen[key] = item.pos
        state.variants[item.id] = (item, file)
