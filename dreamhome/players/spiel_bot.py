"""A dreamhome bot as OpenSpiel's `pyspiel.Bot`, so OpenSpiel's tools (`evaluate_bots`, its
arenas and examples) can seat the strongest bot — or any level, any bot by name — beside theirs.

    from dreamhome.players.spiel_bot import DreamhomeSpielBot
    bots = [DreamhomeSpielBot(0, game=game), UniformRandomBot(1, np.random.RandomState(7))]
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

from dreamhome.openspiel.game import GAME_TYPE, DreamHomeState, game_space
from dreamhome.players.bot import Bot
from dreamhome.players.roster import make_bot
from dreamhome.seeds import seed_problem

DEFAULT_BOT = "hard"
"""The strongest packaged level (docs/PERFORMANCE.md, "Bot levels")."""


class DreamhomeSpielBot(pyspiel.Bot):
    """Seat `player_id` played by the dreamhome bot `bot` (a level, a bot name, `module:Class`).

    The seat is checked when the bot is made — against `game` when it is given, else against
    the most seats any game of this module has — and again against each game it is started in
    (`restart_at`, which OpenSpiel's `evaluate_bots` calls before any move): seat 5 of a 2-player
    game was accepted and failed only at its first `step` (issue 34, item 12)."""

    def __init__(self, player_id: int, bot: str = DEFAULT_BOT, seed: int = 0, game: Any = None):
        pyspiel.Bot.__init__(self)  # OpenSpiel's C++ side must see the base initialised
        self._player_id = check_seat(player_id, game)
        self._name = bot
        problem = seed_problem(seed)  # a negative seed replays its positive twin (issue 34, item 10)
        if problem is not None:
            raise ValueError(f"seed: {problem}")
        self._seed = seed
        self.bot: Bot = make_bot(bot, seed, player_id)  # an unknown name: one DreamhomeError line, now

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: Any) -> None:
        """A new game (or a state to start from): the bot starts over, as at a game's start."""
        check_seat(self._player_id, state.get_game())
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


def check_seat(player_id: object, game: Any = None) -> int:
    """`player_id` if it is a seat of `game` (of any game of this module when None); else one
    ValueError line naming the seat and the seats there are."""
    seats = game.num_players() if game is not None else GAME_TYPE.max_num_players
    if isinstance(player_id, bool) or not isinstance(player_id, int) or not 0 <= player_id < seats:
        whose = f"this {seats}-player game" if game is not None else "any Dream Home game"
        raise ValueError(f"player_id {player_id!r} is not a seat of {whose} (seats 0–{seats - 1})")
    return player_id
