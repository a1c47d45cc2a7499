"""Luck as what the deals did, by the expected measure (issue 31, item 3; docs/REVIEW.md).

    deal_luck(positions, actions, deals, samples) -> list[SeatLuck]

With the expected measure (`dreamhome analyze --samples N`) a position's value to a player is
its expected final score if everyone plays the play-out policy from there
(`players.playouts`). A deal (ROUND-2) is chance: the value just before it — the decision that
triggers it, applied to each sample, whose own deal is drawn from the cards unseen — is the
mean of the values after each possible deal. So each player's luck of one deal, the value
after the real deal less the value before it, has mean zero whatever the policy's strength, and
a player's luck is the sum over the game's deals, with its standard error (each value a mean
over `samples` play-outs, the errors independent).

The start is the value of the first position (after the first deal). What neither the losses
nor the luck account for — the other players' choices, and how much better than the play-out
policy the best option of each decision was — is the rest: `final = start - loss + luck + rest`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dreamhome.game.actions import Action
from dreamhome.game.state import GameState
from dreamhome.players.playouts import Estimate, playout_finals, playout_position


@dataclass(frozen=True)
class SeatLuck:
    """One seat's start value and luck by the expected measure, each with its standard error."""

    start: float
    start_error: float
    luck: float
    error: float
    deals: int


def deal_luck(positions: Sequence[GameState], actions: Sequence[Action], deals: Sequence[bool], samples: int) -> list[SeatLuck]:
    """Per seat: `positions[0]`'s value and the luck of every deal; `positions[i + 1]` follows
    `positions[i]` by `actions[i]` (and the forced steps after it), `deals[i]` says a deal
    happened in that step."""
    first = positions[0]
    starts = [_position(first, p, samples) for p in range(first.n)]
    luck = [0.0] * first.n
    variance = [0.0] * first.n
    count = 0
    for before, action, after, dealt in zip(positions, actions, positions[1:], deals):
        if not dealt:
            continue
        count += 1
        for p in range(first.n):
            was = Estimate.of([float(run.finals[p]) for run in playout_finals(before, p, [action], samples)[0]])
            now = _position(after, p, samples)
            luck[p] += now.mean - was.mean
            variance[p] += was.error**2 + now.error**2
    return [SeatLuck(s.mean, s.error, luck[p], variance[p] ** 0.5, count) for p, s in enumerate(starts)]


def _position(state: GameState, player: int, samples: int) -> Estimate:
    """The expected final score of `player` at `state`: its final score as it is once the game is over."""
    if state.is_terminal():
        return Estimate.of([float(state.returns()[player])])
    return Estimate.of([float(f[player]) for f in playout_position(state, player, samples)])


__all__ = ["SeatLuck", "deal_luck"]
