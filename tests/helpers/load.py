"""Page loads and a game played at once against a real `dreamhome serve`, each request timed
(issue 33: any request within 0.5 s while other pages load). Shared by the CI load test
(tests/test_web_load.py) and benchmarks/bench_table_load.py.

A page load is what a browser asks for when it opens a game's link: the page, its script, style
and icon, the options, the rules at hand and the game's view. A game is played by a person
clicking its first legal action each turn, as fast as the server answers, against a greedy bot.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
PAGE_FILES = ("/static/table.js", "/static/table.css", "/static/favicon.svg")


def start_server(folder: Path | str, *options: str) -> tuple[subprocess.Popen[str], str]:
    """`dreamhome serve --port 0 --data FOLDER OPTIONS…` in its own process (the server's event
    loop and threads apart from the client's), and its URL without a trailing slash; the load
    test and the table's benchmarks start their servers here."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "dreamhome", "serve", "--port", "0", "--data", str(folder), *options],
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    line = proc.stderr.readline() if proc.stderr else ""
    found = re.search(r"http://\S+/", line)
    if not found:
        proc.kill()
        raise RuntimeError(f"the server did not start: {line.strip()}")
    return proc, found.group(0).rstrip("/")


@dataclass
class Timings:
    """Each request's seconds, by what it asked for."""

    seconds: dict[str, list[float]] = field(default_factory=dict)

    def add(self, what: str, took: float) -> None:
        self.seconds.setdefault(what, []).append(took)

    def all(self) -> list[float]:
        return [t for ts in self.seconds.values() for t in ts]

    def slowest(self) -> tuple[str, float]:
        return max(((what, max(ts)) for what, ts in self.seconds.items()), key=lambda wt: wt[1])


async def timed(
    http: httpx.AsyncClient, timings: Timings, what: str, method: str, path: str, ok: tuple[int, ...] = (), **kw: object
) -> httpx.Response:
    """The request, timed under `what`; an error status fails it unless listed in `ok`."""
    t0 = time.perf_counter()
    answer = await http.request(method, path, **kw)  # type: ignore[arg-type]
    timings.add(what, time.perf_counter() - t0)
    if answer.status_code not in ok:
        answer.raise_for_status()
    return answer


async def start_game(http: httpx.AsyncClient, seed: int) -> tuple[str, str]:
    """A new game (a person, a greedy bot): its id and the person's key."""
    made = (await http.post("/api/games", json={"seats": ["person", "greedy"], "seed": seed})).json()
    return made["game"], made["seats"][0]["url"].rpartition("key=")[2]


def browser(url: str) -> httpx.AsyncClient:
    """A client as one browser: its own connections. Made before the clock starts (making one
    costs the client's loop tens of milliseconds, which would be counted as the server's)."""
    return httpx.AsyncClient(base_url=url, timeout=60)


async def page_load(http: httpx.AsyncClient, game_id: str, timings: Timings, lang: str = "en") -> None:
    """One browser opening a watch link, each request timed."""
    async with http:
        await timed(http, timings, "page", "GET", f"/games/{game_id}")
        for path in PAGE_FILES:
            await timed(http, timings, "static", "GET", path)
        await timed(http, timings, "options", "GET", "/api/options", params={"lang": lang})
        await timed(http, timings, "rules", "GET", "/api/rules", params={"players": 2, "lang": lang})
        await timed(http, timings, "view", "GET", f"/api/games/{game_id}", params={"lang": lang})
        await timed(http, timings, "list", "GET", "/api/games")


async def play(http: httpx.AsyncClient, game_id: str, key: str, timings: Timings, stop: asyncio.Event, moves: int = 10**6) -> int:
    """A person clicking the first legal action each turn until `stop`, the game's end or
    `moves` decisions, on its own client `http` (made before the clock starts, `browser`, and
    closed here); how many were made."""
    made = 0
    headers = {"X-Seat": "0", "X-Seat-Key": key}
    async with http:
        view = (await timed(http, timings, "seat view", "GET", f"/api/games/{game_id}", headers=headers)).json()
        while not view["terminal"] and not stop.is_set() and made < moves:
            body = {"seat": 0, "key": key, "index": 0, "version": view["version"]}
            answer = await timed(http, timings, "act", "POST", f"/api/games/{game_id}/act", ok=(409,), json=body)
            if answer.status_code == 409:  # the game moved on since this view (a page's read moved the bots):
                # read it again, as the page does on its live stream's news, and decide on that
                view = (await timed(http, timings, "seat view", "GET", f"/api/games/{game_id}", headers=headers)).json()
                continue
            view = answer.json()
            made += 1
    return made


async def static_baseline(url: str, times: int = 20) -> list[float]:
    """A plain request alone (GET of a static file), `times` over: the machine's own pace."""
    out = []
    async with browser(url) as http:
        for _ in range(times):
            t0 = time.perf_counter()
            (await http.get("/static/favicon.svg")).raise_for_status()
            out.append(time.perf_counter() - t0)
    return out


async def under_load(url: str, games: list[tuple[str, str]], loads: int, langs: tuple[str, ...] = ("en",)) -> tuple[Timings, int]:
    """`loads` page loads at once while each game of `games` is played; the timings and the
    decisions made meanwhile. Every page load opens the first game."""
    timings = Timings()
    stop = asyncio.Event()
    browsers = [browser(url) for _ in range(loads)]
    hands = [browser(url) for _ in games]  # every client made before any request is timed (`browser`)
    players = [asyncio.create_task(play(h, gid, key, timings, stop)) for h, (gid, key) in zip(hands, games)]
    await asyncio.sleep(0.05)  # the games under way before the pages open
    await asyncio.gather(*(page_load(b, games[0][0], timings, langs[i % len(langs)]) for i, b in enumerate(browsers)))
    stop.set()
    made = sum(await asyncio.gather(*players))
    return timings, made


async def warm(url: str, game_id: str, langs: tuple[str, ...]) -> None:
    """Each answer made once (the rulesets, each language's options and rules, the game's view)."""
    timings = Timings()
    for lang in langs:
        await page_load(browser(url), game_id, timings, lang)
