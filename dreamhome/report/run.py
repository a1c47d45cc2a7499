"""Play a report's plan through the what-if engine: its store (one directory a condition, so
an interrupted report resumes), its executors (in process, a process pool, Ray) and its
determinism (the games are a function of the payload, sorted by game index when read)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from dreamhome.fileio import check_output_dir
from dreamhome.report.plan import Condition, ReportPlan
from dreamhome.report.play import play_report_chunk
from dreamhome.whatif.executors import executor
from dreamhome.whatif.experiment import job_payload
from dreamhome.whatif.store import Store

GAMES_DIR = "games"


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
    temp = None
    if out is None:
        temp = tempfile.TemporaryDirectory(prefix="dreamhome-report-")
        out = temp.name
    try:
        check_output_dir(Path(out))
        conditions = plan.conditions()
        stores = [Store(Path(out) / GAMES_DIR / c.key, plan.experiment(c), resume) for c in conditions]
        total = sum(c.games for c in conditions)
        finished = 0
        todo: list[tuple[int, tuple[int, int, int]]] = []
        for k, store in enumerate(stores):
            done = store.done()
            if warn is not None:
                for problem in store.problems:
                    warn(problem)
            finished += sum(b - a for _r, a, b in done)
            todo += [(k, job) for job in store.exp.jobs() if job not in done]
        if progress is not None:
            progress(finished, total)
        run = executor(executor_name, address, play=play_report_chunk)
        for chunk in run(_payloads(stores, todo), workers):
            k = chunk["ruleset"]  # the condition's index, sent as the payload's ruleset
            stores[k].save({**chunk, "ruleset": 0})
            finished += chunk["end"] - chunk["start"]
            if progress is not None:
                progress(finished, total)
        return {c: store.load_games()[0] for c, store in zip(conditions, stores)}
    finally:
        if temp is not None:
            temp.cleanup()


def _payloads(stores: list[Store], todo: list[tuple[int, tuple[int, int, int]]]) -> Iterator[dict]:
    for k, job in todo:
        yield {**job_payload(stores[k].exp, job), "ruleset": k}
