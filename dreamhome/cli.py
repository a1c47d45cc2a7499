"""The `dreamhome` command: wires subcommands to library functions.

Bad input of any kind ends in one line on stderr and exit status 2; the
answer "no" (an illegal house for `check`) is exit status 1.
"""

from __future__ import annotations

import errno
import functools
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import NoReturn

import click

from dreamhome.errors import DreamhomeError, RulesError
from dreamhome.fileio import OutputError, check_output, printable, write_atomic
from dreamhome.interrupt import Interrupted, interrupted

EXIT_NO = 1
EXIT_BAD = 2
EXIT_INTERRUPTED = 130
DEBUG_ENV = "DREAMHOME_DEBUG"
MAX_TIME_LIMIT = 7 * 24 * 3600.0
"""Longest --time-limit accepted (a week): past it the number is a typo, not a wish."""


MAX_MESSAGE = 1000
"""Longest message `say` prints whole: past it the middle is cut (a 3,000-character bot name or a
pasted file echoed back would bury the one line it belongs to)."""


def say(message: str) -> None:
    """One line on stderr: controls escaped, at most about `MAX_MESSAGE` characters, and encodable
    whatever the stream's encoding."""
    stream = sys.stderr
    encoding = getattr(stream, "encoding", None) or "utf-8"
    text = printable(message)
    if len(text) > MAX_MESSAGE:
        text = f"{text[: MAX_MESSAGE * 2 // 3]} … ({len(text) - MAX_MESSAGE:,} characters cut) … {text[-MAX_MESSAGE // 3 :]}"
    line = f"dreamhome: {text}\n".encode(encoding, "backslashreplace").decode(encoding)
    try:
        stream.write(line)
        stream.flush()
    except (OSError, ValueError):
        pass  # stderr itself is gone: nothing left to tell


def fail(message: str) -> NoReturn:
    say(message)
    raise click.exceptions.Exit(EXIT_BAD)


class Seconds(click.ParamType):
    """A positive, finite number of seconds up to `MAX_TIME_LIMIT` (nan and inf refused)."""

    name = "seconds"

    def convert(self, value, param, ctx) -> float:
        if isinstance(value, float):
            seconds = value
        else:
            try:
                seconds = float(value)
            except (TypeError, ValueError):
                self.fail(f"{printable(repr(value))} is not a number of seconds", param, ctx)
        if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIME_LIMIT):
            self.fail(f"{printable(str(value))}: expected seconds above 0 and at most {MAX_TIME_LIMIT:.0f}", param, ctx)
        return seconds


SECONDS = Seconds()


class FiniteRange(click.FloatRange):
    """click's FloatRange without nan and the infinities: every comparison with nan is false, so
    `--work nan` passed the range and every solve of `analyze` got nan work (issue 34, item 9)."""

    def convert(self, value, param, ctx) -> float:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{printable(str(value))} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)


class Seed(click.ParamType):
    """A game seed: a whole number from 0 (dreamhome.seeds; issue 34, item 10)."""

    name = "seed"

    def convert(self, value, param, ctx) -> int:
        from dreamhome.seeds import seed_problem

        number = click.INT.convert(value, param, ctx)
        problem = seed_problem(number)
        if problem is not None:
            self.fail(problem, param, ctx)
        return number


SEED = Seed()


def outputs_or_fail(outputs: Iterable[str | None], inputs: Iterable[str | None] = (), stdout_ok: bool = False) -> None:
    """Check every output path of a command before its work starts (fileio.check_output)."""
    given = [o for o in outputs if o]
    sources = list(inputs)
    for k, path in enumerate(given):
        try:
            check_output(path, inputs=sources, others=given[:k], stdout_ok=stdout_ok)
        except OutputError as exc:
            fail(str(exc))


def write_or_fail(path: str, content: str | bytes) -> None:
    """Write an output file atomically (`-`: stdout); a failure is one line and exit 2."""
    if path == "-":
        text = content.decode("utf-8") if isinstance(content, bytes) else content
        click.echo(text, nl=False)
        return
    try:
        write_atomic(path, content)
    except OutputError as exc:
        fail(str(exc))


def _console():
    """The terminal's console: names from files printed literally, never as markup or escapes."""
    from dreamhome.render.console import SafeConsole

    return SafeConsole()


def rules_options(func):
    """`--rules FILE`, `--variant NAME` and `--lang LANG`, accepted before or after the subcommand
    (after it, `--lang` wins over the one before it: the nearer word is the one meant)."""

    @click.option(
        "--rules",
        "rules_path",
        type=click.Path(dir_okay=False),
        default=None,
        help="Rules file to use (default: the packaged base rules).",
    )
    @click.option(
        "--variant",
        "variants",
        multiple=True,
        metavar="NAME",
        help="Switch on a variant of the rules (repeatable): a variant block of the rules in use or a file of rules/variants/.",
    )
    @click.option(
        "--lang",
        "sub_lang",
        default=None,
        metavar="LANG",
        help="Language of card names and labels: en, ru, fr, hu (as the global --lang, which it overrides).",
    )
    @functools.wraps(func)
    def wrapper(*args, rules_path=None, variants=(), sub_lang=None, **kwargs):
        ctx = click.get_current_context()
        root = ctx.find_root()
        if root.obj is None:
            root.obj = {}
        parent = root.obj
        if sub_lang is not None:
            from dreamhome.i18n import UnknownLanguageError, check_lang

            try:
                parent["lang"] = check_lang(sub_lang)
            except UnknownLanguageError as exc:
                fail(f"--lang: {exc}")
        path = rules_path or parent.get("rules_path")
        chosen = tuple(parent.get("variants", ())) + tuple(variants)
        kwargs["rules_spec"] = (path, chosen)
        return func(*args, **kwargs)

    return wrapper


def rules_file_or_fail(path: str) -> None:
    """Refuse a rules file that is not a regular file (`<(cat f.dh)`, /dev/zero) in one line, before
    anything reads it. The compiler reads each rules file once, under the input size cap
    (`dsl.compiler.read_rules_text`): a pipe read here first would reach it empty."""
    from dreamhome.dsl.compiler import rules_file_problem

    if path == "-":
        fail("-: rules cannot come from standard input (they include other files, found beside them); give a file")
    problem = rules_file_problem(path)
    if problem is not None:
        fail(f"{printable(path)}: cannot read rules file: {problem}")


def absolute_includes() -> bool:
    """--allow-absolute-includes, given to the command group."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    return bool((obj or {}).get("absolute_includes"))


def current_lang() -> str:
    """--lang (or DREAMHOME_LANG), given to the command group: the language of card names and labels."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    return str((obj or {}).get("lang") or "en")


def resolve_room_card(rules, card: str) -> str:
    """CARD as a person types it: an id, or the card's name in any language, any case
    (`Ruleset.find_cards`). A text nothing matches is passed on as it stands, so the command's
    own message (with its "did you mean") still says what is wrong with it."""
    found = rules.find_cards(card)
    if len(found) > 1:
        fail(f"{card!r} names several cards ({', '.join(found)}); give the id")
    if found and not rules.has_room(found[0]):
        fail(f"{card!r} is the card '{found[0]}', not a room card")
    return found[0] if found else card


def load_rules(spec):
    from dreamhome.dsl.compiler import compile_rules

    path, variants = spec
    if path:
        rules_file_or_fail(path)
    try:
        return compile_rules(path, variants, allow_absolute_includes=absolute_includes())
    except RulesError as exc:
        first = exc.diagnostics[0].one_line() if exc.diagnostics else "rules error"
        more = len(exc.diagnostics) - 1
        hint = f" (+{more} more; run `dreamhome rules check {path or 'FILE'}`)" if more > 0 else ""
        fail(first + hint)


def load_house_or_fail(rules, path: str):
    from dreamhome.house import load_house

    try:
        return load_house(rules, path)
    except DreamhomeError as exc:
        fail(str(exc))


def emit_json(data) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--rules",
    "rules_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Rules file to use for every subcommand (default: the packaged base rules).",
)
@click.option("--variant", "variants", multiple=True, metavar="NAME", help="Switch on a variant of the rules (repeatable).")
@click.option(
    "--allow-absolute-includes",
    "absolute_includes",
    is_flag=True,
    help="Let rules files include other rules files by absolute path (default: beside the file or packaged).",
)
@click.option(
    "--lang",
    "lang",
    default=None,
    metavar="LANG",
    help="Language of card names and labels: en, ru, fr, hu (default: $DREAMHOME_LANG, else en).",
)
@click.version_option(package_name="dreamhome")
@click.pass_context
def main(ctx, rules_path, variants, absolute_includes, lang):
    """Dream Home as formal rules: check, score and explain houses.

    A house is a `dreamhome.house/1` JSON file (see docs/formats.md); `-` reads
    it from stdin. Input files are read up to 16 MiB (set DREAMHOME_MAX_INPUT_BYTES
    to change it). An output file is checked before the work starts and never
    replaces an input, a device or a directory. Exit status: 0 success, 1 the
    answer is "no" (an illegal house for `check`; crashed games for `whatif`),
    2 bad input, with a one-line reason on stderr.

    \b
    Examples:
      dreamhome score examples/rulebook_example.json
      dreamhome check house.json --json
      dreamhome optimize examples/endgame.json
      dreamhome rules show --assumed
      dreamhome --variant NAME rules show
      dreamhome --lang ru place house.json кухня
    """
    from dreamhome.i18n import UnknownLanguageError, check_lang, language_from_env

    try:
        chosen = check_lang(lang) if lang is not None else language_from_env()
    except UnknownLanguageError as exc:
        fail(f"--lang: {exc}" if lang is not None else f"DREAMHOME_LANG: {exc}")
    ctx.obj = {"rules_path": rules_path, "variants": variants, "absolute_includes": absolute_includes, "lang": chosen}


@main.command()
@click.argument("house_path", metavar="HOUSE", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the picture.")
@click.option("--final", is_flag=True, help="Also check the game's end (ROUND-6): a card per round, no scaffold left.")
@rules_options
def check(house_path, as_json, final, rules_spec):
    """Is HOUSE legal? Lists each broken rule by id and cell (exit 1 if not)."""
    from rich.text import Text

    from dreamhome.i18n import text
    from dreamhome.legality import final_state_violations, house_violations
    from dreamhome.render.house_text import held_text, house_grid
    from dreamhome.render.violation_text import violation_text

    lang = current_lang()
    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    violations = (final_state_violations if final else house_violations)(rules, house)
    if as_json:
        emit_json({"legal": not violations, "violations": [v.to_json() for v in violations]})
    else:
        console = _console()
        console.print(house_grid(rules, house, violations, lang=lang))
        console.print(held_text(rules, house, lang))
        if violations:
            count = text("check.violations", lang, count=len(violations))
            console.print(Text.assemble((text("check.illegal", lang), "bold #d0312d"), f": {count}"))
            for v in violations:  # the sentence in the language, names as written (the console reads no markup)
                console.print(Text.assemble("  ", (v.rule, "bold"), f" {v.cell or ''}: {violation_text(rules, v, lang)}"))
        else:
            console.print(text("check.legal", lang), style="bold #2e9b46")
    if violations:
        raise click.exceptions.Exit(EXIT_NO)


def require_legal(rules, house, house_path) -> None:
    from dreamhome.legality import house_violations, summarize_violations

    violations = house_violations(rules, house)
    if violations:
        fail(f"{house_path}: the house is illegal ({summarize_violations(violations)}); see `dreamhome check`")


@main.command()
@click.argument("house_path", metavar="HOUSE", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the picture.")
@click.option("--final", is_flag=True, help="Score it as a game's result: refuse a house a finished game cannot leave (ROUND-6).")
@rules_options
def score(house_path, as_json, final, rules_spec):
    """Score HOUSE as it stands, line by line (best 4 roofs, no helper action taken)."""
    from dreamhome.render.house_text import house_with_score
    from dreamhome.scoring import FinalStateError, final_score, score_house

    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    require_legal(rules, house, house_path)
    if final:
        try:
            final_score(rules, house)
        except FinalStateError as exc:
            fail(f"{house_path}: {exc}")
    result = score_house(rules, house)
    if as_json:
        emit_json(result.to_json(rules))
    else:
        console = _console()
        console.print(house_with_score(rules, house, result, console.width, current_lang()))


@main.command()
@click.argument("house_path", metavar="HOUSE", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the pictures.")
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="Stop the solver after this long and return the best house found (optimal: false).",
)
@click.option(
    "--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="CP-SAT search workers (1 is deterministic)."
)
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the house after the actions to this file (dreamhome.house/1).",
)
@click.option(
    "--svg",
    "svg_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also draw the house before and after, with the actions, to this SVG file.",
)
@rules_options
def optimize(house_path, as_json, time_limit, workers, save_path, svg_path, rules_spec):
    """The best final score of a finished HOUSE with its end-game helpers.

    Every order of the end-game helpers' swaps and takes is considered (END-ORDER); helpers
    that score are counted. The answer is proven optimal by CP-SAT
    unless --time-limit cut the search short.
    """
    from dreamhome.house import dump_house
    from dreamhome.solver.optimize import best_final_score

    outputs_or_fail([save_path, svg_path], [house_path, rules_spec[0]])
    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    try:
        result = best_final_score(rules, house, time_limit=time_limit, workers=workers, source=house_path)
    except DreamhomeError as exc:
        fail(str(exc))
    if as_json:
        emit_json(result.to_json(rules))
    else:
        _print_optimized(rules, house, result)
    # Files last: a command interrupted while it prints has written nothing (each write is atomic).
    if save_path:
        write_or_fail(save_path, dump_house(rules, result.house))
    if svg_path:
        from dreamhome.render.house_svg import before_after_svg

        steps = [step.explain(rules) for step in result.steps]
        _write_picture(svg_path, before_after_svg(rules, house, result.house, steps, current_lang()))


def _print_optimized(rules, house, result) -> None:
    """`optimize`'s picture: the house before, the end-game actions, the house after."""
    from rich.text import Text

    from dreamhome.render.house_text import house_with_score
    from dreamhome.scoring import score_house

    console = _console()
    console.rule(Text("before", style="bold"))
    console.print(house_with_score(rules, house, score_house(rules, house), console.width, current_lang()))
    console.rule(Text("end-game actions", style="bold"))
    if not result.steps:
        console.print("no helper action improves this house")
    for n, step in enumerate(result.steps, 1):
        console.print(f"{n}. {step.explain(rules)}")  # card names as written (the console reads no markup)
    console.rule(Text("after", style="bold"))
    console.print(house_with_score(rules, result.house, score_house(rules, result.house), console.width, current_lang()))
    proof = "proven optimal" if result.optimal else f"not proven optimal ({result.status})"
    console.print(
        Text.assemble(
            (f"best final score: {result.total}", "bold"), f" ({proof}, {result.seconds:.2f} s; {result.start} before any action)"
        )
    )


@main.command()
@click.argument("house_path", metavar="HOUSE", type=click.Path(dir_okay=False))
@click.argument("card", metavar="CARD")
@click.option(
    "--pool",
    "pool_path",
    type=click.Path(dir_okay=False),
    default=None,
    help='Cards still to come: {"rooms": {"<room id>": 3, ...}} (default: the manifest minus the house and its discard pile).',
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="Time for all placements together; unproven bounds are marked.",
)
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="CP-SAT search workers per placement.")
@click.option(
    "--processes",
    type=click.IntRange(1, 256),
    default=None,
    help="Placements solved side by side (default: one per core when the house holds a swap helper, else 1). "
    "The answer does not depend on it.",
)
@rules_options
def place(house_path, card, pool_path, as_json, time_limit, workers, processes, rules_spec):
    """Where should CARD (a room card: its id, or its name in any language) go in HOUSE? Every legal placement, best first.

    Each placement's bound is the best final score the house could still reach
    if every remaining free cell were filled with the best cards still to come,
    no further resource card came, and the house's end-game helpers were used
    optimally. Ties: face up before face down, then board order.
    """
    from rich.table import Table
    from rich.text import Text as RichText

    from dreamhome.fileio import display_name, read_json
    from dreamhome.solver.place import placement_bounds, read_pool

    if pool_path == "-" and house_path == "-":
        fail("-: the house and the pool cannot both come from stdin")
    from dreamhome.i18n import text

    lang = current_lang()
    rules = load_rules(rules_spec)
    card = resolve_room_card(rules, card)
    house = load_house_or_fail(rules, house_path)
    pool = None
    try:
        if pool_path:
            pool = read_pool(rules, read_json(pool_path, "pool file"), display_name(pool_path))
        bounds = placement_bounds(rules, house, card, pool=pool, time_limit=time_limit, workers=workers, processes=processes)
    except DreamhomeError as exc:
        fail(str(exc))
    if as_json:
        emit_json({"card": card, "placements": [b.to_json(rules) for b in bounds]})
        return
    table = Table(title=RichText(text("place.title", lang, card=rules.card_name(card, lang).lower())), header_style="bold")
    for col in ("place.rank", "place.cell", "place.how", "place.bound"):
        table.add_column(text(col, lang))
    table.add_column("")
    for rank, b in enumerate(bounds, 1):
        table.add_row(
            str(rank),
            rules.board.cells[b.placement.cell],
            text("place.face_down" if b.placement.face_down else "place.face_up", lang),
            str(b.bound),
            "" if b.optimal else text("place.not_proven", lang),
        )
    _console().print(table)
    if not bounds:
        click.echo(text("place.none", lang))


@main.command("max")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the picture.")
@click.option(
    "--engine",
    type=click.Choice(["search", "cpsat"]),
    default="search",
    show_default=True,
    help="search: the exact plain-Python branch and bound (no ortools); cpsat: the CP-SAT model over the same rows.",
)
@click.option(
    "--check",
    is_flag=True,
    help="Run both engines and exit 1 unless they agree on the best total (the house shown is the search's).",
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="Stop each engine's search after this long with the best house found (optimal: false); "
    "the search engine always finishes enumerating the rows and its bound first.",
)
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True, help="CP-SAT search workers (cpsat only).")
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the best house to this file (dreamhome.house/1).",
)
@rules_options
def max_command(as_json, engine, check, time_limit, workers, save_path, rules_spec):
    """The highest score any single house can reach under the rules in use, with that house.

    A room card on every space, placed legally; at most one resource card a round (roofs,
    furnishings, helpers), no card used more often than the deck holds.
    Proven optimal by an exact branch and bound over each floor's rows
    (docs/SOLVER.md); --engine cpsat proves it with CP-SAT instead, --check
    with both. Only annex_adjacency = horizontal is supported.
    """
    from dreamhome.house import dump_house, house_to_json
    from dreamhome.render.house_text import house_with_score
    from dreamhome.scoring import score_house

    outputs_or_fail([save_path], [rules_spec[0]])
    rules = load_rules(rules_spec)
    try:
        if engine == "search" or check:
            from dreamhome.exact.best_house import best_house as search_best_house

            result = search_best_house(rules, time_limit=time_limit)
        if engine == "cpsat" or check:
            from dreamhome.solver.best_house import best_house as cpsat_best_house

            other = cpsat_best_house(rules, time_limit=time_limit, workers=workers)
            if not check:
                result = other
    except DreamhomeError as exc:
        fail(str(exc))
    if check and not (result.optimal and other.optimal and result.total == other.total):
        verdict = "the engines disagree" if result.optimal and other.optimal else "not proven by both engines"
        click.echo(
            f"max --check: {verdict}: search {result.total} ({result.status}), cpsat {other.total} ({other.status})",
            err=True,
        )
        sys.exit(1)
    breakdown = score_house(rules, result.house)
    if as_json:
        doc = {
            "total": result.total,
            "optimal": result.optimal,
            "seconds": round(result.seconds, 3),
            "status": result.status,
            "engine": "both" if check else engine,
            "house": house_to_json(rules, result.house),
            "breakdown": breakdown.to_json(rules),
        }
        if check:
            doc["cpsat_seconds"] = round(other.seconds, 3)
        emit_json(doc)
    else:
        console = _console()
        console.print(house_with_score(rules, result.house, breakdown, console.width, current_lang()))
        proof = "proven optimal" if result.optimal else f"not proven optimal ({result.status})"
        from rich.text import Text

        console.print(Text.assemble((f"best house possible: {result.total}", "bold"), f" ({proof} in {result.seconds:.1f} s)"))
        if check:
            console.print(f"CP-SAT agrees: {other.total} ({other.status} in {other.seconds:.1f} s)")
    if save_path:  # last: a command interrupted while it prints has written nothing
        write_or_fail(save_path, dump_house(rules, result.house))


@main.command()
@click.option(
    "--players",
    type=int,
    default=None,
    help="Number of players (2–4 in the base rules; default: one per name of --bots, else 4).",
)
@click.option(
    "--bots",
    default=None,
    metavar="NAMES",
    help="One seat each, comma-separated: a level — easy (a newcomer wins about half the time), medium (the "
    "solver bot), hard (the strongest) — or "
    "random, greedy, solver, mcts[@N] or ismcts[@N] (OpenSpiel's searches, N simulations), module:Class "
    "for a bot of your own, or human for you at the terminal (default: greedy for every seat).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the shuffle (and of the bots).")
@click.option("--first-player", type=int, default=None, help="Seat holding the first-player marker (default: by seed).")
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the game record (dreamhome.record/2) to this file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the summary.")
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Continue a game saved by a human seat (`save FILE`), with its own players, bots, seed and rules"
    " (a game with a module:Class bot needs --bots naming its bots).",
)
@click.option(
    "--review/--no-review",
    default=True,
    show_default=True,
    help="After a game with a human seat, print the game review's summary (docs/REVIEW.md: accuracy, "
    "points lost and luck a player; a few seconds of solving).",
)
@rules_options
def play(players, bots, seed, first_player, record_path, as_json, resume_path, review, rules_spec):
    """Play a full game between bots (or with human seats); the same seed gives the same game.

    A `human` seat is you at this terminal: at each of your decisions the table is shown and
    you type an option's number (the tool and helper uses wait behind one entry; `back` closes
    them), `hint`, `undo`, `save FILE`, `help` or `quit`. The number of players is the number
    of names of --bots.

    \b
    Examples:
      dreamhome play --bots human,hard,hard
      dreamhome play --bots human,easy
      dreamhome play --bots human,greedy,greedy --seed 7 --lang fr
      dreamhome play --players 3 --seed 4 --json
    """
    from dreamhome.game.record import write_record
    from dreamhome.players.playing import HUMAN, play_game
    from dreamhome.players.roster import make_bot

    if resume_path:
        _resume_game(resume_path, record_path, as_json, rules_spec, review)
        return
    outputs_or_fail([record_path], [rules_spec[0]])
    named = [b.strip() for b in bots.split(",")] if bots is not None else None
    for name in named or ():
        if name != HUMAN:
            try:
                make_bot(name, seed, 0)  # an unknown name is named as such, before any count is checked
            except DreamhomeError as exc:
                fail(str(exc))
    if named is not None and players is None and len(named) < 2:
        fail(f"--bots names {len(named)} seat; name one per seat, you included, e.g. --bots human,hard,hard")
    if players is None:
        players = len(named) if named else DEFAULT_PLAYERS  # --bots names one seat each: its count is the players'
    elif named is not None and len(named) != players:
        fail(f"--players {players} disagrees with --bots, which names {len(named)} seat(s); name one per seat, or drop --players")
    rules = load_rules(rules_spec)
    game = rules.game
    if not game.min_players <= players <= game.max_players:
        fail(f"players must be {game.min_players}–{game.max_players} under these rules, got {players}")
    names = named or ["greedy"] * players
    if HUMAN in names:
        from dreamhome.game.state import GameState
        from dreamhome.players.playing import make_seats

        try:
            seats = make_seats(names, seed)
            state = GameState(rules, players, seed, first_player)
        except DreamhomeError as exc:
            fail(str(exc))
        _play_with_humans(state, tuple(names), tuple(seats), record_path, as_json, rules_spec[0], review)
        return
    try:
        result = play_game(rules, players, names, seed, first_player)
    except DreamhomeError as exc:
        fail(str(exc))
    if record_path:
        try:
            write_record(result, record_path)
        except DreamhomeError as exc:
            fail(str(exc))
    _print_game(result, as_json)


DEFAULT_PLAYERS = 4
"""`play`'s players when neither --players nor --bots says."""


def _resume_game(resume_path: str, record_path: str | None, as_json: bool, rules_spec, review: bool = True) -> None:
    """`play --resume FILE`: the saved game's own players, bots, seed and rules; none may be given,
    except `--bots` naming the record's bots exactly, which a record with a `module:Class` bot
    needs: a save file is data, and it runs no code the user did not name (checked before any
    import, which comes last, in `resume_record`)."""
    from click.core import ParameterSource

    from dreamhome.fileio import display_name, printable
    from dreamhome.game.record import load_record, record_digest
    from dreamhome.players.playing import resume_record

    ctx = click.get_current_context()
    given = [
        f"--{name.replace('_', '-')}"
        for name in ("players", "seed", "first_player")
        if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE
    ]
    if rules_spec[0] or rules_spec[1]:
        given.append("--rules/--variant")
    if given:
        fail(f"--resume continues the saved game with its own players, bots, seed and rules; drop {', '.join(given)}")
    if resume_path == "-":
        fail("--resume needs a file: stdin is where the moves are read")
    outputs_or_fail([record_path], [resume_path])
    source = display_name(resume_path)
    try:
        data = load_record(resume_path)
    except DreamhomeError as exc:
        fail(str(exc))
    saved = data.get("bots")
    if not isinstance(saved, list) or not all(isinstance(b, str) for b in saved):
        fail(f"{source}: bots: expected a list of bot names")
    named = [b.strip() for b in ctx.params["bots"].split(",")] if ctx.params.get("bots") else None
    if named is not None and named != saved:
        fail(f"{source}: --bots must name the saved game's bots exactly ({printable(','.join(saved))}), or be left out")
    own = [b for b in saved if ":" in b]
    if own and named is None:
        fail(
            f"{source}: the saved game seats bot(s) of your own code ({printable(', '.join(own))}); "
            f"a save file runs no code by itself: to run it, name the bots: --bots {printable(','.join(saved))}"
        )
    if own and data.get("digest") != record_digest(data):  # checked before the import
        fail(f"{source}: the record's digest does not match its contents (edited?)")
    try:
        resumed = resume_record(data, source)
    except DreamhomeError as exc:
        fail(str(exc))
    click.echo(f"{source}: resumed in round {resumed.state.round}")
    _play_with_humans(resumed.state, resumed.bots, resumed.seats, record_path, as_json, review=review)


def _play_with_humans(
    state, names, seats, record_path: str | None, as_json: bool, rules_path: str | None = None, review: bool = True
) -> None:
    """The game with human seats at the terminal (dreamhome.terminal.seat) to its end, a quit or
    the end of the input (one line, exit 2; a saved game says how to continue it). The seat's
    `save` keeps off the rules file and the --record file, as every output of the CLI does."""
    from dreamhome.game.record import write_record
    from dreamhome.terminal.seat import HumanGame, eof_line, quit_line, resume_hint

    if as_json:
        fail("--json cannot be used with a human seat (the terminal is the game's)")
    outputs_or_fail([record_path])
    lang = current_lang()
    game = HumanGame(
        state,
        names,
        seats,
        _console(),
        lang=lang,
        inputs=tuple(p for p in (rules_path,) if p),
        outputs=tuple(p for p in (record_path,) if p),
    )
    try:
        outcome = game.run()
    except Interrupted as exc:  # Ctrl-C at the prompt: one line, and how to continue a saved game
        say(f"{exc}: {resume_hint(game.saved, lang)}")
        raise click.exceptions.Exit(exc.exit_code) from None
    if outcome.how == "quit":
        click.echo(quit_line(outcome.saved, lang))
        return
    if outcome.how == "eof":
        fail(eof_line(outcome.saved, lang))
    if record_path:
        try:
            write_record(outcome.result, record_path)
        except DreamhomeError as exc:
            fail(str(exc))
    game.show_result()  # the final scores in the seat's language (as _print_game prints them in English)
    if review:
        _print_review(outcome.result, lang, {p: game.seat_name(p) for p in range(state.n) if game.seats[p] is None})


def _print_review(result, lang: str, names: dict[int, str]) -> None:
    """The game review's summary at the end of a terminal game (issue 23): each player's
    accuracy, points lost and luck by dreamhome.review's one evaluation (deterministic)."""
    from rich.text import Text

    from dreamhome.i18n import text as ui
    from dreamhome.render.review_text import summary_for_game

    console = _console()
    console.rule(ui("seat.review", lang), style="dim")
    with console.status(Text(ui("seat.reviewing", lang))):  # a Text: a spinner's string is read as markup
        try:
            lines = summary_for_game(result, lang, names)
        except DreamhomeError as exc:
            fail(str(exc))
    for line in lines:
        console.print(line)
    console.print(ui("seat.review_more", lang), style="dim")


def _print_game(result, as_json: bool) -> None:
    from rich.text import Text

    summary = result.summary()
    if as_json:
        emit_json(summary)
        return
    console = _console()
    for p, (bot, score) in enumerate(zip(summary["bots"] or ["?"] * len(summary["scores"]), summary["scores"])):
        mark = ("  winner", "bold #2e9b46") if p in summary["winners"] else ""
        console.print(Text.assemble(f"seat {p} ({bot}): {score}", mark))  # a bot's name as written


@main.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the summary.")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write a self-contained HTML page that steps through the game (in --lang: cards by their names there).",
)
def replay(record_path, as_json, html_path):
    """Re-run a game record under its own rules, verifying every event and the final houses."""
    from dreamhome.fileio import display_name
    from dreamhome.game.record import load_record, replay_record
    from dreamhome.web.store import table_record

    outputs_or_fail([html_path], [record_path])
    source = display_name(record_path)
    try:
        data = load_record(record_path, table_record)  # a table's game file too (issue 31, item 5)
        result = replay_record(data, source)
        if html_path:
            from dreamhome.render.replay_page import replay_html

            write_atomic(html_path, replay_html(data, source, current_lang()))  # the page in --lang
    except DreamhomeError as exc:
        fail(str(exc))
    if not as_json:
        click.echo(f"{source}: every event verified")
    _print_game(result, as_json)


@main.command()
@click.argument("record_paths", metavar="RECORD...", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (dreamhome/schemas/review.schema.json).")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the replay page with each decision annotated and the reachable-score chart (one record).",
)
@click.option(
    "--work",
    type=FiniteRange(0.001, 60.0),
    default=None,
    help=(
        "CP-SAT deterministic time of one solve (default: the review's own, as docs/REVIEW.md gives it; "
        "never the wall clock: the same review on any machine)."
    ),
)
@click.option("--workers", type=click.IntRange(1, 256), default=None, help="Processes for several records (default: all cores).")
def analyze(record_paths, as_json, html_path, work, workers):
    """Review finished games: every decision of every seat against the best by the solver's
    reachable final score, the points it lost, its mark (best, inaccuracy, mistake, blunder),
    and per player accuracy, points lost and luck (docs/REVIEW.md).

    One RECORD: the players' table and each player's costliest decisions with the house drawn.
    Several records or a folder of records (*.json): the sums by bot and by seat — mean loss a
    decision with its 95% interval, accuracy, blunders a game — reviewed on all cores.
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from dreamhome.fileio import display_name
    from dreamhome.game.record import load_record
    from dreamhome.i18n import text as ui
    from dreamhome.players.evaluation import REVIEW_WORK
    from dreamhome.render.console import SafeConsole
    from dreamhome.review.batch import aggregate, review_many
    from dreamhome.review.batch import record_paths as expand
    from dreamhome.review.game import review_record
    from dreamhome.web.store import table_record

    lang = current_lang()
    work = REVIEW_WORK if work is None else work
    try:
        paths = expand(record_paths)
    except DreamhomeError as exc:
        fail(str(exc))
    if html_path and len(paths) != 1:
        fail("--html annotates one record; give one RECORD")
    outputs_or_fail([html_path], paths)
    console = _console()
    progress_console = SafeConsole(stderr=True)  # the bar on stderr, and only on a terminal: stdout holds the answer alone
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=progress_console,
        transient=True,
        disable=not progress_console.is_terminal,
    ) as bar:
        task = bar.add_task(ui("review.progress", lang), total=None)

        def progress(done, total):
            bar.update(task, completed=done, total=total)

        try:
            if len(paths) == 1:
                source = display_name(paths[0])
                review = review_record(load_record(paths[0], table_record), source, work, on_decision=progress)
            else:
                summary = aggregate(review_many(paths, work, workers, on_done=progress, other=table_record), work)
        except DreamhomeError as exc:
            fail(str(exc))
    if len(paths) != 1:
        if as_json:
            emit_json(summary)
            return
        console.print(ui("review.batch.title", lang, games=summary["games"]))
        from dreamhome.render.review_text import batch_table

        for table in batch_table(summary, lang):
            console.print(table)
        return
    if html_path:
        from dreamhome.render.review_page import review_html

        write_or_fail(html_path, review_html(review, lang))
    if as_json:
        emit_json(review.to_json())
        return
    from dreamhome.render.review_text import print_review, summary_lines

    print_review(console, review, lang)
    for line in summary_lines(review, lang):
        console.print(line, highlight=False)


def _plain_title(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A title is text like a card's name (dsl.compiler.name_problem): no control, bidi or
    surrogate characters, which would make the SVG not well-formed XML or reach a terminal."""
    from dreamhome.dsl.compiler import name_problem

    problem = name_problem(value)
    if problem is not None:
        raise click.BadParameter(problem.replace("a name cannot", "a title cannot").replace("names are", "titles are"))
    return value


@main.command()
@click.argument("house_path", metavar="HOUSE", type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(dir_okay=False),
    required=True,
    help="The SVG file to write (or .png when cairosvg is installed; - prints the SVG).",
)
@click.option("--title", default="", callback=_plain_title, help="A title above the house (plain text).")
@rules_options
def render(house_path, output, title, rules_spec):
    """Draw HOUSE as the board looks, with its rooms, tokens, roof and score breakdown (SVG)."""
    from dreamhome.render.house_svg import house_svg

    outputs_or_fail([output], [house_path, rules_spec[0]], stdout_ok=True)
    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    require_legal(rules, house, house_path)
    _write_picture(output, house_svg(rules, house, title, current_lang()))


def _write_picture(output: str, svg: str) -> None:
    """The picture as SVG, or as PNG for a .png name (cairosvg), written atomically."""
    if output.lower().endswith(".png"):
        try:
            import cairosvg  # optional extra (the png extra)
        except ImportError:
            fail(
                f"{printable(output)}: writing PNG needs the optional cairosvg package (pip install cairosvg); "
                "use an .svg name instead"
            )
        write_or_fail(output, cairosvg.svg2png(bytestring=svg.encode("utf-8")))
        return
    write_or_fail(output, svg)


@contextmanager
def games_bar(label: str, total: int, quiet: bool = False) -> Iterator[Callable[[int, int], None]]:
    """A progress bar of games played (done/total, games a second, time left) for `whatif` and
    `report`; yields the `progress(done, total)` their runners call. `quiet` (`--json`) hides it."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    with Progress(
        TextColumn(label),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} games"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=_console(),
        disable=quiet,
        transient=False,
    ) as bar:
        task = bar.add_task(label, total=total, rate="")

        def progress(done: int, total: int) -> None:
            elapsed = bar.tasks[task].elapsed or 0
            rate = f"{done / elapsed:.1f} games/s" if elapsed > 0 and done else ""
            bar.update(task, completed=done, total=total, rate=rate)

        yield progress


def executor_options(func):
    """--workers, --executor, --address and --chunk: where an experiment's games run (`whatif`,
    `report`), one set of options so both commands say them alike."""
    options = [
        click.option("--workers", type=click.IntRange(1, 256), default=None, help="Worker processes (default: one per core)."),
        click.option(
            "--executor",
            "executor_name",
            type=click.Choice(["local", "processes", "ray"]),
            default="processes",
            show_default=True,
            help="Where games run: this process, a process pool, or a Ray cluster.",
        ),
        click.option("--address", default=None, help="Ray cluster address (auto, or ray://host:port)."),
        click.option("--chunk", type=int, default=25, show_default=True, help="Games per chunk of work (at most 10,000)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@main.command()
@click.argument("rulesets", metavar="RULESET_OR_VARIANT...", nargs=-1, required=True)
@click.option("--games", type=int, default=100, show_default=True, help="Games per ruleset (at most 1,000,000).")
@click.option(
    "--players",
    type=int,
    default=None,
    help="Players in each game (2–4 in the base rules; default: one per name of --bots, else 4).",
)
@click.option(
    "--bots",
    default=None,
    metavar="NAMES",
    help="One bot per seat, comma-separated, as play --bots takes them but human: a level — easy (a newcomer "
    "wins about half the time), medium (the solver bot), hard (the strongest) — or a bot (default: greedy for every seat).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Game i is played from seed S + i under every ruleset.")
@executor_options
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Directory for chunks, results.json, report.md and plots.",
)
@click.option("--resume", is_flag=True, help="Continue the experiment already in --out.")
@click.option(
    "--records",
    is_flag=True,
    help="Also keep every game played as a game record in OUT/records/ (needs --out), so `dreamhome analyze OUT` "
    "reviews them; the numbers are the same either way.",
)
@click.option("--json", "as_json", is_flag=True, help="Print results.json instead of the table.")
@rules_options
def whatif(
    rulesets, games, players, bots, seed, workers, executor_name, address, chunk, out_dir, resume, records, as_json, rules_spec
):
    """Compare rulesets or variants over many seeded games (the first is the baseline).

    Each argument is a variant name of the rules in use, `base` (the rules in use with
    no variant) or a rules file. Game i uses the same seed under every ruleset, so the
    differences are paired. Results are identical whatever the executor and workers.
    Exit status 1 when games crashed (their seeds are in the results).
    """

    from dreamhome.whatif.experiment import build_experiment
    from dreamhome.whatif.report import crashed_games
    from dreamhome.whatif.runner import check_experiment_dir, run_experiment

    if records and not out_dir:
        fail("--records keeps the games' records in the experiment's folder: give it with --out")
    try:
        if out_dir:
            check_experiment_dir(out_dir, records)
        named = [b.strip() for b in bots.split(",")] if bots is not None else None
        exp = build_experiment(
            rulesets,
            games=games,
            players=players if players is not None else len(named) if named else DEFAULT_PLAYERS,
            bots=named,
            seed=seed,
            chunk=chunk,
            base_rules=rules_spec[0],
            base_variants=rules_spec[1],  # the global --variant is on under every ruleset compared
        )
    except DreamhomeError as exc:
        fail(str(exc))
    specs = exp.rulesets
    with games_bar("games", games * len(specs), quiet=as_json) as progress:
        try:
            doc = run_experiment(
                exp,
                out_dir,
                executor_name=executor_name,
                workers=workers or os.cpu_count() or 1,
                resume=resume,
                address=address,
                progress=progress,
                warn=lambda problem: say(f"warning: {problem}"),
                records=records,
            )
        except DreamhomeError as exc:
            fail(str(exc))
        except (KeyboardInterrupt, Interrupted) as exc:
            where = f"; `--resume --out {out_dir}` continues it" if out_dir else ""
            say(f"{exc if isinstance(exc, Interrupted) else 'interrupted'}; finished chunks are saved{where}")
            code = exc.exit_code if isinstance(exc, Interrupted) else EXIT_INTERRUPTED
            raise click.exceptions.Exit(code) from None
    crashed = crashed_games(doc)
    if as_json:
        emit_json(doc)
    else:
        _print_whatif(doc, games, len(specs), out_dir)
    if crashed:
        say(f"{crashed} game(s) crashed; their seeds are in the results{' and ' + out_dir + '/report.md' if out_dir else ''}")
        raise click.exceptions.Exit(EXIT_NO)


def _print_whatif(doc: dict, games: int, rulesets: int, out_dir: str | None) -> None:
    from rich.table import Table

    from dreamhome.whatif.report import format_interval

    console = _console()
    table = Table(title=f"What-if {doc['experiment']['id']}: {games} games × {rulesets} rulesets", header_style="bold")
    for col in ("ruleset", "games", "mean score [95%]", "vs baseline [95%]", "first player wins", "ties"):
        table.add_column(col)
    for r in doc["rulesets"]:
        table.add_row(
            r["ruleset"],
            str(r["games"]),
            format_interval(r["score"]),
            format_interval(r["difference_vs_baseline"]) if "difference_vs_baseline" in r else "baseline",
            format_interval(r["first_player_win_rate"]),
            format_interval(r["tie_rate"]),
        )
    console.print(table)
    if out_dir:
        console.print(f"results.json, report.md and plots in {out_dir}")


def _players_list(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...] | None:
    """--players 2,3,4: player counts, comma-separated."""
    if value is None:
        return None
    try:
        counts = tuple(int(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(f"expected player counts separated by commas, such as 2,3,4; got {value!r}") from None
    if not counts:
        raise click.BadParameter("name at least one player count")
    return counts


@main.command()
@click.option(
    "--vs", "vs", default=None, metavar="FILE|VARIANT", help="A second ruleset: every figure side by side, paired by seed."
)
@click.option(
    "--players",
    callback=_players_list,
    default=None,
    metavar="N,N,…",
    help="Player counts (default: every count the rules allow).",
)
@click.option(
    "--games",
    type=int,
    default=700,
    show_default=True,
    help="Games a condition for the light bots (random, greedy, easy): per player count, per ladder rung, per card type.",
)
@click.option(
    "--heavy-games",
    type=int,
    default=None,
    help="Games a condition with any other bot (the solver, a search, your own) [default: a fifth of --games].",
)
@click.option(
    "--bots",
    default=None,
    metavar="NAMES",
    help="The skill ladder, weakest first, comma-separated (default: random,greedy,solver; the levels "
    "easy,medium,hard make one too); "
    "each but random also plays the seats.",
)
@click.option(
    "--card-players",
    type=int,
    default=None,
    help="Player count of the restricted-play games (default: the first of --players).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Game i of every condition is played from seed S + i.")
@executor_options
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="report",
    show_default=True,
    help="Directory for report.html, report.json, summary.txt and the games (games/, one directory a condition).",
)
@click.option("--no-cards", is_flag=True, help="Leave restricted play out: seats, the ladder and the shape only (quicker).")
@click.option(
    "--precision",
    type=FiniteRange(min=0, min_open=True, max=1),
    default=None,
    metavar="W",
    help="Play the self-play games on, in blocks, until each first seat's win-rate interval is at most W wide (e.g. 0.04).",
)
@click.option(
    "--sensitivity",
    type=click.Choice(["all", "own"]),
    is_flag=False,
    flag_value="all",
    default=None,
    help="Vary each @assumed value one step down and up and rank them by effect (own: only your rules file's values).",
)
@click.option("--catalogue", is_flag=True, help="Play every variant of the rules against them, paired by seed, in one table.")
@click.option(
    "--alt-games",
    type=int,
    default=None,
    help="Games a sensitivity change or catalogue variant plays [default: a fifth of --games].",
)
@click.option("--resume", is_flag=True, help="Continue the report already in --out (its finished games are kept).")
@click.option("--json", "as_json", is_flag=True, help="Print report.json instead of the summary.")
@rules_options
def report(
    vs,
    players,
    games,
    heavy_games,
    bots,
    card_players,
    seed,
    workers,
    executor_name,
    address,
    chunk,
    out_dir,
    no_cards,
    precision,
    sensitivity,
    catalogue,
    alt_games,
    resume,
    as_json,
    rules_spec,
):
    """A balance report of the rules in use: seats, skill and luck, cards, shape, tension.

    Plays self-play games per player count, a skill ladder (the weaker bot in every seat)
    and, for every card type, restricted play (a seat that never takes a column holding the
    card, and one that always does, against the same bot unrestricted), all paired by seed;
    every figure has a 95% interval, and the page (in --lang) says what each interval
    supports. --precision plays on until the first seat's interval is narrow enough;
    --sensitivity varies every @assumed value; --catalogue plays every variant. With --vs,
    every figure side by side with its paired difference. Resumable (--resume), and the
    same for a seed on any executor and any number of workers. docs/REPORT.md explains
    each figure. Exit status 1 when games crashed.

    \b
    Examples:
      dreamhome report --out report
      dreamhome report --vs kids --players 2,3 --out kids-report
      dreamhome --rules my.dh report --games 200 --bots greedy,solver
    """
    from pathlib import Path

    from dreamhome.fileio import check_output_tree
    from dreamhome.report.document import build_document, summary
    from dreamhome.report.html import write_report
    from dreamhome.report.plan import build_plan
    from dreamhome.report.run import GAMES_DIR, run_plan, run_to_precision

    load_rules(rules_spec)  # a rules file that does not compile: its first error, one line
    try:  # every output checked before any game (issue 34, item 13): the files of write_report
        check_output_tree(out_dir, files=("report.json", "report.html", "summary.txt"), folders=(GAMES_DIR,))
        plan = build_plan(
            rules_path=rules_spec[0],
            variants=rules_spec[1],
            vs=vs,
            players=players,
            games=games,
            heavy_games=heavy_games,
            ladder=[b.strip() for b in bots.split(",")] if bots else None,
            card_players=card_players,
            seed=seed,
            chunk=chunk,
            cards=not no_cards,
            sensitivity=sensitivity,
            catalogue=catalogue,
            alt_games=alt_games,
        )
    except RulesError as exc:
        fail(exc.diagnostics[0].one_line() if exc.diagnostics else str(exc))
    except DreamhomeError as exc:
        fail(str(exc))
    total = sum(c.games for c in plan.conditions())
    if (sensitivity or catalogue) and not as_json:
        from dreamhome.report.run import estimate_minutes

        cores = workers or os.cpu_count() or 1
        sample, minutes = estimate_minutes(plan, cores)
        say(f"{total} games to play; a timed sample ({sample}) puts them at about {minutes:.0f} min on {cores} worker(s)")
    with games_bar("report", total, quiet=as_json) as progress:
        try:
            where = dict(
                executor_name=executor_name,
                workers=workers or os.cpu_count() or 1,
                resume=resume,
                address=address,
                progress=progress,
                warn=lambda problem: say(f"warning: {problem}"),
            )
            if precision is None:
                results = run_plan(plan, out_dir, **where)
            else:
                plan, results = run_to_precision(plan, out_dir, precision, say=None if as_json else say, **where)
            rulesets = plan.compiled()
            doc = build_document(plan, results, rulesets, precision)
            write_report(Path(out_dir), doc, current_lang())
        except DreamhomeError as exc:
            fail(str(exc))
        except (KeyboardInterrupt, Interrupted) as exc:
            why = exc if isinstance(exc, Interrupted) else "interrupted"
            say(f"{why}; finished games are saved; `--resume --out {out_dir}` continues")
            code = exc.exit_code if isinstance(exc, Interrupted) else EXIT_INTERRUPTED
            raise click.exceptions.Exit(code) from None
    if as_json:
        emit_json(doc)
    else:
        click.echo(summary(doc, current_lang()), nl=False)
        click.echo(f"report.html, report.json and summary.txt in {printable(str(out_dir))}")
    if doc["crashed"]:
        say(f"{doc['crashed']} game(s) crashed; their seeds are in {out_dir}/games")
        raise click.exceptions.Exit(EXIT_NO)


@main.group()
def rules():
    """Check and show rules files."""


def _no_global_rules(what: str) -> None:
    """A command that reads no `--rules`/`--variant` of the group refuses them in one line rather
    than ignoring them (`--variant nosuch rules check f.dh` said "ok")."""
    parent = click.get_current_context().find_root().obj or {}
    given = [*(["--rules"] if parent.get("rules_path") else []), *(["--variant"] if parent.get("variants") else [])]
    if given:
        fail(f"{what}; {' and '.join(given)} before the command {'do' if len(given) > 1 else 'does'} not apply to it")


@rules.command("check")
@click.argument("rules_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def rules_check(rules_file, as_json):
    """Compile FILE (with each of its variants) and report every error."""
    from dreamhome.dsl.compiler import check_rules

    _no_global_rules("rules check FILE compiles FILE and each of its variants")
    rules_file_or_fail(rules_file)
    errors, warnings = check_rules(rules_file, allow_absolute_includes=absolute_includes())
    if as_json:
        emit_json({"ok": not errors, "errors": [d.to_json() for d in errors], "warnings": [d.to_json() for d in warnings]})
    else:
        for d in errors + warnings:
            click.echo("\n".join(printable(line) for line in d.long().split("\n")), err=True)
        if not errors:
            click.echo(f"{printable(rules_file)}: ok" + (f" ({len(warnings)} warning(s))" if warnings else ""))
        else:
            click.echo(f"{printable(rules_file)}: {len(errors)} error(s)", err=True)
    if errors:
        raise click.exceptions.Exit(EXIT_BAD)


@rules.command("show")
@click.argument("rules_file", metavar="[FILE]", required=False, type=click.Path(dir_okay=False))
@click.option("--assumed", is_flag=True, help="List only the values marked @assumed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@rules_options
def rules_show(rules_file, assumed, as_json, rules_spec):
    """List a ruleset's cards, points and options, and which values are assumed."""
    from dreamhome.render.rules_report import rules_report, rules_tables

    if rules_file:
        rules_spec = (rules_file, rules_spec[1])
    ruleset = load_rules(rules_spec)
    report = rules_report(ruleset)
    if as_json:
        emit_json(report)
        return
    console = _console()
    for table in rules_tables(ruleset, assumed_only=assumed, lang=current_lang()):
        console.print(table)


def _variant_question(path: os.PathLike[str]) -> str:
    """A variant file's question: its first line, a `# comment` (the catalogue's convention).

    Read from the file each time, so a new file in rules/variants/ is listed with no list in Python.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            first = handle.readline().strip()
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{printable(str(path))}: cannot read the variant file ({exc.__class__.__name__})")
    return first.lstrip("#").strip() if first.startswith("#") else ""


@rules.command("variants")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@rules_options
def rules_variants(as_json, rules_spec):
    """List the variants: the packaged variant files (each with its question) and the
    `variant` blocks of the rules in use (each with its title). Switch one on with `--variant NAME`."""
    from dreamhome.dsl.compiler import VARIANTS_DIR
    from dreamhome.variant_menu import variant_question

    if rules_spec[1]:
        fail("rules variants lists every variant of the rules in use; --variant does not apply to it")
    ruleset = load_rules((rules_spec[0], ()))
    files = [
        {"name": path.stem, "question": _variant_question(path), "file": f"rules/variants/{path.name}"}
        for path in sorted(VARIANTS_DIR.glob("*.dh"))
    ]
    # variants_available holds the file's own blocks (by title), then the packaged files (by "rules file X").
    own = [(name, label) for name, label in ruleset.variants_available.items() if not label.startswith("rules file ")]
    blocks = [{"name": name, "title": label} for name, label in own]
    if as_json:
        emit_json({"files": files, "blocks": blocks})
        return
    width = max((len(v["name"]) for v in files + blocks), default=0)
    click.echo(f"Variant files ({len(files)}), applied over the rules in use:")
    lang = current_lang()  # each question or title in the reader's language where the file gives one
    for v in files:
        click.echo(f"  {v['name']:<{width}}  {printable(variant_question(ruleset, v['name'], lang))}")
    where = printable(rules_spec[0]) if rules_spec[0] else "base.dh"
    click.echo(f"Variant blocks of {where} ({len(blocks)}):")
    for v in blocks:
        click.echo(f"  {v['name']:<{width}}  {printable(variant_question(ruleset, v['name'], lang))}")


@main.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (anything but localhost is open to others; 0.0.0.0 is every interface).",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port (0: a free one, printed).")
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder where games are kept (default: dreamhome/games in the user's data folder).",
)
@click.option(
    "--lang",
    "serve_lang",
    default=None,
    metavar="LANG",
    help="The page's language until the person picks another: en, ru, fr or hu (default: the global --lang).",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="A Host name the table answers to besides localhost and the address bound (repeatable; no wildcards).",
)
@click.option(
    "--max-games",
    type=click.IntRange(1, 10**6),
    default=1000,
    show_default=True,
    help="Games kept in the data folder at most: past it a new game is refused (nothing is deleted for it).",
)
@click.option(
    "--rate",
    type=click.IntRange(0, 100_000),
    default=20,
    show_default=True,
    help="Requests a second one client address may send (bursts of twice that); past it 429. 0: no limit.",
)
def serve(host, port, data_dir, serve_lang, allow_hosts, max_games, rate):
    """A table in the browser: people and bots at one game, each person by their seat's link,
    anyone by the watch link (needs the `web` extra)."""
    from dreamhome.i18n import UnknownLanguageError, check_lang
    from dreamhome.web.server import default_signals

    default_signals()
    if not host.strip():
        fail("--host: an empty address listens on every interface; say so with --host 0.0.0.0, or keep 127.0.0.1")
    try:
        page_lang = check_lang(serve_lang) if serve_lang is not None else current_lang()
    except UnknownLanguageError as exc:
        fail(f"--lang: {exc}")
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        fail("serve needs the web extra: pip install 'dreamhome[web]'")
    from pathlib import Path

    from dreamhome.web.app import BadHostError, host_name
    from dreamhome.web.server import bind, default_data_dir, is_local, serve

    for name in allow_hosts:
        try:
            host_name(name)
        except BadHostError as exc:
            fail(f"--allow-host: {printable(str(exc))}")
    folder = Path(data_dir) if data_dir else default_data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"{printable(str(folder))}: cannot make the games folder: {exc.strerror or exc}")
    if not os.access(folder, os.W_OK | os.X_OK):
        fail(f"{printable(str(folder))}: the games folder is not writable")
    try:
        sock = bind(host, port)
    except (OSError, OverflowError, UnicodeError) as exc:
        fail(f"cannot listen on {printable(host)}:{port}: {getattr(exc, 'strerror', None) or exc}")
    if not is_local(host):
        say(
            f"warning: listening on {printable(host)}: anyone who can reach it can start and watch games "
            "(there is no login; a seat plays only by its link)"
        )
    serve(sock, folder, say, lang=page_lang, allow_hosts=tuple(allow_hosts), max_games=max_games, rate=rate or None)


def run() -> None:
    """Entry point: never a traceback, and every error is one line on stderr.

    Usage errors are shortened to one line too; a stdout that cannot take the
    output (full disk, closed pipe, an ASCII-only encoding) ends with one line
    and exit 2 instead of a traceback. Ctrl-C and SIGTERM end any command, even
    inside a CP-SAT solve (dreamhome.interrupt), with one line and exit 130 or 143;
    outputs are written atomically, so an interrupted command changes no file.
    """
    sys.exit(command_status())


def command_status() -> int:
    """The command named by `sys.argv` run to its end: its exit status (`run` without the exit;
    the process's entry point, dreamhome.launch, installs the signal handling before this)."""
    from dreamhome import interrupt

    with interrupt.handling():  # the caller's own handlers come back when the command ends
        try:
            code = _run_main()
        except Interrupted as exc:  # the signal struck while an error line was being printed
            _silence_stdout()
            say(str(exc))
            code = exc.exit_code
    return code if isinstance(code, int) else 0


def _run_main() -> object:
    """The command, every exception mapped to one line on stderr; the exit status."""
    if os.environ.get(DEBUG_ENV):
        return main(standalone_mode=False, prog_name="dreamhome") or 0
    try:
        code = main(standalone_mode=False, prog_name="dreamhome")
        sys.stdout.flush()  # here, not at the interpreter's exit: a full disk or a signal is still one line
    except click.exceptions.ClickException as exc:
        say(_usage_line(exc))
        code = exc.exit_code
    except Interrupted as exc:
        _silence_stdout()
        say(str(exc))
        code = exc.exit_code
    except click.exceptions.Abort:
        say("interrupted")
        code = EXIT_INTERRUPTED
    except DreamhomeError as exc:  # pragma: no cover - the commands catch their own
        say(str(exc))
        code = EXIT_BAD
    except UnicodeEncodeError as exc:
        _silence_stdout()
        say(f"cannot print the answer in this terminal's encoding ({exc.encoding}); set PYTHONIOENCODING=utf-8")
        code = EXIT_BAD
    except OSError as exc:
        _silence_stdout()
        if exc.errno != errno.EPIPE:  # a reader that went away (`| head`) needs no message
            say(f"cannot write the output: {exc.strerror or exc}")
        code = EXIT_BAD
    except (MemoryError, RecursionError) as exc:
        say(f"the input is too large or too deep to handle ({type(exc).__name__})")
        code = EXIT_BAD
    except Exception as exc:  # noqa: BLE001 - the last net: a bug still ends in one line, not a traceback
        signum = interrupted()
        if signum is not None:  # the signal struck inside code that turned it into its own error
            _silence_stdout()  # (a C extension being imported says "ImportError: initialization failed")
            say(str(Interrupted(signum)))
            return Interrupted(signum).exit_code
        first = str(exc).splitlines()[0] if str(exc) else ""
        say(f"internal error ({type(exc).__name__}: {first}); set {DEBUG_ENV}=1 for the traceback and please report it")
        code = EXIT_BAD
    return code


def _usage_line(exc: click.exceptions.ClickException) -> str:
    message = exc.format_message()
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.exceptions.UsageError) and ctx is not None:
        sub = ctx.command_path.split(" ", 1)[1] if " " in ctx.command_path else ""
        return f"{sub + ': ' if sub else ''}{message} (see --help)"
    return message


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    run()

__all__ = ["command_status", "main", "run"]
