"""Names from files print as written on every terminal surface (issue 34, item 7).

A record whose bot name held rich markup (`[/oops] [link=http://evil.example]x[/link]`) ended
`analyze` and `replay` in "internal error (MarkupError …)", and rich passes ESC through, so a
name could carry any terminal escape (an OSC-8 link, a repaint). Every console of the command
line is now `render.console.SafeConsole`: no markup, no emoji codes, every control character
escaped. The property below drives it with any text through every way a name reaches it; the
reproductions run the commands themselves.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.table import Table
from rich.text import Text

from dreamhome.fileio import printable
from dreamhome.render.console import SafeConsole
from tests.helpers.cli import run_here
from tests.helpers.paths import GOLDEN

MARKUP = "[/oops] [link=http://evil.example]x[/link]"
ESCAPES = "\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\ \x1b[2J\x1b[31mred\u202eevil\x07"
SGR = re.compile(r"\x1b\[[0-9;]*m")
"""The only escapes a forced-colour SafeConsole may write: rich's own styles (Select Graphic Rendition)."""

HOSTILE = st.lists(
    st.sampled_from(["[bold]", "[/]", "[/oops]", "[link=http://e.example]", ":smile:", "\x1b]8;;", "\x1b\\", "\x1b[2J", "\\["])
    | st.text(max_size=8),
    max_size=6,
).map("".join)


def _render(name: str, how: str) -> str:
    buffer = io.StringIO()
    console = SafeConsole(file=buffer, force_terminal=True, color_system="truecolor", width=400)
    if how == "str":
        console.print(f"seat 0 ({name}): 44", highlight=False)
    elif how == "text":
        console.print(Text.assemble(("bold part ", "bold"), name))
    elif how == "table":
        table = Table(title=name)
        table.add_column(name)
        table.add_row(name)
        console.print(table)
    else:
        console.rule(name)
    return buffer.getvalue()


@settings(max_examples=150, deadline=None)
@given(name=HOSTILE, how=st.sampled_from(["str", "text", "table", "rule"]))
def test_any_name_prints_as_written_and_writes_no_escape(name: str, how: str) -> None:
    """Whatever a name holds, the console writes no escape but its own styles, reads no markup
    nor emoji code in it (the name's text is there, its controls spelt out), and never fails."""
    out = _render(name, how)
    plain = SGR.sub("", out)
    assert not any(ch < " " and ch != "\n" or ch == "\x7f" for ch in plain), repr(plain)
    assert "\x1b]8" not in out
    if how == "str" and "\n" not in name:  # a string is escaped whole
        assert printable(name) in plain, (name, plain)
    if how == "text" and "\n" not in name:  # a Text drops a few controls first and turns a tab into spaces
        assert all(_shown(part) in plain for part in name.split("\t")), (name, plain)


def test_markup_in_a_string_is_not_read() -> None:
    out = _render(MARKUP + " :smile:", "str")
    assert MARKUP + " :smile:" in out and "\x1b]8" not in out


def _shown(name: str) -> str:
    """How a name shows: its controls spelt out, but those rich's `Text` drops (bell, backspace,
    vertical tab, form feed, carriage return), which cannot reach the terminal either."""
    return printable(name.translate({code: None for code in (7, 8, 11, 12, 13)}))


def _record_with_bot(tmp_path, bot: str):
    from dreamhome.game.record import record_digest

    data = json.loads((GOLDEN / "two_players_kids.v2.json").read_text(encoding="utf-8"))
    data["bots"] = [bot, data["bots"][1]]
    data["digest"] = record_digest(data)
    path = tmp_path / "named.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("bot", [MARKUP, ESCAPES])
def test_replay_prints_a_bot_name_as_written(tmp_path, bot: str) -> None:
    """Item 7, as reported: `dreamhome replay` of a record whose bot name holds markup."""
    proc = run_here("replay", _record_with_bot(tmp_path, bot))
    assert proc.returncode == 0, proc.stderr
    assert f"seat 0 ({_shown(bot)}): " in proc.stdout
    assert "\x1b" not in proc.stdout + proc.stderr


@pytest.mark.slow
def test_analyze_prints_a_bot_name_as_written(tmp_path) -> None:
    """Item 7, as reported: `dreamhome analyze` of that record (markup and escapes in one name)."""
    bot = MARKUP + ESCAPES
    proc = run_here("analyze", _record_with_bot(tmp_path, bot), "--work", "0.001")
    assert proc.returncode == 0, proc.stderr
    assert _shown(bot) in proc.stdout.replace("\n", "")
    assert "\x1b" not in proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def marked_rules(tmp_path_factory) -> str:
    """A rules file whose kitchen's name is markup and an emoji code (control characters are
    refused by the compiler itself: dsl.compiler.name_problem)."""
    path = tmp_path_factory.mktemp("rules") / "marked.dh"
    path.write_text(f'include "base.dh"\nroom kitchen "{MARKUP} :smile:" {{ points 1 6 9 }}\n', encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "show"],
        ["score", "examples/rulebook_example.json"],
        ["check", "examples/rulebook_example.json"],
        ["place", "examples/midgame.json", "kitchen"],
    ],
)
def test_a_card_name_with_markup_prints_as_written(marked_rules: str, args: list[str]) -> None:
    """Item 7: `rules show` (and every command that draws a house or names a card) prints a card
    name with markup as written, with no link and no emoji."""
    from tests.helpers.paths import ROOT

    args = [str(ROOT / a) if a.startswith("examples/") else a for a in args]
    proc = run_here("--rules", marked_rules, *args)
    assert proc.returncode in (0, 1), proc.stderr
    flat = re.sub(r"[\s│|]+", " ", proc.stdout)
    assert "[/oops]" in flat and "\U0001f604" not in proc.stdout and "\x1b" not in proc.stdout
