"""Every long command stops on its first SIGINT or SIGTERM, whenever it comes (issue 34, item 2).

A property over the moment: for each long command, hypothesis draws (seeded: `derandomize`) the
signal and the time it is sent, counted from the instant the process has its handlers in place;
tests/helpers/signals.py runs the command and says what must hold after it (exit 128 + the
signal's number and one line, or a finished command; every file written whole). Few examples a
command: each is a real process started and stopped (a few seconds).
"""

from __future__ import annotations

import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.signals import COMMANDS, LATEST, signal_at


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(COMMANDS))
@settings(max_examples=2, derandomize=True, deadline=None, database=None)
@given(signum=st.sampled_from([signal.SIGINT, signal.SIGTERM]), moment=st.floats(0.0, LATEST))
def test_a_signal_at_any_moment_ends_the_command_in_one_line(command: str, signum: int, moment: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        assert signal_at(command, signum, moment, Path(tmp)) == []


def test_the_commands_signalled_exist() -> None:
    """Every long command this property signals is a command (a renamed one must not drop out)."""
    from dreamhome.cli import main

    assert {args[0] for args, _ in COMMANDS.values()} <= set(main.commands)
