"""`Observation.lookahead` is lazy (`dreamhome.game.observation.Lookahead`): the same table the game
used to build eagerly, each house worked out on its first read, refused once the game moved on."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.game.actions import LOOKAHEAD_ACTIONS
from dreamhome.game.handlers import HANDLERS
from dreamhome.game.observation import Lookahead
from dreamhome.game.state import GameState, GameStateError, Phase
from tests.helpers.rules import compiled

HANDYMAN_IN_PLAY = 'include "base.dh"\nhelper handyman { effect swap(house, house) before_take }'
RULES = [
    compiled("car"),
    compiled("supplier_in_play", "more_tools"),
    compile_rules(text=HANDYMAN_IN_PLAY, name="handyman in play"),  # TOOL-TIMING: a swap in play keeps the best token
]


def eager_house(state: GameState, action, me: int):
    """The house the game's eager table held: the action's handler run on a copy of the game, the
    actor's house right after it (no forced steps after it)."""
    twin = state.snapshot()
    HANDLERS[type(action)](twin, action, twin.actor)
    return twin.houses[me]


def seeded_positions():
    """(state, observation) at every decision of a few seeded random games that has look-ahead
    actions, during play (tools, the scaffold, play-time helpers) and in the end game."""
    for rules in RULES:
        for seed in range(3):
            state = GameState(rules, 3, seed)
            chooser = random.Random(seed)
            while not state.is_terminal():
                obs = state.observation()
                if obs.lookahead:
                    yield state, obs
                state.apply_action(chooser.choice(state.legal_actions()))


def test_lookahead_holds_every_look_ahead_action_with_the_eager_house():
    """The keys are the actor's legal look-ahead actions in their order; each value is the house
    the action's handler leaves (END-*, TOOL-*), during play and in the end game alike."""
    phases = set()
    for state, obs in seeded_positions():
        me = obs.me
        legal = state.legal_actions()
        assert isinstance(obs.lookahead, Lookahead)
        assert list(obs.lookahead) == [a for a in legal if isinstance(a, LOOKAHEAD_ACTIONS)]
        for action in legal:
            expected = eager_house(state, action, me) if isinstance(action, LOOKAHEAD_ACTIONS) else None
            assert obs.after(action) == expected
        phases.add(state.phase)
    assert Phase.END in phases and phases - {Phase.END}, phases  # both kinds of position were met


def test_lookahead_reads_a_house_once_and_refuses_a_game_that_moved_on(monkeypatch):
    """Nothing is worked out before it is read, a house read twice is worked out once, and a
    house not read before the game moved on raises the sampler's GameStateError (never a house
    of another position); one already read is still the position's own."""
    state, obs = next((s, o) for s, o in seeded_positions() if len(o.lookahead) >= 2)
    calls = []
    real = GameState._house_after
    monkeypatch.setattr(GameState, "_house_after", lambda self, a, p: calls.append(a) or real(self, a, p))
    state = state.clone()
    obs = state.observation()
    first, second = list(obs.lookahead)[:2]
    assert calls == []
    house = obs.lookahead[first]
    assert obs.lookahead[first] is house and calls == [first]
    state.apply_action(state.legal_actions()[-1])
    with pytest.raises(GameStateError, match="moved on"):
        obs.after(second)
    with pytest.raises(GameStateError, match="moved on"):
        obs.sample_state(random.Random(0))  # the same refusal as the sampler's
    assert obs.after(first) is house
    with pytest.raises(KeyError):
        obs.lookahead[object()]  # type: ignore[index]


def test_lookahead_copies_and_pickles_as_the_same_table():
    """A deep copy keeps the (never changed) table; a pickle carries every house as a plain dict;
    the house with the piles, made once per observation, is no part of the value."""
    state, obs = next(seeded_positions())
    piles = obs.house_with_piles(obs.me)
    assert obs.house_with_piles(obs.me) is piles == state.house_with_piles(obs.me)
    assert copy.deepcopy(obs).lookahead is obs.lookahead
    twin = pickle.loads(pickle.dumps(obs))
    assert type(twin.lookahead) is dict and twin.lookahead == {a: eager_house(state, a, obs.me) for a in obs.lookahead}
    assert "_with_piles" not in twin.__dict__ and twin.house_with_piles(obs.me) == piles
    assert repr(obs.lookahead).startswith("Lookahead(")


def test_the_greedy_bots_swapped_house_scores_as_the_after_house():
    """The greedy bot values a supply (END-SUPPLIER) or a swap of two house cards (END-HANDYMAN)
    on the house the engine's swap leaves (`GreedyBot._swapped_house`), not on `obs.after`: that
    house is the after-house but for the handler's side effects (the piles, a spent tool gone),
    which scoring (SCORE-*) never reads, so its score, and so every greedy choice, is the same.
    Checked at every such action of the seeded games, during play and at the end."""
    from dreamhome.game.actions import PairSwap, SwapWithRoomDiscard
    from dreamhome.players.greedy import GreedyBot
    from dreamhome.scoring import score_total

    bot = GreedyBot(0, 0)
    seen = set()
    for state, obs in seeded_positions():
        for action in obs.lookahead:
            if not isinstance(action, (SwapWithRoomDiscard, PairSwap)):
                continue
            after = obs.after(action)
            swapped = bot._swapped_house(obs, action)
            assert swapped.changed(tools=after.tools, discard_rooms=(), discard_roofs=()) == after
            assert score_total(obs.rules, swapped) == score_total(obs.rules, after)
            seen.add((type(action).__base__.__name__, state.phase == Phase.END))
    assert seen == {(name, end) for name in ("HelperAction", "PairSwap") for end in (False, True)}, seen
