"""Many records reviewed at once, on all cores, summed by bot and by seat: mean loss a decision
(with a 95% interval over games), accuracy, blunders a game, luck and score — a finer measure of
bot strength than final scores (issue 23, the bot benchmarks).

Each record is reviewed in a worker process (`review_record`, deterministic: the same sums on any
machine and any number of workers); the results come back in the order of the paths.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.game.record import RECORDS_DIR
from dreamhome.players.evaluation import REVIEW_WORK
from dreamhome.review.marks import BLUNDER, MISTAKE, TOLERANCE

BATCH_FORMAT = "dreamhome.review-batch/1"


def record_paths(paths: Iterable[str]) -> list[str]:
    """The records named: files as given, a folder as its `*.json` files (sorted by name), and a
    what-if's folder (its `manifest.json` beside `records/`, `whatif --records`) as its records."""
    out: list[str] = []
    for path in paths:
        p = Path(path)
        if p.is_dir() and (p / "manifest.json").is_file():
            if not (p / RECORDS_DIR).is_dir():
                raise DreamhomeError(f"{path}: a what-if's folder without its games' records: run the what-if with --records")
            p = p / RECORDS_DIR
        if p.is_dir():
            found = sorted(str(f) for f in p.glob("*.json") if f.is_file())
            if not found:
                raise DreamhomeError(f"{path}: a folder with no record (*.json) in it")
            out += found
        else:
            out.append(path)
    return out


Other = Callable[[Any, str], "dict[str, Any] | None"]
"""The record of another kind of file, None if it is not one (`record.load_record`'s `other`)."""


def review_file(path: str, work: float = REVIEW_WORK, other: Other | None = None, samples: int = 0) -> dict[str, Any]:
    """One record file's review as JSON (in a worker process); `other`: as `load_record` takes
    it; `samples`: play-outs an option (0: the solver's bound)."""
    from dreamhome.fileio import display_name
    from dreamhome.game.record import load_record
    from dreamhome.review.game import review_record

    source = display_name(path)
    return review_record(load_record(path, other), source, work, samples=samples).to_json()


def _review_or_error(args: tuple[str, float, Other | None, int]) -> dict[str, Any]:
    try:
        return review_file(*args)
    except DreamhomeError as exc:
        return {"error": str(exc)}


def review_many(
    paths: Sequence[str],
    work: float = REVIEW_WORK,
    workers: int | None = None,
    on_done: Callable[[int, int], None] | None = None,
    other: Other | None = None,
    samples: int = 0,
) -> list[dict[str, Any]]:
    """Every record of `paths` reviewed (JSON, the paths' order), on `workers` processes (all
    cores by default; 1: in this process). The first record that cannot be reviewed stops it
    all with its one-line reason."""
    from dreamhome.worker_process import die_with_parent

    jobs = [(p, work, other, samples) for p in paths]
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    results: list[dict[str, Any]] = []
    if workers == 1:
        mapped: Iterable[dict[str, Any]] = map(_review_or_error, jobs)
        pool = None
    else:
        forked = multiprocessing.get_start_method(allow_none=False) == "fork"  # as whatif.executors starts its pool
        pool = ProcessPoolExecutor(max_workers=workers, initializer=die_with_parent, initargs=(os.getpid() if forked else None,))
        mapped = pool.map(_review_or_error, jobs)
    try:
        for result in mapped:
            if "error" in result:
                raise DreamhomeError(result["error"])
            results.append(result)
            if on_done is not None:
                on_done(len(results), len(jobs))
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    return results


def aggregate(reviews: list[dict[str, Any]], work: float = REVIEW_WORK, samples: int = 0) -> dict[str, Any]:
    """The batch's sums by bot and by seat (`review.schema.json`, `batch`); `samples`: the
    play-outs an option the reviews used (0: the solver's bound), said with the work."""
    by_bot: dict[str, list[dict[str, Any]]] = {}
    by_seat: dict[str, list[dict[str, Any]]] = {}
    for review in reviews:
        for player in review["players"]:
            by_bot.setdefault(player["bot"], []).append(player)
            by_seat.setdefault(str(player["seat"]), []).append(player)
    return {
        "format": BATCH_FORMAT,
        "games": len(reviews),
        "evaluation": {
            "work": work,
            "tolerance": TOLERANCE,
            "mistake": MISTAKE,
            "blunder": BLUNDER,
            **({"samples": samples} if samples else {}),
        },
        "by_bot": {name: _sum(players) for name, players in sorted(by_bot.items())},
        "by_seat": {seat: _sum(players) for seat, players in sorted(by_seat.items(), key=lambda kv: int(kv[0]))},
        "reviews": [{"source": r["source"], "seed": r["seed"], "scores": r["scores"], "players": r["players"]} for r in reviews],
    }


def _sum(players: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean loss a decision over all the players' decisions; its 95% interval is over the
    players' own means (one a game and seat: the unit the draw varies)."""
    from dreamhome.intervals import mean_ci

    decisions = sum(p["decisions"] for p in players)
    lost = sum(p["total_loss"] for p in players)
    judged = sum(p.get("judged", p["decisions"]) for p in players)
    best = sum(p["accuracy"] * p.get("judged", p["decisions"]) for p in players)
    ci = mean_ci([p["mean_loss"] for p in players])
    n = len(players)
    return {
        "games": n,
        "decisions": decisions,
        "mean_loss": round(lost / decisions, 4) if decisions else 0.0,
        "mean_loss_ci95": [round(ci["low"] or 0.0, 4), round(ci["high"] or 0.0, 4)],
        "accuracy": round(best / judged, 4) if judged else 1.0,
        "blunders_per_game": round(sum(p["blunders"] for p in players) / n, 4) if n else 0.0,
        "mean_luck": round(sum(p["luck"] for p in players) / n, 3) if n else 0.0,
        "mean_score": round(sum(p["final"] for p in players) / n, 3) if n else 0.0,
    }


__all__ = ["BATCH_FORMAT", "aggregate", "record_paths", "review_file", "review_many"]
