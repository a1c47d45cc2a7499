"""Rules files drawn from the language's grammar, and the run that every such file must survive.

`rules_text(rng)` writes one rules file: mostly `include "base.dh"` plus random overrides of the
base cards' fields, new cards of every kind, bonuses, options, `game` and `board` declarations
with numbers drawn within and around their bounds, and variant blocks; some files are then
mutated into near-valid ones (a wrong word, a lost brace, a swapped number). The words come from
the grammar's own vocabulary (`dreamhome.vocabulary`) and the ids from the compiled base rules,
so a word added to the language is drawn without touching this file.

`rules_texts()` is the same generator as a hypothesis strategy (for the tests); the benchmark
calls `rules_text` with a seeded `random.Random` so its 2,000 files are reproducible.

`run_file(text, seed, bound)` is the contract of issue #11, item 5, for one file: `rules check`
either refuses it (exit 2) or passes it; a passed file then goes through `play` (random bots, a
few allowed player counts), `optimize` on a house `dreamhome.generate` builds, and `place`, all
through the command line in process (click's runner), in a forked child that is killed after
`bound` seconds. A *crash* is any exception but `DreamhomeError` (the project's clear errors,
which the command line turns into exit 2) or an exit status outside 0/1/2; a *hang* is a child
still running at the bound.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from dreamhome.vocabulary import (
    AWARDS,
    CARD_KIND_EFFECTS,
    CATEGORY_FLOOR_KIND,
    EFFECTS,
    FLOOR_KINDS,
    OPTIONS,
    PLACES,
    PROVENANCE_TAGS,
    ROOF_SCORING_FIELDS,
)

CHECK_OK, CHECK_REFUSED = "passed", "refused"
SOLVER_SECONDS = 3.0
"""--time-limit given to optimize and place: a hard instance ends early, so only a real hang reaches the bound."""
MAX_PLAYER_COUNTS = 3
MAX_PLAYERS_PLAYED = 6


@dataclass(frozen=True)
class BaseWords:
    """The ids of the compiled base rules the generator overrides and refers to."""

    rooms: tuple[str, ...]
    roofs: tuple[str, ...]
    furnishings: tuple[str, ...]
    helpers: tuple[str, ...]
    tools: tuple[str, ...]
    bonuses: tuple[str, ...]
    floors: tuple[str, ...]


@cache
def base_words() -> BaseWords:
    """Read from base.dh once, so the generator names no card of the game itself."""
    from dreamhome.dsl.compiler import compile_rules

    base = compile_rules()
    return BaseWords(
        tuple(r.id for r in base.rooms),
        tuple(r.id for r in base.roofs),
        tuple(f.id for f in base.furnishings),
        tuple(h.id for h in base.helpers),
        tuple(t.id for t in base.tools),
        tuple(b.id for b in base.bonuses),
        tuple(fl.name for fl in base.board.floors),
    )


# ---- the generator ----------------------------------------------------------------------------
def _num(rng: random.Random, lo: int, hi: int, far: bool = True) -> int:
    """Mostly within [lo, hi]; sometimes just outside, rarely far outside (unless `far` is off:
    board columns, where a million-column floor is a known hang, KNOWN_HANGS in the fuzz test)."""
    r = rng.random()
    if r < 0.85:
        return rng.randint(lo, hi)
    if r < 0.97 or not far:
        return rng.choice([lo - 1, hi + 1])
    return rng.choice([-(10**6), 10**6, 10**7, -1])


def _prov(rng: random.Random) -> str:
    if rng.random() < 0.8:
        return ""
    return " @" + (rng.choice(PROVENANCE_TAGS) if rng.random() < 0.9 else "guessed")


def _points_table(rng: random.Random, max_len: int = 4) -> str:
    n = rng.choice([1, 1, 2, 2, 3, max_len]) if rng.random() < 0.95 else 0
    vals = sorted(_num(rng, 0, 9) for _ in range(n))
    if rng.random() < 0.05 and len(vals) > 1:
        vals.reverse()  # near-valid: a falling table
    return "points " + " ".join(map(str, vals)) + _prov(rng)


def _room_ref(rng: random.Random, rooms: list[str]) -> str:
    return rng.choice(rooms) if rng.random() < 0.95 else rng.choice(rooms) + "x"


def _room_fields(rng: random.Random, rooms: list[str], new: bool) -> list[str]:
    fields = []
    if new or rng.random() < 0.3:
        cats = list(CATEGORY_FLOOR_KIND)
        fields.append("category " + (rng.choice(cats) if rng.random() < 0.95 else "attic") + _prov(rng))
    if new or rng.random() < 0.5:
        fields.append(_points_table(rng))
    if new or rng.random() < 0.4:
        fields.append(f"count {_num(rng, 0, 10)}" + _prov(rng))
    if rng.random() < 0.3:
        fields.append(f"children {_num(rng, 0, 3)}" + _prov(rng))
    if rng.random() < 0.2:
        fields.append(f"bonus {_num(rng, 0, 6)} beside {_room_ref(rng, rooms)}" + _prov(rng))
        if rng.random() < 0.9:  # only an annex takes a bonus (SCORE-ROOMS): mostly make it one, so it plays
            fields = [f for f in fields if not f.startswith("category ")] + ["category annex"]
    return fields


def _effect(rng: random.Random, kind: str) -> str:
    """One effect line for a card of `kind`: mostly an effect that kind carries (RES-EFFECTS), sometimes
    any effect of the vocabulary or an unknown one (near-valid)."""
    carried = CARD_KIND_EFFECTS.get(kind, tuple(EFFECTS))
    roll = rng.random()
    name = rng.choice(carried) if roll < 0.9 else rng.choice(list(EFFECTS)) if roll < 0.97 else "teleport"
    shape = EFFECTS.get(name)
    text = "effect " + name
    if shape is not None:
        if shape.keywords:
            keys = rng.sample(shape.keywords, rng.randint(1, len(shape.keywords)))
            text += "(" + ", ".join(f"{k} {_num(rng, 0, 3)}" for k in keys) + ")"
        elif shape.positional:
            args = [rng.choice(slot) if rng.random() < 0.93 else rng.choice(PLACES) for slot in shape.positional]
            text += "(" + ", ".join(args) + ")"
        if shape.timings and rng.random() < 0.8:
            text += " at " + rng.choice(shape.timings)
        for flag in shape.flags:
            if rng.random() < 0.6:
                text += " " + flag
    if rng.random() < 0.2:
        text += f" uses {_num(rng, 1, 3)}"
    return text


def _card(rng: random.Random, words: BaseWords, rooms: list[str], fresh: str) -> tuple[str, list[str]]:
    """One card declaration: an override of a base card (most often) or a new card; returns (text, new room ids)."""
    kind = rng.choice(["room", "room", "room", "roof", "furnishing", "token", "helper", "tool"])
    existing = {
        "room": words.rooms,
        "roof": words.roofs,
        "furnishing": words.furnishings,
        "token": (),
        "helper": words.helpers,
        "tool": words.tools,
    }[kind]
    new = not existing or rng.random() < 0.35
    ident = fresh if new else rng.choice(existing)
    fields: list[str]
    if kind == "room":
        fields = _room_fields(rng, rooms, new)
    elif kind == "roof":
        fields = []
        if new or rng.random() < 0.5:
            fields.append(f"count {_num(rng, 0, 8)}")
        if rng.random() < 0.5:
            fields.append(f"windows {_num(rng, 0, 3)}")
        if rng.random() < 0.3:
            colour = f"#{rng.randrange(1 << 24):06x}" if rng.random() < 0.9 else rng.choice(["red", "#12345", "#gggggg"])
            fields.append(f'colour "{colour}"')
    elif kind in ("furnishing", "token"):
        fields = []
        if new or rng.random() < 0.3:
            fields.append("outside" if rng.random() < 0.3 else f"room {_room_ref(rng, rooms)}")
        if new or rng.random() < 0.5:
            fields.append(f"points {_num(rng, 0, 4)}")
        if (kind == "furnishing" and new) or rng.random() < 0.3:
            fields.append(f"count {_num(rng, 0, 3)}")
        if kind == "token" and rng.random() < 0.7:
            fields.append("award " + (rng.choice(AWARDS) if rng.random() < 0.9 else "last_complete"))
    else:
        fields = []
        if new or rng.random() < 0.5:
            fields.append(f"count {_num(rng, 0, 3)}")
        if new or rng.random() < 0.8:
            fields.extend(_effect(rng, kind) for _ in range(rng.choice([1, 1, 2])))
    if rng.random() < 0.03:
        fields.append(rng.choice(["windows 1", "award first_complete", "category normal", "outside"]))  # maybe misplaced
    name = f' "{ident.replace("_", " ").title()}"' if rng.random() < 0.3 else ""
    added = [ident] if kind == "room" and new else []
    return f"{kind} {ident}{name} {{ " + "  ".join(fields) + " }", added


def _bonus(rng: random.Random, rooms: list[str], ident: str) -> str:
    conds = []
    for _ in range(rng.randint(1, 3)):
        room = _room_ref(rng, rooms)
        if rng.random() < 0.5:
            kind = rng.choice(FLOOR_KINDS) if rng.random() < 0.95 else "lower"
            conds.append(f"every {kind} floor has {room}")
        else:
            conds.append(f"has {room}")
    return f"bonus {ident} {{ points {_num(rng, 0, 5)}  when " + " and ".join(conds) + " }"


def _roof_scoring(rng: random.Random) -> str:
    names = list(ROOF_SCORING_FIELDS)
    if rng.random() < 0.1:
        names = rng.sample(names, len(names) - 1)  # near-valid: a required field missing
    parts = [f"{n} {_num(rng, 1 if n == 'size' else 0, 6 if n == 'size' else 10)}" for n in names]
    return "roof_scoring { " + "  ".join(parts) + " }"


def _option(rng: random.Random) -> str:
    name = rng.choice(list(OPTIONS)) if rng.random() < 0.95 else "speed"
    values = OPTIONS.get(name, ("fast",))
    value = rng.choice(values) if rng.random() < 0.93 else rng.choice(["maybe", "1"])
    return f"option {name} = {value}"


def _game(rng: random.Random) -> str:
    lo = _num(rng, 1, 4)
    hi = lo + _num(rng, 0, 3)
    fields = [f"players {lo}..{hi}"]
    if rng.random() < 0.6:
        fields.append(f"rounds {_num(rng, 6, 12)}")
    if rng.random() < 0.5:
        fields.append(f"deal rooms {_num(rng, 2, 5)} resources {_num(rng, 1, 4)}")
    if rng.random() < 0.5:
        d = _num(rng, 1, 4)
        fields.append(f"discard players {d}..{d + _num(rng, 0, 2)}")
    rng.shuffle(fields)
    return "game dream_home { " + "  ".join(fields) + " }"


def _board(rng: random.Random) -> str:
    """Floors top first; an upper floor or two, usually a basement row, sometimes a roof pile."""
    lines = []
    names = []
    n_upper = rng.choice([1, 2, 2, 3])
    for i in range(n_upper):
        lo = _num(rng, 0, 2, far=False)
        hi = lo + _num(rng, 0, 4, far=False)
        names.append(f"f{i}")
        lines.append(f"floor f{i} upper columns {lo}..{hi}")
    if rng.random() < 0.85:
        lo = _num(rng, 0, 4, far=False)
        kind = rng.choice(FLOOR_KINDS) if rng.random() < 0.95 else "attic"
        lines.append(f"floor cellar {kind} columns {lo}..{lo + _num(rng, 0, 2, far=False)}")
    if rng.random() < 0.6:
        lo = _num(rng, 0, 2, far=False)
        under = rng.choice(names) if rng.random() < 0.95 else "nowhere"
        lines.append(f"roof_pile under {under} columns {lo}..{lo + _num(rng, 0, 2, far=False)}")
    return "board {\n  " + "\n  ".join(lines) + "\n}"


def _mutate(rng: random.Random, text: str) -> str:
    """A near-valid file: one wrong word, a lost brace or parenthesis, a duplicated or cut line."""
    how = rng.randrange(5)
    lines = text.split("\n")
    if how == 0:
        words = [w for w in set(text.replace("{", " ").replace("}", " ").split()) if w.isidentifier()]
        if words:
            w = rng.choice(sorted(words))
            return text.replace(w, rng.choice([w[:-1] or "x", w + "s", "roomm", "effect", "floor"]), 1)
    if how == 1:
        for ch in rng.sample(["{", "}", "(", ")", '"'], 5):
            positions = [i for i, c in enumerate(text) if c == ch]
            if positions:
                i = rng.choice(positions)
                return text[:i] + text[i + 1 :]
    if how == 2 and len(lines) > 1:
        i = rng.randrange(len(lines))
        return "\n".join(lines[: i + 1] + lines[i:])
    if how == 3:
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        if digits:
            i = rng.choice(digits)
            return text[:i] + rng.choice(["0", "-", "99", ".."]) + text[i + 1 :]
    cut = rng.randrange(len(text) + 1)
    return text[:cut]


def rules_text(rng: random.Random) -> str:
    """One rules file drawn from the grammar: valid more often than not, near-valid otherwise."""
    words = base_words()
    rooms = list(words.rooms)
    decls: list[str] = []
    if rng.random() < 0.93:
        decls.append('include "base.dh"')
    fresh = iter(f"new{i}" for i in range(1000))
    for _ in range(rng.choice([0, 1, 2, 3, 4, 6])):
        what = rng.random()
        if what < 0.55:
            text, added = _card(rng, words, rooms, next(fresh))
            rooms.extend(added)
            decls.append(text)
        elif what < 0.65:
            decls.append(_bonus(rng, rooms, rng.choice(words.bonuses) if rng.random() < 0.3 else next(fresh)))
        elif what < 0.73:
            decls.append(_option(rng))
        elif what < 0.81:
            decls.append(_game(rng))
        elif what < 0.88:
            decls.append(_board(rng))
        elif what < 0.93:
            decls.append(_roof_scoring(rng))
        else:
            inner = [
                _option(rng) if rng.random() < 0.4 else _card(rng, words, rooms, next(fresh))[0] for _ in range(rng.randint(1, 2))
            ]
            decls.append(f"variant v{rng.randrange(100)} {{\n  " + "\n  ".join(inner) + "\n}")
    text = "\n".join(decls) + "\n"
    if rng.random() < 0.2:
        text = _mutate(rng, text)
    return text


def rules_texts() -> st.SearchStrategy[str]:
    """`rules_text` as a hypothesis strategy: hypothesis drives (and shrinks) the generator's random choices."""
    return st.randoms(use_true_random=False).map(rules_text)


# ---- the run every file must survive ----------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """What one rules file did: its `rules check` verdict, then a crash or hang if any."""

    check: str  # CHECK_OK or CHECK_REFUSED, or "" when check itself crashed
    crash: str = ""  # the command and the traceback (or odd exit status)
    hang: bool = False
    seconds: float = 0.0
    steps: tuple[str, ...] = field(default_factory=tuple)  # the commands run, with their exit status


class _CrashError(Exception):
    """A command of the run ended in a crash; carries the command and its traceback."""


def _invoke(args: list[str], steps: list[str]) -> int:
    """`dreamhome ARGS…` in process; exit 0, 1 or 2 is an answer, anything else a crash."""
    from click.testing import CliRunner

    from dreamhome.cli import main
    from dreamhome.errors import DreamhomeError

    result = CliRunner().invoke(main, args, catch_exceptions=True)
    exc = result.exception
    code = result.exit_code
    if exc is not None and not isinstance(exc, SystemExit):
        if isinstance(exc, DreamhomeError):
            code = 2  # the entry point turns it into one line and exit 2
        else:
            tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            raise _CrashError(f"dreamhome {' '.join(args)}\n{tb}")
    command = args[2] if args[0] == "--rules" else " ".join(args[:2])
    steps.append(f"{command}: {code}")
    if code not in (0, 1, 2):
        raise _CrashError(f"dreamhome {' '.join(args)}: exit {code}\n{result.output[-2000:]}")
    return code


def player_counts(lo: int, hi: int) -> list[int]:
    """At most `MAX_PLAYER_COUNTS` allowed player counts: the least, one between, the most (capped)."""
    top = min(hi, max(lo, MAX_PLAYERS_PLAYED))
    return sorted({lo, (lo + top) // 2, top})[:MAX_PLAYER_COUNTS]


def _exercise(text: str, seed: int, workdir: str) -> tuple[str, list[str]]:
    """The whole run of one file, in this process; raises `_CrashError`."""
    from dreamhome.dsl.compiler import compile_rules
    from dreamhome.errors import DreamhomeError
    from dreamhome.generate import random_house
    from dreamhome.house import dump_house

    steps: list[str] = []
    path = os.path.join(workdir, "fuzz.dh")
    Path(path).write_text(text, encoding="utf-8")
    if _invoke(["rules", "check", path], steps) != 0:
        return CHECK_REFUSED, steps
    try:
        rules = compile_rules(path)
    except DreamhomeError as exc:
        raise _CrashError(f"rules check passed {path} but compile_rules refused it: {exc}") from None
    rng = random.Random(seed)
    game = rules.game
    for n in player_counts(game.min_players, game.max_players):
        _invoke(
            ["--rules", path, "play", "--players", str(n), "--bots", ",".join(["random"] * n), "--seed", str(seed), "--json"],
            steps,
        )
    try:
        full = random_house(rules, rng)
        partial = random_house(rules, rng, cards=max(0, rules.board.size - 1 - rng.randrange(4)))
    except Exception:  # noqa: BLE001 - a crash of generate.py is a finding, reported with its traceback
        raise _CrashError(f"generate.random_house under {path}\n{traceback.format_exc()}") from None
    house_path = os.path.join(workdir, "house.json")
    Path(house_path).write_text(dump_house(rules, full), encoding="utf-8")
    _invoke(["--rules", path, "optimize", house_path, "--time-limit", str(SOLVER_SECONDS), "--json"], steps)
    Path(house_path).write_text(dump_house(rules, partial), encoding="utf-8")
    card = rng.choice([r.id for r in rules.rooms])
    limit = str(SOLVER_SECONDS)
    _invoke(["--rules", path, "place", house_path, card, "--time-limit", limit, "--processes", "1", "--json"], steps)
    return CHECK_OK, steps


def _child(text: str, seed: int, conn) -> None:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory(prefix="dh-fuzz-") as workdir:
        try:
            verdict, steps = _exercise(text, seed, workdir)
            conn.send((verdict, "", steps))
        except _CrashError as crash:
            conn.send(("", str(crash), []))
        except BaseException:  # noqa: BLE001 - anything at all is reported, never lost
            conn.send(("", traceback.format_exc(), []))
    conn.close()


def run_file(text: str, seed: int = 0, bound: float = 20.0) -> Outcome:
    """Run one file's contract in a forked child killed after `bound` seconds (a hang, reported as such)."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    start = time.perf_counter()
    proc = ctx.Process(target=_child, args=(text, seed, child), daemon=True)
    proc.start()
    child.close()
    return _collect(proc, parent, bound, start)


def _command_child(text: str, args: tuple[str, ...], files: dict[str, str], conn) -> None:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory(prefix="dh-fuzz-") as workdir:
        paths = {"rules": os.path.join(workdir, "fuzz.dh")}
        Path(paths["rules"]).write_text(text, encoding="utf-8")
        for name, content in files.items():
            paths[name] = os.path.join(workdir, name + ".json")
            Path(paths[name]).write_text(content, encoding="utf-8")
        steps: list[str] = []
        try:
            _invoke([a.format(**paths) for a in args], steps)
            conn.send(("", "", steps))
        except _CrashError as crash:
            conn.send(("", str(crash), []))
        except BaseException:  # noqa: BLE001 - anything at all is reported, never lost
            conn.send(("", traceback.format_exc(), []))
    conn.close()


def run_command(text: str, args: tuple[str, ...], bound: float = 20.0, files: dict[str, str] | None = None) -> Outcome:
    """One command line in a forked child killed after `bound` seconds: `{rules}` stands for the file holding
    `text`, `{NAME}` for a JSON file holding `files[NAME]`."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    start = time.perf_counter()
    proc = ctx.Process(target=_command_child, args=(text, args, files or {}, child), daemon=True)
    proc.start()
    child.close()
    return _collect(proc, parent, bound, start)


def _collect(proc, parent, bound: float, start: float) -> Outcome:  # type: ignore[no-untyped-def]
    """The child's answer, or a hang when none came within `bound` seconds."""
    got = parent.poll(bound)
    seconds = time.perf_counter() - start
    if not got:
        proc.kill()
        proc.join()
        return Outcome("", hang=True, seconds=seconds)
    try:
        verdict, crash, steps = parent.recv()
    except EOFError:
        verdict, crash, steps = "", f"the child died without an answer (exit {proc.exitcode})", []
    proc.join(5)
    if proc.is_alive():
        proc.kill()
        proc.join()
    return Outcome(verdict, crash, False, seconds, tuple(steps))
