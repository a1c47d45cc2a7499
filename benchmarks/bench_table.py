"""Benchmark the table, live: people at one game over a real server on the loopback.

    python benchmarks/bench_table.py            # the figures of docs/PERFORMANCE.md ("The table, live")
    python benchmarks/bench_table.py --quick    # a smoke run

A real `dreamhome serve --port 0` (its own process, its default limits: 20 requests a second per
client address) and HTTP clients with keep-alive, each client on its own loopback address
(127.0.0.N: the rate limit counts per address, as it would for people on a LAN).

(a) A move reaches the other person: games of two people and a greedy bot; each person's page
    holds the event stream (`GET /api/games/{id}/events`). For each seeded move (after a
    seeded 100–200 ms pause: a fast player, within the rate limit), from the
    mover's click: the first event-stream message of the other person's page that carries the
    move, the message that carries the bots' replies too, and that page's view fetched after
    it (`GET /api/games/{id}` with its seat's key). Target: ≤ 1 s p95. Beside it the plain
    engine on the same steps (the move and the bots' moves: `apply_action`, no HTTP, no file).
(b) 20 games at once against the one server: 20 clients, each a person against two greedy
    bots with its event stream open, clicking a seeded legal action after a seeded pause
    (50–150 ms: a fast player) and fetching its view on each stream message it did not cause.
    A click's round trip (`POST /act` to its answer: the move, the bots' moves, the file
    written, the view drawn) must stay ≤ 500 ms p95. Beside it the engine alone on the same
    steps, one game after another.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402
from bench_core import machine, p95  # noqa: E402

from dreamhome import compile_rules  # noqa: E402
from dreamhome.game.state import GameState  # noqa: E402
from dreamhome.players.roster import make_bot  # noqa: E402
from tests.helpers.load import start_server  # noqa: E402  (bench_web starts its server through this module too)

PERSON = "person"


def ms(seconds: float) -> str:
    value = seconds * 1000
    if value < 1:
        return f"{value:.2f} ms"
    return f"{value:.1f} ms" if value < 10 else f"{value:,.0f} ms"


def http_from(address: str, url: str) -> httpx.Client:
    """A keep-alive client whose connections leave from `address` (one loopback address each)."""
    return httpx.Client(base_url=url, timeout=120, transport=httpx.HTTPTransport(local_address=address))


@dataclass
class Stream:
    """A page's event stream, read in a thread: each message with the time it arrived."""

    url: str
    address: str
    got: queue.Queue[tuple[float, dict[str, Any]]] = field(default_factory=queue.Queue)
    stop: threading.Event = field(default_factory=threading.Event)
    last: tuple[float, dict[str, Any]] | None = None

    def start(self) -> None:
        ready = threading.Event()
        threading.Thread(target=self._read, args=(ready,), daemon=True).start()
        if not ready.wait(30):
            raise SystemExit("the event stream did not open")

    def _read(self, ready: threading.Event) -> None:
        transport = httpx.HTTPTransport(local_address=self.address)
        with httpx.Client(timeout=httpx.Timeout(60.0), transport=transport) as http, http.stream("GET", self.url) as r:
            ready.set()
            for line in r.iter_lines():
                if self.stop.is_set():
                    return
                if line.startswith("data: "):
                    self.got.put((time.perf_counter(), json.loads(line[6:])))

    def until(self, version: int) -> tuple[float, dict[str, Any]]:
        """The first message carrying `version` or later (the older ones dropped; the one last
        returned counts again: one message may carry both the move and the bots' replies)."""
        if self.last is not None and self.last[1]["version"] >= version:
            return self.last
        while True:
            self.last = self.got.get(timeout=60)
            if self.last[1]["version"] >= version:
                return self.last

    def drain(self) -> None:
        self.last = None
        while not self.got.empty():
            self.got.get()


def engine_steps(seats: list[str], seed: int, picks: list[int], whole_game: bool = False) -> list[float]:
    """The same game on the engine alone: each step is a person's action and the bots' moves
    until a person's turn (what one click makes the server do, without HTTP, file or view).
    With `whole_game`, the picks must end the game, as the server's game they repeat ended."""
    state = GameState(compile_rules(), len(seats), seed)
    bots = {p: make_bot(name, seed, p) for p, name in enumerate(seats) if name != PERSON}

    def bots_move() -> None:
        while not state.is_terminal() and seats[state.current_player()] != PERSON:
            bot = bots[state.current_player()]
            state.apply_action(bot.choose(state.observation(lookahead=bot.looks_ahead), state.legal_actions()))

    bots_move()
    times = []
    for index in picks:
        t0 = time.perf_counter()
        state.apply_action(state.legal_actions()[index])
        bots_move()
        times.append(time.perf_counter() - t0)
    assert state.is_terminal() or not whole_game, "the engine's game went another way than the server's"
    return times


def new_game(http: httpx.Client, seats: list[str], seed: int) -> tuple[str, dict[int, str]]:
    r = http.post("/api/games", json={"seats": seats, "seed": seed})
    r.raise_for_status()
    made = r.json()
    keys = {}
    for entry in made["seats"]:
        fragment = dict(part.split("=", 1) for part in entry["url"].split("#", 1)[1].split("&"))
        keys[int(fragment["seat"])] = fragment["key"]
    return made["game"], keys


def view_of(http: httpx.Client, gid: str, seat: int, key: str) -> dict[str, Any]:
    r = http.get(f"/api/games/{gid}", headers={"X-Seat": str(seat), "X-Seat-Key": key})
    r.raise_for_status()
    return r.json()


# ---------------------------------------------------------------- (a) a move reaches the other person
def reach(url: str, games: int, moves: int) -> dict[str, list[float]]:
    seats = [PERSON, PERSON, "greedy"]
    out: dict[str, list[float]] = {"first": [], "settled": [], "view": [], "engine": []}
    addresses = ["127.0.0.2", "127.0.0.3"]
    for g in range(games):
        seed = 2000 + g
        rng = random.Random(seed)
        clients = [http_from(a, url) for a in addresses]
        gid, keys = new_game(clients[0], seats, seed)
        streams = [Stream(f"{url}/api/games/{gid}/events", a) for a in addresses]
        for s in streams:
            s.start()
        picks = []
        view = view_of(clients[0], gid, 0, keys[0])
        for _ in range(moves):
            if view["over"]:
                break
            seat = view["to_move"]
            other = 1 - seat
            mine = view_of(clients[seat], gid, seat, keys[seat])
            index = rng.randrange(len(mine["legal"]))
            before = mine["version"]
            time.sleep(rng.uniform(0.1, 0.2))  # a person's pause: the default rate limit holds for people, not for loops
            t0 = time.perf_counter()
            r = clients[seat].post(
                f"/api/games/{gid}/act", json={"seat": seat, "key": keys[seat], "index": index, "version": before}
            )
            r.raise_for_status()
            answer = r.json()
            first, _ = streams[other].until(before + 1)
            settled, _ = streams[other].until(answer["version"])
            view = view_of(clients[other], gid, other, keys[other])
            done = time.perf_counter()
            out["first"].append(first - t0)
            out["settled"].append(settled - t0)
            out["view"].append(done - t0)
            picks.append(index)
            for s in streams:  # the mover's own messages are not measured
                s.drain()
        out["engine"] += engine_steps(seats, seed, picks)
        for s in streams:
            s.stop.set()
        for c in clients:
            c.close()
    return out


# ---------------------------------------------------------------- (b) 20 games at once
def player(url: str, address: str, seed: int, clicks: int, times: list[float], picks: list[int], errors: list[str]) -> None:
    seats = [PERSON, "greedy", "greedy"]
    rng = random.Random(seed)
    try:
        with http_from(address, url) as http:
            gid, keys = new_game(http, seats, seed)
            stream = Stream(f"{url}/api/games/{gid}/events", address)
            stream.start()
            view = view_of(http, gid, 0, keys[0])
            for _ in range(clicks):
                if view["over"]:
                    break
                time.sleep(rng.uniform(0.05, 0.15))
                while not stream.got.empty():  # a message it did not cause: the page fetches its view
                    _, message = stream.got.get()
                    if message["version"] > view["version"]:
                        view = view_of(http, gid, 0, keys[0])
                index = rng.randrange(len(view["legal"]))
                t0 = time.perf_counter()
                r = http.post(
                    f"/api/games/{gid}/act", json={"seat": 0, "key": keys[0], "index": index, "version": view["version"]}
                )
                times.append(time.perf_counter() - t0)
                if r.status_code != 200:
                    errors.append(f"{r.status_code} {r.text[:120]}")
                    return
                view = r.json()
                picks.append(index)
            stream.stop.set()
    except Exception as exc:  # noqa: BLE001 - reported with the figures
        errors.append(f"{type(exc).__name__}: {exc}")


def crowd(url: str, games: int, clicks: int) -> tuple[list[float], list[float], list[str], float]:
    times: list[list[float]] = [[] for _ in range(games)]
    picks: list[list[int]] = [[] for _ in range(games)]
    errors: list[str] = []
    threads = [
        threading.Thread(target=player, args=(url, f"127.0.1.{10 + g}", 3000 + g, clicks, times[g], picks[g], errors))
        for g in range(games)
    ]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    engine = [t for g in range(games) for t in engine_steps([PERSON, "greedy", "greedy"], 3000 + g, picks[g])]
    return [t for ts in times for t in ts], engine, errors, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="games of (a), two people each")
    parser.add_argument("--moves", type=int, default=30, help="moves measured per game of (a)")
    parser.add_argument("--crowd", type=int, default=20, help="games played at once in (b)")
    parser.add_argument("--clicks", type=int, default=40, help="clicks per game of (b), at most (a game ends sooner)")
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    args = parser.parse_args()
    if args.quick:
        args.games, args.moves, args.crowd, args.clicks = 1, 8, 4, 6
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with tempfile.TemporaryDirectory() as folder:
        proc, url = start_server(folder)
        try:
            a = reach(url, args.games, args.moves)
            b, b_engine, errors, wall = crowd(url, args.crowd, args.clicks)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(f"{date} — {machine()}; seeds 2000 onwards (a), 3000 onwards (b)\n")
    print(f"(a) a move reaches the other person: {args.games} games of two people and a greedy bot, {len(a['first'])} moves")
    print("| from the click to | median | p95 | target |")
    print("|---|---|---|---|")
    for label, key in (
        ("the other page's stream carries the move", "first"),
        ("… and the bots' replies", "settled"),
        ("… and that page's view is fetched", "view"),
    ):
        ok = " ≤ 1,000 ms " + ("✓" if p95(a[key]) <= 1.0 else "✗") if key == "view" else ""
        print(f"| {label} | {ms(statistics.median(a[key]))} | {ms(p95(a[key]))} | {ok.strip()} |")
    print(f"| the engine alone, the same steps | {ms(statistics.median(a['engine']))} | {ms(p95(a['engine']))} | |")
    print(
        f"\n(b) {args.crowd} games at once, a person and two greedy bots each, a 50–150 ms pause before each click: "
        f"{len(b)} clicks in {wall:.1f} s ({len(b) / wall:.1f} clicks a second), {len(errors)} refused or failed"
    )
    print("| | median | p95 | target |")
    print("|---|---|---|---|")
    ok = "≤ 500 ms " + ("✓" if b and p95(b) <= 0.5 else "✗")
    print(f"| a click's round trip | {ms(statistics.median(b))} | {ms(p95(b))} | {ok} |")
    print(f"| the engine alone, the same steps | {ms(statistics.median(b_engine))} | {ms(p95(b_engine))} | |")
    for e in errors[:5]:
        print("error:", e)


if __name__ == "__main__":
    main()
