"""OpenSpiel's entry points take input: a serialised state, the game's parameters and every
action or chance outcome applied. Each is checked (issue 21): a tampered state string once ran
code (OpenSpiel unpickles a Python game's state by default), `rules=/dev/zero` read until memory
ran out, and a chance node took outcomes it never offered (a first player 5 of 2; a second card
from a deck of one, after which a probability came out negative)."""

from __future__ import annotations

import base64
import json
import os
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

from dreamhome.errors import DreamhomeError  # noqa: E402
from dreamhome.game.state import GameState  # noqa: E402
from dreamhome.openspiel.game import STATE_FORMAT, DreamHomeGame, DreamHomeState  # noqa: E402
from tests.helpers.rules import compiled  # noqa: E402

REFUSED = (ValueError, pyspiel.SpielError)
RULES_HASH = compiled().content_hash


def _game(players: int = 2) -> DreamHomeGame:
    return pyspiel.load_game("python_dream_home", {"players": players})


def _walk(state, steps: int, seed: int):
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


class _Payload:
    def __reduce__(self):
        return (os.system, ("touch ran",))


def test_a_tampered_pickled_state_is_refused_and_runs_nothing(tmp_path, monkeypatch):
    """OpenSpiel's own form for Python games (`history=…\\n__dict__=<base64 pickle>`), with a
    pickle that runs a command: `deserialize_state` refuses it without unpickling."""
    monkeypatch.chdir(tmp_path)
    game = _game()
    payload = base64.b64encode(pickle.dumps({"_x": _Payload()})).decode()
    with pytest.raises(ValueError, match="serialised state"):
        game.deserialize_state(f"history=\nmove_number=0\n__dict__={payload}")
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize("steps", [0, 1, 9, 60, 400, 5000])
def test_serialise_round_trip(steps):
    game = _game(3)
    state = _walk(game.new_initial_state(), steps, steps)
    text = state.serialize()
    data = json.loads(text)
    assert data["format"] == STATE_FORMAT and data["start"] is None
    assert data["history"] == state.history()
    back = game.deserialize_state(text)
    assert str(back) == str(state) and back.history() == state.history()
    assert back.is_terminal() == state.is_terminal()
    if not state.is_terminal():
        assert back.legal_actions() == state.legal_actions()
    else:
        assert back.returns() == state.returns()


def test_a_continued_state_round_trips_from_its_start():
    rules = compiled()
    gs = GameState(rules, 2, 4)
    rng = random.Random(4)
    for _ in range(25):
        gs.apply_action(rng.choice(gs.legal_actions()))
    game = DreamHomeGame({"players": 2})
    state = _walk(DreamHomeState.from_game_state(game, gs), 30, 1)
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.history() == state.history()


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "serialised state"),
        ("[]", "expected an object"),
        ('{"format": "x", "game": {}, "rules_hash": "", "start": null, "history": []}', "format must be"),
        ('{"format": "x", "game": {}, "start": null, "history": []}', "expected an object with"),
        (
            json.dumps({"format": STATE_FORMAT, "game": {"players": 3}, "rules_hash": "R", "start": None, "history": []}),
            "another game",
        ),
        (json.dumps({"format": STATE_FORMAT, "game": "G", "rules_hash": "x", "start": None, "history": []}), "another game"),
        (json.dumps({"format": STATE_FORMAT, "game": "G", "rules_hash": "R", "start": None, "history": [5]}), "not offered"),
        ("G:history=[5]", "serialised state"),
        ("G:history=[0, 0]", None),  # the first player is 0 or 1; the first card is not a seat
        ("G:history=[true]", "whole numbers"),
        ("G:history=[1.0]", "whole numbers"),
        ("G:history=[-1]", "not offered"),
        ("G:history=[" + "9" * 5000 + "]", "serialised state"),
        ("G:start={}", "start"),
    ],
)
def test_tampered_json_states_are_one_line(text, needle):
    game = _game()
    params = game.get_parameters()
    if text.startswith("G:history="):
        text = json.dumps(
            {"format": STATE_FORMAT, "game": params, "rules_hash": RULES_HASH, "start": None, "history": "H"}
        ).replace('"H"', text[10:])
    elif text.startswith("G:start="):
        text = json.dumps(
            {"format": STATE_FORMAT, "game": params, "rules_hash": RULES_HASH, "start": "S", "history": []}
        ).replace('"S"', text[8:])
    else:
        text = text.replace('"G"', json.dumps(params)).replace('"R"', json.dumps(RULES_HASH))
    try:
        game.deserialize_state(text)
    except ValueError as exc:
        assert "\n" not in str(exc)
        if needle:
            assert needle in str(exc)
    else:
        assert needle is None


@given(st.integers(0, 400), st.integers(0, 10), st.integers(-3, 3000))
@settings(max_examples=40)
def test_a_history_with_one_action_changed_is_refused_or_replays_exactly(steps, k, action):
    game = _game()
    state = _walk(game.new_initial_state(), steps, steps)
    history = state.history()
    if history:
        history[k % len(history)] = action
    text = json.dumps(
        {"format": STATE_FORMAT, "game": game.get_parameters(), "rules_hash": RULES_HASH, "start": None, "history": history}
    )
    try:
        back = game.deserialize_state(text)
    except ValueError as exc:
        assert "not offered" in str(exc)
    else:
        assert back.history() == history


# ---------------------------------------------------------------- parameters
VALUES = st.one_of(
    st.integers(-3, 20),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["car", "kids", "car,kids", " car ", ",", "win", "score", "/dev/zero", "/", "/etc/hostname"]),
)


@given(st.dictionaries(st.sampled_from(["players", "variant", "rules", "returns", "seed", "Players"]), VALUES, max_size=4))
@settings(max_examples=60)
def test_every_parameter_is_checked(params):
    """Any parameters: a game, or a one-line refusal (never a TypeError, never a read of a
    device or a directory), for both ways in (pyspiel.load_game and the class itself)."""
    for make in (lambda p: pyspiel.load_game("python_dream_home", p), DreamHomeGame):
        try:
            game = make(dict(params))
        except REFUSED as exc:
            assert str(exc).strip(), params
            continue
        p = game.get_parameters()
        assert isinstance(p["players"], int) and not isinstance(p["players"], bool)
        assert game.num_players() == p["players"]
        assert p["returns"] in ("score", "win")


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/", "/nonexistent.dh", "fifo", "big.dh"])
def test_the_rules_parameter_reads_only_a_regular_file_under_the_cap(tmp_path, monkeypatch, path):
    if path == "fifo":
        path = str(tmp_path / "rules.dh")
        os.mkfifo(path)  # opening it to read would block for ever
    elif path == "big.dh":
        path = str(tmp_path / "big.dh")
        (tmp_path / "big.dh").write_text("# " + "x" * 5000 + "\n")
        monkeypatch.setenv("DREAMHOME_MAX_INPUT_BYTES", "1000")
    with pytest.raises(ValueError, match=r"rules=") as caught:
        DreamHomeGame({"players": 2, "rules": path})
    assert "\n" not in str(caught.value)


# ---------------------------------------------------------------- chance outcomes and actions
@given(st.integers(0, 2**16), st.lists(st.integers(-5, 3000), min_size=1, max_size=30))
@settings(max_examples=25)
def test_only_offered_outcomes_and_legal_actions_apply(seed, tries):
    """At every node, an outcome or action that is not offered is refused and changes nothing;
    the offered chance outcomes' probabilities are positive and sum to 1."""
    rng = random.Random(seed)
    game = _game(2 + seed % 3)
    state = game.new_initial_state()
    for step in range(250):
        if state.is_terminal():
            break
        offered = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        if state.is_chance_node():
            probs = [p for _, p in state.chance_outcomes()]
            assert all(p > 0 for p in probs) and abs(sum(probs) - 1) < 1e-9
        wrong = tries[step % len(tries)]
        if wrong not in offered:
            before = state.history()
            with pytest.raises(REFUSED + (DreamhomeError,)):  # IllegalAction for a player's action
                state.apply_action(wrong)
            assert state.history() == before
            assert offered == ([a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions())
        state.apply_action(rng.choice(offered))


def test_a_first_player_beyond_the_seats_and_a_card_the_deck_lacks_are_refused():
    game = _game(2)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="not offered"):
        state.apply_action(5)  # a first player 5 of 2
    state.apply_action(0)
    rooms = state.chance_outcomes()
    with pytest.raises(ValueError, match="not offered"):
        state.apply_action(max(a for a, _ in rooms) + 1)


def test_a_chance_outcome_no_card_has_is_said_not_indexed():
    state = _game(2).new_initial_state()
    state.apply_action(0)  # the first player; now a room card is dealt
    rooms = len(compiled().rooms)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, rooms + 3) == f"no room card {rooms + 3}"
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, -2) == "no room card -2"
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0).startswith("deal ")
