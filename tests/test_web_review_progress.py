"""The review of a finished table game computed in the background (issue 33): the review page
answers at once, with the review or with a page that says how far it is and reloads itself;
the progress comes from the worker as it goes; the review is kept whole once done; its tab's
title names the players and their scores."""

from __future__ import annotations

import functools
import re
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 over httpx; both work here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from dreamhome import i18n  # noqa: E402
from dreamhome.game.record import GameResult  # noqa: E402
from dreamhome.web.app import create_app  # noqa: E402
from dreamhome.web.store import GameStore, Settings  # noqa: E402
from tests.helpers.reviews import calls_in, counted_pages, failing_pages, reviewed, unjudged_pages  # noqa: E402
from tests.helpers.seats import play_to_end  # noqa: E402
from tests.helpers.table_browser import chromium_fixture, shared_chromium_fixture  # noqa: E402, F401


def client(folder: Path, **options: Any) -> TestClient:
    options.setdefault("rate", None)
    return TestClient(create_app(folder, **options), base_url="http://127.0.0.1", raise_server_exceptions=False)


def finished_game(folder: Path, seed: int = 3, names: tuple[str | None, ...] = ()) -> str:
    store = GameStore(folder)
    game, _ = store.create(Settings(("person", "random"), "", seed, names=names))
    play_to_end(game)
    store.save(game)
    return game.id


@pytest.mark.slow
def test_the_review_page_answers_at_once_with_its_progress_until_the_review_is_there(tmp_path: Path) -> None:
    """Each answer within a second while the worker works (4 s here): 202, a page in the
    language asked that says how far the review is, as the worker said it ("1 of 2"), and
    reloads itself; then the review, kept whole on disk."""
    data, calls = tmp_path / "data", tmp_path / "calls"
    data.mkdir()
    calls.mkdir()
    gid = finished_game(data)
    c = client(data, review_compute=functools.partial(counted_pages, str(calls), 4.0))
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while True:
            t0 = time.perf_counter()
            r = c.get(f"/games/{gid}/review", params={"lang": "ru"})
            assert time.perf_counter() - t0 < 1.5, "the review page waited for the review"
            if r.status_code != 202:
                break
            assert '<html lang="ru">' in r.text and "fetch(location.href" in r.text
            assert "no-store" in r.headers["cache-control"] and "script-src" in r.headers["content-security-policy"]
            assert f"<title>{i18n.text('review.wait.title', 'ru')}</title>" in r.text
            lines.append(re.search(r'<p id="review-progress" role="status">(.*?)</p>', r.text).group(1))  # type: ignore[union-attr]
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert r.status_code == 200 and r.text.startswith(f"<p>ru game {gid} sha256:")
    finally:
        c.app.state.reviews.close()  # type: ignore[attr-defined]
    assert i18n.text("review.wait.decisions", "ru", done=1, total=2) in lines, lines
    assert calls_in(calls) == 1
    assert (data / f"{gid}.review").is_file() and not [p for p in data.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.slow
def test_a_game_that_ends_at_the_table_is_reviewed_without_being_asked(tmp_path: Path) -> None:
    """`review_on_end`: the last act starts the review; the page then shows its progress or the
    review, never waits for it; a second server over the folder serves the kept review."""
    data, calls = tmp_path / "data", tmp_path / "calls"
    calls.mkdir()
    compute = functools.partial(counted_pages, str(calls), 0.5)
    c = client(data, review_on_end=True, review_compute=compute)
    try:
        made = c.post("/api/games", json={"seats": ["person", "random"], "seed": 5}).json()
        gid, key = made["game"], made["seats"][0]["url"].split("key=")[1]
        view = c.get(f"/api/games/{gid}", headers={"X-Seat": "0", "X-Seat-Key": key}).json()
        while not view["over"]:
            assert calls_in(calls) == 0  # nothing reviewed before the end
            view = c.post(f"/api/games/{gid}/act", json={"seat": 0, "key": key, "index": 0, "version": view["version"]}).json()
        deadline = time.monotonic() + 60
        while calls_in(calls) == 0:  # started by the end itself, nobody asking
            assert time.monotonic() < deadline
            time.sleep(0.05)
        page = reviewed(c.get, f"/games/{gid}/review")
        assert page.status_code == 200
    finally:
        c.app.state.reviews.close()  # type: ignore[attr-defined]
    again = client(data, review_compute=compute)
    try:
        assert again.get(f"/games/{gid}/review").text == page.text
    finally:
        again.app.state.reviews.close()  # type: ignore[attr-defined]
    assert calls_in(calls) == 1


def test_a_review_that_fails_is_said_once_and_asking_again_tries_again(tmp_path: Path) -> None:
    data, calls = tmp_path / "data", tmp_path / "calls"
    data.mkdir()
    calls.mkdir()
    gid = finished_game(data)
    c = client(data, review_compute=functools.partial(failing_pages, str(calls)))
    try:
        r = reviewed(c.get, f"/games/{gid}/review")
        assert r.status_code == 422 and r.json() == {"error": f"game {gid}: no review today"}
        # asked again: a new job — under way (202, then its failure said), or already failed
        # within the half second the answer waits for it (422); the count of calls proves it ran
        again = c.get(f"/games/{gid}/review")
        if again.status_code == 202:
            again = reviewed(c.get, f"/games/{gid}/review")
        assert again.status_code == 422
    finally:
        c.app.state.reviews.close()  # type: ignore[attr-defined]
    assert calls_in(calls) == 2 and not (data / f"{gid}.review").exists()


def test_the_review_tab_is_titled_by_the_players_and_their_scores(tmp_path: Path) -> None:
    """Issue 33, item 9: "scores [33, 24, 33]" no more; each seat by its name and its score."""
    data = tmp_path / "data"
    data.mkdir()
    gid = finished_game(data, names=("Zoé", None))
    game = GameStore(data).get(gid)
    pages = unjudged_pages(game.record(), f"game {gid}")
    totals = GameResult(game.state, ("person", "random")).scores()
    for lang, page in pages.items():
        title = re.search(r"<title>(.*?)</title>", page).group(1)  # type: ignore[union-attr]
        assert title.startswith(i18n.text("review.page_title", lang, seats="").split(":")[0]), title
        assert f"Zoé {totals[0]}" in title and f"random {totals[1]}" in title
        assert "seed" not in title and "[" not in title


@pytest.mark.slow
def test_the_waiting_page_follows_the_review_in_a_browser_and_is_axe_clean(chromium: Any, tmp_path: Path) -> None:
    """In Chromium: the waiting page is axe-clean at 1280×800 and 390×844, its line follows the
    worker's progress without a reload, and the review replaces it by itself once ready. The
    worker holds the review until the test has checked the waiting page (`held_pages`), so the
    review can neither come too early on a loaded machine nor keep a core busy meanwhile."""
    from tests.helpers.held_reviews import held_pages
    from tests.helpers.table_browser import axe_at_both_sizes, open_page
    from tests.helpers.web import served

    data, gate = tmp_path / "data", tmp_path / "release"
    data.mkdir()
    gid = finished_game(data)
    compute = functools.partial(held_pages, str(gate))
    with served(data, rate=None, review_compute=compute) as base:
        errors: list[str] = []
        page = open_page(chromium, errors, bypass_csp=True)
        page.goto(f"{base}games/{gid}/review?lang=fr")
        assert page.title() == i18n.text("review.wait.title", "fr")
        assert axe_at_both_sizes(page) == {}
        said = i18n.text("review.wait.decisions", "fr", done=1, total=2)
        page.wait_for_function(f"document.getElementById('review-progress')?.textContent === {said!r}", timeout=120_000)
        assert page.title() == i18n.text("review.wait.title", "fr")  # still the waiting page: the review is held
        gate.touch()
        page.wait_for_function(f"document.body.textContent.startsWith('fr game {gid}')", timeout=120_000)
        assert errors == [], errors
