"""The options several commands take, each declared once as a click decorator, and the types of
their values.

An option two commands share is one declaration here, so it cannot drift between them: the same
flag, type, range, metavar and default everywhere. Where its help text says what it means for one
command, the decorator takes that text (`json_option("Print one JSON object.")`). The value
types refuse what click's own would let through: nan and the infinities (`FiniteRange`,
`Seconds`), a negative seed (`Seed`).
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from dreamhome.cli.common import fail, say
from dreamhome.fileio import printable

MAX_TIME_LIMIT = 7 * 24 * 3600.0
"""Longest --time-limit accepted (a week): past it the number is a typo, not a wish."""

MAX_SOLVER_WORKERS = 64
"""Most CP-SAT search workers one solve may have (--workers of the solving commands)."""

MAX_PROCESSES = 256
"""Most processes a command may run side by side (--workers of the batches, --processes)."""

DEFAULT_PLAYERS = 4
"""`play`'s and `whatif`'s players when neither --players nor --bots says."""

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


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


def house_argument(func):
    """HOUSE: a house file (`-`: stdin), the argument of every command that reads one house."""
    return click.argument("house_path", metavar="HOUSE", type=click.Path(dir_okay=False))(func)


def json_option(help: str) -> Decorator:
    """--json: the answer as JSON on stdout instead of the picture, table or summary."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def time_limit_option(help: str) -> Decorator:
    """--time-limit SECONDS of a solving command (no limit by default)."""
    return click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS", help=help)


def solver_workers_option(default: int, help: str) -> Decorator:
    """--workers of a solving command: CP-SAT search workers."""
    return click.option("--workers", type=click.IntRange(1, MAX_SOLVER_WORKERS), default=default, show_default=True, help=help)


def processes_option(flag: str, help: str) -> Decorator:
    """A number of processes run side by side (default: the command's own, one per core)."""
    return click.option(flag, type=click.IntRange(1, MAX_PROCESSES), default=None, help=help)


def save_option(help: str) -> Decorator:
    """--save FILE: the house found, written as dreamhome.house/1."""
    return click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None, help=help)


def html_option(help: str) -> Decorator:
    """--html FILE: a self-contained page of a game record."""
    return click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None, help=help)


def players_option(help: str) -> Decorator:
    """--players N: the players of a game (by default, one per name of --bots)."""
    return click.option("--players", type=int, default=None, help=help)


def bots_option(help: str) -> Decorator:
    """--bots NAMES: bots named comma-separated, one a seat (or a ladder's rung)."""
    return click.option("--bots", default=None, metavar="NAMES", help=help)


def bot_names(bots: str | None) -> list[str] | None:
    """The names of --bots, one a seat; None when it was not given."""
    return [b.strip() for b in bots.split(",")] if bots is not None else None


def seed_option(help: str) -> Decorator:
    """--seed S: the seed of the games a command plays."""
    return click.option("--seed", type=SEED, default=0, show_default=True, help=help)


def games_option(default: int, help: str) -> Decorator:
    """--games N of a batch of games."""
    return click.option("--games", type=int, default=default, show_default=True, help=help)


def out_option(help: str, default: str | None = None) -> Decorator:
    """--out DIR: the folder a batch of games writes (its chunks, results and pages)."""
    return click.option(
        "--out", "out_dir", type=click.Path(file_okay=False), default=default, show_default=default is not None, help=help
    )


def resume_option(help: str) -> Decorator:
    """--resume: continue the batch already in --out, its finished games kept."""
    return click.option("--resume", is_flag=True, help=help)


@dataclass(frozen=True)
class Executor:
    """Where a batch's games run: --executor, --workers, --address and --chunk."""

    name: str
    workers: int | None
    address: str | None
    chunk: int

    def cores(self) -> int:
        """The worker processes: --workers, else one per core."""
        return self.workers or os.cpu_count() or 1

    def run_options(self, resume: bool, progress: Callable[[int, int], None]) -> dict[str, Any]:
        """The keyword arguments the what-if and report runners take alike."""
        return dict(
            executor_name=self.name,
            workers=self.cores(),
            resume=resume,
            address=self.address,
            progress=progress,
            warn=lambda problem: say(f"warning: {problem}"),
        )


def executor_options(func):
    """--workers, --executor, --address and --chunk: where an experiment's games run (`whatif`,
    `report`), one set of options so both commands say them alike; the command gets them as one
    `executor` (an `Executor`)."""
    options = [
        processes_option("--workers", "Worker processes (default: one per core)."),
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

    @functools.wraps(func)
    def wrapper(*args, workers=None, executor_name="processes", address=None, chunk=25, **kwargs):
        kwargs["executor"] = Executor(executor_name, workers, address, chunk)
        return func(*args, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper
