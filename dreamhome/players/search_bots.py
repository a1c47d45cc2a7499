"""OpenSpiel's Monte Carlo tree searches as dreamhome bots: `--bots mcts`, `--bots ismcts`,
with a budget of simulations per decision: `mcts@200`, `ismcts@50` (default 100).

The bot sees what any bot sees, an `Observation`. For each decision it asks the observation
for a state that agrees with it, its decks in an order of the bot's own drawing
(`Observation.sample_state`), continues it as an OpenSpiel state whose next deals are chance
nodes (`DreamHomeState.from_game_state`), and lets OpenSpiel's search choose. Leaves are valued
by random play-outs to the end of the game (OpenSpiel's `RandomRolloutEvaluator`), scored as
shares of a win, so the search plays to win rather than to score.
"""

from __future__ import annotations

import random

import numpy as np

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import Action
from dreamhome.game.observation import Observation
from dreamhome.openspiel.game import DreamHomeGame, DreamHomeState, game_space
from dreamhome.players.bot import Bot

DEFAULT_SIMULATIONS = 100
MAX_SIMULATIONS = 100_000
UCT_C = 2.0


def parse_budget(name: str, base: str) -> int:
    """`base` or `base@N` → N simulations per decision (one line on anything else)."""
    if name == base:
        return DEFAULT_SIMULATIONS
    _, _, text = name.partition("@")
    # ASCII digits only, and few of them: `str.isdigit` also takes '²' and '٣', and int() of a
    # 5,000-digit string raises Python's own limit message.
    if not (text.isascii() and text.isdigit() and len(text) <= 7) or not 1 <= int(text) <= MAX_SIMULATIONS:
        raise DreamhomeError(f"bot '{name}': expected {base} or {base}@N with N simulations from 1 to {MAX_SIMULATIONS:,}")
    return int(text)


class _SearchBot(Bot):
    """A bot that runs one of OpenSpiel's searches from a sampled state at each decision."""

    algorithm = ""
    looks_ahead = False

    def __init__(self, seed: int, seat: int, simulations: int = DEFAULT_SIMULATIONS):
        super().__init__(seed, seat)
        self.simulations = simulations
        self.name = f"{self.algorithm}@{simulations}"
        self._np = np.random.RandomState(self.rng.randrange(2**32))
        self._games: dict[tuple[str, int], DreamHomeGame] = {}

    def _game(self, obs: Observation) -> DreamHomeGame:
        key = (obs.rules.content_hash, len(obs.houses))
        if key not in self._games:
            self._games[key] = DreamHomeGame({"players": len(obs.houses), "returns": "win"}, ruleset=obs.rules)
        return self._games[key]

    def _search(self, game: DreamHomeGame) -> object:
        raise NotImplementedError

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        game = self._game(obs)
        state = DreamHomeState.from_game_state(game, obs.sample_state(random.Random(self.rng.random())))
        number = self._search(game).step(state)  # type: ignore[attr-defined]
        action = game_space(game).action(number)
        if action not in legal:
            raise DreamhomeError(f"{self.name} chose {action}, which is not legal here")
        return action


class MCTSBot(_SearchBot):
    """OpenSpiel's MCTS (`open_spiel.python.algorithms.mcts.MCTSBot`) on a sampled state."""

    algorithm = "mcts"

    def _search(self, game: DreamHomeGame) -> object:
        from open_spiel.python.algorithms import mcts

        evaluator = mcts.RandomRolloutEvaluator(1, self._np)
        return mcts.MCTSBot(game, UCT_C, self.simulations, evaluator, random_state=self._np, solve=False)


class ISMCTSBot(_SearchBot):
    """OpenSpiel's information-set MCTS (`open_spiel.python.algorithms.ismcts.ISMCTSBot`)."""

    algorithm = "ismcts"

    def _search(self, game: DreamHomeGame) -> object:
        from open_spiel.python.algorithms import ismcts, mcts

        evaluator = mcts.RandomRolloutEvaluator(1, self._np)
        return ismcts.ISMCTSBot(game, evaluator, UCT_C, self.simulations, random_state=self._np)


def make_search_bot(name: str, seed: int, seat: int) -> Bot:
    """`mcts[@N]` or `ismcts[@N]` for one seat."""
    for cls in (ISMCTSBot, MCTSBot):
        if name == cls.algorithm or name.startswith(cls.algorithm + "@"):
            return cls(seed, seat, parse_budget(name, cls.algorithm))
    raise DreamhomeError(f"unknown search bot '{name}'")
