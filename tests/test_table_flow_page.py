"""Issue 33's check of a whole evening at the table, in a real browser: two named people, each in
their own browser context, play a whole game by clicks; each takes a column back once with Undo;
every room card taken is placed by two clicks (the column, then the cell); at the end every page's
log ("Moves") holds exactly the stored game's decisions, in order, each naming its player, its
round and its cards; then one person starts a rematch, the other joins it, and both sit at their
own seats of the new game under their names.

The smallest game that is still a whole one: two persons and no bot (no solver runs), under
the catalogue's `rounds10` variant (ten rounds instead of twelve). Chromium is the system's,
driven by Playwright; without either the test is skipped."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from dreamhome import i18n
from tests.helpers.table_browser import chromium_fixture, open_page, shared_chromium_fixture  # noqa: F401
from tests.helpers.web import play_one, served, settle

NAMES = ["Ann", "Bob"]
VARIANT = "rounds10"
SEED = 3


def reach(page: Any, version: int) -> None:
    """The page shows the server's `version` and is done drawing it (one wait, not two)."""
    page.wait_for_selector(f'body:not(.busy) #table[data-version="{version}"]', state="attached", timeout=10_000)


def legal_columns(page: Any) -> Any:
    return page.locator("#track .column.legal")


def take_then_undo(page: Any) -> None:
    """A column taken (a take, not a discard), then given back with Undo: the track is as before,
    and the room card is no longer being placed."""
    before = page.inner_text("#track")
    legal_columns(page).first.click()
    settle(page)
    page.wait_for_selector("#my-house .held-card.pending", state="attached")
    assert page.inner_text("#track") != before  # the column left the track
    taken = page.get_attribute("#table", "data-version")
    page.click("#undo-button:not([disabled])")
    page.wait_for_selector(f'#table:not([data-version="{taken}"])', state="attached")
    settle(page)
    assert page.inner_text("#track") == before
    assert page.locator("#my-house .held-card.pending").count() == 0 and legal_columns(page).count() > 0


def place_by_two_clicks(page: Any) -> bool:
    """A take and its placement: the first highlighted column, then the first highlighted cell
    of the house, and no other click; the house then shows the card face up on that cell.
    False when the card had only one space left (the engine placed it, forced)."""
    legal_columns(page).first.click()
    settle(page)
    cells = page.locator("#my-house .cell.legal")
    if not cells.count():
        return False
    room = page.locator("#my-house .held-card.pending .name").first.text_content()
    cell = cells.first
    name = cell.get_attribute("data-cell")
    cell.click()
    settle(page)
    assert not page.locator("#filter-note").is_visible()  # the cell click was the whole placement
    page.wait_for_selector(f'#my-house .cell.s-card[data-cell="{name}"]', state="attached")
    latest = page.locator("#log li.latest").text_content() or ""
    assert f": place {room} at {name}" in latest, (room, name, latest)
    return True


def expected_lines(record: dict[str, Any], cards: dict[str, Any], rounds: int, me: int) -> list[tuple[str, str]]:
    """Each decision of the stored record (its events with an engine text, forced steps too), as
    the log of seat `me` must say it: its kind, and a pattern of its line — when ("round N", or
    "end game" after the last round, END-ORDER), who (the seat's name, "(you)" for `me`), then
    for a take or discard its column and the room card the round's deal put there (ROUND-2), for
    a placement the card's name, its cell and its face (PLACE-EMPTY); any other decision names
    the cards and cells of its action."""
    names = [n + (" (you)" if s == me else "") for s, n in enumerate(record["names"])]
    deal: list[str] = []
    lines = []
    for event in record["events"]:
        if event.get("event") == "deal":
            deal = event["rooms"]
        if "text" not in event:
            continue
        r, action = event["round"], event["action"]
        when = f"round {r}" if r <= rounds else "end game"
        said = re.escape(f"{when}: {names[event['player']]}: ")
        kind = action["type"]
        if kind in ("TakeColumn", "DiscardColumn"):
            verb = "take" if kind == "TakeColumn" else "discard"
            room = cards[deal[action["column"]]]["name"]
            said += re.escape(f"{verb} column {action['column']} ({room}") + r"( \+ .+)?\)"
        elif kind == "PlaceRoom":
            face = " face down" if action["face_down"] else ""
            said += re.escape(f"place {cards[action['room']]['name']} at {action['cell']}{face}")
        else:  # any other decision (a token, a helper's swap, done): its cards and cells named
            named = [cards[v]["name"] if v in cards else v for k, v in action.items() if k != "type" and isinstance(v, str)]
            said += "".join(f"(?=.*{re.escape(n)})" for n in named) + r".+"
        forced = bool(event.get("forced"))
        lines.append(("forced" if forced else "decision", said + (re.escape(" (forced)") if forced else "")))
    return lines


def play_to_the_end(pages: list[Any], http: Any, game: str) -> tuple[int, dict[str, Any]]:
    """The whole game by clicks, each page on its seat's turns: each person's first take given
    back once with Undo, every take placed by two clicks. Answers the decisions clicked (the
    take undone not counted) and the final watch view."""
    undone = [False, False]
    two_clicks = [0, 0]
    made = 0
    while True:
        state: dict[str, Any] = http.get(f"/api/games/{game}").json()
        if state["over"]:
            break
        seat = state["to_move"]
        page = pages[seat]
        reach(page, state["version"])
        taking = legal_columns(page).count() and not page.locator("#track .column.legal.discard").count()
        if taking and not undone[seat]:
            take_then_undo(page)
            undone[seat] = True
        elif taking:
            placed = place_by_two_clicks(page)
            two_clicks[seat] += placed
            made += 2 if placed else 1
        else:
            play_one(page)
            made += 1
        assert made < 200, "the game does not end"
    assert undone == [True, True] and min(two_clicks) >= 5, two_clicks
    return made, state


def check_logs(pages: list[Any], http: Any, game: str, made: int, final: dict[str, Any]) -> None:
    """At the end each page's log holds the stored record's decisions, one line each, in order."""
    record = http.get(f"/api/games/{game}/record").json()
    assert record["names"] == NAMES
    cards = http.get(f"/api/rules?variant={VARIANT}&players=2").json()["cards"]
    for seat, page in enumerate(pages):
        reach(page, final["version"])
        page.get_by_role("region", name="Final scores").wait_for()
        log = page.eval_on_selector_all(
            "#log li.decision, #log li.forced",
            "els => els.map(e => [e.classList.contains('forced') ? 'forced' : 'decision', e.textContent])",
        )
        wanted = expected_lines(record, cards, final["rounds"], seat)
        assert len(log) == len(wanted) and sum(kind == "decision" for kind, _ in wanted) == made
        for (kind, line), (want_kind, pattern) in zip(log, wanted, strict=True):
            assert kind == want_kind and re.fullmatch(pattern, line), (line, pattern)
        assert page.locator("#log li.latest").count() == 1


def check_names(page: Any, seat: int) -> None:
    board = page.inner_text("#scoreboard")
    assert f"{NAMES[seat]} (you)" in board and NAMES[1 - seat] in board, board


def check_rematch(pages: list[Any], http: Any, game: str) -> None:
    """A rematch from Ann's page; Bob's page is told and joins; both sit at their own seats of
    the same new game, named, the same variant, in its first round."""
    pages[0].click("#rematch-button")
    pages[0].wait_for_url(re.compile(r"/games/(?!" + re.escape(game) + r")[\w-]+#seat=0&key="))
    join = i18n.text("table.rematch_join", "en")
    pages[1].wait_for_selector(f'#rematch-button:has-text("{join}")')
    pages[1].click("#rematch-button")
    pages[1].wait_for_url(re.compile(r"/games/(?!" + re.escape(game) + r")[\w-]+#seat=1&key="))
    new = [page.url.split("/games/", 1)[1].split("#", 1)[0] for page in pages]
    assert new[0] == new[1] == http.get(f"/api/games/{game}").json()["rematch"]
    fresh = http.get(f"/api/games/{new[0]}").json()
    assert [s["name"] for s in fresh["seats"]] == NAMES and fresh["variant"] == VARIANT and fresh["round"] == 1
    for seat, page in enumerate(pages):
        reach(page, fresh["version"])
        check_names(page, seat)
        assert page.locator("#final").is_hidden() and page.locator("#log li.decision").count() == 0
    mover = fresh["to_move"]
    assert legal_columns(pages[mover]).count() > 0 and legal_columns(pages[1 - mover]).count() == 0


@pytest.mark.slow
def test_two_people_finish_a_game_undo_a_take_and_start_a_rematch(chromium: Any, tmp_path: Path) -> None:
    """The module's docstring: a whole game of two named people by clicks, each undoing a take
    once, every take placed by two clicks; every page's log the stored game's decisions; the
    rematch started by one, joined by the other, both at their own seats."""
    import httpx

    started = time.monotonic()
    errors: list[str] = []
    with served(tmp_path, rate=None) as server, httpx.Client(base_url=server, timeout=30) as http:
        body = {"seats": ["person", "person"], "names": NAMES, "seed": SEED, "variant": VARIANT}
        answer = http.post("/api/games", json=body)
        assert answer.status_code == 201, answer.text
        made = answer.json()
        pages = []
        for link in made["seats"]:
            page = open_page(chromium, errors)  # one context each: two people, two browsers
            page.goto(link["url"], wait_until="commit")  # both pages load at once
            pages.append(page)
        for seat, page in enumerate(pages):
            page.wait_for_selector("#table:not([hidden])")
            settle(page)
            check_names(page, seat)
        clicked, final = play_to_the_end(pages, http, made["game"])
        check_logs(pages, http, made["game"], clicked, final)
        check_rematch(pages, http, made["game"])
    assert errors == []
    assert time.monotonic() - started < 90
