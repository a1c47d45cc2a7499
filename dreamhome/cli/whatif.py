"""`whatif`: rulesets or variants compared over many seeded games, paired by seed (the what-if
engine, dreamhome.whatif), and its table."""

from __future__ import annotations

import click

from dreamhome.cli.batch import exit_if_crashed, playing_games
from dreamhome.cli.common import emit_json, fail, new_console
from dreamhome.cli.options import (
    DEFAULT_PLAYERS,
    bot_names,
    bots_option,
    executor_options,
    games_option,
    json_option,
    out_option,
    players_option,
    resume_option,
    rules_options,
    seed_option,
)
from dreamhome.errors import DreamhomeError


@click.command()
@click.argument("rulesets", metavar="RULESET_OR_VARIANT...", nargs=-1, required=True)
@games_option(100, "Games per ruleset (at most 1,000,000).")
@players_option("Players in each game (2–4 in the base rules; default: one per name of --bots, else 4).")
@bots_option(
    "One bot per seat, comma-separated, as play --bots takes them but human: a level — easy (a newcomer "
    "wins about half the time), medium (the solver bot), hard (the strongest) — or a bot (default: greedy for every seat)."
)
@seed_option("Game i is played from seed S + i under every ruleset.")
@executor_options
@out_option("Directory for chunks, results.json, report.md and plots.")
@resume_option("Continue the experiment already in --out.")
@click.option(
    "--records",
    is_flag=True,
    help="Also keep every game played as a game record in OUT/records/ (needs --out), so `dreamhome analyze OUT` "
    "reviews them; the numbers are the same either way.",
)
@json_option("Print results.json instead of the table.")
@rules_options
def whatif(rulesets, games, players, bots, seed, executor, out_dir, resume, records, as_json, rules_spec):
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
        named = bot_names(bots)
        exp = build_experiment(
            rulesets,
            games=games,
            players=players if players is not None else len(named) if named else DEFAULT_PLAYERS,
            bots=named,
            seed=seed,
            chunk=executor.chunk,
            base_rules=rules_spec[0],
            base_variants=rules_spec[1],  # the global --variant is on under every ruleset compared
        )
    except DreamhomeError as exc:
        fail(str(exc))
    specs = exp.rulesets
    kept = "finished chunks are saved" + (f"; `--resume --out {out_dir}` continues it" if out_dir else "")
    with playing_games("games", games * len(specs), as_json, kept) as progress:
        doc = run_experiment(exp, out_dir, **executor.run_options(resume, progress), records=records)
    if as_json:
        emit_json(doc)
    else:
        _print_whatif(doc, games, len(specs), out_dir)
    exit_if_crashed(crashed_games(doc), "the results" + (f" and {out_dir}/report.md" if out_dir else ""))


def _print_whatif(doc: dict, games: int, rulesets: int, out_dir: str | None) -> None:
    from rich.table import Table

    from dreamhome.whatif.report import format_interval

    console = new_console()
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
