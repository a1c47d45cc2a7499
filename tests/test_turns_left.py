"""`flow.turns_left`: the turns a player still has in the rounds, each bringing one room card
(ROUND-2, ROUND-3), its turn of this round counted while it is still ahead and never once it
is taken or given up to a round-start take (TOOL-JACKHAMMER's `skip_turn`). The look-ahead reads
it to know when a house is final but for its end game (issue 31).

Checked against the game itself: at every position of seeded games of random bots (2–4
players, the round-start discard of 2–3 players, round-start takes), for every player, the
count equals the takes that bring it a room card (a column, or a round-start take, which in the
base game gives up the turn: TOOL-JACKHAMMER `skip_turn`) that player then makes until the game
ends.
"""

from __future__ import annotations

import random

from dreamhome.game.actions import TakeColumn, TakeRoomAtRoundStart
from dreamhome.game.flow import turns_left
from dreamhome.game.state import GameState
from dreamhome.ruleset import Ruleset


def _game(rules: Ruleset, players: int, seed: int) -> tuple[list[list[int]], list[list[int]], int]:
    """A random game: `turns_left` of every player at every position, the takes each player then
    made to the end, and how many round-start takes the game saw."""
    rng = random.Random(seed)
    state = GameState(rules, players, seed)
    said: list[list[int]] = []
    takers: list[int | None] = []
    round_start = 0
    while not state.is_terminal():
        said.append([turns_left(state, p) for p in range(players)])
        action = rng.choice(state.legal_actions())
        takers.append(state.current_player() if isinstance(action, (TakeColumn, TakeRoomAtRoundStart)) else None)
        round_start += isinstance(action, TakeRoomAtRoundStart)
        state.apply_action(action)
    said.append([turns_left(state, p) for p in range(players)])
    takers.append(None)
    ahead = [[sum(1 for t in takers[i:] if t == p) for p in range(players)] for i in range(len(takers))]
    return said, ahead, round_start


def test_turns_left_counts_the_takes_still_to_come(base: Ruleset) -> None:
    (round_start_tool,) = [t for t in base.tools if t.effect("take_room") is not None]
    assert "skip_turn" in round_start_tool.effect("take_room").flags  # a round-start take gives up the turn
    round_start = 0
    for seed in range(24):
        players = 2 + seed % 3
        said, ahead, taken = _game(base, players, seed)
        round_start += taken
        for i, (s, a) in enumerate(zip(said, ahead)):
            assert s == a, (seed, players, i)
        assert said[0] == [base.game.rounds] * players
        assert said[-1] == [0] * players
    assert round_start > 0  # the round-start take (skip_turn) was among the positions checked
