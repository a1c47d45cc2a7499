"""`optimize`, `place` and `max`: the commands that ask the solvers a question (the best end of a
house, the best cell for a card, the best house there is) and show the answer they prove."""

from __future__ import annotations

import sys

import click

from dreamhome.cli.common import (
    current_lang,
    emit_json,
    fail,
    load_house_or_fail,
    load_rules,
    new_console,
    outputs_or_fail,
    resolve_room_card,
    write_or_fail,
    write_picture,
)
from dreamhome.cli.options import (
    house_argument,
    json_option,
    processes_option,
    rules_options,
    save_option,
    solver_workers_option,
    time_limit_option,
)
from dreamhome.errors import DreamhomeError


@click.command()
@house_argument
@json_option("Print one JSON object instead of the pictures.")
@time_limit_option("Stop the solver after this long and return the best house found (optimal: false).")
@solver_workers_option(1, "CP-SAT search workers (1 is deterministic).")
@save_option("Also write the house after the actions to this file (dreamhome.house/1).")
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
        write_picture(svg_path, before_after_svg(rules, house, result.house, steps, current_lang()))


def _print_optimized(rules, house, result) -> None:
    """`optimize`'s picture: the house before, the end-game actions, the house after."""
    from rich.text import Text

    from dreamhome.render.house_text import house_with_score
    from dreamhome.scoring import score_house

    console = new_console()
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


@click.command()
@house_argument
@click.argument("card", metavar="CARD")
@click.option(
    "--pool",
    "pool_path",
    type=click.Path(dir_okay=False),
    default=None,
    help='Cards still to come: {"rooms": {"<room id>": 3, ...}} (default: the manifest minus the house and its discard pile).',
)
@json_option("Print one JSON object instead of the table.")
@time_limit_option("Time for all placements together; unproven bounds are marked.")
@solver_workers_option(1, "CP-SAT search workers per placement.")
@processes_option(
    "--processes",
    "Placements solved side by side (default: one per core when the house holds a swap helper, else 1). "
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
    new_console().print(table)
    if not bounds:
        click.echo(text("place.none", lang))


@click.command("max")
@json_option("Print one JSON object instead of the picture.")
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
@time_limit_option(
    "Stop each engine's search after this long with the best house found (optimal: false); "
    "the search engine always finishes enumerating the rows and its bound first."
)
@solver_workers_option(2, "CP-SAT search workers (cpsat only).")
@save_option("Also write the best house to this file (dreamhome.house/1).")
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
        console = new_console()
        console.print(house_with_score(rules, result.house, breakdown, console.width, current_lang()))
        proof = "proven optimal" if result.optimal else f"not proven optimal ({result.status})"
        from rich.text import Text

        console.print(Text.assemble((f"best house possible: {result.total}", "bold"), f" ({proof} in {result.seconds:.1f} s)"))
        if check:
            console.print(f"CP-SAT agrees: {other.total} ({other.status} in {other.seconds:.1f} s)")
    if save_path:  # last: a command interrupted while it prints has written nothing
        write_or_fail(save_path, dump_house(rules, result.house))
