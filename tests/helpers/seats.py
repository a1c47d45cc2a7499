"""A seat at the table's app in process (Starlette's TestClient): start a game, read a seat's
view, act, undo. For the undo, names and rematch tests (tests/test_web_undo.py)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tests.helpers import table

BASE = "http://127.0.0.1:8765"


def table_client(folder: Path) -> TestClient:
    """The app over `folder` at the address the seat links name (tests/helpers/table.py)."""
    return table.table_client(folder, base_url=BASE)


class Seat:
    """One person's page: the game's id, the seat, its key, and the last view it read."""

    def __init__(self, c: TestClient, game: str, seat: int, key: str):
        self.c, self.game, self.seat, self.key = c, game, seat, key
        self.view: dict[str, Any] = {}
        self.look()

    def look(self) -> dict[str, Any]:
        r = self.c.get(f"/api/games/{self.game}", headers={"X-Seat": str(self.seat), "X-Seat-Key": self.key})
        assert r.status_code == 200, r.text
        self.view = r.json()
        return self.view

    def post(self, what: str, **body: Any) -> Any:
        """`POST /api/games/ID/<what>` with the seat's key and `body`; the answer (not checked)."""
        return self.c.post(f"/api/games/{self.game}/{what}", json={"seat": self.seat, "key": self.key, **body})

    def act(self, index: int) -> dict[str, Any]:
        r = self.post("act", index=index, version=self.view["version"])
        assert r.status_code == 200, r.text
        self.view = r.json()
        return self.view

    def undo(self) -> dict[str, Any]:
        r = self.post("undo", version=self.view["version"])
        assert r.status_code == 200, r.text
        self.view = r.json()
        return self.view


def start_seats(c: TestClient, body: dict[str, Any]) -> tuple[str, dict[int, Seat]]:
    """A game of `body` (`POST /api/games`): its id and each person's page."""
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    made = r.json()
    seats = {}
    for entry in made["seats"]:
        seat, key = table.key_of(entry["url"])
        seats[seat] = Seat(c, made["game"], seat, key)
    return made["game"], seats


def play_to_end(game: Any) -> None:
    """A stored game (`web.store.Game`) played to its end in memory: the first legal option at
    every person's decision, the bots their own. A finished game without a request per move;
    the caller holds its lock where the server shares it, and stores it."""
    while not game.state.is_terminal():
        if game.bot_to_move():
            game.bot_step()
        else:
            game.state.apply_action(game.state.legal_actions()[0])
            game.note_end()
