"""The easy level's bot (issue 25): one a newcomer beats about half the time.

It plays the greedy bot's choice with probability `greedy_share`, else a legal action drawn
uniformly, both through its own seeded RNG (so the same seed gives the same game). A newcomer
is taken to play somewhere between the random bot and the greedy bot; `greedy_share` is set so
that the easy bot's 2-player win rates against those two stand-ins average about one half
(measured by `benchmarks/bench_levels.py`, figures in docs/PERFORMANCE.md, "Bot levels").
"""

from __future__ import annotations

from dreamhome.game.actions import Action
from dreamhome.game.observation import Observation
from dreamhome.players.greedy import GreedyBot


class EasyBot(GreedyBot):
    """The greedy choice with probability `greedy_share`, else a uniformly random legal action."""

    name = "easy"
    greedy_share = 0.5  # the one knob: tuned so a newcomer's stand-ins win about half (see module doc)

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        # One draw a decision, always, so the stream does not depend on which branch was taken.
        if self.rng.random() < self.greedy_share:
            return super().choose(obs, legal)
        return self.rng.choice(legal)
