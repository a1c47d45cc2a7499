"""Every command's `--help` and the exit status of a few bad inputs, compared with a golden file
captured from main before the CLI became a package of commands (issue 32, item 1).

The golden file is the proof that splitting `dreamhome/cli.py` changed no option, no help text
and no exit status. It was written by the code it guards, once, before the change; a deliberate
change to a command's help re-captures it with `DREAMHOME_REGOLD=1`.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from tests.helpers.cli import run_here

GOLDEN = Path(__file__).parent / "golden" / "cli_help.txt"

# Bad inputs whose exit status and first error line must not move: an unknown command, an
# unknown option, a missing file, a bad choice.
BAD_INPUTS: tuple[tuple[str, ...], ...] = (
    ("no-such-command",),
    ("--no-such-option",),
    ("check", "no-such-file.json"),
    ("score", "no-such-file.json"),
    ("--lang", "xx", "rules"),
    ("play", "--players", "0"),
    ("whatif", "--no-such-option"),
    ("report", "--no-such-option"),
)


def _paths(command: click.Command, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and subcommand under `command`, as the words that name it, in sorted order."""
    paths = [path]
    if isinstance(command, click.Group):
        for name in sorted(command.commands):
            paths.extend(_paths(command.commands[name], (*path, name)))
    return paths


def _transcript() -> str:
    from dreamhome.cli import main

    parts: list[str] = []
    for path in _paths(main):
        ran = run_here(*path, "--help")
        parts.append(f"$ dreamhome {' '.join((*path, '--help'))}\n[exit {ran.returncode}]\n{ran.stdout}{ran.stderr}")
    for args in BAD_INPUTS:
        ran = run_here(*args)
        last = (ran.stderr.strip().splitlines() or [""])[-1]
        parts.append(f"$ dreamhome {' '.join(args)}\n[exit {ran.returncode}]\n{last}\n")
    return "\n".join(parts)


def test_every_help_and_bad_input_exit_is_unchanged() -> None:
    got = _transcript()
    if os.environ.get("DREAMHOME_REGOLD"):
        GOLDEN.write_text(got, encoding="utf-8")
    assert got == GOLDEN.read_text(encoding="utf-8")
