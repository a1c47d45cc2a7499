"""Benchmark compiling what users compile (issues 10 and 20): linear, one reader.

    python benchmarks/bench_compile.py                        # 500, 1,000, 2,000 declarations
    python benchmarks/bench_compile.py --against /tmp/old     # beside an older checkout, same run
    python benchmarks/bench_compile.py --quick                # a smoke run

Measured: every packaged rules file (base.dh and each catalogue variant file, compiled in process
after a warm-up, and base.dh in a fresh process after the imports, the figure a command pays), and
seeded generated files of 500, 1,000 and 2,000 declarations that compile cleanly, the playability
checks included (a deck under the 10,000-card cap), so the growth from 500 to 2,000 shows whether
compiling stays linear.

Each generated size is a stack of layer files, each including the one before it (the first
includes base.dh), that declare new room types with their points tables (annexes with a bonus
beside an earlier room), furnishings in those rooms, functionality bonuses over them, helpers and
tools with effects, roof colours, and that override fields of rooms an earlier layer declared. A
second file of each size is half errors (ids declared twice, furnishings in unknown rooms): every
error must be reported, still in linear time. Each figure is a median over repeats and stands
beside a plain baseline measured in the same run on the same text: Lark alone parsing the
declarations with the project's grammar (a parse tree, no AST, no checks).

`--against DIR` runs the same measurements with `PYTHONPATH=DIR` in a child process (a git
worktree of an older commit) and prints its figures beside these. Only the public API is used
(`compile_rules`, `BASE_RULES`, the grammar file), so this script measures any checkout.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402
from lark import Lark  # noqa: E402

from dreamhome.dsl.compiler import BASE_RULES, compile_rules  # noqa: E402
from dreamhome.errors import RulesError  # noqa: E402

BASE_ROOMS = ("living_room", "bedroom", "kitchen", "bathroom", "study", "garage")


@dataclass(frozen=True)
class Generated:
    """A generated rules stack: the file to compile and what it must compile to."""

    main: Path
    declarations: int
    new_rooms: int
    last_points: dict[str, tuple[int, ...]]  # every overridden room's final points table
    texts: tuple[str, ...]


def _points(rng: random.Random) -> tuple[int, ...]:
    """A points table that never falls as the room grows (PLACE-C)."""
    size = rng.randint(1, 4)
    table, value = [], rng.randint(0, 2)
    for _ in range(size):
        table.append(value)
        value += rng.randint(0, 4)
    return tuple(table)


def _layer(rng: random.Random, index: int, count: int, known: list[str], last_points: dict[str, tuple[int, ...]]) -> str:
    """One layer file: `count` declarations, about one in five an override of a room an
    earlier layer declared (each once: twice in one file is an error). New rooms are
    appended to `known`, every room's final points table recorded in `last_points`."""
    lines = [f'include "{"base.dh" if index == 0 else f"layer{index - 1}.dh"}"', ""]
    overridable = known[len(BASE_ROOMS) :]
    rng.shuffle(overridable)
    for k in range(count):
        roll = rng.random()
        if roll < 0.2 and overridable:
            ident = overridable.pop()
            pts = _points(rng)
            last_points[ident] = pts
            lines.append(f"room {ident} {{ points {' '.join(map(str, pts))} @review  count {rng.randint(1, 3)} }}")
            continue
        ident = f"l{index}_{k}"
        if roll < 0.6:
            pts = _points(rng)
            kind = rng.choice(("normal", "normal", "annex", "basement"))
            extra = f"\n  bonus {rng.randint(1, 3)} beside {rng.choice(known)}" if kind == "annex" else ""
            lines.append(
                f'room {ident} "Room {index}.{k}" {{\n  category {kind}\n  points {" ".join(map(str, pts))} @assumed'
                f"\n  count {rng.randint(1, 4)}{extra}\n  children {rng.randint(0, 1)}\n}}"
            )
            known.append(ident)
            last_points[ident] = pts
        elif roll < 0.75:
            where = f"room {rng.choice(known)}" if rng.random() < 0.8 else "outside"
            lines.append(f"furnishing {ident} {{ {where}  points {rng.randint(1, 3)}  count 1 }}")
        elif roll < 0.87:
            a, b = rng.choice(known), rng.choice(known)
            lines.append(f"bonus {ident} {{\n  points {rng.randint(1, 5)}\n  when has {a} and every upper floor has {b}\n}}")
        elif roll < 0.93:
            lines.append(f"helper {ident} {{ count 1  effect score(bonus_plus 1, empty_room {rng.randint(0, 2)}) }}")
        elif roll < 0.98:
            lines.append(f"tool {ident} {{ count 1  effect swap(house, track) before_take }}")
        else:
            lines.append(f"roof {ident} {{ count 6  windows {rng.randint(0, 2)} }}")
    return "\n".join(lines) + "\n"


def generate(directory: Path, declarations: int, seed: int, layers: int = 4) -> Generated:
    """Write a seeded stack of `layers` files holding `declarations` declarations in all."""
    rng = random.Random(seed)
    (directory / "base.dh").write_text(BASE_RULES.read_text(encoding="utf-8"), encoding="utf-8")
    known = list(BASE_ROOMS)
    last_points: dict[str, tuple[int, ...]] = {}
    texts = []
    per_layer = [declarations // layers + (1 if i < declarations % layers else 0) for i in range(layers)]
    for index, count in enumerate(per_layer):
        text = _layer(rng, index, count, known, last_points)
        (directory / f"layer{index}.dh").write_text(text, encoding="utf-8")
        texts.append(text)
    main = directory / f"layer{layers - 1}.dh"
    return Generated(main, declarations, len(known) - len(BASE_ROOMS), last_points, tuple(texts))


def generate_broken(directory: Path, declarations: int, seed: int) -> Path:
    """One file, `include "base.dh"` then `declarations` declarations of which half are
    errors (ids declared twice in the file, furnishings in rooms that do not exist,
    each with a did-you-mean): the shape that made compiling quadratic before issue 10."""
    rng = random.Random(seed)
    (directory / "base.dh").write_text(BASE_RULES.read_text(encoding="utf-8"), encoding="utf-8")
    lines = ['include "base.dh"']
    for i in range(declarations):
        kind = i % 4
        if kind == 0:
            lines.append(f"room r{i} {{ category normal  points {' '.join(map(str, _points(rng)))}  count 1 }}")
        elif kind == 1:
            lines.append(f"room r{i - 1} {{ points 1 3 }}")
        elif kind == 2:
            lines.append(f"furnishing f{i} {{ room q{rng.randrange(10**6)}  points 1  count 1 }}")
        else:
            lines.append(f"bonus b{i} {{ points 2  when has r{i - 3} and has kitchen }}")
    path = directory / "broken.dh"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def compile_errors(path: Path) -> int:
    """Compile a file expected to fail; how many errors it reported."""
    try:
        compile_rules(path)
    except RulesError as exc:
        return len(exc.diagnostics)
    raise AssertionError(f"{path} compiled, but it was generated with errors")


def timed(func, *args) -> float:
    """Wall time of one call, with the cyclic GC off as `compile_rules` runs it, so
    the baseline and the compile are timed under the same collector."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        func(*args)
        return time.perf_counter() - start
    finally:
        if was_enabled:
            gc.enable()
        gc.collect()


FRESH_PROBE = r"""
import json, time
import dreamhome.dsl.compiler as c   # imports (lark, networkx) are not counted
t0 = time.perf_counter(); c.compile_rules(); t1 = time.perf_counter()
print(json.dumps(t1 - t0))
"""


def plain_lark() -> Lark:
    """The baseline parser: the grammar file of the checkout under test, as the project builds it."""
    grammar = (Path(BASE_RULES).parent.parent / "dsl" / "grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False, cache=True)


def packaged_files() -> list[Path]:
    """Every rules file the package ships: base.dh and the catalogue's variant files."""
    root = Path(BASE_RULES).parent
    return [Path(BASE_RULES), *sorted((root / "variants").glob("*.dh"))]


def measure(sizes: list[int], repeats: int, seed: int) -> dict[str, object]:
    """Every figure of one checkout (the one on `sys.path`), as plain JSON values."""
    lark = plain_lark()
    base_rooms = len(compile_rules().rooms)  # also warms Lark's grammar cache and the imports
    fresh = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", FRESH_PROBE], capture_output=True, text=True, check=True, env=os.environ)
        fresh.append(json.loads(out.stdout))
    files = packaged_files()
    packaged = {}
    for path in files:
        packaged[path.name] = statistics.median(timed(compile_rules, path) for _ in range(repeats))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            directory = Path(tmp) / str(size)
            directory.mkdir()
            gen = generate(directory, size, seed + size)
            broken = generate_broken(directory, size, seed + size)
            # The baseline: Lark alone parsing the same declarations (base.dh and the layers, includes dropped).
            plain = BASE_RULES.read_text(encoding="utf-8") + "".join(t.split("\n", 1)[1] for t in gen.texts)
            runs: dict[str, list[float]] = {"compile": [], "broken": [], "parse": []}
            for _ in range(repeats):
                runs["compile"].append(timed(compile_rules, gen.main))
                runs["broken"].append(timed(compile_errors, broken))
                runs["parse"].append(timed(lark.parse, plain))
            rules = compile_rules(gen.main)  # raises if the playability checks (or any other) refuse it
            assert len(rules.rooms) == base_rooms + gen.new_rooms, "the generated rooms did not all compile"
            assert all(rules.room(r).points == pts for r, pts in gen.last_points.items()), "an override was lost"
            rows.append({"size": size, "errors": compile_errors(broken), **{k: statistics.median(v) for k, v in runs.items()}})
            print(f"{size}: compile {rows[-1]['compile']:.3f} s", file=sys.stderr)
    return {
        "fresh_base": statistics.median(fresh),
        "packaged": packaged,
        "packaged_total": sum(packaged.values()),
        "rows": rows,
    }


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--against", type=Path, help="an older checkout, measured in the same run")
    parser.add_argument("--json", action="store_true", help="print this checkout's figures as JSON (for --against)")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.repeats = [500, 2000], 2

    if args.json:
        print(json.dumps(measure(args.sizes, args.repeats, args.seed)))
        return
    old = None
    if args.against is not None:
        env = {**os.environ, "PYTHONPATH": str(args.against.resolve())}
        cmd = [sys.executable, __file__, "--json", "--repeats", str(args.repeats), "--seed", str(args.seed), "--sizes"]
        out = subprocess.run([*cmd, *map(str, args.sizes)], capture_output=True, text=True, check=True, env=env)
        old = json.loads(out.stdout)
    new = measure(args.sizes, args.repeats, args.seed)

    date = datetime.now(timezone.utc).isoformat(timespec="seconds")
    print(f"\n{date} — {machine()}; median of {args.repeats} repeats, seed {args.seed}\n")
    before = "| before " if old else ""
    print(f"| what is compiled {before}| now |")
    print("|---|" + ("---|" if old else "") + "---|")

    def row(label: str, key: object, now: float, fmt=_ms) -> None:
        was = ""
        if old:
            value = old["packaged"].get(key) if isinstance(key, str) and key.endswith(".dh") else old.get(key)  # type: ignore[attr-defined]
            was = f"| {fmt(value)} " if value is not None else "| — "
        print(f"| {label} {was}| {fmt(now)} |")

    row("base.dh, fresh process, after imports", "fresh_base", new["fresh_base"])  # type: ignore[arg-type]
    row(f"all {len(new['packaged'])} packaged rules files, in process", "packaged_total", new["packaged_total"])  # type: ignore[arg-type]
    for name, value in new["packaged"].items():  # type: ignore[attr-defined]
        row(f"`{name}`", name, value)
    print()
    print(
        "| declarations | compile" + (" before | compile now" if old else "") + " | per declaration | Lark parse alone, "
        "same text | compile / parse | half errors: compile" + (" before | now" if old else "") + " |"
    )
    print("|---|---|" + ("---|" if old else "") + "---|---|---|---|" + ("---|" if old else ""))
    old_rows = {r["size"]: r for r in old["rows"]} if old else {}
    for r in new["rows"]:  # type: ignore[attr-defined]
        o = old_rows.get(r["size"])
        comp_before = f" {o['compile']:.3f} s |" if old else ""
        broken_before = f" {o['broken']:.3f} s |" if old else ""
        print(
            f"| {r['size']:,} |{comp_before} {r['compile']:.3f} s | {r['compile'] / r['size'] * 1e6:.0f} µs "
            f"| {r['parse']:.3f} s | {r['compile'] / r['parse']:.2f}× |{broken_before} "
            f"{r['broken']:.3f} s ({r['errors']:,} errors) |"
        )


if __name__ == "__main__":
    main()
