"""The Starlette app of `dreamhome serve`: the page, its assets, and a small JSON API.

Routes (every id checked by `store.check_game_id` before anything else; docs/table.md has
each body and answer):

* `GET /`, `GET /games/{id}`: the table page (static/table.html); `GET /static/…` its assets.
* `GET /api/options`: players range, bots, the variant catalogue, the languages and the
  page's labels (`table.*`, `phase.*` of the catalogue) in the language asked.
* `GET /api/rules?variant=&players=&lang=`: the board, every card explained, "How to play" and
  each phase's reason (`view.rules_view`), for the page's rules at hand.
* `GET /api/games`: the games kept, the most recently changed first (`LISTED` at most), each
  with its watch link, its seats' kinds, round, whose turn; never a key.
* `POST /api/games` {seats, seed, variant, lang}: a new game (the first form {players, bots,
  variant, seed} means a person at seat 0); answers 201 with each person seat's link
  (`http://HOST/games/ID#seat=N&key=KEY`) and the watch link.
* `GET /api/games/{id}`: the view; with headers `X-Seat` and `X-Seat-Key` the seat's (its
  legal actions on its turn), without them the watch view (`you: null`, no actions).
* `POST /api/games/{id}/act` {seat, key, index, version}: the seat's decision, `index` into
  `legal_actions()`, `version` the game's version the page saw (`Game.version`, which grows at
  every stored change, an undo included; a stale page gets 409, so
  a double click never applies a second action meant for an older list); then the bots move,
  one stored and announced decision at a time.
* `POST /api/games/{id}/undo` {seat, key, version}: the seat's latest decision taken back while no
  other player has decided since (`dreamhome.game.undo`; `web.undo`); the same checks as act.
* `POST /api/games/{id}/rematch` {seat, key}: the finished game's rematch (same seats, names and
  variant, a new seed), started by the first person who asks; each person gets the link of
  their own seat in it, by the key of their seat here (`web.rematch`).
* `POST /api/games/{id}/hint` {seat, key}: `dreamhome.players.hints.hint` for the seat, on its turn.
* `GET /api/games/{id}/events`: Server-Sent Events, `{"version", "to_move", "over"}` at once
  and after every stored change (`live.Hub`).
* `GET /api/games/{id}/final`, `GET /games/{id}/replay`: the end comparison, the replay page.
* `GET /games/{id}/review`: the game review's annotated page of a finished game (issue 23).

Where the parts live: the guards of every request in `guards` (`HostGuard`, `SecurityHeaders`,
`Scrubber`), request bodies and error answers in `answers`, what every endpoint shares — the
store, the live streams, the drawn views, the one place that moves the bots — in
`context.Tables` (`app.state.tables`, Starlette's place for an app's state), the endpoints
written as module-level functions in the module of their job (`table`: the page and a game in
play; `ended`: a finished game's pages; `undo`, `rematch`), and the project's errors answered by
the app's `exception_handlers` (`answers.EXCEPTION_HANDLERS`).

Every API request may name its language, `?lang=ru` (one of `i18n.LANGUAGES`; the server's
`--lang` by default): the answer's labels, card names and action texts are in it. The language
is the page's choice, not the game's: the game file and its record stay in English.

Why seat keys in the body or headers and never in a cookie: a cross-site page can make a
browser send its cookies, never a secret it does not know; so a change needs the seat's key
in a JSON body, and a forged request carries none. The keys travel in the link's fragment,
which no browser sends to a server, a log or a Referer.

Why the guards: the server binds to 127.0.0.1, but any web page the person opens could send
requests to it. JSON bodies are required (`Content-Type: application/json`, which a cross-site
form cannot send without a CORS preflight the server never grants); the Host header must name
the server, always (`HostGuard`: the loopback names, the address bound and the names given with
`--allow-host`; a wildcard is never accepted, so DNS rebinding fails on any `--host`); a request
that changes something and carries an `Origin` must come from one of those names; every answer
carries a Content-Security-Policy that allows only the server's own files; bodies are capped,
and so are requests a second per client address (`ratelimit.RateLimit`) and its open event
streams; errors are one line of JSON, never a traceback and never a path of the server's disk
(`Scrubber`).

Status codes: 400 bad input or a Host not served, 403 a foreign origin or a wrong or missing
seat key, 404 no such game, 409 a stale page or not the seat's turn, 413/415 body size and
type, 422 a damaged game file, 429 too many requests, event streams or games kept, 503 a game
that could not be stored (the change was not made).
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from dreamhome.i18n import DEFAULT_LANG, check_lang
from dreamhome.players.hints import hint
from dreamhome.web import ended, table
from dreamhome.web.answers import EXCEPTION_HANDLERS
from dreamhome.web.context import HintFunction, Tables
from dreamhome.web.drawn import DrawnViews
from dreamhome.web.guards import LOCAL_HOSTS, BadHostError, HostGuard, Scrubber, SecurityHeaders, host_name
from dreamhome.web.live import DEFAULT_STREAMS_PER_CLIENT, Hub
from dreamhome.web.ratelimit import DEFAULT_BURST, DEFAULT_RATE, RateLimit
from dreamhome.web.rematch import rematch
from dreamhome.web.reviews import Compute, Reviews, review_pages
from dreamhome.web.store import DEFAULT_CACHED, DEFAULT_MAX_GAMES, GameStore
from dreamhome.web.table import STATIC
from dreamhome.web.undo import undo

__all__ = ["LOCAL_HOSTS", "BadHostError", "create_app", "host_name", "route_paths"]

GID = "{game_id:str}"
ROUTES = [
    Route("/", table.page),
    Route(f"/games/{GID}", table.page),
    Route("/api/options", table.options),
    Route("/api/rules", table.rules_explained),
    Route("/api/games", table.games, methods=["GET"]),
    Route("/api/games", table.start, methods=["POST"]),
    Route(f"/api/games/{GID}", table.show),
    Route(f"/api/games/{GID}/act", table.act, methods=["POST"]),
    Route(f"/api/games/{GID}/undo", undo, methods=["POST"]),
    Route(f"/api/games/{GID}/rematch", rematch, methods=["POST"]),
    Route(f"/api/games/{GID}/hint", table.hint, methods=["POST"]),
    Route(f"/api/games/{GID}/events", table.events),
    Route(f"/api/games/{GID}/final", ended.final),
    Route(f"/games/{GID}/replay", ended.replay),
    Route(f"/games/{GID}/review", ended.review),
    Route(f"/api/games/{GID}/record", ended.record),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
"""Every route of the app (the list in this module's docstring), each endpoint module-level."""


def route_paths(app: Starlette) -> tuple[str, ...]:
    """Every route of `app` as a request path, `GAME` standing for a game's id and each static
    file named under its mount: what the hostile-input checks (tests/test_web_security.py,
    benchmarks/bench_hostile.py) walk, so a route added here is tried without editing them."""
    paths: list[str] = []
    for route in app.routes:
        path = getattr(route, "path", "")
        if isinstance(route, Mount):
            paths += [f"{path}/{f.name}" for f in sorted(STATIC.iterdir()) if f.is_file()]
        else:
            paths.append(path.replace("{game_id:str}", "GAME").replace("{game_id}", "GAME"))
    return tuple(dict.fromkeys(paths))


def create_app(
    data_dir: str | Path,
    allowed_hosts: list[str] | None = None,
    hint_for: HintFunction = hint,
    lang: str = DEFAULT_LANG,
    max_games: int = DEFAULT_MAX_GAMES,
    cached_games: int = DEFAULT_CACHED,
    rate: float | None = DEFAULT_RATE,
    burst: int = DEFAULT_BURST,
    streams_per_client: int = DEFAULT_STREAMS_PER_CLIENT,
    review_compute: Compute = review_pages,
    review_workers: int = 1,
    review_on_end: bool = False,
) -> Starlette:
    """The app over the games kept in `data_dir` (made on the first game).

    `allowed_hosts`: Host names served besides the loopback names (`LOCAL_HOSTS`), each a host
    name or IP address (`host_name`; `BadHostError` for a wildcard); `lang`: the language of
    answers whose request names none (`dreamhome serve --lang`); `max_games`: games kept on disk
    at most; `cached_games`: games held in memory at most; `rate`, `burst`: requests a second
    per client address (None: no limit) and at once; `streams_per_client`: event streams one
    address may hold open; `review_compute`: what a review worker computes (`reviews.review_pages`,
    a stand-in in tests), `review_workers` its processes, `review_on_end` whether a game's
    review starts as soon as it ends (`dreamhome serve`) rather than when first asked for. The
    app's `state.live` is its `live.Hub` (`close()` ends every event stream) and `state.reviews`
    its `reviews.Reviews` (`close()` ends the review workers): `serve` calls both when it stops;
    its `state.tables` is what the module-level endpoints share (`context.Tables`), its
    `state.scrub` what takes the server's paths out of an error's line (`guards.Scrubber`)."""
    if rate is not None and not (math.isfinite(rate) and rate > 0):
        raise ValueError(f"rate must be a positive number of requests a second, got {rate!r}")
    hosts = frozenset(host_name(h) for h in [*LOCAL_HOSTS, *(allowed_hosts or [])])
    store = GameStore(Path(data_dir), max_games=max_games, cached=cached_games)
    reviews = Reviews(store, review_compute, review_workers)
    hub = Hub(per_client=streams_per_client)
    tables = Tables(store, hub, DrawnViews(), reviews, check_lang(lang), review_on_end, hint_for)
    scrub = Scrubber([str(Path(data_dir).absolute()), str(Path(__file__).parents[2]), sys.prefix, os.path.expanduser("~")])
    middleware = [  # the first is outermost: the refusals of the others carry the headers too
        Middleware(SecurityHeaders),
        Middleware(RateLimit, rate=rate, burst=burst),
        Middleware(HostGuard, hosts=hosts),
    ]
    app = Starlette(routes=ROUTES, middleware=middleware, exception_handlers=EXCEPTION_HANDLERS)
    app.state.live = hub
    app.state.reviews = reviews
    app.state.tables = tables
    app.state.scrub = scrub
    return app
