"""`POST /api/games/{id}/rematch` {seat, key}: the finished game played again, the same seats,
names and variant, a new seed; each person is given the link of their own seat in it.

Why the new seat keys are derived from the old ones (`rematch_key`): the server never keeps a
key, only its digest, so it cannot hand a person's new key to anybody but the one who shows the
old key. The first person who asks starts the rematch (`Game.rematch` keeps its id; its seats
have no key yet); each person then asks with the key of their seat in the finished game and
gets `HMAC-SHA256(old key, "rematch NEW-ID SEAT")` as the key of the same seat in the new game,
whose digest is stored then. Asking again gives the same key (a reloaded page loses nothing),
only the holder of the old key can compute it, and a watcher learns the rematch's watch link
from the view (`rematch`), never a key.

The finished game's version grows when its rematch starts (`Game.version`), so every page of
it is told at once (`live.Hub`) and offers its own seat link.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dreamhome.web.answers import json_body
from dreamhome.web.context import locked, seat_body, tables_of
from dreamhome.web.store import KEY_BYTES, ConflictError, Game, GameStore

USAGE = '{"seat": N, "key": K}'


def rematch_key(old_key: str, game_id: str, seat: int) -> str:
    """The key of `seat` in the rematch `game_id`, from the seat's key in the finished game
    (`KEY_BYTES` random-looking bytes, URL-safe base64, as `secrets.token_urlsafe` makes them)."""
    mac = hmac.new(old_key.encode("utf-8", "surrogatepass"), f"rematch {game_id} {seat}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:KEY_BYTES]).rstrip(b"=").decode("ascii")


def started(store: GameStore, game: Game) -> str:
    """The id of `game`'s rematch, started now if no one has (call with `game.lock` held: two
    people asking at once start one rematch)."""
    if not game.state.is_terminal():
        raise ConflictError("a rematch starts when the game is over")
    if game.rematch is None:
        new, _ = store.create(game.rematch_settings(), keyed=False)

        def note() -> None:
            game.rematch = new.id

        store.change(game, note)
        return new.id
    return game.rematch


def claimed(store: GameStore, old: Game, new: Game, seat: int, key: str) -> None:
    """The seat's key in the rematch stored (its digest), unless it is already. The rematch must
    be one of `old` (its seats, names and variant: a game file edited to name another game as its
    rematch gives no key to that game's seats)."""
    if not new.is_rematch_of(old):
        raise ConflictError("this game's rematch does not match it; start a new game")
    with new.lock:
        if new.keys[seat] is None:
            store.change(new, lambda: new.set_key(seat, key))


async def rematch(request: Request) -> Response:
    """The endpoint: `{"game": NEW, "seat": N, "url": seat link, "watch": watch link}`."""
    tables = tables_of(request)
    game = await tables.game_of(request)
    seat, old_key = seat_body(await json_body(request), {"seat", "key"}, USAGE)
    me = game.seat_of(seat, old_key)

    def work() -> dict[str, Any]:
        new_id = locked(game, lambda: started(tables.store, game))
        tables.announce(game)
        new = tables.store.get(new_id)
        tables.after_change(new)  # a bot in the first seat moves (the one who started it, or a later asker)
        key = rematch_key(old_key, new_id, me)
        claimed(tables.store, game, new, me, key)
        new.seat_of(me, key)  # a seat claimed otherwise (never: the key is derived) answers 403, not a dead link
        base = f"{tables.base_of(request)}/games/{new_id}"
        return {"game": new_id, "seat": me, "url": f"{base}#seat={me}&key={key}", "watch": base}

    return JSONResponse(await tables.heavy(work))
