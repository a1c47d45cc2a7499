"""The table page in a real browser (issue 22, items 1, 2, 3, 7): two people and a greedy bot
play a whole three-seat game, each person through their own link in their own browser context,
each seeing the other's moves arrive live; a watch link shows everything and no choice; a seat's
link cannot act for another; the layout holds at 1280×800 and 390×844; axe-core finds no
serious or critical violation on the start screen, mid-game, the end screen and the watch page.

Chromium is the system's (`/usr/bin/chromium`, driven by Playwright); without it, or without
Playwright, the test is skipped. Screenshots go to `test-artifacts/` (git-ignored)."""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dreamhome import i18n
from tests.helpers.seats import play_to_end
from tests.helpers.table_browser import (  # noqa: F401
    DESKTOP,
    PHONE,
    artifact,
    axe_problems,
    chromium_fixture,
    open_page,
    shared_chromium_fixture,
)
from tests.helpers.web import play_one, served, settle


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the module's browser tests: each plays its own game on it (ids apart)."""
    with served(tmp_path_factory.mktemp("table"), rate=None) as url:  # browsers and the test share one address
        yield url


def reach(page: Any, version: int) -> None:
    """The page shows the server's `version` and is done with its request (one wait, not two)."""
    page.wait_for_selector(f'body:not(.busy) #table[data-version="{version}"]', state="attached", timeout=10_000)


def region_buttons(page: Any, name: str) -> int:
    return int(page.get_by_role("region", name=name).get_by_role("button").count())


@pytest.mark.slow
def test_two_people_and_a_bot_play_a_whole_game_live(chromium: Any, server: str) -> None:
    """Issue 22, items 1, 2, 3, 7: the whole three-seat game by clicks, each person in a browser
    context of their own and a watcher in a third, every page following every move live
    (never reloaded); the page's choices are the seat's legal actions and only on its turn; a
    take, a placement, a held card's use, a hint's pick and a keyboard decision made; the layout,
    the cards' explanations and axe-core checked mid-game; the final scores and winners the
    server's on every page, axe-core clean at the end, and the language menu switches every
    label. The base rules (their board is the widest the layout must hold), the bot greedy."""
    import httpx

    started = time.monotonic()
    errors: list[str] = []
    # The front page: name the seats, start, read each person seat's link.
    alice = open_page(chromium, errors, DESKTOP, bypass_csp=True)
    alice.goto(server)
    alice.wait_for_selector("#front:not([hidden])")
    settle(alice)
    alice.select_option("#players", "3")
    alice.select_option("#seat-0", "person")
    alice.select_option("#seat-1", "person")
    alice.select_option("#seat-2", "greedy")
    alice.fill("#seed", "5")
    assert axe_problems(alice) == []
    alice.screenshot(path=artifact("table-start.png"))
    alice.click("#start-button")
    alice.wait_for_selector("#links:not([hidden]) li")
    links = alice.eval_on_selector_all("#link-list input.link", "els => els.map(e => e.value)")
    assert len(links) == 3  # two person seats and the watch link
    seat0, seat1, watch = links
    assert "#seat=0&key=" in seat0 and "#seat=1&key=" in seat1 and "#" not in watch
    game = watch.rstrip("/").rsplit("/", 1)[1]
    alice.goto(server)  # the front page lists the new game, remembered links too
    alice.wait_for_selector(f'#games tr[data-game="{game}"]')
    assert alice.locator("#my-seats a").count() == 2

    alice.goto(seat0)
    bob = open_page(chromium, errors, PHONE, bypass_csp=True)
    bob.goto(seat1)
    watcher = open_page(chromium, errors, DESKTOP, bypass_csp=True)
    watcher.goto(watch)
    pages = {0: alice, 1: bob}
    for page in (alice, bob, watcher):
        page.wait_for_selector("#table:not([hidden])")
        settle(page)
        page.evaluate("window.notReloaded = true")

    # A seat's link acts for that seat only; a watch link for no one (403, nothing changed).
    key0 = seat0.split("key=", 1)[1]
    with httpx.Client(base_url=server, timeout=30) as http:
        view = http.get(f"/api/games/{game}").json()
        assert view["you"] is None and view["legal"] == []
        for body in ({"seat": 1, "key": key0}, {"seat": 0, "key": key0 + "x"}, {}):
            refused = http.post(f"/api/games/{game}/act", json={**body, "index": 0, "version": view["version"]})
            assert refused.status_code == 403, (body, refused.text)
        assert http.get(f"/api/games/{game}").json()["version"] == view["version"]

    shots: set[str] = set()
    decisions = {0: 0, 1: 0}
    ways: set[str] = set()
    with httpx.Client(base_url=server, timeout=30) as http:
        while True:
            state = http.get(f"/api/games/{game}").json()
            version = state["version"]
            for page in (alice, bob, watcher):  # every page reaches the server's version, live
                reach(page, version)
            assert region_buttons(watcher, "Your choices") == 0
            if state["over"]:
                break
            mover = state["to_move"]
            assert mover in pages, state
            page, other = pages[mover], pages[1 - mover]
            assert region_buttons(other, "Your choices") == 0  # not its turn: no choice
            legal = http.get(
                f"/api/games/{game}", headers={"X-Seat": str(mover), "X-Seat-Key": key_of(mover, seat0, seat1)}
            ).json()["legal"]
            shown = region_buttons(page, "Your choices")  # every choice, or at most 40 groups of them (issue 33)
            assert shown == len(legal) if len(legal) <= 40 else 0 < shown <= 40, (shown, len(legal))
            if state["round"] == 6 and "mid" not in shots:
                check_layout(alice, bob)
                alice.screenshot(path=artifact("table-1280x800.png"))
                bob.screenshot(path=artifact("table-390x844.png"))
                watcher.screenshot(path=artifact("table-watch.png"))
                check_card_explains(alice)
                assert axe_problems(alice) == [] and axe_problems(watcher) == []
                shots.add("mid")
            if decisions[mover] == 2 and mover == 0:
                check_hint(page, len(page.locator("#choices button.choice").all()))
            elif decisions[mover] == 3 and mover == 1:  # by keyboard alone: Tab to a choice, Enter
                page.locator("#choices button.choice").first.focus()
                page.keyboard.press("Tab")
                page.keyboard.press("Shift+Tab")
                assert page.evaluate("document.activeElement.matches('#choices button.choice')")
                page.keyboard.press("Enter")
                settle(page)
                ways.add("keyboard")
            else:
                ways.add(play_one(page))
            decisions[mover] += 1
            # the other person's page shows this move arriving, without a reload
            other.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {version}", timeout=5_000)
            mover_name = other.text_content(f'#scoreboard li[data-seat="{mover}"] .who') or "?"
            other.wait_for_function(  # and its moves list names the mover's decision
                "name => Array.from(document.querySelectorAll('#log li')).some(li => li.textContent.includes(name))",
                arg=mover_name,
                timeout=5_000,
            )

    assert decisions[0] > 10 and decisions[1] > 10 and "mid" in shots
    assert {"column", "cell", "card", "keyboard"} <= ways, ways  # a take, a placement and a held card's use, by clicks
    final = http_final(server, game)
    for page in (alice, bob, watcher):
        region = page.get_by_role("region", name="Final scores")
        region.wait_for()
        shown = [int(t) for t in page.eval_on_selector_all("#scores .total", "els => els.map(e => e.textContent)")]
        assert shown == [s["total"] for s in final["scores"]]
        winners = [final["names"][w] for w in final["winners"]]
        assert all(name in (page.text_content("#winner") or "") for name in winners)
        assert page.evaluate("window.notReloaded") is True
    bob.wait_for_selector("#best .best-house")
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the end fits a phone too
    bob.screenshot(path=artifact("table-final-390x844.png"))
    alice.wait_for_selector("#best .best-house")
    alice.screenshot(path=artifact("table-final.png"), full_page=True)
    assert axe_problems(alice) == [] and axe_problems(watcher) == []
    check_language(watcher, "hu")
    assert errors == []
    assert time.monotonic() - started < 120


def key_of(seat: int, seat0: str, seat1: str) -> str:
    return (seat0 if seat == 0 else seat1).split("key=", 1)[1]


def http_final(server: str, game: str) -> dict[str, Any]:
    import httpx

    view: dict[str, Any] = httpx.get(f"{server}api/games/{game}", timeout=30).json()
    return view


def check_layout(desk: Any, phone: Any) -> None:
    """At 1280×800 the track and your house are wholly in view without scrolling, the scoreboard
    too; at 390 wide nothing scrolls sideways."""
    desk.evaluate("window.scrollTo(0, 0)")
    for selector in ("#track-box", "#house-box", "#scoreboard"):
        box = desk.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["y"] >= 0, selector
        assert box["x"] + box["width"] <= DESKTOP["width"] and box["y"] + box["height"] <= DESKTOP["height"], (selector, box)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert desk.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]


def check_card_explains(page: Any) -> None:
    """A card explains itself on hover and by keyboard (its i button), from the ruleset."""
    card = page.locator("#track .slot-room[data-card]").first
    card.hover()
    page.wait_for_selector("#tip:not([hidden]) li")
    assert "Points by the room's size" in (page.text_content("#tip") or "")
    page.mouse.move(0, 0)
    info = page.locator("#track button.info").first
    info.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#tip:not([hidden]) li")
    page.keyboard.press("Escape")
    assert page.locator("#tip").is_hidden()
    page.click("#howto-button")
    assert page.get_by_role("dialog").locator("h3").count() >= 4
    page.keyboard.press("Escape")
    assert page.locator("#howto").is_hidden()


def check_hint(page: Any, options: int) -> None:
    """The hint: every option's value beside its button ("≥" where unproven), the solver's pick
    marked with its value; then the pick is played."""
    page.click("#hint-button")
    page.wait_for_selector("#choices .bound")
    settle(page)
    bounds = page.eval_on_selector_all("#choices .bound", "els => els.map(e => e.textContent)")
    assert len(bounds) == options and all(re.fullmatch(r"≥?[+−]?\d+|\?", b) for b in bounds), bounds
    said = page.text_content("#hint-pick") or ""
    picked = page.text_content("#choices li.pick button.choice") or ""
    assert said.startswith("★ Hint: ") and picked.strip() in said  # the pick named in words (issue 33)
    # a discard's values are margins over the others' mean (ROUND-1): signed, and said to be margins
    margins = any(re.search(r"[+−]", b) for b in bounds)
    assert not margins or "margin over the other players' mean" in said, (bounds, said)
    page.locator("#choices li.pick button.choice").click()
    settle(page)


def check_language(page: Any, lang: str) -> None:
    """The language menu switches every label of the page, the regions' names with them, and a
    reload keeps the choice (localStorage)."""
    page.select_option("#lang", lang)
    page.wait_for_selector(f'html[lang="{lang}"]', state="attached")
    settle(page)
    for _ in range(2):
        labels = page.eval_on_selector_all("[data-i18n]", "els => els.map(e => [e.dataset.i18n, e.textContent])")
        wrong = [(key, shown) for key, shown in labels if shown != i18n.text(key, lang)]
        assert labels and not wrong, wrong
        assert page.get_by_role("region", name=i18n.text("table.final_scores", lang)).count() == 1
        page.reload()
        page.wait_for_selector("#table:not([hidden])")
        settle(page)
    page.screenshot(path=artifact(f"table-final-{lang}.png"))


@pytest.mark.slow
def test_a_card_is_placed_by_two_clicks_and_the_whole_log_names_it(chromium: Any, server: str) -> None:
    """Issue 33: a column, then a cell places the room card face up; a refused cell says the rule
    that refuses it; Face down before the cell click places it face down; the whole log names the
    cards each take moved and highlights the latest decision; axe-core stays clean."""
    import httpx

    with httpx.Client(base_url=server, timeout=30) as http:
        made = http.post("/api/games", json={"seats": ["person", "greedy"], "seed": 9}).json()
    errors: list[str] = []
    page = open_page(chromium, errors, DESKTOP, bypass_csp=True)
    page.goto(server)  # the seat menus: a bot seat starts at a level, each bot listed once
    page.wait_for_selector("#seat-1")
    assert page.input_value("#seat-1") == "easy"
    kinds = page.eval_on_selector_all("#seat-1 option", "els => els.map(e => e.value)")
    assert len(kinds) == len(set(kinds)) and {"easy", "medium", "hard"} <= set(kinds)
    page.goto(made["seats"][0]["url"])
    page.wait_for_selector("#table:not([hidden])")
    for face_down in (False, True):
        while not page.locator("#my-house .cell.legal").count():  # a discard first (ROUND-1), then the take
            page.wait_for_selector("#track .column.legal", timeout=30_000)
            settle(page)
            assert page.title().startswith("● your turn — ")  # seen from another tab
            column = page.locator("#track .column.legal").first
            number = column.get_attribute("data-column")
            column.click()
            settle(page)
        room = page.locator("#my-house .held-card.pending .name").first.text_content()
        refused = page.locator("#my-house .cell.refused").first
        refused.click(force=True)
        assert re.search(r"\((PLACE|TOOL)-[A-Z]+\)", page.text_content("#refusal") or ""), page.text_content("#refusal")
        if face_down:
            page.click("#face-down")
            assert page.get_attribute("#face-down", "aria-pressed") == "true"
        cell = page.locator("#my-house .cell.legal").first
        name = cell.get_attribute("data-cell")
        cell.click()  # the second click: placed, no choice left to make
        state = "s-face_down" if face_down else "s-card"
        page.wait_for_selector(f'#my-house .cell.{state}[data-cell="{name}"]')
        log = page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
        assert any(f"you: take column {number} (" in line for line in log), log
        assert any(f"you: place {room} at {name}" in line for line in log), (room, name, log)
    assert page.locator("#log li.latest").count() == 1
    assert axe_problems(page) == []
    assert errors == []


# ---------------------------------------------------------------- what the page reads (no browser)
@pytest.mark.slow
def test_the_view_names_each_card_and_the_rules_explain_them(tmp_path: Path) -> None:
    """The ids the page draws cards by (track, house spaces, roofs, held cards, the card an action
    is made with, the cards being placed) are the engine's, and `/api/rules` explains each."""
    with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 over httpx; both work here (as test_web.py)
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from dreamhome.dsl.compiler import compile_rules
    from dreamhome.web.app import create_app

    rules = compile_rules()
    client = TestClient(create_app(tmp_path, rate=None), base_url="http://127.0.0.1")  # one client, many requests
    made = client.post("/api/games", json={"seats": ["person", "greedy"], "seed": 11})
    assert made.status_code == 201
    key = made.json()["seats"][0]["url"].split("key=", 1)[1]
    headers = {"X-Seat": "0", "X-Seat-Key": key}
    explained = client.get("/api/rules?players=2").json()
    assert set(explained["cards"]) == {
        c.id for c in (*rules.rooms, *rules.roofs, *rules.furnishings, *rules.helpers, *rules.tools)
    }
    assert [f["name"] for f in explained["board"]["floors"]] == [f.name for f in rules.board.floors]
    for _ in range(60):
        view = client.get(f"/api/games/{made.json()['game']}", headers=headers).json()
        if view["over"]:
            break
        for column in view["track"]:
            if column["room_id"] is not None:
                assert rules.card_name(column["room_id"]) == column["room"]
        for house in view["houses"]:
            assert [c["cell"] for c in house["cells"]] == list(rules.board.cells)
            for cell in house["cells"]:
                assert (cell["room"] is not None) == (cell["state"] == "card")
                assert cell["room"] is None or cell["room"] in explained["cards"]
            assert all(r["id"] in explained["cards"] for r in house["roofs"])
            by_cell = {c["cell"]: c for c in house["cells"]}
            for room in house["rooms"]:  # PLACE-C: one type, side by side on one floor, at most its size
                kinds = {by_cell[c]["room"] for c in room["cells"]}
                assert len(kinds) == 1 and None not in kinds, room
                (kind,) = kinds
                floors = {c.split("/")[0] for c in room["cells"]}
                columns = sorted(int(c.split("/")[1]) for c in room["cells"])
                assert len(floors) == 1 and columns == list(range(columns[0], columns[0] + len(columns))), room
                assert room["points"] == rules.room(kind).points[len(columns) - 1] or rules.room(kind).bonus, room
            assert all(h in explained["cards"] for h in house["helper_ids"] + house["tool_ids"])
        if view["phase"] == "place":  # the room card taken is the one the placements name
            assert view["pending"]["room"] is not None
            assert all(rules.card_name(view["pending"]["room"]) in a["text"] for a in view["legal"] if a["type"] == "PlaceRoom")
        for action in view["legal"]:
            if action["card"] is not None:
                held = view["houses"][0]["tool_ids"] + view["houses"][0]["helper_ids"]
                assert action["card"] in held or action["type"] in ("PlaceScaffold", "DeferScaffold"), action
        plain = [a for a in view["legal"] if a["card"] is None] or view["legal"]
        body = {"seat": 0, "key": key, "index": plain[-1]["index"], "version": view["version"]}
        assert client.post(f"/api/games/{made.json()['game']}/act", json=body).status_code == 200
    assert client.get("/api/rules?variant=no_such").status_code == 400
    assert client.get("/api/rules?players=9").status_code == 400
    assert client.get("/api/rules?variant=kids&players=3&lang=xx").status_code == 400


# ---------------------------------------------------------------- axe on every page kind, both sizes
def stored_games(folder: Path) -> tuple[str, str, str, str]:
    """Two seeded games stored in `folder`, made in process (no clicks): one just started and
    one finished (its person plays the first legal action). Their ids and person-seat keys."""
    from dreamhome.web.store import GameStore, Settings

    store = GameStore(folder)
    started, started_keys = store.create(Settings(("person", "greedy"), "", 9))
    store.save(started)
    over, over_keys = store.create(Settings(("person", "random"), "", 3))
    play_to_end(over)
    store.save(over)
    return started.id, started_keys[0], over.id, over_keys[0]


WHOLE_WORDS = """() => Array.from(document.querySelectorAll('.face .name')).map(e => getComputedStyle(e))
    .filter(s => s.overflowWrap !== 'normal' || s.wordBreak !== 'normal' || s.hyphens !== 'manual').length"""


def check_words_and_help(page: Any) -> None:
    """Card names wrap at whole words; "How to play" opens at its top; a server that cannot be
    reached is said in the page's words, not the browser's "Failed to fetch"."""
    assert page.evaluate(WHOLE_WORDS) == 0 and page.locator(".face .name").count() > 0
    page.click("#howto-button")
    page.wait_for_selector("#howto:not([hidden]) h3")
    top = page.eval_on_selector("#howto", "b => [b.scrollTop, b.scrollHeight > b.clientHeight]")
    assert top == [0, True], top  # a box taller than its view, shown from its top
    page.keyboard.press("Escape")
    page.route("**/api/**", lambda route: route.abort())
    said = page.evaluate("() => api('GET', '/api/options').then(() => '', e => e.message)")
    page.unroute("**/api/**")
    assert said == i18n.text("table.unreachable", "en"), said


@pytest.mark.slow
def test_every_page_kind_is_axe_clean_at_both_sizes(chromium: Any, tmp_path: Path) -> None:
    """Issue 33, item 10: no serious or critical axe-core violation on the front page, a seat's
    table, the end screen (a seat's and the watch page), the replay and the review page, at
    1280×800 and 390×844; card names wrap at whole words only; "How to play" opens at its top;
    a lost server is said in the page's words. The review page is drawn by a stand-in worker
    that judges no decision (`unjudged_pages`): its markup, not the review's 15 s of solving."""
    from tests.helpers.reviews import unjudged_pages

    started, started_key, over, over_key = stored_games(tmp_path)
    pages = {  # path → what shows the page drawn
        "": "#front:not([hidden])",
        f"games/{started}#seat=0&key={started_key}": "#table:not([hidden])",
        f"games/{over}#seat=0&key={over_key}": "#final:not([hidden])",
        f"games/{over}": "#final:not([hidden])",
        f"games/{over}/replay": "#log .now",
        f"games/{over}/review": "#log .now",
    }
    with served(tmp_path, rate=None, review_compute=unjudged_pages) as base:
        errors: list[str] = []
        page = open_page(chromium, errors, DESKTOP, bypass_csp=True)
        for path, drawn in pages.items():
            page.goto(base + path)
            page.wait_for_selector(drawn, state="attached", timeout=30_000)
            settle(page)  # the table's page done with its requests (no-op elsewhere)
            for size in (DESKTOP, PHONE):  # one load, both sizes: the layout is CSS media queries alone
                page.set_viewport_size(size)
                assert axe_problems(page) == [], (size, path, axe_problems(page))
                if path.startswith(f"games/{started}#"):
                    check_words_and_help(page)
            page.set_viewport_size(DESKTOP)
        assert errors == [], errors
