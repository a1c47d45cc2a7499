"""The terminal seat saves in every phase and takes the end of its input as leaving (issue 34,
item 11): reported, `save` during the end game wrote nothing and the end of the input at an
end-game prompt ended the command with exit 0, as if the person had chosen "done".

A property over the prompt: a seeded person answers with random options and, at a random prompt
of a random phase (the end game included), saves the game or stops typing. Saved, the file
resumes to exactly the game as it stood; stopped, the session ends as "eof" (never a choice, the
game unfinished). The command line's answer to both, at an end-game prompt, is checked too.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console

from dreamhome.game.phases import Phase
from dreamhome.game.record import load_record
from dreamhome.game.state import GameState
from dreamhome.players.playing import make_seats, resume_record
from dreamhome.terminal.seat import HumanGame
from tests.helpers.cli import Ran, run_here
from tests.helpers.rules import compiled

BOTS = ("human", "greedy")


def _options(prompt: str) -> int:
    """How many options a prompt offers (`seat 0 [1-4, hint, …]> `)."""
    return int(prompt.split("[1-", 1)[1].split(",", 1)[0]) if "[1-" in prompt else 1


def _session(seed: int, stop_at: int, action: str, save_to: Path) -> tuple[HumanGame, str, list[Phase], list[str]]:
    """A game in which the person picks seeded random options and, at prompt `stop_at`, does
    `action` ("save": saves, then stops typing; "eof": stops typing); with the phase of each
    prompt and the lines typed before `stop_at`."""
    rules = compiled()
    state = GameState(rules, len(BOTS), seed)
    rng = random.Random(seed)
    phases: list[Phase] = []
    lines: list[str] = []
    game: HumanGame | None = None

    def read(prompt: str) -> str:
        assert game is not None
        phases.append(game.state.phase)
        if len(phases) - 1 == stop_at and action == "save":
            return f"save {save_to}"
        if len(phases) - 1 >= stop_at:
            raise EOFError
        lines.append(str(rng.randint(1, _options(prompt))))
        return lines[-1]

    game = HumanGame(state, BOTS, tuple(make_seats(list(BOTS), seed)), Console(file=io.StringIO(), width=120), read=read)
    outcome = game.run()
    return game, outcome.how, phases, lines


@pytest.mark.slow
@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 40), at=st.floats(0.0, 1.0), action=st.sampled_from(["save", "eof"]))
@example(seed=0, at=0.999, action="save")  # seed 0's last prompts are the end game's (END-ORDER)
@example(seed=0, at=0.999, action="eof")
def test_at_any_prompt_save_keeps_the_game_and_the_end_of_input_leaves(tmp_path_factory, seed: int, at: float, action: str):
    saved = tmp_path_factory.mktemp("seat") / "saved.json"
    _game, _how, phases, _lines = _session(seed, 10**9, "none", saved)  # the whole game: its prompts' phases
    stop_at = min(int(at * len(phases)), len(phases) - 1)
    game, how, seen, _lines = _session(seed, stop_at, action, saved)
    assert how == "eof", (how, seen[stop_at])
    if seed == 0 and at == 0.999:
        assert seen[stop_at] == Phase.END
    assert not game.state.is_terminal()  # leaving is not a choice: the game stands where it was
    if action == "save":
        assert game.saved == str(saved)
        resumed = resume_record(load_record(saved), "saved")
        assert resumed.state.events == game.state.events and resumed.state.phase == seen[stop_at]


def _end_game_lines() -> tuple[int, list[str]]:
    """A seed and the person's lines that bring `play --bots human,greedy` to an end-game prompt
    (the same seeded choices as `_session`, so the same game)."""
    for seed in range(40):
        _game, _how, phases, lines = _session(seed, 10**9, "none", Path("unused"))
        if Phase.END in phases:
            return seed, lines[: phases.index(Phase.END)]
    raise AssertionError("no game of the first 40 seeds reaches an end-game prompt")


@pytest.mark.slow
def test_the_command_line_saves_at_an_end_game_prompt_and_leaves_at_its_end_of_input(tmp_path):
    """Item 11, as reported, through `dreamhome play`: at an end-game prompt `save FILE` writes
    the game (unfinished, resumable) and the end of the input is exit 2 with one line saying how
    to continue — not exit 0 as if "done" had been chosen."""
    seed, lines = _end_game_lines()
    saved = tmp_path / "end.json"
    proc = run_with_input(["play", "--bots", ",".join(BOTS), "--seed", str(seed)], [*lines, f"save {saved}"])
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"dreamhome: end of input before the game ended: continue from your last save with `dreamhome play --resume {saved}`"
    ]
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["finished"] is False
    assert resume_record(data).state.phase == Phase.END
    proc = run_with_input(["play", "--bots", ",".join(BOTS), "--seed", str(seed)], lines)
    assert proc.returncode == 2 and "end of input" in proc.stderr, proc.stderr


def run_with_input(args: list[str], lines: list[str]) -> Ran:
    """`dreamhome ARGS…` fed `lines` on stdin, in this process through the user's entry point
    (tests/helpers/cli.run_here: its exit statuses and one-line errors; stdin ends where the
    lines end, as a pipe's does)."""
    return run_here(*args, input="".join(f"{line}\n" for line in lines))
