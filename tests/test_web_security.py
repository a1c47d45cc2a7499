"""`dreamhome serve` under attack and under bad luck (issue 21, "The table").

Each reproduction of the issue is a test here, and each class is closed by a wider one: a move
counts only once stored (a read-only folder, a full disk, any write failure); the Host check is
always on, whatever address the server listens on, and a changing request from another origin is
refused; no answer shows a path of the server's disk; any damaged or edited game file is a 4xx
answer; the games kept on disk and in memory are capped; a writer killed mid-write leaves nothing
behind that matters; the players offered are exactly those accepted; and a hypothesis test sends
random requests, none of which may get a 500, show a path or change a game it was refused for.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from dreamhome import fileio  # noqa: E402
from dreamhome.web.app import BadHostError, create_app, host_name, route_paths  # noqa: E402
from dreamhome.web.server import bind, served_hosts, url_of  # noqa: E402
from dreamhome.web.store import GameStore, Settings, players_range, variant_catalogue  # noqa: E402
from tests.helpers.cli import run, spawn  # noqa: E402
from tests.helpers.paths import ROOT  # noqa: E402
from tests.helpers.table import Reference, act, acted, look, same  # noqa: E402
from tests.helpers.table import start as start_game  # noqa: E402
from tests.helpers.table_browser import chromium_fixture, shared_chromium_fixture  # noqa: E402, F401
from tests.helpers.web import served  # noqa: E402

SERVER_PATHS = [str(ROOT), sys.prefix, "/tmp/", "/root", "/home/"]


def client(folder: Path, host: str = "127.0.0.1", **kwargs: Any) -> TestClient:
    """The app (no rate limit unless `rate` is given: test_web_rate.py checks it)."""
    kwargs.setdefault("rate", None)
    return TestClient(create_app(folder, **kwargs), base_url=f"http://{host}", raise_server_exceptions=False)


def start(c: TestClient, **body: Any) -> dict[str, Any]:
    """A person at seat 0 and a random bot: seat 0's view, its key under "key"."""
    return start_game(c, bots=["random"], **body)


def one_clean_line(r: Any, folder: Path) -> str:
    """The answer's error: one line of JSON, no traceback, no path of the server's disk."""
    message = r.json()["error"]
    assert message and "\n" not in message and "Traceback" not in r.text
    for path in (str(folder), str(folder.resolve()), *SERVER_PATHS):
        assert path not in r.text, (path, r.text)
    return str(message)


def game_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.json"))


# ---------------------------------------------------------------- a move counts once stored
def fail_writes(monkeypatch: pytest.MonkeyPatch, err: int) -> None:
    """Every temp file the store tries to make fails with `err`, as on a read-only or full disk
    (the real `fileio.write_atomic` runs up to the system call)."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError(err, os.strerror(err))

    monkeypatch.setattr(fileio.tempfile, "mkstemp", refuse)


@pytest.mark.parametrize("err", [errno.EROFS, errno.ENOSPC, errno.EACCES])
def test_a_move_that_cannot_be_stored_is_not_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err: int) -> None:
    c = client(tmp_path)
    view = start(c)
    (path,) = tmp_path.glob("*.json")
    before = path.read_bytes()
    with monkeypatch.context() as m:
        fail_writes(m, err)
        r = act(c, view, 0)
        assert r.status_code == 503, r.text
        assert os.strerror(err) in one_clean_line(r, tmp_path)
        assert look(c, view) == view  # not applied in memory
    assert path.read_bytes() == before
    # The same move once the disk is back: the engine's move, as if the failure never happened.
    r = act(c, view, 0)
    assert r.status_code == 200, r.text
    ref = Reference(2, ["random"], 7)
    ref.act(0)
    same(r.json(), ref)
    assert look(client(tmp_path), view)["version"] == r.json()["version"]  # as a restart sees it


def test_a_write_failure_anywhere_leaves_the_game_as_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rename itself failing (the last step of `write_atomic`): the same; no temp file is left."""
    c = client(tmp_path)
    view = start(c)

    def broken_replace(*args: Any) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(fileio.os, "replace", broken_replace)
    r = act(c, view, 0)
    assert r.status_code == 503
    one_clean_line(r, tmp_path)
    assert look(c, view) == view
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{view['id']}.json"]


def test_a_game_that_cannot_be_stored_is_not_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = client(tmp_path)
    fail_writes(monkeypatch, errno.ENOSPC)
    r = c.post("/api/games", json={"players": 2, "bots": ["random"], "seed": 1})
    assert r.status_code == 503
    one_clean_line(r, tmp_path)
    assert game_files(tmp_path) == []


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into a read-only folder anyway")
def test_a_read_only_folder(tmp_path: Path) -> None:
    c = client(tmp_path)
    view = start(c)
    tmp_path.chmod(0o555)
    try:
        r = act(c, view, 0)
        assert r.status_code == 503
        one_clean_line(r, tmp_path)
        assert look(c, view) == view
    finally:
        tmp_path.chmod(0o755)


# ---------------------------------------------------------------- Host and Origin
@pytest.mark.parametrize("bound", ["127.0.0.1", "127.0.0.2", "0.0.0.0"])  # noqa: S104 - bound for a moment, port 0
def test_the_host_check_is_on_whatever_the_address(tmp_path: Path, bound: str) -> None:
    """DNS rebinding: a page of evil.example resolved to this machine names its own host."""
    sock = bind(bound, 0)
    try:
        extra = served_hosts(sock, ("table.lan",))
        printed = urlsplit(url_of(sock)).netloc  # the address the server prints must be one it answers to
    finally:
        sock.close()
    assert "*" not in extra and "0.0.0.0" not in extra  # noqa: S104
    c = client(tmp_path, allowed_hosts=extra)
    for host in ("evil.example", "evil.example:8765", "127.0.0.1.evil.example", "", "[::1", "localhost:x", "*"):
        r = c.get("/api/options", headers={"host": host})
        assert r.status_code == 400, (host, r.status_code)
        assert "default-src 'none'" in r.headers["content-security-policy"]
        r = c.post("/api/games", json={"players": 2}, headers={"host": host})
        assert r.status_code == 400 and game_files(tmp_path) == [], host
    for host in ("127.0.0.1:8765", "localhost", "LOCALHOST:1", "[::1]:8765", "table.lan", f"{bound}:80", printed):
        if host.startswith("0.0.0.0"):  # noqa: S104
            continue
        assert c.get("/api/options", headers={"host": host}).status_code == 200, host


def test_allowed_hosts_never_take_a_wildcard() -> None:
    for bad in ("*", "*.example", "evil.example:80", "", "a b", "ex ample", "x" * 300, "0.0.0.0", "::", "[::]"):
        with pytest.raises(BadHostError):
            host_name(bad)
    assert host_name("[::1]") == "::1" and host_name("Table.LAN.") == "table.lan"
    with pytest.raises(BadHostError):
        create_app("/nonexistent-folder", allowed_hosts=["*"])


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"origin": "http://evil.example"}, 403),
        ({"origin": "http://127.0.0.1.evil.example"}, 403),
        ({"origin": "null"}, 403),
        ({"origin": "file://"}, 403),
        ({"origin": "http://user@127.0.0.1"}, 403),
        ({"sec-fetch-site": "cross-site"}, 403),
        ({"origin": "http://127.0.0.1:8765"}, 201),
        ({"origin": "http://localhost:8765", "sec-fetch-site": "same-origin"}, 201),
        ({}, 201),  # no Origin: not a browser's cross-site request
    ],
)
def test_changing_requests_from_another_origin_are_refused(tmp_path: Path, headers: dict[str, str], status: int) -> None:
    c = client(tmp_path)
    r = c.post("/api/games", json={"players": 2, "bots": ["random"]}, headers=headers)
    assert r.status_code == status, r.text
    assert len(game_files(tmp_path)) == (1 if status == 201 else 0)


def test_serve_keeps_the_host_check_on_another_address(tmp_path: Path) -> None:
    """The command itself: `--host 127.0.0.2` answers to its address and `--allow-host` names only."""
    import httpx

    proc = spawn("serve", "--host", "127.0.0.2", "--port", "0", "--data", tmp_path, "--allow-host", "table.lan")
    try:
        assert proc.stderr is not None
        said = "".join(proc.stderr.readline() for _ in range(3))  # the warning, the URL, the names served
        url = re.search(r"http://127\.0\.0\.2:\d+/", said)
        assert url and "warning" in said and "table.lan" in said, said
        with httpx.Client(timeout=10) as http:
            assert http.get(url.group(0) + "api/options").status_code == 200
            assert http.get(url.group(0) + "api/options", headers={"host": "table.lan:80"}).status_code == 200
            assert http.get(url.group(0) + "api/options", headers={"host": "evil.example"}).status_code == 400
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("args", [("--allow-host", "*"), ("--allow-host", "0.0.0.0"), ("--host", "")])
def test_serve_refuses_a_wildcard_host(tmp_path: Path, args: tuple[str, str]) -> None:
    """A wildcard or the unspecified address is no name to allow; an empty --host would listen on
    every interface without saying so."""
    proc = run("serve", "--port", "0", "--data", tmp_path, *args)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert args[0] in proc.stderr


# ---------------------------------------------------------------- damaged and edited files
def finished_game(folder: Path) -> tuple[str, dict[str, Any]]:
    """A finished game with its end-game comparison stored (the whole file as the server wrote it)."""
    c = client(folder)
    view = start(c, seed=2)
    while not view["terminal"]:
        view = acted(c, view, 0)
    assert c.get(view["final"]).status_code == 200
    return view["id"], json.loads((folder / f"{view['id']}.json").read_text())


def _edits(data: dict[str, Any]) -> dict[str, Any]:
    """Each edit of a stored game a person or a bad disk could make, by name."""
    state = data["state"]
    first_decision = next(i for i, e in enumerate(state["events"]) if "action" in e and not e.get("forced"))

    def edited(change: Any) -> Any:
        copy = json.loads(json.dumps(data))
        change(copy)
        return copy

    def set_in(path: list[Any], value: Any) -> Any:
        def change(d: Any) -> None:
            for key in path[:-1]:
                d = d[key]
            d[path[-1]] = value

        return edited(change)

    def del_in(path: list[Any]) -> Any:
        def change(d: Any) -> None:
            for key in path[:-1]:
                d = d[key]
            del d[path[-1]]

        return edited(change)

    return {
        "seats as text": set_in(["settings", "seats"], "person,random"),
        "a seat more": set_in(["settings", "seats"], ["person", "random", "random"]),
        "a seat less": set_in(["settings", "seats"], ["person"]),
        "bot not a string": set_in(["settings", "seats", 1], 1),
        "a class as bot": set_in(["settings", "seats", 1], "dreamhome.players.bots:RandomBot"),
        "no person": set_in(["settings", "seats", 0], "random"),
        "the first format's fields": set_in(["settings"], {"players": 2, "bots": ["random"], "variant": "", "seed": 2}),
        "keys missing": del_in(["keys"]),
        "keys a string": set_in(["keys"], "x"),
        "a key for the bot's seat": set_in(["keys", 1], "0" * 64),
        "a key not a digest": set_in(["keys", 0], "the secret itself"),
        "a key in capitals": set_in(["keys", 0], data["keys"][0].upper()),
        "a key more": set_in(["keys"], [*data["keys"], None]),
        "variant a list": set_in(["settings", "variant"], ["car"]),
        "seed huge": set_in(["settings", "seed"], 10**40),
        "settings missing": del_in(["settings"]),
        "state a list": set_in(["state"], []),
        "wrong digest": set_in(["state", "rules_hash"], "sha256:" + "0" * 64),
        "a score raised": set_in(["state", "events", -1, "scores"], [999, 999]),
        "an event's action": set_in(["state", "events", first_decision, "action"], {"type": "take_column", "column": 99}),
        "an unknown action": set_in(["state", "events", first_decision, "action"], {"type": "launch"}),
        "an action with an extra field": set_in(["state", "events", first_decision, "action", "extra"], 1),
        "events cut": set_in(["state", "events"], state["events"][: len(state["events"]) // 2]),
        "events not a list": set_in(["state", "events"], {"0": 1}),
        "a discard pile reordered": set_in(["state", "room_discard"], list(reversed(state["room_discard"]))),
        "a card gone twice": set_in(["state", "gone"], state["gone"] + state["gone"][:1]),
        "the seed of the state": set_in(["state", "seed"], state["seed"] + 1),
        "a house cell": set_in(["state", "houses", 0], {"format": "dreamhome.house/1", "floors": {}}),
        "end houses with numbers": set_in(["end_houses"], [{"1": 2}, {"1": 2}]),
        "end houses a number": set_in(["end_houses"], 3),
        "best an object": set_in(["best"], {"seat": 0}),
        "best a string total": set_in(["best", 0, "total"], "99"),
        "best a missing house": del_in(["best", 0, "house"]),
        "best with numeric keys": set_in(["best", 0, "house"], {"1": [1]}),
        "an unknown field": set_in(["extra"], 1),
        "undone zero": set_in(["undone"], 0),
        "undone as text": set_in(["undone"], "2"),
        "a rematch that is no id": set_in(["rematch"], "../other"),
        "names as text": set_in(["settings", "names"], "Ann"),
        "a name with a line break": set_in(["settings", "names"], ["Ann\nBob"]),
        "a name for the bot's seat": set_in(["settings", "names"], ["Ann", "Bob"]),
        "format": set_in(["format"], "dreamhome.webgame/0"),
    }


@pytest.fixture(scope="module")
def stored_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    return finished_game(tmp_path_factory.mktemp("stored"))


RAW_DAMAGE = {
    "empty": b"",
    "not JSON": b"{not json",
    "not UTF-8": b"\xff\xfe\x00",
    "a 5000-digit number": b'{"format": "dreamhome.webgame/1", "settings": ' + b"9" * 5000 + b"}",
    "deep": b"[" * 5000 + b"]" * 5000,
    "duplicate keys": b'{"format": 1, "format": 2}',
    "NaN": b'{"format": NaN}',
}


@pytest.mark.slow
def test_every_edit_of_a_stored_game_is_a_clear_4xx(tmp_path: Path, stored_game: tuple[str, dict[str, Any]]) -> None:
    """Tampered files gave 500s (IndexError, KeyError, TypeError): every route on each edit now
    answers 4xx with one line and no path, and the unedited file still loads and plays."""
    gid, data = stored_game
    contents = {name: json.dumps(d).encode() for name, d in _edits(data).items()} | RAW_DAMAGE
    for name, content in contents.items():
        folder = tmp_path / re.sub(r"\W", "_", name)
        folder.mkdir()
        (folder / f"{gid}.json").write_bytes(content)
        c = client(folder)
        for method, path in (
            ("GET", f"/api/games/{gid}"),
            ("GET", f"/games/{gid}"),
            ("GET", f"/api/games/{gid}/final"),
            ("GET", f"/games/{gid}/replay"),
            ("POST", f"/api/games/{gid}/hint"),
            ("GET", f"/api/games/{gid}/events"),
            ("POST", f"/api/games/{gid}/act"),
            ("POST", f"/api/games/{gid}/undo"),
            ("POST", f"/api/games/{gid}/rematch"),
        ):
            r = c.request(method, path, json={"index": 0, "version": 0})
            assert 400 <= r.status_code < 500, (name, path, r.status_code, r.text[:300])
            one_clean_line(r, folder)
        assert (folder / f"{gid}.json").read_bytes() == content  # a damaged file is never rewritten
    intact = tmp_path / "intact"
    intact.mkdir()
    (intact / f"{gid}.json").write_text(json.dumps(data))
    c = client(intact)
    assert c.get(f"/api/games/{gid}").json()["terminal"]
    assert c.get(f"/api/games/{gid}/final").status_code == 200
    assert c.get(f"/games/{gid}/replay").status_code == 200


# ---------------------------------------------------------------- caps
def test_the_games_kept_on_disk_are_capped(tmp_path: Path) -> None:
    c = client(tmp_path, max_games=3)
    ids = [start(c, seed=s)["id"] for s in range(3)]
    r = c.post("/api/games", json={"seats": ["person", "random"], "seed": 9})
    assert r.status_code == 429 and "--max-games" in one_clean_line(r, tmp_path)  # a 4xx: the word
    assert game_files(tmp_path) == sorted(f"{i}.json" for i in ids)
    assert all(c.get(f"/api/games/{i}").status_code == 200 for i in ids)  # the kept ones still play


def test_the_games_held_in_memory_are_capped(tmp_path: Path) -> None:
    """At most `cached` games in memory; a dropped game comes back from disk as it was, and a
    game still in use stays the one object for its id (two copies could both accept a move)."""
    store = GameStore(tmp_path, cached=2)
    games = [store.create(Settings(("person", "random"), "", seed))[0] for seed in range(5)]
    assert store.in_memory() == 2
    first = games[0]
    assert store.get(first.id) is first  # still referenced here: the same object
    ids = [g.id for g in games]
    views = [g.state.to_dict() for g in games]
    del games, first
    again = GameStore(tmp_path, cached=2)
    for gid, view in zip(ids, views):
        assert again.get(gid).state.to_dict() == view
        assert again.in_memory() <= 2


# ---------------------------------------------------------------- a writer killed mid-write
KILLED_WRITER = """
import os, sys, time
from pathlib import Path
from dreamhome.web.store import GameStore, Settings
store = GameStore(Path(sys.argv[1]))
game, keys = store.create(Settings(("person", "random"), "", 3))
game.state.apply_action(game.state.legal_actions()[0])
def stall(fd):
    print(game.id, keys[0], flush=True)
    time.sleep(60)
os.fsync = stall
store.save(game)
"""


def test_a_writer_killed_mid_write_leaves_nothing_that_matters(tmp_path: Path) -> None:
    """SIGKILL between the temp file's write and its rename: the game is as stored before, the
    temp file is removed when a server starts over the folder, and it never counts as a game."""
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None
        gid, key = proc.stdout.readline().split()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    temps = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert temps, "the kill came after the rename: no temp file to clean"
    assert game_files(tmp_path) == [f"{gid}.json"]
    store = GameStore(tmp_path)
    assert store.removed_temps == len(temps) and store.count() == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{gid}.json"]
    view = look(client(tmp_path), {"id": gid, "you": 0, "key": key})
    same(view, Reference(2, ["random"], 3))  # as stored: the killed move never happened


def test_only_temp_files_are_removed(tmp_path: Path) -> None:
    keep = ["notes.txt", ".hidden", "x.tmp", ".other.json.abc.tmp", f"{'A' * 22}.json"]
    for name in keep:
        (tmp_path / name).write_text("{}")
    (tmp_path / f".{'A' * 22}.json.k3j4.tmp").write_text("half")
    assert GameStore(tmp_path).removed_temps == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(keep)


# ---------------------------------------------------------------- what is offered is accepted
@pytest.mark.slow
def test_the_players_offered_are_exactly_those_accepted(tmp_path: Path) -> None:
    """SETUP-1: `players5` was offered, then 5 players refused; each variant's range now."""
    c = client(tmp_path)
    options = c.get("/api/options").json()
    assert set(options["variant_players"]) == {"", *options["variants"]}
    assert options["variant_players"][""] == options["players"]
    for variant, (low, high) in options["variant_players"].items():
        assert (low, high) == players_range(variant)
        for n in range(0, high + 2):
            r = c.post("/api/games", json={"players": n, "bots": ["random"] * max(n - 1, 0), "variant": variant})
            assert r.status_code == (201 if low <= n <= high else 400), (variant, n, r.text)
            r = c.post("/api/games", json={"seats": ["person"] * min(n, 1) + ["random"] * (n - 1), "variant": variant})
            assert r.status_code == (201 if low <= n <= high else 400), (variant, n, r.text)
    assert options["variant_players"]["players5"][1] == 5  # the reproduction: 5 players are offered


# ---------------------------------------------------------------- random requests
METHODS = st.sampled_from(["GET", "POST", "GET", "POST", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
SEGMENTS = st.sampled_from(
    ["api", "games", "GAME", "act", "hint", "final", "replay", "static", "options", "..", "%2e%2e", "%00", "x"]
)


def _nested(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    keys = st.sampled_from(["index", "version", "seat", "key", "seats", "names", "players", "bots", "seed", "variant", "x"])
    return st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=False) | st.text(max_size=20),
    _nested,
    max_leaves=12,
)
HEADERS = st.dictionaries(
    st.sampled_from(["content-type", "origin", "host", "content-length", "sec-fetch-site", "accept-language"]),
    st.sampled_from(
        [
            "application/json",
            "text/plain",
            "http://evil.example",
            "null",
            "127.0.0.1",
            "evil.example",
            "-1",
            "99999999",
            "cross-site",
            "",
        ]
    ),
    max_size=3,
)


def _app_routes() -> tuple[str, ...]:
    with tempfile.TemporaryDirectory(prefix="routes.") as folder:
        return route_paths(create_app(folder))


ROUTES = st.sampled_from([*_app_routes(), *["/api/games/GAME/act"] * 2])
"""Every route of the app (`route_paths`: a new route is tried without editing this test), the
one that changes a game three times as often."""
PATHS = ROUTES | st.lists(SEGMENTS, min_size=1, max_size=5).map(lambda parts: "/" + "/".join(parts))
ACT = st.tuples(st.just("act"), st.integers(-2, 30), st.sampled_from([-1, 0, 0, 0, 1]))
"""A plausible decision: an index and the game's version moved by the offset (mostly right)."""


@pytest.fixture(scope="module")
def fuzz_table(tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, Path, str]:
    from tests.helpers.table import FakeHints

    folder = tmp_path_factory.mktemp("fuzz")
    app = create_app(folder, hint_for=FakeHints(), rate=None)
    app.state.live.close()  # an event stream answers its first message and ends (TestClient reads answers whole)
    c = TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False)
    view = start(c)
    return c, folder, view["id"], view["key"]


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    method=METHODS,
    path=PATHS,
    query=st.sampled_from(["", "?lang=ru", "?lang=../../etc", "?lang=" + "x" * 50]),
    body=st.one_of(st.none(), JSON_VALUES, st.binary(max_size=40), ACT),
    headers=st.just({}) | HEADERS,
)
def test_random_requests_never_get_a_500_nor_change_a_game_they_are_refused_for(
    fuzz_table: tuple[TestClient, Path, str, str], method: str, path: str, query: str, body: Any, headers: dict[str, str]
) -> None:
    """Random methods, routes and paths, bodies and headers (hypothesis): no 500, no traceback,
    no path of the server's disk in any answer, and no stored or shown game changed by a
    request that was refused."""
    c, folder, gid, key = fuzz_table
    url = path.replace("GAME", gid) + query
    before = {p.name: p.read_bytes() for p in folder.glob("*.json")}
    shown = c.get(f"/api/games/{gid}").json()
    kwargs: dict[str, Any] = {"headers": {"content-type": "application/json", **headers}}
    if isinstance(body, tuple):
        decision = {"seat": 0, "key": key, "index": body[1], "version": shown["version"] + body[2]}
        kwargs["content"] = json.dumps(decision).encode()
    elif isinstance(body, bytes):
        kwargs["content"] = body
    elif body is not None:
        kwargs["content"] = json.dumps(body).encode()
    r = c.request(method, url, **kwargs)
    event(f"{r.status_code}")
    assert r.status_code < 500, (method, url, headers, r.status_code, r.text[:300])
    assert "Traceback" not in r.text
    for server_path in (str(folder), *SERVER_PATHS):
        assert server_path not in r.text, (method, url, r.text[:300])
    if r.status_code >= 400:
        assert {p.name: p.read_bytes() for p in folder.glob("*.json")} == before
        assert c.get(f"/api/games/{gid}").json() == shown


def test_no_absolute_path_in_messages_built_from_files(tmp_path: Path) -> None:
    """The scrubber's last line of defence, on the store's own error for a file it cannot read."""
    gid = "E" * 22
    (tmp_path / f"{gid}.json").mkdir()  # a folder where the file should be: not the server's own (issue 34, item 3)
    r = client(tmp_path).get(f"/api/games/{gid}")
    assert r.status_code == 422 and "not the server's own file" in one_clean_line(r, tmp_path)
    (tmp_path / f"{gid}.json").rmdir()
    (tmp_path / f"{gid}.json").write_bytes(b"\x00" * 10)
    r = client(tmp_path).get(f"/api/games/{gid}")
    assert 400 <= r.status_code < 500
    one_clean_line(r, tmp_path)


def test_variant_catalogue_is_offered_whole() -> None:
    assert "players5" in variant_catalogue()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), cut=st.integers(0, 400), data=st.data())
def test_every_game_the_server_stores_loads_back_as_it_was(
    tmp_path_factory: pytest.TempPathFactory, seed: int, cut: int, data: Any
) -> None:
    """The replay check refuses no honest file: a game of any variant, stopped at any decision,
    comes back from disk (a new store, as after a restart) with exactly the state it was saved with."""
    folder = tmp_path_factory.mktemp("honest")
    variant = data.draw(st.sampled_from(["", *variant_catalogue()]))
    low, high = players_range(variant)
    players = data.draw(st.integers(low, min(high, 3)))
    store = GameStore(folder)
    game, _ = store.create(Settings(("person", *("random",) * (players - 1)), variant, seed))

    def decide(k: int) -> None:
        legal = game.state.legal_actions()
        game.state.apply_action(legal[(7 * k) % len(legal)])
        while game.bot_to_move():
            game.bot_step()

    k = 0
    while not game.state.is_terminal() and k < cut:
        store.change(game, functools.partial(decide, k))
        k += 1
    again = GameStore(folder).get(game.id)
    assert again.state.to_dict() == game.state.to_dict() and again.settings == game.settings


@pytest.fixture
def page_server(tmp_path: Path) -> Iterator[str]:
    """The app under uvicorn on a free port, in a thread of this process (as test_web's)."""
    with served(tmp_path) as url:
        yield url


def test_the_start_page_offers_each_variants_players(page_server: str, chromium: Any) -> None:
    """The page itself: choosing a variant redraws the players menu with exactly its range."""
    page = chromium.new_context().new_page()
    page.goto(page_server)
    page.wait_for_selector("#start:not([hidden])")
    for variant in ["players5", "", *variant_catalogue()]:
        page.select_option("#variant", variant)
        offered = page.eval_on_selector_all("#players option", "els => els.map(e => Number(e.value))")
        low, high = players_range(variant)
        assert offered == list(range(low, high + 1)), variant
    page.select_option("#variant", "players5")
    page.select_option("#players", "5")
    assert len(page.query_selector_all("#seats select")) == 5  # each seat a person or a bot
