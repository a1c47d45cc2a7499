"""Compiling rules: the base manifest, static checks, includes, overrides, variants."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamhome.dsl import parser as parser_module
from dreamhome.dsl.ast import Decl
from dreamhome.dsl.compiler import BASE_RULES, check_rules, compile_rules
from dreamhome.dsl.parser import RulesParser
from dreamhome.errors import RulesError
from tests.helpers.paths import DATA

BASE_TEXT = BASE_RULES.read_text()
BASE_INCLUDE = "base.dh"  # the packaged base rules, by the relative include every rules file may use
# Tokens, keywords used as names, near-keywords and bad characters for mutating rules text.
_SOUP = (
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
    "@x",
    "..",
    "=",
    "effect",
    "bonus",
    "beside",
    "variant",
    "option",
    "include",
    '"x"',
    '"a\\"b"',
    "1",
    "-3",
    "kitchen",
    "when",
    "has",
    "every",
    "floor",
    "at",
    "uses",
    "end",
    "game",
    "board",
    "players",
    "deal",
    "rooms",
    "category",
    "outside",
    "award",
    "token",
    "roof_scoring",
    "columns",
    "under",
    "roof_pile",
    "and",
    "#c\n",
    "inlined",
    "children",
    "windows",
    "count5",
    "roomx",
    "before_take",
    "\t",
    "",
    ".",
    "$",
    "\\",
)


def errors_of(text: str, tmp_path: Path, name: str = "r.dh") -> list:
    path = tmp_path / name
    path.write_text(text)
    errors, _warnings = check_rules(path)
    return errors


def test_base_matches_the_manifest_totals(base):
    """COMP-1: 60 room cards and 48 resource cards, dealt 12 × 5 and 12 × 4."""
    assert sum(r.count for r in base.rooms) == 60 == base.game.rounds * base.game.deal_rooms
    resources = (
        sum(r.count for r in base.roofs)
        + sum(f.count for f in base.furnishings if f.is_card)
        + sum(c.count for c in base.helpers + base.tools)
    )
    assert resources == 48 == base.game.rounds * base.game.deal_resources
    assert sum(r.count for r in base.rooms if r.category == "basement") == 10
    assert not base.warnings


def test_base_rooms_follow_manifest_md(base):
    kitchen = base.room("kitchen")
    assert kitchen.points == (1, 6) and kitchen.max_size == 2 and kitchen.count == 7
    assert base.room("pantry").bonus == (3, "kitchen") and base.room("pantry").category == "annex"
    assert base.room("garage").points == (0, 4) and base.room("garage").floor_kind == "basement"
    assert base.room("childrens_room").children == 1
    assert base.furnishing("treehouse").outside and base.furnishing("piano").room == "living_room"


def test_board_graph(base):
    """COMP-2: 12 cells, beside and above edges, the roof pile under middle/0-2."""
    g = base.board.graph
    assert base.board.cells == tuple(f"top/{c}" for c in range(5)) + tuple(f"middle/{c}" for c in range(5)) + (
        "basement/3",
        "basement/4",
    )
    assert isinstance(g, nx.DiGraph)
    assert g.edges["top/1", "top/2"]["relation"] == "beside" and g.has_edge("top/2", "top/1")
    assert g.edges["top/3", "middle/3"]["relation"] == "above"
    assert g.edges["middle/3", "basement/3"]["relation"] == "above"
    assert g.edges["middle/0", "roof_pile"]["relation"] == "above"
    assert g.edges["basement/3", "ground"]["relation"] == "above"
    assert not g.has_edge("middle/4", "basement/3") and not g.has_edge("basement/4", "middle/4")
    b = base.board
    assert b.below[b.index["middle/0"]] == -1 and b.below[b.index["middle/3"]] == b.index["basement/3"]
    assert b.left[b.index["basement/3"]] == -1 and b.right[b.index["basement/3"]] == b.index["basement/4"]
    # The tables and the graph say the same, cell by cell (the graph is built from the tables).
    for i, name in enumerate(b.cells):
        beside = {b.index[v] for v in g.successors(name) if g.edges[name, v]["relation"] == "beside"}
        (under,) = [v for v in g.successors(name) if g.edges[name, v]["relation"] == "above"]
        assert beside == {j for j in (b.left[i], b.right[i]) if j >= 0}
        assert b.index.get(under, -1) == b.below[i]
        assert g.nodes[name]["column"] == b.cell_column[i] and g.nodes[name]["floor_index"] == b.cell_floor[i]


def test_compiling_the_rules_does_not_import_networkx():
    """The board's graph is built when first asked for: a command that never asks (max, score,
    a game) starts without networkx's import (about 0.1 s)."""
    code = "import sys; from dreamhome.dsl.compiler import compile_rules; compile_rules(); print('networkx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_ruleset_is_immutable(base):
    with pytest.raises(dataclasses.FrozenInstanceError):
        base.rooms = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        base.options["annex_adjacency"] = "orthogonal"  # type: ignore[index]


def test_provenance_lists_assumed_values(base):
    assumed = {(i, f) for i, f, _ in base.assumed_values()}
    assert ("living_room", "count") in assumed and ("study", "points") in assumed
    assert ("kitchen", "points") not in assumed
    assert base.provenance[("kitchen", "points")].provenance == "review"
    assert base.provenance[("piano", "points")].provenance == "rulebook"


def test_options_and_variants(base):
    assert dict(base.options) == {
        "round_discard": "on",
        "annex_adjacency": "horizontal",
        "swap_face_down": "allowed",
        "tiebreak": "children",
    }
    kids = compile_rules(variants=["kids"])
    assert kids.options["round_discard"] == "off"
    car = compile_rules(variants=["car"])
    token = car.furnishing("car")
    assert (token.room, token.points, token.award, token.is_card) == ("garage", 1, "first_complete", False)
    assert not base.has_furnishing("car")
    assert {"kids", "car", "orthogonal", "kitchen3", "handyman2"} <= set(base.variants_available)


def test_variant_files_apply_over_the_rules_in_use():
    rules = compile_rules(variants=["kitchen3", "car"])
    assert rules.room("kitchen").points == (1, 3, 6) and rules.has_furnishing("car")
    handy = compile_rules(variants=["handyman2"]).held("handyman").effect("swap")
    assert handy.uses == 2


def test_unknown_variant_lists_the_known_ones():
    with pytest.raises(RulesError) as info:
        compile_rules(variants=["cars"])
    message = str(info.value)
    assert "unknown variant 'cars'" in message and "did you mean 'car'" in message and "kids" in message


def test_override_file_changes_fields_only(tmp_path):
    (tmp_path / "k3.dh").write_text((DATA / "override_example.dh").read_text())
    rules = compile_rules(tmp_path / "k3.dh")
    kitchen = rules.room("kitchen")
    assert kitchen.points == (1, 3, 6) and kitchen.count == 7 and kitchen.category == "normal"
    assert rules.held("handyman").effect("swap").uses == 2
    assert rules.source.startswith('inlined "base.dh" {')
    assert rules.content_hash != compile_rules().content_hash
    # The inlined source compiles to the same rules with nothing else at hand.
    again = compile_rules(text=rules.source, name="inlined.dh")
    assert again.room("kitchen").points == (1, 3, 6) and again.content_hash == rules.content_hash


def test_include_by_absolute_path_only_on_request(tmp_path):
    (tmp_path / "a.dh").write_text(f'include "{BASE_RULES}"\nroom bathroom {{ count 9 points 1 }}\n')
    assert compile_rules(tmp_path / "a.dh", allow_absolute_includes=True).room("bathroom").points == (1,)
    with pytest.raises(RulesError, match=r"a.dh:1:1: error: cannot include .*--allow-absolute-includes"):
        compile_rules(tmp_path / "a.dh")


def test_static_errors_all_reported_with_positions(tmp_path):
    text = BASE_TEXT.replace("bonus 3 beside kitchen @printed", "bonus 3 beside kichen @printed")
    text = text.replace("points 1 4 9", "points 1 9 4")
    text = text.replace("effect scaffold", "effect scafold")
    text = text.replace("effect swap(house, track) before_take", "effect swap(house, track) befor_take")
    errors = errors_of(text, tmp_path)
    messages = [e.message for e in errors]
    assert any("unknown room 'kichen' (did you mean 'kitchen'?)" in m for m in messages)
    assert any("points must not fall as a room grows (4 after 9)" in m for m in messages)
    assert any("unknown effect 'scafold'" in m and "did you mean 'scaffold'" in m for m in messages)
    assert any("unknown flag 'befor_take'" in m and "did you mean 'before_take'" in m for m in messages)
    lines = text.split("\n")
    for e in errors:
        assert e.file.endswith("r.dh") and e.line > 0 and e.column > 0
        assert e.source_line == lines[e.line - 1]
    kichen = next(e for e in errors if "kichen" in e.message)
    assert lines[kichen.line - 1][kichen.column - 1 :].startswith("kichen")


def test_duplicate_ids_in_one_file(tmp_path):
    text = BASE_TEXT + '\nroom kitchen "Kitchen again" { category normal points 1 count 0 }\n'
    errors = errors_of(text, tmp_path)
    assert any("'kitchen' is declared twice in this file" in e.message for e in errors)


def test_one_namespace_across_kinds(tmp_path):
    text = f'include "{BASE_INCLUDE}"\nroof kitchen {{ count 0 }}\n'
    errors = errors_of(text, tmp_path)
    assert any("'kitchen' is already a room" in e.message for e in errors)


def test_deck_totals(tmp_path):
    short = errors_of(
        BASE_TEXT.replace(
            "count 9 @assumed\n  children 0 @assumed\n}\n\nroom bedroom",
            "count 8 @assumed\n  children 0 @assumed\n}\n\nroom bedroom",
        ),
        tmp_path,
    )
    assert any("room cards: 59, fewer than the game deals: 12 × 5 = 60" in e.message for e in short)
    long_text = f'include "{BASE_INCLUDE}"\nroom bathroom {{ count 10 }}\n'
    (tmp_path / "long.dh").write_text(long_text)
    errors, warnings = check_rules(tmp_path / "long.dh")
    assert not errors
    assert any("room cards: 61, the game deals 12 × 5 = 60" in w.message for w in warnings)
    assert compile_rules(tmp_path / "long.dh").room("bathroom").count == 10


def test_unknown_option_and_value(tmp_path):
    errors = errors_of(f'include "{BASE_INCLUDE}"\noption annex_adjacenc = orthogonal\noption tiebreak = coin\n', tmp_path)
    messages = " | ".join(e.message for e in errors)
    assert "unknown option 'annex_adjacenc'" in messages and "did you mean 'annex_adjacency'" in messages
    assert "option tiebreak cannot be 'coin'; expected one of children, none" in messages


def test_include_cycle_and_missing_include(tmp_path):
    (tmp_path / "a.dh").write_text('include "b.dh"\n')
    (tmp_path / "b.dh").write_text('include "a.dh"\n')
    errors, _ = check_rules(tmp_path / "a.dh")
    assert any("include cycle: a.dh → b.dh → a.dh" in e.message for e in errors)
    (tmp_path / "c.dh").write_text('\n  include "nowhere.dh"\n')
    errors, _ = check_rules(tmp_path / "c.dh")
    assert errors[0].message.startswith("cannot find included file 'nowhere.dh'")
    assert (errors[0].line, errors[0].column) == (2, 3)


def test_missing_fields_and_fields_in_the_wrong_place(tmp_path):
    text = f'include "{BASE_INCLUDE}"\nroom attic "Attic" {{ category normal count 0 windows 1 }}\n'
    messages = [e.message for e in errors_of(text, tmp_path)]
    assert any("'attic' has no 'points'" in m for m in messages)
    assert any("'windows' does not belong in a room" in m for m in messages)


def test_example_fragment_compile_errors():
    """The full language example (tests/data/dsl_example.dh) parses but does not compile (undeclared rooms, short decks)."""
    errors, _ = check_rules(DATA / "dsl_example.dh")
    messages = [e.message for e in errors]
    assert "unknown room 'kitchen'" in messages and "unknown room 'bathroom'" in messages
    assert any(m.startswith("room cards: 21, fewer than") for m in messages)
    assert any(m.startswith("resource cards: 22, fewer than") for m in messages)


def test_errors_in_variants_are_found_by_rules_check(tmp_path):
    text = BASE_TEXT.replace('token car "Car" { room garage', 'token car "Car" { room garag')
    errors = errors_of(text, tmp_path)
    assert any("unknown room 'garag' (did you mean 'garage'?)" in e.message for e in errors)


def test_unreadable_rules_file(tmp_path):
    with pytest.raises(RulesError) as info:
        compile_rules(tmp_path / "missing.dh")
    assert "cannot read rules file" in str(info.value)


# ---- large files: one reader, linearity, overrides ------------------


def _rules_files() -> list[Path]:
    root = BASE_RULES.parent.parent.parent
    return sorted(p for p in root.rglob("*.dh") if ".git" not in p.parts)


_DECLARATION = re.compile(r"^\s*(room|roof|furnishing|helper|tool|token|bonus|game)\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)


def _decls(items) -> list[Decl]:
    """Every declaration of a parsed file, variants' and inlined files' included, in text order."""
    out: list[Decl] = []
    for item in items:
        if isinstance(item, Decl):
            out.append(item)
        elif hasattr(item, "items"):
            out += _decls(item.items)
    return out


@pytest.mark.parametrize("path", _rules_files(), ids=lambda p: p.name)
def test_lark_reads_every_rules_file_of_the_project(path):
    """Issue 20.1: Lark is the one reader. Every declaration a line of the file opens (found by a
    regular expression, not by the parser) is in the AST with its kind, id and line."""
    text = path.read_text()
    decls = [(d.kind, d.id, d.pos.line) for d in _decls(RulesParser().parse(text, path.name).items) if d.id]
    lines = text.split("\n")
    expected = []
    for m in _DECLARATION.finditer(text):
        line = text.count("\n", 0, m.start(1)) + 1
        if "{" in lines[line - 1] or lines[line - 1].rstrip().endswith('"'):
            expected.append((m.group(1), m.group(2), line))
    assert [e for e in decls if e in set(expected)] == expected


@given(st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(_SOUP), st.booleans()), min_size=1, max_size=4))
def test_mutated_rules_text_reads_or_fails_with_positions(edits):
    """On base.dh with tokens replaced or inserted, the reader either builds an AST whose every
    declaration lies inside the text, or fails with diagnostics that do (never another exception)."""
    words = re.split(r"(\s+)", BASE_TEXT)
    for at, word, insert in edits:
        i = at % len(words)
        words[i : i + (0 if insert else 1)] = [word, " "] if insert else [word]
    text = "".join(words)
    lines = text.count("\n") + 1
    try:
        items = RulesParser().parse(text, "m.dh").items
    except RulesError as exc:
        assert exc.diagnostics and all(1 <= d.line <= lines + 1 and d.file == "m.dh" for d in exc.diagnostics)
        return
    assert all(1 <= d.pos.line <= lines for d in _decls(items))


def _big_rules(tmp_path: Path, rooms: int) -> Path:
    """`include "base.dh"`, then `rooms` new room types with points tables, a
    furnishing and a bonus for every fifth, and a second file overriding every
    third room's points: about 1.5 declarations per room."""
    new = []
    for i in range(rooms):
        new.append(
            f'room r{i} "Room {i}" {{\n  category {"basement" if i % 7 == 0 else "normal"}\n  points 1 {i % 5 + 1}\n  count 1\n}}'
        )
        if i % 5 == 0:
            new.append(f"furnishing f{i} {{ room r{i}  points 2  count 1 }}")
            new.append(f"bonus b{i} {{\n  points 2\n  when has r{i} and every upper floor has kitchen\n}}")
    (tmp_path / "a.dh").write_text(f'include "{BASE_INCLUDE}"\n' + "\n".join(new) + "\n")
    overrides = [f"room r{i} {{ points 2 {i % 5 + 2} @review }}" for i in range(0, rooms, 3)]
    (tmp_path / "b.dh").write_text('include "a.dh"\n' + "\n".join(overrides) + "\n")
    return tmp_path / "b.dh"


def test_large_file_compiles_with_overrides_last_wins(tmp_path, base):
    rules = compile_rules(_big_rules(tmp_path, 3000))
    assert len(rules.rooms) == len(base.rooms) + 3000
    assert rules.room("r3").points == (2, 5) and rules.room("r4").points == (1, 5)
    assert rules.provenance[("r3", "points")].provenance == "review" and rules.room("r3").count == 1
    assert rules.room("r7").floor_kind == "basement" and rules.furnishing("f10").room == "r10"
    assert len(rules.bonuses) == len(base.bonuses) + 600
    assert [r.index for r in rules.rooms] == list(range(len(rules.rooms)))
    assert any("room cards" in w.message for w in rules.warnings)


def test_a_valid_large_file_is_parsed_once_a_file(tmp_path, monkeypatch):
    """Issue 20.1: Lark alone reads the language, each file once (no second reader, no re-parse
    of a valid file): the stack base.dh ← a.dh ← b.dh is three parses."""
    lark = parser_module._lark()
    calls: list[int] = []
    real = lark.parse
    monkeypatch.setattr(lark, "parse", lambda text, *a, **k: calls.append(len(text)) or real(text, *a, **k))
    compile_rules(_big_rules(tmp_path, 500))
    assert sorted(calls) == sorted(len(p.read_text()) for p in (BASE_RULES, tmp_path / "a.dh", tmp_path / "b.dh"))


def _calls_to_compile(path: Path) -> int:
    """Python function calls (and calls into C) made compiling `path`: a count of work, not a timing."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(count)
    try:
        compile_rules(path)
    except RulesError:
        pass
    finally:
        sys.setprofile(None)
    return calls


def _broken_rules(tmp_path: Path, n: int) -> Path:
    """`n` declarations of which half are errors: ids declared twice, rooms that do not exist."""
    lines = [f'include "{BASE_INCLUDE}"']
    for i in range(n):
        kind = i % 4
        if kind == 0:
            lines.append(f"room r{i} {{ category normal points 1 2 count 1 }}")
        elif kind == 1:
            lines.append(f"room r{i - 1} {{ points 1 3 }}")  # declared twice in this file
        elif kind == 2:
            lines.append(f"furnishing f{i} {{ room q{i}  points 1  count 1 }}")  # unknown room, a did-you-mean each
        else:
            lines.append(f"bonus b{i} {{ points 2  when has r{i - 3} and has kitchen }}")
    path = tmp_path / f"broken{n}.dh"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("make", [_big_rules, _broken_rules], ids=["valid", "half errors"])
def test_compile_work_grows_linearly_with_the_file(tmp_path, make):
    """Four times the declarations cost at most about four times the calls (no timing):
    a quadratic step (a diagnostic compared with every earlier one, a hint scanning
    every room id per error, a per-declaration rescan) shows up here as a ratio near 16."""
    (tmp_path / "small").mkdir()
    (tmp_path / "large").mkdir()
    small = _calls_to_compile(make(tmp_path / "small", 400))
    large = _calls_to_compile(make(tmp_path / "large", 1600))
    assert large / small < 4.6, (small, large)


def test_did_you_mean_hints_stop_after_twenty_misspelt_rooms(tmp_path):
    """Each hint compares one name with every room id: hinting thousands would make
    compiling quadratic, so only the first 20 distinct misspellings get one."""
    lines = [f'include "{BASE_INCLUDE}"'] + [f"furnishing f{i} {{ room kitchn{i}  points 1  count 1 }}" for i in range(30)]
    messages = [e.message for e in errors_of("\n".join(lines) + "\n", tmp_path) if "unknown room" in e.message]
    assert len(messages) == 30
    assert all("did you mean 'kitchen'" in m for m in messages[:20])
    assert not any("did you mean" in m for m in messages[20:])


def test_round_discard_player_counts_come_from_the_rules(base, tmp_path):
    """ROUND-1: the player counts that discard a column after the deal are a `game` field."""
    assert [base.game.discards_at_round_start(n) for n in (2, 3, 4)] == [True, True, False]
    wider = compile_rules(text='include "base.dh"\ngame dream_home { discard players 2..4 }\n', name="w.dh")
    assert wider.game.discards_at_round_start(4)
    errors = errors_of('include "base.dh"\ngame dream_home { discard players 3..2 }\n', tmp_path)
    assert any("discard players 3..2" in e.message and e.line == 2 for e in errors)


def test_roof_colours_for_pictures_come_from_the_rules(base, tmp_path):
    """Pictures draw each roof colour as its rules file says; an undrawn colour is grey."""
    assert [r.colour for r in base.roofs] == ["#d9534f", "#4a7bd0", "#4caf50", "#e6c229"]
    extra = compile_rules(text='include "base.dh"\nroof purple "Purple" { count 1 }\n', name="p.dh")
    assert extra.roof("purple").colour == "#9e9e9e"
    errors = errors_of('include "base.dh"\nroof red { colour "red" }\n', tmp_path)
    assert any("#rrggbb" in e.message for e in errors)


# ---- inputs you can trust: escapes, numbers, BOM, variants twice, includes ----------------------


@pytest.mark.parametrize(
    ("literal", "column"), [(r'"Kit\x4zhen"', 18), (r'"a\N{nope}"', 16), (r'"ab\u12"', 17), (r'"\U0011ffff"', 15)]
)
def test_a_bad_string_escape_is_one_line_at_the_escape(tmp_path, literal, column):
    text = f'include "{BASE_INCLUDE}"\n\nroom kitchen {literal} {{ points 1 6 }}\n'
    with pytest.raises(RulesError) as info:
        RulesParser().parse(text, "s.dh")
    (diag,) = info.value.diagnostics
    assert (diag.line, diag.column) == (3, column) and "bad escape" in diag.message
    assert "\n" not in diag.one_line()
    errors = errors_of(text, tmp_path)
    assert len(errors) == 1 and errors[0].one_line().startswith(f"{tmp_path / 'r.dh'}:3:{column}: error: bad escape")


@pytest.mark.parametrize(
    "line",
    [
        "room kitchen { points 1 10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 }",
        "room kitchen { points 1 1000001 }",
        "room kitchen { count -2000000 }",
        "helper handyman { effect swap(house, house) at end uses 99999999 }",
        "game dream_home { rounds 10000000 }",
        "roof_scoring { size 4  uniform 80000000  mixed 3  window 1 }",
        "option tiebreak = 12345678",
        "room kitchen { points 1 " + "9" * 5000 + " }",
    ],
)
def test_numbers_beyond_the_bound_are_refused_by_the_compiler(tmp_path, line):
    errors = errors_of(f'include "{BASE_INCLUDE}"\n{line}\n', tmp_path)
    assert errors and "out of range (at most 1,000,000" in errors[0].message and errors[0].line == 2


def test_a_large_number_reaches_the_solver_no_more(tmp_path):
    path = tmp_path / "big.dh"
    path.write_text(f'include "{BASE_INCLUDE}"\nroom kitchen {{ points 1 {10**100} }}\n')
    from tests.helpers.cli import run_here

    proc = run_here("--rules", path, "max", "--time-limit", "5")
    assert proc.returncode == 2 and "big.dh:2:" in proc.stderr and "MODEL_INVALID" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_a_utf8_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.dh"
    path.write_bytes(b"\xef\xbb\xbf" + f'include "{BASE_INCLUDE}"\nroom kitchen {{ points 1 3 }}\n'.encode())
    assert compile_rules(path).room("kitchen").points == (1, 3)
    assert RulesParser().parse("\ufeffoption tiebreak = coin\n", "b.dh").items


def test_a_variant_declared_twice_is_an_error_at_the_second(tmp_path):
    text = f'include "{BASE_INCLUDE}"\nvariant v {{ option round_discard = off }}\n\nvariant v {{ option tiebreak = coin }}\n'
    errors = errors_of(text, tmp_path)
    assert [(e.line, e.column) for e in errors] == [(4, 1)] and "declared twice" in errors[0].message


@pytest.mark.parametrize(
    ("target", "needle"),
    [
        ("/proc/self/environ", "only rules files (.dh)"),
        ("/etc/passwd", "only rules files (.dh)"),
        ("notes.txt", "only rules files (.dh)"),
        ("/nonexistent/abs.dh", "--allow-absolute-includes"),
    ],
)
def test_include_reads_only_rules_files(tmp_path, target, needle, monkeypatch):
    monkeypatch.setenv("DREAMHOME_SECRET_FOR_TEST", "s3cr3t-value")
    (tmp_path / "notes.txt").write_text("s3cr3t-value\n")
    errors = errors_of(f'include "{target}"\n', tmp_path)
    assert errors and needle in errors[0].message
    assert all("s3cr3t" not in e.long() for e in errors)


def test_rules_check_on_an_environ_include_does_not_print_the_environment(tmp_path):
    from tests.helpers.cli import run_here

    (tmp_path / "e.dh").write_text('include "/proc/self/environ"\n')
    proc = run_here("rules", "check", tmp_path / "e.dh")
    assert proc.returncode == 2 and "PATH=" not in proc.stderr + proc.stdout and "HOME=" not in proc.stderr + proc.stdout


def test_the_absolute_include_flag(tmp_path):
    from tests.helpers.cli import run_here

    (tmp_path / "a.dh").write_text(f'include "{BASE_RULES}"\nroom bathroom {{ count 9 points 1 }}\n')
    assert run_here("rules", "check", tmp_path / "a.dh").returncode == 2
    assert run_here("--allow-absolute-includes", "rules", "check", tmp_path / "a.dh").returncode == 0
    assert run_here("--allow-absolute-includes", "--rules", tmp_path / "a.dh", "rules", "show").returncode == 0


def test_a_symlinked_rules_file_to_a_secret_shows_at_most_one_capped_line(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("x" * 5000 + " 3cr3t\nsecond-line-secret\n")
    (tmp_path / "s.dh").symlink_to(secret)
    errors = errors_of('include "s.dh"\n', tmp_path)
    assert errors
    for e in errors:  # each diagnostic quotes one line at most, cut to 200 characters around its column
        shown = e.long().split("\n")
        assert len(shown) <= 3 and all(len(line) < 260 for line in shown)
        assert "x" * 300 not in e.long()


def test_replay_follows_no_include(tmp_path):
    import json

    from dreamhome.errors import DreamhomeError
    from dreamhome.game.record import replay_record, write_record
    from dreamhome.players.playing import play_game

    base = compile_rules()
    result = play_game(base, 2, ["random", "random"], 1, None)
    path = tmp_path / "g.json"
    write_record(result, path)
    data = json.loads(path.read_text())
    data["rules"]["source"] = 'include "base.dh"\n'
    with pytest.raises(DreamhomeError, match="includes are not followed here"):
        replay_record(data, "g.json")


def test_found_by_the_hostile_benchmark(tmp_path):
    """Cases benchmarks/bench_hostile.py found: each one line, no exception but RulesError."""
    cases = {
        'include "' + "a" * 5000 + '.dh"\n': "cannot find included file",
        'include "a\x00b.dh"\n': "cannot hold the character",
        'room kitchen "Kit\x00chen" { points 1 }\n': "cannot hold the character",
        "room kitchen { points 1 " + "9" * 5000 + " }\n": "out of range",
    }
    for text, needle in cases.items():
        with pytest.raises(RulesError) as info:
            compile_rules(text=text, name="x.dh")
        assert needle in info.value.diagnostics[0].message
        assert all("\n" not in d.one_line() and len(d.one_line()) < 400 for d in info.value.diagnostics)
