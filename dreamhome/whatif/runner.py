"""Run an experiment: store finished chunks as they come, then compute and report."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path

from dreamhome.fileio import check_output_tree, write_atomic
from dreamhome.game.record import RECORDS_DIR
from dreamhome.whatif.executors import executor
from dreamhome.whatif.experiment import Experiment, job_payload
from dreamhome.whatif.report import REPORT_FILES, results_document, write_report
from dreamhome.whatif.stats import experiment_stats
from dreamhome.whatif.store import CHUNKS_DIR, MANIFEST, Store


def record_name(ruleset: int, game: int) -> str:
    """The file of game `game` under ruleset `ruleset` (both as the experiment counts them)."""
    return f"ruleset{ruleset}-game{game:07d}.json"


def check_experiment_dir(out: str | Path, records: bool = False) -> None:
    """Refuse, before any game is played, an experiment folder one of whose outputs could not be
    written (one OutputError line naming it): a `records` that is a file once stopped `whatif
    --records` after its first chunk, with "File exists" and no name (issue 34, item 13)."""
    folders = (CHUNKS_DIR, RECORDS_DIR) if records else (CHUNKS_DIR,)
    check_output_tree(out, files=(MANIFEST, *REPORT_FILES), folders=folders)


def _file_records(out: Path, chunk: dict) -> None:
    """Take each game's record out of `chunk` (which is stored without them) into its own file."""
    for game in chunk.get("games", []):
        record = game.pop("record", None)
        if record is not None:
            folder = out / RECORDS_DIR
            folder.mkdir(exist_ok=True)
            write_atomic(
                folder / record_name(chunk["ruleset"], game["game"]), json.dumps(record, indent=1, ensure_ascii=False) + "\n"
            )


def run_experiment(
    exp: Experiment,
    out: str | Path | None,
    *,
    executor_name: str = "processes",
    workers: int = 2,
    resume: bool = False,
    address: str | None = None,
    progress=None,
    warn: Callable[[str], None] | None = None,
    records: bool = False,
) -> dict:
    """Returns the results document; with `out`, also writes it with report.md and plots there.

    `warn` hears of chunk files found damaged or foreign on resume (they are played again).
    With `records` (and `out`), each game played is also kept as a game record in
    `out/records/` (`RECORDS_DIR`, one file a game: `record_name`), for `dreamhome analyze`; the
    chunks and the numbers are the same with or without them.
    """
    temp = None
    if out is None:
        temp = tempfile.TemporaryDirectory(prefix="dreamhome-whatif-")
        out = temp.name
    try:
        if temp is None:
            check_experiment_dir(out, records)
        store = Store(out, exp, resume)
        done = store.done()
        if warn is not None:
            for problem in store.problems:
                warn(problem)
        todo = (job for job in exp.jobs() if job not in done)
        total = exp.games * len(exp.rulesets)
        finished = sum(end - start for _r, start, end in done)
        if progress is not None:
            progress(finished, total)
        run = executor(executor_name, address)
        for chunk in run((job_payload(exp, job, records and temp is None) for job in todo), workers):
            _file_records(Path(out), chunk)
            store.save(chunk)
            finished += chunk["end"] - chunk["start"]
            if progress is not None:
                progress(finished, total)
        per = store.load_games()
        stats = experiment_stats(per, [r.label for r in exp.rulesets], exp.players)
        doc = results_document(exp.to_dict(), stats)
        if temp is None:
            scores = [[s for g in games if "error" not in g for s in g["scores"]] for games in per]
            write_report(Path(out), doc, scores)
        return doc
    finally:
        if temp is not None:
            temp.cleanup()
