"""Game seeds are whole numbers from 0 (issue 34, item 10).

Python's `random.Random(n)` seeds from the absolute value of an integer, so a negative seed deals
exactly the game of its positive twin: `whatif --seed -3 --games 6` counted six games of which four
were distinct, and `report --seed -1` narrowed its intervals with repeated games. Rather than map
the negative seeds somewhere (a second numbering to document and keep free of collisions), every
surface that takes a seed refuses them with one line: the command line (`cli.SEED`), the game
state (`GameState`, so records and the library too), the what-if experiments, the table's start
body. Seeds from 0 deal exactly the games they always dealt.
"""

from __future__ import annotations

from dreamhome.errors import DreamhomeError

MIN_SEED = 0


def seed_problem(value: object) -> str | None:
    """Why `value` is no game seed (a bool is no number here), or None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return f"a seed is a whole number from {MIN_SEED}, got {value!r}"
    if value < MIN_SEED:
        return f"a seed is a whole number from {MIN_SEED}, got {value} (a negative seed deals the game of its positive twin)"
    return None


def check_seed(value: object, what: str = "seed", error: type[DreamhomeError] = DreamhomeError) -> int:
    """`value` if it is a game seed; else `error` naming `what` (one line)."""
    problem = seed_problem(value)
    if problem is not None:
        raise error(f"{what}: {problem}")
    return value  # type: ignore[return-value]  # an int, checked above


__all__ = ["MIN_SEED", "check_seed", "seed_problem"]
