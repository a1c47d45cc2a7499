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
"""Bootstrap resamples for the figures with no closed-form interval."""
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
