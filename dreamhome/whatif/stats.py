"""Statistics of an experiment, computed from the stored per-game results.

Means with 95% intervals (normal approximation; for proportions the Wilson
interval), and for every ruleset after the first the paired difference of the
mean score against the baseline over the games both completed.
"""

from __future__ import annotations

import statistics

from dreamhome.intervals import mean_ci, proportion_ci
from dreamhome.scoring import COMPONENTS


def ruleset_stats(games: list[dict], players: int) -> dict:
    ok = [g for g in games if "error" not in g]
    scores = [s for g in ok for s in g["scores"]]
    comps = {c: mean_ci([h[c] for g in ok for h in g["components"]]) for c in COMPONENTS}
    seat_wins = []
    for seat in range(players):
        wins = sum(1 / len(g["winners"]) for g in ok if seat in g["winners"])  # shared victories split
        seat_wins.append(proportion_ci(wins, len(ok)))
    first_wins = sum(1 / len(g["winners"]) for g in ok if g["first"] in g["winners"])
    ties = sum(1 for g in ok if len(g["winners"]) > 1)
    cards: dict[str, float] = {}
    for g in ok:
        for name, n in g["cards"].items():
            cards[name] = cards.get(name, 0) + n
    houses = len(ok) * players
    return {
        "games": len(ok),
        "crashed": [{"game": g["game"], "seed": g["seed"], "error": g["error"]} for g in games if "error" in g],
        "score": mean_ci(scores),
        "components": comps,
        "seat_win_rate": seat_wins,
        "first_player_win_rate": proportion_ci(first_wins, len(ok)),
        "tie_rate": proportion_ci(ties, len(ok)),
        "cards_per_house": {k: v / houses for k, v in sorted(cards.items())} if houses else {},
    }


def paired_difference(games: list[dict], baseline: list[dict]) -> dict:
    """Mean over games of (this ruleset's mean score − the baseline's), same seeds."""
    base = {g["game"]: statistics.fmean(g["scores"]) for g in baseline if "error" not in g}
    diffs = [statistics.fmean(g["scores"]) - base[g["game"]] for g in games if "error" not in g and g["game"] in base]
    return mean_ci(diffs)


def experiment_stats(per_ruleset: list[list[dict]], labels: list[str], players: int) -> list[dict]:
    out = []
    for r, games in enumerate(per_ruleset):
        stats = {"ruleset": labels[r], **ruleset_stats(games, players)}
        if r > 0:
            stats["difference_vs_baseline"] = paired_difference(games, per_ruleset[0])
        out.append(stats)
    return out
