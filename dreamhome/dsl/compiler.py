"""Rules files → one compiled, immutable `Ruleset`: the compiler's pipeline and public entry.

Pipeline: load (parse, follow includes, detect cycles) → merge (later
declarations override earlier ones field by field; variants apply last) →
check (every static error docs/language.md lists, all of them, each with a position) →
build (typed records, the board graph, scoring terms, compiled effects). Each step is a module
of `dreamhome.dsl.compile` named for its job; this module runs them in order.

Each stage is linear in the number of declarations: merging is one dict update
per declaration, room references are checked against a set, and diagnostics
are kept in dicts used as ordered sets, so a file of tens of thousands of
declarations (or of errors) compiles in time proportional to its size.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import MappingProxyType

from dreamhome.dsl.compile.builders import Provenance, build_board, build_game, build_options, build_roof_scoring
from dreamhome.dsl.compile.cards import build_cards, scope_of
from dreamhome.dsl.compile.checks import CARD_FIELDS, KIND_WORDS, MAX_NUMBER, name_problem
from dreamhome.dsl.compile.declarations import SINGLETONS, State
from dreamhome.dsl.compile.diagnostics import Diagnostics
from dreamhome.dsl.compile.files import (
    BASE_RULES,
    NOT_REGULAR,
    RULES_DIR,
    RULES_SUFFIX,
    VARIANTS_DIR,
    NotRegularError,
    read_rules_text,
    rules_file_problem,
)
from dreamhome.dsl.compile.includes import INCLUDES, Reader
from dreamhome.dsl.compile.merging import merge_all
from dreamhome.dsl.compile.playable import check_playability
from dreamhome.dsl.compile.variants import apply_variants, variant_name_problem, variant_titles, variants_available
from dreamhome.errors import Diagnostic, RulesError
from dreamhome.gc_pause import cyclic_gc_paused
from dreamhome.ruleset import Ruleset

__all__ = [
    "BASE_RULES",
    "CARD_FIELDS",
    "INCLUDES",
    "KIND_WORDS",
    "MAX_NUMBER",
    "NOT_REGULAR",
    "RULES_DIR",
    "RULES_SUFFIX",
    "SINGLETONS",
    "VARIANTS_DIR",
    "NotRegularError",
    "check_rules",
    "compile_rules",
    "name_problem",
    "read_rules_text",
    "rules_file_problem",
    "variant_name_problem",
]


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
    report = Diagnostics()
    reader = Reader(report, includes)
    loaded = reader.load(Path(path) if path is not None else None, text, name)
    if loaded is None or report.errors:
        raise RulesError(report.relocate(report.errors))
    state = merge_all(report, loaded.items)
    source = apply_variants(reader, report, state, variants, loaded.source)
    ruleset = _build(report, state, tuple(variants), source, loaded.path)
    if ruleset is None:
        raise RulesError(report.relocate(report.errors))
    return ruleset


def _build(report: Diagnostics, state: State, variants_on: tuple[str, ...], source: str, path: str) -> Ruleset | None:
    """Compose the builders in the order their diagnostics are reported."""
    decls = state.decls
    provenance: Provenance = {}
    game = build_game(report, decls.get("game"), path, provenance)
    board = build_board(report, decls.get("board"), path)
    cards = build_cards(report, scope_of(decls, board), provenance)
    roof_scoring = build_roof_scoring(report, decls.get("roof_scoring"), path, provenance)
    options = build_options(report, state.options)
    if game is not None and decls.get("game") is not None and board is not None:
        check_playability(report, game, board, decls, cards, options)
    if report.errors or game is None or board is None or roof_scoring is None:
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
        variants_available=MappingProxyType(variants_available(state)),
        variant_titles=MappingProxyType(variant_titles(state)),
        provenance=MappingProxyType(provenance),
        source=source,
        content_hash=content_hash,
        warnings=tuple(report.relocate(report.warnings)),
        path=path,
    )


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
