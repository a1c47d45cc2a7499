"""`dreamhome serve`: a table in the browser where people play together and against the bots.

The server (`app.create_app`) keeps each game on disk under an unguessable id
(`store.GameStore`), each person's seat with its own key (`Game.seat_of`), answers
the pages' JSON requests with what a seat or a watcher may see (SEE-1: the
observation, never the deck), moves the bots itself after each decision and
announces every stored change to the pages watching (`live.Hub`, Server-Sent
Events). The page and its assets are package data in `static/`: nothing is
fetched from the network. Needs the `web` extra (Starlette and uvicorn).
"""

from __future__ import annotations

__all__ = ["BOT_NAMES", "GAME_ID", "create_app"]

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dreamhome.web.app import create_app
    from dreamhome.web.store import BOT_NAMES, GAME_ID


def __getattr__(name: str) -> Any:
    """Names load lazily so `import dreamhome.web` works without Starlette installed."""
    if name == "create_app":
        from dreamhome.web.app import create_app

        return create_app
    if name in ("BOT_NAMES", "GAME_ID"):
        from dreamhome.web import store

        return getattr(store, name)
    raise AttributeError(name)
