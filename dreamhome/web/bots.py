"""The one place that moves the bots of the table's games (`BotMover.after_change`).

Why one place (issue 33): the bots were moved by `store.Game.run_bots` when a game began, by
`advance` after an act, and by any page's read (`GET /api/games/ID`) that found a bot to move,
so a page's read could move the bots between a person's act and its answer, and the act's page
then answered 409 to a view it had not seen. Now every change of a game (a start, an act, an
undo, a rematch) ends with `after_change`, which moves the bots to the next person's turn or
the end, each decision stored and announced; nothing else moves them, and a read never does.

Why a retry (`RETRY_SECONDS`): a bot's decision that cannot be stored (a full disk) is not made,
and the game waits with the bot to move. No read moves it any more, and no person can act on
the bot's turn, so the mover tries again by itself, later and later (`RETRY_LATEST` at most),
until it is stored. Why `resume`: a server stopped between two of a bot's decisions leaves a
game with a bot to move; `dreamhome serve` resumes such games when it starts.

Why the game's end is noticed here: every decision passes through this place, so the end of a
game is seen the moment it comes, and the game's review starts then (`on_end`), before anyone
asks for it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.web.errors import StorageError
from dreamhome.web.live import Hub
from dreamhome.web.store import Game, GameStore

log = logging.getLogger("dreamhome.web")
RETRY_SECONDS = 2.0
"""Seconds before a bot's decision that could not be stored is tried again (doubled each time)."""
RETRY_LATEST = 60.0
"""The longest wait between two tries."""


def news(game: Game) -> dict[str, Any]:
    """What the event stream says of `game` (public: no key needed); call with its lock held.
    `version` is `Game.version`, which grows at every stored change, an undo included."""
    return {"version": game.version, "to_move": game.to_move(), "over": game.state.is_terminal()}


class BotMover:
    """Moves the bots of `store`'s games after each change, announcing each decision on `hub`;
    `on_end(game)` is called once a change leaves the game over."""

    def __init__(self, store: GameStore, hub: Hub, on_end: Callable[[Game], None] | None = None, retry: float = RETRY_SECONDS):
        self.store = store
        self.hub = hub
        self.on_end = on_end
        self.retry = retry
        self._waiting: dict[str, threading.Timer] = {}  # game → its retry, once a bot's decision could not be stored
        self._lock = threading.Lock()
        self._closed = False

    def after_change(self, game: Game) -> None:
        """The bots' decisions, one at a time, each stored and announced, until a person's turn
        or the end (call in a worker thread, after every change of `game`). One thread at a time
        moves a game's bots; the game's lock is held for one decision only, so the other pages
        can fetch their view between two. A decision that cannot be stored is logged and tried
        again later (`RETRY_SECONDS`): the change itself stands, so its request never fails."""
        self._move(game, self.retry)

    def _move(self, game: Game, retry: float) -> None:
        """`after_change`, a decision that cannot be stored tried again in `retry` seconds."""
        try:
            self._advance(game)
        except StorageError as exc:
            log.warning("game %s: a bot's move could not be stored (tried again in %g s): %s", game.id, retry, exc)
            self._try_later(game, retry)
        if self.on_end is not None and game.state.is_terminal():
            try:
                self.on_end(game)
            except DreamhomeError as exc:
                log.warning("game %s: %s", game.id, exc)

    def _advance(self, game: Game) -> None:
        with game.lock:
            if game.advancing:
                return
            game.advancing = True
        try:
            while True:
                with game.lock:
                    if not game.bot_to_move():
                        game.advancing = False  # with the check, under the lock: no turn is left unmoved
                        return
                    with self.store.gate:  # a place to compute, inside the game's lock (`gate`'s order of locks),
                        # held while the bot chooses and its decision's text is made, given up while the file is written
                        self.store.change(game, game.bot_step)
                    said = news(game)
                self.hub.publish(game.id, said)
        except BaseException:
            with game.lock:
                game.advancing = False
            raise

    def _try_later(self, game: Game, delay: float) -> None:
        """`_move(game)` again in `delay` seconds, on a timer of its own (one a game at most),
        the next wait twice as long (`RETRY_LATEST` at most)."""

        def again() -> None:
            with self._lock:
                self._waiting.pop(game.id, None)
            self._move(game, min(2 * delay, RETRY_LATEST))

        with self._lock:
            if self._closed or game.id in self._waiting:
                return
            timer = threading.Timer(delay, again)
            timer.daemon = True
            timer.name = f"dreamhome-bots-{game.id}"
            self._waiting[game.id] = timer
            timer.start()

    def waiting(self) -> int:
        """Games whose bots wait for a retry."""
        with self._lock:
            return len(self._waiting)

    def resume(self) -> int:
        """The bots moved in every stored game where a bot is to move (a server stopped between
        two of its decisions): `dreamhome serve` calls it as it starts. How many games moved."""
        moved = 0
        for line in self.store.listing(self.store.max_games):
            seat = line.get("to_move")
            if line.get("over") or seat is None or line["seats"][seat]["kind"] == "person":
                continue
            try:
                self.after_change(self.store.get(line["game"]))
                moved += 1
            except DreamhomeError as exc:
                log.warning("game %s: its bots could not be resumed: %s", line["game"], exc)
        return moved

    def close(self) -> None:
        """No retry any more (the server stops); the games stay as last stored."""
        with self._lock:
            self._closed = True
            timers, self._waiting = list(self._waiting.values()), {}
        for timer in timers:
            timer.cancel()
