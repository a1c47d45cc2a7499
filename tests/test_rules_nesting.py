"""Nested rules input is bounded, with a message at its line (issue 34, item 8).

`inlined "…" { … }` blocks nest (a game record keeps each include expanded in place), and
includes chain through files. Past `MAX_NESTING` levels either is one diagnostic at the first
block or `include` too deep (file:line:column, exit 2 on the command line), never Python's
"maximum recursion depth": the parser's tree is checked without recursion before anything that
recurses over it runs. JSON inputs have their own bound (fileio.MAX_JSON_DEPTH,
tests/test_hostile_inputs.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamhome.dsl.compiler import check_rules, compile_rules
from dreamhome.dsl.parser import MAX_NESTING
from dreamhome.errors import RulesError
from tests.helpers.cli import run_here

TINY = (Path(__file__).parent / "data" / "tiny.dh").read_text(encoding="utf-8")
TOO_DEEP = f"'inlined' blocks nest more than {MAX_NESTING} deep here; at most {MAX_NESTING} levels are read"


def nested(depth: int, body: str = "") -> str:
    """`body` inside `depth` inlined blocks, one block opened per line."""
    return 'inlined "a.dh" {\n' * depth + body + "\n" + "}\n" * depth


def test_five_thousand_nested_blocks_are_one_line_at_the_first_too_deep(tmp_path: Path) -> None:
    path = tmp_path / "deep.dh"
    path.write_text(nested(5000), encoding="utf-8")
    ran = run_here("rules", "check", path)
    assert ran.returncode == 2
    assert ran.stderr.splitlines()[0] == f"{path}:{MAX_NESTING + 1}:1: error: {TOO_DEEP}"
    assert "recursion" not in ran.stderr


def test_rules_nested_to_the_bound_compile_and_one_more_level_does_not() -> None:
    """A record's self-contained rules (no includes followed) nested `MAX_NESTING` deep are read;
    one level more is refused at that block's line and column."""
    rules = compile_rules(text=nested(MAX_NESTING, TINY), name="r.dh", allow_includes=False)
    assert rules.game.rounds == 5  # tiny.dh's `rounds 5`, read through every block
    with pytest.raises(RulesError) as caught:
        compile_rules(text="\n" + "  " + nested(MAX_NESTING + 1, TINY), name="r.dh", allow_includes=False)
    (diag,) = caught.value.diagnostics
    assert (diag.file, diag.line, diag.column, diag.message) == ("r.dh", MAX_NESTING + 2, 1, TOO_DEEP)
    assert diag.source_line == 'inlined "a.dh" {'


def test_a_deep_block_after_a_syntax_error_is_reported_too() -> None:
    """The parser's recovery re-reads each top-level declaration alone: a deep one is bounded there too."""
    text = "game g {\n  rounds five\n}\n" + nested(MAX_NESTING + 5)
    errors, _ = check_rules(text=text, name="r.dh")
    assert [(d.line, d.message) for d in errors][1:] == [(3 + MAX_NESTING + 1, TOO_DEEP)]
    assert errors[0].line == 2


def test_a_chain_of_includes_is_bounded_at_the_include_too_deep(tmp_path: Path) -> None:
    """Each file of a chain includes the next: past `MAX_NESTING` files the `include` is refused."""
    count = MAX_NESTING + 3
    for k in range(count):
        body = f'include "f{k + 1}.dh"\n' if k + 1 < count else TINY
        (tmp_path / f"f{k}.dh").write_text(body, encoding="utf-8")
    errors, _ = check_rules(tmp_path / "f0.dh")
    assert [(Path(d.file).name, d.line, d.column, d.message) for d in errors] == [
        (f"f{MAX_NESTING}.dh", 1, 1, f"includes nest more than {MAX_NESTING} deep here; at most {MAX_NESTING} levels are read")
    ]


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(depth=st.integers(0, 3 * MAX_NESTING), prefix=st.sampled_from(["", "\n\n", "# c\n", "option x = 1\n"]))
def test_any_depth_is_compiled_or_refused_at_its_line(depth: int, prefix: str) -> None:
    """Every depth: no RecursionError; refused for nesting exactly when past the bound, at the right line."""
    text = prefix + nested(depth, TINY)
    try:
        compile_rules(text=text, name="r.dh", allow_includes=False)
        refused = []
    except RulesError as exc:
        refused = [d for d in exc.diagnostics if d.message == TOO_DEEP]
    if depth > MAX_NESTING:
        assert [d.line for d in refused] == [prefix.count("\n") + MAX_NESTING + 1]
    else:
        assert refused == []
