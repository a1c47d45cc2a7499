"""The table's endpoints: the page, the options and rules it reads, the games kept, a new game,
a seat's view, its decision, its hint and the event stream (the routes in `app`'s docstring).

Each is a module-level function of a request that finds what it needs through
`request.app.state.tables` (`context.Tables`); the project's errors it raises become their
status through the app's `exception_handlers` (`answers.on_project_error`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse

from dreamhome.game.state import GameState
from dreamhome.i18n import UnknownLanguageError, check_lang
from dreamhome.players.hints import HINT_WORK
from dreamhome.web.answers import error_response, json_body, whole_number
from dreamhome.web.context import locked, seat_body, tables_of
from dreamhome.web.live import TooManyStreamsError
from dreamhome.web.public import public_position
from dreamhome.web.ratelimit import client_of
from dreamhome.web.store import ConflictError, RequestError, Settings, players_range, rules_for, variant_catalogue
from dreamhome.web.view import hint_view, options_view, rules_view

STATIC = Path(__file__).parent / "static"
MAX_SINCE = 999_999
"""The largest `?since=` read (a version: the events of a game number in the hundreds)."""
LISTED = 100
"""Games the front page's list shows at most (`GET /api/games`)."""


def since_of(request: Request) -> int | None:
    """The `?since=` version a page saw (None without it; 400 for anything but a whole number)."""
    asked = request.query_params.get("since")
    if asked is None:
        return None
    if not whole_number(asked, MAX_SINCE):
        raise RequestError("since must be a whole number (a version the page saw)")
    return int(asked)


async def page(request: Request) -> Response:
    """`GET /`, `GET /games/{id}`: the table page (404 for an unknown id, before any page)."""
    if "game_id" in request.path_params:
        await tables_of(request).game_of(request)
    return FileResponse(STATIC / "table.html", media_type="text/html")


async def options(request: Request) -> Response:
    """`GET /api/options`: players range, bots, variants, languages and the page's labels."""
    tables = tables_of(request)
    body = await run_in_threadpool(options_view, tables.lang_of(request), tables.default_lang)
    return Response(body, media_type="application/json")


async def games(request: Request) -> Response:
    """`GET /api/games`: the games kept, the most recently changed first, each with its watch link."""
    tables = tables_of(request)
    base = tables.base_of(request)
    listed = await run_in_threadpool(tables.store.listing, LISTED)
    return JSONResponse({"games": [{**g, "watch": f"{base}/games/{g['game']}"} for g in listed]})


async def start(request: Request) -> Response:
    """`POST /api/games`: a new game; 201 with each person seat's link and the watch link."""
    tables = tables_of(request)
    data = await json_body(request)
    if isinstance(data, dict) and "lang" in data:
        try:
            check_lang(data["lang"] if isinstance(data["lang"], str) else "?")
        except UnknownLanguageError as exc:
            raise RequestError(str(exc)) from None
    settings = await run_in_threadpool(Settings.parse, data)  # each variant's rules: compiled once, in a worker
    game, keys = await run_in_threadpool(tables.store.create, settings)
    await tables.heavy(tables.after_change, game)  # a bot in the first seat moves now, stored and announced
    base = f"{tables.base_of(request)}/games/{game.id}"
    seats = [{"seat": p, "url": f"{base}#seat={p}&key={key}"} for p, key in sorted(keys.items())]
    return JSONResponse({"game": game.id, "seats": seats, "watch": base}, status_code=201)


async def rules_explained(request: Request) -> Response:
    """`GET /api/rules?variant=V&players=N&lang=L`: the cards explained, "How to play" and each
    phase's reason for the rules a table plays (`view.rules_view`; issue 22, item 3)."""
    chosen = tables_of(request).lang_of(request)
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
    """`GET /api/games/{id}`: the seat's view (headers `X-Seat`, `X-Seat-Key`) or the watch view."""
    tables = tables_of(request)
    chosen = tables.lang_of(request)
    since = since_of(request)
    game = await tables.game_of(request)
    me = tables.seat_of_headers(request, game)  # a read never moves the game (`Tables.after_change` does)
    view = await run_in_threadpool(locked, game, lambda: tables.views.get(game, me, since, chosen))
    return JSONResponse(view)


async def act(request: Request) -> Response:
    """`POST /api/games/{id}/act`: the seat's decision, stored, then the bots' (`Tables.after_change`)."""
    tables = tables_of(request)
    chosen = tables.lang_of(request)
    game = await tables.game_of(request)
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

        tables.store.change(game, move)  # the move counts once stored, else it is undone
        return mark, tables.news(game)

    def work() -> dict[str, Any]:
        mark, said = locked(game, lambda: tables.computed(decide))  # the fsync of its file outside the place
        tables.hub.publish(game.id, said)
        tables.after_change(game)
        return locked(game, lambda: tables.computed(lambda: tables.views.get(game, me, mark, chosen)))

    return JSONResponse(await tables.heavy(work))


async def hint(request: Request) -> Response:
    """`POST /api/games/{id}/hint`: the hint for the seat, on its turn (`Tables.hint_for`)."""
    tables = tables_of(request)
    chosen = tables.lang_of(request)
    game = await tables.game_of(request)
    seat, key = seat_body(await json_body(request), {"seat", "key"}, '{"seat": N, "key": K}')
    me = game.seat_of(seat, key)

    def position() -> tuple[GameState, int]:
        if game.to_move() != me:
            raise ConflictError("hints are for your turn")
        return public_position(game.state), game.version  # SEE-1: the hint never sees the decks' order or the seed

    def work() -> dict[str, Any]:
        state, version = locked(game, position)  # the hint works on a copy: the others' pages are not held up
        found = tables.computed(lambda: tables.hint_for(state, HINT_WORK))  # no lock held: the hint works on a copy
        return {**hint_view(state, found, chosen), "version": version}

    return JSONResponse(await tables.heavy(work))


async def events(request: Request) -> Response:
    """`GET /api/games/{id}/events`: the game's news at once and after every stored change."""
    tables = tables_of(request)
    game = await tables.game_of(request)
    if request.method == "HEAD":  # the headers alone: a stream that never ends has no length to announce
        return Response(media_type="text/event-stream")
    try:
        sub = tables.hub.subscribe(game.id, client_of(request.scope))
    except TooManyStreamsError:
        return error_response(429, "too many event streams open from this address; close a page and try again")
    try:
        first = await run_in_threadpool(locked, game, lambda: tables.news(game))
    except BaseException:
        tables.hub.unsubscribe(sub)
        raise
    return StreamingResponse(tables.hub.stream(sub, first), media_type="text/event-stream", headers={"x-accel-buffering": "no"})
