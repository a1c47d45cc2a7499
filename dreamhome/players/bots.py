"""Bots: functions of what a player at the table sees, never the deck order.

A bot gets an `Observation` (SEE-1: the houses, the track, the discard piles,
the round, the rules; no deck, no game state) and the legal actions, and
returns one action. Each bot has its own RNG, seeded from the game seed and its
seat, so the same seed gives the same game.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from dreamhome.engine.placement import Placement, legal_placements
from dreamhome.engine.roof import best_roof_points
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import (
    Action,
    EndTurn,
    PlaceRoom,
    PlaceToken,
    TakeColumn,
)
from dreamhome.game.flow import turns_left
from dreamhome.game.observation import Observation
from dreamhome.game.phases import Phase
from dreamhome.game.state import Resource
from dreamhome.house import House
from dreamhome.players.bot import Bot
from dreamhome.players.greedy import GreedyBot, RandomBot, placement_of
from dreamhome.players.lookahead import (
    MEDIUM,
    Settings,
    best_index,
    end_action,
    leaf,
    option_values,
    rounds_house,
    unseen_pool,
    without,
)
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import score_total
from dreamhome.seeds import check_seed

if TYPE_CHECKING:
    from dreamhome.solver.place import Take


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}
# OpenSpiel's searches (the `openspiel` extra), `name` or `name@N` (N simulations a decision).
SEARCH_BOTS = ("mcts", "ismcts")


def make_bot(name: str, seed: int, seat: int) -> Bot:
    """The bot for one seat: a name of `BOTS`, or `module:Class` for a bot of your own.

    The entry points call `dreamhome.players.roster.make_bot`, which adds the levels (easy, medium,
    hard) on top of this one; this one stays for code that names the packaged bots only.

    A bot of your own is a `Bot` subclass in any importable module (docs/python.md); it is
    built like the packaged ones, with the game seed and its seat, so its games replay too.
    Whatever goes wrong is one `DreamhomeError` line, since the name comes from the command line
    or a game record. A negative seed is refused (`seeds.check_seed`)."""
    check_seed(seed, f"bot '{name}'")
    if ":" in name:
        return _import_bot(name)(seed, seat)
    if name.partition("@")[0] in SEARCH_BOTS:
        try:
            from dreamhome.players.search_bots import make_search_bot
        except ImportError as exc:
            raise DreamhomeError(f"bot '{name}' needs OpenSpiel: pip install -e '.[openspiel]' ({exc})") from None
        return make_search_bot(name, seed, seat)
    try:
        return BOTS[name](seed, seat)
    except KeyError:
        raise DreamhomeError(
            f"unknown bot '{name}'; known bots: {', '.join((*BOTS, *SEARCH_BOTS))}, or module:Class for a bot of your own"
        ) from None


def _import_bot(name: str) -> type[Bot]:
    module_name, _, class_name = name.partition(":")
    if not module_name or not class_name:
        raise DreamhomeError(f"bot '{name}': expected module:Class, such as mypackage.bots:MyBot")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any failure of the user's module is the user's, reported in one line
        raise DreamhomeError(f"bot '{name}': cannot import {module_name}: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise DreamhomeError(f"bot '{name}': module {module_name} has no {class_name}")
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise DreamhomeError(f"bot '{name}': {class_name} is not a bot (a subclass of dreamhome.players.bots.Bot)")
    return cls


class SolverBot(GreedyBot):
    """Looks ahead with the solver (documented rule):

    - placing a room card: the placement used by the best completion of the house (one CP-SAT
      solve, solver.place.best_placement_now: the best final score the house could still reach
      with the cards still to come, its score helpers counted, swap helpers left out
      for speed); ties go face up first, then to board order;
    - choosing a column: the greedy value ranks the columns, then the three best are compared in
      one CP-SAT solve (solver.place.best_take_now; one solve per column: games 2.7× as long) by
      the best completion with their room card placed now, plus the value of the resource card
      above it (a roof card by its roof outlook, `_roof_outlook`: the best way the roof can
      still end, all one colour or mixed, discounted by `roof_odds` per missing card; any
      other card by the greedy bot's value); the placement found is then played without a
      second solve;
    - a furnishing token with a choice of cards: the card whose room leaves the best completion;
    - the end game: the actions of `best_final_score` (CP-SAT, one worker, fixed seed), in order;
    - everything else as the greedy bot.

    The variants measured against it (sampled futures, the first-player marker's worth, …) are
    subclasses outside the package: benchmarks/tuning_bots.py, on
    tests/helpers/sampled_futures.py (docs/PERFORMANCE.md).
    """

    name = "solver"
    settings: Settings = MEDIUM  # the look-ahead's settings (lookahead.MEDIUM: work, columns, swap helpers)
    roof_odds = 0.7  # the chance-and-cost discount per roof card still missing (roof outlook)

    def __init__(self, seed: int, seat: int):
        super().__init__(seed, seat)
        self.plan: list[Action] = []
        self.planned: tuple[House, int, Placement] | None = None  # (house, room card, placement) of the last column solve

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        if obs.phase == "end":
            return self._end_game(obs, legal)
        if legal and all(isinstance(a, PlaceRoom) for a in legal):
            return self._planned_placement(obs, legal) or self._last_card(obs, legal) or self._best_placement(obs, legal)
        if any(isinstance(a, TakeColumn) for a in legal):
            use = self._best_use(obs, legal)
            return use if use is not None else (self._last_card(obs, legal) or self._best_column(obs, legal))
        if len(legal) > 1 and all(isinstance(a, PlaceToken) for a in legal):
            return self._best_token(obs, legal)
        return super().choose(obs, legal)

    def _best_use(self, obs: Observation, legal: list[Action]) -> Action | None:
        """TOOL-TIMING: a use before the take (a tool's swap with the track, TOOL-DRILL, or
        between columns, TOOL-MIXER; an end-game effect a card allows now) that the look-ahead
        values above taking a column now: the `USES` uses that gain most at once (the greedy
        value, above 0) are each valued by `lookahead.option_values` with the bot's settings,
        the review's own reading (after a use, the best take still to make), against
        `lookahead.leaf` of the position as it is (the best take now, one solve). The bot had
        played an end-game effect whenever it scored at once and a track tool never: the
        medium seat of seed 1 (hard, solver, greedy, greedy rotated) lost 4 points by the
        review twice on a swap with the track its completion wanted (issue 31). Uses that gain nothing
        at once (a swap of two track columns) are not valued: valuing every use at every take
        made the bots' decisions four times as long. None: take a column. The look-ahead reads
        the observation only; the sampled state's deck order is never read (SEE-1)."""
        base = score_total(obs.rules, obs.houses[obs.me])
        gains = sorted(
            ((self._value(obs, a, base), -i) for i, a in enumerate(legal) if not isinstance(a, TakeColumn)), reverse=True
        )
        picked = [-i for gain, i in gains[:USES] if gain > 0]
        if not picked:
            return None
        state = obs.sample_state(random.Random(0))
        values = option_values(state, self.settings, picked)
        best = best_index(values)
        if best is None or values[best] is None:
            return None
        now = leaf(state, obs.me, self.settings.per_option(len(picked)))
        top = values[best]
        assert top is not None
        chosen = state.legal_actions()[best]
        return chosen if top.ranking > now.value and chosen in legal else None

    def _last_card(self, obs: Observation, legal: list[Action]) -> Action | None:
        """The player's last room card of the rounds — its last take, or that card's placement
        (`flow.turns_left`: no turn after it) — chosen as the review values it: each option
        played by the engine and read through the end game with both piles (`lookahead`'s
        `_last_card`, one end-game plan a placement). The completion's reading is a relaxation
        of the end game's order where a held helper swaps with the discard pile: by it, seed
        50,037's hard seat placed its last card face down for a swap the end game did not give
        (38 became 36). None before the last card: the usual solve. Only the last round can hold
        it (`turns_left` counts the rounds after this one), so no state is sampled before it."""
        if obs.round < obs.rules.game.rounds:
            return None
        state = obs.sample_state(random.Random(0))
        placing = state.phase == Phase.PLACE
        if turns_left(state, obs.me) != (0 if placing else 1):
            return None
        options = state.legal_actions()
        picked = [i for i, a in enumerate(options) if isinstance(a, PlaceRoom if placing else TakeColumn)]
        values = option_values(state, self.settings, picked)
        best = best_index(values)
        if best is None or options[best] not in legal:
            return None
        chosen, where = options[best], values[best]
        if isinstance(chosen, TakeColumn) and where is not None and where.where is not None:
            room = obs.track_rooms[chosen.column]
            assert room is not None
            self.planned = (plan_key(self._light(obs, obs.houses[obs.me])), room, where.where)  # its read placed the card
        return chosen

    def _best_token(self, obs: Observation, legal: list[Action]) -> Action:
        """The token on the card whose room leaves the best completion (a token closes its room,
        PLACE-CLOSED); ties to the first in board order."""
        from dreamhome.solver.place import completion_bound

        rules = obs.rules
        house = obs.houses[obs.me]
        pool = self._pool(obs)
        best, choice = None, legal[0]
        for action in legal:
            assert isinstance(action, PlaceToken)
            after = house.with_token(rules.board.index[action.cell], rules.furnishing(action.token).code)
            try:
                value, _ = completion_bound(rules, self._light(obs, after), pool, deterministic_time=self.settings.work)
            except DreamhomeError:
                continue
            if best is None or value > best:
                best, choice = value, action
        return choice

    def _pool(self, obs: Observation) -> dict[int, int]:
        """The room cards still unseen (the look-ahead's one pool, SEE-1)."""
        return unseen_pool(obs)

    def _light(self, obs: Observation, house: House) -> House:
        """The house the look-ahead completes during the rounds, by the bot's settings (the
        medium bot leaves its swap helpers out, for speed)."""
        return rounds_house(obs, house, self.settings)

    def _lookahead(
        self, obs: Observation, house: House, pool: dict[int, int], room: int, placements: list[Placement]
    ) -> tuple[Any, Any]:
        """(best completion score, its placement) with the card in hand on one of `placements`."""
        from dreamhome.solver.place import best_placement_now

        try:
            return best_placement_now(
                obs.rules,
                self._light(obs, house),
                pool,
                room,
                placements,
                deterministic_time=self.settings.work,
            )
        except DreamhomeError:  # nothing found within the work limit: no look-ahead this time
            return None, None

    def _planned_placement(self, obs: Observation, legal: list[Action]) -> Action | None:
        """The placement the column's solve (or the last card's read) found for this card, if
        nothing it depends on changed meanwhile; the plan is used once."""
        planned, self.planned = self.planned, None
        if planned is None:
            return None
        places = [a for a in legal if isinstance(a, PlaceRoom)]
        room = obs.rules.room(places[0].room).code
        placements = [placement_of(obs.rules, a) for a in places]
        key = plan_key(self._light(obs, obs.houses[obs.me]))
        if planned[:2] == (key, room) and planned[2] in placements:
            return places[placements.index(planned[2])]
        return None

    def _best_placement(self, obs: Observation, legal: list[Action]) -> Action:
        rules = obs.rules
        house = obs.houses[obs.me]
        places = [a for a in legal if isinstance(a, PlaceRoom)]
        room = rules.room(places[0].room).code
        placements = [placement_of(rules, a) for a in places]
        _value, chosen = self._lookahead(obs, house, without(self._pool(obs), room), room, placements)
        if chosen is None:
            return super().choose(obs, legal)
        return next(a for a, p in zip(places, placements) if p == chosen)

    def _best_column(self, obs: Observation, legal: list[Action]) -> Action:
        """The columns the greedy value ranks best, compared in one solve (place.best_take_now):
        the best completion with the column's room card placed now, plus its resource card's
        value; ties to the better greedy rank. The placement found is kept for the placement
        that follows, if nothing it depends on changes meanwhile."""
        from dreamhome.solver.place import Take

        rules = obs.rules
        house = obs.houses[obs.me]
        takes = [a for a in legal if isinstance(a, TakeColumn)]
        base = score_total(rules, house)
        ranked = sorted(takes, key=lambda a: (-self._value(obs, a, base), a.column))[: self.settings.columns]
        options: list[tuple[TakeColumn, Take]] = []
        for action in ranked:
            room = obs.track_rooms[action.column]
            assert room is not None
            placements = legal_placements(rules, house, room)
            if placements:
                options.append((action, Take(room, placements, self._take_bonus(obs, action, room))))
        if not options:
            return ranked[0]
        light = self._light(obs, house)
        try:
            index, placement = self._solve_takes(obs, light, self._pool(obs), [take for _a, take in options])
        except DreamhomeError:  # nothing found within the work limit: the greedy choice
            return ranked[0]
        action, take = options[index]
        self.planned = (plan_key(light), take.card, placement)
        return action

    def _solve_takes(self, obs: Observation, light: House, pool: dict[int, int], takes: list[Take]) -> tuple[int, Placement]:
        """The one solve comparing the columns (`place.best_take_now`, the work bound a column):
        the index of the best take and its card's placement."""
        from dreamhome.solver.place import best_take_now

        work = self.settings.work * len(takes)
        _value, index, placement = best_take_now(obs.rules, light, pool, takes, deterministic_time=work)
        return index, placement

    def _take_bonus(self, obs: Observation, action: TakeColumn, room: int) -> float:
        """What comes with a column's room card: its resource card's value (the measured variants
        weigh it otherwise: the first-player marker, denial, resources early)."""
        return self._resource_value(obs, obs.track_res[action.column], room)

    def _resource_value(self, obs: Observation, res: Resource | None, room: int) -> float:
        """Roofs by their outlook (below); everything else as the greedy bot."""
        if res is None or res.kind != "roof":
            return super()._resource_value(obs, res, room)
        rules = obs.rules
        roofs = list(obs.houses[obs.me].roofs)
        card = (rules.roof(res.id).index, res.window)
        rounds_left = rules.game.rounds - obs.round
        return self._roof_outlook(rules, roofs + [card], rounds_left) - self._roof_outlook(rules, roofs, rounds_left)

    def _roof_outlook(self, rules: Ruleset, roofs: list[tuple[int, bool]], rounds_left: int) -> float:
        """SCORE-ROOF as it may still end: the roof the held cards already make (`secured`: the
        best choice of 4 of them, 0 with fewer) plus the best still-open way to finish it better
        (all one colour, or mixed), its gain over `secured` discounted by `roof_odds` for every
        card still missing (none if more are missing than rounds are left). The player chooses 4
        of its roof cards (SCORE-ROOF), so a card more never takes points away: a complete roof
        is kept while a better one is hoped for (the bot had taken the best discounted way
        alone, which valued a fourth card that completes a mixed roof at nothing while a
        one-colour roof was still hoped for: seed 60's hard seat lost 11 points by the review
        on four such column choices, issue 31)."""
        secured = float(best_roof_points(rules, roofs))
        return secured + roof_hope(rules, roofs, rounds_left, secured, self.roof_odds)

    def _end_game(self, obs: Observation, legal: list[Action]) -> Action:
        """END-ORDER: the plan of `best_final_score`, as the game's actions, in order. No plan (a
        house a short game leaves with open spaces, which the plan refuses, or none found within
        the work): the turn ends, as the look-ahead's `end_plan_choice` (the hints', the
        review's) does."""
        from dreamhome.solver.optimize import best_final_score

        if not self.plan:
            house = obs.house_with_piles(obs.me)
            try:
                result = best_final_score(obs.rules, house, deterministic_time=self.settings.end_work)
                self.plan = [end_action(obs.rules, step.action) for step in result.steps]
            except DreamhomeError:
                self.plan = []
            self.plan.append(EndTurn())
        while self.plan:
            action = self.plan.pop(0)
            if action in legal:
                return action
        return EndTurn()


def plan_key(house: House) -> House:
    """What a placement's look-ahead depends on: the house but its roof cards and outside
    furnishings (constants of the completion: SCORE-ROOF, SCORE-FURN), so such a card taken
    with the column keeps the column's placement."""
    return replace(house, roofs=(), outside=())


USES = 3
"""The uses before a take the look-ahead values (`SolverBot._best_use`), those that gain most at once."""

BOTS["solver"] = SolverBot


def roof_hope(rules: Ruleset, roofs: list[tuple[int, bool]], rounds_left: int, secured: float, odds: float) -> float:
    """What finishing the roof better than `secured` points may still add (SCORE-ROOF): the best
    still-open way (all one colour, or mixed, with its windows), its gain over `secured`
    discounted by `odds` for every card still missing, none if more are missing than rounds are
    left; 0 when no way beats `secured`. `SolverBot._roof_outlook` adds it to the roof the held
    cards make; with `secured` 0 it is the outlook the bots had before issue 31."""
    t = rules.tables
    size = t.roof_size
    count = [0] * t.n_roof_colours
    wins = [0] * t.n_roof_colours
    for colour, window in roofs:
        count[colour] += 1
        wins[colour] += bool(window)
    hope = 0.0
    for c in range(t.n_roof_colours):
        need = max(0, size - count[c])
        if need <= rounds_left:
            hope = max(hope, (t.roof_uniform + t.roof_window * min(size, wins[c]) - secured) * odds**need)
    need = max(0, size - len(roofs))
    if need <= rounds_left:
        hope = max(hope, (t.roof_mixed + t.roof_window * min(size, sum(wins)) - secured) * odds**need)
    return hope
