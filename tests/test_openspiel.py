"""Dream Home as an OpenSpiel game (dreamhome.openspiel): OpenSpiel's own checks, the chance
nodes against the deck, what each seat sees, returns against the project's scorer, and
OpenSpiel's searches seated at `dreamhome play`."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.game.actions import ACTION_CLASSES
from dreamhome.game.state import GameState
from dreamhome.openspiel.action_space import ActionSpace
from dreamhome.scoring import score_total
from tests.helpers.cli import run_here
from tests.helpers.paths import ROOT

VARIANTS = [(), ("car",), ("kids",)]


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: ",".join(v) or "base")
def test_action_space_numbers_every_legal_action_once(variants: tuple[str, ...]) -> None:
    """Every action a seeded game offers has a number, the number gives the action back, and
    distinct actions get distinct numbers (no OpenSpiel needed)."""
    rules = compile_rules(variants=list(variants))
    space = ActionSpace(rules)
    seen_classes = set()
    for seed in range(3):
        state, rng = GameState(rules, 2 + seed % 3, seed), random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            numbers = [space.number(a) for a in legal]
            assert len(set(numbers)) == len(numbers)
            assert all(0 <= n < space.size and space.action(n) == a for n, a in zip(numbers, legal, strict=True))
            seen_classes.update(type(a) for a in legal)
            state.apply_action(rng.choice(legal))
    assert len(seen_classes) >= len(ACTION_CLASSES) // 2


pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

from dreamhome.openspiel.game import DreamHomeGame, DreamHomeState  # noqa: E402 - importing registers python_dream_home


@pytest.mark.slow
@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3, "variant": "car"}, {"players": 4, "returns": "win"}])
def test_openspiel_random_sim_test(params: dict) -> None:
    """OpenSpiel's own consistency check, with serialisation of game and state."""
    game = pyspiel.load_game("python_dream_home", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
def test_playthrough_matches_the_golden_file() -> None:
    """A playthrough made with OpenSpiel's generate_playthrough, kept in tests/golden, replays
    to the same text (OpenSpiel's regression test for games)."""
    from absl import flags
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()  # the generator reads its absl flags' defaults
    expected, actual = generate_playthrough.replay(str(ROOT / "tests" / "golden" / "openspiel_playthrough_2p.txt"))
    assert actual == expected


def _play_to_end(state, rng: random.Random) -> None:
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_chance_nodes_deal_the_deck_with_its_odds() -> None:
    """ROUND-2: each dealt card is a chance node whose odds are the deck's counts of what is
    left; over the game, every dealt card comes from the deck (no card dealt twice)."""
    game = pyspiel.load_game("python_dream_home", {"players": 2})
    rules = compile_rules()
    deck = Counter({r.id: r.count for r in rules.rooms})
    state, rng = game.new_initial_state(), random.Random(5)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 2  # the first player
    dealt: Counter[str] = Counter()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            text = state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0])
            if text.startswith("deal ") and text.removeprefix("deal ") in deck:
                left = deck - dealt
                total = sum(left.values())
                for o, p in outcomes:
                    room = state.action_to_string(pyspiel.PlayerId.CHANCE, o).removeprefix("deal ")
                    assert p == pytest.approx(left[room] / total)
            pick = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            name = state.action_to_string(pyspiel.PlayerId.CHANCE, pick).removeprefix("deal ")
            if name in deck:
                dealt[name] += 1
            state.apply_action(pick)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sum(dealt.values()) == rules.game.rounds * rules.game.deal_rooms
    assert not dealt - deck


def test_returns_are_the_scorers_and_wins_are_shared() -> None:
    rules = compile_rules()
    for seed in range(2):
        scored = pyspiel.load_game("python_dream_home", {"players": 3}).new_initial_state()
        _play_to_end(scored, random.Random(seed))
        gs = scored.game_state
        assert scored.returns() == [float(score_total(rules, h)) for h in gs.houses]
        won = pyspiel.load_game("python_dream_home", {"players": 3, "returns": "win"}).new_initial_state()
        _play_to_end(won, random.Random(seed))
        winners = won.game_state.winners()
        assert won.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(3)]


def test_no_seat_sees_a_deal_before_it_is_made() -> None:
    """SEE-1: two games that agree so far but will deal differently next look the same to
    every seat; once dealt, the cards are public to all."""
    game = pyspiel.load_game("python_dream_home", {"players": 2})
    state, rng = game.new_initial_state(), random.Random(2)
    # to the first decision that ends a round: the next deal is pending
    while True:
        if state.is_chance_node():
            o, p = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(o, p)[0])
        elif state.game_state is not None and state.game_state.round == 2:
            break
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    a, b = state.clone(), state.clone()
    for seat in range(2):
        assert a.observation_string(seat) == b.observation_string(seat)
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert list(a.observation_tensor(seat)) == list(b.observation_tensor(seat))
    assert state.observation_string(0) != state.observation_string(1)  # told from each seat
    assert state.resample_from_infostate(0, None).information_state_string(0) == state.information_state_string(0)


def test_a_game_state_continues_as_an_openspiel_state() -> None:
    """`from_game_state`: the OpenSpiel state offers the game's own legal actions, by number."""
    rules = compile_rules()
    gs = GameState(rules, 2, 4)
    rng = random.Random(4)
    for _ in range(15):
        gs.apply_action(rng.choice(gs.legal_actions()))
    game = DreamHomeGame({"players": 2}, ruleset=rules)
    state = DreamHomeState.from_game_state(game, gs)
    space = ActionSpace(rules)
    assert state.legal_actions() == sorted(space.number(a) for a in gs.legal_actions())
    _play_to_end(state, rng)
    assert gs.round < rules.game.rounds + 1  # the original is untouched


@pytest.mark.parametrize("bot", ["mcts@3", "ismcts@3"])
def test_openspiel_searches_play_through_dreamhome_play(bot: str, tmp_path) -> None:
    record = tmp_path / "game.json"
    played = run_here("play", "--players", "2", "--bots", f"{bot},random", "--seed", "1", "--record", record)
    assert played.returncode == 0, played.stderr
    assert bot in played.stdout
    assert run_here("replay", record).returncode == 0


def test_bad_search_bot_names_are_one_line() -> None:
    for name, words in [
        ("mcts@0", "simulations from 1"),
        ("ismcts@x", "expected ismcts or ismcts@N"),
        ("mcts@²", "simulations from 1"),  # str.isdigit takes it, int() does not
        ("mcts@٣", "simulations from 1"),  # an Arabic-Indic 3: ASCII digits only
        ("mcts@" + "9" * 5000, "simulations from 1"),  # past Python's int-parsing limit
    ]:
        proc = run_here("play", "--players", "2", "--bots", f"{name},random")
        assert proc.returncode == 2 and words in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
