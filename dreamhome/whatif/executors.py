"""Executors map `play_chunk` over chunks: in process, a process pool, or a Ray cluster.

Each yields finished chunks as they complete (any order); the caller stores
them and the statistics sort by (ruleset, game), so the numbers never depend
on the executor, the number of workers or the completion order.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

from dreamhome.errors import DreamhomeError
from dreamhome.whatif.experiment import play_chunk

EXECUTORS = ("local", "processes", "ray")


def run_local(payloads: list[dict], workers: int) -> Iterator[dict]:
    for payload in payloads:
        yield play_chunk(payload)


def run_processes(payloads: list[dict], workers: int) -> Iterator[dict]:
    pending = list(payloads)
    pool = ProcessPoolExecutor(max_workers=workers)
    broken = False
    try:
        futures = {pool.submit(play_chunk, p): p for p in pending}
        for future in as_completed(futures):
            try:
                result = future.result()
            except BrokenProcessPool:
                broken = True  # a worker died (killed, out of memory): find out which game did it, below
                break
            pending.remove(futures[future])
            yield result
    except BaseException:
        # Ctrl-C (or the caller stopping): drop queued chunks and stop the workers now; the
        # chunks already yielded are stored, so --resume continues from there.
        processes = list((getattr(pool, "_processes", None) or {}).values())  # no public API for this
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        raise
    pool.shutdown(wait=True)
    if broken:
        for payload in pending:
            yield _play_alone(payload)


def _play_alone(payload: dict) -> dict:
    """Play a chunk in a fresh process; if that dies too, play its games one by one, each in
    its own process, so the crash is reported with the seed that caused it."""
    try:
        with ProcessPoolExecutor(max_workers=1) as solo:
            return solo.submit(play_chunk, payload).result()
    except BrokenProcessPool:
        pass
    games = []
    for i in range(payload["start"], payload["end"]):
        single = dict(payload, start=i, end=i + 1)
        try:
            with ProcessPoolExecutor(max_workers=1) as solo:
                games += solo.submit(play_chunk, single).result()["games"]
        except BrokenProcessPool:
            games.append({"game": i, "seed": payload["seed"] + i, "error": "the worker process died"})
    return {"ruleset": payload["ruleset"], "start": payload["start"], "end": payload["end"], "games": games}


def _crashed(payload: dict, why: str) -> dict:
    games = [{"game": i, "seed": payload["seed"] + i, "error": why} for i in range(payload["start"], payload["end"])]
    return {"ruleset": payload["ruleset"], "start": payload["start"], "end": payload["end"], "games": games}


def run_ray(payloads: list[dict], workers: int, address: str | None = None) -> Iterator[dict]:
    try:
        import ray
    except ImportError:
        raise DreamhomeError("the ray executor needs the optional extra: pip install -e '.[ray]'") from None
    started = False
    if not ray.is_initialized():
        kwargs = {"address": address} if address else {"num_cpus": workers}
        ray.init(include_dashboard=False, log_to_driver=False, ignore_reinit_error=True, **kwargs)
        started = True
    try:
        remote = ray.remote(play_chunk)
        refs = {remote.remote(p): p for p in payloads}
        while refs:
            done, _ = ray.wait(list(refs), num_returns=1)
            for ref in done:
                payload = refs.pop(ref)
                try:
                    yield ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - a crashed task is reported, the run goes on
                    yield _crashed(payload, f"ray task failed: {type(exc).__name__}")
    finally:
        if started:
            ray.shutdown()


def executor(name: str, address: str | None = None):
    if name == "local":
        return run_local
    if name == "processes":
        return run_processes
    if name == "ray":
        return lambda payloads, workers: run_ray(payloads, workers, address)
    raise DreamhomeError(f"unknown executor '{name}'; expected one of {', '.join(EXECUTORS)}")
