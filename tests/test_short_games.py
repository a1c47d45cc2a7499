"""Short games (ROUND-6: a rules file may set fewer rounds than a house has spaces): every bot
plays them to their end, though the houses end with open spaces."""

from __future__ import annotations

import pytest

from dreamhome.players.playing import play_game
from tests.helpers.review_games import short_rules


@pytest.mark.parametrize("bots", [("greedy", "solver"), ("greedy", "hard")])
def test_a_look_ahead_bot_finishes_a_game_whose_houses_stay_open(bots: tuple[str, str]) -> None:
    """Seed 8 of greedy against the solver bot in 3 rounds: the solver seat holds an end-game swap
    helper and its house has open spaces, which the end-game plan refuses
    (`optimize.require_finished`). The bot then ends its turn, as the look-ahead's
    `end_plan_choice` does (its hints and the review), instead of stopping the game."""
    result = play_game(short_rules(3), 2, list(bots), 8, None)
    assert result.state.is_terminal() and len(result.scores()) == 2
