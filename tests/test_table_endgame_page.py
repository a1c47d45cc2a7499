"""Issue 33, "the end game on the board", in a real browser: a seeded game reaches its end game
(END-ORDER) with the person holding two helpers that swap a house card with the room discard
pile (END-SUPPLIER); the person uses both by clicks — the helper card, then a card of the
discard pile drawn on the board and a cell of the house (in both orders, once with Face down
and by keyboard alone) — and each time the house is the one the engine makes of that action.
"Your choices" never shows more than 40 buttons (a MutationObserver in the page counts every
state of the list); a hint that works for seconds shows that it works, with its button disabled,
and a click meanwhile is made, not dropped; a selection is cancelled by Escape; axe-core finds
no serious or critical violation on the end game's board at 1280×800 and 390×844.

The position is made in process (no clicks): the person's decisions take a column with such a
helper whenever the track offers one, else the first take (seed 1 gives two), the greedy bot
its own; the game is stored and served, and the browser plays from there. The helpers are
found by their role, never by a card's name (tests/test_renamed_ids.py)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from dreamhome import i18n
from dreamhome.engine.endgame import ROOM_DISCARD_SWAP
from dreamhome.game.actions import Action, SwapWithRoomDiscard, TakeColumn
from dreamhome.game.phases import Phase
from dreamhome.game.roles import effect_role
from dreamhome.game.state import GameState
from dreamhome.ruleset import EMPTY, FACE_DOWN, SCAFFOLD, Ruleset
from dreamhome.web.store import GameStore, Settings
from tests.helpers.table import FakeHints, Table, replayed
from tests.helpers.table_browser import DESKTOP, axe_at_both_sizes, chromium_fixture, shared_chromium_fixture  # noqa: F401
from tests.helpers.web import served, settle

SEED = 1
MAX_CHOICES = 40

# Every state the choices list takes, counted in the page itself: the most buttons it ever held.
COUNT_CHOICES = """
window.mostChoices = 0;
new MutationObserver(() => {
  const list = document.getElementById('choices');
  if (list) window.mostChoices = Math.max(window.mostChoices, list.querySelectorAll('button').length);
}).observe(document, { subtree: true, childList: true });
"""


def swappers(rules: Ruleset) -> set[str]:
    """The helpers whose end-game use swaps a house card with the room discard pile."""
    return {h.id for h in rules.helpers if any(effect_role(e) == ROOM_DISCARD_SWAP for e in h.effects)}


def person_choice(state: GameState) -> Action:
    """The person's decision while the position is made: a column with such a helper, else a take, else the first."""
    legal = state.legal_actions()
    takes = [a for a in legal if isinstance(a, TakeColumn)]
    for a in takes:
        res = state.track_res[a.column]
        if res is not None and res.id in swappers(state.rules):
            return a
    return takes[0] if takes else legal[0]


def end_game_position(folder: Path) -> tuple[str, str]:
    """The seeded game stored in `folder` at the person's first end-game decision: its id and the person's key."""
    store = GameStore(folder)
    game, keys = store.create(Settings(("person", "greedy"), "", SEED))
    while not (game.state.phase == Phase.END and not game.bot_to_move()):
        assert not game.state.is_terminal()
        if game.bot_to_move():
            game.bot_step()
        else:
            game.state.apply_action(person_choice(game.state))
            game.note_end()
    held = [h for h in game.state.houses[0].helpers if h in swappers(game.rules)]
    assert len(held) == 2, held
    store.save(game)
    return game.id, keys[0]


def drawn_cells(rules: Ruleset, cells: tuple[int, ...]) -> list[tuple[str, str, str | None]]:
    """A house's spaces as the view draws them (`view._cell_fields`), from the engine's codes."""
    state = {EMPTY: "empty", SCAFFOLD: "scaffold", FACE_DOWN: "face_down"}
    return [
        (name, state.get(code, "card"), None if code in state else rules.room_of_code(code).id)
        for name, code in zip(rules.board.cells, cells)
    ]


class Seat:
    """The person's page and the server's game beside it (the engine's state, read from the store)."""

    def __init__(self, page: Any, http: Any, folder: Path, game: str, key: str):
        self.page, self.http, self.folder, self.game, self.key = page, http, folder, game, key

    def view(self) -> dict[str, Any]:
        r = self.http.get(f"/api/games/{self.game}", headers={"X-Seat": "0", "X-Seat-Key": self.key})
        assert r.status_code == 200, r.text
        return dict(r.json())

    def state(self) -> GameState:
        """The game as stored, replayed by the engine from its seed (not the page's, not the server's)."""
        return replayed(Table(self.http, self.folder, self.game))[0]

    def choices(self) -> int:
        return int(self.page.locator("#choices button").count())

    def moved_on(self, version: int) -> None:
        """The page shows a version after `version` (an act, and what the engine and the bot did after it)."""
        self.page.wait_for_selector(f'#table:not([data-version="{version}"])', state="attached", timeout=10_000)
        settle(self.page)


def use_once(seat: Seat, helper: str, keyboard: bool) -> None:
    """One use of the helper by clicks: its card, then a pile card and a cell (pile first), or
    a cell, Face down and a pile card (keyboard: each focused and Enter, Space for Face down).
    The house after it is the engine's house after that action."""
    page = seat.page
    before = seat.state()
    version = seat.view()["version"]
    press = (lambda sel: (page.focus(sel), page.keyboard.press("Enter"))) if keyboard else page.click
    press(f'#my-house .held-card.legal[data-card="{helper}"]')
    assert page.locator("#filter-note").is_visible() and seat.choices() <= MAX_CHOICES
    assert page.locator("#piles-box .pile-card.legal").count() > 0 and page.locator("#my-house .cell.legal").count() > 0
    if not keyboard:
        pile = page.locator("#piles-box .pile-card.legal").first.get_attribute("data-pile") or ""
        press(f'#piles-box .pile-card[data-pile="{pile}"]')
        assert seat.choices() <= MAX_CHOICES and page.locator("#piles-box .pile-card.chosen").count() == 1
        cell = page.locator("#my-house .cell.legal").first.get_attribute("data-cell") or ""
        face_down = False
        press(f'#my-house .cell[data-cell="{cell}"]')
    else:
        cell = page.locator("#my-house .cell.legal").first.get_attribute("data-cell") or ""
        press(f'#my-house .cell[data-cell="{cell}"]')
        assert page.locator("#my-house .cell.chosen").count() == 1 and seat.choices() <= MAX_CHOICES
        page.focus("#face-down")
        page.keyboard.press("Space")
        assert page.get_attribute("#face-down", "aria-pressed") == "true"
        pile = page.locator("#piles-box .pile-card.legal").first.get_attribute("data-pile") or ""
        face_down = True
        press(f'#piles-box .pile-card[data-pile="{pile}"]')
    seat.moved_on(version)
    action = SwapWithRoomDiscard(helper, cell, pile.split(":", 1)[1], face_down)
    assert action in before.legal_actions()
    before.apply_action(action)  # the engine's own house after the action the clicks named
    after = seat.state()
    assert after.events[: len(before.events)] == before.events  # that action, then forced steps and the bot's
    rules = after.rules
    assert after.houses[0] == before.houses[0]
    shown = [(c["cell"], c["state"], c["room"]) for c in seat.view()["houses"][0]["cells"]]
    assert shown == drawn_cells(rules, before.houses[0].cells)
    drawn = page.locator(f'#my-house .cell[data-cell="{cell}"]')
    assert "s-face_down" in (drawn.get_attribute("class") or "") if face_down else drawn.get_attribute("data-card") == action.room


class HeldHints:
    """A stand-in hint that answers (FakeHints' known values) only when the test lets it, one
    answer per `release`: a hint at work for as long as the test needs (the end game's takes 10 s)."""

    def __init__(self) -> None:
        self.fake = FakeHints()
        self.permits = threading.Semaphore(0)

    def __call__(self, state: GameState, work: float = 1.0) -> Any:
        self.permits.acquire(timeout=30)
        return self.fake(state, work)

    def release(self) -> None:
        self.permits.release()


@pytest.mark.slow
def test_two_suppliers_are_used_by_clicking_the_pile(chromium: Any, tmp_path: Path) -> None:
    """The module's docstring: the end game's two swaps by clicks from a position made in process."""
    import httpx

    started = time.monotonic()
    game, key = end_game_position(tmp_path)
    hints = HeldHints()
    errors: list[str] = []
    with (
        served(tmp_path, rate=None, hint_for=hints) as base,
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        context = chromium.new_context(viewport=DESKTOP, bypass_csp=True)
        context.add_init_script(COUNT_CHOICES)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}games/{game}#seat=0&key={key}")
        page.wait_for_selector("#table:not([hidden])")
        settle(page)
        seat = Seat(page, http, tmp_path, game, key)
        view = seat.view()
        assert view["phase"] == "end" and len(view["legal"]) > MAX_CHOICES  # the wall of buttons the page must not show
        (helper,) = {h for h in view["houses"][0]["helper_ids"] if h in swappers(seat.state().rules)}
        piles = view["piles"]
        assert sum(c["count"] for c in piles["room"]) == len(view["room_discard"])
        assert page.locator("#track-box").is_hidden() and page.locator("#piles-box .pile-card").count() == len(
            piles["room"]
        ) + len(piles["roof"])
        assert 0 < seat.choices() <= MAX_CHOICES and page.locator("#choices button.group").count() > 0

        # The hint at work: its button disabled and saying so; a click meanwhile is made.
        page.click("#hint-button")
        page.wait_for_timeout(600)  # longer than half a second: it says it works
        assert page.locator("#hint-button[disabled]").count() == 1
        assert page.locator("#hint-status.thinking").text_content() == i18n.text("table.thinking", "en")
        page.click(f'#my-house .held-card.legal[data-card="{helper}"]')
        assert page.locator("#filter-note").is_visible()
        hints.release()
        page.wait_for_selector("#choices .bound", timeout=10_000)
        assert page.locator("#hint-button:not([disabled])").count() == 1 and seat.choices() <= MAX_CHOICES
        page.keyboard.press("Escape")  # the selection cancelled
        assert page.locator("#filter-note").is_hidden() and page.locator("#my-house .cell.legal").count() == 0
        assert axe_at_both_sizes(page) == {}

        # A click while the last one is on its way is refused with a word, not dropped silently.
        said = page.evaluate("() => { busy = true; run(async () => {}); busy = false; return byId('status').textContent; }")
        assert said == i18n.text("table.still_sending", "en")

        page.click("#hint-button")  # asked again, and the first use made while it works: made, the hint dropped
        page.wait_for_selector("#hint-button[disabled]")
        use_once(seat, helper, keyboard=False)
        hints.release()  # the hint answers only now, for the position before the use
        page.wait_for_selector("#hint-button:not([disabled])")
        assert page.locator("#choices .bound").count() == 0 and page.locator("#hint-status").text_content() == ""
        use_once(seat, helper, keyboard=True)
        assert page.locator("#my-house .held-card.legal").count() == 0  # both used: done is forced (END-ORDER)
        page.wait_for_selector("#final:not([hidden])", timeout=30_000)
        assert page.locator("#piles-box .pile-card.legal").count() == 0
        assert int(page.evaluate("window.mostChoices")) <= MAX_CHOICES
        assert len(hints.fake.calls) == 2
    assert errors == []
    assert time.monotonic() - started < 40
