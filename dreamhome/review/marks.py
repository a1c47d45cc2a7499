"""Marks of a reviewed decision, by its loss in points of reachable final score.

Thresholds (docs/REVIEW.md): a loss within `TOLERANCE` is *best* (it counts toward accuracy);
below `MISTAKE` an *inaccuracy*; below `BLUNDER` a *mistake*; from `BLUNDER` on a *blunder*. A
decision with one legal option is never marked (`None`): it is no choice.
"""

from __future__ import annotations

TOLERANCE = 0.5
"""A loss up to this is the best: the evaluation's values are whole points where proven, so a
loss below one point is a difference of hundredths a bounded search left (docs/REVIEW.md)."""
MISTAKE = 2.0
BLUNDER = 5.0

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


__all__ = ["BLUNDER", "MARKS", "MISTAKE", "TOLERANCE", "mark"]
