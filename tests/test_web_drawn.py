"""Views drawn once per position and shared (web/drawn.py, issue 33): the same answer as
`view.game_view` drawn afresh, and never an older drawing once the game has moved on."""

from __future__ import annotations

from pathlib import Path

from dreamhome.web.drawn import DrawnViews
from dreamhome.web.store import GameStore, Settings
from dreamhome.web.view import game_view


def test_a_view_is_drawn_once_per_position_and_follows_the_game(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game, _ = store.create(Settings.parse({"seats": ["person", "greedy"], "seed": 7}))
    views = DrawnViews(kept=8)
    first = views.get(game, 0, None, "en")
    assert views.get(game, 0, None, "en") is first  # shared, not drawn again
    assert first == game_view(game, 0, lang="en")  # what a fresh drawing says
    watch = views.get(game, None, None, "fr")
    assert watch == game_view(game, None, lang="fr") and watch != first
    game.state.apply_action(game.state.legal_actions()[0])
    moved = views.get(game, 0, None, "en")
    assert moved is not first and moved == game_view(game, 0, lang="en")
    assert moved["version"] == first["version"] + 1


def test_at_most_kept_views_are_held(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game, _ = store.create(Settings.parse({"seats": ["person", "greedy"], "seed": 8}))
    views = DrawnViews(kept=2)
    a = views.get(game, 0, None, "en")
    views.get(game, 0, None, "fr")
    views.get(game, 0, None, "ru")  # drops the English one, the least recently used
    assert views.get(game, 0, None, "en") is not a
