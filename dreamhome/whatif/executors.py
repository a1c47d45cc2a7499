"""Executors map `play_chunk` over chunks: in process, a process pool, or a Ray cluster.

Each yields finished chunks as they complete (any order); the caller stores
them and the statistics sort by (ruleset, game), so the numbers never depend
on the executor, the number of workers or the completion order.

Chunks arrive as a lazy iterable and only a few per worker are in flight at a
time, so a huge experiment never builds all its work up front. Worker
processes die with their parent (`die_with_parent`), so a `kill -9` of the
what-if leaves no orphan burning the CPU.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

from dreamhome.errors import DreamhomeError
from dreamhome.whatif.experiment import play_chunk
from dreamhome.worker_process import die_with_parent

EXECUTORS = ("local", "processes", "ray")
IN_FLIGHT_PER_WORKER = 2
"""Chunks queued per worker: enough to keep it busy, few enough to hold in memory."""


def _new_pool(workers: int) -> ProcessPoolExecutor:
    forked = multiprocessing.get_start_method(allow_none=False) == "fork"
    return ProcessPoolExecutor(max_workers=workers, initializer=die_with_parent, initargs=(os.getpid() if forked else None,))


Play = Callable[[dict], dict]
"""What a worker does with a chunk's payload: `play_chunk` for a what-if; another experiment
(the balance report, dreamhome.report) passes its own module-level function, which must take
the same payload keys (ruleset, start, end, seed, …) and return a chunk of the same shape."""


def run_local(payloads: Iterable[dict], workers: int, play: Play = play_chunk) -> Iterator[dict]:
    for payload in payloads:
        yield play(payload)


def run_processes(payloads: Iterable[dict], workers: int, play: Play = play_chunk) -> Iterator[dict]:
    """Chunks on a process pool; a pool broken by a dying worker is replaced, and the chunks it
    held are played alone so the crash is reported with the seed that caused it."""
    source = iter(payloads)
    while True:
        lost: list[dict] = []
        yield from _pool_pass(source, workers, lost, play)
        if not lost:
            return
        for payload in lost:
            yield _play_alone(payload, play)


def _pool_pass(source: Iterator[dict], workers: int, lost: list[dict], play: Play = play_chunk) -> Iterator[dict]:
    """Run chunks from `source` until it is empty or the pool breaks; a broken pool's chunks go to `lost`."""
    pool = _new_pool(workers)
    in_flight: dict[Future, dict] = {}
    try:
        _top_up(pool, in_flight, source, workers * IN_FLIGHT_PER_WORKER, play)
        while in_flight:
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in done:
                payload = in_flight.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    lost.append(payload)  # a worker died (killed, out of memory)
                    continue
                yield result
            if lost:
                lost.extend(in_flight.values())
                in_flight.clear()
                break
            _top_up(pool, in_flight, source, workers * IN_FLIGHT_PER_WORKER, play)
    except BaseException:
        # Ctrl-C (or the caller stopping): drop queued chunks and stop the workers now; the
        # chunks already yielded are stored, so --resume continues from there.
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def _top_up(
    pool: ProcessPoolExecutor, in_flight: dict[Future, dict], source: Iterator[dict], limit: int, play: Play = play_chunk
) -> None:
    for payload in itertools.islice(source, max(0, limit - len(in_flight))):
        in_flight[pool.submit(play, payload)] = payload


def _stop(pool: ProcessPoolExecutor) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public API for this
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def _play_alone(payload: dict, play: Play = play_chunk) -> dict:
    """Play a chunk in a fresh process; if that dies too, play its games one by one, each in
    its own process, so the crash is reported with the seed that caused it."""
    try:
        with _new_pool(1) as solo:
            return solo.submit(play, payload).result()
    except BrokenProcessPool:
        pass
    games = []
    for i in range(payload["start"], payload["end"]):
        single = dict(payload, start=i, end=i + 1)
        try:
            with _new_pool(1) as solo:
                games += solo.submit(play, single).result()["games"]
        except BrokenProcessPool:
            games.append({"game": i, "seed": payload["seed"] + i, "error": "the worker process died"})
    return {"ruleset": payload["ruleset"], "start": payload["start"], "end": payload["end"], "games": games}


def _crashed(payload: dict, why: str) -> dict:
    games = [{"game": i, "seed": payload["seed"] + i, "error": why} for i in range(payload["start"], payload["end"])]
    return {"ruleset": payload["ruleset"], "start": payload["start"], "end": payload["end"], "games": games}


@contextmanager
def _signal_handlers_kept() -> Iterator[None]:
    """Around `ray.init`, which puts its own SIGTERM handler (a `sys.exit`) in place of the
    caller's: the command's own Ctrl-C and SIGTERM handling (dreamhome.interrupt) stays, and a
    test run calling this in process keeps its handlers (tests/conftest.py checks it)."""
    main = threading.current_thread() is threading.main_thread()
    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)} if main else {}
    try:
        yield
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


def run_ray(payloads: Iterable[dict], workers: int, address: str | None = None, play: Play = play_chunk) -> Iterator[dict]:
    try:
        import ray
    except ImportError:
        raise DreamhomeError("the ray executor needs the optional extra: pip install -e '.[ray]'") from None
    started = False
    if not ray.is_initialized():
        # Without an address, a Ray instance of this run's own ("local"): with none given, ray.init
        # joins the latest instance started on the machine (another run's, another user's), where
        # `num_cpus` is refused with a ValueError (two report/what-if runs at once; the test suite).
        kwargs = {"address": address} if address else {"address": "local", "num_cpus": workers}
        with _signal_handlers_kept():
            ray.init(include_dashboard=False, log_to_driver=False, ignore_reinit_error=True, **kwargs)
        started = True
    try:
        remote = ray.remote(play)
        source = iter(payloads)
        refs = {}
        for payload in itertools.islice(source, workers * IN_FLIGHT_PER_WORKER):
            refs[remote.remote(payload)] = payload
        while refs:
            done, _ = ray.wait(list(refs), num_returns=1)
            for ref in done:
                payload = refs.pop(ref)
                try:
                    yield ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - a crashed task is reported, the run goes on
                    yield _crashed(payload, f"ray task failed: {type(exc).__name__}")
                for more in itertools.islice(source, 1):
                    refs[remote.remote(more)] = more
    finally:
        if started:
            ray.shutdown()


def executor(name: str, address: str | None = None, play: Play = play_chunk):
    """`run(payloads, workers)` of the executor `name`, each chunk played by `play`."""
    if name == "local":
        return run_local if play is play_chunk else lambda payloads, workers: run_local(payloads, workers, play)
    if name == "processes":
        return run_processes if play is play_chunk else lambda payloads, workers: run_processes(payloads, workers, play)
    if name == "ray":
        return lambda payloads, workers: run_ray(payloads, workers, address, play)
    raise DreamhomeError(f"unknown executor '{name}'; expected one of {', '.join(EXECUTORS)}")
