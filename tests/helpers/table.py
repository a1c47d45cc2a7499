"""The table's JSON API in-process (Starlette's TestClient): a game of seats, each seat's view,
its decisions, and the engine's own replay of the stored game as an independent reference."""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dreamhome.game.actions import action_from_dict
from dreamhome.game.state import GameState
from dreamhome.web.store import rules_for

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 over httpx; both work here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def table_client(folder: Path) -> TestClient:
    """The app over `folder`, no rate limit."""
    from dreamhome.web.app import create_app

    return TestClient(create_app(folder, rate=None), base_url="http://127.0.0.1", raise_server_exceptions=False)


@dataclass
class Table:
    """A game on the server: its id and each person's seat key."""

    client: TestClient
    folder: Path
    id: str
    keys: dict[int, str] = field(default_factory=dict)

    @classmethod
    def start(cls, client: TestClient, folder: Path, seats: list[str], seed: int, variant: str = "") -> Table:
        r = client.post("/api/games", json={"seats": seats, "seed": seed, "variant": variant})
        assert r.status_code == 201, r.text
        keys = {}
        for entry in r.json()["seats"]:
            fragment = dict(part.split("=", 1) for part in entry["url"].split("#", 1)[1].split("&"))
            keys[int(fragment["seat"])] = fragment["key"]
        return cls(client, folder, r.json()["game"], keys)

    def view(self, seat: int | None = None, lang: str = "en") -> dict[str, Any]:
        """The view of `seat` (None: the watch page)."""
        headers = {} if seat is None else {"X-Seat": str(seat), "X-Seat-Key": self.keys[seat]}
        r = self.client.get(f"/api/games/{self.id}", headers=headers, params={"lang": lang})
        assert r.status_code == 200, r.text
        return dict(r.json())

    def act(self, seat: int, index: int) -> dict[str, Any]:
        """Seat `seat` makes its decision `index` (the view it answers)."""
        version = self.view(seat)["version"]
        body = {"seat": seat, "key": self.keys[seat], "index": index, "version": version}
        r = self.client.post(f"/api/games/{self.id}/act", json=body)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def stored(self) -> dict[str, Any]:
        """The game as the server stored it (its seed and decks included: never sent to a page)."""
        return dict(json.loads((self.folder / f"{self.id}.json").read_text(encoding="utf-8")))

    def play(self, decisions: int) -> None:
        """`decisions` person decisions, each the k-th legal action round-robin (so discards,
        face-down placements and tools get chosen too), the bots moving between."""
        for k in range(decisions):
            view = self.view()
            seat = view["to_move"]
            if seat is None:
                return
            legal = self.view(seat)["legal"]
            self.act(seat, k % len(legal))


def replayed(table: Table) -> tuple[GameState, list[GameState | None]]:
    """The stored game replayed by the engine from its seed: the final state and, for each event,
    the state just before it when it is a decision made by a choice (None for the others)."""
    data = table.stored()
    settings, events = data["settings"], data["state"]["events"]
    state = GameState(rules_for(settings["variant"]), len(settings["seats"]), settings["seed"])
    before: list[GameState | None] = [None] * len(events)
    for index, event in enumerate(events):
        if "text" not in event or event.get("forced") or len(state.events) > index:
            continue
        before[index] = state.clone()
        state.apply_action(action_from_dict(event["action"]))
    assert state.events == events, "the engine's replay differs from the stored game"
    return state, before
