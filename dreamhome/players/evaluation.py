"""The one evaluation of a game review: what a decision keeps reachable, in final-score points.

    evaluate(state: GameState, chosen: Action, work: float = REVIEW_WORK) -> Evaluation

For the player to act in `state`, the value of an option is the best final score of that
player's house the solver still finds reachable after it — the solver bot's and the hints'
look-ahead (dreamhome/players/hints.py, dreamhome/players/bots.py `SolverBot`), through the solver's
public API, never a second copy of a rule or of the bound:

- a room card in hand (PLACE-*): `solver.place.best_placement_bound`, the house completed with
  the best room cards still unseen, once over every legal placement (the best) and once over
  the chosen one;
- a column (ROUND-3, TOOL-JACKHAMMER): `solver.place.best_take_now`, its room card placed at its
  best, once over every column and once over the chosen one; the resource card above it is not
  counted, as in the hints (its points show when it is in the house);
- any other decision during the rounds (a discard, a tool, the scaffold, a token): the house
  after it (read from the option applied to a copy of the game, whose deals change no house)
  completed at best (`completion_bound`); when the same player still acts in the same turn
  after it (a tool before the take, the first player's take after its discard), the best of
  that continuation, read by its takes or placements alone;
- the end game (END-ORDER): `solver.optimize.best_final_score` of the house with both piles and
  the uses still left, before the decision (the best) and after the chosen one.

The cards still to come are counted from what the player saw (SEE-1, `hints.pool_of`), never
from the deck. The house is completed with every helper it holds, the swap helpers (END-HANDYMAN,
END-SUPPLIER) included, as the hard bot's look-ahead does: a placement that only a swap at the
end makes good is not a loss (the solver bot and the hints leave them out, for speed; issue 25
found the review charging the hard bot for plans its swaps would finish). Each
solve is bounded by CP-SAT's deterministic time (`work`, one worker, seed 0), never the wall
clock, so a review is the same on a busy machine. A bound not proven within its work is the best
found: the best is then the larger of the two values read, so a loss is never negative.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

from dreamhome.engine.endgame import END_ROLES, helper_uses
from dreamhome.engine.placement import Placement, legal_placements
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import Action, PlaceRoom, TakeColumn, TakeRoomAtRoundStart
from dreamhome.game.phases import Phase
from dreamhome.game.state import GameState
from dreamhome.house import House
from dreamhome.players.bots import end_action
from dreamhome.players.hints import END_WORK, pool_of

REVIEW_WORK = 0.1
"""CP-SAT deterministic time of one solve of the review (the solver bot gives 0.04 to a decision)."""

_CONTINUES = (Phase.TURN, Phase.ROUND_START, Phase.SCAFFOLD_BEFORE, Phase.PLACE, Phase.SCAFFOLD_AFTER, Phase.TOKEN)


@dataclass(frozen=True)
class Evaluation:
    """One decision by the review's evaluation: how many legal options there were, the best
    option (its position in `legal_actions()`) and its value, the chosen option's value, and
    whether every solve behind them was proven within its work."""

    options: int
    best_index: int
    best_value: float
    chosen_value: float
    proven: bool

    @property
    def loss(self) -> float:
        """Points of reachable final score the choice gave away (never negative)."""
        return max(0.0, self.best_value - self.chosen_value)


def evaluate(state: GameState, chosen: Action, work: float = REVIEW_WORK) -> Evaluation:
    """The value of `chosen` (a legal action of the player to act in `state`, unchanged) and of
    the best option, by the review's one evaluation (module docstring)."""
    legal = state.legal_actions()
    if chosen not in legal:
        raise DreamhomeError(f"review: {state.action_text(chosen)!r} is not legal in this position")
    me = state.current_player()
    if len(legal) == 1:  # a one-option decision costs nothing and is never marked
        value, proven = _after(state, chosen, me, work, depth=0)
        return _finite(Evaluation(1, 0, value, value, proven), legal.index(chosen))
    if state.phase == Phase.END:
        return _finite(_end(state, legal, chosen, me), legal.index(chosen))
    best, best_i, proven = _best(state, legal, me, work, depth=0)
    mine, mine_proven = _value(state, legal, chosen, me, work, depth=0)
    if mine >= best:  # the chosen option is as good (or a bounded search found more for it alone)
        best, best_i = mine, legal.index(chosen)
    return _finite(Evaluation(len(legal), best_i, best, mine, proven and mine_proven), legal.index(chosen))


def _finite(ev: Evaluation, chosen: int) -> Evaluation:
    """Where no solve found a completion within its work for the chosen option, the decision
    cannot be judged: no loss is charged (the values read as the best one found, not proven)."""
    if math.isfinite(ev.chosen_value) and math.isfinite(ev.best_value):
        return ev
    known = ev.best_value if math.isfinite(ev.best_value) else ev.chosen_value if math.isfinite(ev.chosen_value) else 0.0
    return Evaluation(ev.options, chosen, known, known, False)


def _placement(state: GameState, action: PlaceRoom) -> Placement:
    return Placement(state.rules.board.index[action.cell], action.face_down)


def _best(state: GameState, legal: list[Action], me: int, work: float, depth: int) -> tuple[float, int, bool]:
    """The best option of the player to act during the rounds: (value, its index, proven)."""
    from dreamhome.solver.place import Take, best_placement_bound, best_take_now

    rules = state.rules
    obs = state.observation(me, lookahead=False)
    house = obs.houses[me]
    places = [a for a in legal if isinstance(a, PlaceRoom)]
    takes = [a for a in legal if isinstance(a, (TakeColumn, TakeRoomAtRoundStart))]
    best, best_i, proven = -math.inf, 0, True
    if places:
        room = rules.room(places[0].room).code
        placements = [_placement(state, a) for a in places]
        try:
            value, ok, where = best_placement_bound(
                rules, house, _without(pool_of(obs), room), room, placements, deterministic_time=work
            )
            best, best_i, proven = float(value), legal.index(places[placements.index(where)]), ok
        except DreamhomeError:  # no completion found within the work: the other options decide
            proven = False
    if takes:
        options: list[tuple[Action, Take]] = []
        for take in takes:
            card = obs.track_rooms[take.column]
            spots = legal_placements(rules, obs.houses[me], card) if card is not None else []
            if card is not None and spots:
                options.append((take, Take(card, spots)))
        if options:
            try:
                gain, k, _where = best_take_now(
                    rules, house, pool_of(obs), [t for _a, t in options], deterministic_time=work * len(options)
                )
            except DreamhomeError:
                gain, k = -math.inf, 0
            if gain > best:
                best, best_i = gain, legal.index(options[k][0])
    for i, action in enumerate(legal):
        if isinstance(action, (PlaceRoom, TakeColumn, TakeRoomAtRoundStart)):
            continue
        if depth > 0 and best > -math.inf:
            break  # a continuation is read by its takes or placements alone (a tool's further uses are not searched)
        after, ok = _after(state, action, me, work / 2, depth)
        proven = proven and ok
        if after > best:
            best, best_i = after, i
    return best, best_i, proven


def _value(state: GameState, legal: list[Action], chosen: Action, me: int, work: float, depth: int) -> tuple[float, bool]:
    """The chosen option's value, read as `_best` reads it for that option alone."""
    from dreamhome.solver.place import Take, best_placement_bound, best_take_now

    rules = state.rules
    obs = state.observation(me, lookahead=False)
    house = obs.houses[me]
    if isinstance(chosen, PlaceRoom):
        code = rules.room(chosen.room).code
        try:
            value, ok, _ = best_placement_bound(
                rules, house, _without(pool_of(obs), code), code, [_placement(state, chosen)], deterministic_time=work
            )
            return float(value), ok
        except DreamhomeError:
            pass  # no completion found within the work: the house after it, read as any option
    if isinstance(chosen, (TakeColumn, TakeRoomAtRoundStart)):
        card = obs.track_rooms[chosen.column]
        spots = legal_placements(rules, obs.houses[me], card) if card is not None else []
        if card is not None and spots:
            try:
                gain, _i, _where = best_take_now(rules, house, pool_of(obs), [Take(card, spots)], deterministic_time=work)
                return gain, True
            except DreamhomeError:
                pass
    return _after(state, chosen, me, work / 2, depth)


def _after(state: GameState, action: Action, me: int, work: float, depth: int) -> tuple[float, bool]:
    """The value of the position right after `action`: the best of the same player's own
    continuation of the turn (once), else the house completed at best."""
    from dreamhome.solver.place import completion_bound

    child = state.child(action)
    if child.phase == Phase.END and child.current_player() == me:
        return _end_value(child, me)  # END-ORDER: the uses still left to the player
    if child.phase == Phase.END and me in child.end_queue:
        return _end_value(child, me, all_uses=True)  # its end game is still to come
    if child.phase in (Phase.END, Phase.DONE):
        return float(child.returns()[me]), True  # its end game is over: the house is final
    if depth == 0 and child.current_player() == me and child.phase in _CONTINUES:
        legal = child.legal_actions()
        if legal:
            value, _i, proven = _best(child, legal, me, work, depth + 1)
            if value > -math.inf:
                return value, proven
    seen = child.observation(me, lookahead=False)
    try:
        value, proven = completion_bound(state.rules, seen.houses[me], pool_of(seen), deterministic_time=work)
    except DreamhomeError:
        return -math.inf, False
    return float(value), proven


def _end(state: GameState, legal: list[Action], chosen: Action, me: int) -> Evaluation:
    """END-ORDER: the best is the solver's end-game plan from here (its first step legal now,
    else ending the turn, as the solver bot plays it); the chosen option's value is the plan
    from the position after it."""
    from dreamhome.game.actions import EndTurn
    from dreamhome.solver.optimize import best_final_score

    house = _end_house(state, me)
    try:
        plan = best_final_score(state.rules, house, deterministic_time=END_WORK)
    except DreamhomeError:
        plan = None
    mine, mine_ok = _after(state, chosen, me, END_WORK, depth=1)
    best_i = legal.index(EndTurn()) if EndTurn() in legal else 0
    if plan is not None:
        for step in plan.steps:
            action = end_action(state.rules, step.action)
            if action in legal:
                best_i = legal.index(action)
                break
    best = float(plan.total) if plan is not None else mine
    proven = bool(plan.optimal) if plan is not None else False
    if mine >= best:  # the chosen option is as good as the plan's step
        best, best_i = mine, legal.index(chosen)
    return Evaluation(len(legal), best_i, best, mine, proven and mine_ok)


def _end_value(state: GameState, me: int, all_uses: bool = False) -> tuple[float, bool]:
    from dreamhome.solver.optimize import best_final_score

    try:
        result = best_final_score(state.rules, _end_house(state, me, all_uses), deterministic_time=END_WORK)
    except DreamhomeError:
        return -math.inf, False
    return float(result.total), bool(result.optimal)


def _end_house(state: GameState, me: int, all_uses: bool = False) -> House:
    """END-ORDER: the player's house with both (public) piles, holding only the end-game uses
    still left to it (`GameState.end_left`; all of them before its end game has begun)."""
    obs = state.observation(me, lookahead=False)
    house = obs.house_with_piles(me)
    if all_uses or state.phase != Phase.END or state.current_player() != me:
        return house
    uses = helper_uses(state.rules, house)
    keep: Counter[str] = Counter()
    held = Counter(house.helpers + house.tools)
    ended = set()
    for role in END_ROLES:
        given = list(uses.of(role))
        left = list(state.end_left.get(role, []))
        for card in set(given):
            ended.add(card)
            per_copy = given.count(card) / held[card] if held[card] else 1
            keep[card] = max(keep[card], math.ceil(left.count(card) / per_copy))
    helpers = _kept(house.helpers, ended, keep)
    tools = _kept(house.tools, ended, keep)
    return replace(house, helpers=helpers, tools=tools)


def _kept(cards: tuple[str, ...], ended: set[str], keep: Counter[str]) -> tuple[str, ...]:
    out = []
    for card in cards:
        if card not in ended:
            out.append(card)
        elif keep[card] > 0:
            keep[card] -= 1
            out.append(card)
    return tuple(out)


def _without(pool: dict[int, int], room: int) -> dict[int, int]:
    """The pool less the card in hand."""
    rest = dict(pool)
    if rest.get(room):
        rest[room] -= 1
    return rest


__all__ = ["REVIEW_WORK", "Evaluation", "evaluate"]
