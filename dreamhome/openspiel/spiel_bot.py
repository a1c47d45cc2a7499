"""A dreamhome bot as OpenSpiel's `pyspiel.Bot`, so OpenSpiel's tools (`evaluate_bots`, its
arenas and examples) can seat the strongest bot — or any level, any bot by name — beside theirs.

    from dreamhome.openspiel.spiel_bot import DreamhomeSpielBot
    bots = [DreamhomeSpielBot(0), UniformRandomBot(1, np.random.RandomState(7))]
    evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(7))

At each of its decisions the wrapped bot gets what any bot gets (SEE-1): the player's
`Observation` of the OpenSpiel state's game and its legal actions, never the state itself;
its choice goes back as the action's number in the game's `ActionSpace`. Each game
(`restart_at`) builds the bot afresh from its name, the seed and the seat, so its random
stream and plans start over and a seeded evaluation repeats.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from dreamhome.openspiel.bots import game_space
from dreamhome.openspiel.game import DreamHomeState
from dreamhome.players.bot import Bot
from dreamhome.players.roster import make_bot

DEFAULT_BOT = "hard"
"""The strongest packaged level (docs/PERFORMANCE.md, "Bot levels")."""


class DreamhomeSpielBot(pyspiel.Bot):
    """Seat `player_id` played by the dreamhome bot `bot` (a level, a bot name, `module:Class`)."""

    def __init__(self, player_id: int, bot: str = DEFAULT_BOT, seed: int = 0):
        pyspiel.Bot.__init__(self)  # OpenSpiel's C++ side must see the base initialised
        self._player_id = player_id
        self._name = bot
        self._seed = seed
        self.bot: Bot = make_bot(bot, seed, player_id)  # an unknown name: one DreamhomeError line, now

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: Any) -> None:
        """A new game (or a state to start from): the bot starts over, as at a game's start."""
        self.bot = make_bot(self._name, self._seed, self._player_id)

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Others' moves need no bookkeeping: the bot reads the whole observation at each decision."""

    def step(self, state: DreamHomeState) -> int:
        """The bot's action for its seat, as the game's action number."""
        game_state = state.game_state
        if game_state is None or state.current_player() != self._player_id:
            raise ValueError(f"seat {self._player_id} is not to act in this state")
        observation = game_state.observation(self._player_id, lookahead=self.bot.looks_ahead)
        action = self.bot.choose(observation, game_state.legal_actions())
        return int(game_space(state.get_game()).number(action))
