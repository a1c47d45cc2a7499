"""The table page's Undo (issue 33), clicked in a real browser: a take undone puts the page back
as it was before it; the discard that opens the next round is drawn as a discard, not a take.
Chromium is the system's, driven by Playwright; without either it is skipped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.table_browser import chromium_fixture, open_page, shared_chromium_fixture  # noqa: F401
from tests.helpers.web import served, settle


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with served(tmp_path, rate=None) as url:
        yield url


def test_a_take_undone_by_clicking(chromium: Any, server: str) -> None:
    """A take undone by clicking Undo puts the track back as it was, the columns offered as
    takes again; the take made again and placed, the next round's discard is drawn as one."""
    import httpx

    answer = httpx.post(server.rstrip("/") + "/api/games", json={"seats": ["person", "greedy"], "seed": 5, "names": ["Ann"]})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    errors: list[str] = []
    page = open_page(chromium, errors)
    page.goto(made["seats"][0]["url"])
    page.wait_for_selector("#track .column.legal")
    settle(page)
    before = page.inner_text("#track")
    assert page.is_disabled("#undo-button") and "Ann (you)" in page.inner_text("#scoreboard")
    page.locator("#track .column.legal").first.click()
    settle(page)
    page.wait_for_selector("#undo-button:not([disabled])")
    assert page.inner_text("#track") != before  # the column left the track
    page.click("#undo-button")
    settle(page)
    page.wait_for_selector("#undo-button[disabled]")
    assert page.inner_text("#track") == before and page.locator("#track .column.legal").count() > 0
    assert page.locator("#track .column.discard").count() == 0  # takes, not discards
    page.locator("#track .column.legal").first.click()  # take again, then place: round 2 opens with our discard
    settle(page)
    page.locator("#my-house .cell.legal").first.click()
    settle(page)
    if page.locator("#filter-note").is_visible():
        page.locator("#choices li:not([hidden]) button.choice").first.click()
        settle(page)
    page.wait_for_selector("#track .column.legal")
    discards = page.locator("#track .column.legal.discard")
    assert discards.count() == page.locator("#track .column.legal").count() > 0  # a discard is drawn as one
    assert "discard" in discards.first.inner_text().lower()  # the stamp (upper case by table.css)
    assert errors == []
