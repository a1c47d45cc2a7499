"""How many games a question needs (issue 35): the games that detect a first-seat edge of
EDGE (a share of wins above an even one) with the usual test, and the first seat's win-rate
interval played to a width (`--precision`).

The games needed are the normal approximation for a one-sample test of a proportion, two-sided
at ALPHA with power POWER: n = ((z₁₋α/₂·√(p₀q₀) + z_power·√(p₁q₁)) / EDGE)², p₀ = 1/players,
p₁ = p₀ + EDGE. It depends on the player count only, not on the games played, so it says
before a run whether the run can answer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from dreamhome.intervals import proportion_ci
from dreamhome.report.stats import ok_games, position_seat, win_share

EDGE = 0.03
"""The first-seat edge to detect: three points of win share above an even share."""
ALPHA = 0.05
POWER = 0.8
MAX_GAMES = 100_000
"""`--precision` never plays a self-play condition past this many games."""


def games_needed(players: int, edge: float = EDGE, alpha: float = ALPHA, power: float = POWER) -> int:
    p0 = 1 / players
    p1 = p0 + edge
    za = NormalDist().inv_cdf(1 - alpha / 2)
    zb = NormalDist().inv_cdf(power)
    return math.ceil(((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / edge) ** 2)


def power_at(players: int, games: int, edge: float = EDGE, alpha: float = ALPHA) -> float | None:
    """The chance that `games` games detect the edge (the same approximation, solved for power)."""
    if games < 1:
        return None
    p0 = 1 / players
    p1 = p0 + edge
    za = NormalDist().inv_cdf(1 - alpha / 2)
    z = (edge * math.sqrt(games) - za * math.sqrt(p0 * (1 - p0))) / math.sqrt(p1 * (1 - p1))
    return NormalDist().cdf(z)


def power(players: int, bot: str, played: int) -> dict:
    return {
        "players": players,
        "bot": bot,
        "edge": EDGE,
        "alpha": ALPHA,
        "power": POWER,
        "games_needed": games_needed(players),
        "games_played": played,
        "power_at_played": power_at(players, played),
    }


def first_seat_rate(games: Sequence[dict], players: int) -> dict:
    """The first player's win rate (ROUND-1) with its Wilson interval."""
    ok = ok_games(games)
    return proportion_ci(sum(win_share(g, position_seat(g, 0, players)) for g in ok), len(ok))


def width(ci: dict) -> float:
    return math.inf if ci["low"] is None else ci["high"] - ci["low"]


def more_games(played: int, current: float, target: float, chunk: int) -> int:
    """The games to add so the interval narrows from `current` to `target` wide: a width falls
    as 1/√n, so n·(current/target)² in all, at least one chunk, in whole chunks, capped at
    MAX_GAMES. A function of the games alone, so a seed always plays the same blocks."""
    wanted = math.ceil(played * (current / target) ** 2) if math.isfinite(current) else played + chunk
    extra = max(chunk, wanted - played)
    extra = chunk * math.ceil(extra / chunk)
    return max(0, min(extra, MAX_GAMES - played))
