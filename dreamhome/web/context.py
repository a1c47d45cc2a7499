"""What every endpoint of `dreamhome serve` shares: the games, the live streams, the drawn views,
the reviews, and the one place that moves the bots (`Tables.after_change`, `bots.BotMover`).

Why one object in `app.state.tables` (Starlette's own place for an app's state): an endpoint is
a module-level function of a request (`web.undo`, `web.rematch`), and finds everything it needs
through `request.app.state.tables`, so a route can live in the module of its job rather than
inside `create_app`.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio.to_thread
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from dreamhome.game.state import GameState
from dreamhome.i18n import UnknownLanguageError, check_lang
from dreamhome.players.hints import Hint, hint
from dreamhome.web.answers import whole_number
from dreamhome.web.bots import BotMover, news
from dreamhome.web.drawn import DrawnViews
from dreamhome.web.gate import PLACES
from dreamhome.web.live import Hub
from dreamhome.web.reviews import Reviews
from dreamhome.web.store import Game, GameStore, RequestError

log = logging.getLogger("dreamhome.web")
HEAVY_THREADS = PLACES
"""Threads that may compute the games' changes at once (`Tables.computed`: a decision, a bot's
choice, a hint, the end's best scores, the view a change answers); quick reads use Starlette's
own pool and never wait for this."""
CHANGE_THREADS = 8
"""Threads that may change games at once (`Tables.heavy`: an act, an undo, a start, a rematch,
a hint, the end comparison). Each spends much of its time waiting for the disk (every stored
change is written whole and fsynced, twice a click with the bot's answer), and computes only in
one of the `HEAVY_THREADS` places, given up while it waits (`gate.ComputeGate`): two threads
for both, as before, left twenty players' clicks queued behind each other's fsyncs, while the
disk writes several files at once about as fast as one (issue 33)."""
T = TypeVar("T")
HintFunction = Callable[[GameState, float], Hint]
"""What the hint endpoint calls: `dreamhome.players.hints.hint`, or a stand-in in tests."""


def locked(game: Game, work: Callable[[], T]) -> T:
    """`work()` with the game's lock held (nothing changes the game meanwhile)."""
    with game.lock:
        return work()


def seat_body(data: Any, fields: set[str], usage: str) -> tuple[Any, Any]:
    """The `seat` and `key` of a seat's request body whose fields are among `fields` (`RequestError`
    naming the body expected, `usage`, for anything else)."""
    if not isinstance(data, dict) or set(data) - fields:
        raise RequestError(f"send {usage}")
    return data.get("seat"), data.get("key")


def tables_of(request: Request) -> Tables:
    """The app's shared state (`create_app` puts it in `app.state.tables`)."""
    tables = request.app.state.tables
    assert isinstance(tables, Tables)
    return tables


@dataclass
class Tables:
    """The server's games and what serves them (one per app, `app.state.tables`)."""

    store: GameStore
    hub: Hub
    views: DrawnViews
    reviews: Reviews
    default_lang: str
    review_on_end: bool = False
    hint_for: HintFunction = hint
    """What the hint endpoint calls: `dreamhome.players.hints.hint`, or a stand-in in tests."""
    limiters: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = field(
        default_factory=weakref.WeakKeyDictionary
    )
    mover: BotMover = field(init=False)
    """The one place that moves the bots (`after_change`)."""

    def lang_of(self, request: Request) -> str:
        """The language the request asks for (`?lang=`), the server's default if none."""
        asked = request.query_params.get("lang")
        if asked is None or not asked.strip():
            return self.default_lang
        try:
            return check_lang(asked[:10])
        except UnknownLanguageError as exc:
            raise RequestError(str(exc)) from None

    @staticmethod
    def base_of(request: Request) -> str:
        """`http://HOST` as the request named it (the Host header, checked by `guards.HostGuard`)."""
        return f"{request.url.scheme}://{request.headers.get('host', '127.0.0.1')}"

    def __post_init__(self) -> None:
        self.mover = BotMover(self.store, self.hub, self._ended)

    @staticmethod
    def news(game: Game) -> dict[str, Any]:
        """What the event stream says of `game` (`bots.news`); call with its lock held."""
        return news(game)

    def announce(self, game: Game) -> None:
        """Tell every page watching `game` what it is now (takes its lock for the reading)."""
        self.hub.publish(game.id, locked(game, lambda: self.news(game)))

    def after_change(self, game: Game) -> None:
        """The bots moved after a change of `game` (a start, an act, an undo, a rematch): the
        one place that moves them (`bots.BotMover.after_change`); call in a worker thread."""
        self.mover.after_change(game)

    def _ended(self, game: Game) -> None:
        """A game just over: its review started (`review_on_end`), unless it is kept already."""
        if self.review_on_end:
            self.reviews.status(game.id, locked(game, game.record), None)  # the review, ready before it is asked for

    @staticmethod
    def seat_of_headers(request: Request, game: Game) -> int | None:
        """The seat the headers `X-Seat`, `X-Seat-Key` prove (403 if they prove none), None without them."""
        seat, key = request.headers.get("x-seat"), request.headers.get("x-seat-key")
        if seat is None and key is None:
            return None
        number = int(seat) if seat is not None and whole_number(seat, 999) else -1
        return game.seat_of(number, key)

    def computed(self, work: Callable[[], T]) -> T:
        """`work()` in one of the `HEAVY_THREADS` places to compute (the store's `gate`, given
        up while a save waits for the disk): twenty bots' moves or hints at once do not leave a
        quick read a twenty-first of the interpreter. Take it inside a game's lock, never
        around one (`gate`'s order of locks)."""
        with self.store.gate:
            return work()

    async def heavy(self, func: Callable[..., Any], *args: Any) -> Any:
        """`func(*args)` in one of at most `CHANGE_THREADS` workers apart from the quick reads'
        pool: a change of a game (which stores it, an fsync) waits here, and its computing in
        `computed`."""
        loop = asyncio.get_running_loop()  # one limiter a loop (a test client may run several)
        limiter = self.limiters.get(loop) or self.limiters.setdefault(loop, anyio.CapacityLimiter(CHANGE_THREADS))
        return await anyio.to_thread.run_sync(func, *args, limiter=limiter)

    async def game_of(self, request: Request) -> Game:
        """The request's game (`store.get`), in a worker thread: a game not in memory is read
        and replayed from its file, which must not hold up the event loop."""
        return await run_in_threadpool(self.store.get, request.path_params["game_id"])
