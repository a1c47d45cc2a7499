"""`dreamhome serve`: the JSON API (Starlette's TestClient) and a whole game in a real browser.

The references are the engine itself driven without HTTP: a `GameState` with the same seed,
the same bot (`make_bot`) and the same decisions must reach the same events, houses and
scores as the server; the scores are recomputed with `score_total` from the saved state.
"""

from __future__ import annotations

import json
import re
import signal
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 over httpx; both work here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from dreamhome import i18n  # noqa: E402
from dreamhome.players.roster import make_bot  # noqa: E402
from dreamhome.scoring import score_total  # noqa: E402
from dreamhome.web.app import create_app  # noqa: E402
from dreamhome.web.store import GAME_ID  # noqa: E402
from tests.helpers.cli import run, spawn  # noqa: E402
from tests.helpers.paths import ROOT  # noqa: E402
from tests.helpers.table import FakeHints, Reference, act, acted, client, look, same, seat_headers, start  # noqa: E402
from tests.helpers.web import served  # noqa: E402

ARTIFACTS = ROOT / "test-artifacts"
STATIC = ROOT / "dreamhome" / "web" / "static"


# ---------------------------------------------------------------- the API
def test_start_shows_the_engines_table_and_legal_actions(tmp_path: Path) -> None:
    """ROUND-1, SEE-1: the first view is the engine's state after the bots' first moves."""
    c = client(tmp_path)
    view = start(c)
    assert GAME_ID.fullmatch(view["id"])
    ref = Reference(2, ["greedy"], 7)
    same(view, ref)
    assert view["your_turn"] and view["round"] == 1
    assert len(view["track"]) == len(ref.state.track_rooms)
    # Every legal action names its board targets: the cells and columns in its own fields.
    for a, action in zip(view["legal"], ref.state.legal_actions()):
        fields = action.to_dict()
        assert a["type"] == fields["type"]
        for cell in a["cells"]:
            assert cell in fields.values() and cell in ref.state.rules.board.cells
    # SEE-1: the view never carries the decks.
    text = json.dumps(view)
    assert "room_deck" not in text and "res_deck" not in text


WHOLE_GAME_VARIANT = "rounds10"
"""The catalogue's shortest whole game (ten rounds): the review below solves each decision twice
(the server's worker and the reference), about 10 s of CPU each for twelve rounds, 6 s for ten.
The base rules' whole games through the API are `test_games_played_at_the_same_time_stay_apart`
and `test_a_finished_game_refuses_more_actions`."""


@pytest.mark.slow
def test_a_whole_game_through_the_api_equals_the_engine(tmp_path: Path) -> None:
    """SCORE-*: every click gives the engine's next state; the end shows the scorer's totals,
    the best houses the scorer's, the replay page, and the review page each player's summary
    as dreamhome.review says it for the same game."""
    c = client(tmp_path)
    view = start(c, seed=11, variant=WHOLE_GAME_VARIANT)
    ref = Reference(2, ["greedy"], 11, WHOLE_GAME_VARIANT)
    k = 0
    while not view["terminal"]:
        index = k % len(view["legal"])  # not always the first: face-down, tools and passes get clicked too
        view = acted(c, view, index)
        ref.act(index)
        same(view, ref)
        k += 1
    assert [s["total"] for s in view["scores"]] == [score_total(ref.state.rules, h) for h in ref.state.houses]
    assert view["winners"] == ref.state.winners()
    winner = view["names"][view["winners"][0]]
    assert winner in view["result"] and str(max(s["total"] for s in view["scores"])) in view["result"]  # SCORE-WIN said
    for s in view["scores"]:
        assert sum(line["points"] for line in s["lines"]) == s["total"]
    final = c.get(view["final"])
    assert final.status_code == 200, final.text
    rules = ref.state.rules
    from dreamhome.house import house_from_json

    saved = json.loads((tmp_path / f"{view['id']}.json").read_text())
    for h, b in zip(final.json()["houses"], saved["best"]):
        assert h["played"] == score_total(rules, ref.state.houses[h["seat"]])
        assert h["best"] == score_total(rules, house_from_json(rules, b["house"]))  # the scorer, not the solver's claim
        assert h["best"] >= b["start"]  # doing nothing is one of optimize's options
        assert "<svg" in h["svg"]
    page = c.get(view["replay"])
    assert page.status_code == 200 and "<script" in page.text
    assert "script-src 'sha256-" in page.headers["content-security-policy"]
    # "Review this game" (issue 23): the review of the game the engine played, each player's
    # summary as dreamhome.review says it for the same game, in the page's language.
    from html import escape

    from dreamhome.game.record import GameResult
    from dreamhome.render.review_text import summary_lines
    from dreamhome.review import review_game

    expected = summary_lines(review_game(GameResult(ref.state, ("person", "greedy"))), "fr")
    from tests.helpers.reviews import reviewed

    page = reviewed(c.get, view["review"], params={"lang": "fr"})
    assert page.status_code == 200, page.text
    assert all(escape(line) in page.text for line in expected), expected
    assert "script-src 'sha256-" in page.headers["content-security-policy"]
    assert c.get(view["review"], params={"lang": "fr"}).text == page.text  # kept, and the same


def test_the_log_shows_the_bots_moves_since_the_last_decision(tmp_path: Path) -> None:
    c = client(tmp_path)
    view = start(c, seed=5)
    mark = view["version"]
    view = acted(c, view, 0)
    ref = Reference(2, ["greedy"], 5)
    ref.act(0)
    events = ref.state.events[mark:]
    assert len(view["log"]) == len(events)
    decisions = [e for e in events if "text" in e]
    assert decisions and decisions[0]["player"] == 0
    bot_moves = [line for line in view["log"] if "greedy bot" in line]
    assert len(bot_moves) == sum(1 for e in decisions if e["player"] == 1)


def test_two_games_at_once_stay_apart(tmp_path: Path) -> None:
    c = client(tmp_path)
    a, b = start(c, seed=1), start(c, seed=2)
    assert a["id"] != b["id"]
    acted(c, a, 0)
    assert look(c, b) == b  # the other game did not move
    assert look(c, a)["version"] > a["version"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{g['id']}.json" for g in (a, b))


def test_a_restarted_server_carries_on(tmp_path: Path) -> None:
    """A new app over the same folder shows the same game and plays on from it."""
    c = client(tmp_path)
    view = start(c, seed=3, bots=["random"])
    for _ in range(3):
        view = acted(c, view, 0)
    again = client(tmp_path)
    reloaded = look(again, view)
    since = ("log", "log_since")  # the act's answer shows the log from its decision on
    assert {k: v for k, v in reloaded.items() if k not in since} == {k: v for k, v in view.items() if k not in since}
    r = act(again, view, 0)  # the seat's key works on the new server: only its digest was stored
    assert r.status_code == 200 and r.json()["version"] > view["version"]


def play_through(c: TestClient, view: dict[str, Any], decisions: int | None = None) -> dict[str, Any]:
    """Click option k mod n at the k-th decision (so not always the first), `decisions` times or to the end."""
    k = 0
    while not view["terminal"] and (decisions is None or k < decisions):
        index = (3 * k + 1) % len(view["legal"])
        view = acted(c, view, index)
        k += 1
    return view


def saved_events(folder: Path, game_id: str) -> list[dict[str, Any]]:
    return json.loads((folder / f"{game_id}.json").read_text(encoding="utf-8"))["state"]["events"]


def test_a_game_interrupted_by_a_restart_ends_as_the_game_played_without_one(tmp_path: Path) -> None:
    """A random bot's stream goes on across a restart (playing.resume_record): the same game, the
    same decisions, with and without a restart of the server, end with the same events."""
    seed, bots = 13, ["random", "random"]
    one_go = tmp_path / "one-go"
    whole = play_through(client(one_go), start(client(one_go), bots=bots, seed=seed))
    assert whole["terminal"]
    interrupted = tmp_path / "interrupted"
    view = start(client(interrupted), bots=bots, seed=seed)
    view = play_through(client(interrupted), view, decisions=4)
    again = client(interrupted)  # a new server over the same folder
    view = look(again, view)
    k = 4
    while not view["terminal"]:
        index = (3 * k + 1) % len(view["legal"])
        view = acted(again, view, index)
        k += 1
    assert saved_events(interrupted, view["id"]) == saved_events(one_go, whole["id"])
    assert [s["total"] for s in view["scores"]] == [s["total"] for s in whole["scores"]]


def test_bots_made_anew_at_a_restart_would_have_played_otherwise(tmp_path: Path) -> None:
    """Why the test above can fail: the same game with its random bots made again from the seed
    after the fourth decision (the old server's way) leaves the uninterrupted game."""
    seed = 13
    ref = Reference(3, ["random", "random"], seed)
    fresh = Reference(3, ["random", "random"], seed)
    for k in range(200):
        if ref.state.is_terminal():
            break
        if k == 4:
            fresh.bots = {p: make_bot("random", seed, p) for p in (1, 2)}
        n = len(ref.state.legal_actions())
        ref.act((3 * k + 1) % n)
        if len(fresh.state.legal_actions()) == n:
            fresh.act((3 * k + 1) % n)
    assert ref.state.events != fresh.state.events


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_api_answers_in_each_language(tmp_path: Path, lang: str) -> None:
    """Labels, card names and action texts in the language asked (`?lang=`): the catalogue's
    `table.*` entries and the rules' names of the cards the engine dealt."""
    c = client(tmp_path)
    options = c.get(f"/api/options?lang={lang}").json()
    assert options["lang"] == lang and [x["code"] for x in options["languages"]] == list(i18n.LANGUAGES)
    for key in i18n.keys():
        if key.startswith("table."):
            assert options["texts"][key] == i18n.text(key, lang)
    view = look(c, start(c, lang=lang), lang=lang)  # the start body's lang is checked; the view's is asked
    ref = Reference(2, ["greedy"], 7, lang=lang)
    same(view, ref)
    rules = ref.state.rules
    track = [rules.card_name(rules.room_of_code(code).id, lang) for code in ref.state.track_rooms if code is not None]
    assert [col["room"] for col in view["track"] if col["room"] is not None] == track
    assert view["names"][0] == i18n.text("table.you", lang)
    assert view["phase_text"] == i18n.text(f"phase.{ref.state.phase.value}", lang)
    view = look(c, view, lang=lang)
    again = c.get(f"/api/games/{view['id']}?lang={lang}", headers=seat_headers(view)).json()
    assert again["track"] == view["track"] and again["legal"] == view["legal"]


def test_languages_differ_and_the_default_is_the_servers(tmp_path: Path) -> None:
    c = client(tmp_path)
    view = start(c)
    shown = {lang: look(c, view, lang=lang) for lang in i18n.LANGUAGES}
    rooms = {lang: tuple(col["room"] for col in v["track"]) for lang, v in shown.items()}
    assert len(set(rooms.values())) == len(i18n.LANGUAGES)  # base.dh names every room in each language
    hints = {c.get(f"/api/options?lang={lang}").json()["texts"]["table.hint"] for lang in i18n.LANGUAGES}
    assert len(hints) == len(i18n.LANGUAGES)
    assert look(c, view) == shown["en"]
    hu = TestClient(create_app(tmp_path, lang="hu"), base_url="http://127.0.0.1", raise_server_exceptions=False)
    assert hu.get("/api/options").json()["lang"] == "hu"
    assert hu.get(f"/api/games/{view['id']}").json()["track"] == shown["hu"]["track"]
    for bad in ("de", "x" * 200, "../en"):
        r = c.get(f"/api/games/{view['id']}", params={"lang": bad})
        assert r.status_code == 400 and "unknown language" in r.json()["error"], bad


def test_ids_are_unguessable_and_only_ids_open_files(tmp_path: Path) -> None:
    c = client(tmp_path)
    ids = {start(c, seed=s)["id"] for s in range(3)}
    assert len(ids) == 3 and all(GAME_ID.fullmatch(i) for i in ids)
    (tmp_path / "planted.json").write_text("{}")
    for bad in ("planted", "..%2Fplanted", "A" * 22, "A" * 23, "%2e%2e%2f%2e%2e%2fetc%2fpasswd"):
        r = c.get(f"/api/games/{bad}")
        assert r.status_code == 404, (bad, r.status_code)


BAD_STARTS: list[Any] = [
    [],
    "x",
    {"players": 1},
    {"players": 5},
    {"players": "2"},
    {"players": True},
    {"players": 2, "bots": ["greedy", "greedy"]},
    {"players": 2, "bots": ["dreamhome.players.bots:RandomBot"]},  # no import of a class from a request
    {"players": 2, "bots": "greedy"},
    {"players": 2, "variant": "../../etc/passwd"},
    {"players": 2, "variant": 3},
    {"players": 2, "variant": False},
    {"players": 2, "seed": -1},
    {"players": 2, "seed": 2**40},
    {"players": 2, "seed": 1.5},
    {"players": 2, "colour": "red"},
    {"seats": []},
    {"seats": ["person"]},
    {"seats": ["person"] * 5},
    {"seats": "person"},
    {"seats": ["greedy", "random"]},  # a table of bots alone is `dreamhome play`
    {"seats": ["person", "human"]},
    {"seats": ["person", "dreamhome.players.bots:RandomBot"]},  # no import of a class from a request
    {"seats": ["person", "mcts@100000"]},
    {"seats": ["person", None]},
    {"seats": ["person", "greedy"], "players": 2},  # one form or the other
    {"seats": ["person", "greedy"], "lang": "de"},
    {"seats": ["person", "greedy"], "lang": 1},
    {"seats": ["person", "greedy"], "seed": -1},
    {"seats": ["person", "greedy"], "variant": "../x"},
    {"seats": ["person", "greedy", "greedy", "greedy", "greedy"], "variant": ""},
]


@pytest.mark.parametrize("body", BAD_STARTS)
def test_bad_start_requests_get_a_clear_400(tmp_path: Path, body: Any) -> None:
    r = client(tmp_path).post("/api/games", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"] and "Traceback" not in r.text
    assert not any(tmp_path.iterdir())  # nothing was written


def test_bad_requests_never_get_a_500(tmp_path: Path) -> None:
    c = client(tmp_path)
    view = start(c)
    gid = view["id"]
    act = f"/api/games/{gid}/act"
    me = {"seat": 0, "key": view["key"]}
    cases: list[tuple[str, str, dict[str, Any], set[int]]] = [
        ("POST", "/api/games", {"content": b"{not json", "headers": {"content-type": "application/json"}}, {400}),
        ("POST", "/api/games", {"content": b"\xff\xfe", "headers": {"content-type": "application/json"}}, {400}),
        ("POST", "/api/games", {"content": b"[" * 10**5 + b"]" * 10**5, "headers": {"content-type": "application/json"}}, {413}),
        ("POST", "/api/games", {"content": b"[" * 2000 + b"]" * 2000, "headers": {"content-type": "application/json"}}, {400}),
        ("POST", "/api/games", {"content": b'{"players": 2}', "headers": {"content-type": "text/plain"}}, {415}),
        ("POST", "/api/games", {"data": {"players": "2"}}, {415}),  # a cross-site form
        ("POST", act, {"json": {**me, "index": -1, "version": view["version"]}}, {400}),
        ("POST", act, {"json": {**me, "index": 10**6, "version": view["version"]}}, {400}),
        ("POST", act, {"json": {**me, "index": "0", "version": view["version"]}}, {400}),
        ("POST", act, {"json": {**me, "index": None, "version": view["version"]}}, {400}),
        ("POST", act, {"json": {**me, "index": 0}}, {400}),
        ("POST", act, {"json": {**me, "index": 0, "version": view["version"] - 1}}, {409}),
        ("POST", act, {"json": {**me, "index": 0, "version": view["version"], "extra": 1}}, {400}),
        ("POST", act, {"json": {"index": 0, "version": view["version"]}}, {403}),  # no key: no seat
        ("POST", act, {"json": {**me, "seat": 1, "index": 0, "version": view["version"]}}, {403}),
        ("POST", act, {"json": {**me, "seat": "0", "index": 0, "version": view["version"]}}, {403}),
        ("POST", act, {"json": {**me, "key": view["key"][:-1], "index": 0, "version": view["version"]}}, {403}),
        ("POST", act, {"json": {**me, "key": ["x"], "index": 0, "version": view["version"]}}, {403}),
        ("POST", act, {"json": [0]}, {400}),
        ("GET", act, {}, {405}),
        ("GET", f"/api/games/{gid}/hint", {}, {405}),
        ("POST", f"/api/games/{gid}/hint", {"json": {"seat": 0}}, {403}),
        ("GET", f"/api/games/{gid}", {"headers": {"x-seat": "0"}}, {403}),
        ("GET", f"/api/games/{gid}", {"headers": {"x-seat": "zero", "x-seat-key": view["key"]}}, {403}),
        ("GET", f"/api/games/{gid}", {"headers": {"x-seat": "1", "x-seat-key": view["key"]}}, {403}),
        ("GET", f"/api/games/{gid}", {"params": {"since": "-1"}}, {400}),
        ("POST", f"/api/games/{'B' * 22}/act", {"json": {**me, "index": 0, "version": 0}}, {404}),
        ("GET", f"/api/games/{gid}/final", {}, {409}),
        ("GET", f"/games/{gid}/replay", {}, {409}),
        ("GET", f"/games/{gid}/review", {}, {409}),
        ("GET", f"/games/{'C' * 22}", {}, {404}),
        ("GET", "/static/../store.py", {}, {404}),
        ("GET", "/static/nothing.js", {}, {404}),
        ("GET", "/api/nothing", {}, {404}),
        ("GET", "/", {"headers": {"host": "evil.example"}}, {400}),  # DNS rebinding
    ]
    for method, path, kwargs, expected in cases:
        r = c.request(method, path, **kwargs)
        assert r.status_code in expected, (method, path, r.status_code, r.text[:200])
        assert "Traceback" not in r.text
    assert look(c, view) == view  # none of them changed the game


def test_a_finished_game_refuses_more_actions(tmp_path: Path) -> None:
    c = client(tmp_path)
    view = start(c, seed=2, bots=["random"])
    while not view["terminal"]:
        view = acted(c, view, 0)
    r = act(c, view, 0)
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert view["legal"] == []


@pytest.mark.slow
def test_every_variant_of_the_catalogue_starts(tmp_path: Path) -> None:
    """VAR-*: the variant blocks of base.dh and the files of rules/variants/ are offered and play."""
    c = client(tmp_path)
    options = c.get("/api/options").json()
    files = {p.stem for p in (ROOT / "dreamhome" / "rules" / "variants").glob("*.dh")}
    blocks = set(re.findall(r"^variant (\w+)", (ROOT / "dreamhome" / "rules" / "base.dh").read_text(), re.M))
    assert set(options["variants"]) == files | blocks
    for name in options["variants"]:
        view = start(c, variant=name, bots=["random", "greedy"])
        assert view["variant"] == name
        same(view, Reference(3, ["random", "greedy"], 7, name))


def test_hint_marks_options_of_the_legal_list(tmp_path: Path) -> None:
    c = client(tmp_path)
    view = start(c)
    r = c.post(f"/api/games/{view['id']}/hint", json={"seat": 0, "key": view["key"]})
    assert r.status_code == 200, r.text
    hint = r.json()
    indexes = {a["index"] for a in view["legal"]}
    assert hint["options"] and {o["index"] for o in hint["options"]} <= indexes
    assert hint["pick"] is None or hint["pick"] in indexes


@pytest.mark.parametrize(
    "content",
    [
        "",
        "[]",
        '{"format": "dreamhome.webgame/1"}',
        '{"format": "dreamhome.webgame/1", "settings": {"players": 2}, "state": {}}',
        '{"format": "dreamhome.webgame/1", "settings": {"players": 2, "bots": ["a:B"], "variant": "", "seed": 0, "seat": 0}}',
    ],
)
def test_a_damaged_game_file_is_a_clear_error(tmp_path: Path, content: str) -> None:
    gid = "D" * 22
    (tmp_path / f"{gid}.json").write_text(content)
    r = client(tmp_path).get(f"/api/games/{gid}")
    assert 400 <= r.status_code < 500 and r.json()["error"], r.text


def test_the_hint_endpoint_follows_the_hints_contract(tmp_path: Path) -> None:
    fake = FakeHints()
    c = client(tmp_path, hint_for=fake)
    view = start(c)
    hint = c.post(f"/api/games/{view['id']}/hint", json={"seat": 0, "key": view["key"]}).json()
    n = len(view["legal"])
    assert [o["index"] for o in hint["options"]] == list(range(n))
    assert [o["text"] for o in hint["options"]] == [a["text"] for a in view["legal"]]
    assert [o["bound"] for o in hint["options"]] == [10 + i for i in range(n)]
    assert [o["proven"] for o in hint["options"]] == [i % 2 == 0 for i in range(n)]
    assert hint["pick"] == n - 1 and fake.calls


def test_assets_are_local_and_pages_carry_a_strict_policy(tmp_path: Path) -> None:
    c = client(tmp_path)
    page = c.get("/")
    assert page.status_code == 200
    game = start(c)
    assert c.get(f"/games/{game['id']}").text == page.text  # a game's address opens the same page
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    for asset in STATIC.iterdir():
        text = asset.read_text()
        text = text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # a namespace name, not an address
        assert "http://" not in text and "https://" not in text, asset.name  # no CDN, no network
        assert c.get(f"/static/{asset.name}").status_code == 200


# ---------------------------------------------------------------- the command
def test_serve_prints_its_url_and_answers(tmp_path: Path) -> None:
    proc = spawn("serve", "--port", "0", "--data", tmp_path / "games")
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        import httpx

        bots = httpx.get(url.group(0) + "api/options", timeout=10).json()["bots"]
        assert bots == ["easy", "medium", "hard", "random", "greedy"]  # each bot once: solver is the medium level
        assert (tmp_path / "games").is_dir()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.slow
@pytest.mark.parametrize(("args", "lang"), [(("serve", "--lang", "hu"), "hu"), (("--lang", "fr", "serve"), "fr")])
def test_serve_lang_is_the_pages_default_language(tmp_path: Path, args: tuple[str, ...], lang: str) -> None:
    """`dreamhome serve --lang hu` (or the global `--lang`): answers that name no language are in it."""
    proc = spawn(*args, "--port", "0", "--data", tmp_path)
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        import httpx

        options = httpx.get(url.group(0) + "api/options", timeout=10).json()
        assert options["lang"] == options["default_lang"] == lang
        assert options["texts"]["table.hint"] == i18n.text("table.hint", lang)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_bad_options_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for args in (["--data", tmp_path / "file"], ["--port", "70000"], ["--host", "no such host!"], ["--lang", "de"]):
        proc = run("serve", "--port", "0", *args) if args[0] != "--port" else run("serve", *args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("delay", [0.0, 1.0])
def test_serve_stops_on_a_signal_at_any_moment(tmp_path: Path, signum: int, delay: float) -> None:
    """A signal while the server starts used to be lost (the server then ignored SIGTERM)."""
    proc = spawn("serve", "--port", "0", "--data", tmp_path)
    try:
        assert proc.stderr is not None and "http://" in proc.stderr.readline()
        time.sleep(delay)
        proc.send_signal(signum)
        code = proc.wait(timeout=15)
        rest = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code in ((130,) if signum == signal.SIGINT else (-signal.SIGTERM, 143)), (code, rest)
    assert "Traceback" not in rest


def test_serve_warns_when_not_on_localhost(tmp_path: Path) -> None:
    proc = spawn("serve", "--host", "127.0.0.2", "--port", "0", "--data", tmp_path)
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        assert "warning" in line and "127.0.0.2" in line
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# ---------------------------------------------------------------- the browser


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The app under uvicorn on a free port, in a thread of this process (no rate limit: the
    tests play as fast as they can from one address)."""
    with served(tmp_path, rate=None) as url:
        yield url, tmp_path


def test_games_played_at_the_same_time_stay_apart(live_server: tuple[str, Path]) -> None:
    """Two people at once on one real server: each game equals its own engine game."""
    import httpx

    url, folder = live_server
    results: dict[int, Any] = {}

    def play(seed: int) -> None:
        try:
            with httpx.Client(base_url=url, timeout=60) as http:
                view = start(http, seed=seed)  # type: ignore[arg-type]  # httpx.Client: TestClient's calls
                ref = Reference(2, ["greedy"], seed)
                while not view["terminal"]:
                    view = acted(http, view, 0)  # type: ignore[arg-type]
                    ref.act(0)
                    same(view, ref)
                results[seed] = view["id"]
        except BaseException as exc:  # handed to the main thread, which fails the test
            results[seed] = exc

    threads = [threading.Thread(target=play, args=(seed,)) for seed in (21, 22)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    for seed in (21, 22):
        assert isinstance(results.get(seed), str), results.get(seed)
    assert len({p.name for p in folder.glob("*.json")}) == 2
