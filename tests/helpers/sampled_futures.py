"""The solver bot's sampled futures, measured and not shipped (issue 25; docs/PERFORMANCE.md):
the look-ahead's pool replaced by deals of the rounds still to come, one card taken from each
round's offer (`add_offers`), averaged over several such futures in one CP-SAT model; and the
column comparison's other measured knobs (the first-player marker's worth, a value per
placement: `best_take_sampled(placement_bonus=…)`).

Shared by benchmarks/tuning_bots.py and benchmarks/value_of_information.py (which seat
`ScenarioSolverBot`'s subclasses) and the tests that prove the model (tests/test_place.py) and
the bot (tests/test_game.py). The shipped bots never use it: the package's solver compares one
completion over the whole pool (`solver.place`), and `ScenarioSolverBot` with its knobs at their
defaults plays exactly as `SolverBot` does.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ortools.sat.python import cp_model

from dreamhome.engine.cpsat import HouseModel
from dreamhome.engine.placement import Placement
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import TakeColumn
from dreamhome.game.observation import Observation
from dreamhome.game.state import MARKER_COLUMN
from dreamhome.house import House
from dreamhome.players.bots import SolverBot
from dreamhome.ruleset import EMPTY, SCAFFOLD, Ruleset
from dreamhome.solver.completion import Completion, InHand, fresh_of_type
from dreamhome.solver.place import TAKE_SCALE, CompletionModel, Option, Take, take_bonus_units, take_options

Scenario = list[dict[int, int]]
"""One sampled future: the rounds still to come, each as the room cards its offer shows."""


def add_offers(
    hm: HouseModel,
    completion: Completion,
    offers: list[dict[int, int]],
    name: str = "offer",
    hand: InHand | None = None,
) -> None:
    """The cards still to come as rounds, not as one pool: at most one card is taken from each
    round's offer (ROUND-*), so fresh cards of a type are at most the rounds that offer it.
    `hand`: the card in hand is one more card, of its type when placed face up, else an empty
    room. The solver bot samples the offers it cannot see (a determinisation, never the deck
    order)."""
    m = hm.model
    taken: dict[int, list[cp_model.IntVar]] = {}
    every: list[cp_model.IntVar] = []
    for r, offer in enumerate(offers):
        here: list[cp_model.IntVar] = []
        for room, n in sorted(offer.items()):
            if n > 0:
                y = m.new_bool_var(f"{name}{r}_{room}")
                taken.setdefault(room, []).append(y)
                here.append(y)
        if here:
            m.add_at_most_one(here)
            every += here
    for room in sorted({hm.classes[k].room for (_c, k) in completion.fresh if hm.classes[k].kind == "up"}):
        ups = fresh_of_type(hm, completion.fresh, room)
        in_hand = hand.face_up.get(room, 0) if hand is not None else 0
        m.add(sum(ups) <= sum(taken.get(room, [])) + in_hand)
    m.add(sum(completion.fresh.values()) <= sum(every) + (1 if hand is not None else 0))


def solve_scenarios(
    rules: Ruleset,
    house: House,
    pool: dict[int, int],
    options: list[Option],
    scenarios: list[Scenario | None],
    *,
    deterministic_time: float | None = None,
    time_limit: float | None = None,
    from_pool: bool = False,
    scale: int = 1,
    option_bonus: list[int] | None = None,
    weights: list[int] | None = None,
) -> tuple[int, bool, int | None]:
    """`solver.place`'s completion model with one completion per scenario (None: the whole pool,
    no rounds), the card in hand on the same cell in every one, each weighed by `weights`
    (None: all alike): the weighted sum's optimum, whether proven, the option chosen."""
    built = CompletionModel(rules, house, pool, options, from_pool)
    for s, scenario in enumerate(scenarios):
        hm, final = built.add_completion(f"s{s}")
        if scenario is not None:
            add_offers(hm, final, scenario, f"s{s}_offer", built.in_hand)
        built.count(hm, final, weights[s] if weights else 1)
    return built.solve(time_limit, 1, 0, deterministic_time, scale=scale, option_bonus=option_bonus)


def completion_bound_with_offers(
    rules: Ruleset, house: House, pool: dict[int, int], offers: Scenario, *, deterministic_time: float | None = None
) -> tuple[int, bool]:
    """`place.completion_bound` with the rounds still to come known (`offers`, one card taken
    from each): benchmarks/value_of_information.py's clairvoyant ceiling."""
    value, proven, _ = solve_scenarios(rules, house, pool, [], [offers], deterministic_time=deterministic_time)
    return value, proven


def best_placement_sampled(
    rules: Ruleset,
    house: House,
    pool: dict[int, int],
    card: int,
    placements: list[Placement],
    scenarios: list[Scenario | None],
    *,
    deterministic_time: float | None = None,
) -> tuple[int, Placement]:
    """`place.best_placement_now` over sampled futures: the completions' mean, the placement."""
    options = [(0, card, pl) for pl in placements]
    total, _proven, chosen = solve_scenarios(rules, house, pool, options, scenarios, deterministic_time=deterministic_time)
    assert chosen is not None  # the model places the card in hand on exactly one of `placements`
    return round(total / max(len(scenarios), 1)), placements[chosen]


def best_take_sampled(
    rules: Ruleset,
    house: House,
    pool: dict[int, int],
    takes: list[Take],
    scenarios: list[Scenario | None],
    *,
    deterministic_time: float | None = None,
    weights: list[int] | None = None,
    placement_bonus: list[tuple[float, ...]] | None = None,
) -> tuple[float, int, Placement]:
    """`place.best_take_now` over sampled futures (weighed by `weights`): the best take's
    weighted mean value, its index and its placement. `placement_bonus`: a value per placement
    of each take, added to its take's bonus (the `Certain` variants of
    benchmarks/tuning_bots.py: the shipped bots weigh a take, never a placement). With
    `scenarios=[None]` it is `best_take_now`'s one model, solve and answer."""
    n = sum(weights) if weights else max(len(scenarios), 1)
    options, bonus = take_options(takes, n)
    if placement_bonus is not None:
        extra = [value for take, values in zip(takes, placement_bonus) for value in values or [0.0] * len(take.placements)]
        bonus = [take_bonus_units(takes[i].bonus + e, i, len(takes), n) for (i, _c, _p), e in zip(options, extra, strict=True)]
    total, _proven, chosen = solve_scenarios(
        rules,
        house,
        pool,
        options,
        scenarios,
        deterministic_time=deterministic_time,
        from_pool=True,
        scale=TAKE_SCALE,
        option_bonus=bonus,
        weights=weights,
    )
    assert chosen is not None  # the model places exactly one option
    i, _card, placement = options[chosen]
    return (total - (len(takes) - i)) / (TAKE_SCALE * n), i, placement


class ScenarioSolverBot(SolverBot):
    """The solver bot with the knobs measured against it (docs/PERFORMANCE.md, "A stronger bot"):

    - `samples` > 0: each look-ahead replaces the pool by that many sampled futures
      (`_scenarios`: `offer_size` room cards a round, drawn from the unseen cards by the bot's
      own stream), averaged in one model — no stronger on the benchmark's seeds, at 5× the time a
      decision;
    - `marker_value`: the first-player marker's worth in the column comparison.

    At the defaults it plays exactly as `SolverBot` (same name, same stream, same solves)."""

    marker_value = 0.0  # the first-player marker's worth to the column comparison (`_take_bonus`)
    samples = 0  # sampled futures per look-ahead (0: the whole pool, no rounds)
    offer_size = 5  # room cards a player sees on the track when its turn comes, at most

    def _scenarios(self, obs: Observation, house: House, pool: dict[int, int]) -> list[Any] | None:
        """`samples` sampled futures for one look-ahead, or None for the whole pool. They leave
        out the track's cards, so a card in hand (or each compared column's) is never dealt again."""
        return [self._offers(obs, house, pool) for _ in range(self.samples)] or None

    def _scenario_weights(self, scenarios: list[Any] | None) -> list[int] | None:
        """Each scenario's weight in the column comparison (None: all alike)."""
        return None

    def _offers(self, obs: Observation, house: House, pool: dict[int, int]) -> Scenario:
        """One sampled future (a determinisation): the unseen room cards, less those on the track
        now, dealt `offer_size` a round for the rounds still to come."""
        deck = dict(pool)
        for code in obs.track_rooms:
            if code is not None and deck.get(code):
                deck[code] -= 1
        cards = [code for code, n in sorted(deck.items()) for _ in range(n)]
        self.rng.shuffle(cards)
        free = sum(1 for c in house.cells if c in (EMPTY, SCAFFOLD))
        rounds = max(obs.rules.game.rounds - obs.round, free - 1)
        k = self.offer_size
        return [Counter(cards[r * k : (r + 1) * k]) for r in range(rounds) if cards[r * k : (r + 1) * k]]

    def _lookahead(
        self, obs: Observation, house: House, pool: dict[int, int], room: int, placements: list[Placement]
    ) -> tuple[Any, Any]:
        scenarios = self._scenarios(obs, house, pool)
        if scenarios is None:
            return super()._lookahead(obs, house, pool, room, placements)
        light = self._light(obs, house)
        try:
            return best_placement_sampled(
                obs.rules, light, pool, room, placements, scenarios, deterministic_time=self.settings.work
            )
        except DreamhomeError:  # nothing found within the work limit: no look-ahead this time
            return None, None

    def _solve_takes(self, obs: Observation, light: House, pool: dict[int, int], takes: list[Take]) -> tuple[int, Placement]:
        scenarios = self._scenarios(obs, obs.houses[obs.me], pool)  # the house as dealt, not the look-ahead's
        if scenarios is None:
            return super()._solve_takes(obs, light, pool, takes)
        work = self.settings.work * len(takes)
        weights = self._scenario_weights(scenarios)
        _value, index, placement = best_take_sampled(
            obs.rules, light, pool, takes, scenarios, deterministic_time=work, weights=weights
        )
        return index, placement

    def _take_bonus(self, obs: Observation, action: TakeColumn, room: int) -> float:
        """The resource card's value, and for the column that carries the first-player marker
        (ROUND-3, ROUND-ORDER) `marker_value` — leading the next round means the first pick of
        the whole track — unless no round follows; half of it when the bot leads already (taking
        the column keeps the lead, ROUND-4)."""
        value = super()._take_bonus(obs, action, room)
        if action.column == MARKER_COLUMN and obs.round < obs.rules.game.rounds:
            value += self.marker_value if obs.first != obs.me else self.marker_value / 2
        return value
