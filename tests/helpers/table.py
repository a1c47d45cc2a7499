"""The table's JSON API in-process (Starlette's TestClient): a game of seats, each seat's view,
its decisions, and the engine's own replay of the stored game as an independent reference."""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dreamhome.dsl.compiler import compile_rules
from dreamhome.game.actions import action_from_dict
from dreamhome.game.state import GameState
from dreamhome.players.roster import make_bot
from dreamhome.render.action_text import describe
from dreamhome.scoring import score_total
from dreamhome.web.store import rules_for

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 over httpx; both work here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def table_client(folder: Path, base_url: str = "http://127.0.0.1", **options: Any) -> TestClient:
    """The app over `folder` (`create_app`'s `options`) with no rate limit (tests/test_web_security.py
    checks the limit), errors answered, never raised into the test."""
    from dreamhome.web.app import create_app

    return TestClient(create_app(folder, rate=None, **options), base_url=base_url, raise_server_exceptions=False)


client = table_client
"""The name tests/test_web.py and its neighbours call it by."""


def key_of(url: str) -> tuple[int, str]:
    """The seat and key a seat's link holds in its fragment (`#seat=N&key=K`)."""
    fragment = dict(part.split("=", 1) for part in url.split("#", 1)[1].split("&"))
    return int(fragment["seat"]), fragment["key"]


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
        keys = dict(key_of(entry["url"]) for entry in r.json()["seats"])
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


# ---------------------------------------------------------------- a person's seat against the engine
def start(c: TestClient, bots: list[str] | None = None, **body: Any) -> dict[str, Any]:
    """A game of a person at seat 0 and `bots` after (one greedy bot by default): seat 0's
    view, with its key kept in the view under "key" for the helpers below."""
    r = c.post("/api/games", json={"seats": ["person", *(bots or ["greedy"])], "seed": 7, **body})
    assert r.status_code == 201, r.text
    (entry,) = r.json()["seats"]
    seat, key = key_of(entry["url"])
    return look(c, {"id": r.json()["game"], "you": seat, "key": key})


def seat_headers(view: dict[str, Any]) -> dict[str, str]:
    return {"X-Seat": str(view["you"]), "X-Seat-Key": view["key"]}


def look(c: TestClient, view: dict[str, Any], **params: Any) -> dict[str, Any]:
    """The seat's view of the game of `view` again (its key kept)."""
    r = c.get(f"/api/games/{view['id']}", headers=seat_headers(view), params=params)
    assert r.status_code == 200, r.text
    return {**r.json(), "key": view["key"]}


def act(c: TestClient, view: dict[str, Any], index: int, version: int | None = None) -> Any:
    """The seat's decision `index` on the page of `view` (the response)."""
    body = {"seat": view["you"], "key": view["key"], "index": index, "version": view["version"] if version is None else version}
    return c.post(f"/api/games/{view['id']}/act", json=body)


def acted(c: TestClient, view: dict[str, Any], index: int) -> dict[str, Any]:
    """The view `act` answers (its key kept)."""
    r = act(c, view, index)
    assert r.status_code == 200, r.text
    return {**r.json(), "key": view["key"]}


class Reference:
    """The same game without the server: the engine, the same bots, the same decisions."""

    def __init__(self, players: int, bots: list[str], seed: int, variant: str = "", lang: str = "en"):
        self.state = GameState(compile_rules(None, [variant] if variant else []), players, seed)
        self.bots = {p: make_bot(name, seed, p) for p, name in enumerate(bots, start=1)}
        self.lang = lang
        self.run_bots()

    def run_bots(self) -> None:
        s = self.state
        while not s.is_terminal() and s.current_player() != 0:
            bot = self.bots[s.current_player()]
            s.apply_action(bot.choose(s.observation(lookahead=bot.looks_ahead), s.legal_actions()))

    def act(self, index: int) -> None:
        self.state.apply_action(self.state.legal_actions()[index])
        self.run_bots()

    def legal_texts(self) -> list[str]:
        s = self.state
        mine = not s.is_terminal() and s.current_player() == 0
        return [describe(s, a, self.lang) for a in s.legal_actions()] if mine else []


def same(view: dict[str, Any], ref: Reference) -> None:
    s = ref.state
    assert view["version"] == len(s.events)
    assert view["round"] == min(s.round, s.rules.game.rounds)
    assert view["phase"] == s.phase.value and view["terminal"] == s.is_terminal()
    assert [a["text"] for a in view["legal"]] == ref.legal_texts()
    assert [h["score"] for h in view["houses"]] == [score_total(s.rules, h) for h in s.houses]


class FakeHints:
    """A stand-in for `dreamhome.players.hints.hint` with its types: known bounds, at once (the
    real one is tested in tests/test_human.py and below)."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, state: GameState, time_limit: float = 1.0) -> Any:
        from dreamhome.players.hints import Hint, OptionHint

        self.calls.append(time_limit)
        legal = state.legal_actions()
        options = tuple(OptionHint(i, a, state.action_text(a), 10 + i, i % 2 == 0, "stand-in") for i, a in enumerate(legal))
        return Hint(state.current_player(), options, len(legal) - 1, 0.0)
