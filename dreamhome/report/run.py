"""Play a report's plan through the what-if engine: each condition is a what-if experiment
(`ReportPlan.experiment`) in a what-if store of its own (one directory a condition, so an
interrupted report resumes), and the what-if runner (`play_stores`) plays them all through one
executor (in process, a process pool, Ray), with its progress. What is the report's own here:
its plan read back per condition, its `--precision` rounds and its time estimate."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.fileio import check_output_dir
from dreamhome.report.plan import Condition, ReportPlan
from dreamhome.report.play import play_report_chunk
from dreamhome.report.power import first_seat_rate, more_games, width
from dreamhome.whatif.experiment import job_payload
from dreamhome.whatif.runner import out_or_temp, play_stores
from dreamhome.whatif.store import Store

GAMES_DIR = "games"
TEMP_PREFIX = "dreamhome-report-"


def run_plan(
    plan: ReportPlan,
    out: str | Path | None,
    *,
    executor_name: str = "processes",
    workers: int = 2,
    resume: bool = False,
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    warn: Callable[[str], None] | None = None,
) -> dict[Condition, list[dict]]:
    """Every condition's games (sorted by game index), played or read back from `out`."""
    with out_or_temp(out, TEMP_PREFIX) as folder:
        check_output_dir(Path(folder))
        conditions = plan.conditions()
        stores = [Store(Path(folder) / GAMES_DIR / c.key, plan.experiment(c), resume) for c in conditions]
        play_stores(
            stores, play_report_chunk, executor_name=executor_name, workers=workers, address=address, progress=progress, warn=warn
        )
        return {c: store.load_games()[0] for c, store in zip(conditions, stores)}


def check_precision(target: object) -> float:
    """`target` if it is a `--precision` width, a number in (0, 1]; else one DreamhomeError
    line. NaN compares false with every bound, so a range check alone let `--precision nan`
    through (issue 34: NaN refused wherever a number is read) and the report ended at once."""
    if isinstance(target, bool) or not isinstance(target, int | float) or not math.isfinite(target) or not 0 < target <= 1:
        raise DreamhomeError(f"--precision: the interval width is a number in (0, 1], got {target!r}")
    return float(target)


def run_to_precision(
    plan: ReportPlan,
    out: str | Path | None,
    target: float,
    *,
    say: Callable[[str], None] | None = None,
    **options: Any,
) -> tuple[ReportPlan, dict[Condition, list[dict]]]:
    """`--precision W`: the plan played, then each self-play condition whose first seat's
    win-rate interval is wider than W played on in blocks (`power.more_games`, under every
    ruleset on the same seeds) until every interval is at most W wide or a condition reaches
    MAX_GAMES. Returns the plan with its blocks and the games; each round's decision reads
    the games alone, so a seed gives the same blocks on any executor."""
    check_precision(target)
    with out_or_temp(out, TEMP_PREFIX) as folder:  # the rounds share one store
        resume = bool(options.pop("resume", False))
        while True:
            played = run_plan(plan, folder, resume=resume, **options)
            resume = True  # the next round continues the same store
            merged = plan.merged(played)
            added = False
            for c in plan.conditions():
                if c.role != "seats" or c.ruleset != 0:
                    continue
                widest = max(width(first_seat_rate(merged[d], c.players)) for d in _twins(plan, c))
                games = min(len(merged[d]) for d in _twins(plan, c))
                if widest > target:
                    extra = more_games(games, widest, target, plan.chunk)
                    if extra:
                        plan = plan.extended(c.players, c.bots[0], extra)
                        added = True
                        if say is not None:
                            say(
                                f"--precision {target}: {c.players} players, {c.bots[0]}: interval {widest:.3f} wide "
                                f"after {games} games; {extra} more"
                            )
            if not added:
                return plan, played


def _twins(plan: ReportPlan, cond: Condition) -> list[Condition]:
    """The self-play condition `cond` under every ruleset (they are extended together)."""
    return [c for c in plan.conditions() if c.role == "seats" and c.players == cond.players and c.bots == cond.bots]


def estimate_minutes(plan: ReportPlan, workers: int, per_kind: int = 2) -> tuple[str, float]:
    """The wall time the plan's games will take, from a small timed run before it starts:
    `per_kind` games of each kind of condition (its player count and its bots, a card
    restriction counted as the bot it wraps) played here, their mean time scaled to that kind's
    games and divided among the workers. Wall-clock based and printed only: it never enters the
    report, whose numbers are the games'."""
    import time

    from dreamhome.report.restricted import split_name

    kinds: dict[tuple[int, tuple[str, ...]], tuple[Condition, int]] = {}
    for c in plan.conditions():
        kind = (c.players, tuple(split_name(b)[0] for b in c.bots))
        first, games = kinds.get(kind, (c, 0))
        kinds[kind] = (first, games + c.games)
    seconds = 0.0
    played = 0
    for cond, games in kinds.values():
        exp = plan.experiment(cond)
        job = {**job_payload(exp, (0, 0, min(per_kind, cond.games))), "ruleset": 0}
        start = time.perf_counter()
        play_report_chunk(job)
        took = time.perf_counter() - start
        played += job["end"]
        seconds += took / job["end"] * games
    return f"{played} games of {len(kinds)} kind(s), timed just now", seconds / 60 / max(1, workers)
