"""The rules language: the full example file, syntax errors, fuzzing (docs/language.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamhome.dsl.ast import Decl, Include, OptionDecl, VariantDecl
from dreamhome.dsl.parser import RulesParser
from dreamhome.errors import RulesError
from tests.helpers.paths import DATA


def test_example_is_the_full_language_example():
    """tests/data/dsl_example.dh is the complete example file of the language (every declaration kind)."""
    example = (DATA / "dsl_example.dh").read_text()
    assert example.startswith("# dreamhome/rules/base.dh: Dream Home, base game\n")
    assert 'token car "Car" { room garage  points 1  award first_complete }' in example


def test_example_parses_verbatim():
    parsed = RulesParser().parse((DATA / "dsl_example.dh").read_text(), "example.dh")
    kinds = [(type(i).__name__, getattr(i, "kind", None), getattr(i, "id", None)) for i in parsed.items]
    assert ("Decl", "game", "dream_home") in kinds
    assert ("Decl", "board", None) in kinds
    assert ("Decl", "room", "childrens_room") in kinds
    assert ("Decl", "tool", "scaffolding") in kinds
    assert ("Decl", "bonus", "full_service") in kinds
    variants = [i for i in parsed.items if isinstance(i, VariantDecl)]
    assert [v.id for v in variants] == ["kids", "car"]
    options = [i for i in parsed.items if isinstance(i, OptionDecl)]
    assert [(o.name, o.value) for o in options] == [("annex_adjacency", "horizontal"), ("round_discard", "on")]


def test_provenance_annotations_are_kept():
    parsed = RulesParser().parse((DATA / "dsl_example.dh").read_text(), "example.dh")
    child = next(i for i in parsed.items if isinstance(i, Decl) and i.id == "childrens_room")
    fields = {f.name: f for f in child.fields}
    assert fields["points"].value == (2, 6) and fields["points"].provenance == "printed"
    assert fields["count"].provenance == "assumed"
    assert fields["category"].provenance is None  # unmarked: @rulebook


def test_designer_has_two_effects_grouped_as_one_field():
    parsed = RulesParser().parse((DATA / "dsl_example.dh").read_text(), "example.dh")
    designer = next(i for i in parsed.items if isinstance(i, Decl) and i.id == "interior_designer")
    effect = next(f for f in designer.fields if f.name == "effect")
    assert [e.name for e in effect.value] == ["tokens_keep_open", "score"]
    assert effect.value[1].args == (("token_plus", 1),)


def test_override_example_parses():
    parsed = RulesParser().parse((DATA / "override_example.dh").read_text(), "o.dh")
    assert isinstance(parsed.items[0], Include) and parsed.items[0].path == "base.dh"
    handyman = parsed.items[2]
    (spec,) = handyman.fields[0].value
    assert (spec.name, spec.timing, spec.uses) == ("swap", "end", 2)


def test_keywords_are_names_where_names_are_expected():
    """`basement` and `roof_pile` are keywords and names (contextual lexer)."""
    text = "board { floor basement basement columns 3..4 roof_pile under basement columns 0..2 }"
    board = RulesParser().parse(text, "b.dh").items[0]
    assert board.fields[0].name == "floor:basement" and board.fields[0].value == ("basement", 3, 4)


@pytest.mark.parametrize(
    ("text", "line", "column", "expected"),
    [
        ("room kitchen {\n  points\n}\n", 3, 1, "a number"),
        ("room kitchen { count x }", 1, 22, "a number"),
        ('game g "G" {\n  players 2..\n}', 3, 1, "a number"),
        ("option x = ", 1, 12, "a name"),
        ("room kitchen { points 1 $ }", 1, 25, "unexpected character"),
    ],
)
def test_syntax_errors_name_line_column_and_expectation(text, line, column, expected):
    with pytest.raises(RulesError) as info:
        RulesParser().parse(text, "bad.dh")
    diag = info.value.diagnostics[0]
    assert (diag.file, diag.line, diag.column) == ("bad.dh", line, column)
    assert expected in diag.message
    long = diag.long()
    assert long.splitlines()[0].startswith(f"bad.dh:{line}:{column}: error:")
    assert long.splitlines()[-1].strip() == "^"


def test_all_syntax_errors_of_a_file_are_reported():
    text = "room a { points x }\nroom b { category normal }\nroom c { count }\nroof r { count 3 }\n"
    with pytest.raises(RulesError) as info:
        RulesParser().parse(text, "bad.dh")
    assert [d.line for d in info.value.diagnostics] == [1, 3]


@pytest.mark.slow
@given(st.text(max_size=200))
def test_fuzz_arbitrary_text_raises_only_rules_error(text):
    try:
        RulesParser().parse(text, "fuzz.dh")
    except RulesError as exc:
        assert exc.diagnostics and all(d.file == "fuzz.dh" for d in exc.diagnostics)


KEYWORDS = [
    "room",
    "roof",
    "points",
    "count",
    "{",
    "}",
    "(",
    ")",
    ",",
    "@assumed",
    "..",
    "=",
    "effect",
    "bonus",
    "beside",
    "variant",
    "option",
    "include",
    '"x"',
    "1",
    "2",
    "kitchen",
    "when",
    "has",
    "every",
    "floor",
    "\n",
]


@given(st.lists(st.sampled_from(KEYWORDS), max_size=30))
def test_fuzz_token_soup_raises_only_rules_error(words):
    try:
        RulesParser().parse(" ".join(words), "soup.dh")
    except RulesError as exc:
        assert exc.diagnostics
