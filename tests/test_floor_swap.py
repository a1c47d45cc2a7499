"""END-FLOOR-SWAP (`swap(floor, floor) at end`, the catalogue's `handyman_floor`): the end-game
tool of issue 20, added by the recipe of docs/ARCHITECTURE.md ("Add a mechanic"). Every answer
is checked here: the optimum against a brute force, the game's legal actions, records and replay,
the bots, OpenSpiel's action space, the locales, and the tables model's clear refusal."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamhome.dsl.compiler import compile_rules
from dreamhome.engine.endgame import FLOOR_SWAP, ReplayError, helper_uses, swap_in_house, swap_pair
from dreamhome.game.actions import SwapInFloor, SwapInHouse, action_from_dict
from dreamhome.game.record import replay_record
from dreamhome.game.state import GameState, IllegalAction
from dreamhome.generate import random_house
from dreamhome.house import House
from dreamhome.legality import house_violations
from dreamhome.openspiel.action_space import ActionSpace
from dreamhome.players.hints import hint
from dreamhome.players.playing import play_game
from dreamhome.render.action_text import describe
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import rooms_of, score_total
from dreamhome.solver.optimize import best_final_score
from tests.helpers.rules import compiled

FLOOR = compiled("handyman_floor")
# One card with both swaps: one of any two cards (END-HANDYMAN), one within a floor (END-FLOOR-SWAP).
BOTH = compile_rules(
    text='include "base.dh"\nhelper handyman { effect swap(house, house) at end  effect swap(floor, floor) at end }',
    name="both.dh",
)


# ---- a brute force written from docs/rules.md, without the engine's swap code --------------
def _swapped(house: House, a: int, b: int) -> House:
    cells, tokens, under = list(house.cells), list(house.tokens), list(house.under)
    for seq in (cells, tokens, under):
        seq[a], seq[b] = seq[b], seq[a]
    return replace(house, cells=tuple(cells), tokens=tuple(tokens), under=tuple(under))


def _best_kept(rules: Ruleset, house: House) -> House:
    """END-HANDYMAN: a room with more than one token keeps its best."""
    tokens = list(house.tokens)
    for _code, cells in rooms_of(rules, house):
        held = [i for i in cells if tokens[i]]
        if len(held) > 1:
            keep = max(held, key=lambda i: (rules.tables.token_points[tokens[i]], -i))
            for i in held:
                if i != keep:
                    tokens[i] = 0
    return replace(house, tokens=tuple(tokens))


def brute_force(rules: Ruleset, house: House, any_swaps: int, floor_swaps: int) -> int:
    """The best score over every house that `any_swaps` swaps of any two cards and `floor_swaps`
    swaps of two cards of one floor reach, in any order, each keeping PLACE-B and PLACE-C."""
    floors = rules.board.floor_cells
    same_floor = {(a, b) for cells in floors for a, b in combinations(sorted(cells), 2)}
    seen = {(house, any_swaps, floor_swaps)}
    frontier = list(seen)
    best = score_total(rules, _best_kept(rules, house))
    while frontier:
        nxt = []
        for current, left_any, left_floor in frontier:
            for a, b in combinations(range(rules.board.size), 2):
                moves = []
                if left_any:
                    moves.append((left_any - 1, left_floor))
                if left_floor and (a, b) in same_floor:
                    moves.append((left_any, left_floor - 1))
                if not moves:
                    continue
                new = _swapped(current, a, b)
                if [v for v in house_violations(rules, new) if v.rule in ("PLACE-B", "PLACE-C")]:
                    continue
                for state in ((new, *m) for m in moves):
                    if state not in seen:
                        seen.add(state)
                        nxt.append(state)
                        best = max(best, score_total(rules, _best_kept(rules, new)))
        frontier = nxt
    return best


@st.composite
def end_houses(draw: st.DrawFn, rules: Ruleset) -> House:
    """A full house (random legal play) holding the handyman, maybe with other scoring helpers."""
    seed = draw(st.integers(0, 2**32 - 1))
    others = tuple(h for h in ("architect", "interior_designer") if draw(st.booleans()))
    house = random_house(rules, random.Random(seed), helpers=tuple(sorted(("handyman", *others))))
    return replace(house, discard_rooms=(), discard_roofs=())


@settings(max_examples=12)
@given(end_houses(FLOOR))
def test_two_floor_swaps_reach_the_brute_force_optimum(house: House) -> None:
    """END-FLOOR-SWAP, TOOL-TIMING: `uses 2` of a one-floor swap; CP-SAT's optimum equals the
    exhaustive one, replays legally, and never swaps two floors."""
    assert helper_uses(FLOOR, house).of(FLOOR_SWAP) == ("handyman", "handyman")
    result = best_final_score(FLOOR, house)
    assert result.optimal
    assert result.total == brute_force(FLOOR, house, 0, 2)
    assert result.total == score_total(FLOOR, result.house)
    floor = FLOOR.board.cell_floor
    for step in result.steps:
        assert step.action.kind == FLOOR_SWAP
        a, b = step.action.cells
        assert floor[a] == floor[b]


@settings(max_examples=8)
@given(end_houses(BOTH))
def test_a_floor_swap_beside_a_house_swap_reaches_the_brute_force_optimum(house: House) -> None:
    """END-HANDYMAN and END-FLOOR-SWAP on one card: one swap of any two, one within a floor."""
    result = best_final_score(BOTH, house)
    assert result.optimal
    assert result.total == brute_force(BOTH, house, 1, 1)


def test_the_brute_force_sees_what_one_floor_forbids() -> None:
    """The check itself: on some house, a swap of any two cards scores more than a floor swap
    can, so a solver that ignored the floor would fail the tests above."""
    rng = random.Random(5)
    for _ in range(40):
        house = replace(random_house(FLOOR, rng, helpers=("handyman",)), discard_rooms=(), discard_roofs=())
        if brute_force(FLOOR, house, 1, 0) > brute_force(FLOOR, house, 0, 1):
            return
    pytest.fail("no house where a swap across floors beats one within a floor")


def test_a_swap_across_floors_is_refused() -> None:
    floor = FLOOR.board.cell_floor
    house = replace(random_house(FLOOR, random.Random(3), helpers=("handyman",)), discard_rooms=(), discard_roofs=())
    a, b = next((a, b) for a, b in combinations(range(FLOOR.board.size), 2) if floor[a] != floor[b])
    with pytest.raises(ReplayError, match="END-FLOOR-SWAP"):
        swap_pair(FLOOR, house, a, b, FLOOR_SWAP)


def test_the_tables_model_refuses_a_floor_swap_in_one_line() -> None:
    house = replace(random_house(FLOOR, random.Random(3), helpers=("handyman",)), discard_rooms=(), discard_roofs=())
    with pytest.raises(ValueError, match="the tables model needs"):
        best_final_score(FLOOR, house, model="tables")


# ---- the game: legal actions, bots, records, OpenSpiel, locales -----------------------------
def _end_state(seed: int) -> GameState:
    """A game under handyman_floor played by random choices until a floor swap is offered."""
    rng = random.Random(seed)
    for attempt in range(30):
        state = GameState(FLOOR, 2, seed * 100 + attempt)
        while not state.is_terminal():
            legal = state.legal_actions()
            if any(isinstance(a, SwapInFloor) for a in legal):
                return state
            state.apply_action(rng.choice(legal))
    raise AssertionError("no game offered a floor swap")


def test_the_game_offers_exactly_the_legal_swaps_within_a_floor() -> None:
    """END-FLOOR-SWAP: the legal actions are every pair of one floor whose swap keeps PLACE-B and
    PLACE-C, and nothing else; a swap across floors is refused naming the rule."""
    state = _end_state(1)
    rules = state.rules
    p = state.current_player()
    house = state.houses[p]
    offered = {(a.a, a.b) for a in state.legal_actions() if isinstance(a, SwapInFloor)}
    names = rules.board.cells
    floor = rules.board.cell_floor
    expected = set()
    for a, b in combinations(range(rules.board.size), 2):
        if floor[a] != floor[b] or house.cells[a] < 2 or house.cells[b] < 2:
            continue  # two room cards of one floor (face up or face down)
        if (house.cells[a], house.tokens[a], house.under[a]) == (house.cells[b], house.tokens[b], house.under[b]):
            continue  # the same card: nothing changes
        if not [v for v in house_violations(rules, _swapped(house, a, b)) if v.rule in ("PLACE-B", "PLACE-C")]:
            expected.add((names[a], names[b]))
    assert offered == expected
    a, b = next((a, b) for a, b in combinations(range(rules.board.size), 2) if floor[a] != floor[b])
    with pytest.raises(IllegalAction, match="^END-FLOOR-SWAP"):
        state.apply_action(SwapInFloor("handyman", names[a], names[b]))


def test_bots_play_it_and_the_record_replays() -> None:
    """The solver bot plans floor swaps (optimize), the record names them and replays to the
    same scores."""
    seen = False
    for seed in range(1, 5):
        record = play_game(FLOOR, 2, ["solver", "greedy"], seed).record()
        kinds = {e["action"]["type"] for e in record["events"] if "action" in e}
        seen |= "SwapInFloor" in kinds
        assert replay_record(record).record()["scores"] == record["scores"]
    assert seen


def test_openspiel_numbers_it_and_the_locales_say_it() -> None:
    space = ActionSpace(FLOOR)
    action = SwapInFloor("handyman", "top/1", "top/3")
    assert space.action(space.number(action)) == action
    assert action_from_dict(action.to_dict()) == action
    state = _end_state(2)
    offered = next(a for a in state.legal_actions() if isinstance(a, SwapInFloor))
    for lang, word in (("en", "one floor"), ("ru", "этаж"), ("fr", "étage"), ("hu", "szinten")):
        assert word in describe(state, offered, lang)


def test_the_hint_bounds_every_floor_swap() -> None:
    """A human seat's hint (hints.py) reads each floor swap's end-game bound, and the bound after
    the best option is the optimum `optimize` finds for the house as it stands."""
    state = _end_state(3)
    found = hint(state, work=20.0)
    swaps = [o for o in found.options if isinstance(o.action, SwapInFloor)]
    assert swaps and all(o.bound is not None for o in swaps)
    best = best_final_score(FLOOR, state.house_with_piles(state.current_player()))
    assert max(o.bound for o in found.options if o.bound is not None) == best.total


def test_rules_without_a_floor_swap_keep_their_openspiel_space() -> None:
    """The new class is appended and left out where no card plays it: the base game's space keeps
    its size and every number (5,023 actions, the golden playthrough's figure)."""
    base = ActionSpace(compiled())
    assert base.size == 5023
    assert ActionSpace(FLOOR).size > base.size
    action = SwapInHouse("handyman", "top/1", "top/3")  # numbered alike in both spaces
    assert ActionSpace(FLOOR).number(action) == base.number(action)


@pytest.mark.parametrize("seed", range(6))
def test_a_refused_house_swap_names_a_rule_the_check_finds(seed: int) -> None:
    """END-HANDYMAN: a swap that breaks PLACE-B or PLACE-C is refused naming the rule (and, for
    PLACE-B, the cell) that `house_violations` finds in the swapped house — the engine names it
    from its own tables, the legality module (above the engine) checks it independently."""
    rules = FLOOR
    house = replace(random_house(rules, random.Random(seed), helpers=("handyman",)), discard_rooms=(), discard_roofs=())
    names = rules.board.cells
    refused = 0
    for a, b in combinations(range(rules.board.size), 2):
        try:
            swap_in_house(rules, house, a, b)
        except ReplayError as exc:
            refused += 1
            found = [v for v in house_violations(rules, _swapped(house, a, b)) if v.rule in ("PLACE-B", "PLACE-C")]
            said = str(exc).split(": ", 1)[1]
            rule = said.split(" ")[0]
            assert rule in {v.rule for v in found}, (said, found)
            if rule == "PLACE-B":
                cell = said.split(" ")[2]
                assert cell in {names[a], names[b]} and any(v.cell == cell for v in found if v.rule == "PLACE-B"), (said, found)
    assert refused > 0
