"""The solver bot's variants measured while looking for a stronger bot (issues #15 and 25), as
bots `bench_strength.py` can seat by `module:Class`:

    PYTHONPATH=.:benchmarks python benchmarks/bench_strength.py --seed 5000 --games 100 \
        --pairs tuning_bots:Sampled4/greedy,tuning_bots:FiveColumns/greedy
    PYTHONPATH=.:benchmarks python benchmarks/bench_strength.py --seed 5000 --games 300 \
        --pairs tuning_bots:FiveColumns/greedy,tuning_bots:WithSwaps/greedy,tuning_bots:RoofOdds/greedy

Seeds from 5000 are the tuning seeds; the benchmark's tables in docs/PERFORMANCE.md use seeds
from 50,000. The second command prints each variant's paired difference against the first row
(issue 25's table: 300 games, every variant against `FiveColumns`).
Each class changes one documented knob of `SolverBot` or of its measured variant
`ScenarioSolverBot` (sampled futures, the first-player marker: tests/helpers/sampled_futures.py,
shared with the tests that prove it), or overrides one method, nothing else.
A bot's random stream is seeded by its `name`, so each class keeps the name it had in the
measured run, and a rerun repeats its figure.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from dreamhome.engine.placement import Placement, apply_placement, legal_placements
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import END_ACTIONS, Action, PlaceRoom, TakeColumn
from dreamhome.game.observation import Observation
from dreamhome.game.state import Resource
from dreamhome.house import House
from dreamhome.players.bots import GreedyBot, SolverBot, plan_key, roof_hope
from dreamhome.players.hard_bot import HardBot
from dreamhome.players.lookahead import MEDIUM
from dreamhome.scoring import rooms_of, score_total
from dreamhome.solver.place import Take

if str(Path(__file__).resolve().parent.parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests.helpers
from tests.helpers.sampled_futures import ScenarioSolverBot, best_take_sampled  # noqa: E402


class FiveColumns(ScenarioSolverBot):
    """Every column of a 4-player track compared, not the greedy value's best three."""

    name = "c5"
    settings = replace(MEDIUM, columns=5)


class Sampled2(ScenarioSolverBot):
    """Two sampled futures a look-ahead (sampled_futures.add_offers), work 0.1."""

    name = "s2"
    samples = 2
    settings = replace(MEDIUM, work=0.1)


class Sampled4(ScenarioSolverBot):
    """Four sampled futures a look-ahead, work 0.2: the best on the tuning seeds (+7.4), and no
    better than the solver bot on the benchmark's seeds (+6.3 against +6.0)."""

    name = "s4"
    samples = 4
    settings = replace(MEDIUM, work=0.2)


class Planner(Sampled4):
    """`Sampled4` under the name it had in the benchmark's run (+6.28 on seeds from 50,000)."""

    name = "planner"


class Sampled4FiveColumns(Sampled4):
    name = "s4c5"
    settings = replace(MEDIUM, work=0.2, columns=5)


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


class Certain(FiveColumns):
    """Issue 25: the column comparison adds `certain` × the score the house has right after the
    placement, so points scored now weigh more than the completion's promise."""

    name = "certain"
    certain = 0.25

    def _solve_takes(self, obs: Observation, light: House, pool: dict[int, int], takes: list[Take]) -> tuple[int, Placement]:
        """The solver bot's one solve of the columns (`best_take_now`'s model, through
        `best_take_sampled` with the whole pool), each placement's bonus added."""
        rules = obs.rules
        house = obs.houses[obs.me]
        bonus = [
            tuple(self.certain * score_total(rules, apply_placement(rules, house, t.card, p)) for p in t.placements)
            for t in takes
        ]
        work = self.settings.work * len(takes)
        _value, index, placement = best_take_sampled(
            rules, light, pool, takes, [None], deterministic_time=work, placement_bonus=bonus
        )
        return index, placement


class CertainHalf(Certain):
    name = "certain_half"
    certain = 0.5


class Lexicographic(FiveColumns):
    """Issue 25: the whole pool's bound first (weight `primary`), sampled futures (`samples`)
    breaking its ties: the bound is an upper bound and ties often early in the game."""

    name = "lexi"
    samples = 4
    primary = 100
    settings = replace(MEDIUM, work=0.1, columns=5)

    def _scenarios(self, obs: Observation, house: House, pool: dict[int, int]) -> list[Any] | None:
        return [None] + [self._offers(obs, house, pool) for _ in range(self.samples)]

    def _scenario_weights(self, scenarios: list[Any] | None) -> list[int] | None:
        return None if scenarios is None else [self.primary] + [1] * (len(scenarios) - 1)


class RolloutTies(FiveColumns):
    """Issue 25: the columns whose bound ties at the top are told apart by play-outs: `rollouts`
    sampled deals (the same for every column), the column taken and its card placed as the
    bound placed it, then every seat played by the greedy bot to the end; the column with the
    best mean final score of this seat (plus its resource value) wins."""

    name = "rollties"
    rollouts = 8
    relative = False

    def _best_column(self, obs: Observation, legal: list[Action]) -> Action:
        from dreamhome.solver.place import best_take_now

        rules = obs.rules
        house = obs.houses[obs.me]
        takes = [a for a in legal if isinstance(a, TakeColumn)]
        ranked = sorted(takes, key=lambda a: (-self._value(obs, a), a.column))[: self.settings.columns]
        light = self._light(obs, house)
        pool = self._pool(obs)
        found: list[tuple[float, int, TakeColumn, int, Placement]] = []
        for rank, action in enumerate(ranked):
            room = obs.track_rooms[action.column]
            assert room is not None
            placements = legal_placements(rules, house, room)
            if not placements:
                continue
            try:
                value, _i, placement = best_take_now(
                    rules, light, pool, [Take(room, placements)], deterministic_time=self.settings.work
                )
            except DreamhomeError:
                continue
            found.append((value, rank, action, room, placement))
        if not found:
            return ranked[0]
        top = max(v for v, *_ in found)
        tied = [f for f in found if f[0] >= top]
        if len(tied) == 1 or obs.sampler is None:
            _v, _r, action, room, placement = max(tied, key=lambda f: (f[0] + self._take_bonus(obs, f[2], f[3]), -f[1]))
        else:
            seeds = [self.rng.getrandbits(32) for _ in range(self.rollouts)]
            best = None
            for _v, rank, action_i, room_i, placement_i in tied:
                total = 0.0
                for s in seeds:
                    total += _playout(obs, action_i, placement_i, random.Random(s), self.relative)
                mean = total / len(seeds)
                key = (mean, -rank)
                if best is None or key > best[0]:
                    best = (key, action_i, room_i, placement_i)
            assert best is not None
            _k, action, room, placement = best
        self.planned = (plan_key(light), room, placement)
        return action


def _playout(obs: Observation, action: TakeColumn, placement: Placement, rng: random.Random, relative: bool = False) -> float:
    """This seat's final score after `action` on a sampled deal, every seat then greedy."""
    state = obs.sample_state(rng)
    me = obs.me
    bots = [GreedyBot(rng.getrandbits(32), s) for s in range(len(obs.houses))]
    state.apply_action(action)
    rules = obs.rules
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        if p == me and placement is not None and all(isinstance(a, PlaceRoom) for a in legal):
            cell = rules.board.cells[placement.cell]
            pick = next(
                (a for a in legal if isinstance(a, PlaceRoom) and a.cell == cell and a.face_down == placement.face_down), None
            )
            placement = None  # type: ignore[assignment]
            if pick is not None:
                state.apply_action(pick)
                continue
        state.apply_action(bots[p].choose(state.observation(p, lookahead=p == me), legal))
    scores = state.returns()
    if relative:
        return scores[me] - sum(s for i, s in enumerate(scores) if i != me) / (len(scores) - 1)
    return float(scores[me])


class ResourcesEarly(FiveColumns):
    """Issue 25: resource cards weigh (1 + rounds left / rounds) × the greedy value: the
    self-play regression (docs/PERFORMANCE.md) put a resource point at about twice a bound point
    early in the game, the same late."""

    name = "res_early"

    def _take_bonus(self, obs: Observation, action: TakeColumn, room: int) -> float:
        rounds = obs.rules.game.rounds
        return (1 + (rounds - obs.round) / rounds) * super()._take_bonus(obs, action, room)


class DenialFive(Denial):
    name = "denial5"
    settings = replace(Denial.settings, columns=5)


class RolloutTiesRelative(RolloutTies):
    """`RolloutTies` scoring a play-out by this seat's score less the others' mean."""

    name = "rollrel"
    relative = True


class WithSwaps(FiveColumns):
    """Issue 25: the look-ahead keeps the swap helpers (handyman, supplier) the solver bot
    leaves out for speed: the completion then plans the end game's swaps too."""

    name = "swaps"
    settings = replace(MEDIUM, columns=5, swap_helpers=True)


class FurnishingTokens(FiveColumns):
    """Issue 25: a furnishing column valued with its token placed in the look-ahead (RES-FURN: it
    goes on at once and closes its room, PLACE-CLOSED), over its placements and the rooms the
    token can go on; the other columns as the solver bot compares them."""

    name = "hard"

    def _best_column(self, obs: Observation, legal: list[Action]) -> Action:
        """Columns with a furnishing for a room (RES-FURN) are valued one by one with their token
        placed (`_furnished_value`); the others as the solver bot compares them, in one solve.
        The better wins; ties to the better greedy rank."""
        house = obs.houses[obs.me]
        takes = [a for a in legal if isinstance(a, TakeColumn)]
        ranked = sorted(takes, key=lambda a: (-self._value(obs, a), a.column))[: self.settings.columns]
        furnished = [a for a in ranked if self._token_furnishing(obs, a) is not None]
        if not furnished:
            return super()._best_column(obs, legal)
        plain = [a for a in legal if not (isinstance(a, TakeColumn) and a in furnished)]
        best: tuple[float, int] | None = None
        choice: tuple[TakeColumn, int, Placement] | None = None
        for rank, action in enumerate(ranked):
            if action not in furnished:
                continue
            found = self._furnished_value(obs, house, action)
            if found is not None and (best is None or (found[0], -rank) > best):
                best, choice = (found[0], -rank), (action, found[1], found[2])
        if any(isinstance(a, TakeColumn) for a in plain):
            light = self._light(obs, house)
            other = super()._best_column(obs, plain)
            plan = self.planned
            if isinstance(other, TakeColumn) and plan is not None and plan[0] == plan_key(light):
                value = self._plain_value(obs, house, other, plan[1], plan[2])
                rank = ranked.index(other) if other in ranked else len(ranked)
                if best is None or (value, -rank) > best:
                    return other
            elif best is None:
                return other
        if choice is None:
            return ranked[0]
        action, room, placement = choice
        self.planned = (plan_key(self._light(obs, house)), room, placement)
        return action

    def _token_furnishing(self, obs: Observation, action: TakeColumn) -> str | None:
        """The furnishing of a column whose token goes on a room (not one kept outside), or None."""
        res = obs.track_res[action.column]
        if res is None or res.kind != "furnishing" or obs.rules.furnishing(res.id).outside:
            return None
        return res.id

    def _furnished_value(self, obs: Observation, house: House, action: TakeColumn) -> tuple[float, int, Placement] | None:
        """(best completion, room card, placement) of a furnishing column: over the placements of
        its room card and the rooms of the furnishing's type its token can go on (FURN-TYPE,
        FURN-ONE: a room without a token; none: the card is discarded, RES-FURN)."""
        from dreamhome.solver.place import completion_bound

        rules = obs.rules
        furn = self._token_furnishing(obs, action)
        room = obs.track_rooms[action.column]
        assert furn is not None and room is not None
        printed = rules.furnishing(furn).room
        assert printed is not None  # not outside: it names its room (FURN-TYPE)
        code = rules.room(printed).code
        token = rules.furnishing(furn).code
        pool = self._pool(obs)
        if pool.get(room):
            pool[room] -= 1
        best: tuple[float, int, Placement] | None = None
        for placement in legal_placements(rules, house, room):
            after = apply_placement(rules, house, room, placement)
            targets = [
                cells[0] for kind, cells in rooms_of(rules, after) if kind == code and not any(after.tokens[i] for i in cells)
            ]
            for target in targets or [None]:
                final = after if target is None else after.with_token(target, token)
                try:
                    value, _proven = completion_bound(rules, self._light(obs, final), pool, deterministic_time=self.settings.work)
                except DreamhomeError:
                    continue
                if best is None or value > best[0]:
                    best = (float(value), room, placement)
        return best

    def _plain_value(self, obs: Observation, house: House, action: TakeColumn, room: int, placement: Placement) -> float:
        """The value the solver bot's comparison gave its choice, recomputed for comparison with
        a furnishing column: the completion with the card placed plus the resource's value."""
        from dreamhome.solver.place import completion_bound

        rules = obs.rules
        pool = self._pool(obs)
        if pool.get(room):
            pool[room] -= 1
        after = apply_placement(rules, house, room, placement)
        try:
            value, _proven = completion_bound(rules, self._light(obs, after), pool, deterministic_time=self.settings.work)
        except DreamhomeError:
            return float("-inf")
        return value + self._take_bonus(obs, action, room)


class SwapsResourcesEarly(WithSwaps):
    """`WithSwaps` with `ResourcesEarly`'s weighting: the two gains did not add (+6.46 on the
    tuning seeds, as five columns alone)."""

    name = "hard"

    def _take_bonus(self, obs: Observation, action: TakeColumn, room: int) -> float:
        rounds = obs.rules.game.rounds
        return (1 + (rounds - obs.round) / rounds) * super()._take_bonus(obs, action, room)


class RoofOdds(WithSwaps):
    """Issue 25: a roof card valued by the roof's chances counted from the cards (SCORE-ROOF):
    every resource card is dealt by the last round (the deck holds one a slot a round), so each
    roof card nobody has seen yet will reach the track; the bot takes any one of them with the
    chance `roof_take`, at most one a round, and a roofer it holds (END-ROOFER) adds a card of a
    colour the roof discard pile shows. The roof's worth is the best of a one-colour roof (its
    chance by a binomial over that colour's unseen cards) falling back on a mixed one."""

    name = "roofodds"
    roof_take = 0.35

    def _resource_value(self, obs: Observation, res: Resource | None, room: int) -> float:
        if res is None or res.kind != "roof":
            return super()._resource_value(obs, res, room)
        rules = obs.rules
        roofs = list(obs.houses[obs.me].roofs)
        card = (rules.roof(res.id).index, res.window)
        return self._roof_worth(obs, roofs + [card], card) - self._roof_worth(obs, roofs, card)

    def _roof_worth(self, obs: Observation, roofs: list[tuple[int, bool]], on_track: tuple[int, bool]) -> float:
        from dreamhome.engine.endgame import helper_uses

        rules = obs.rules
        t = rules.tables
        size = t.roof_size
        n = t.n_roof_colours
        unseen = [r.count for r in sorted(rules.roofs, key=lambda r: r.index)]
        seen: list[tuple[int, bool]] = [c for h in obs.houses for c in h.roofs] + list(obs.roof_discard)
        seen += [(rules.roof(x.id).index, x.window) for x in obs.track_res if x is not None and x.kind == "roof"]
        for colour, _w in seen:
            unseen[colour] -= 1
        rounds_left = max(0, rules.game.rounds - obs.round)
        roofers = len(helper_uses(rules, obs.houses[obs.me]).roof_discard_take)
        pile = [0] * n
        for colour, _w in obs.roof_discard:
            pile[colour] += 1
        have = [0] * n
        wins = [0] * n
        for colour, window in roofs:
            have[colour] += 1
            wins[colour] += bool(window)
        q = self.roof_take

        def chance(need: int, cards: int) -> float:
            if need <= 0:
                return 1.0
            if need > rounds_left or need > cards:
                return 0.0
            return sum(math.comb(cards, k) * q**k * (1 - q) ** (cards - k) for k in range(need, cards + 1))

        cover = min(roofers, sum(pile))
        mixed_need = max(0, size - len(roofs) - cover)
        mixed = chance(mixed_need, max(0, sum(unseen))) * (t.roof_mixed + t.roof_window * min(size, sum(wins)))
        best = mixed
        for c in range(n):
            need = max(0, size - have[c] - min(roofers, pile[c]))
            p = chance(need, max(0, unseen[c]))
            best = max(best, p * (t.roof_uniform + t.roof_window * min(size, wins[c])) + (1 - p) * mixed)
        return best


class RoofOddsHalf(RoofOdds):
    name = "roofodds5"
    roof_take = 0.5


class RoofOddsQuarter(RoofOdds):
    name = "roofodds25"
    roof_take = 0.25


def check() -> int:
    """Every variant is seatable by `module:Class` and picks a legal action at the first
    decisions of a 4-player game (a take, its placement, the next take): the benchmark's own
    smoke test, `python benchmarks/tuning_bots.py --check`, to run after changing the solver bot
    (about a minute of solves for 31 variants: kept out of the suite, which never imports
    benchmarks/; `ScenarioSolverBot`, their base, is tested there through tests/helpers)."""
    from dreamhome.dsl.compiler import compile_rules
    from dreamhome.game.state import GameState
    from dreamhome.players.roster import make_bot

    names = [n for n, c in globals().items() if isinstance(c, type) and issubclass(c, SolverBot) and c is not SolverBot]
    rules = compile_rules()
    for name in names:
        state = GameState(rules, 4, 2)
        for _ in range(3):
            p = state.current_player()
            bot = make_bot(f"tuning_bots:{name}", 2, p)
            legal = state.legal_actions()
            action = bot.choose(state.observation(p), legal)
            if action not in legal:
                raise SystemExit(f"tuning_bots:{name} chose {action}, not a legal action")
            state.apply_action(action)
    print(f"{len(names)} variants seated, each chose legal actions")
    return len(names)


def _outlook_max(bot: SolverBot, rules: Any, roofs: list[tuple[int, bool]], rounds_left: int) -> float:
    """The roof outlook before issue 31: the best way to finish the roof, each discounted by
    `roof_odds` per missing card, with no floor for the roof the held cards already make
    (`bots.roof_hope` over a roof worth nothing yet)."""
    return roof_hope(rules, roofs, rounds_left, 0.0, bot.roof_odds)


def _use_if_it_scores(bot: SolverBot, obs: Observation, legal: list[Action]) -> Action | None:
    """The uses before a take before issue 31: an end-game effect only when it scores at once
    (the greedy value), a track tool never."""
    uses = [a for a in legal if isinstance(a, END_ACTIONS)]
    if uses:
        value, use = max(((bot._value(obs, a), -i), a) for i, a in enumerate(uses))
        if value[0] > 0:
            return use
    return None


class _AsBefore31(SolverBot):
    """Issue 31: a look-ahead bot's roof outlook without the floor of a complete roof
    (`_outlook_max`), its uses before a take only when they score at once (`_use_if_it_scores`);
    mixed in before the bot it changes."""

    def _best_use(self, obs: Observation, legal: list[Action]) -> Action | None:
        return _use_if_it_scores(self, obs, legal)

    def _roof_outlook(self, rules: Any, roofs: list[tuple[int, bool]], rounds_left: int) -> float:
        return _outlook_max(self, rules, roofs, rounds_left)


class MediumOutlookMax(_AsBefore31):
    """Issue 31: the medium (solver) bot as it was (`_AsBefore31`); named as the solver bot, so its
    random stream is the same."""

    name = "solver"


class HardOutlookMax(_AsBefore31, HardBot):
    """Issue 31: the hard bot as it was (`_AsBefore31`); named as the hard bot."""

    name = "hard"


class HardRoofAsReview(HardBot):
    """Issue 31: the hard bot valuing a roof card as the review's look-ahead reads it, only by the
    roof the held cards make now (SCORE-ROOF: 0 with fewer than 4; the review's completion has no
    resource cards to come), no hope of a roof still to finish; otherwise the hard bot as it was
    (its uses before a take as `HardOutlookMax`'s); named as the hard bot."""

    name = "hard"

    def _best_use(self, obs: Observation, legal: list[Action]) -> Action | None:
        return _use_if_it_scores(self, obs, legal)

    def _roof_outlook(self, rules: Any, roofs: list[tuple[int, bool]], rounds_left: int) -> float:
        from dreamhome.engine.roof import best_roof_points

        return float(best_roof_points(rules, roofs))


class HardArchitectRead(HardBot):
    """Issue 31: the hard bot valuing a helper that adds to bonuses (HELP-ARCHITECT: each
    functionality bonus +1, each empty room 1) as the review's look-ahead reads it — the best
    completion of the house holding it less the best completion without it (two solves, the
    bot's work each) — where it values it at the greedy bot's 2 points; otherwise the hard bot;
    named as the hard bot."""

    name = "hard"

    def _resource_value(self, obs: Observation, res: Resource | None, room: int) -> float:
        from dreamhome.solver.place import completion_bound

        if res is None or res.kind != "helper" or not obs.rules.tables.helper_bonus_plus.get(res.id):
            return super()._resource_value(obs, res, room)
        house = self._light(obs, obs.houses[obs.me])
        pool = self._pool(obs)
        try:
            without, _ = completion_bound(obs.rules, house, pool, deterministic_time=self.settings.work)
            holding = replace(house, helpers=house.helpers + (res.id,))
            with_it, _ = completion_bound(obs.rules, holding, pool, deterministic_time=self.settings.work)
        except DreamhomeError:
            return super()._resource_value(obs, res, room)
        return float(max(0, with_it - without))


if __name__ == "__main__":
    if sys.argv[1:] != ["--check"]:
        raise SystemExit("usage: python benchmarks/tuning_bots.py --check  (the variants are seated by bench_strength.py)")
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # `tuning_bots:Class` names this module
    check()
