"""The report's statistics: every figure with a 95% interval, comparisons paired by seed.

Means get the normal interval and proportions the Wilson interval (the what-if engine's
`mean_ci` and `proportion_ci`); a paired comparison is the mean of per-game differences over
the games both sides finished, with the normal interval. The variance shares have no closed
form, so they get a percentile bootstrap over games, its resamples drawn from the report's
seed (the same seed, the same interval). A shared victory counts as a share of a win (1/k
for each of k winners), as in the what-if engine.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence

from dreamhome.scoring import COMPONENTS
from dreamhome.whatif.stats import mean_ci, proportion_ci

BOOTSTRAP = 400
"""Bootstrap resamples for the variance shares."""
ESSENTIAL_SHARE = 0.5
"""A card is one no one can do without when a seat forbidden it loses, at the least, half of
an even share of wins (the win-rate worth's low end ≥ 0.5 / players)."""


def ok_games(games: Sequence[dict]) -> list[dict]:
    return [g for g in games if "error" not in g]


def win_share(game: dict, seat: int) -> float:
    """SCORE-WIN: 1 for a sole winner, 1/k for each of k tied winners, else 0."""
    return 1 / len(game["winners"]) if seat in game["winners"] else 0.0


def position_seat(game: dict, position: int, players: int) -> int:
    """The seat that played `position`-th in round 1 (0: the first player, ROUND-1)."""
    return (game["first"] + position) % players


def seats(games: Sequence[dict], players: int) -> dict:
    """Seat by turn order (first, second, …): win rate and mean score, balance, tie-breaks."""
    ok = ok_games(games)
    by_position: list[dict] = []
    for pos in range(players):
        wins = sum(win_share(g, position_seat(g, pos, players)) for g in ok)
        by_position.append(
            {
                "position": pos + 1,
                "win_rate": proportion_ci(wins, len(ok)),
                "score": mean_ci([g["scores"][position_seat(g, pos, players)] for g in ok]),
            }
        )
    even = 1 / players
    rates = [p["win_rate"]["rate"] for p in by_position]
    deviation = max((abs(r - even) for r in rates if r is not None), default=None)
    decided = sum(1 for g in ok if g["tied_top"] and len(g["winners"]) == 1)
    return {
        "players": players,
        "games": len(ok),
        "crashed": len(games) - len(ok),
        "positions": by_position,
        "even_share": even,
        "balance": deviation,
        "first_advantage": mean_ci([first_edge(g, players) for g in ok]),
        "first_margin": mean_ci([first_margin(g) for g in ok]),
        "tiebreak_decided": proportion_ci(decided, len(ok)),
        "ties_left": proportion_ci(sum(1 for g in ok if len(g["winners"]) > 1), len(ok)),
    }


def first_edge(game: dict, players: int) -> float:
    """The first player's win share less an even share: > 0 when the first seat wins too often."""
    return win_share(game, game["first"]) - 1 / players


def first_margin(game: dict) -> float:
    """The first player's score less the mean score of the others: the first seat's edge in
    points (a steadier measure than the win share, so a paired change shows sooner)."""
    scores = game["scores"]
    others = [s for p, s in enumerate(scores) if p != game["first"]]
    return scores[game["first"]] - (sum(others) / len(others) if others else 0.0)


def ladder(games: Sequence[dict], seed: int) -> dict:
    """Seat 0 the weaker bot, seat 1 the stronger: the stronger's win rate and margin, and the
    share of the score's variance explained by the bot, by the draw and by neither."""
    ok = ok_games(games)
    wins = sum(win_share(g, 1) for g in ok)
    margins = [g["scores"][1] - g["scores"][0] for g in ok]
    pairs = [(g["scores"][0], g["scores"][1]) for g in ok]
    shares = variance_shares(pairs)
    rng = random.Random(f"report-bootstrap/{seed}")
    boot: dict[str, list[float]] = {k: [] for k in shares}
    if len(pairs) > 1:
        for _ in range(BOOTSTRAP):
            sample = [pairs[rng.randrange(len(pairs))] for _ in pairs]
            for k, v in variance_shares(sample).items():
                if v is not None:
                    boot[k].append(v)
    return {
        "games": len(ok),
        "crashed": len(games) - len(ok),
        "stronger_win_rate": proportion_ci(wins, len(ok)),
        "margin": mean_ci(margins),
        "variance": {k: {"share": v, **_percentiles(boot[k])} for k, v in shares.items()},
    }


def variance_shares(pairs: Sequence[tuple[float, float]]) -> dict[str, float | None]:
    """Two-way decomposition of the scores (weaker, stronger) of each game: the sum of squares
    between the bots, between the games (the draw: the deal and the first player) and the rest
    (how the draw favoured one bot), each a share of the total."""
    n = len(pairs)
    values = [v for p in pairs for v in p]
    if n < 2 or statistics.pvariance(values) == 0:
        return {"bots": None, "draw": None, "rest": None}
    grand = statistics.fmean(values)
    total = sum((v - grand) ** 2 for v in values)
    bots = n * sum((statistics.fmean(p[k] for p in pairs) - grand) ** 2 for k in (0, 1))
    draw = 2 * sum((statistics.fmean(p) - grand) ** 2 for p in pairs)
    return {"bots": bots / total, "draw": draw / total, "rest": max(0.0, total - bots - draw) / total}


def _percentiles(values: list[float]) -> dict:
    if not values:
        return {"low": None, "high": None}
    ordered = sorted(values)
    return {"low": ordered[int(0.025 * (len(ordered) - 1))], "high": ordered[int(0.975 * (len(ordered) - 1))]}


def card(restricted: Sequence[dict], base: Sequence[dict], players: int) -> dict:
    """Restricted play, paired by game: what seat 0 loses when forbidden the card."""
    ref = {g["game"]: g for g in ok_games(base)}
    pairs = [(ref[g["game"]], g) for g in ok_games(restricted) if g["game"] in ref]
    points = mean_ci([b["scores"][0] - r["scores"][0] for b, r in pairs])
    wins = mean_ci([win_share(b, 0) - win_share(r, 0) for b, r in pairs])
    forced = sum(r["forced"][0] for _b, r in pairs)
    return {
        "games": len(pairs),
        "worth": points["mean"],
        "low": points["low"],
        "high": points["high"],
        "win_worth": wins,
        "forced_takes": forced / len(pairs) if pairs else None,
    }


def take_rates(games: Sequence[dict]) -> dict[str, dict]:
    """Per card type: of the columns holding it on the track, the share someone took."""
    taken: dict[str, int] = {}
    offered: dict[str, int] = {}
    for g in ok_games(games):
        for k, n in g["taken"].items():
            taken[k] = taken.get(k, 0) + n
        for k, n in g["offered"].items():
            offered[k] = offered.get(k, 0) + n
    return {k: proportion_ci(min(taken.get(k, 0), n), n) for k, n in sorted(offered.items())}


def flags(entry: dict, players: int) -> list[str]:
    """`worthless`: the points interval holds 0; `essential`: forbidding it costs at least half
    of an even share of wins (the win-rate worth's low end)."""
    out: list[str] = []
    if entry["games"] < 2:
        return out  # one game gives no interval to judge by
    if entry["low"] is not None and entry["low"] <= 0 <= entry["high"]:
        out.append("worthless")
    low = entry["win_worth"]["low"]
    if low is not None and low >= ESSENTIAL_SHARE / players:
        out.append("essential")
    return out


def shape(games: Sequence[dict]) -> dict:
    """Decisions a player, branching, the score's parts and their spread. The share of moves
    with a choice counts the game's forced steps (one legal action, played by the driver
    without asking the bot) among the moves."""
    ok = ok_games(games)
    decisions = [d for g in ok for d in g["decisions"]]
    total_decisions = sum(decisions)
    options = sum(o for g in ok for o in g["options"])
    multi = sum(m for g in ok for m in g["multi"])
    steps = sum(f for g in ok for f in g.get("forced_steps", ()))
    scores = [s for g in ok for s in g["scores"]]
    parts = {c: distribution([h[i] for g in ok for h in g["components"]]) for i, c in enumerate(COMPONENTS)}
    return {
        "games": len(ok),
        "decisions_per_player": mean_ci([float(d) for d in decisions]),
        "branching_factor": options / total_decisions if total_decisions else None,
        "branching_per_game": mean_ci([sum(g["options"]) / max(1, sum(g["decisions"])) for g in ok]),
        "choice_share": proportion_ci(multi, total_decisions + steps),
        "score": distribution(scores),
        "parts": parts,
        "best_reached": max(scores) if scores else None,
    }


def distribution(values: Sequence[float]) -> dict:
    """Mean with its interval, and the 5th, 50th and 95th percentiles."""
    out = mean_ci([float(v) for v in values])
    ordered = sorted(values)
    for name, q in (("p5", 0.05), ("p50", 0.5), ("p95", 0.95)):
        out[name] = ordered[round(q * (len(ordered) - 1))] if ordered else None
    return out


def paired(a: Sequence[dict], b: Sequence[dict], value: Callable[[dict], float]) -> dict:
    """Mean over the games both finished of value(b's game) − value(a's game), same seeds."""
    other = {g["game"]: g for g in ok_games(b)}
    return mean_ci([value(other[g["game"]]) - value(g) for g in ok_games(a) if g["game"] in other])
