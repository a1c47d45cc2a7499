"""The end-game comparison (`GET /api/games/ID/final`, seconds of CP-SAT) holds no page up: a
game's view answers while its comparison is being computed (issue 33: "any request answers
within 0.5 s"; every page asks for the comparison as the game ends, and a view used to wait
behind it for 2-4 s under the game's lock)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.table import table_client


def test_a_view_answers_while_the_end_comparison_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dreamhome.web.ended as ended_module

    c = table_client(tmp_path)
    made = c.post("/api/games", json={"seats": ["person", "random"], "seed": 2, "variant": "rounds10"}).json()
    game, key = made["game"], made["seats"][0]["url"].split("key=", 1)[1]
    headers = {"X-Seat": "0", "X-Seat-Key": key}
    while not (view := c.get(f"/api/games/{game}", headers=headers).json())["over"]:
        body = {"seat": 0, "key": key, "index": view["legal"][0]["index"], "version": view["version"]}
        assert c.post(f"/api/games/{game}/act", json=body).status_code == 200

    working, release, waited = threading.Event(), threading.Event(), threading.Event()

    def slow(*args: Any) -> Any:  # a stand-in for the comparison, held until the view below has answered
        working.set()
        release.wait(timeout=10)
        waited.set()
        return {"houses": []}

    monkeypatch.setattr(ended_module, "final_view", slow)
    answers: list[int] = []
    asker = threading.Thread(target=lambda: answers.append(c.get(f"/api/games/{game}/final").status_code))
    asker.start()
    try:
        assert working.wait(timeout=10)
        assert c.get(f"/api/games/{game}", headers=headers).status_code == 200  # not behind the comparison
        assert not waited.is_set() and not answers  # which is still held
    finally:
        release.set()
        asker.join(timeout=60)
    assert answers == [200]
