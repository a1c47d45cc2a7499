"""Hostile inputs at scale: the loaders and the command line on seeded random and mutated input.

    PYTHONPATH=. python benchmarks/bench_hostile.py            # the full run (a few minutes on 2 cores)
    python benchmarks/bench_hostile.py --quick    # a smoke run

tests/test_hostile_inputs.py fuzzes each input with hypothesis at a size the test suite can
afford; this runs the same kinds of input, from seeded generators, many times more often:

- loaders, in process: JSON text (parse_json), house values and raw bytes (parse_house,
  load_house), pool values (read_pool), rules text (compile_rules on mutations of base.dh:
  deleted, duplicated and swapped spans, huge numbers, bad escapes, a BOM, includes of
  arbitrary paths), game records (mutations of the golden records, then replay);
- the surfaces of issue 21, in process (`run_new_surfaces`): the terminal seat's prompt (whole
  games, every prompt given a hostile line first), OpenSpiel's parameters, tampered serialised
  states and actions or chance outcomes not offered, and numbers Python cannot hold in JSON;
- the surfaces of issue 34 (`run_issue34`): names with markup and terminal escapes in a record's
  bot or a rules file's card (replay, rules show, score: printed as written, no ESC reaches
  stdout), `--work` and `--seed` values (refused exactly when not finite or negative), an output
  of `whatif --out --records` planted in the way (refused before any game, naming it), OpenSpiel
  seats a game has not (refused when the bot is made), and SIGINT/SIGTERM at seeded moments of
  every long command (tests/helpers/signals: exit 130/143 and one line, every file whole);
- issue 34's table surfaces (`run_table34`, alone with `--only table34`): hostile requests to
  the web API (huge integers, lone surrogates, NaN, deep nesting, markup in names, symlinked
  store files), each 4xx in one line, beside as many plain requests for the time ratio;
- the command line, in subprocesses: random values in every option slot of every command (as
  test_fuzz_command_line), `rules check` and `--rules` on mutated rules files, `replay` of
  mutated records.

Counted: inputs; crashes (a loader raising anything but DreamhomeError, a traceback on stderr,
an exit status outside 0/1/2/130/143, or a message of more than 3 lines; `rules check`
lists every error, so any number); hangs (a loader over
LOADER_SECONDS, a command over COMMAND_SECONDS); protected files changed (every input a command
reads, plus a file beside them no command names, must come out byte for byte the same). All
four but the first must be 0. The seed is fixed, so a failure is reproducible.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import dreamhome
from dreamhome.dsl.compiler import BASE_RULES, compile_rules
from dreamhome.errors import DreamhomeError
from dreamhome.fileio import parse_json
from dreamhome.game.record import load_record, replay_record
from dreamhome.house import load_house, parse_house
from dreamhome.solver.place import read_pool
from tests.helpers.hostile import CLI_TEMPLATES
from tests.helpers.hostile import OPTION_VALUES as HOSTILE_VALUES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "golden"
LOADER_SECONDS = 10.0
COMMAND_SECONDS = 120.0
EXIT_OK = (0, 1, 2, 130, 143)

BASE = compile_rules()
BASE_TEXT = BASE_RULES.read_text(encoding="utf-8")
ROOM_IDS = sorted(BASE.ids("room")) + ["kichen", "", "piano"]
ODD_STRINGS = ["", "-", ".", "\x1b[31m", "x\ny", "\u202e", "\x00", "é", "10" * 40, "nan", "inf", "1e400", "/dev/zero"]


# ---- seeded generators ------------------------------------------------------------------------
def json_value(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON value, nested a few levels (the test's json_values)."""
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([0, 1, -1, 2, 12, 2**31, -(2**63), 10**30, rng.randrange(-1000, 1000)])
    if kind == 3:
        return rng.choice([0.5, -0.0, 1e300, 3.0, rng.uniform(-10, 10)])
    if kind in (4, 5):
        return rng.choice(ODD_STRINGS + ROOM_IDS + ["dreamhome.house/1", "top", "middle", "basement"])
    if kind in (6, 7):
        return [json_value(rng, depth + 1) for _ in range(rng.randrange(6))]
    keys = ODD_STRINGS + ["room", "token", "rooms", "floors"]
    return {rng.choice(keys): json_value(rng, depth + 1) for _ in range(rng.randrange(6))}


def house_like(rng: random.Random) -> Any:
    """A value shaped roughly like a house, or the example house with one part replaced."""
    if rng.random() < 0.5:
        house = json.loads((EXAMPLES / "rulebook_example.json").read_text())
        key = rng.choice(list(house) + ["extra"])
        if rng.random() < 0.5 and isinstance(house.get("floors"), dict):
            floor = rng.choice(list(house["floors"]))
            cells = house["floors"][floor]
            if isinstance(cells, list) and cells:
                cells[rng.randrange(len(cells))] = rng.choice([None, {"room": rng.choice(ROOM_IDS)}, json_value(rng)])
        else:
            house[key] = json_value(rng)
        return house
    cell = lambda: rng.choice([None, {"room": rng.choice(ROOM_IDS)}, json_value(rng)])  # noqa: E731
    floors = {rng.choice(["top", "middle", "basement", "attic"]): [cell() for _ in range(rng.randrange(7))] for _ in range(3)}
    return {"format": rng.choice(["dreamhome.house/1", json_value(rng)]), "floors": floors}


def mutate_text(rng: random.Random, text: str, tokens: list[str]) -> str:
    """One to four edits: delete, duplicate or move a span, or insert a hostile token."""
    for _ in range(rng.randint(1, 4)):
        n = len(text)
        a = rng.randrange(n + 1)
        b = min(n, a + rng.choice([1, 2, 5, 20, 200]))
        op = rng.randrange(4)
        if op == 0:
            text = text[:a] + text[b:]
        elif op == 1:
            text = text[:a] + text[a:b] * rng.choice([2, 3]) + text[a:]
        elif op == 2:
            c = rng.randrange(n + 1)
            text = text[:c] + text[a:b] + text[c:]
        else:
            text = text[:a] + rng.choice(tokens) + text[a:]
    return text


RULES_TOKENS = [
    " 10000000000000000000000000000000000000000 ",
    " -99999999999 ",
    " " + "9" * 5000 + " ",
    ' "bad \\x4z escape" ',
    ' "\\N{nope}" ',
    "\ufeff",
    '\ninclude "/proc/self/environ"\n',
    '\ninclude "/etc/passwd"\n',
    '\ninclude "../../../../etc/hostname.dh"\n',
    '\ninclude "base.dh"\n',
    '\ninclude "nowhere.dh"\n',
    "\nvariant car { }\n",
    "{",
    "}",
    "(",
    "..",
    "@assumed",
    "@bogus",
    "#",
    "\n",
    "\x00",
    "é",
    "room",
    "points",
    "effect swap(house, house) at end uses 7",
    "option tiebreak = coin",
]


def rules_text(rng: random.Random) -> str:
    if rng.random() < 0.3:  # a small override file, the common case
        base = 'include "base.dh"\nroom kitchen { points 1 3 6 }\nhelper handyman { effect swap(house, house) at end uses 2 }\n'
        return mutate_text(rng, base, RULES_TOKENS)
    return mutate_text(rng, BASE_TEXT, RULES_TOKENS)


def record_value(rng: random.Random, golden: list[dict]) -> Any:
    data = json.loads(json.dumps(rng.choice(golden)))
    choice = rng.randrange(5)
    if choice == 0:
        data["rules"]["source"] = mutate_text(rng, data["rules"]["source"], RULES_TOKENS)
    elif choice == 1 and data.get("events"):
        event = rng.choice(data["events"])
        if isinstance(event, dict) and event:
            event[rng.choice(list(event))] = json_value(rng)
    elif choice == 2 and data.get("events"):
        k = rng.randrange(len(data["events"]))
        del data["events"][k:]
    elif choice == 3:
        data[rng.choice(list(data) + ["extra"])] = json_value(rng)
    else:
        data["rules"]["source"] = rng.choice(['include "/proc/self/environ"\n', 'include "base.dh"\n', "{", ""])
    return data


# ---- loaders, in process ------------------------------------------------------------------------
class Tally:
    def __init__(self) -> None:
        self.inputs: Counter[str] = Counter()
        self.crashes: list[str] = []
        self.hangs: list[str] = []
        self.changed: list[str] = []

    def loader(
        self, kind: str, label: str, call: Any, *args: Any, refused: tuple[type[BaseException], ...] = (), **kwargs: Any
    ) -> None:
        """`call(*args)` must end normally or raise DreamhomeError (or one of `refused`) in one line."""
        self.inputs[kind] += 1
        started = time.perf_counter()
        try:
            call(*args, **kwargs)
        except (DreamhomeError, *refused) as exc:
            message = str(exc)
            if "\n" in message or "Traceback" in message:
                self.crashes.append(f"{kind} {label}: a message of several lines: {message[:200]!r}")
        except Exception as exc:  # noqa: BLE001 - counting exactly these
            self.crashes.append(f"{kind} {label}: {type(exc).__name__}: {str(exc)[:200]}")
        if time.perf_counter() - started > LOADER_SECONDS:
            self.hangs.append(f"{kind} {label}: {time.perf_counter() - started:.1f} s")


def run_loaders(rng: random.Random, n: int, tally: Tally, work: Path) -> None:
    golden = [json.loads(p.read_text()) for p in sorted(GOLDEN.glob("*.json"))]
    for i in range(n):
        broken = mutate_text(rng, json.dumps(house_like(rng)), ["{", "]", '"', ",", "\\u0000", "1e999"])
        text = rng.choice([json.dumps(json_value(rng)), broken])
        tally.loader("json text", f"#{i}", parse_json, text, "t.json")
        value = house_like(rng) if rng.random() < 0.7 else json_value(rng)
        tally.loader("house value", f"#{i}", parse_house, BASE, json.dumps(value), "fuzz.json")
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(200))) if rng.random() < 0.3 else text.encode()
        path = work / "h.json"
        path.write_bytes(raw)
        tally.loader("house bytes", f"#{i}", load_house, BASE, path)
        pool = {"rooms": {rng.choice(ROOM_IDS): rng.choice([json_value(rng), rng.randrange(-3, 80)]) for _ in range(4)}}
        pool_value = pool if rng.random() < 0.6 else json_value(rng)
        tally.loader("pool value", f"#{i}", read_pool, BASE, pool_value, "pool.json")
        if i % 4 == 0:  # compiling base.dh costs ~50 ms: a quarter as many
            rules = rules_text(rng)
            tally.loader("rules text", f"#{i}", compile_rules, text=rules, name="fuzz.dh")
        if i % 20 == 0:  # a replay plays a whole game
            record = record_value(rng, golden)
            rpath = work / "r.json"
            rpath.write_text(json.dumps(record))
            tally.loader("record", f"#{i}", _replay_file, rpath)


def _replay_file(path: Path) -> None:
    replay_record(load_record(path), path.name)


# ---- the seat, OpenSpiel and JSON numbers, in process ----------------------------------------
SEAT_LINES = [
    "²",
    "¹",
    "٣",
    "1" * 5000,
    "0",
    "-1",
    "+1",
    "1.0",
    "save a\x00b",
    "save -",
    "save -x",
    "save \x1b[31m",
    "\x00",
    "\udcff",
]
SEAT_LINES += ["hint x", "undo 2", "help me", "quit now", "save", "save  ", "", "   ", "9" * 7, "1 2", "١"]


def seat_line(rng: random.Random) -> str:
    """A line a clumsy person or an attacker types at the terminal seat's prompt."""
    if rng.random() < 0.5:
        return rng.choice(SEAT_LINES)
    alphabet = "0123456789 -+./²¹٣\x00\x1b\n\t€é" + "saveundohintquit"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 40)))


def seat_game(rng: random.Random, tally: Tally, work: Path, label: str) -> None:
    """A whole game at the terminal seat: every prompt gets a hostile line, then the first option.
    Each line counts as an input; an exception out of the game or an "internal error" is a crash."""
    import io

    from rich.console import Console

    from dreamhome.game.state import GameState
    from dreamhome.players.playing import make_seats
    from dreamhome.terminal.seat import HumanGame

    seed = rng.randrange(2**16)
    out = io.StringIO()

    def lines() -> Any:
        while True:
            tally.inputs["seat prompt lines"] += 1
            line = seat_line(rng)
            yield line.replace("/", "_") if line.startswith("save") else line  # saves stay in the scratch folder
            yield "1"

    feed = lines()
    game = HumanGame(
        GameState(BASE, 2, seed, 0),
        ("human", "random"),
        tuple(make_seats(["human", "random"], seed)),
        Console(file=out, width=120, color_system=None),
        read=lambda _prompt: next(feed),
        hint_work=0.02,
    )
    cwd = os.getcwd()
    os.chdir(work)
    started = time.perf_counter()
    try:
        game.run()
    except Exception as exc:  # noqa: BLE001 - counting exactly these
        tally.crashes.append(f"seat {label}: {type(exc).__name__}: {str(exc)[:200]}")
    finally:
        os.chdir(cwd)
    if "internal error" in out.getvalue():
        tally.crashes.append(f"seat {label}: internal error printed")
    if time.perf_counter() - started > LOADER_SECONDS * 3:
        tally.hangs.append(f"seat {label}: {time.perf_counter() - started:.1f} s")


OPENSPIEL_VALUES = [
    2,
    3,
    4,
    0,
    -1,
    99,
    True,
    2.5,
    "",
    "car",
    "kids",
    "car,kids",
    ",",
    "nope",
    "/dev/zero",
    "/",
    "win",
    "score",
    "\x00",
]


def openspiel_round(rng: random.Random, tally: Tally, label: str) -> None:
    """Random parameters, a tampered serialised state, and random actions and chance outcomes."""
    import pyspiel

    from dreamhome.openspiel.game import DreamHomeGame

    refused = (ValueError, pyspiel.SpielError)
    keys = ["players", "variant", "rules", "returns", "seed"]
    params = {rng.choice(keys): rng.choice(OPENSPIEL_VALUES) for _ in range(rng.randrange(4))}
    tally.loader("openspiel params", label, DreamHomeGame, params, refused=refused)
    game = pyspiel.load_game("python_dream_home", {"players": rng.choice([2, 3, 4])})
    state = game.new_initial_state()
    for _ in range(rng.randrange(300)):
        if state.is_terminal():
            break
        offered = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        if rng.random() < 0.2:
            wrong = rng.choice([-2, 5, 10**6, rng.randrange(0, 6000)])  # -1 is OpenSpiel's own check (kInvalidAction)
            if wrong not in offered:
                tally.loader("openspiel actions", label, _refused_action, state, wrong, refused=refused)
        state.apply_action(rng.choice(offered))
    text = mutate_text(rng, state.serialize(), [",", "]", "[", "-1", "9" * 5000, "1e999", '"', "null", "true", "{}"])
    tally.loader("openspiel states", label, game.deserialize_state, text, refused=refused)


def _refused_action(state: Any, action: int) -> None:
    before = state.history()
    try:
        state.apply_action(action)
    finally:
        if state.history() != before:
            raise AssertionError(f"action {action} not offered, yet applied")


def json_numbers(rng: random.Random, tally: Tally, label: str) -> None:
    """A house with a number Python cannot hold at a random place: one line naming its path."""
    text = json.dumps(house_like(rng))
    spots = [i for i, c in enumerate(text) if c in ",[:"]
    at = rng.choice(spots) + 1 if spots else 0
    number = rng.choice(["9" * 5000, "-" + "1" * 4301, "1e999", "-1e999"])
    tally.loader("json numbers", label, parse_house, BASE, text[:at] + number + text[at:], "n.json")


def run_new_surfaces(rng: random.Random, n: int, tally: Tally, work: Path) -> None:
    """The surfaces of issue 21: the terminal seat's prompt, OpenSpiel's entry points, JSON numbers."""
    for i in range(max(1, n // 10)):
        seat_game(rng, tally, work, f"#{i}")
    for i in range(n):
        openspiel_round(rng, tally, f"#{i}")
        json_numbers(rng, tally, f"#{i}")


# ---- the command line, in subprocesses ----------------------------------------------------------
TEMPLATES = [
    *(list(t) for t in CLI_TEMPLATES),
    ["rules", "check", "{rules}"],
    ["--rules", "{rules}", "score", "{house}", "--json"],
    ["--rules", "{rules}", "max", "--time-limit", "2"],
    ["replay", "{badrecord}"],
    ["--rules", "{rules}", "play", "--players", "2", "--seed", "{value}"],
]
OPTION_VALUES = [*HOSTILE_VALUES, "kitchen", "car"]
OUT_CHOICES = ["{house}", "{record}", "{rules}", "out.json", "nodir/out.json", "-", ".", "/dev/null", "protected.txt"]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"


def one_command(index: int, seed: int, scratch: Path) -> tuple[str, str, str, list[str]]:
    """One command on fresh copies of its inputs; (kind, verdict, detail, changed files)."""
    rng = random.Random(seed * 1_000_003 + index)
    work = scratch / f"c{index}"
    work.mkdir()
    house = work / "h.json"
    house.write_bytes((EXAMPLES / rng.choice(["rulebook_example.json", "endgame.json", "midgame.json"])).read_bytes())
    record = work / "r.json"
    record.write_bytes(rng.choice(sorted(GOLDEN.glob("*.json"))).read_bytes())
    rules = work / "m.dh"
    rules.write_text(rules_text(rng), encoding="utf-8", errors="surrogatepass")
    golden = [json.loads(record.read_text())]
    badrecord = work / "bad.json"
    badrecord.write_text(json.dumps(record_value(rng, golden)))
    protected_file = work / "protected.txt"
    protected_file.write_text("no command names this file\n")
    template = rng.choice(TEMPLATES)
    paths = {"{house}": str(house), "{record}": str(record), "{rules}": str(rules), "{badrecord}": str(badrecord)}
    out_choice = rng.choice(OUT_CHOICES)
    out = paths.get(out_choice, out_choice)
    args: list[str] = []
    for part in template:
        if part == "{value}":
            args.append(rng.choice(OPTION_VALUES))
        elif part in ("{out}", "{outdir}"):
            args.append(out)
        else:
            args.append(paths.get(part, part))
    if template[0] in ("play", "whatif", "optimize", "place") and "2" not in args:
        args.append("--help")  # as the test: only option parsing, never a long game or solve
    inputs = [Path(p) for key, p in paths.items() if key in template] + [protected_file]
    before = {p: digest(p) for p in inputs}
    kind = " ".join(t for t in template if not t.startswith("{"))[:40]
    env = {"COLUMNS": "120", "PATH": "/usr/bin:/bin", "HOME": "/tmp", "PYTHONPATH": str(ROOT)}
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "dreamhome", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            cwd=work,
            env=env,
            timeout=COMMAND_SECONDS,
        )
    except subprocess.TimeoutExpired:
        return kind, "hang", f"{args!r}", []
    err = proc.stderr.decode("utf-8", "replace")
    # Every input the command reads must come out unchanged, even when named as the output (the
    # command must refuse); the bystander file too, unless the command was told to write it.
    named_out = (work / out).resolve()
    changed = [p.name for p in inputs if digest(p) != before[p] and not (p == protected_file and p.resolve() == named_out)]
    verdict, detail = "ok", ""
    lines_allowed = 10**6 if template[:2] == ["rules", "check"] else 3  # `rules check` lists every error
    if "Traceback" in err or proc.returncode not in EXIT_OK or err.count("\n") > lines_allowed:
        verdict, detail = "crash", f"{args!r} → {proc.returncode}: {err[-300:]!r}"
    shutil.rmtree(work, ignore_errors=True)
    return kind, verdict, detail, changed


def run_commands(seed: int, n: int, jobs: int, tally: Tally, scratch: Path) -> None:
    with ThreadPoolExecutor(jobs) as pool:
        for kind, verdict, detail, changed in pool.map(lambda i: one_command(i, seed, scratch), range(n)):
            tally.inputs[f"command: {kind}"] += 1
            if verdict == "crash":
                tally.crashes.append(detail)
            elif verdict == "hang":
                tally.hangs.append(detail)
            tally.changed.extend(f"{kind}: {name}" for name in changed)


# ---- the table (dreamhome serve), in process ----------------------------------------------------
WEB_ROUTES: list[str] = []
"""Filled by `run_web` from the app itself (`dreamhome.web.app.route_paths`), the route that
changes a game twice: a new route is tried without editing this file."""
WEB_SEGMENTS = ["api", "games", "GAME", "act", "final", "replay", "static", "..", "%2e%2e", "%00", "x" * 300, "\u202e"]
WEB_HEADERS = {
    "host": ["evil.example", "127.0.0.1.evil.example", "[::1", "", "localhost:x", "0.0.0.0"],
    "origin": ["http://evil.example", "null", "file://", "http://127.0.0.1:8765"],
    "content-type": ["text/plain", "application/x-www-form-urlencoded", "application/json; charset=utf-8"],
    "content-length": ["-1", "99999999", "abc"],
    "sec-fetch-site": ["cross-site", "same-origin"],
}


def web_request(rng: random.Random, gid: str, version: int, key: str = "") -> tuple[str, str, dict[str, str], bytes | None]:
    """A seeded request: a real route or random segments, any method, hostile headers and bodies."""
    method = rng.choice(["GET", "POST", "POST", "GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
    if rng.random() < 0.7:
        path = rng.choice(WEB_ROUTES)
    else:
        path = "/" + "/".join(rng.choice(WEB_SEGMENTS) for _ in range(rng.randint(1, 5)))
    path = path.replace("GAME", rng.choice([gid, gid, "A" * 22, "../" + gid, gid[:-1]]))
    path += rng.choice(["", "", "?lang=ru", "?lang=../../etc/passwd", "?lang=" + "x" * 100])
    headers = {"content-type": "application/json"}
    for _ in range(rng.choice([0, 0, 1, 2])):
        name = rng.choice(list(WEB_HEADERS))
        headers[name] = rng.choice(WEB_HEADERS[name])
    kind = rng.randrange(5)
    if kind == 0:
        body = None
    elif kind == 1:
        decision = {"index": rng.randrange(-2, 30), "version": version + rng.choice([-1, 0, 0, 1])}
        body = json.dumps({"seat": 0, "key": key, **decision}).encode()  # seat 0's key: a decision that may count
    elif kind == 2:
        body = json.dumps(
            {
                "players": rng.randrange(0, 7),
                "bots": [rng.choice(["random", "greedy", "x:Y"])] * rng.randrange(4),
                "variant": rng.choice(["", "car", "players5", "../x", 3]),
                "seed": rng.choice([0, -1, 2**40]),
            }
        ).encode()
    elif kind == 3:
        body = json.dumps(json_value(rng)).encode()
    else:
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(60)))
    return method, path, headers, body


def web_leaks(text: str, folder: Path) -> str | None:
    """What an answer must never show: a traceback, or a path of the server's disk."""
    for bad in ("Traceback", str(folder), str(ROOT), sys.prefix, tempfile.gettempdir() + "/"):
        if bad in text:
            return bad
    return None


def run_web(rng: random.Random, n: int, tally: Tally, work: Path) -> None:
    """`dreamhome serve` through Starlette's TestClient: seeded hostile requests (no 5xx, no path
    or traceback in any answer, nothing stored or shown changed by a refused request), edited
    game files (each a 4xx answer), and writes that fail at random (a 503, the game unchanged)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from dreamhome import fileio
    from dreamhome.web.app import create_app, route_paths

    def stand_in_hint(state: Any, work: float = 1.0) -> Any:
        from dreamhome.players.hints import Hint, OptionHint

        legal = state.legal_actions()
        return Hint(state.current_player(), tuple(OptionHint(i, a, "", 0, True, "") for i, a in enumerate(legal)), 0, 0.0)

    folder = work / "web"
    app = create_app(folder, hint_for=stand_in_hint, max_games=200, rate=None)  # the rate limit: test_web_seats.py
    app.state.live.close()  # an event stream answers its first message and ends (TestClient reads answers whole)
    WEB_ROUTES[:] = [*route_paths(app), "/api/games/GAME/act"]
    c = TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False)

    def new_game(body: dict[str, Any]) -> tuple[str, str]:
        made = c.post("/api/games", json=body).json()
        return made["game"], made["seats"][0]["url"].rpartition("key=")[2]

    gid, key = new_game({"seats": ["person", "random", "greedy"], "seed": 5})
    real_mkstemp = fileio.tempfile.mkstemp

    def failing_mkstemp(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    for i in range(n):
        before = {p.name: p.read_bytes() for p in folder.glob("*.json")}
        shown = c.get(f"/api/games/{gid}").text
        version = json.loads(shown).get("version", 0)
        method, path, headers, body = web_request(rng, gid, version, key)
        disk_full = rng.random() < 0.1
        kind = "web: request (disk full)" if disk_full else "web: request"
        tally.inputs[kind] += 1
        started = time.perf_counter()
        fileio.tempfile.mkstemp = failing_mkstemp if disk_full else real_mkstemp  # type: ignore[assignment]
        try:
            r = c.request(method, path, headers=headers, content=body)
        finally:
            fileio.tempfile.mkstemp = real_mkstemp  # type: ignore[assignment]
        label = f"{method} {path[:80]} {headers} {(body or b'')[:60]!r}"
        if r.status_code >= 500 and not (disk_full and r.status_code == 503):
            tally.crashes.append(f"{kind} {label} → {r.status_code}: {r.text[:200]}")
        if (leak := web_leaks(r.text, folder)) is not None:
            tally.crashes.append(f"{kind} {label}: the answer shows {leak!r}")
        if r.status_code >= 400 and (
            {p.name: p.read_bytes() for p in folder.glob("*.json")} != before or c.get(f"/api/games/{gid}").text != shown
        ):
            tally.changed.append(f"{kind} {label}: refused ({r.status_code}) yet a game changed")
        if time.perf_counter() - started > LOADER_SECONDS:
            tally.hangs.append(f"{kind} {label}: {time.perf_counter() - started:.1f} s")
        if json.loads(c.get(f"/api/games/{gid}").text).get("terminal"):
            gid, key = new_game({"seats": ["person", "random"], "seed": i})
    # Edited game files: every route on each must answer 4xx (the file is never rewritten).
    saved = (folder / f"{gid}.json").read_text()
    for i in range(max(1, n // 10)):
        damaged = work / "web-damaged"
        shutil.rmtree(damaged, ignore_errors=True)
        damaged.mkdir()
        if rng.random() < 0.5:
            data = json.loads(saved)
            target, key = _random_slot(rng, data)
            target[key] = json_value(rng)
            content = json.dumps(data)
        else:
            content = mutate_text(rng, saved, ["{", "]", '"', ",", "9" * 5000, "null", "-1", "1e999"])
        (damaged / f"{gid}.json").write_text(content)
        dc = TestClient(create_app(damaged, hint_for=stand_in_hint), base_url="http://127.0.0.1", raise_server_exceptions=False)
        tally.inputs["web: edited game file"] += 1
        for route in (f"/api/games/{gid}", f"/api/games/{gid}/final", f"/games/{gid}/replay"):
            r = dc.get(route)
            if r.status_code >= 500 or (leak := web_leaks(r.text, damaged)) is not None:
                tally.crashes.append(f"edited game file #{i} {route} → {r.status_code}: {r.text[:200]}")
        if (damaged / f"{gid}.json").read_text() != content:
            tally.changed.append(f"edited game file #{i}: rewritten")


def _random_slot(rng: random.Random, data: Any) -> tuple[Any, Any]:
    """A random (container, key) inside a JSON value, walking down from the top."""
    target: Any = data
    key: Any = rng.choice(list(data))
    while isinstance(target[key], (dict, list)) and target[key] and rng.random() < 0.75:
        target = target[key]
        key = rng.choice(list(target)) if isinstance(target, dict) else rng.randrange(len(target))
    return target, key


# ---- issue 34: signals, names on the terminal, numbers and seeds, output folders, seats ----------
NAME_TOKENS = [
    "[/oops]",
    "[link=http://evil.example]x[/link]",
    "[bold]",
    ":smile:",
    "\x1b]8;;http://e.example\x1b\\",
    "\x1b[2J",
    "\u202e",
    "\\[",
]
NUMBERS = ["nan", "-nan", "inf", "-inf", "Infinity", "1e999", "0.001", "0.05", "60", "61", "0", "-0.5", "abc"]
SEEDS = ["-1", "-3", "-99999999999999999999", "0", "1", "7", "99999999999999999999", "1.5", "x"]
OBSTACLES = [
    ("records", "file"),
    ("chunks", "file"),
    ("results.json", "dir"),
    ("report.md", "dir"),
    ("seats.svg", "dir"),
    ("records", "link"),
]


def _cli(args: list[str], cwd: Path, timeout: float = COMMAND_SECONDS) -> subprocess.CompletedProcess[str]:
    env = {"COLUMNS": "120", "PATH": "/usr/bin:/bin", "HOME": "/tmp", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "dreamhome", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout
    )


def _refused(proc: subprocess.CompletedProcess[str], *words: str) -> bool:
    """One line, exit 2, naming each of `words`."""
    lines = proc.stderr.strip().splitlines()
    return proc.returncode == 2 and len(lines) == 1 and all(w in lines[0] for w in words) and "Traceback" not in proc.stderr


def hostile_name(rng: random.Random) -> str:
    return "".join(rng.choice(NAME_TOKENS + ["a", " ", "é"]) for _ in range(rng.randint(1, 5)))


def issue34_round(rng: random.Random, k: int, tally: Tally, work: Path) -> None:
    """One input of each issue-34 surface of the command line (item 2's signals aside)."""
    from dreamhome.game.record import record_digest

    here = work / f"i34-{k}"
    here.mkdir()
    # item 7: a name from a record (a bot's) or a rules file (a card's, controls are refused by the compiler)
    name = hostile_name(rng)
    data = json.loads(rng.choice(sorted(GOLDEN.glob("*.v2.json"))).read_text())
    data["bots"][0] = name
    data["digest"] = record_digest(data)
    (here / "r.json").write_text(json.dumps(data))
    card = "".join(ch for ch in name if ch >= " " and ch != "\u202e" and ch != '"' and ch != "\\") or "x"
    (here / "m.dh").write_text(f'include "base.dh"\nroom kitchen "{card}" {{ points 1 6 9 }}\n', encoding="utf-8")
    for args in (
        ["replay", "r.json"],
        ["--rules", "m.dh", "rules", "show"],
        ["--rules", "m.dh", "score", str(EXAMPLES / "rulebook_example.json")],
    ):
        tally.inputs["issue 34: a name on the terminal"] += 1
        proc = _cli(args, here)
        if (
            proc.returncode not in (0, 1)
            or "\x1b" in proc.stdout
            or "internal error" in proc.stderr
            or "Traceback" in proc.stderr
        ):
            tally.crashes.append(f"name {name!r} through {args[:3]}: exit {proc.returncode}, {proc.stderr[-200:]!r}")
    # items 9 and 10: a number or a seed wherever one is read; refused exactly when not finite / negative
    value = rng.choice(NUMBERS)
    try:
        good = 0.001 <= float(value) <= 60 and value.lower() not in ("nan", "-nan")
    except ValueError:
        good = False
    tally.inputs["issue 34: --work"] += 1
    proc = _cli(["analyze", str(here), "--work", value], here)  # a folder of no record: refused either way
    if good == _refused(proc, "--work") or "Traceback" in proc.stderr:
        tally.crashes.append(f"analyze --work {value}: exit {proc.returncode}, {proc.stderr[-200:]!r}")
    seed = rng.choice(SEEDS)
    command = rng.choice(
        [["play", "--players", "2", "--bots", "random,random"], ["whatif", "base", "--games", "1", "--executor", "local"]]
    )
    tally.inputs["issue 34: --seed"] += 1
    proc = _cli([*command, "--seed", seed], here)
    good = seed.lstrip("-").isdigit() and not seed.startswith("-")
    if (proc.returncode == 0) != good or (not good and not _refused(proc, "--seed")):
        tally.crashes.append(f"{command[0]} --seed {seed}: exit {proc.returncode}, {proc.stderr[-200:]!r}")
    # item 13: an output the experiment could not write, planted in its folder
    where, kind = rng.choice(OBSTACLES)
    out = here / "exp"
    out.mkdir()
    if kind == "file":
        (out / where).write_text("in the way")
    elif kind == "dir":
        (out / where).mkdir()
    else:
        (out / where).symlink_to(out / "nowhere")
    tally.inputs["issue 34: an output in the way"] += 1
    proc = _cli(["whatif", "base", "--games", "20", "--chunk", "1", "--workers", "1", "--out", "exp", "--records"], here)
    if not _refused(proc, f"exp/{where}") or (out / "manifest.json").exists():
        tally.crashes.append(f"whatif --out with {where} a {kind}: exit {proc.returncode}, {proc.stderr[-200:]!r}")
    shutil.rmtree(here, ignore_errors=True)


def spiel_seats(rng: random.Random, n: int, tally: Tally) -> None:
    """Item 12: a seat the OpenSpiel game has not is refused when the bot is made, in one line."""
    try:
        from dreamhome.openspiel.game import DreamHomeGame
        from dreamhome.players.spiel_bot import DreamhomeSpielBot
    except ImportError:
        return
    games = {p: DreamHomeGame({"players": p}) for p in (2, 3, 4)}
    for _ in range(n):
        players, seat = rng.choice(list(games)), rng.choice([-2, -1, 0, 1, 2, 3, 4, 5, 16, True, "1", None])
        tally.inputs["issue 34: an OpenSpiel seat"] += 1
        valid = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players
        try:
            DreamhomeSpielBot(seat, "random", game=games[players])  # type: ignore[arg-type]
            made = True
        except ValueError as exc:
            made = False
            if "\n" in str(exc):
                tally.crashes.append(f"spiel seat {seat!r}: a message of several lines")
        if made != valid:
            tally.crashes.append(f"spiel seat {seat!r} of {players}: made={made}")


def run_issue34(rng: random.Random, n: int, signals: int, tally: Tally, work: Path) -> None:
    """Issue 34's process and terminal surfaces: `n` rounds of names, numbers, seeds and output
    folders, `signals` signals at seeded moments of the long commands (tests/helpers/signals)."""
    from tests.helpers.signals import COMMANDS, LATEST, signal_at

    for k in range(n):
        issue34_round(rng, k, tally, work)
    spiel_seats(rng, 20 * n, tally)
    for k in range(signals):
        command = rng.choice(sorted(COMMANDS))
        signum = rng.choice([2, 15])
        moment = rng.uniform(0.0, LATEST)
        tally.inputs[f"issue 34: a signal to {command}"] += 1
        place = work / f"sig-{k}"
        started = time.perf_counter()
        problems = signal_at(command, signum, moment, place)
        (tally.hangs if any("still running" in p for p in problems) else tally.crashes).extend(problems)
        if time.perf_counter() - started > COMMAND_SECONDS:
            tally.hangs.append(f"signal to {command}: {time.perf_counter() - started:.0f} s")
        shutil.rmtree(place, ignore_errors=True)


def table34_request(rng: random.Random, gid: str, key: str) -> tuple[str, str, str, bytes | None]:
    """One hostile request of issue 34's table surfaces: (kind, method, path, raw JSON body)."""
    huge = "9" * rng.choice([20, 400, 4301, 20000])
    nest = rng.choice([100, 1000, 20000])
    odd = rng.choice(
        ["\\ud800", "\\udfff", "a\\ud800b", "[/oops]", "[link=http://evil.example]x[/link]", "\\u001b[31m", "\\u202e"]
    )
    number = rng.choice(["NaN", "Infinity", "-Infinity", "1e999", "-0.0", huge, "-" + huge])
    act = f"/api/games/{gid}/act"
    choices: list[tuple[str, str, str, bytes | None]] = [
        ("huge integer", "GET", f"/api/rules?players={huge}", None),
        ("huge integer", "POST", act, f'{{"seat": {huge}, "key": "{key}", "index": 0, "version": 0}}'.encode()),
        ("huge integer", "POST", "/api/games", f'{{"seats": ["person", "random"], "seed": {huge}}}'.encode()),
        ("lone surrogate", "POST", act, f'{{"seat": 0, "key": "{odd}", "index": 0, "version": 0}}'.encode()),
        ("lone surrogate", "POST", f"/api/games/{gid}/hint", f'{{"seat": 0, "key": "{odd}"}}'.encode()),
        ("lone surrogate", "POST", "/api/games", f'{{"seats": ["person", "{odd}"]}}'.encode()),
        ("NaN", "POST", act, f'{{"seat": 0, "key": "{key}", "index": {number}, "version": 0}}'.encode()),
        ("NaN", "POST", act, f'{{"seat": 0, "key": "{key}", "index": 0, "version": {number}}}'.encode()),
        ("NaN", "POST", "/api/games", f'{{"seats": ["person", "random"], "seed": {number}}}'.encode()),
        ("deep nesting", "POST", "/api/games", ('{"seats": ' + "[" * nest + "]" * nest + "}").encode()),
        ("deep nesting", "POST", act, ("[" * nest + "]" * nest).encode()),
        ("markup in a name", "POST", "/api/games", f'{{"seats": ["person", "random"], "variant": "{odd}"}}'.encode()),
        ("markup in a name", "GET", f"/api/games/{odd.replace(chr(92), '%5C')}", None),
    ]
    return rng.choice(choices)


def run_table34(rng: random.Random, n: int, tally: Tally, work: Path) -> list[str]:
    """Issue 34's table surfaces through Starlette's TestClient: `n` hostile requests (huge
    integers, lone surrogates, NaN and infinities, deep nesting, markup and escapes in names) and
    symlinked store files, each answering 4xx in one line (never 5xx, nothing written through a
    link); `n` plain valid requests in the same run, for the time ratio. Returns the figures."""
    import statistics
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from dreamhome.web.app import create_app

    folder = work / "table34"
    app = create_app(folder, max_games=400, rate=None)
    app.state.live.close()
    c = TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False)
    made = c.post("/api/games", json={"seats": ["person", "random"], "seed": 5}).json()
    gid, key = made["game"], made["seats"][0]["url"].rpartition("key=")[2]
    hostile: list[float] = []
    plain: list[float] = []

    def check(kind: str, label: str, r: Any) -> None:
        tally.inputs[f"table 34: {kind}"] += 1
        if r.status_code >= 500:
            tally.crashes.append(f"table 34 {kind} {label} → {r.status_code}: {r.text[:200]}")
        elif r.status_code >= 400:
            try:
                body = r.json()
            except ValueError:
                body = None
            if not (isinstance(body, dict) and set(body) == {"error"} and "\n" not in str(body["error"])):
                tally.crashes.append(f"table 34 {kind} {label}: not one line: {r.text[:200]}")
        else:
            tally.crashes.append(f"table 34 {kind} {label}: accepted ({r.status_code})")

    for i in range(n):
        kind, method, path, body = table34_request(rng, gid, key)
        started = time.perf_counter()
        r = c.request(method, path, content=body, headers={"content-type": "application/json"} if body else {})
        hostile.append(time.perf_counter() - started)
        check(kind, f"{method} {path[:60]} {(body or b'')[:60]!r}", r)
        started = time.perf_counter()
        ok = c.get(f"/api/games/{gid}") if i % 2 else c.get("/api/rules?players=2")
        plain.append(time.perf_counter() - started)
        tally.inputs["table 34: plain request (baseline)"] += 1
        if ok.status_code != 200:
            tally.crashes.append(f"table 34 baseline → {ok.status_code}: {ok.text[:200]}")
    # A store file replaced by a link to a file outside: every route refuses, nothing written through.
    outside = work / "table34-outside"
    outside.mkdir(exist_ok=True)
    for i in range(max(1, n // 20)):
        victim = outside / f"victim{i}.json"
        victim.write_text("keep me")
        g = c.post("/api/games", json={"seats": ["person", "random"], "seed": i}).json()
        gpath = folder / f"{g['game']}.json"
        gpath.unlink()
        gpath.symlink_to(victim)
        gkey = g["seats"][0]["url"].rpartition("key=")[2]
        for method, path, body in (
            ("GET", f"/api/games/{g['game']}", None),
            ("POST", f"/api/games/{g['game']}/act", json.dumps({"seat": 0, "key": gkey, "index": 0, "version": 0}).encode()),
            ("GET", f"/games/{g['game']}/review", None),
        ):
            r = c.request(method, path, content=body, headers={"content-type": "application/json"} if body else {})
            if r.status_code < 400 and method == "GET":  # a game held in memory may show its view; no write
                tally.inputs["table 34: symlinked store file (answered from memory)"] += 1
            else:
                check("symlinked store file", f"{method} {path}", r)
        if victim.read_text() != "keep me":
            tally.changed.append(f"table 34: {victim} written through a link")
    ratio = statistics.median(hostile) / statistics.median(plain)
    return [
        f"table 34: {len(hostile)} hostile requests, median {statistics.median(hostile) * 1000:.2f} ms; "
        f"{len(plain)} plain requests, median {statistics.median(plain) * 1000:.2f} ms; ratio {ratio:.2f}"
    ]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--loaders", type=int, default=None, help="loader rounds (default 40000; quick 200)")
    ap.add_argument("--commands", type=int, default=None, help="commands run (default 1500; quick 30)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="commands side by side")
    ap.add_argument("--web", type=int, default=None, help="requests to the table (default 3000; quick 100)")
    ap.add_argument("--issue34", type=int, default=None, help="rounds of issue 34's CLI surfaces (default 40; quick 2)")
    ap.add_argument("--signals", type=int, default=None, help="signals sent to long commands (default 48; quick 4)")
    ap.add_argument(
        "--table34", type=int, default=None, help="hostile requests to issue 34's table surfaces (default 600; quick 40)"
    )
    ap.add_argument("--only", choices=["table34"], default=None, help="run this section alone")
    ns = ap.parse_args()
    loaders = ns.loaders if ns.loaders is not None else (200 if ns.quick else 40000)
    commands = ns.commands if ns.commands is not None else (30 if ns.quick else 1500)
    if ROOT not in Path(dreamhome.__file__).resolve().parents:
        print(
            f"warning: testing {Path(dreamhome.__file__).parent} in process, not {ROOT}/dreamhome: set PYTHONPATH={ROOT}",
            file=sys.stderr,
        )
    tally = Tally()
    started = time.perf_counter()
    figures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench_hostile.") as scratch:
        table34 = ns.table34 if ns.table34 is not None else (40 if ns.quick else 600)
        figures += run_table34(random.Random(ns.seed + 3434), table34, tally, Path(scratch))
        loader_seconds = time.perf_counter() - started
        if ns.only is None:
            run_loaders(random.Random(ns.seed), loaders, tally, Path(scratch))
            run_web(random.Random(ns.seed), ns.web if ns.web is not None else (100 if ns.quick else 3000), tally, Path(scratch))
            run_new_surfaces(random.Random(ns.seed + 1), max(20, loaders // 20), tally, Path(scratch))
            rounds = ns.issue34 if ns.issue34 is not None else (2 if ns.quick else 40)
            signals = ns.signals if ns.signals is not None else (4 if ns.quick else 48)
            run_issue34(random.Random(ns.seed + 34), rounds, signals, tally, Path(scratch))
            loader_seconds = time.perf_counter() - started
            run_commands(ns.seed, commands, ns.jobs, tally, Path(scratch))
    seconds = time.perf_counter() - started
    total = sum(tally.inputs.values())
    print(f"## Hostile inputs ({datetime.now(timezone.utc):%Y-%m-%d}, {os.cpu_count()} cores, {cpu_model()}, seed {ns.seed})\n")
    print("| input kind | inputs |")
    print("|---|---:|")
    for kind, count in sorted(tally.inputs.items()):
        print(f"| {kind} | {count} |")
    print(f"| **all** | **{total}** |\n")
    print(f"crashes: {len(tally.crashes)}  hangs: {len(tally.hangs)}  protected files changed: {len(tally.changed)}")
    for line in figures:
        print(line)
    print(f"time: {seconds:.0f} s ({loader_seconds:.0f} s loaders in process, {seconds - loader_seconds:.0f} s commands)")
    for title, items in (("crash", tally.crashes), ("hang", tally.hangs), ("changed", tally.changed)):
        for item in items[:20]:
            print(f"{title}: {item}")
    sys.exit(1 if tally.crashes or tally.hangs or tally.changed else 0)


if __name__ == "__main__":
    main()
