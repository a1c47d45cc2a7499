"""Seeded games with their invariants checked after every action (COMP-1, COMP-5, FURN-*, the
legality of every house), shared by the game, timing, playability and catalogue tests."""

from __future__ import annotations

from collections import Counter

from dreamhome.game.phases import Phase
from dreamhome.game.state import GameState, Resource
from dreamhome.legality import house_violations
from dreamhome.players.roster import make_bot
from dreamhome.ruleset import FACE_DOWN, ROOM0, SCAFFOLD, Ruleset


def room_cards(state: GameState) -> Counter:
    """COMP-1: every room card is in exactly one place."""
    seen = Counter(state.room_deck)
    seen.update(c for c in state.track_rooms if c is not None)
    seen.update(state.room_discard)
    if state.pending_room is not None:
        seen[state.pending_room] += 1
    for house in state.houses:
        seen.update(c for c in house.cells if c >= ROOM0)
        seen.update(u for c, u in zip(house.cells, house.under) if c == FACE_DOWN)
    return seen


def resource_cards(state: GameState) -> Counter:
    rules = state.rules
    seen = Counter(r for r in state.res_deck)
    seen.update(r for r in state.track_res if r is not None)
    seen.update(state.gone)
    if state.pending_res is not None:
        seen[state.pending_res] += 1
    if state.scaffold_pending:
        seen[state.scaffold_card] += 1
    seen.update(Resource("roof", rules.roofs[c].id, w) for c, w in state.roof_discard)
    scaffold = next(c.id for c in rules.tools if c.effect("scaffold"))
    for house in state.houses:
        seen.update(Resource("roof", rules.roofs[c].id, w) for c, w in house.roofs)
        seen.update(Resource("helper", h) for h in house.helpers)
        seen.update(Resource("tool", t) for t in house.tools)
        seen.update(Resource("tool", scaffold) for c in house.cells if c == SCAFFOLD)
    return seen


def manifest(rules):
    rooms = Counter({r.code: r.count for r in rules.rooms})
    res = Counter()
    for r in rules.roofs:
        res[Resource("roof", r.id, True)] += r.windows
        res[Resource("roof", r.id, False)] += r.count - r.windows
    for f in rules.furnishings:
        if f.is_card:
            res[Resource("furnishing", f.id)] += f.count
    for c in rules.helpers + rules.tools:
        res[Resource(c.kind, c.id)] += c.count
    return rooms, res


def check_invariants(state: GameState) -> None:
    rules = state.rules
    rooms, res = manifest(rules)
    assert room_cards(state) == rooms
    assert resource_cards(state) == res
    tokens = Counter(t for h in state.houses for t in h.tokens if t)
    tokens.update(rules.furnishing(f).code for h in state.houses for f in h.outside)
    for code, n in tokens.items():
        assert n <= rules.furnishings[code - 1].count
    for house in state.houses:
        broken = [
            v for v in house_violations(rules, house) if not (state.phase == Phase.END and v.rule == "FURN-ONE")
        ]  # END-HANDYMAN: resolved at the end
        assert broken == []


def decision_positions(rules: Ruleset, players: int, seed: int, bot: str = "greedy") -> list[GameState]:
    """The position before every decision of a seeded game with `bot` in every seat, each an
    independent copy (`GameState.clone`) a test may play on."""
    state = GameState(rules, players, seed)
    bots = [make_bot(bot, seed, p) for p in range(players)]
    states = []
    while not state.is_terminal():
        states.append(state.clone())
        seat = bots[state.current_player()]
        state.apply_action(seat.choose(state.observation(lookahead=seat.looks_ahead), state.legal_actions()))
    return states


def play_checked(rules: Ruleset, players: int, seed: int, bot: str = "random") -> GameState:
    """A seeded game with `bot` in every seat, played to its end, every invariant checked after
    every action (and before the first)."""
    state = GameState(rules, players, seed)
    bots = [make_bot(bot, seed, i) for i in range(players)]
    check_invariants(state)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state.observation(), state.legal_actions()))
        check_invariants(state)
    return state
