"""What `whatif` and `report` share beyond their options: the progress bar of games played, the
run that a Ctrl-C or SIGTERM ends with one line saying what is kept, and the exit status 1 of
crashed games.

Both commands play many seeded games through a runner that saves finished work as it goes; they
say alike how far they got, what an interruption kept and how to continue it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from dreamhome.cli.common import EXIT_INTERRUPTED, EXIT_NO, fail, new_console, say
from dreamhome.errors import DreamhomeError
from dreamhome.interrupt import Interrupted


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
        console=new_console(),
        disable=quiet,
        transient=False,
    ) as bar:
        task = bar.add_task(label, total=total, rate="")

        def progress(done: int, total: int) -> None:
            elapsed = bar.tasks[task].elapsed or 0
            rate = f"{done / elapsed:.1f} games/s" if elapsed > 0 and done else ""
            bar.update(task, completed=done, total=total, rate=rate)

        yield progress


@contextmanager
def playing_games(label: str, total: int, quiet: bool, kept: str) -> Iterator[Callable[[int, int], None]]:
    """`games_bar` around a batch's run: a refusal of the runner is one line and exit 2, and an
    interruption (Ctrl-C, SIGTERM) one line — what was stopped, then `kept`, what is saved and
    how to continue — and exit 130 or 143."""
    with games_bar(label, total, quiet=quiet) as progress:
        try:
            yield progress
        except DreamhomeError as exc:
            fail(str(exc))
        except (KeyboardInterrupt, Interrupted) as exc:
            why = exc if isinstance(exc, Interrupted) else "interrupted"
            say(f"{why}; {kept}")
            code = exc.exit_code if isinstance(exc, Interrupted) else EXIT_INTERRUPTED
            raise click.exceptions.Exit(code) from None


def exit_if_crashed(crashed: int, where: str) -> None:
    """Exit status 1 when games crashed, with where their seeds are."""
    if crashed:
        say(f"{crashed} game(s) crashed; their seeds are in {where}")
        raise click.exceptions.Exit(EXIT_NO)
