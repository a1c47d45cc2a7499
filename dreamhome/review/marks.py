"""Marks of a reviewed decision, by its loss in points of reachable final score.

Thresholds (docs/REVIEW.md): a loss within `TOLERANCE` is *best* (it counts toward accuracy);
below `MISTAKE` an *inaccuracy*; below `BLUNDER` a *mistake*; from `BLUNDER` on a *blunder*. A
decision with one legal option is never marked (`None`): it is no choice.
"""

from __future__ import annotations

TOLERANCE = 0.5
"""A loss up to this is the best: the evaluation's bounds are whole points, and a bounded search
may read the same option a point apart in two solves (docs/REVIEW.md, consistency)."""
MISTAKE = 2.0
BLUNDER = 5.0

CONSISTENCY = 3.0
"""The most a decision of the solver bot may lose by this evaluation (docs/REVIEW.md): its
placements use the same bound (loss within `TOLERANCE`), but its column choice also weighs the
resource card above the room card, which the evaluation leaves out, and it never plays a track
tool (the drill) before its take, which the evaluation compares too (measured: at most 3 points,
on takes, over the 8 seeded games of tests/test_review.py)."""

MARKS = ("best", "inaccuracy", "mistake", "blunder")


def mark(loss: float, options: int) -> str | None:
    """The mark of a decision that gave away `loss` points among `options` legal options."""
    if options <= 1:
        return None
    if loss <= TOLERANCE:
        return "best"
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


__all__ = ["BLUNDER", "CONSISTENCY", "MARKS", "MISTAKE", "TOLERANCE", "mark"]
