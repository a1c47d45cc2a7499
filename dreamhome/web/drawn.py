"""Game views drawn once per game position, seat, log start and language, then shared.

Why: a view draws every house as SVG (tens of milliseconds), and twenty pages opening one game
at once asked for the same view twenty times over, which made the views the slowest answers
under load (issue 33: any request within 0.5 s while other pages load). A view depends only on
the game's state, its settings, the seat asking, the log's first event and the language
(`view.game_view`), and every stored change of a game makes its `Game.version` grow (an event
added, an undo that takes events back; a change that cannot be stored puts the game back as last
stored, at the version it had): so the key holds the game's id and version, and a changed game
is never answered from an older drawing. (The state object's identity and number of events
would not do: an undo and a new decision leave as many events as before, and the id of a state
dropped can be the id of the next.)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from dreamhome.web.store import Game
from dreamhome.web.view import game_view

KEPT = 256
"""Views held at most, the least recently used dropped first."""

Key = tuple[str, int, int | None, int | None, str]


class DrawnViews:
    """The views lately drawn (at most `kept`); `get` draws one only when no page asked for it yet."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = max(1, kept)
        self._views: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game: Game, you: int | None, since: int | None, lang: str) -> dict[str, Any]:
        """`view.game_view(game, you, since=since, lang=lang)`, drawn at most once per position;
        call with `game.lock` held (the state must not change while it is drawn). Never change
        the answer: it is shared by every page that asks for the same."""
        key: Key = (game.id, game.version, you, since, lang)
        with self._lock:
            kept = self._views.get(key)
            if kept is not None:
                self._views.move_to_end(key)
                return kept
        view = game_view(game, you, since=since, lang=lang)
        with self._lock:
            self._views[key] = view
            while len(self._views) > self.kept:
                self._views.popitem(last=False)
        return view
