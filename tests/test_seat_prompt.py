"""Any line at any prompt of the terminal seat (dreamhome.terminal.seat) is answered and the prompt
comes back: the game never ends in "internal error" because of what a person typed.

Issue 21 found `²`, `¹`, a 5,000-digit number and `save a<NUL>b` each ending the game (and
losing it); `save -` wrote a file named "-" and advised `--resume -`, which is refused.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from dreamhome.game.record import load_record
from dreamhome.game.state import GameState
from dreamhome.players.playing import make_seats
from dreamhome.terminal.seat import HumanGame, Outcome, save_path_problem
from tests.helpers.rules import compiled

COMMANDS = {"hint", "undo", "save", "help", "quit"}


def _game(lines: Iterator[str], out: io.StringIO, seed: int = 1) -> HumanGame:
    seats = make_seats(["human", "random"], seed)
    state = GameState(compiled(), 2, seed, 0)
    console = Console(file=out, width=120, color_system=None)
    return HumanGame(state, ("human", "random"), tuple(seats), console, read=lambda _prompt: next(lines), hint_work=0.02)


def _play(garbage: list[str]) -> tuple[Outcome, list[tuple[str, str]]]:
    """A whole game in which every prompt first gets the next garbage line, then "1" (the first
    option). Returns the outcome and, for each garbage line, what it printed."""
    out = io.StringIO()
    said: list[tuple[str, str]] = []
    script: list[str] = []

    def lines() -> Iterator[str]:
        k = 0
        while True:
            line = garbage[k % len(garbage)]
            k += 1
            before = out.tell()
            yield line
            script.append(line)
            said.append((line, out.getvalue()[before:]))
            yield "1"

    game = _game(lines(), out)
    return game.run(), said


@pytest.mark.slow
@pytest.mark.parametrize(
    "line",
    ["²", "¹", "٣", "1" * 5000, "0", "-1", "+1", "1.0", "save a\x00b", "save -", "save -x", "save \x1b[31m", "\x00", "\udcff"],
)
def test_the_issues_inputs_get_one_line_and_the_prompt_again(line):
    with tempfile.TemporaryDirectory() as folder:
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            outcome, said = _play([line])
            assert os.listdir(folder) == []  # nothing was saved under a name --resume cannot take
        finally:
            os.chdir(cwd)
    assert outcome.how == "end"
    for _, printed in said:
        assert printed.count("\n") == 1, printed
        assert "internal error" not in printed


def test_save_dash_is_refused_and_never_advises_resume_dash():
    problem = save_path_problem("-")
    assert problem is not None and "./-" in problem
    assert save_path_problem("game.json") is None and save_path_problem("./-") is None


def _safe(line: str) -> str:
    """A generated `save` writes under the test's own folder only (never an absolute path)."""
    words = line.strip().split(maxsplit=1)
    if words and words[0].lower() == "save":
        return line.replace("/", "_")
    return line


@pytest.mark.slow
@settings(max_examples=30)  # each example is a whole game (about 0.2 s)
@given(st.lists(st.text(max_size=30).map(_safe), min_size=1, max_size=8))
def test_any_line_at_any_prompt_is_one_line_and_the_prompt_again(garbage):
    """Every prompt of a whole game (every phase a seat decides in) gets a generated line first."""
    with tempfile.TemporaryDirectory() as folder:
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            outcome, said = _play(garbage)
            for name in os.listdir(folder):  # whatever was saved is a record --resume reads back
                assert not name.startswith("-")
                assert load_record(name).get("finished") is False
        finally:
            os.chdir(cwd)
    assert outcome.how in ("end", "quit")
    for line, printed in said:
        assert "internal error" not in printed and "Traceback" not in printed
        words = line.strip().split()
        if not words or words[0].lower() in COMMANDS or (words[0].isascii() and words[0].isdigit()):
            continue  # a command (or a number that may be an option) prints what it prints
        assert printed.count("\n") == 1, (line, printed)


def test_save_keeps_off_the_rules_file_and_the_record(tmp_path):
    """`save FILE` at the seat is an output like every output of the CLI (fileio.check_output):
    over the rules file in use it would destroy them (the next `--rules` fails), over the
    --record file the end of the game would overwrite the save. Both are refused, the files
    untouched, and the prompt comes back."""
    rules = tmp_path / "my.dh"
    rules.write_text('include "base.dh"\n', encoding="utf-8")
    record = tmp_path / "game.json"
    out = io.StringIO()
    lines = iter([f"save {rules}", f"save {record}", "quit"])
    seats = make_seats(["human", "random"], 1)
    game = HumanGame(
        GameState(compiled(), 2, 1, 0),
        ("human", "random"),
        tuple(seats),
        Console(file=out, width=200, color_system=None),
        read=lambda _prompt: next(lines),
        inputs=(str(rules),),
        outputs=(str(record),),
    )
    assert game.run().how == "quit"
    assert rules.read_text(encoding="utf-8") == 'include "base.dh"\n' and not record.exists()
    printed = out.getvalue()
    assert "is also an input" in printed and "given for two outputs" in printed
