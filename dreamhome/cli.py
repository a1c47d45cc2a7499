"""The `dreamhome` command: wires subcommands to library functions.

Bad input of any kind ends in one line on stderr and exit status 2; the
answer "no" (an illegal house for `check`) is exit status 1.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from dreamhome.errors import DreamhomeError, RulesError

EXIT_NO = 1
EXIT_BAD = 2


def fail(message: str) -> None:
    click.echo(f"dreamhome: {message}", err=True)
    raise click.exceptions.Exit(EXIT_BAD)


def _console():
    from rich.console import Console

    return Console()


def rules_options(func):
    """`--rules FILE` and `--variant NAME`, accepted before or after the subcommand."""

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
        help="Switch on a variant of the rules (repeatable), e.g. kids, car.",
    )
    @functools.wraps(func)
    def wrapper(*args, rules_path=None, variants=(), **kwargs):
        ctx = click.get_current_context()
        parent = ctx.find_root().obj or {}
        path = rules_path or parent.get("rules_path")
        chosen = tuple(parent.get("variants", ())) + tuple(variants)
        kwargs["rules_spec"] = (path, chosen)
        return func(*args, **kwargs)

    return wrapper


def load_rules(spec):
    from dreamhome.dsl.compiler import compile_rules

    path, variants = spec
    try:
        return compile_rules(path, variants)
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
@click.version_option(package_name="dreamhome")
@click.pass_context
def main(ctx, rules_path, variants):
    """Dream Home as formal rules: check, score and explain houses.

    A house is a `dreamhome.house/1` JSON file (see docs/FORMATS.md). Exit
    status: 0 success, 1 the answer is "no" (an illegal house for `check`),
    2 bad input, with a one-line reason on stderr.

    \b
    Examples:
      dreamhome score examples/rulebook_example.json
      dreamhome check house.json --json
      dreamhome optimize examples/endgame.json
      dreamhome rules show --assumed
      dreamhome --variant car rules show
    """
    ctx.obj = {"rules_path": rules_path, "variants": variants}


@main.command()
@click.argument("house_path", metavar="HOUSE", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the picture.")
@rules_options
def check(house_path, as_json, rules_spec):
    """Is HOUSE legal? Lists each broken rule by id and cell (exit 1 if not)."""
    from dreamhome.legality import house_violations
    from dreamhome.render_text import held_text, house_grid

    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    violations = house_violations(rules, house)
    if as_json:
        emit_json({"legal": not violations, "violations": [v.to_json() for v in violations]})
    else:
        console = _console()
        console.print(house_grid(rules, house, violations))
        console.print(held_text(rules, house))
        if violations:
            console.print(f"[bold red]illegal[/]: {len(violations)} violation(s)")
            for v in violations:
                console.print(f"  [bold]{v.rule}[/] {v.cell or ''}: {v.message}")
        else:
            console.print("[bold green]legal[/]")
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
@rules_options
def score(house_path, as_json, rules_spec):
    """Score HOUSE as it stands, line by line (best 4 roofs, no helper action taken)."""
    from dreamhome.render_text import house_with_score
    from dreamhome.scoring import score_house

    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    require_legal(rules, house, house_path)
    result = score_house(rules, house)
    if as_json:
        emit_json(result.to_json(rules))
    else:
        console = _console()
        console.print(house_with_score(rules, house, result, console.width))


@main.command()
@click.argument("house_path", metavar="HOUSE", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the pictures.")
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
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
    """The best final score of a finished HOUSE with its supplier, handyman and roofer.

    Every order of the end-game helpers is considered (END-ORDER); the architect
    and interior designer are counted. The answer is proven optimal by CP-SAT
    unless --time-limit cut the search short.
    """
    from dreamhome.house import dump_house, write_atomic
    from dreamhome.render_text import house_with_score
    from dreamhome.scoring import score_house
    from dreamhome.solver.optimize import best_final_score

    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    try:
        result = best_final_score(rules, house, time_limit=time_limit, workers=workers, source=house_path)
    except DreamhomeError as exc:
        fail(str(exc))
    if save_path:
        write_atomic(save_path, dump_house(rules, result.house))
    if svg_path:
        from dreamhome.render_svg import before_after_svg

        steps = [step.explain(rules) for step in result.steps]
        _write_picture(svg_path, before_after_svg(rules, house, result.house, steps))
    if as_json:
        emit_json(result.to_json(rules))
        return
    console = _console()
    console.rule("[bold]before")
    console.print(house_with_score(rules, house, score_house(rules, house), console.width))
    console.rule("[bold]end-game actions")
    if not result.steps:
        console.print("no helper action improves this house")
    for n, step in enumerate(result.steps, 1):
        console.print(f"{n}. {step.explain(rules)}")
    console.rule("[bold]after")
    console.print(house_with_score(rules, result.house, score_house(rules, result.house), console.width))
    proof = "proven optimal" if result.optimal else f"not proven optimal ({result.status})"
    console.print(
        f"[bold]best final score: {result.total}[/] ({proof}, {result.seconds:.2f} s; {result.start} before any action)"
    )


@main.command()
@click.argument("house_path", metavar="HOUSE", type=click.Path(dir_okay=False))
@click.argument("card", metavar="CARD")
@click.option(
    "--pool",
    "pool_path",
    type=click.Path(dir_okay=False),
    default=None,
    help='Cards still to come: {"rooms": {"kitchen": 3, ...}} (default: the manifest minus the house and its discard pile).',
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Time for all placements together; unproven bounds are marked.",
)
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="CP-SAT search workers per placement.")
@click.option(
    "--processes",
    type=click.IntRange(1, 256),
    default=None,
    help="Placements solved side by side (default: one per core when the house holds a supplier or handyman, else 1). "
    "The answer does not depend on it.",
)
@rules_options
def place(house_path, card, pool_path, as_json, time_limit, workers, processes, rules_spec):
    """Where should CARD (a room card id) go in HOUSE? Every legal placement, best first.

    Each placement's bound is the best final score the house could still reach
    if every remaining free cell were filled with the best cards still to come,
    no further resource card came, and the house's end-game helpers were used
    optimally. Ties: face up before face down, then board order.
    """
    from rich.table import Table

    from dreamhome.solver.place import placement_bounds, read_pool

    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    pool = None
    try:
        if pool_path:
            try:
                data = json.loads(Path(pool_path).read_text(encoding="utf-8"))
            except OSError as exc:
                fail(f"{pool_path}: cannot read pool file: {exc.strerror or exc}")
            except json.JSONDecodeError as exc:
                fail(f"{pool_path}:{exc.lineno}:{exc.colno}: malformed JSON: {exc.msg}")
            pool = read_pool(rules, data, pool_path)
        bounds = placement_bounds(rules, house, card, pool=pool, time_limit=time_limit, workers=workers, processes=processes)
    except DreamhomeError as exc:
        fail(str(exc))
    if as_json:
        emit_json({"card": card, "placements": [b.to_json(rules) for b in bounds]})
        return
    table = Table(title=f"Placements of {rules.room(card).name.lower()}", header_style="bold")
    for col in ("rank", "cell", "how", "bound", ""):
        table.add_column(col)
    for rank, b in enumerate(bounds, 1):
        table.add_row(
            str(rank),
            rules.board.cells[b.placement.cell],
            "face down" if b.placement.face_down else "face up",
            str(b.bound),
            "" if b.optimal else "not proven (time limit)",
        )
    _console().print(table)
    if not bounds:
        click.echo("no legal placement: the house has no free supported space")


@main.command("max")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the picture.")
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Stop after this long with the best house found (optimal: false).",
)
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True, help="CP-SAT search workers.")
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the best house to this file (dreamhome.house/1).",
)
@rules_options
def max_command(as_json, time_limit, workers, save_path, rules_spec):
    """The highest score any single house can reach under the rules in use, with that house.

    12 room cards placed legally, at most one resource card a round (roofs,
    furnishings, helpers), no card used more often than the deck holds.
    Proven optimal by CP-SAT over per-floor row tables (docs/SOLVER.md).
    """
    from dreamhome.house import dump_house, house_to_json, write_atomic
    from dreamhome.render_text import house_with_score
    from dreamhome.scoring import score_house
    from dreamhome.solver.best_house import best_house

    rules = load_rules(rules_spec)
    try:
        result = best_house(rules, time_limit=time_limit, workers=workers)
    except DreamhomeError as exc:
        fail(str(exc))
    if save_path:
        write_atomic(save_path, dump_house(rules, result.house))
    breakdown = score_house(rules, result.house)
    if as_json:
        emit_json(
            {
                "total": result.total,
                "optimal": result.optimal,
                "seconds": round(result.seconds, 3),
                "status": result.status,
                "house": house_to_json(rules, result.house),
                "breakdown": breakdown.to_json(rules),
            }
        )
        return
    console = _console()
    console.print(house_with_score(rules, result.house, breakdown, console.width))
    proof = "proven optimal" if result.optimal else f"not proven optimal ({result.status})"
    console.print(f"[bold]best house possible: {result.total}[/] ({proof} in {result.seconds:.1f} s)")


@main.command()
@click.option("--players", type=int, default=4, show_default=True, help="Number of players (2–4 in the base rules).")
@click.option(
    "--bots",
    default=None,
    metavar="NAMES",
    help="One bot per seat, comma-separated: random, greedy (default: greedy for every seat).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the shuffle (and of the bots).")
@click.option("--first-player", type=int, default=None, help="Seat holding the first-player marker (default: by seed).")
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the game record (dreamhome.record/1) to this file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the summary.")
@rules_options
def play(players, bots, seed, first_player, record_path, as_json, rules_spec):
    """Play a full game between bots; the same seed gives the same game."""
    from dreamhome.game.record import play_game, write_record

    rules = load_rules(rules_spec)
    names = [b.strip() for b in bots.split(",")] if bots else ["greedy"] * players
    try:
        result = play_game(rules, players, names, seed, first_player)
    except DreamhomeError as exc:
        fail(str(exc))
    if record_path:
        write_record(result, record_path)
    _print_game(result, as_json)


def _print_game(result, as_json: bool) -> None:
    summary = result.summary()
    if as_json:
        emit_json(summary)
        return
    console = _console()
    for p, (bot, score) in enumerate(zip(summary["bots"] or ["?"] * len(summary["scores"]), summary["scores"])):
        mark = "  [bold green]winner[/]" if p in summary["winners"] else ""
        console.print(f"seat {p} ({bot}): {score}{mark}")


@main.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the summary.")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write a self-contained HTML page that steps through the game.",
)
def replay(record_path, as_json, html_path):
    """Re-run a game record under its own rules, verifying every event and the final houses."""
    from dreamhome.game.record import load_record, replay_record

    try:
        data = load_record(record_path)
        result = replay_record(data, record_path)
        if html_path:
            from dreamhome.house import write_atomic
            from dreamhome.render_html import replay_html

            write_atomic(html_path, replay_html(data, record_path))
    except DreamhomeError as exc:
        fail(str(exc))
    if not as_json:
        click.echo(f"{record_path}: every event verified")
    _print_game(result, as_json)


@main.command()
@click.argument("house_path", metavar="HOUSE", type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(dir_okay=False),
    required=True,
    help="The SVG file to write (or .png when cairosvg is installed).",
)
@click.option("--title", default="", help="A title above the house.")
@rules_options
def render(house_path, output, title, rules_spec):
    """Draw HOUSE as the board looks, with its rooms, tokens, roof and score breakdown (SVG)."""
    from dreamhome.render_svg import house_svg

    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    require_legal(rules, house, house_path)
    _write_picture(output, house_svg(rules, house, title))


def _write_picture(output: str, svg: str) -> None:
    from dreamhome.house import write_atomic

    if output.lower().endswith(".png"):
        try:
            import cairosvg  # optional extra
        except ImportError:
            fail(f"{output}: writing PNG needs the optional cairosvg package (pip install cairosvg); use an .svg name instead")
        import os
        import tempfile

        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(output)), suffix=".png")
        os.close(fd)
        try:
            cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=tmp)
            os.replace(tmp, output)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return
    try:
        write_atomic(output, svg)
    except OSError as exc:
        fail(f"{output}: cannot write: {exc.strerror or exc}")


@main.command()
@click.argument("rulesets", metavar="RULESET_OR_VARIANT...", nargs=-1, required=True)
@click.option("--games", type=click.IntRange(1), default=100, show_default=True, help="Games per ruleset.")
@click.option("--players", type=int, default=4, show_default=True)
@click.option("--bots", default=None, metavar="NAMES", help="One bot per seat (default: greedy for every seat).")
@click.option("--seed", type=int, default=0, show_default=True, help="Game i is played from seed S + i under every ruleset.")
@click.option("--workers", type=click.IntRange(1), default=None, help="Worker processes (default: one per core).")
@click.option(
    "--executor",
    "executor_name",
    type=click.Choice(["local", "processes", "ray"]),
    default="processes",
    show_default=True,
    help="Where games run: this process, a process pool, or a Ray cluster.",
)
@click.option("--address", default=None, help="Ray cluster address (auto, or ray://host:port).")
@click.option("--chunk", type=click.IntRange(1), default=25, show_default=True, help="Games per chunk of work.")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Directory for chunks, results.json, report.md and plots.",
)
@click.option("--resume", is_flag=True, help="Continue the experiment already in --out.")
@click.option("--json", "as_json", is_flag=True, help="Print results.json instead of the table.")
@rules_options
def whatif(rulesets, games, players, bots, seed, workers, executor_name, address, chunk, out_dir, resume, as_json, rules_spec):
    """Compare rulesets or variants over many seeded games (the first is the baseline).

    Each argument is a variant name of the rules in use, `base` (the rules in use with
    no variant) or a rules file. Game i uses the same seed under every ruleset, so the
    differences are paired. Results are identical whatever the executor and workers.
    """
    import os

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from dreamhome.game.bots import BOTS
    from dreamhome.whatif.experiment import Experiment, resolve_ruleset
    from dreamhome.whatif.runner import run_experiment

    base_path = rules_spec[0]
    try:
        specs = tuple(resolve_ruleset(arg, base_path) for arg in rulesets)
    except RulesError as exc:
        fail(exc.diagnostics[0].one_line() if exc.diagnostics else str(exc))
    except DreamhomeError as exc:
        fail(str(exc))
    names = [b.strip() for b in bots.split(",")] if bots else ["greedy"] * players
    if len(names) != players:
        fail(f"--bots names {len(names)} bot(s) for {players} players; give one per seat")
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        fail(f"unknown bot '{unknown[0]}'; known bots: {', '.join(BOTS)}")
    from dreamhome.dsl.compiler import compile_rules

    for spec in specs:
        game = compile_rules(text=spec.source, name=spec.label, variants=list(spec.variants)).game
        if not game.min_players <= players <= game.max_players:
            fail(f"{spec.label}: players must be {game.min_players}–{game.max_players}, got {players}")
    exp = Experiment(specs, games, players, tuple(names), seed, chunk)
    console = _console()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} games"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=as_json,
        transient=False,
    ) as bar:
        task = bar.add_task("games", total=games * len(specs), rate="")

        def progress(done, total):
            elapsed = bar.tasks[task].elapsed or 0
            rate = f"{done / elapsed:.1f} games/s" if elapsed > 0 and done else ""
            bar.update(task, completed=done, total=total, rate=rate)

        try:
            doc = run_experiment(
                exp,
                out_dir,
                executor_name=executor_name,
                workers=workers or os.cpu_count() or 1,
                resume=resume,
                address=address,
                progress=progress,
            )
        except DreamhomeError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            where = f"; `--resume --out {out_dir}` continues it" if out_dir else ""
            click.echo(f"dreamhome: interrupted; finished chunks are saved{where}", err=True)
            raise click.exceptions.Exit(130) from None
    if as_json:
        emit_json(doc)
        return
    from rich.table import Table

    table = Table(title=f"What-if {doc['experiment']['id']}: {games} games × {len(specs)} rulesets", header_style="bold")
    for col in ("ruleset", "games", "mean score [95%]", "vs baseline [95%]", "first player wins", "ties"):
        table.add_column(col)
    from dreamhome.whatif.report import _fmt

    for r in doc["rulesets"]:
        table.add_row(
            r["ruleset"],
            str(r["games"]),
            _fmt(r["score"]),
            _fmt(r["difference_vs_baseline"]) if "difference_vs_baseline" in r else "baseline",
            _fmt(r["first_player_win_rate"]),
            _fmt(r["tie_rate"]),
        )
    console.print(table)
    crashed = sum(len(r["crashed"]) for r in doc["rulesets"])
    if crashed:
        console.print(f"[bold red]{crashed} game(s) crashed[/]; their seeds are in the report")
    if out_dir:
        console.print(f"results.json, report.md and plots in {out_dir}")


@main.group()
def rules():
    """Check and show rules files."""


@rules.command("check")
@click.argument("rules_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def rules_check(rules_file, as_json):
    """Compile FILE (with each of its variants) and report every error."""
    from dreamhome.dsl.compiler import check_rules

    errors, warnings = check_rules(rules_file)
    if as_json:
        emit_json({"ok": not errors, "errors": [d.to_json() for d in errors], "warnings": [d.to_json() for d in warnings]})
    else:
        for d in errors + warnings:
            click.echo(d.long(), err=True)
        if not errors:
            click.echo(f"{rules_file}: ok" + (f" ({len(warnings)} warning(s))" if warnings else ""))
        else:
            click.echo(f"{rules_file}: {len(errors)} error(s)", err=True)
    if errors:
        raise click.exceptions.Exit(EXIT_BAD)


@rules.command("show")
@click.argument("rules_file", metavar="[FILE]", required=False, type=click.Path(dir_okay=False))
@click.option("--assumed", is_flag=True, help="List only the values marked @assumed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@rules_options
def rules_show(rules_file, assumed, as_json, rules_spec):
    """List a ruleset's cards, points and options, and which values are assumed."""
    from dreamhome.rules_report import rules_report, rules_tables

    if rules_file:
        rules_spec = (rules_file, rules_spec[1])
    ruleset = load_rules(rules_spec)
    report = rules_report(ruleset)
    if as_json:
        emit_json(report)
        return
    console = _console()
    for table in rules_tables(ruleset, assumed_only=assumed):
        console.print(table)


def run() -> None:
    """Entry point: never a traceback for bad input."""
    try:
        main(standalone_mode=True)
    except DreamhomeError as exc:  # pragma: no cover - the commands catch their own
        click.echo(f"dreamhome: {exc}", err=True)
        sys.exit(EXIT_BAD)


if __name__ == "__main__":  # pragma: no cover
    run()

__all__ = ["main", "run"]
