"""The load test of issue 33: 20 page loads at once while a game is played on a real
`dreamhome serve` (its own process), every request under 0.5 s; and the two parts that keep the
server quick under many clicks (the places to compute, the houses drawn once).

Not flaky on a loaded 2-core CI machine: the server's caches are warmed first (every ruleset,
each language's options and rules, the game's view), and the bound grows with the machine's
own pace, measured in the same run (a static file fetched alone): 0.5 s, or 25 times that
request's median if the machine is so slow that this is more. The suite runs in parallel, so
the other worker's test may take a core for a few seconds in the middle of the loads (seen: a
static page at 0.78 s with 7 ms alone): the loaded round is played up to `ROUNDS` times and one
round must keep every request within the bound. A server that stalls (work on the event loop)
is slow in every round and still fails.
"""

from __future__ import annotations

import asyncio
import statistics
import threading
from pathlib import Path

import pytest

from dreamhome.game.state import GameState
from dreamhome.house import House
from dreamhome.players.roster import make_bot
from dreamhome.render.house_svg import house_svg
from dreamhome.ruleset import Ruleset
from dreamhome.web.gate import ComputeGate
from dreamhome.web.view import drawn_house
from tests.helpers.load import browser, start_game, start_server, static_baseline, under_load, warm

LIMIT = 0.5
"""Seconds any request may take while the pages load (issue 33)."""
PACE = 25
"""The bound on a slow machine: this many times a plain request's median there."""
LANGS = ("en", "fr")
ROUNDS = 3
"""Loaded rounds at most: one must keep every request within the bound."""


@pytest.mark.slow
def test_twenty_page_loads_while_a_game_is_played_each_request_under_half_a_second(tmp_path: Path) -> None:
    proc, url = start_server(tmp_path, "--rate", "0")
    try:

        async def run() -> list[str]:
            async with browser(url) as http:
                game = await start_game(http, seed=33)
            await warm(url, game[0], LANGS)
            missed = []
            for _ in range(ROUNDS):
                base = statistics.median(await static_baseline(url))
                timings, made = await under_load(url, [game], loads=20, langs=LANGS)
                bound = max(LIMIT, PACE * base)
                counts = {what: len(ts) for what, ts in timings.seconds.items()}
                assert counts["page"] == counts["options"] == counts["rules"] == 20 and counts["static"] == 60
                assert made >= 1, "the game was not played while the pages loaded"
                what, slowest = timings.slowest()
                if slowest < bound:
                    return []
                missed.append(f"{what} took {slowest:.3f} s (bound {bound:.3f} s; a static file alone: {base * 1000:.1f} ms)")
            return missed

        missed = asyncio.run(run())
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert missed == [], f"every one of {ROUNDS} loaded rounds had a request past its bound: " + "; ".join(missed)


def test_at_most_places_threads_compute_and_a_thread_waiting_for_the_disk_gives_its_place_up() -> None:
    """What keeps twenty clicks from queueing behind each other's fsyncs while the computing
    stays within two threads (`gate.ComputeGate`, issue 33): with one place, a second thread
    cannot compute while the first does; it can while the first waits (`waiting`), and the
    first takes its place back after; a thread inside may enter again (a bot's move inside a
    change) without waiting for itself."""
    gate = ComputeGate(places=1)
    entered = threading.Event()

    def other() -> None:
        with gate:
            entered.set()

    with gate:
        with gate:  # re-entered by the thread inside: no wait
            thread = threading.Thread(target=other)
            thread.start()
            assert not entered.wait(0.2), "a second thread computed beside the first, past the one place"
            with gate.waiting():
                assert entered.wait(10), "the place was not given up while the first thread waited"
                thread.join(10)
        assert not gate._free.acquire(blocking=False), "the first thread did not take its place back"
    assert gate._free.acquire(blocking=False), "the place was not given back at the end"


def test_a_house_is_drawn_once_as_it_stands_and_anew_once_it_changes(base: Ruleset) -> None:
    """The views' houses are kept by their value (`view.drawn_house`, issue 33): the same house
    gives the very drawing `house_svg` makes, kept (the same object the second time), and a
    house changed by a card, or named otherwise, is drawn anew, never answered from the old one."""
    state = GameState(base, 2, 33)
    bots = [make_bot("greedy", 33, p) for p in range(2)]
    while state.houses[0] == House.empty(base) or state.houses[1] == House.empty(base):
        state.apply_action(bots[state.current_player()].choose(state.observation(), state.legal_actions()))
    first, second = state.houses
    drawn = drawn_house(base, first, "seat 0", "en")
    assert drawn == house_svg(base, first, "seat 0", "en")
    assert drawn_house(base, first, "seat 0", "en") is drawn
    assert drawn_house(base, second, "seat 0", "en") == house_svg(base, second, "seat 0", "en") != drawn
    assert drawn_house(base, first, "seat 1", "fr") == house_svg(base, first, "seat 1", "fr") != drawn
