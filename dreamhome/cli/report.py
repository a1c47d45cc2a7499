"""`report`: the balance report of the rules in use (dreamhome.report): its plan of games, their
run through the batch runner, and report.html, report.json and summary.txt."""

from __future__ import annotations

import click

from dreamhome.cli.batch import exit_if_crashed, playing_games
from dreamhome.cli.common import current_lang, emit_json, fail, load_rules, say
from dreamhome.cli.options import (
    Executor,
    FiniteRange,
    bots_option,
    executor_options,
    games_option,
    json_option,
    out_option,
    resume_option,
    rules_options,
    seed_option,
)
from dreamhome.errors import DreamhomeError, RulesError
from dreamhome.fileio import printable


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


@click.command()
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
@games_option(
    700, "Games a condition for the light bots (random, greedy, easy): per player count, per ladder rung, per card type."
)
@click.option(
    "--heavy-games",
    type=int,
    default=None,
    help="Games a condition with any other bot (the solver, a search, your own) [default: a fifth of --games].",
)
@bots_option(
    "The skill ladder, weakest first, comma-separated (default: random,greedy,solver; the levels "
    "easy,medium,hard make one too); "
    "each but random also plays the seats."
)
@click.option(
    "--card-players",
    type=int,
    default=None,
    help="Player count of the restricted-play games (default: the first of --players).",
)
@seed_option("Game i of every condition is played from seed S + i.")
@executor_options
@out_option(
    "Directory for report.html, report.json, summary.txt and the games (games/, one directory a condition).",
    default="report",
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
@resume_option("Continue the report already in --out (its finished games are kept).")
@json_option("Print report.json instead of the summary.")
@rules_options
def report(
    vs,
    players,
    games,
    heavy_games,
    bots,
    card_players,
    seed,
    executor,
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
    from dreamhome.fileio import check_output_tree
    from dreamhome.report.plan import build_plan
    from dreamhome.report.run import GAMES_DIR

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
            chunk=executor.chunk,
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
        _say_estimate(plan, total, executor)
    doc = _run_report(plan, total, out_dir, precision, executor, resume, as_json)
    if as_json:
        emit_json(doc)
    else:
        from dreamhome.report.document import summary

        click.echo(summary(doc, current_lang()), nl=False)
        click.echo(f"report.html, report.json and summary.txt in {printable(str(out_dir))}")
    exit_if_crashed(doc["crashed"], f"{out_dir}/games")


def _say_estimate(plan, total: int, executor: Executor) -> None:
    """How long the report's games will take, from a timed sample (before a long report)."""
    from dreamhome.report.run import estimate_minutes

    cores = executor.cores()
    sample, minutes = estimate_minutes(plan, cores)
    say(f"{total} games to play; a timed sample ({sample}) puts them at about {minutes:.0f} min on {cores} worker(s)")


def _run_report(plan, total: int, out_dir: str, precision: float | None, executor: Executor, resume: bool, as_json: bool) -> dict:
    """The report's games played (to `precision` when given) and its files written; its document."""
    from pathlib import Path

    from dreamhome.report.document import build_document
    from dreamhome.report.html import write_report
    from dreamhome.report.run import run_plan, run_to_precision

    kept = f"finished games are saved; `--resume --out {out_dir}` continues"
    with playing_games("report", total, as_json, kept) as progress:
        where = executor.run_options(resume, progress)
        if precision is None:
            results = run_plan(plan, out_dir, **where)
        else:
            plan, results = run_to_precision(plan, out_dir, precision, say=None if as_json else say, **where)
        rulesets = plan.compiled()
        doc = build_document(plan, results, rulesets, precision)
        write_report(Path(out_dir), doc, current_lang())
    return doc
