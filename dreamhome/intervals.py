"""95% intervals of a mean and of a proportion: the what-if's statistics, the balance report's
and the review's summaries read them alike.

A mean's interval is the normal approximation (mean ± Z·sd/√n); a proportion's is Wilson's,
which stays inside [0, 1] and is sound for small counts. Their own module, below every package
that reports a figure, so that the review does not reach into the what-if engine for them.
"""

from __future__ import annotations

import math
import statistics

Z = 1.959963984540054


def mean_ci(values: list[float]) -> dict:
    n = len(values)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "sd": None, "n": 0}
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = Z * sd / math.sqrt(n) if n > 1 else 0.0
    return {"mean": mean, "low": mean - half, "high": mean + half, "sd": sd, "n": n}


def proportion_ci(successes: float, n: int) -> dict:
    if n == 0:
        return {"rate": None, "low": None, "high": None, "n": 0}
    p = successes / n
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denom
    return {"rate": p, "low": max(0.0, min(p, centre - half)), "high": min(1.0, max(p, centre + half)), "n": n}


__all__ = ["Z", "mean_ci", "proportion_ci"]
