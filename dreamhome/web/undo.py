"""`POST /api/games/{id}/undo` {seat, key, version}: a seat takes back its latest decision.

The rule is the terminal's too (`dreamhome.game.undo`): a person's decisions can be taken
back, the latest first, while no other player has decided since; once a bot has moved after
a decision that ended the person's turn, or another person has acted, the turn has passed
(409, one line); so it has once a deal has shown the next round's cards (SEE-1). The request
is checked as an act is: the seat's key (403), the page's version (409 for a stale page: two
tabs of one seat, or a page that missed a change, never take back what they did not see),
the game not over (409).

Why an undo is a stored change like any other (`GameStore.change`): the file is rewritten
whole, so a server stopped at any moment keeps the game before or after the undo, and a
restart shows what the pages were shown. The game's `version` grows (`Game.version`), so
every page watching is told (`live.Hub`) and fetches its view again, and no view drawn
before the undo is answered after it (`drawn.DrawnViews`).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dreamhome.game.phases import Phase
from dreamhome.game.undo import dealt_since, replayed_to, undo_mark
from dreamhome.web.answers import json_body
from dreamhome.web.context import locked, seat_body, tables_of
from dreamhome.web.store import ConflictError, Game, RequestError

USAGE = '{"seat": N, "key": K, "version": V}'


def undo_point(game: Game, seat: int, version: int) -> int:
    """The index of the event `seat` may take the game back to (`undo.undo_mark`), or
    `ConflictError` when the page is stale, the game over or the turn passed; call with the
    game's lock held."""
    state = game.state
    if state.is_terminal():
        raise ConflictError("the game is over; nothing can be taken back")
    if version != game.version:
        raise ConflictError("the page is out of date; reload it")
    mark = undo_mark(state.events, seat)
    if mark is None and dealt_since(state.events, seat):
        raise ConflictError("nothing to undo: cards were dealt after your last decision, and they cannot be unseen")
    if mark is None:
        raise ConflictError("nothing to undo: another player has acted since your last decision")
    return mark


def take_back_to(game: Game, mark: int) -> None:
    """The game as it was before its event `mark` (a decision), in memory: the caller stores it
    (`GameStore.change`). The events taken back count in `Game.undone`, so the version grows."""
    state = game.state
    back = replayed_to(state, mark)
    game.undone += len(state.events) - mark
    game.state = back
    if back.phase not in (Phase.END, Phase.DONE):
        game.end_houses = None  # taken back to before the end game: its houses are kept again when it begins
    game.note_end()


async def undo(request: Request) -> Response:
    """The endpoint: the seat's view after the undo (as `act` answers with the view after it)."""
    tables = tables_of(request)
    chosen = tables.lang_of(request)
    game = await tables.game_of(request)
    data = await json_body(request)
    seat, key = seat_body(data, {"seat", "key", "version"}, USAGE)
    me = game.seat_of(seat, key)
    version = data.get("version")
    if type(version) is not int:
        raise RequestError("version must be a whole number (the version the page saw)")

    def change() -> dict[str, Any]:
        mark = undo_point(game, me, version)
        tables.store.change(game, lambda: take_back_to(game, mark))  # counts once stored, else put back
        return tables.news(game)

    def work() -> dict[str, Any]:
        said = locked(game, lambda: tables.computed(change))  # the replay computes; its file's fsync gives the place up
        tables.hub.publish(game.id, said)
        tables.after_change(game)  # the turn is the seat's again: no bot moves, but every change ends here
        return locked(game, lambda: tables.computed(lambda: tables.views.get(game, me, None, chosen)))

    return JSONResponse(await tables.heavy(work))
