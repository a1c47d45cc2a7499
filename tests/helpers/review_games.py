"""Short games for the tests of the review's commands and formats: the base rules with fewer
rounds (ROUND-6), so a game has a few rounds' decisions and its end game, and its review costs
seconds rather than a 12-round game's half minute. A test of the review's own numbers (the
levels, the ordering, a planted error) reviews whole games instead (tests/test_review.py).

A short game's houses end with open spaces: where a solver seat holds an end-game swap helper,
its plan refuses the unfinished house and the seat ends its turn (seed 8 of greedy against solver
in 3 rounds, tests/test_short_games.py)."""

from __future__ import annotations

from pathlib import Path

from dreamhome.dsl.compiler import compile_rules
from dreamhome.ruleset import Ruleset


def short_text(rounds: int) -> str:
    """A rules file's text: the packaged base rules (its variants too) with `rounds` rounds."""
    return f'include "base.dh"\ngame dream_home {{ rounds {rounds} }}\n'


def short_rules(rounds: int) -> Ruleset:
    """The base rules with `rounds` rounds, compiled as `short_text` reads."""
    return compile_rules(text=short_text(rounds), name=f"r{rounds}.dh")


def short_rules_file(folder: Path, rounds: int) -> Path:
    """`short_text(rounds)` written as a rules file in `folder` (for `dreamhome --rules FILE`)."""
    path = folder / f"r{rounds}.dh"
    path.write_text(short_text(rounds), encoding="utf-8")
    return path
