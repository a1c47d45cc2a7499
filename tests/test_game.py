"""The game driver: invariants over random games, records, exact replays, bad input."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamhome.dsl.compiler import compile_rules
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import TakeColumn
from dreamhome.game.bots import BOTS, SolverBot, make_bot
from dreamhome.game.record import load_record, play_game, replay_record
from dreamhome.game.state import GameState, IllegalAction, Phase, Resource
from dreamhome.legality import house_violations
from dreamhome.ruleset import FACE_DOWN, ROOM0, SCAFFOLD
from dreamhome.scoring import score_house

from conftest import ROOT

GOLDEN = ROOT / "tests" / "golden"
RULESETS = {variants: compile_rules(variants=list(variants)) for variants in [(), ("kids",), ("car",), ("kids", "car")]}


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


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4), st.sampled_from(sorted(RULESETS)))
def test_random_games_keep_every_invariant(seed, players, variants):
    rules = RULESETS[variants]
    state = GameState(rules, players, seed)
    bots = [make_bot("random", seed, i) for i in range(players)]
    check_invariants(state)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state.observation(), state.legal_actions()))
        check_invariants(state)
    for house in state.houses:
        assert house.is_finished() and SCAFFOLD not in house.cells  # ROUND-6
        assert len([c for c in house.cells if c >= ROOM0 or c == FACE_DOWN]) == rules.board.size
    assert state.returns() == [score_house(rules, h).total for h in state.houses]
    assert set(state.winners()) <= set(range(players))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4))
def test_same_seed_same_record(seed, players):
    rules = RULESETS[("car",)]
    bots = ["greedy", "random", "random", "greedy"][:players]
    first = play_game(rules, players, bots, seed).record()
    second = play_game(rules, players, bots, seed).record()
    assert first == second


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4), st.integers(0, 60))
def test_serialise_round_trip_continues_identically(seed, players, steps):
    rules = RULESETS[("kids",)]
    state = GameState(rules, players, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(chooser.choice(state.legal_actions()))
    data = json.loads(json.dumps(state.to_dict()))
    copy = GameState.from_dict(rules, data)
    assert copy.to_dict() == state.to_dict()
    picks_a, picks_b = random.Random(1), random.Random(1)
    while not state.is_terminal():
        state.apply_action(picks_a.choice(state.legal_actions()))
        copy.apply_action(picks_b.choice(copy.legal_actions()))
    assert copy.to_dict() == state.to_dict()


def test_clone_is_independent():
    state = GameState(RULESETS[()], 3, 5)
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert twin.to_dict() != state.to_dict()
    assert GameState(RULESETS[()], 3, 5).to_dict() == state.to_dict()


def test_illegal_action_names_the_rule_and_changes_nothing():
    state = GameState(RULESETS[("kids",)], 4, 9)
    while state.phase != Phase.TURN:
        state.apply_action(state.legal_actions()[0])
    taken = next(a for a in state.legal_actions() if isinstance(a, TakeColumn))
    before = state.to_dict()
    state.apply_action(taken)
    while state.phase != Phase.TURN:
        state.apply_action(state.legal_actions()[0])
    after = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        state.apply_action(taken)  # that column is empty now (ROUND-COLUMN)
    assert info.value.rule == "ROUND-COLUMN"
    assert state.to_dict() == after != before


GOLDEN_NAMES = ["four_players", "two_players_kids", "three_players_car"]


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_records_replay(name):
    """record/2, as OpenSpiel replays its playthroughs: every event verified."""
    path = GOLDEN / f"{name}.v2.json"
    data = load_record(path)
    assert data["format"] == "dreamhome.record/2"
    result = replay_record(data, str(path))
    assert result.scores() == data["scores"] and result.winners() == data["winners"]


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_record1_golden_records_still_replay(name):
    """dreamhome.record/1 (actions named after the base game's cards) replays unchanged."""
    path = GOLDEN / f"{name}.json"
    data = json.loads(path.read_text())
    assert data["format"] == "dreamhome.record/1"
    result = replay_record(data, str(path))
    assert result.scores() == data["scores"] and result.winners() == data["winners"]


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_record2_is_record1_renamed(name):
    """The same seed, bots and players play the same game: record/2 differs from record/1 only in
    action type names and the texts, which now print the cards' own names."""
    old = json.loads((GOLDEN / f"{name}.json").read_text())
    new = load_record(GOLDEN / f"{name}.v2.json")
    renamed = {"UseJackhammer": "TakeRoomAtRoundStart", "UseDrill": "SwapWithTrack", "UseMixer": "SwapTrackRooms"}
    renamed |= {"SupplierSwap": "SwapWithRoomDiscard", "HandymanSwap": "SwapInHouse", "RooferTake": "TakeFromRoofDiscard"}
    renamed |= {"PlaceScaffolding": "PlaceScaffold", "DeferScaffolding": "DeferScaffold"}

    def plain(event):
        if "action" not in event:
            return event
        action = dict(event["action"], type=renamed.get(event["action"]["type"], event["action"]["type"]))
        return {**{k: v for k, v in event.items() if k != "text"}, "action": action}

    assert [plain(e) for e in old["events"]] == [plain(e) for e in new["events"]]
    for key in ("seed", "players", "first_player", "bots", "scores", "winners", "houses"):
        assert old[key] == new[key]
    texts = [e["text"] for e in new["events"] if e.get("action", {}).get("type") in renamed.values()]
    rules = compile_rules(text=new["rules"]["source"], variants=new["rules"]["variants"])
    names = {c.name for c in rules.helpers + rules.tools}
    assert texts and all(any(t.startswith(name) for name in names) for t in texts)


def test_tampered_record_is_refused_at_its_first_bad_event(tmp_path):
    data = load_record(GOLDEN / "four_players.v2.json")
    index = next(
        i
        for i, e in enumerate(data["events"])
        if e.get("action", {}).get("type") == "TakeColumn" and not e.get("forced") and i > 20
    )
    column = data["events"][index]["action"]["column"]
    data["events"][index]["action"]["column"] = (column + 1) % 5
    with pytest.raises(DreamhomeError, match=f"event {index}"):
        replay_record(data)
    data = load_record(GOLDEN / "four_players.v2.json")
    data["rules"]["source"] = data["rules"]["source"].replace("points 1 4 9", "points 1 4 10")
    with pytest.raises(DreamhomeError, match="content hash"):
        replay_record(data)


def test_bad_game_input():
    rules = RULESETS[()]
    with pytest.raises(DreamhomeError, match="players must be 2–4"):
        GameState(rules, 5, 1)
    with pytest.raises(DreamhomeError, match="unknown bot 'smart'"):
        play_game(rules, 2, ["greedy", "smart"], 1)
    with pytest.raises(DreamhomeError, match="one per seat"):
        play_game(rules, 3, ["greedy"], 1)


def test_greedy_beats_random_on_average():
    rules = RULESETS[()]
    greedy, rand = [], []
    for seed in range(12):
        result = play_game(rules, 4, ["greedy", "random", "greedy", "random"], seed)
        scores = result.scores()
        greedy += scores[0::2]
        rand += scores[1::2]
    assert sum(greedy) / len(greedy) > sum(rand) / len(rand)


def test_car_goes_to_the_first_complete_garage():
    """VAR-CAR: awarded once, automatically, on a complete garage; worth its points at scoring."""
    rules = RULESETS[("car",)]
    result = play_game(rules, 4, ["greedy"] * 4, 3)
    awards = [e for e in result.state.events if e.get("event") == "award"]
    assert len(awards) == 1 and awards[0]["token"] == "car"
    winner = awards[0]["player"]
    house = result.state.houses[winner]
    car = rules.furnishing("car").code
    cell = rules.board.index[awards[0]["cell"]]
    assert house.tokens[cell] == car and house.cells[cell] == rules.room("garage").code
    assert sum(1 for h in result.state.houses for t in h.tokens if t == car) == 1


def test_solver_bot_games_are_reproducible():
    """Solver answers feeding a game use deterministic work limits, so a seed replays exactly."""
    rules = RULESETS[("kids",)]
    first = play_game(rules, 2, ["solver", "greedy"], 5)
    second = play_game(rules, 2, ["solver", "greedy"], 5)
    assert first.record() == second.record()
    assert replay_record(first.record()).scores() == first.scores()


def test_solver_bot_roof_outlook():
    """SCORE-ROOF as the solver bot values it: a card toward one colour is worth more the closer
    the roof is to done, a card of another colour adds nothing to an all-one-colour roof, and a
    roof that can no longer be finished is worth nothing."""
    rules = RULESETS[()]
    bot = make_bot("solver", 1, 0)
    red, blue = rules.roof("red").index, rules.roof("blue").index
    outlook = bot._roof_outlook
    held = [(red, False)] * 3
    fourth_red = outlook(rules, held + [(red, False)], 5) - outlook(rules, held, 5)
    a_blue = outlook(rules, held + [(blue, False)], 5) - outlook(rules, held, 5)
    first_red = outlook(rules, [(red, False)], 5) - outlook(rules, [], 5)
    assert fourth_red > first_red > 0
    assert a_blue == 0
    assert outlook(rules, held + [(red, True)], 0) == rules.tables.roof_uniform + rules.tables.roof_window
    assert outlook(rules, [(red, False)], 2) == 0  # three more cards, two rounds left


def test_solver_bot_with_sampled_futures_plays_a_legal_reproducible_game():
    rules = RULESETS[()]

    class Sampling(SolverBot):
        samples = 2

    BOTS["sampling"] = Sampling
    try:
        first = play_game(rules, 2, ["sampling", "greedy"], 9)
        second = play_game(rules, 2, ["sampling", "greedy"], 9)
    finally:
        del BOTS["sampling"]
    assert first.record() == second.record()
    for house in first.state.houses:
        assert not house_violations(rules, house)
