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
  `legal_actions()`, `version` the number of events the page saw (a stale page gets 409, so
  a double click never applies a second action meant for an older list); then the bots move,
  one stored and announced decision at a time.
* `POST /api/games/{id}/hint` {seat, key}: `dreamhome.players.hints.hint` for the seat, on its turn.
* `GET /api/games/{id}/events`: Server-Sent Events, `{"version", "to_move", "over"}` at once
  and after every stored change (`live.Hub`).
* `GET /api/games/{id}/final`, `GET /games/{id}/replay`: the end comparison, the replay page.
* `GET /games/{id}/review`: the game review's annotated page of a finished game (issue 23).

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

import asyncio
import ipaddress
import json
import logging
import math
import os
import re
import sys
import weakref
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dreamhome.errors import DreamhomeError
from dreamhome.game.state import GameState, IllegalAction
from dreamhome.i18n import DEFAULT_LANG, UnknownLanguageError, check_lang
from dreamhome.players.hints import HINT_WORK, Hint, hint
from dreamhome.web.drawn import DrawnViews
from dreamhome.web.live import DEFAULT_STREAMS_PER_CLIENT, Hub, TooManyStreamsError
from dreamhome.web.public import public_position
from dreamhome.web.ratelimit import DEFAULT_BURST, DEFAULT_RATE, RateLimit, client_of
from dreamhome.web.reviews import Compute, ReviewBusyError, ReviewLateError, Reviews, review_pages
from dreamhome.web.store import (
    DEFAULT_CACHED,
    DEFAULT_MAX_GAMES,
    ConflictError,
    DamagedGameError,
    ForbiddenError,
    Game,
    GameNotFoundError,
    GameStore,
    RequestError,
    Settings,
    StorageError,
    StoreFullError,
    players_range,
    rules_for,
    variant_catalogue,
)
from dreamhome.web.view import final_view, hint_view, options_view, rules_view

HintFunction = Callable[[GameState, float], Hint]
"""What the hint endpoint calls: `dreamhome.players.hints.hint`, or a stand-in in tests."""

log = logging.getLogger("dreamhome.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4096
MAX_SINCE = 999_999
"""The largest `?since=` read (a version: the events of a game number in the hundreds)."""
"""Largest request body read (bytes): a start or act request is under 200."""
HEAVY_THREADS = 2
"""Threads that may move bots or solve at once (`heavy`); quick reads use Starlette's own pool."""
LISTED = 100
"""Games the front page's list shows at most (`GET /api/games`)."""
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
LOCAL_HOSTS = ["127.0.0.1", "localhost", "::1"]
"""Host names always served: the loopback names (the address bound and `--allow-host` add others)."""
HOST_NAME = re.compile(r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class BadHostError(ValueError):
    """A name given to `--allow-host` that is not a host name or an IP address."""


def host_name(name: str) -> str:
    """`name` as the Host check compares it: lower case, IPv6 without brackets; `BadHostError`
    for a wildcard, a port or anything else that is not one host name or IP address."""
    text = name.strip().lower().rstrip(".")
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        pass
    else:
        if address.is_unspecified:  # 0.0.0.0 or ::: "every interface" is no name a browser sends
            raise BadHostError(f"{name[:80]!r} is the unspecified address, not a host a browser names")
        return str(address)
    if HOST_NAME.fullmatch(text) is None:
        raise BadHostError(f"{name[:80]!r} is not a host name or an IP address (no wildcards, no port)")
    return text


def _host_of(header: str) -> str | None:
    """The host of a Host header or an Origin's netloc, without its port; None if malformed."""
    text = header.strip()
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or (text[end + 1 :] and not re.fullmatch(r":\d{1,5}", text[end + 1 :])):
            return None
        text = text[: end + 1]
    else:
        name, _, port = text.partition(":")
        if port and not port.isdigit():
            return None
        text = name
    try:
        return host_name(text) if text else None
    except BadHostError:
        return None


class Scrubber:
    """Removes the server's own folders from a message before it is answered: an error must
    never tell a client where the server keeps its files (the data folder, the package, Python's
    prefix, the home folder); any other absolute path left is shown as `<path>`."""

    ABSOLUTE = re.compile(r"(?<![\w.~])/(?:[^\s/'\"(),:;]+/)+[^\s/'\"(),:;]*")

    def __init__(self, folders: list[str]):
        variants = {f for folder in folders if folder for f in (folder, os.path.realpath(folder))}
        self.folders = sorted((v.rstrip("/") for v in variants if len(v) > 1), key=len, reverse=True)

    def __call__(self, message: str) -> str:
        for folder in self.folders:
            message = message.replace(folder, "<server>")
        return self.ABSOLUTE.sub("<path>", message)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _json_body(request: Request) -> Any:
    """The request's JSON object (400 for anything else, 415 for another content type)."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise HTTPException(415, "send JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and not whole_number(declared, MAX_BODY):
        raise HTTPException(413, f"the request body is larger than {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise HTTPException(413, f"the request body is larger than {MAX_BODY} bytes")
    try:
        return json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except _NotJSONNumberError as exc:
        raise HTTPException(400, f"the request body holds {exc.args[0]}, which is no JSON number") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HTTPException(400, "the request body is not valid JSON") from None


class _NotJSONNumberError(ValueError):
    """NaN, Infinity or -Infinity in a request body: Python's reader takes them, JSON has none."""


def _no_constant(name: str) -> Any:
    raise _NotJSONNumberError(name)


def whole_number(text: str, high: int) -> bool:
    """Whether `text` is a whole number from 0 to `high` in ASCII digits, checked before any
    conversion: a number of thousands of digits (past Python's conversion limit) or a digit of
    another script is refused here, never a fault of `int()`."""
    return text.isascii() and text.isdigit() and len(text) <= len(str(high)) and int(text) <= high


Handler = Callable[[Request], Awaitable[Response]]


STATUS: tuple[tuple[type[DreamhomeError], int], ...] = (
    (GameNotFoundError, 404),
    (ForbiddenError, 403),
    (ConflictError, 409),
    (RequestError, 400),
    (IllegalAction, 400),
    (DamagedGameError, 422),
    (StorageError, 503),
    (StoreFullError, 429),
    (ReviewBusyError, 429),
    (ReviewLateError, 503),
    (DreamhomeError, 422),  # any other file that does not load, and the like
)
"""Each of the project's errors with its status (the first that matches)."""


def _answering(scrub: Scrubber) -> Callable[[Handler], Handler]:
    """A decorator: the project's errors as their status with their one line, scrubbed."""

    def answers(func: Handler) -> Handler:
        async def wrapped(request: Request) -> Response:
            try:
                return await func(request)
            except DreamhomeError as exc:
                status = next(code for kind, code in STATUS if isinstance(exc, kind))
                first = (str(exc).splitlines() or [type(exc).__name__])[0]
                return _error(status, scrub(first)[:500])

        return wrapped

    return answers


class HostGuard:
    """The Host header must name the server, always; a changing request's Origin too.

    Against DNS rebinding: a page of evil.example whose name is made to resolve to this machine
    sends `Host: evil.example`, refused here whatever address the server listens on. Against a
    cross-site request: a browser names the page's origin on a POST; one not served is refused
    (403). A request without Origin (curl, a non-browser client) is not a cross-site one."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]):
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        host = _host_of(headers.get(b"host", b"").decode("latin-1"))
        problem: tuple[int, str] | None = None
        if host is None or host not in self.hosts:
            problem = (400, "this server does not answer to that Host name (dreamhome serve --allow-host adds names)")
        elif scope.get("method", "GET") not in SAFE_METHODS:
            origin = headers.get(b"origin")
            if origin is not None and not self._own_origin(origin.decode("latin-1")):
                problem = (403, "requests from another site are refused")
            elif headers.get(b"sec-fetch-site", b"").lower() == b"cross-site":
                problem = (403, "requests from another site are refused")
        if problem is not None:
            await _error(*problem)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _own_origin(self, origin: str) -> bool:
        scheme, sep, rest = origin.strip().partition("://")
        if not sep or scheme.lower() not in ("http", "https") or "/" in rest or "@" in rest:
            return False
        host = _host_of(rest)
        return host is not None and host in self.hosts


class SecurityHeaders:
    """CSP and friends on every answer (the replay page brings its own CSP for its inline script)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"cache-control", b"no-store"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


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
    its `reviews.Reviews` (`close()` ends the review workers): `serve` calls both when it stops."""
    if rate is not None and not (math.isfinite(rate) and rate > 0):
        raise ValueError(f"rate must be a positive number of requests a second, got {rate!r}")
    hosts = frozenset(host_name(h) for h in [*LOCAL_HOSTS, *(allowed_hosts or [])])
    store = GameStore(Path(data_dir), max_games=max_games, cached=cached_games)
    reviews = Reviews(store, review_compute, review_workers)
    hub, views = Hub(per_client=streams_per_client), DrawnViews()
    default_lang = check_lang(lang)
    scrub = Scrubber([str(Path(data_dir).absolute()), str(Path(__file__).parents[2]), sys.prefix, os.path.expanduser("~")])
    _answers = _answering(scrub)

    def lang_of(request: Request) -> str:
        """The language the request asks for (`?lang=`), the server's default if none."""
        asked = request.query_params.get("lang")
        if asked is None or not asked.strip():
            return default_lang
        try:
            return check_lang(asked[:10])
        except UnknownLanguageError as exc:
            raise RequestError(str(exc)) from None

    def base_of(request: Request) -> str:
        """`http://HOST` as the request named it (the Host header, checked by `HostGuard`)."""
        return f"{request.url.scheme}://{request.headers.get('host', '127.0.0.1')}"

    def news(game: Game) -> dict[str, Any]:
        """What the event stream says of `game` (public: no key needed); call with its lock held."""
        return {"version": len(game.state.events), "to_move": game.to_move(), "over": game.state.is_terminal()}

    def advance(game: Game) -> None:
        """The bots' decisions, one at a time, each stored and announced, until a person's turn
        or the end (in a worker thread). One thread at a time moves a game's bots; the lock is
        held for one decision only, so the other pages can fetch their view between two."""
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
                    store.change(game, game.bot_step)
                    said = news(game)
                hub.publish(game.id, said)
        except BaseException:
            with game.lock:
                game.advancing = False
            raise

    def advance_or_log(game: Game) -> None:
        """`advance`, a bot's move that cannot be stored logged and left for the next request:
        a read never fails because a write failed (the game stays as last stored, the seat's
        move included)."""
        try:
            advance(game)
        except StorageError as exc:
            log.warning("game %s: a bot's move could not be stored: %s", game.id, exc)
        if review_on_end and game.state.is_terminal():
            try:
                reviews.job(game.id, _locked(game, game.record), None)  # the review, ready before it is asked for
            except DreamhomeError as exc:
                log.warning("game %s: its review was not started: %s", game.id, exc)

    def seat_of_headers(request: Request, game: Game) -> int | None:
        """The seat the headers `X-Seat`, `X-Seat-Key` prove (403 if they prove none), None without them."""
        seat, key = request.headers.get("x-seat"), request.headers.get("x-seat-key")
        if seat is None and key is None:
            return None
        number = int(seat) if seat is not None and whole_number(seat, 999) else -1
        return game.seat_of(number, key)

    def since_of(request: Request) -> int | None:
        asked = request.query_params.get("since")
        if asked is None:
            return None
        if not whole_number(asked, MAX_SINCE):
            raise RequestError("since must be a whole number (a version the page saw)")
        return int(asked)

    def seat_body(data: Any, fields: set[str], usage: str) -> tuple[Any, Any]:
        if not isinstance(data, dict) or set(data) - fields:
            raise RequestError(f"send {usage}")
        return data.get("seat"), data.get("key")

    limiters: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = weakref.WeakKeyDictionary()

    async def heavy(func: Callable[..., Any], *args: Any) -> Any:
        """`func(*args)` in one of at most `HEAVY_THREADS` workers: bots' moves and solving queue
        there, so twenty at once do not leave a quick read a twenty-first of the interpreter."""
        loop = asyncio.get_running_loop()  # one limiter a loop (a test client may run several)
        limiter = limiters.get(loop) or limiters.setdefault(loop, anyio.CapacityLimiter(HEAVY_THREADS))
        return await anyio.to_thread.run_sync(func, *args, limiter=limiter)

    async def game_of(request: Request) -> Game:
        """The request's game (`store.get`), in a worker thread: a game not in memory is read
        and replayed from its file, which must not hold up the event loop."""
        return await run_in_threadpool(store.get, request.path_params["game_id"])

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
        data = await _json_body(request)
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

    def _locked(game: Game, work: Callable[[], Any]) -> Any:
        with game.lock:
            return work()

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
        data = await _json_body(request)
        seat, key = seat_body(data, {"seat", "key", "index", "version"}, '{"seat": N, "key": K, "index": I, "version": V}')
        me = game.seat_of(seat, key)
        index, version = data.get("index"), data.get("version")
        if type(index) is not int or type(version) is not int:
            raise RequestError("index and version must be whole numbers")

        def decide() -> tuple[int, dict[str, Any]]:
            state = game.state
            if game.to_move() != me:
                raise ConflictError("it is not your turn" if not state.is_terminal() else "the game is over")
            if version != len(state.events):
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
        seat, key = seat_body(await _json_body(request), {"seat", "key"}, '{"seat": N, "key": K}')
        me = game.seat_of(seat, key)

        def position() -> GameState:
            if game.to_move() != me:
                raise ConflictError("hints are for your turn")
            return public_position(game.state)  # SEE-1: the hint never sees the decks' order or the seed

        def work() -> dict[str, Any]:
            state = _locked(game, position)  # the hint works on a copy: the others' pages are not held up
            return hint_view(state, hint_for(state, HINT_WORK), chosen)

        return JSONResponse(await heavy(work))

    async def events(request: Request) -> Response:
        game = await game_of(request)
        if request.method == "HEAD":  # the headers alone: a stream that never ends has no length to announce
            return Response(media_type="text/event-stream")
        try:
            sub = hub.subscribe(game.id, client_of(request.scope))
        except TooManyStreamsError:
            return _error(429, "too many event streams open from this address; close a page and try again")
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
            if game.best is not None:
                return final_view(game, chosen)
            view = final_view(game, chosen)
            try:
                store.save(game)  # the comparison kept; if it cannot be, it is computed again next time
            except StorageError as exc:
                log.warning("game %s: the end-game comparison could not be stored: %s", game.id, exc)
            return view

        return JSONResponse(await heavy(_locked, game, work))

    async def replay(request: Request) -> Response:
        from dreamhome.game.record import GameResult
        from dreamhome.render.replay_page import CSP as REPLAY_CSP
        from dreamhome.render.replay_page import replay_html

        game = await game_of(request)
        if not game.state.is_terminal():
            raise ConflictError("the replay is ready when the game is over")

        chosen = lang_of(request)

        def work() -> str:
            record = GameResult(game.state, tuple(game.settings.seat_names())).record()
            return replay_html(record, f"game {game.id}", lang=chosen)

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
        return _error(exc.status_code, scrub(str(exc.detail)))

    async def on_crash(request: Request, exc: Exception) -> Response:
        log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        return _error(500, "internal error (logged by the server)")

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
    return app
