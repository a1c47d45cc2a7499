"""Run experiments: the one batch runner of the project. `play_stores` plays the chunks of any
number of experiments, each in its own store, through one executor (in process, a process pool,
Ray), storing each chunk as it comes (so an interrupted run resumes) and telling the progress;
`run_experiment` is a what-if's run with it, and the balance report (dreamhome.report.run) plays
its conditions with it too."""

from __future__ import annotations

import json
import tempfile
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import accumulate
from pathlib import Path

from dreamhome.fileio import check_output_tree, write_atomic
from dreamhome.game.record import RECORDS_DIR
from dreamhome.whatif.executors import Play, executor
from dreamhome.whatif.experiment import Experiment, job_payload, play_chunk
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


def _file_records(folder: Path, chunk: dict) -> None:
    """Take each game's record out of `chunk` (which is stored without them) into its own file."""
    for game in chunk.get("games", []):
        record = game.pop("record", None)
        if record is not None:
            folder.mkdir(exist_ok=True)
            write_atomic(
                folder / record_name(chunk["ruleset"], game["game"]), json.dumps(record, indent=1, ensure_ascii=False) + "\n"
            )


Progress = Callable[[int, int], None]
"""`progress(done, total)`: games stored so far, of all the run's games."""


@contextmanager
def out_or_temp(out: str | Path | None, prefix: str) -> Iterator[str | Path]:
    """`out` as given, or, without one, a temporary directory deleted after the run (the games
    are stored somewhere to be read back)."""
    if out is not None:
        yield out
        return
    with tempfile.TemporaryDirectory(prefix=prefix) as temp:
        yield temp


def play_stores(
    stores: Sequence[Store],
    play: Play = play_chunk,
    *,
    executor_name: str = "processes",
    workers: int = 2,
    address: str | None = None,
    progress: Progress | None = None,
    warn: Callable[[str], None] | None = None,
    records: Path | None = None,
) -> None:
    """Play every chunk of the stores' experiments not stored yet, through one executor, and
    store each as it finishes. `warn` hears of the chunk files found damaged or foreign (they
    are played again); `progress` of the games stored, those found done first; `play` is what a
    worker runs on a chunk's payload; with `records` (a folder), each game's record is filed
    there apart from its chunk, one file a game (`whatif --records`).

    A chunk's payload names its store and ruleset by one number, the payload's `ruleset`
    counted across the stores' rulesets (its own ruleset index when there is one store): the
    executors rebuild a crashed chunk from its payload, and it still finds its way back."""
    firsts = list(accumulate((len(store.exp.rulesets) for store in stores), initial=0))
    done = []
    for store in stores:
        done.append(store.done())
        if warn is not None:
            for problem in store.problems:
                warn(problem)
    total = sum(store.exp.games * len(store.exp.rulesets) for store in stores)
    finished = sum(end - start for jobs in done for _r, start, end in jobs)
    if progress is not None:
        progress(finished, total)
    payloads = (
        {**job_payload(store.exp, job, records is not None), "ruleset": first + job[0]}
        for store, first, jobs in zip(stores, firsts, done)
        for job in store.exp.jobs()
        if job not in jobs
    )  # made as the executors take them: a big experiment's chunks are never all listed
    run = executor(executor_name, address, play)
    for chunk in run(payloads, workers):
        k = bisect_right(firsts, chunk["ruleset"]) - 1
        chunk = {**chunk, "ruleset": chunk["ruleset"] - firsts[k]}
        if records is not None:
            _file_records(records, chunk)
        stores[k].save(chunk)
        finished += chunk["end"] - chunk["start"]
        if progress is not None:
            progress(finished, total)


def run_experiment(
    exp: Experiment,
    out: str | Path | None,
    *,
    executor_name: str = "processes",
    workers: int = 2,
    resume: bool = False,
    address: str | None = None,
    progress: Progress | None = None,
    warn: Callable[[str], None] | None = None,
    records: bool = False,
) -> dict:
    """Returns the results document; with `out`, also writes it with report.md and plots there.

    `warn` hears of chunk files found damaged or foreign on resume (they are played again).
    With `records` (and `out`), each game played is also kept as a game record in
    `out/records/` (`RECORDS_DIR`, one file a game: `record_name`), for `dreamhome analyze`; the
    chunks and the numbers are the same with or without them.
    """
    temp = out is None  # then no report files and no records: the results document alone
    with out_or_temp(out, "dreamhome-whatif-") as folder:
        if not temp:
            check_experiment_dir(folder, records)
        store = Store(folder, exp, resume)
        play_stores(
            [store],
            executor_name=executor_name,
            workers=workers,
            address=address,
            progress=progress,
            warn=warn,
            records=Path(folder) / RECORDS_DIR if records and not temp else None,
        )
        per = store.load_games()
        stats = experiment_stats(per, [r.label for r in exp.rulesets], exp.players)
        doc = results_document(exp.to_dict(), stats)
        if not temp:
            scores = [[s for g in games if "error" not in g for s in g["scores"]] for games in per]
            write_report(Path(folder), doc, scores)
        return doc
