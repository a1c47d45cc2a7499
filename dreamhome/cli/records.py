"""`replay` and `analyze`: the commands that read finished game records, to verify every event
(`replay`) or to review every decision against the solver (`analyze`)."""

from __future__ import annotations

import click

from dreamhome.cli.common import current_lang, emit_json, fail, new_console, outputs_or_fail, write_or_fail
from dreamhome.cli.options import FiniteRange, html_option, json_option, processes_option
from dreamhome.cli.play import print_game
from dreamhome.errors import DreamhomeError
from dreamhome.fileio import write_atomic


@click.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(dir_okay=False))
@json_option("Print one JSON object instead of the summary.")
@html_option("Also write a self-contained HTML page that steps through the game (in --lang: cards by their names there).")
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
    print_game(result, as_json)


@click.command()
@click.argument("record_paths", metavar="RECORD...", nargs=-1, required=True, type=click.Path())
@json_option("Print one JSON object (dreamhome/schemas/review.schema.json).")
@html_option("Also write the replay page with each decision annotated and the reachable-score chart (one record).")
@click.option(
    "--work",
    type=FiniteRange(0.001, 60.0),
    default=None,
    help=(
        "CP-SAT deterministic time of one solve (default: the review's own, as docs/REVIEW.md gives it; "
        "never the wall clock: the same review on any machine)."
    ),
)
@click.option(
    "--samples",
    type=click.IntRange(0, 1000),
    default=0,
    show_default=True,
    help=(
        "Value each option during the rounds by its expected final score, the mean of this many seeded "
        "play-outs, each loss with its standard error (0: the solver's best case over the unseen cards). "
        "Slower: about 8x the default review at 4 (docs/REVIEW.md)."
    ),
)
@processes_option("--workers", "Processes for several records (default: all cores).")
def analyze(record_paths, as_json, html_path, work, samples, workers):
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
    console = new_console()
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
                review = review_record(load_record(paths[0], table_record), source, work, on_decision=progress, samples=samples)
            else:
                reviews = review_many(paths, work, workers, on_done=progress, other=table_record, samples=samples)
                summary = aggregate(reviews, work, samples)
        except DreamhomeError as exc:
            fail(str(exc))
    if len(paths) != 1:
        if as_json:
            emit_json(summary)
            return
        from dreamhome.i18n import count_text

        console.print(ui("review.batch.title", lang, games=count_text("review.games", summary["games"], lang)))
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
