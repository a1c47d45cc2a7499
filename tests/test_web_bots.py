"""One place moves the bots (`web.bots.BotMover`, issue 33): every change of a game — a start,
an act, an undo, a rematch — ends with the bots moved to the next person's turn or the end,
each of their decisions stored; a read (`GET`) never moves a game, whatever it finds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from dreamhome.web.store import GameStore, Settings  # noqa: E402
from tests.helpers.seats import Seat, play_to_end, start_seats, table_client  # noqa: E402
from tests.helpers.table import key_of  # noqa: E402

FIRST_TO_A_BOT = 7
"""A seed whose first decision is seat 1's (the engine draws the first player from the seed)."""


def stored(folder: Path, gid: str) -> dict[str, Any]:
    return json.loads((folder / f"{gid}.json").read_text(encoding="utf-8"))


def reads(c: Any, gid: str, seat: int, key: str) -> list[Any]:
    """Every kind of read of a game in play: the seat's view, the watch view (with and without
    `since`), the list, the table page and its event stream's first news."""
    head = {"X-Seat": str(seat), "X-Seat-Key": key}
    answers = [
        c.get(f"/api/games/{gid}", headers=head),
        c.get(f"/api/games/{gid}"),
        c.get(f"/api/games/{gid}", params={"since": 0}),
        c.get("/api/games"),
        c.get(f"/games/{gid}"),
    ]
    assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
    return answers


def test_a_read_never_moves_a_game_with_a_bot_to_move(tmp_path: Path) -> None:
    """A game stored with its bot to move (a server stopped between two of a bot's decisions):
    no read moves it — the version, the view and the file stay — until the server resumes its
    bots (`BotMover.resume`, as `dreamhome serve` does when it starts)."""
    store = GameStore(tmp_path)
    game, keys = store.create(Settings(("person", "greedy"), "", FIRST_TO_A_BOT))
    assert game.bot_to_move()
    first = game.version
    before = (tmp_path / f"{game.id}.json").read_bytes()
    c = table_client(tmp_path)
    views = [reads(c, game.id, 0, keys[0]) for _ in range(3)]
    assert {r.json()["version"] for answers in views for r in answers[:3]} == {first}
    assert all(r.json()["to_move"] == 1 for answers in views for r in answers[:3])
    assert (tmp_path / f"{game.id}.json").read_bytes() == before
    assert c.app.state.tables.mover.resume() == 1  # type: ignore[attr-defined]
    after = Seat(c, game.id, 0, keys[0]).view
    assert after["your_turn"] and after["version"] > first
    assert len(stored(tmp_path, game.id)["state"]["events"]) == after["version"]
    assert c.app.state.tables.mover.resume() == 0  # type: ignore[attr-defined]  # nothing left to move


def test_a_start_moves_a_bot_that_sits_first(tmp_path: Path) -> None:
    c = table_client(tmp_path)
    gid, seats = start_seats(c, {"seats": ["person", "greedy"], "seed": FIRST_TO_A_BOT})
    view = seats[0].view
    assert view["your_turn"] and view["version"] > 0
    assert len(stored(tmp_path, gid)["state"]["events"]) == view["version"]


def test_the_bots_move_after_every_act_and_no_read_between_moves_a_game(tmp_path: Path) -> None:
    """A whole game of a person and two bots: after each act the answer is the person's next
    turn or the end, stored; the reads between two acts leave the version where the act left it."""
    c = table_client(tmp_path)
    gid, seats = start_seats(c, {"seats": ["person", "random", "greedy"], "seed": 4})
    me = seats[0]
    k = 0
    while not me.view["over"]:
        assert me.view["your_turn"]
        version = me.view["version"]
        for r in reads(c, gid, 0, me.key)[:3]:
            assert r.json()["version"] == version
        me.act((5 * k + 2) % len(me.view["legal"]))
        assert me.view["your_turn"] or me.view["over"]  # the bots moved before the answer
        assert len(stored(tmp_path, gid)["state"]["events"]) == me.view["version"]
        k += 1
    assert k > 10


def test_an_undo_and_a_rematch_end_with_the_bots_moved(tmp_path: Path) -> None:
    """An undo hands the turn back to the seat (no bot moves, the version grows by the undo
    only); a rematch whose bot sits first is answered with its bot moved."""
    c = table_client(tmp_path)
    gid, seats = start_seats(c, {"seats": ["person", "greedy"], "seed": 3})
    me = seats[0]
    taken = me.act(0)
    assert taken["your_turn"]  # a take: the placement is the seat's too
    back = me.undo()
    assert back["your_turn"] and back["version"] > taken["version"]
    assert stored(tmp_path, gid)["undone"] >= 1
    store = c.app.state.tables.store  # type: ignore[attr-defined]
    for _ in range(20):  # rematches until one whose bot sits first (its seed is drawn)
        game = store.get(me.game)
        with game.lock:  # the game to its end in memory, the person's first option each time
            play_to_end(game)
            store.save(game)
        r = me.post("rematch")
        assert r.status_code == 200, r.text
        seat, key = key_of(r.json()["url"])
        me = Seat(c, r.json()["game"], seat, key)
        assert me.view["your_turn"]  # whoever sat first, it is the person's turn
        events = stored(tmp_path, me.game)["state"]["events"]
        assert len(events) == me.view["version"]
        if any(e.get("player") == 1 for e in events):
            return
    pytest.fail("no rematch began with its bot")
