"""The `Bot` base class, alone, so bots of any package (the packaged ones in `players.bots`,
OpenSpiel's search bots in `players.search_bots`, a user's own) derive from it without importing
each other."""

from __future__ import annotations

import random

from dreamhome.game.actions import Action
from dreamhome.game.observation import Observation


class Bot:
    """A player: `choose` picks one of the legal actions from what the player sees.

    `looks_ahead` asks the game for `Observation.lookahead` (the house after each tool or
    helper action, read with `after(action)`, each worked out on its first read); a bot that
    never reads it saves the game even the list of those actions."""

    name = "bot"
    looks_ahead = True

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(f"{seed}/{seat}/{self.name}")

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        raise NotImplementedError
