"""Issue 21, the rules language's edges: names are text, repeats are errors, a tool that can never
act is warned about, diagnostics point at the user's file, variant names are names, rules files
are read once and must be regular files, column ranges are capped, and the README's example does
what its comment says (docs/language.md; docs/rules.md TOOL-TIMING, ROUND-6, COMP-2)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from dreamhome.dsl.compiler import BASE_RULES, RULES_DIR, check_rules, compile_rules
from dreamhome.errors import RulesError
from dreamhome.house import load_house
from dreamhome.render.house_svg import house_svg
from dreamhome.render.rules_report import rules_tables
from tests.helpers.cli import run_here
from tests.helpers.paths import EXAMPLES

EXAMPLE = EXAMPLES / "rulebook_example.json"  # a house with kitchens in it
HEAD = 'include "base.dh"\n'


def errors_of(text: str, tmp_path: Path, name: str = "r.dh"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        compile_rules(path)
    return info.value.diagnostics


def escaped(text: str) -> str:
    """`text` as a rules-file string literal: every character outside printable ASCII as a
    \\u or \\U escape, so any text (controls and surrogates included) can be written in a file."""
    out = []
    for char in text:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= code < 0x7F:
            out.append(char)
        else:
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
    return "".join(out)


# ---- names are text --------------------------------------------------------------------------

BAD_CHARACTERS = {
    "NUL": "\x00",
    "ESC (the issue's OSC title)": "\x1b]0;x\x07",
    "BEL": "\x07",
    "tab": "\t",
    "newline": "\n",
    "DEL": "\x7f",
    "C1 NEL": "\x85",
    "C1 CSI": "\x9b",
    "bidi override": "\u202e",
    "bidi isolate": "\u2066",
    "left-to-right mark": "\u200e",
    "lone high surrogate": "\ud800",
    "lone low surrogate": "\udfff",
    "noncharacter": "\ufffe",
}


@pytest.mark.parametrize("char", BAD_CHARACTERS.values(), ids=BAD_CHARACTERS.keys())
@pytest.mark.parametrize("form", ["display", "translated"])
def test_a_name_with_a_control_character_is_refused_at_its_line(tmp_path, char, form):
    name = escaped("Kit" + char + "chen")
    line = f'room kitchen "{name}" {{ points 1 6 }}' if form == "display" else f'room kitchen {{ name ru "{name}" }}'
    diags = errors_of(HEAD + "\n" + line + "\n", tmp_path)
    assert [(d.file, d.line) for d in diags] == [(str(tmp_path / "r.dh"), 3)]
    assert diags[0].column >= 1 and "a name cannot hold" in diags[0].message
    assert f"U+{ord(char[0]):04X}" in diags[0].message


def test_a_variant_or_bonus_name_is_checked_too(tmp_path):
    diags = errors_of(
        HEAD + 'variant v "V\\x1b[31m" { option tiebreak = none }\nbonus b "B\\x00" { points 1 when has kitchen }\n', tmp_path
    )
    assert sorted(d.line for d in diags) == [2, 3] and all("a name cannot hold" in d.message for d in diags)


_NOT_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
NAMES = st.text(st.characters(codec=None, exclude_characters="\x00"), min_size=1, max_size=12) | st.sampled_from(
    ["[bold]K[/bold]", "[link=https://x.example]K[/link]", "<K>&amp;", "]]>", "K\x00", "K\x1b[2J"]
)


@pytest.mark.slow
@settings(max_examples=40)
@given(NAMES)
def test_any_name_is_refused_or_drawn_as_written(name):
    """Every name either is refused at its line (when it holds a character that is not text) or
    is accepted, and then the SVG is well-formed XML holding it as written, `rules show` prints it
    literally (no rich markup read) and the terminal picture has no escape character."""
    text = HEAD + f'room kitchen "{escaped(name)}" {{ name ru "{escaped(name)}" }}\n'
    try:
        rules = compile_rules(text=text, name="n.dh")
    except RulesError as exc:
        assert _NOT_TEXT.search(name) or not name.strip(), exc
        assert {d.line for d in exc.diagnostics} == {2}
        return
    assert not _NOT_TEXT.search(name)
    house = load_house(rules, str(EXAMPLE))
    for lang in ("en", "ru"):
        root = ET.fromstring(house_svg(rules, house, lang=lang))  # raises on XML that is not well-formed
        assert name in ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    console = Console(record=True, width=400, color_system=None)
    for table in rules_tables(rules):
        console.print(table)
    shown = console.export_text()
    if name.strip() and "\n" not in name:
        assert name.strip() in shown
    assert "\x1b" not in shown


def test_rules_show_and_score_print_a_markup_name_as_written(tmp_path):
    """Issue 21: `rules show` read rich markup in a name (an OSC-8 link); `score` printed escapes."""
    path = tmp_path / "m.dh"
    path.write_text(HEAD + 'room kitchen "[link=https://x.example]K[/link] [bold]2[/bold]" { }\n', encoding="utf-8")
    shown = run_here("--rules", path, "rules", "show")
    assert shown.returncode == 0 and "[link=https://x.example]K[/link] [bold]2[/bold]" in shown.stdout
    scored = run_here("--rules", path, "score", EXAMPLE)
    assert scored.returncode == 0 and "[bold]2[/bold]" in scored.stdout and "\x1b" not in scored.stdout
    issue = tmp_path / "osc.dh"
    issue.write_text(HEAD + 'room kitchen { name ru "\\u001b]0;x\\u0007" }\n', encoding="utf-8")
    refused = run_here("--rules", issue, "--lang", "ru", "score", EXAMPLE)
    assert refused.returncode == 2 and "osc.dh:2:" in refused.stderr and "\x1b" not in refused.stderr + refused.stdout


# ---- repeats are errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "word", "at"),
    [
        ("tool drill { effect swap(house, track) before_take uses 2 uses 3 }", "'uses' is given twice", "3"),
        (
            "tool jackhammer { effect take_room(track) at round_start skip_turn skip_turn }",
            "'skip_turn' is given twice",
            "skip_turn",
        ),
        (
            "tool drill { effect swap(house, track) at round_start at round_start }",
            "'at round_start' is given twice",
            "round_start",
        ),
        ("helper architect { effect score(bonus_plus 1, bonus_plus 2) }", "given 'bonus_plus' twice", "effect"),
        ("bonus full_service { when has kitchen and has kitchen }", "'has kitchen' is given twice", "kitchen"),
        ('room kitchen { colour "#000000" colour "#111111" }', "'colour' is given twice", "colour"),
        ("room kitchen { count 1 count 2 }", "'count' is given twice", "count"),
        ('room kitchen { name ru "a" name ru "b" }', "given twice", "name"),
    ],
)
def test_a_repeat_is_an_error_at_the_second_writing(tmp_path, line, word, at):
    """A repeat is refused as a doubled field is, at its second writing (`at`'s last occurrence;
    an effect's argument at the effect)."""
    column = (line.index(at) if at == "effect" else line.rindex(at)) + 1
    diags = errors_of(HEAD + line + "\n", tmp_path)
    assert any(word in d.message and (d.line, d.column) == (2, column) for d in diags), [d.one_line() for d in diags]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("option tiebreak = none\noption tiebreak = children\n", 3, "option 'tiebreak' is set twice in this file"),
        ("variant v { option tiebreak = none  option tiebreak = children }\n", 2, "set twice in variant 'v'"),
        (
            "variant v {\n  room kitchen { points 1 6 }\n  room kitchen { count 2 }\n}\n",
            4,
            "'kitchen' is declared twice in variant 'v'",
        ),
    ],
)
def test_an_option_or_a_variant_declaration_twice_is_an_error(tmp_path, text, line, words):
    diags = errors_of(HEAD + text, tmp_path)
    assert any(words in d.message and d.line == line for d in diags), [d.one_line() for d in diags]


def test_distinct_words_are_no_repeat(tmp_path):
    rules = compile_rules(
        text=HEAD + "helper architect { effect score(bonus_plus 1, empty_room 1) }\n"
        "bonus full_service { when has kitchen and every upper floor has kitchen }\n",
        name="ok.dh",
    )
    assert rules.held("architect").effects[0].amount("bonus_plus") == 1


# ---- a tool that can never act ------------------------------------------------------------------


def test_a_round_start_take_without_skip_turn_on_a_full_board_warns(tmp_path):
    """TOOL-TIMING, ROUND-6: base.dh's board has 12 spaces for 12 rounds, each filled by a round's
    own take; a take_room at round_start without skip_turn would need a 13th: it can never act."""
    line = "tool jackhammer { effect take_room(track) at round_start }"
    errors, warnings = check_rules(text=HEAD + line + "\n", name="j.dh")
    assert not errors
    (warning,) = [w for w in warnings if "can never act" in w.message]
    assert (warning.file, warning.line, warning.column) == ("j.dh", 2, line.index("effect") + 1)


def test_the_take_acts_with_skip_turn_or_a_spare_space(tmp_path):
    with_skip = check_rules(text=HEAD + "tool jackhammer { effect take_room(track) at round_start skip_turn }\n", name="s.dh")
    assert not with_skip[0] and not any("can never act" in w.message for w in with_skip[1])
    fewer_rounds = HEAD + "game dream_home { rounds 11 }\ntool jackhammer { effect take_room(track) at round_start }\n"
    errors, warnings = check_rules(text=fewer_rounds, name="f.dh")
    assert not any("can never act" in d.message for d in errors + warnings)


def test_a_round_start_take_on_a_track_the_turns_empty_warns():
    """TOOL-TIMING, ROUND-1: 3 players discard a column of 4, 4 players take all 4: at every player
    count each room card on the track is some turn's take, so an extra take can never act."""
    game = "game dream_home { players 3..4  rounds 11  deal rooms 4 resources 3  discard players 3..3 }\n"
    tool = "tool jackhammer { effect take_room(track) at round_start }\n"
    errors, warnings = check_rules(text=HEAD + game + tool, name="t.dh")
    assert not errors, [e.one_line() for e in errors]
    idle = [w for w in warnings if "can never act" in w.message]
    assert len(idle) == 1 and idle[0].line == 3 and "no more room cards than turns" in idle[0].message
    # Without the discard (VAR-NODISCARD) 3 players leave a card spare: the take can act.
    errors, warnings = check_rules(text=HEAD + game + tool + "option round_discard = off\n", name="t.dh")
    assert not errors and not any("can never act" in w.message for w in warnings)


@pytest.mark.parametrize("path", [BASE_RULES, *sorted((RULES_DIR / "variants").glob("*.dh"))], ids=lambda p: p.name)
def test_no_packaged_rules_file_has_an_idle_tool(path):
    errors, warnings = check_rules(path)
    assert not errors and not any("can never act" in w.message for w in warnings)


# ---- diagnostics point at the user's file --------------------------------------------------------


def test_problems_caused_in_base_dh_point_at_the_users_include_line(tmp_path):
    """A board without normal floors makes base.dh's rooms unplaceable: each diagnostic is at the
    user's `include` line (the user cannot edit base.dh), naming base.dh's line in the message."""
    text = HEAD + "board {\n  floor top upper columns 0..3\n  floor ground basement columns 0..3\n}\n"
    diags = errors_of(text, tmp_path, "mine.dh")
    assert diags and all(d.file == str(tmp_path / "mine.dh") for d in diags), [d.one_line() for d in diags]
    assert any(d.line == 1 and "(in base.dh:" in d.message for d in diags)
    errors, warnings = check_rules(tmp_path / "mine.dh")
    assert all(d.file == str(tmp_path / "mine.dh") for d in errors + warnings)


def test_the_packaged_rules_compiled_alone_keep_their_positions():
    errors, warnings = check_rules(
        text=BASE_RULES.read_text() + "\ntool t { count 1 effect take_room(track) at round_start }\n", name=str(BASE_RULES)
    )
    assert [w.file for w in warnings if "can never act" in w.message] == [str(BASE_RULES)]


def test_an_unknown_variant_has_no_made_up_position():
    proc = run_here("--variant", "kidz", "rules", "show")
    assert proc.returncode == 2 and "unknown variant 'kidz'" in proc.stderr and "did you mean 'kids'" in proc.stderr
    assert "base.dh" not in proc.stderr and ":0:0" not in proc.stderr
    with pytest.raises(RulesError) as info:
        compile_rules(variants=["kidz"])
    assert info.value.diagnostics[0].one_line().startswith("error: unknown variant 'kidz'")


# ---- variant names are names, not paths ------------------------------------------------------------


@pytest.mark.parametrize("name", ["../base", "..", "../../rules/base", "/etc/passwd", "variants/kids", "kids.dh", "", "kids\x00"])
def test_a_variant_name_used_as_a_path_is_refused(name):
    with pytest.raises(RulesError) as info:
        compile_rules(variants=[name])
    assert "is not a variant name" in info.value.diagnostics[0].message


@pytest.mark.slow
@given(st.text(min_size=1, max_size=20).filter(lambda s: not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", s)))
def test_only_names_name_variants(name):
    with pytest.raises(RulesError) as info:
        compile_rules(variants=[name])
    assert "is not a variant name" in info.value.diagnostics[0].message


def test_the_command_line_refuses_a_variant_path():
    proc = run_here("--variant", "../base", "rules", "show")
    assert proc.returncode == 2 and "is not a variant name" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


# ---- rules files are read once, and only regular files --------------------------------------------


def test_a_fifo_is_refused_in_one_line_without_hanging(tmp_path):
    fifo = tmp_path / "rules.dh"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: _write_fifo(fifo), daemon=True)
    writer.start()
    start = time.monotonic()
    proc = run_here("rules", "check", fifo)
    assert proc.returncode == 2 and "not a regular file" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    with pytest.raises(RulesError) as info:  # no writer now: must not block either
        compile_rules(fifo)
    assert "not a regular file" in info.value.diagnostics[0].message
    assert time.monotonic() - start < 30


def _write_fifo(path: Path) -> None:
    """A writer for the FIFO (as `<(cat f.dh)` has), opened without blocking for ever."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            time.sleep(0.05)
            continue
        try:
            os.write(fd, HEAD.encode())
        except OSError:
            pass
        os.close(fd)
        return


def test_process_substitution_is_refused_not_read_twice(tmp_path):
    """`rules check <(cat f.dh)`: bash hands over /dev/fd/N, a pipe."""
    path = tmp_path / "f.dh"
    path.write_text(HEAD)
    proc = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m dreamhome rules check <(cat "{path}")'],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parent.parent,
        env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"},
    )
    assert proc.returncode == 2 and "not a regular file" in proc.stderr and "Traceback" not in proc.stderr
    assert "base rules" not in proc.stderr


def test_a_regular_file_over_the_size_cap_is_refused(tmp_path, monkeypatch):
    from dreamhome.fileio import MAX_BYTES_ENV

    path = tmp_path / "big.dh"
    path.write_text(HEAD + "#" * 500 + "\n")
    monkeypatch.setenv(MAX_BYTES_ENV, "100")
    with pytest.raises(RulesError) as info:
        compile_rules(path)
    assert "larger than 100 bytes" in info.value.diagnostics[0].message


def test_a_device_is_refused():
    with pytest.raises(RulesError) as info:
        compile_rules("/dev/zero")
    assert "not a regular file" in info.value.diagnostics[0].message


def test_a_rules_file_is_opened_once(tmp_path, monkeypatch):
    """Each rules file is opened once per compile (no check-then-read that a pipe cannot survive)."""
    path = tmp_path / "once.dh"
    path.write_text(HEAD + "room kitchen { points 1 6 9 }\n")
    opened: list[str] = []
    real = os.open
    monkeypatch.setattr(os, "open", lambda p, *a, **k: opened.append(os.fspath(p)) or real(p, *a, **k))
    compile_rules(path)
    assert opened.count(str(path)) == 1


# ---- huge ranges ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("floor top upper columns 100..4", "columns 100..4 is not a range"),
        ("floor top upper columns 0..1000000", "more than a house can hold: at most 1,000 spaces"),
        ("floor top upper columns -5..3", "is not a range"),
        ("roof_pile under ground columns 100..4", "columns 100..4 is not a range"),
        ("roof_pile under ground columns 0..999999", "more than a house can hold: at most"),
    ],
)
def test_a_huge_or_reversed_column_range_is_one_error_at_its_line(tmp_path, line, words):
    """COMP-2: a range is LO..HI from 0 up and no wider than a board may be, refused at its line
    before any column is made (`columns 100..4` once exhausted memory)."""
    text = HEAD + "board {\n  floor ground upper columns 0..4\n  " + line + "\n}\n"
    start = time.monotonic()
    diags = errors_of(text, tmp_path)
    assert any(words in d.message and d.line == 4 for d in diags), [d.one_line() for d in diags]
    assert time.monotonic() - start < 5


# ---- the README's example ----------------------------------------------------------------------------


def test_the_readme_example_grows_kitchens_without_lowering_one():
    """README: `room kitchen { points … }  # kitchens may grow to 3 cards`. The table must allow
    3 cards and give every size the base game allows at least its base points (it lowered a
    two-card kitchen from 6 to 3 before: -0.9 a game in a what-if)."""
    line = next(x for x in (EXAMPLES / "my_rules.dh").read_text().splitlines() if x.startswith("room kitchen"))
    assert "grow to 3 cards" in line
    base, mine = compile_rules().room("kitchen").points, compile_rules(EXAMPLES / "my_rules.dh").room("kitchen").points
    assert len(mine) == 3 and all(m >= b for m, b in zip(mine, base)) and mine[2] > mine[1]
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert line in readme


@pytest.mark.parametrize(
    "line, words",
    [
        ('helper architect "Architect" { count 2 effect score(bonus_plus -1, empty_room 1) }', "score(bonus_plus -1)"),
        ('helper architect "Architect" { count 2 effect score(bonus_plus 1, empty_room -2) }', "score(empty_room -2)"),
        ("roof_scoring { size 4 uniform 8 mixed 3 window -1 }", "'window' cannot be negative"),
        ("roof_scoring { size 4 uniform -8 mixed 3 window 1 }", "'uniform' cannot be negative"),
    ],
)
def test_a_negative_amount_is_refused_at_its_line(tmp_path, line, words):
    """HELP-ARCHITECT, HELP-DESIGNER, SCORE-ROOF: amounts are like points, never negative — the
    solvers bound each from above and the roof's closed form takes every window it can, so a
    penalty would be read differently by different answers; it is refused, not half-honoured."""
    diagnostics = errors_of(HEAD + line + "\n", tmp_path)
    assert len(diagnostics) == 1
    assert words in diagnostics[0].message and diagnostics[0].line == 2


@pytest.mark.parametrize("title", ["a\x1b]0;x\x07b", "a\u202eb", "\x9b31m", "a\tb"])
def test_a_render_title_is_plain_text_too(tmp_path, title):
    """Issue 21 (names are text), the command line's own text: `render --title` with a control or
    bidi character is refused in one line (it made the SVG not well-formed, and `-o -` printed
    the escape); no file is written."""
    out = tmp_path / "t.svg"
    proc = run_here("render", EXAMPLE, "-o", out, "--title", title)
    assert proc.returncode == 2 and "title cannot hold" in proc.stderr and not out.exists()


def test_a_render_title_with_markup_characters_is_drawn_as_written(tmp_path):
    out = tmp_path / "t.svg"
    assert run_here("render", EXAMPLE, "-o", out, "--title", "Mon plan <&> [b]x[/b]").returncode == 0
    root = ET.parse(out).getroot()
    assert "Mon plan <&> [b]x[/b]" in "".join(root.itertext())


@pytest.mark.parametrize("name", ["\u200b", " ", "\u200b\u200b", "\u0301"])
def test_a_name_of_nothing_visible_is_refused(tmp_path, name):
    """A name only of spaces or invisible marks (U+200B) would show as nothing in every list."""
    diagnostics = errors_of(HEAD + f'room kitchen "{name}" {{ }}\n', tmp_path)
    assert any("visible character" in d.message for d in diagnostics)


@pytest.mark.parametrize(
    "args",
    [
        ("--variant", "nosuch", "rules", "check", BASE_RULES),
        ("--rules", BASE_RULES, "rules", "check", BASE_RULES),
        ("--variant", "kids", "rules", "variants"),
    ],
)
def test_a_global_option_a_command_cannot_use_is_refused_not_ignored(args):
    """`--variant nosuch rules check f.dh` said "ok": a command that reads no --rules/--variant of
    the group says so in one line, exit 2."""
    proc = run_here(*args)
    assert proc.returncode == 2 and "does not apply" in proc.stderr and proc.stderr.count("\n") == 1
