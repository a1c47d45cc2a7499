"""The Starlette app of `dreamhome serve`: the page, its assets, and a small JSON API.

Routes (every id checked by `store.check_game_id` before anything else):

* `GET /`, `GET /games/{id}`: the table page (static/table.html); `GET /static/…` its assets.
* `GET /api/options`: players range, bots, the variant catalogue, the languages and the
  page's labels (`table.*`, `phase.*` of the catalogue) in the language asked.
* `POST /api/games` {players, bots, variant, seed}: a new game; answers its view.
* `GET /api/games/{id}`: the view (what the person may see, SEE-1).
* `POST /api/games/{id}/act` {index, version}: the person's decision, `index` into
  `legal_actions()`, `version` the number of events the page saw (a stale page gets 409, so
  a double click never applies a second action meant for an older list); then the bots move.
* `GET /api/games/{id}/hint`: `dreamhome.game.hints.hint` for the person's options.
* `GET /games/{id}/replay`: the replay page (`render_html.replay_html`) of a finished game.

Every API request may name its language, `?lang=ru` (one of `i18n.LANGUAGES`; the server's
`--lang` by default): the answer's labels, card names and action texts are in it. The language
is the page's choice, not the game's: the game file and its record stay in English.

Why the guards: the server binds to 127.0.0.1, but any web page the person opens could send
requests to it. JSON bodies are required (`Content-Type: application/json`, which a cross-site
form cannot send without a CORS preflight the server never grants), the Host header must name
the server (against DNS rebinding), every answer carries a Content-Security-Policy that allows
only the server's own files, bodies are capped, and errors are one line of JSON, never a
traceback.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dreamhome.errors import DreamhomeError
from dreamhome.game.hints import Hint, hint
from dreamhome.game.state import GameState, IllegalAction
from dreamhome.i18n import DEFAULT_LANG, LANGUAGES, UnknownLanguageError, check_lang, language_name
from dreamhome.web.store import (
    BOT_NAMES,
    ConflictError,
    Game,
    GameNotFoundError,
    GameStore,
    RequestError,
    Settings,
    rules_for,
    variant_catalogue,
)
from dreamhome.web.view import final_view, game_view, hint_view, page_texts

HintFunction = Callable[[GameState, float], Hint]
"""What the hint endpoint calls: `dreamhome.game.hints.hint`, or a stand-in in tests."""

log = logging.getLogger("dreamhome.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4096
"""Largest request body read (bytes): a start or act request is under 200."""
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
LOCAL_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _json_body(request: Request) -> Any:
    """The request's JSON object (400 for anything else, 415 for another content type)."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise HTTPException(415, "send JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise HTTPException(413, f"the request body is larger than {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise HTTPException(413, f"the request body is larger than {MAX_BODY} bytes")
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HTTPException(400, "the request body is not valid JSON") from None


Handler = Callable[[Request], Awaitable[Response]]


def _answers(func: Handler) -> Handler:
    """The project's errors as 4xx with their one line; nothing else reaches the client."""

    async def wrapped(request: Request) -> Response:
        try:
            return await func(request)
        except GameNotFoundError as exc:
            return _error(404, str(exc))
        except ConflictError as exc:
            return _error(409, str(exc))
        except (RequestError, IllegalAction) as exc:
            return _error(400, str(exc))
        except DreamhomeError as exc:  # a game file that does not load, and the like
            return _error(422, str(exc))

    return wrapped


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


def create_app(
    data_dir: str | Path,
    allowed_hosts: list[str] | None = None,
    hint_for: HintFunction = hint,
    lang: str = DEFAULT_LANG,
) -> Starlette:
    """The app over the games kept in `data_dir` (made on the first game).

    `allowed_hosts`: the Host header values accepted (default: the loopback names); `lang`: the
    language of answers whose request names none (`dreamhome serve --lang`)."""
    store = GameStore(Path(data_dir))
    default_lang = check_lang(lang)

    def lang_of(request: Request) -> str:
        """The language the request asks for (`?lang=`), the server's default if none."""
        asked = request.query_params.get("lang")
        if asked is None or not asked.strip():
            return default_lang
        try:
            return check_lang(asked[:10])
        except UnknownLanguageError as exc:
            raise RequestError(str(exc)) from None

    async def page(request: Request) -> Response:
        if "game_id" in request.path_params:
            store.get(request.path_params["game_id"])  # 404 for an unknown id, before any page
        return FileResponse(STATIC / "table.html", media_type="text/html")

    async def options(request: Request) -> Response:
        rules = rules_for("")
        chosen = lang_of(request)
        return JSONResponse(
            {
                "players": [rules.game.min_players, rules.game.max_players],
                "bots": list(BOT_NAMES),
                "variants": variant_catalogue(),
                "lang": chosen,
                "default_lang": default_lang,
                "languages": [{"code": code, "name": language_name(code)} for code in LANGUAGES],
                "texts": page_texts(chosen),
            }
        )

    async def start(request: Request) -> Response:
        chosen = lang_of(request)
        settings = Settings.parse(await _json_body(request))
        game = await run_in_threadpool(store.create, settings)
        return JSONResponse(game_view(game, lang=chosen), status_code=201)

    def _locked(game: Game, work: Callable[[], Any]) -> Any:
        with game.lock:
            return work()

    async def show(request: Request) -> Response:
        chosen = lang_of(request)
        game = store.get(request.path_params["game_id"])
        return JSONResponse(await run_in_threadpool(_locked, game, lambda: game_view(game, lang=chosen)))

    async def act(request: Request) -> Response:
        chosen = lang_of(request)
        game = store.get(request.path_params["game_id"])
        data = await _json_body(request)
        if not isinstance(data, dict) or set(data) - {"index", "version"}:
            raise RequestError('send {"index": N, "version": V}')
        index, version = data.get("index"), data.get("version")
        if type(index) is not int or type(version) is not int:
            raise RequestError("index and version must be whole numbers")

        def work() -> dict[str, Any]:
            state = game.state
            if not game.person_to_act():
                raise ConflictError("it is not your turn" if not state.is_terminal() else "the game is over")
            if version != len(state.events):
                raise ConflictError("the page is out of date; reload it")
            legal = state.legal_actions()
            if not 0 <= index < len(legal):
                raise RequestError(f"index must be from 0 to {len(legal) - 1}")
            mark = len(state.events)
            state.apply_action(legal[index])
            game.note_end()
            game.run_bots()
            store.save(game)
            return game_view(game, since=mark, lang=chosen)

        return JSONResponse(await run_in_threadpool(_locked, game, work))

    async def hint(request: Request) -> Response:
        chosen = lang_of(request)
        game = store.get(request.path_params["game_id"])

        def work() -> dict[str, Any]:
            if not game.person_to_act():
                raise ConflictError("hints are for your turn")
            return hint_view(game, hint_for(game.state, 1.0), chosen)

        return JSONResponse(await run_in_threadpool(_locked, game, work))

    async def final(request: Request) -> Response:
        chosen = lang_of(request)
        game = store.get(request.path_params["game_id"])
        if not game.state.is_terminal():
            raise ConflictError("the game is not over yet")

        def work() -> dict[str, Any]:
            view = final_view(game, chosen)
            store.save(game)
            return view

        return JSONResponse(await run_in_threadpool(_locked, game, work))

    async def replay(request: Request) -> Response:
        from dreamhome.game.record import GameResult
        from dreamhome.render_html import CSP as REPLAY_CSP
        from dreamhome.render_html import replay_html

        game = store.get(request.path_params["game_id"])
        if not game.state.is_terminal():
            raise ConflictError("the replay is ready when the game is over")

        def work() -> str:
            record = GameResult(game.state, tuple(game.settings.seat_names())).record()
            return replay_html(record, f"game {game.id}")

        html = await run_in_threadpool(_locked, game, work)
        return HTMLResponse(html, headers={"content-security-policy": REPLAY_CSP})

    async def on_http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, str(exc.detail))

    async def on_crash(request: Request, exc: Exception) -> Response:
        log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        return _error(500, "internal error (logged by the server)")

    gid = "{game_id:str}"
    routes = [
        Route("/", _answers(page)),
        Route(f"/games/{gid}", _answers(page)),
        Route("/api/options", _answers(options)),
        Route("/api/games", _answers(start), methods=["POST"]),
        Route(f"/api/games/{gid}", _answers(show)),
        Route(f"/api/games/{gid}/act", _answers(act), methods=["POST"]),
        Route(f"/api/games/{gid}/hint", _answers(hint)),
        Route(f"/api/games/{gid}/final", _answers(final)),
        Route(f"/games/{gid}/replay", _answers(replay)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [
        Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts or LOCAL_HOSTS),
        Middleware(SecurityHeaders),
    ]
    return Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: on_http_error, Exception: on_crash},
    )
