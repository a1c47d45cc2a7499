"""The expected final score by play-outs: what each option of a decision is worth on average over
the futures its player cannot tell apart (issue 31, item 3).

    playout_finals(state, player, options, samples) -> list[list[PlayOut]]
    playout_position(state, player, samples) -> list[tuple[int, ...]]

SEE-1: a player knows everything but the decks' order. Sample `k` of a position is the position
as `player` observes it with both decks put in an order drawn from their contents and a seed of
the public position alone (the round, the number of events, the player and `k`), never from the
true order, so a sample holds nothing the player cannot know (`sample_of`). Each option is applied to that same
sample — common random numbers: the options of one decision are compared on the same futures, so
their differences are read with much less noise than their values — and the game is played to
its end by the play-out policy, `POLICY` in every seat (each bot seeded by the sample and its
seat). Every seat's final score is kept, so a margin over the others costs nothing more.

The mean over the samples estimates the player's expected final score if everyone plays the
policy from there on. Because the deal is chance and the policy is fixed, that expectation before
a deal is exactly the mean of its values after each possible deal: the review's luck (the value
after the real deal less the value before it) has mean zero by construction, whatever the
policy's strength (docs/REVIEW.md).
"""

from __future__ import annotations

import random
import statistics
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from dreamhome.game.actions import Action, PlaceRoom
from dreamhome.game.observation import Observation
from dreamhome.game.state import GameState
from dreamhome.players.greedy import GreedyBot

POLICY = GreedyBot.name
"""The play-out policy: the greedy bot (`players.greedy`; a full game in about 0.1 s), in every seat. A play-out
must be cheap (a review plays thousands) and must not read the deck (a bot sees an observation)."""

Finals = tuple[int, ...]
"""One play-out's final scores, one per seat."""


@dataclass(frozen=True)
class Estimate:
    """A mean over samples with its standard error (0 for one sample or equal samples)."""

    mean: float
    error: float
    values: tuple[float, ...]

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        vals = tuple(float(v) for v in values)
        error = statistics.stdev(vals) / len(vals) ** 0.5 if len(vals) > 1 else 0.0
        return cls(statistics.fmean(vals), error, vals)

    def paired_error(self, other: Estimate) -> float:
        """The standard error of `self.mean - other.mean` when both were read on the same
        samples (common random numbers): the spread of the per-sample differences."""
        diffs = [a - b for a, b in zip(self.values, other.values)]
        return statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0


def sample_of(obs: Observation, seed: int) -> GameState:
    """The position `obs` shows, its decks in an order drawn from `seed` and the decks' contents
    alone: the cards are sorted before they are shuffled, so the sample is independent of the
    true order (shuffling the true order with a seed fixed by public facts would only relabel
    it: the play-outs would replay the real future in disguise)."""
    state = obs.sample_state(random.Random(seed))
    rng = random.Random(seed)
    rooms = sorted(state.room_deck)
    resources = sorted(state.res_deck, key=lambda r: (r.kind, r.id, r.window))
    rng.shuffle(rooms)
    rng.shuffle(resources)
    state.stack_deal(rooms, resources)  # the whole deck, in this order (public API: the contents are unchanged)
    return state


def sample_seed(state: GameState, player: int, k: int) -> int:
    """The seed of sample `k` of `state` seen by `player`: from public facts only (SEE-1)."""
    return zlib.crc32(f"{state.round}/{len(state.events)}/{player}/{k}".encode())


@dataclass(frozen=True)
class PlayOut:
    """One play-out: every seat's final score, and the first room card placement the watched
    player made in it (a take's card: where the play-out put it), if any."""

    finals: Finals
    placed: PlaceRoom | None = None


def play_out(state: GameState, sample: int, watch: int | None = None) -> PlayOut:
    """`state` (consumed: a sample's own copy) played to its end by `POLICY` in every seat."""
    bots = [GreedyBot(sample, seat) for seat in range(state.n)]
    placed: PlaceRoom | None = None
    while not state.is_terminal():
        actor = state.current_player()
        bot = bots[actor]
        action = bot.choose(state.observation(lookahead=bot.looks_ahead), state.legal_actions())
        if placed is None and actor == watch and isinstance(action, PlaceRoom):
            placed = action
        state.apply_action(action)
    return PlayOut(tuple(state.returns()), placed)


def samples_of(state: GameState, player: int, samples: int) -> Iterator[tuple[int, GameState]]:
    """Samples 0..`samples`-1 of `state` as `player` sees it: (seed, the sampled position)."""
    obs = state.observation(player, lookahead=False)
    for k in range(samples):
        seed = sample_seed(state, player, k)
        yield seed, sample_of(obs, seed)


def playout_finals(state: GameState, player: int, options: Sequence[Action], samples: int) -> list[list[PlayOut]]:
    """For each option (a legal action of the player to act in `state`, unchanged), `samples`
    play-outs after it, sample `k` the same deck order for every option."""
    out: list[list[PlayOut]] = [[] for _ in options]
    for seed, sampled in samples_of(state, player, samples):
        for i, action in enumerate(options):
            out[i].append(play_out(sampled.child(action), seed, player))
    return out


def playout_position(state: GameState, player: int, samples: int) -> list[Finals]:
    """The final scores of `samples` play-outs of `state` as `player` sees it (the policy makes
    every decision from here, the one to take now included)."""
    return [play_out(sampled, seed).finals for seed, sampled in samples_of(state, player, samples)]


__all__ = [
    "POLICY",
    "Estimate",
    "Finals",
    "PlayOut",
    "play_out",
    "playout_finals",
    "playout_position",
    "sample_of",
    "sample_seed",
    "samples_of",
]
