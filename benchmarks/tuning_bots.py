"""The solver bot's variants measured while looking for a stronger bot (issue #15), as bots
`bench_strength.py` can seat by `module:Class`:

    PYTHONPATH=.:benchmarks python benchmarks/bench_strength.py --seed 5000 --games 100 \
        --pairs tuning_bots:Sampled4/greedy,tuning_bots:FiveColumns/greedy

Seeds 5000–5099 are the tuning seeds; the table of docs/PERFORMANCE.md uses seeds from 50,000.
Each class changes one documented knob of `SolverBot` (or overrides one method), nothing else.
A bot's random stream is seeded by its `name`, so each class keeps the name it had in the
measured run, and a rerun repeats its figure.
"""

from __future__ import annotations

from dataclasses import replace

from dreamhome.game.actions import TakeColumn
from dreamhome.game.bots import GreedyBot, SolverBot
from dreamhome.game.observation import Observation
from dreamhome.game.state import Resource


class FiveColumns(SolverBot):
    """Every column of a 4-player track compared, not the greedy value's best three."""

    name = "c5"
    columns_compared = 5


class Sampled2(SolverBot):
    """Two sampled futures a look-ahead (completion.add_offers), work 0.1."""

    name = "s2"
    samples = 2
    work_per_decision = 0.1


class Sampled4(SolverBot):
    """Four sampled futures a look-ahead, work 0.2: the best on the tuning seeds (+7.4), and no
    better than the solver bot on the benchmark's seeds (+6.3 against +6.0)."""

    name = "s4"
    samples = 4
    work_per_decision = 0.2


class Planner(Sampled4):
    """`Sampled4` under the name it had in the benchmark's run (+6.28 on seeds from 50,000)."""

    name = "planner"


class Sampled4FiveColumns(Sampled4):
    name = "s4c5"
    columns_compared = 5


class Sampled4Offers3(Sampled4):
    """Offers of three room cards: what a later seat of four sees on the track."""

    name = "s4k3"
    offer_size = 3


class ExpectedOffers(FiveColumns):
    """The pool capped, per room type, by the rounds whose offer is expected to show it (at
    least one): a deterministic stand-in for sampled futures, at no extra cost."""

    name = "caps"

    def _pool(self, obs: Observation) -> dict[int, int]:
        pool = super()._pool(obs)
        cards = sum(pool.values()) or 1
        rounds = max(1, obs.rules.game.rounds - obs.round)
        k = self.offer_size
        return {t: min(n, max(1, round(rounds * (1 - (1 - n / cards) ** k)))) if n else 0 for t, n in pool.items()}


class ExpectedOffers3(ExpectedOffers):
    name = "caps3"
    offer_size = 3


class Marker(FiveColumns):
    """The first-player marker worth `marker_value` in the column comparison (set by subclass)."""

    name = "marker"


class MarkerPlusOneAndHalf(Marker):
    name = "m15"
    marker_value = 1.5


class MarkerPlus3(Marker):
    name = "m3"
    marker_value = 3.0


class MarkerMinus1(Marker):
    name = "mn1"
    marker_value = -1.0


class MarkerMinus2(Marker):
    name = "mn2"
    marker_value = -2.0


class ResourcesHalf(FiveColumns):
    """Resource cards worth half the greedy value."""

    name = "b05"

    def _resource_value(self, obs: Observation, res: Resource | None, room: int) -> float:
        return 0.5 * super()._resource_value(obs, res, room)


class ResourcesOneAndHalf(FiveColumns):
    """Resource cards worth 1.5 times the greedy value."""

    name = "b15"

    def _resource_value(self, obs: Observation, res: Resource | None, room: int) -> float:
        return 1.5 * super()._resource_value(obs, res, room)


class Denial(SolverBot):
    """A column the next player to take would miss is worth `denial` × what that player loses
    by it (its greedy value of its best column less its best of the rest): the score table
    compares a seat with the mean of the others."""

    name = "denial"
    denial = 0.5

    def _take_bonus(self, obs: Observation, action: TakeColumn, room: int) -> float:
        value = super()._take_bonus(obs, action, room)
        following = _next_taker(obs)
        if following is None:
            return value
        theirs = replace(obs, me=following, actor=following)
        values = {k: GreedyBot._value(self, theirs, TakeColumn(k)) for k, r in enumerate(obs.track_rooms) if r is not None}
        if len(values) < 2 or action.column not in values:
            return value
        best = max(values.values())
        rest = max(v for k, v in values.items() if k != action.column)
        return value + self.denial * (best - rest)


class DenialOne(Denial):
    name = "denial_one"
    denial = 1.0


def _next_taker(obs: Observation) -> int | None:
    """The player who takes a column after this one in this round (ROUND-3: clockwise from the
    player who leads the round), or None for the last."""
    n = len(obs.houses)
    after = (obs.me + 1) % n
    return None if after == obs.first else after
