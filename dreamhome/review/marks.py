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

CONSISTENCY = 4.0
"""The most a column choice of the solver or the hard bot may lose by this evaluation (docs/REVIEW.md,
consistency): the hard bot's placements use the same bound (a loss within `TOLERANCE`; the solver
bot's leave the swap helpers out, issue 25), but a column
choice adds a value for the resource card above the room card, which the evaluation leaves out,
and compares only the three columns the greedy value ranks best (measured: at most 4 points
over the 100-game benchmark). A track tool the bot never plays before its take is no
choice it made by this evaluation: such a loss is a real finding, not an inconsistency."""

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
