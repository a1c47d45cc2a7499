"""Compiled rules for the tests: each ruleset compiled once per test process and shared by every
module and fixture that asks for it (hypothesis strategies need them when a test is defined)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from dreamhome.dsl.compiler import compile_rules
from dreamhome.ruleset import Ruleset


@cache
def compiled(*variants: str, path: Path | None = None) -> Ruleset:
    """The base rules (or the file at `path`) with these variants switched on."""
    return compile_rules(path, variants=list(variants)) if path is not None else compile_rules(variants=list(variants))
