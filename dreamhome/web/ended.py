"""The endpoints of a finished game: the end comparison, the replay page, the review page and
the record (each 409 until the game is over).

Module-level functions of a request, as `web.table`'s: what they share is `app.state.tables`
(`context.Tables`).
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from dreamhome.web.context import locked, tables_of
from dreamhome.web.ratelimit import client_of
from dreamhome.web.store import ConflictError, StorageError
from dreamhome.web.view import final_view

log = logging.getLogger("dreamhome.web")


async def final(request: Request) -> Response:
    """`GET /api/games/{id}/final`: the end comparison, kept in the game file once computed."""
    tables = tables_of(request)
    chosen = tables.lang_of(request)
    game = await tables.game_of(request)
    if not game.state.is_terminal():
        raise ConflictError("the game is not over yet")

    def work() -> dict[str, Any]:
        # Seconds of solving, under the comparison's own lock, not the game's: every view of
        # the game takes that one, and a game over changes no more (issue 33: no page waits
        # for another's work). One comparison a game at a time; the second asker reads it kept.
        with game.final_lock:
            kept = game.best is not None
            view = tables.computed(lambda: final_view(game, chosen))  # the solving, in a place to compute
        if kept:
            return view
        try:  # the comparison kept; if it cannot be, it is computed again next time
            locked(game, lambda: tables.store.save(game))
        except StorageError as exc:
            log.warning("game %s: the end-game comparison could not be stored: %s", game.id, exc)
        return view

    return JSONResponse(await tables.heavy(work))


async def replay(request: Request) -> Response:
    """`GET /games/{id}/replay`: the replay page of a finished game."""
    from dreamhome.render.replay_page import CSP as REPLAY_CSP
    from dreamhome.render.replay_page import replay_html

    tables = tables_of(request)
    game = await tables.game_of(request)
    if not game.state.is_terminal():
        raise ConflictError("the replay is ready when the game is over")

    chosen = tables.lang_of(request)

    def work() -> str:
        return replay_html(game.record(), f"game {game.id}", lang=chosen)

    html = await run_in_threadpool(locked, game, work)
    return HTMLResponse(html, headers={"content-security-policy": REPLAY_CSP})


async def review(request: Request) -> Response:
    """ "Review this game" (issue 23): the annotated replay page of a finished game, every
    decision against the best by the review's evaluation (dreamhome.review), in the page's
    language. Computed once per game in a worker process and kept (`reviews.Reviews`), started
    when the game ends; until it is ready the answer comes at once, 202 with a page that says
    how far the review is and asks again (`review_page.waiting_html`), never a blank tab."""
    from dreamhome.render.replay_page import CSP as REPLAY_CSP
    from dreamhome.render.review_page import REFRESH_SECONDS, WAITING_CSP, waiting_html
    from dreamhome.web.reviews import Progress

    tables = tables_of(request)
    game = await tables.game_of(request)
    if not game.state.is_terminal():
        raise ConflictError("the review is ready when the game is over")
    chosen = tables.lang_of(request)
    record = await run_in_threadpool(locked, game, game.record)
    now = await tables.reviews.answer(game.id, record, client_of(request.scope))
    if isinstance(now, Progress):
        page = waiting_html(now.started, now.done, now.total, chosen)
        headers = {"content-security-policy": WAITING_CSP, "retry-after": str(REFRESH_SECONDS)}
        return HTMLResponse(page, status_code=202, headers=headers)
    return HTMLResponse(now[chosen], headers={"content-security-policy": REPLAY_CSP})


async def record(request: Request) -> Response:
    """`GET /api/games/{id}/record`: the game's `dreamhome.record/2` (issue 31, item 5), for
    `dreamhome replay` and `dreamhome analyze`. Only once the game is over: the record holds
    the seed, which decides the decks' order, hidden from every seat until the end (SEE-1)."""
    tables = tables_of(request)
    game = await tables.game_of(request)
    if not game.state.is_terminal():
        raise ConflictError("the record is ready when the game is over (it holds the seed, which decides the decks: SEE-1)")
    data = await run_in_threadpool(locked, game, game.record)
    name = f"dreamhome-{game.id}.json"
    return JSONResponse(data, headers={"content-disposition": f'attachment; filename="{name}"'})
