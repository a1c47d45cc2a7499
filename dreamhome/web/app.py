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
`context.Tables` (`app.state.tables`, Starlette's place for an app's state), and the endpoints
written as module-level functions in the module of their job (`undo`, `rematch`).

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

import logging
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from dreamhome.game.state import GameState
from dreamhome.i18n import DEFAULT_LANG, UnknownLanguageError, check_lang
from dreamhome.players.hints import HINT_WORK, Hint, hint
from dreamhome.web.answers import answering, error_response, json_body, whole_number
from dreamhome.web.context import Tables, locked, seat_body
from dreamhome.web.drawn import DrawnViews
from dreamhome.web.guards import LOCAL_HOSTS, BadHostError, HostGuard, Scrubber, SecurityHeaders, host_name
from dreamhome.web.live import DEFAULT_STREAMS_PER_CLIENT, Hub, TooManyStreamsError
from dreamhome.web.public import public_position
from dreamhome.web.ratelimit import DEFAULT_BURST, DEFAULT_RATE, RateLimit, client_of
from dreamhome.web.rematch import rematch
from dreamhome.web.reviews import Compute, Reviews, review_pages
from dreamhome.web.store import (
    DEFAULT_CACHED,
    DEFAULT_MAX_GAMES,
    ConflictError,
    GameStore,
    RequestError,
    Settings,
    StorageError,
    players_range,
    rules_for,
    variant_catalogue,
)
from dreamhome.web.undo import undo
from dreamhome.web.view import final_view, hint_view, options_view, rules_view

__all__ = ["LOCAL_HOSTS", "BadHostError", "create_app", "host_name", "route_paths"]

HintFunction = Callable[[GameState, float], Hint]
"""What the hint endpoint calls: `dreamhome.players.hints.hint`, or a stand-in in tests."""

log = logging.getLogger("dreamhome.web")

STATIC = Path(__file__).parent / "static"
MAX_SINCE = 999_999
"""The largest `?since=` read (a version: the events of a game number in the hundreds)."""
LISTED = 100
"""Games the front page's list shows at most (`GET /api/games`)."""


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
    its `state.tables` is what the module-level endpoints share (`context.Tables`)."""
    if rate is not None and not (math.isfinite(rate) and rate > 0):
        raise ValueError(f"rate must be a positive number of requests a second, got {rate!r}")
    hosts = frozenset(host_name(h) for h in [*LOCAL_HOSTS, *(allowed_hosts or [])])
    store = GameStore(Path(data_dir), max_games=max_games, cached=cached_games)
    reviews = Reviews(store, review_compute, review_workers)
    hub, views = Hub(per_client=streams_per_client), DrawnViews()
    default_lang = check_lang(lang)
    scrub = Scrubber([str(Path(data_dir).absolute()), str(Path(__file__).parents[2]), sys.prefix, os.path.expanduser("~")])
    _answers = answering(scrub)

    tables = Tables(store, hub, views, reviews, default_lang, review_on_end)
    lang_of, base_of, news, heavy, game_of = tables.lang_of, tables.base_of, tables.news, tables.heavy, tables.game_of
    advance_or_log, seat_of_headers, _locked = tables.advance_or_log, tables.seat_of_headers, locked

    def since_of(request: Request) -> int | None:
        asked = request.query_params.get("since")
        if asked is None:
            return None
        if not whole_number(asked, MAX_SINCE):
            raise RequestError("since must be a whole number (a version the page saw)")
        return int(asked)

    async def page(request: Request) -> Response:
        if "game_id" in request.path_params:
            await game_of(request)  # 404 for an unknown id, before any page
        return FileResponse(STATIC / "table.html", media_type="text/html")

    async def options(request: Request) -> Response:
        body = await run_in_threadpool(options_view, lang_of(request), default_lang)
        return Response(body, media_type="application/json")

    async def games(request: Request) -> Response:
        base = base_of(request)
        listed = await run_in_threadpool(store.listing, LISTED)
        return JSONResponse({"games": [{**g, "watch": f"{base}/games/{g['game']}"} for g in listed]})

    async def start(request: Request) -> Response:
        data = await json_body(request)
        if isinstance(data, dict) and "lang" in data:
            try:
                check_lang(data["lang"] if isinstance(data["lang"], str) else "?")
            except UnknownLanguageError as exc:
                raise RequestError(str(exc)) from None
        settings = await run_in_threadpool(Settings.parse, data)  # each variant's rules: compiled once, in a worker
        game, keys = await run_in_threadpool(store.create, settings)
        base = f"{base_of(request)}/games/{game.id}"
        seats = [{"seat": p, "url": f"{base}#seat={p}&key={key}"} for p, key in sorted(keys.items())]
        return JSONResponse({"game": game.id, "seats": seats, "watch": base}, status_code=201)

    async def rules_explained(request: Request) -> Response:
        """`GET /api/rules?variant=V&players=N&lang=L`: the cards explained, "How to play" and each
        phase's reason for the rules a table plays (`view.rules_view`; issue 22, item 3)."""
        chosen = lang_of(request)
        variant = request.query_params.get("variant", "")[:40]
        players_asked = request.query_params.get("players")

        def work() -> dict[str, Any]:  # in a worker: the rules are compiled on first use
            if variant and variant not in variant_catalogue():
                raise RequestError("unknown variant; GET /api/options lists them")
            low, high = players_range(variant)
            players_text = str(low) if players_asked is None else players_asked
            if not whole_number(players_text, high) or int(players_text) < low:
                raise RequestError(f"players must be a whole number from {low} to {high}")
            return rules_view(rules_for(variant), int(players_text), chosen)

        return JSONResponse(await run_in_threadpool(work))

    async def show(request: Request) -> Response:
        chosen = lang_of(request)
        since = since_of(request)
        game = await game_of(request)
        me = seat_of_headers(request, game)
        if game.bot_to_move() and not game.advancing:  # bots stopped by a restart or a failed write
            await run_in_threadpool(advance_or_log, game)
        view = await run_in_threadpool(_locked, game, lambda: views.get(game, me, since, chosen))
        return JSONResponse(view)

    async def act(request: Request) -> Response:
        chosen = lang_of(request)
        game = await game_of(request)
        data = await json_body(request)
        seat, key = seat_body(data, {"seat", "key", "index", "version"}, '{"seat": N, "key": K, "index": I, "version": V}')
        me = game.seat_of(seat, key)
        index, version = data.get("index"), data.get("version")
        if type(index) is not int or type(version) is not int:
            raise RequestError("index and version must be whole numbers")

        def decide() -> tuple[int, dict[str, Any]]:
            state = game.state
            if game.to_move() != me:
                raise ConflictError("it is not your turn" if not state.is_terminal() else "the game is over")
            if version != game.version:
                raise ConflictError("the page is out of date; reload it")
            legal = state.legal_actions()
            if not 0 <= index < len(legal):
                raise RequestError(f"index must be from 0 to {len(legal) - 1}")
            mark = len(state.events)

            def move() -> None:
                game.state.apply_action(legal[index])
                game.note_end()

            store.change(game, move)  # the move counts once stored, else it is undone
            return mark, news(game)

        def work() -> dict[str, Any]:
            mark, said = _locked(game, decide)
            hub.publish(game.id, said)
            advance_or_log(game)
            return _locked(game, lambda: views.get(game, me, mark, chosen))

        return JSONResponse(await heavy(work))

    async def hint(request: Request) -> Response:
        chosen = lang_of(request)
        game = await game_of(request)
        seat, key = seat_body(await json_body(request), {"seat", "key"}, '{"seat": N, "key": K}')
        me = game.seat_of(seat, key)

        def position() -> tuple[GameState, int]:
            if game.to_move() != me:
                raise ConflictError("hints are for your turn")
            return public_position(game.state), game.version  # SEE-1: the hint never sees the decks' order or the seed

        def work() -> dict[str, Any]:
            state, version = _locked(game, position)  # the hint works on a copy: the others' pages are not held up
            return {**hint_view(state, hint_for(state, HINT_WORK), chosen), "version": version}

        return JSONResponse(await heavy(work))

    async def events(request: Request) -> Response:
        game = await game_of(request)
        if request.method == "HEAD":  # the headers alone: a stream that never ends has no length to announce
            return Response(media_type="text/event-stream")
        try:
            sub = hub.subscribe(game.id, client_of(request.scope))
        except TooManyStreamsError:
            return error_response(429, "too many event streams open from this address; close a page and try again")
        try:
            first = await run_in_threadpool(_locked, game, lambda: news(game))
        except BaseException:
            hub.unsubscribe(sub)
            raise
        return StreamingResponse(hub.stream(sub, first), media_type="text/event-stream", headers={"x-accel-buffering": "no"})

    async def final(request: Request) -> Response:
        chosen = lang_of(request)
        game = await game_of(request)
        if not game.state.is_terminal():
            raise ConflictError("the game is not over yet")

        def work() -> dict[str, Any]:
            # Seconds of solving, under the comparison's own lock, not the game's: every view of
            # the game takes that one, and a game over changes no more (issue 33: no page waits
            # for another's work). One comparison a game at a time; the second asker reads it kept.
            with game.final_lock:
                kept = game.best is not None
                view = final_view(game, chosen)
            if kept:
                return view
            try:  # the comparison kept; if it cannot be, it is computed again next time
                _locked(game, lambda: store.save(game))
            except StorageError as exc:
                log.warning("game %s: the end-game comparison could not be stored: %s", game.id, exc)
            return view

        return JSONResponse(await heavy(work))

    async def replay(request: Request) -> Response:
        from dreamhome.render.replay_page import CSP as REPLAY_CSP
        from dreamhome.render.replay_page import replay_html

        game = await game_of(request)
        if not game.state.is_terminal():
            raise ConflictError("the replay is ready when the game is over")

        chosen = lang_of(request)

        def work() -> str:
            return replay_html(game.record(), f"game {game.id}", lang=chosen)

        html = await run_in_threadpool(_locked, game, work)
        return HTMLResponse(html, headers={"content-security-policy": REPLAY_CSP})

    async def review(request: Request) -> Response:
        """ "Review this game" (issue 23): the annotated replay page of a finished game, every
        decision against the best by the review's evaluation (dreamhome.review), in the page's
        language. Computed once per game in a worker process and kept (`reviews.Reviews`)."""
        from dreamhome.render.replay_page import CSP as REPLAY_CSP

        game = await game_of(request)
        if not game.state.is_terminal():
            raise ConflictError("the review is ready when the game is over")
        chosen = lang_of(request)
        record = await run_in_threadpool(_locked, game, game.record)
        pages = await reviews.pages(game.id, record, client_of(request.scope))
        return HTMLResponse(pages[chosen], headers={"content-security-policy": REPLAY_CSP})

    async def record(request: Request) -> Response:
        """`GET /api/games/{id}/record`: the game's `dreamhome.record/2` (issue 31, item 5), for
        `dreamhome replay` and `dreamhome analyze`. Only once the game is over: the record holds
        the seed, which decides the decks' order, hidden from every seat until the end (SEE-1)."""
        game = await game_of(request)
        if not game.state.is_terminal():
            raise ConflictError("the record is ready when the game is over (it holds the seed, which decides the decks: SEE-1)")
        data = await run_in_threadpool(_locked, game, game.record)
        name = f"dreamhome-{game.id}.json"
        return JSONResponse(data, headers={"content-disposition": f'attachment; filename="{name}"'})

    async def on_http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error_response(exc.status_code, scrub(str(exc.detail)))

    async def on_crash(request: Request, exc: Exception) -> Response:
        log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(500, "internal error (logged by the server)")

    gid = "{game_id:str}"
    routes = [
        Route("/", _answers(page)),
        Route(f"/games/{gid}", _answers(page)),
        Route("/api/options", _answers(options)),
        Route("/api/rules", _answers(rules_explained)),
        Route("/api/games", _answers(games), methods=["GET"]),
        Route("/api/games", _answers(start), methods=["POST"]),
        Route(f"/api/games/{gid}", _answers(show)),
        Route(f"/api/games/{gid}/act", _answers(act), methods=["POST"]),
        Route(f"/api/games/{gid}/undo", _answers(undo), methods=["POST"]),
        Route(f"/api/games/{gid}/rematch", _answers(rematch), methods=["POST"]),
        Route(f"/api/games/{gid}/hint", _answers(hint), methods=["POST"]),
        Route(f"/api/games/{gid}/events", _answers(events)),
        Route(f"/api/games/{gid}/final", _answers(final)),
        Route(f"/games/{gid}/replay", _answers(replay)),
        Route(f"/games/{gid}/review", _answers(review)),
        Route(f"/api/games/{gid}/record", _answers(record)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [  # the first is outermost: the refusals of the others carry the headers too
        Middleware(SecurityHeaders),
        Middleware(RateLimit, rate=rate, burst=burst),
        Middleware(HostGuard, hosts=hosts),
    ]
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: on_http_error, Exception: on_crash},
    )
    app.state.live = hub
    app.state.reviews = reviews
    app.state.tables = tables
    return app
