"""The report's statistics: every figure with a 95% interval, comparisons paired by seed.

Means get the normal interval and proportions the Wilson interval (the what-if engine's
`mean_ci` and `proportion_ci`); a paired comparison is the mean of per-game differences over
the games both sides finished, with the normal interval. The balance and the deal's share
have no closed form, so they get a percentile bootstrap over games (or deals), its resamples
drawn from the report's seed (the same seed, the same interval); a high quantile gets the
distribution-free interval of order statistics. The card flags are held to a family-wise
error rate by Holm's method. A shared victory counts as a share of a win (1/k
for each of k winners), as in the what-if engine.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence

from dreamhome.intervals import Z, mean_ci, proportion_ci
from dreamhome.scoring import COMPONENTS

TOP = 0.99
"""The high quantile of the houses' scores given with an interval beside the best reached."""
BOOTSTRAP = 400
"""Bootstrap resamples for the figures with no closed-form interval."""
ALPHA = 0.05
"""The family-wise error rate the card flags are held to (Holm's method)."""
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


def seats(games: Sequence[dict], players: int, seed: int = 0) -> dict:
    """Seat by turn order (first, second, …): win rate and mean score, balance (with a
    percentile bootstrap interval over games, drawn from the report's seed), tie-breaks."""
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
    deviation = balance(ok, players)
    rng = random.Random(f"report-bootstrap/{seed}/balance/{players}")
    boot = [balance([ok[rng.randrange(len(ok))] for _ in ok], players) for _ in range(BOOTSTRAP if len(ok) > 1 else 0)]
    decided = sum(1 for g in ok if g["tied_top"] and len(g["winners"]) == 1)
    return {
        "players": players,
        "games": len(ok),
        "crashed": len(games) - len(ok),
        "positions": by_position,
        "even_share": 1 / players,
        "balance": deviation,
        "balance_ci": {"share": deviation, **_percentiles([b for b in boot if b is not None])},
        "first_advantage": mean_ci([first_edge(g, players) for g in ok]),
        "first_margin": mean_ci([first_margin(g) for g in ok]),
        "tiebreak_decided": proportion_ci(decided, len(ok)),
        "ties_left": proportion_ci(sum(1 for g in ok if len(g["winners"]) > 1), len(ok)),
    }


def balance(games: Sequence[dict], players: int) -> float | None:
    """The largest deviation of a seat's win rate (in turn order) from an even share."""
    if not games:
        return None
    rates = [sum(win_share(g, position_seat(g, pos, players)) for g in games) / len(games) for pos in range(players)]
    return max(abs(r - 1 / players) for r in rates)


def first_edge(game: dict, players: int) -> float:
    """The first player's win share less an even share: > 0 when the first seat wins too often."""
    return win_share(game, game["first"]) - 1 / players


def first_margin(game: dict) -> float:
    """The first player's score less the mean score of the others: the first seat's edge in
    points (a steadier measure than the win share, so a paired change shows sooner)."""
    scores = game["scores"]
    others = [s for p, s in enumerate(scores) if p != game["first"]]
    return scores[game["first"]] - (sum(others) / len(others) if others else 0.0)


def ladder(rotations: Sequence[tuple[int, Sequence[dict]]], players: int, seed: int) -> dict:
    """A rung from its rotations (the weaker bot's seat, its games): the weaker bot's win rate
    against an even share (1/players), a stronger seat's win rate, the margin (the stronger
    seats' mean score less the weaker's) and the deal's share of the margin's variance.

    Every rotation plays the same seeds, so each deal is played once with the weaker bot in
    every seat. The margin is averaged over a deal's rotations before its interval (the deal
    is the independent unit). The deal's share is the one-way random-effects estimate
    (σ²_deal / (σ²_deal + σ²_within), deals complete in every rotation), with a percentile
    bootstrap interval over deals drawn from the report's seed."""
    by_deal: dict[int, list[dict]] = {}
    crashed = 0
    for weak_seat, games in rotations:
        crashed += len(games) - len(ok_games(games))
        for g in ok_games(games):
            by_deal.setdefault(g["game"], []).append({"weak": weak_seat, **g})
    played = [g for deal in by_deal.values() for g in deal]
    weak_wins = sum(win_share(g, g["weak"]) for g in played)
    weaker = proportion_ci(weak_wins, len(played))
    stronger = _others_share(weaker, players)
    deal_margins = {k: [margin_of_weaker(g) for g in deal] for k, deal in sorted(by_deal.items())}
    complete = [m for m in deal_margins.values() if len(m) == len(rotations)]
    share = deal_share(complete)
    rng = random.Random(f"report-bootstrap/{seed}")
    boot: list[float] = []
    if len(complete) > 1:
        for _ in range(BOOTSTRAP):
            value = deal_share([complete[rng.randrange(len(complete))] for _ in complete])
            if value is not None:
                boot.append(value)
    return {
        "games": len(played),
        "deals": len(by_deal),
        "crashed": crashed,
        "even_share": 1 / players,
        "weaker_win_rate": weaker,
        "stronger_win_rate": stronger,
        "margin": mean_ci([statistics.fmean(m) for m in deal_margins.values()]),
        "deal_share": {"share": share, **_percentiles(boot)},
    }


def margin_of_weaker(game: dict) -> float:
    """The stronger seats' mean score less the weaker seat's (`weak`: its seat)."""
    scores = game["scores"]
    others = [s for p, s in enumerate(scores) if p != game["weak"]]
    return statistics.fmean(others) - scores[game["weak"]]


def _others_share(weaker: dict, players: int) -> dict:
    """A stronger seat's win rate: the weaker seat's losses shared by the players − 1 others,
    its interval the Wilson interval of the weaker's rate mapped through the same line."""
    if weaker["rate"] is None:
        return dict(weaker)
    k = players - 1
    return {"rate": (1 - weaker["rate"]) / k, "low": (1 - weaker["high"]) / k, "high": (1 - weaker["low"]) / k, "n": weaker["n"]}


def deal_share(groups: Sequence[Sequence[float]]) -> float | None:
    """One-way random-effects ANOVA (balanced): the deal's variance component as a share of
    the whole, (MSB − MSW)/r over that plus MSW, floored at 0; None without two deals of at
    least two games or without any variance."""
    n = len(groups)
    if n < 2 or not groups[0] or len(groups[0]) < 2:
        return None
    r = len(groups[0])
    means = [statistics.fmean(g) for g in groups]
    grand = statistics.fmean(means)
    msb = r * sum((m - grand) ** 2 for m in means) / (n - 1)
    msw = sum((v - m) ** 2 for g, m in zip(groups, means) for v in g) / (n * (r - 1))
    between = max(0.0, (msb - msw) / r)
    if between + msw == 0:
        return None
    return between / (between + msw)


def _percentiles(values: list[float]) -> dict:
    if not values:
        return {"low": None, "high": None}
    ordered = sorted(values)
    return {"low": ordered[int(0.025 * (len(ordered) - 1))], "high": ordered[int(0.975 * (len(ordered) - 1))]}


def card(restricted: Sequence[dict], always: Sequence[dict], base: Sequence[dict], copies: int) -> dict:
    """Restricted play, paired by game: what seat 0 loses when forbidden the card (`worth`, its
    interval `low`–`high`, per copy of the card too, and the two-sided p-value of worth ≠ 0 the
    multiple-comparison correction reads), and what it gains by taking the card whenever it can."""
    ref = {g["game"]: g for g in ok_games(base)}
    pairs = [(ref[g["game"]], g) for g in ok_games(restricted) if g["game"] in ref]
    points = mean_ci([b["scores"][0] - r["scores"][0] for b, r in pairs])
    wins = mean_ci([win_share(b, 0) - win_share(r, 0) for b, r in pairs])
    taking = [(ref[g["game"]], g) for g in ok_games(always) if g["game"] in ref]
    return {
        "games": len(pairs),
        "copies": copies,
        "worth": points["mean"],
        "low": points["low"],
        "high": points["high"],
        "p": p_value(points),
        "worth_per_copy": scaled(points, 1 / copies),
        "win_worth": wins,
        "forced_takes": mean_ci([float(r["forced"][0]) for _b, r in pairs]),
        "always_take": mean_ci([a["scores"][0] - b["scores"][0] for b, a in taking]),
        "always_take_win": mean_ci([win_share(a, 0) - win_share(b, 0) for b, a in taking]),
    }


def scaled(ci: dict, factor: float) -> dict:
    """A mean and its interval times a positive factor (the interval of a·X is a times X's)."""
    return {k: (v * factor if v is not None and k in ("mean", "low", "high", "sd") else v) for k, v in ci.items()}


def p_value(ci: dict, null: float = 0.0, one_sided: bool = False) -> float | None:
    """The normal test's p-value of a mean (`mean_ci`'s) against `null`: two-sided, or one-sided
    for a mean above it; None without two values. A mean with no spread is certain."""
    if ci["n"] < 2 or ci["mean"] is None:
        return None
    if ci["sd"] == 0:
        above = ci["mean"] > null
        return 0.0 if (above if one_sided else ci["mean"] != null) else 1.0
    z = (ci["mean"] - null) / (ci["sd"] / math.sqrt(ci["n"]))
    return 0.5 * math.erfc(z / math.sqrt(2)) if one_sided else math.erfc(abs(z) / math.sqrt(2))


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment (family-wise error): the i-th smallest of m p-values times
    (m − i + 1), kept non-decreasing and at most 1; None stays None and is not counted."""
    known = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(known)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(known):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def take_rates(games: Sequence[dict]) -> tuple[dict[str, dict], dict]:
    """Per card type: of the columns holding it on the track, the share someone took; and the
    base rate, the share of all cards on the track that were taken (a column holds a room and
    a resource, so this is the share of columns taken): a card's rate reads against it."""
    taken: dict[str, int] = {}
    offered: dict[str, int] = {}
    for g in ok_games(games):
        for k, n in g["taken"].items():
            taken[k] = taken.get(k, 0) + n
        for k, n in g["offered"].items():
            offered[k] = offered.get(k, 0) + n
    rates = {k: proportion_ci(min(taken.get(k, 0), n), n) for k, n in sorted(offered.items())}
    total = sum(offered.values())
    return rates, proportion_ci(min(sum(taken.get(k, 0) for k in offered), total), total)


def flag_cards(entries: list[dict], players: int) -> dict:
    """Each card's flags, the family-wise error of each family held at ALPHA by Holm's method:
    `costly_to_lose` / `better_without` when its points worth differs from 0 (positive /
    negative); `essential` when its win-rate worth exceeds half of an even share of wins (one-
    sided). A card's adjusted p-values go into its entry; the method is what is returned."""
    threshold = ESSENTIAL_SHARE / players
    worth_p = holm([e["p"] if e["games"] >= 2 else None for e in entries])
    essential_p = holm([p_value(e["win_worth"], threshold, one_sided=True) if e["games"] >= 2 else None for e in entries])
    for entry, wp, ep in zip(entries, worth_p, essential_p):
        entry["p_adjusted"] = wp
        entry["flags"] = []
        if wp is not None and wp < ALPHA:
            entry["flags"].append("costly_to_lose" if entry["worth"] > 0 else "better_without")
        if ep is not None and ep < ALPHA:
            entry["flags"].append("essential")
    return {
        "method": "holm",
        "alpha": ALPHA,
        "families": {
            "worth": f"points worth ≠ 0, two-sided, {sum(p is not None for p in worth_p)} cards",
            "essential": f"win-rate worth > {threshold:.3f}, one-sided, {sum(p is not None for p in essential_p)} cards",
        },
    }


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
        "top_score": quantile_ci(scores, TOP),
    }


def quantile_ci(values: Sequence[float], q: float) -> dict:
    """The q-th quantile of the houses' scores with its distribution-free 95% interval: the
    order statistics whose ranks bound a binomial(n, q) count (normal approximation). The best
    house reached is a sample maximum, which grows with the games and has no such interval;
    a high quantile does."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return {"q": q, "value": None, "low": None, "high": None, "n": 0}
    half = Z * math.sqrt(n * q * (1 - q))
    lo = max(0, math.floor(n * q - half) - 1)
    hi = min(n - 1, math.ceil(n * q + half) - 1)
    return {"q": q, "value": ordered[min(n - 1, max(0, math.ceil(n * q) - 1))], "low": ordered[lo], "high": ordered[hi], "n": n}


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
