"""How close and how settled a game is (issue 35; after Ludii's metrics of drama, lead change,
decisiveness and score difference), from each game's scores at every round's end.

Per game: the winner's `margin` over the best other score, whether it was `close` (won by at
most CLOSE points), the `lead_changes` (the sole leader after a round differs from the sole
leader of the last round that had one; a round whose top score is shared has none) and the
`decided_round` (the first round from whose end on a winner was never behind: counted 1…R for
the rounds' ends and R + 1 for the game's end, whose final scoring is the last step). Each
figure over games is a mean (or a proportion) with its 95% interval.
"""

from __future__ import annotations

from collections.abc import Sequence

from dreamhome.intervals import mean_ci, proportion_ci
from dreamhome.report.stats import ok_games

CLOSE = 2
"""A game won by at most this many points is close."""


def margin(game: dict) -> int:
    """The top score less the next one (0 when the top score is shared)."""
    top, second = sorted(game["scores"], reverse=True)[:2]
    return top - second


def sole_leader(scores: Sequence[int]) -> int | None:
    best = max(scores)
    leaders = [p for p, s in enumerate(scores) if s == best]
    return leaders[0] if len(leaders) == 1 else None


def lead_changes(game: dict) -> int:
    changes = 0
    last = None
    for scores in game["round_scores"]:
        leader = sole_leader(scores)
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    return changes


def decided_round(game: dict) -> int:
    """The first step (round end, 1-based; the last is the game's end) from which a winner is
    never behind anyone to the end."""
    rounds = game["round_scores"]
    decided = len(rounds)
    for winner in game["winners"]:
        step = len(rounds)
        while step > 1 and rounds[step - 2][winner] == max(rounds[step - 2]):
            step -= 1
        decided = min(decided, step)
    return decided


def tension(games: Sequence[dict]) -> dict:
    """The four figures over the games that finished, each with its interval."""
    ok = [g for g in ok_games(games) if g.get("round_scores")]
    margins = [margin(g) for g in ok]
    return {
        "games": len(ok),
        "steps": len(ok[0]["round_scores"]) if ok else None,
        "margin": mean_ci([float(m) for m in margins]),
        "close": proportion_ci(sum(1 for m in margins if m <= CLOSE), len(ok)),
        "close_points": CLOSE,
        "lead_changes": mean_ci([float(lead_changes(g)) for g in ok]),
        "decided_round": mean_ci([float(decided_round(g)) for g in ok]),
    }
