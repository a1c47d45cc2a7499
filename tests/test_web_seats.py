"""People play together (issue 22, item 1): seats and their keys, the watch view, the live
event stream, the games' listing and the limits per client.

The start contract is checked field by field as the issue writes it; each key is checked to act
for its own seat only; the event stream is read from a real uvicorn over a socket (httpx), as a
browser reads it.
"""

from __future__ import annotations

import base64
import json
import queue
import signal
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from dreamhome.web.app import create_app  # noqa: E402
from dreamhome.web.ratelimit import Buckets  # noqa: E402
from dreamhome.web.store import GAME_ID, key_digest  # noqa: E402
from tests.helpers.cli import spawn  # noqa: E402
from tests.helpers.table import key_of  # noqa: E402
from tests.helpers.web import served  # noqa: E402

TWO_PEOPLE = {"seats": ["person", "person", "greedy"], "seed": 5}


def client(folder: Path, base: str = "http://127.0.0.1:8765", **options: Any) -> TestClient:
    options.setdefault("rate", None)
    return TestClient(create_app(folder, **options), base_url=base, raise_server_exceptions=False)


def new_game(c: Any, body: dict[str, Any] | None = None) -> tuple[str, dict[int, str], dict[str, Any]]:
    """A game of `body` (two people and a greedy bot): its id, each person seat's key, the answer."""
    r = c.post("/api/games", json=body or TWO_PEOPLE)
    assert r.status_code == 201, r.text
    made = r.json()
    return made["game"], dict(key_of(s["url"]) for s in made["seats"]), made


def seat_view(c: Any, gid: str, seat: int, key: str) -> Any:
    return c.get(f"/api/games/{gid}", headers={"X-Seat": str(seat), "X-Seat-Key": key})


def decide(c: Any, gid: str, seat: int, key: str, index: int, version: int) -> Any:
    return c.post(f"/api/games/{gid}/act", json={"seat": seat, "key": key, "index": index, "version": version})


# ---------------------------------------------------------------- the start contract
def test_the_start_answer_is_the_contract(tmp_path: Path) -> None:
    """201 {"game", "seats": [{"seat", "url"}] for each person seat in seat order, "watch"}; the
    links absolute on the Host the request named, the key only in the fragment."""
    c = client(tmp_path, allowed_hosts=["table.lan"])
    r = c.post("/api/games", json=TWO_PEOPLE, headers={"host": "table.lan:8000"})
    assert r.status_code == 201, r.text
    made = r.json()
    assert set(made) == {"game", "seats", "watch"} and GAME_ID.fullmatch(made["game"])
    gid = made["game"]
    assert made["watch"] == f"http://table.lan:8000/games/{gid}"
    assert [set(s) for s in made["seats"]] == [{"seat", "url"}] * 2
    assert [s["seat"] for s in made["seats"]] == [0, 1]  # the people's seats, not the bot's
    for entry in made["seats"]:
        parts = urlsplit(entry["url"])
        assert (parts.scheme, parts.netloc, parts.path, parts.query) == ("http", "table.lan:8000", f"/games/{gid}", "")
        seat, key = key_of(entry["url"])
        assert seat == entry["seat"] and parts.fragment == f"seat={seat}&key={key}"
    assert c.get(urlsplit(made["watch"]).path).status_code == 200  # the link opens the table page
    # a bot first: the answer still names the people's seats only, wherever they sit
    made = c.post("/api/games", json={"seats": ["greedy", "person", "random", "person"], "seed": 1}).json()
    assert [s["seat"] for s in made["seats"]] == [1, 3]
    assert made["watch"].startswith("http://127.0.0.1:8765/games/")


def test_the_first_start_body_still_means_a_person_at_seat_0(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid, keys, made = new_game(c, {"players": 3, "bots": ["greedy", "random"], "seed": 2})
    assert list(keys) == [0]
    view = seat_view(c, gid, 0, keys[0]).json()
    assert [s["kind"] for s in view["seats"]] == ["person", "greedy", "random"]


def test_keys_have_128_random_bits_and_are_unique(tmp_path: Path) -> None:
    c = client(tmp_path)
    seen: set[str] = set()
    for seed in range(12):
        _, keys, _ = new_game(c, {"seats": ["person", "person", "person"], "seed": seed})
        for key in keys.values():
            raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
            assert len(raw) * 8 >= 128, key
            seen.add(key)
    assert len(seen) == 36  # none repeated, across games and seats
    # only digests are stored: no key appears in any file of the folder
    stored = "".join(p.read_text() for p in tmp_path.glob("*.json"))
    assert not any(key in stored for key in seen)
    assert all(key_digest(key) in stored for key in seen)


TABLES = st.lists(st.sampled_from(["person", "random", "greedy"]), min_size=2, max_size=4).filter(lambda s: "person" in s)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seats=TABLES, seed=st.integers(0, 2**31 - 1))
def test_any_table_gets_one_link_per_person_and_each_key_opens_its_seat_only(
    tmp_path_factory: pytest.TempPathFactory, seats: list[str], seed: int
) -> None:
    """SETUP-1: any table of 2–4 seats with a person: a link for each person's seat, in seat
    order; each key opens its own seat's view and no other seat's."""
    c = client(tmp_path_factory.mktemp("tables"))
    gid, keys, made = new_game(c, {"seats": seats, "seed": seed})
    people = [p for p, name in enumerate(seats) if name == "person"]
    assert [s["seat"] for s in made["seats"]] == people == list(keys)
    watch = c.get(f"/api/games/{gid}").json()
    assert [s["kind"] for s in watch["seats"]] == seats
    assert watch["to_move"] is None or seats[watch["to_move"]] == "person"  # the bots moved first
    for p in people:
        assert seat_view(c, gid, p, keys[p]).json()["you"] == p
        for q in range(len(seats)):
            if q != p:
                assert seat_view(c, gid, q, keys[p]).status_code == 403


# ---------------------------------------------------------------- each key acts for its seat only
@pytest.mark.slow
def test_two_seats_each_act_with_their_own_key_only(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid, keys, _ = new_game(c)
    decisions = {0: 0, 1: 0}
    for _ in range(40):
        watch = c.get(f"/api/games/{gid}").json()
        if watch["over"]:
            break
        seat = watch["to_move"]
        assert seat in (0, 1)  # the bot moved before the answer
        other = 1 - seat
        version = watch["version"]
        mine = seat_view(c, gid, seat, keys[seat]).json()
        theirs = seat_view(c, gid, other, keys[other]).json()
        assert mine["you"] == seat and mine["your_turn"] and mine["legal"]
        assert theirs["you"] == other and not theirs["your_turn"] and theirs["legal"] == []
        assert watch["you"] is None and watch["legal"] == [] and not watch["your_turn"]
        # the other seat cannot act: not with its own key (409, not its turn), not with the
        # mover's key under its own number, nor the mover's number with its key (403)
        assert decide(c, gid, other, keys[other], 0, version).status_code == 409
        assert decide(c, gid, other, keys[seat], 0, version).status_code == 403
        assert decide(c, gid, seat, keys[other], 0, version).status_code == 403
        assert decide(c, gid, seat, keys[seat] + "x", 0, version).status_code == 403
        assert decide(c, gid, seat, "", 0, version).status_code == 403
        assert c.get(f"/api/games/{gid}").json()["version"] == version  # none of them moved the game
        r = decide(c, gid, seat, keys[seat], 0, version)
        assert r.status_code == 200, r.text
        assert r.json()["you"] == seat and r.json()["version"] > version
        decisions[seat] += 1
    assert decisions[0] >= 5 and decisions[1] >= 5


def test_the_watch_view_has_everything_public_and_cannot_act(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid, keys, _ = new_game(c)
    watch = c.get(f"/api/games/{gid}").json()
    mine = seat_view(c, gid, 0, keys[0]).json()
    assert watch["you"] is None and watch["legal"] == []
    assert [s["kind"] for s in watch["seats"]] == ["person", "person", "greedy"]
    for field in ("version", "to_move", "over", "track", "houses", "round", "rounds", "phase", "first"):
        if field != "houses":
            assert watch[field] == mine[field], field
    assert [h["score"] for h in watch["houses"]] == [h["score"] for h in mine["houses"]]
    r = c.post(f"/api/games/{gid}/act", json={"index": 0, "version": watch["version"]})
    assert r.status_code == 403 and set(r.json()) == {"error"} and "\n" not in r.json()["error"]
    r = c.post(f"/api/games/{gid}/hint", json={})
    assert r.status_code == 403
    assert c.get(f"/api/games/{gid}").json() == watch


def test_a_wrong_key_is_refused_without_saying_it(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid, keys, _ = new_game(c)
    wrong = keys[0][::-1]
    for r in (
        seat_view(c, gid, 0, wrong),
        seat_view(c, gid, 1, keys[0]),
        seat_view(c, gid, 2, keys[0]),  # the bot's seat has no key
        seat_view(c, gid, 9, keys[0]),
        c.get(f"/api/games/{gid}", headers={"X-Seat-Key": keys[0]}),
        decide(c, gid, 0, wrong, 0, 0),
        c.post(f"/api/games/{gid}/hint", json={"seat": 0, "key": wrong}),
    ):
        assert r.status_code == 403, r.text
        assert wrong not in r.text and keys[0] not in r.text
        assert set(r.json()) == {"error"}


def test_a_hint_is_for_the_seat_on_its_turn(tmp_path: Path) -> None:
    from tests.helpers.table import FakeHints

    c = client(tmp_path, hint_for=FakeHints())
    gid, keys, _ = new_game(c)
    seat = c.get(f"/api/games/{gid}").json()["to_move"]
    r = c.post(f"/api/games/{gid}/hint", json={"seat": seat, "key": keys[seat]})
    assert r.status_code == 200 and r.json()["options"]
    r = c.post(f"/api/games/{gid}/hint", json={"seat": 1 - seat, "key": keys[1 - seat]})
    assert r.status_code == 409


def test_a_restart_keeps_each_seats_key(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid, keys, _ = new_game(c)
    seat = c.get(f"/api/games/{gid}").json()["to_move"]
    version = seat_view(c, gid, seat, keys[seat]).json()["version"]
    again = client(tmp_path)  # a new app over the same folder
    assert seat_view(again, gid, 1 - seat, keys[1 - seat]).json()["you"] == 1 - seat
    assert decide(again, gid, seat, keys[1 - seat], 0, version).status_code == 403
    r = decide(again, gid, seat, keys[seat], 0, version)
    assert r.status_code == 200 and r.json()["version"] > version


def test_a_file_of_the_first_format_is_watched_never_acted_on(tmp_path: Path) -> None:
    """A game saved before seats (`dreamhome.webgame/1`, one person at `seat`): it loads, its
    watch view and listing show it, and no key acts for it (its person had none)."""
    c = client(tmp_path)
    gid, keys, _ = new_game(c, {"seats": ["person", "random"], "seed": 4})
    path = tmp_path / f"{gid}.json"
    data = json.loads(path.read_text())
    old = {k: v for k, v in data.items() if k != "keys"}
    old["format"] = "dreamhome.webgame/1"
    old["settings"] = {"players": 2, "bots": ["random"], "variant": "", "seed": 4, "seat": 0}
    path.write_text(json.dumps(old))
    c = client(tmp_path)
    watch = c.get(f"/api/games/{gid}").json()
    assert watch["you"] is None and [s["kind"] for s in watch["seats"]] == ["person", "random"]
    assert decide(c, gid, 0, keys[0], 0, watch["version"]).status_code == 403
    assert [g["game"] for g in c.get("/api/games").json()["games"]] == [gid]


# ---------------------------------------------------------------- the listing
def test_the_listing_names_each_game_and_never_a_key(tmp_path: Path) -> None:
    c = client(tmp_path, base="http://localhost:8765")
    made = [new_game(c, {"seats": ["person", "person", "greedy"], "seed": s}) for s in range(3)]
    made.append(new_game(c, {"seats": ["random", "person"], "seed": 9, "variant": "players5"}))
    (tmp_path / f"{'Z' * 22}.json").write_text("{damaged")  # left out, not a 500
    r = c.get("/api/games")
    assert r.status_code == 200
    listed = r.json()["games"]
    assert [g["game"] for g in listed] == [gid for gid, _, _ in reversed(made)]  # newest first
    gid, keys, _ = made[-1]
    first = listed[0]
    assert first == {
        "game": gid,
        "watch": f"http://localhost:8765/games/{gid}",
        "seats": [{"seat": 0, "kind": "random"}, {"seat": 1, "kind": "person"}],
        "round": 1,
        "rounds": first["rounds"],
        "to_move": 1,
        "over": False,
        "variant": "players5",
        "players": 2,
    }
    # after a move, the game's line follows it and comes first
    gid0, keys0, _ = made[0]
    watch = c.get(f"/api/games/{gid0}").json()
    seat = watch["to_move"]
    assert decide(c, gid0, seat, keys0[seat], 0, watch["version"]).status_code == 200
    listed = c.get("/api/games").json()["games"]
    assert listed[0]["game"] == gid0
    assert listed[0]["to_move"] == c.get(f"/api/games/{gid0}").json()["to_move"]
    text = r.text + json.dumps(listed)
    for _, keys, _ in made:
        for key in keys.values():
            assert key not in text and key_digest(key) not in text


def test_the_listing_is_capped(tmp_path: Path) -> None:
    from dreamhome.web import table as web_app

    c = client(tmp_path)
    for seed in range(4):
        new_game(c, {"seats": ["person", "random"], "seed": seed})
    old = web_app.LISTED
    web_app.LISTED = 3
    try:
        assert len(c.get("/api/games").json()["games"]) == 3
    finally:
        web_app.LISTED = old


# ---------------------------------------------------------------- limits per client
def test_requests_beyond_the_rate_get_a_clear_429(tmp_path: Path) -> None:
    c = client(tmp_path, rate=0.001, burst=4)  # a token back every 1000 s: none comes back during the test
    answers = [c.get("/static/favicon.svg") for _ in range(6)]
    assert [r.status_code for r in answers] == [200] * 4 + [429] * 2
    r = answers[-1]
    assert set(r.json()) == {"error"} and "too many requests" in r.json()["error"]
    assert r.headers["retry-after"] == "1" and "default-src 'none'" in r.headers["content-security-policy"]


def test_a_bucket_refills_at_its_rate_and_each_address_has_its_own() -> None:
    now = [100.0]
    buckets = Buckets(rate=2.0, burst=3, clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(4)] == [True, True, True, False]
    assert buckets.take("b")  # another address: its own bucket
    now[0] += 0.5  # one token back (2 a second)
    assert buckets.take("a") and not buckets.take("a")
    now[0] += 60  # never more than the burst
    assert [buckets.take("a") for _ in range(4)] == [True, True, True, False]


@settings(max_examples=40, deadline=None)
@given(
    gaps=st.lists(st.floats(0, 2, allow_nan=False), min_size=1, max_size=150),
    rate=st.floats(0.5, 50, allow_nan=False),
    burst=st.integers(1, 40),
)
def test_no_window_passes_more_than_the_burst_and_the_rate(gaps: list[float], rate: float, burst: int) -> None:
    """A token bucket's promise, for any arrival times: in any window of length w at most
    burst + rate·w requests pass; and requests 1/rate apart (a client within its rate) all pass."""
    now = [0.0]
    buckets = Buckets(rate, burst, clock=lambda: now[0])
    passed = []
    for gap in gaps:
        now[0] += gap
        if buckets.take("a"):
            passed.append(now[0])
    for i, first in enumerate(passed):
        for j in range(i, len(passed)):
            assert j - i + 1 <= burst + rate * (passed[j] - first) + 1e-6
    steady = Buckets(rate, burst, clock=lambda: now[0])
    for _ in gaps:
        now[0] += 1.0 / rate
        assert steady.take("b")


# ---------------------------------------------------------------- the live stream
@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    with served(tmp_path, rate=None, streams_per_client=3) as url:
        yield url.rstrip("/"), tmp_path


def read_events(url: str, into: queue.Queue[Any], ready: threading.Event, stop: threading.Event) -> None:
    """Each `data:` message of the stream at `url`, with the time it arrived, put in `into`."""
    try:
        with httpx.Client(timeout=httpx.Timeout(10.0)) as http, http.stream("GET", url) as r:
            into.put(("status", r.status_code, r.headers.get("content-type", "")))
            ready.set()
            for line in r.iter_lines():
                if line.startswith("data: "):
                    into.put((time.monotonic(), json.loads(line[6:])))
                if stop.is_set():
                    return
    except Exception as exc:  # handed to the test
        into.put(("error", exc))
        ready.set()


def test_a_move_reaches_the_other_seats_stream_within_a_second(live: tuple[str, Path]) -> None:
    url, _ = live
    with httpx.Client(base_url=url, timeout=30) as http:
        gid, keys, _ = new_game(http)
        got: queue.Queue[Any] = queue.Queue()
        ready, stop = threading.Event(), threading.Event()
        reader = threading.Thread(target=read_events, args=(f"{url}/api/games/{gid}/events", got, ready, stop), daemon=True)
        reader.start()
        assert ready.wait(10)
        assert got.get(timeout=5) == ("status", 200, "text/event-stream; charset=utf-8")
        _, first = got.get(timeout=5)  # at connect: where the game is
        watch = http.get(f"/api/games/{gid}").json()
        assert first == {"version": watch["version"], "to_move": watch["to_move"], "over": False}
        for _ in range(6):  # six moves, each seen by the stream within 1 s of its click
            seat = watch["to_move"]
            sent = time.monotonic()
            r = decide(http, gid, seat, keys[seat], 0, watch["version"])
            assert r.status_code == 200, r.text
            target = r.json()["version"]
            while True:
                at, message = got.get(timeout=5)
                if message["version"] >= target:
                    break
            assert at - sent <= 1.0, at - sent
            watch = http.get(f"/api/games/{gid}").json()
            assert message == {"version": watch["version"], "to_move": watch["to_move"], "over": watch["over"]}
        stop.set()


def test_each_bot_move_is_announced(live: tuple[str, Path]) -> None:
    """A game of a person and three solver bots: the stream carries the bots' moves one at a
    time (a version for a bot to move), not only the person's turn again."""
    url, _ = live
    with httpx.Client(base_url=url, timeout=60) as http:
        gid, keys, _ = new_game(http, {"seats": ["person", "solver", "solver"], "seed": 3})
        got: queue.Queue[Any] = queue.Queue()
        ready, stop = threading.Event(), threading.Event()
        threading.Thread(target=read_events, args=(f"{url}/api/games/{gid}/events", got, ready, stop), daemon=True).start()
        assert ready.wait(10) and got.get(timeout=5)[0] == "status"
        got.get(timeout=5)
        watch = http.get(f"/api/games/{gid}").json()
        seen = []
        for _ in range(3):
            r = decide(http, gid, 0, keys[0], 0, watch["version"])
            assert r.status_code == 200, r.text
            watch = r.json()
        time.sleep(0.2)
        while not got.empty():
            seen.append(got.get()[1])
        stop.set()
    assert any(m["to_move"] in (1, 2) for m in seen), seen
    assert [m["version"] for m in seen] == sorted(m["version"] for m in seen)


def test_event_streams_per_client_are_capped_and_freed(live: tuple[str, Path]) -> None:
    url, _ = live
    with httpx.Client(base_url=url, timeout=30) as http:
        gid, _, _ = new_game(http)
        events = f"{url}/api/games/{gid}/events"
        streams = [http.stream("GET", events) for _ in range(3)]
        opened = [s.__enter__() for s in streams]
        assert all(r.status_code == 200 for r in opened)
        r = http.get(events)
        assert r.status_code == 429 and "event streams" in r.json()["error"]
        for s in streams:
            s.__exit__(None, None, None)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # the server notices the disconnects
            with http.stream("GET", events) as again:
                if again.status_code == 200:
                    break
            time.sleep(0.1)
        else:
            pytest.fail("the closed streams were never freed")


def test_stopping_the_server_ends_open_streams(tmp_path: Path) -> None:
    got: queue.Queue[Any] = queue.Queue()
    ready, stop = threading.Event(), threading.Event()
    with served(tmp_path, rate=None) as url:
        with httpx.Client(base_url=url, timeout=30) as http:
            gid, _, _ = new_game(http)
        reader = threading.Thread(target=read_events, args=(f"{url}api/games/{gid}/events", got, ready, stop), daemon=True)
        reader.start()
        assert ready.wait(10)
        stopping = time.monotonic()
    assert time.monotonic() - stopping < 3
    reader.join(timeout=3)
    assert not reader.is_alive()


def test_ctrl_c_stops_serve_with_a_stream_open(tmp_path: Path) -> None:
    import re

    proc = spawn("serve", "--port", "0", "--data", tmp_path)
    try:
        assert proc.stderr is not None
        url = re.search(r"http://127\.0\.0\.1:\d+", proc.stderr.readline())
        assert url
        with httpx.Client(base_url=url.group(0), timeout=30) as http:
            gid, _, _ = new_game(http)
        got: queue.Queue[Any] = queue.Queue()
        ready, stop = threading.Event(), threading.Event()
        threading.Thread(
            target=read_events, args=(f"{url.group(0)}/api/games/{gid}/events", got, ready, stop), daemon=True
        ).start()
        assert ready.wait(10) and got.get(timeout=5)[1] == 200
        got.get(timeout=5)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=10)
        assert time.monotonic() - sent < 3
        assert code == 130 and "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_bots_move_that_cannot_be_stored_is_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat's move is stored and answered; the bot's, whose file cannot be written, is not
    made, and the server tries it again by itself (`bots.BotMover`: no read moves a game): once
    the disk is back the bot moves, with no request. No move is lost or shown unstored."""
    from dreamhome.web.store import GameStore, StorageError

    c = client(tmp_path)
    c.app.state.tables.mover.retry = 0.2  # type: ignore[attr-defined]
    gid, keys, _ = new_game(c, {"seats": ["person", "greedy"], "seed": 8})
    view = seat_view(c, gid, 0, keys[0]).json()
    real_save = GameStore.save
    saves: list[str] = []

    def the_first_only(store: GameStore, game: Any) -> None:  # the seat's move, then a full disk
        if saves:
            raise StorageError("the game could not be stored on the server (No space left on device)")
        saves.append(game.id)
        real_save(store, game)

    while view["to_move"] == 0:  # up to the decision that hands the turn to the bot
        saves.clear()
        monkeypatch.setattr(GameStore, "save", the_first_only)
        r = decide(c, gid, 0, keys[0], 0, view["version"])
        monkeypatch.setattr(GameStore, "save", real_save)
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["to_move"] == 1 and not view["your_turn"]  # the bot's move waits
    stored = json.loads((tmp_path / f"{gid}.json").read_text())
    assert len(stored["state"]["events"]) == view["version"]  # what the page shows is what is stored
    deadline = time.monotonic() + 30
    while len(json.loads((tmp_path / f"{gid}.json").read_text())["state"]["events"]) == view["version"]:
        assert time.monotonic() < deadline, "the bot's move was not tried again"
        time.sleep(0.1)  # the disk is back: the retry moves the bot, nobody asking
    again = c.get(f"/api/games/{gid}").json()
    assert again["to_move"] == 0 and again["version"] > view["version"]


def test_no_key_is_ever_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything the server logs at any level, through a game's start, views, decisions, wrong
    keys, a damaged file, a failed write and an internal fault: no key and no key's digest."""
    import logging

    from dreamhome.web import view as web_view
    from dreamhome.web.store import GameStore, StorageError

    caplog.set_level(logging.DEBUG)
    c = client(tmp_path)
    gid, keys, _ = new_game(c)
    watch = c.get(f"/api/games/{gid}").json()
    seat = watch["to_move"]
    decide(c, gid, seat, keys[seat], 0, watch["version"])
    decide(c, gid, 1 - seat, keys[seat], 0, watch["version"])  # a key under the wrong seat
    seat_view(c, gid, 0, keys[1])

    def refuse(store: GameStore, game: Any) -> None:
        raise StorageError("the game could not be stored on the server (No space left on device)")

    with monkeypatch.context() as m:
        m.setattr(GameStore, "save", refuse)
        now = c.get(f"/api/games/{gid}").json()
        decide(c, gid, now["to_move"], keys[now["to_move"]], 0, now["version"])
    with monkeypatch.context() as m:
        m.setattr(web_view, "game_view", lambda *a, **k: 1 / 0)
        m.setattr("dreamhome.web.drawn.game_view", lambda *a, **k: 1 / 0)  # where the server draws its views
        assert seat_view(c, gid, 0, keys[0]).status_code == 500  # logged with its traceback
    (tmp_path / f"{'Q' * 22}.json").write_text("{}")
    c.get("/api/games")
    assert caplog.records, "nothing was logged: the test would prove nothing"
    logged = caplog.text + "".join(str(r.__dict__) for r in caplog.records)
    for key in keys.values():
        assert key not in logged and key_digest(key) not in logged
