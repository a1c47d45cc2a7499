"""The review pages of finished games: each computed once, in a worker process, then kept.

Why once per game: a review costs tens of seconds of solving (dreamhome.review), and a finished
game's review never changes (its work is deterministic). Concurrent requests for one game, in
any language, share one job: the worker reviews the game once (language-free) and renders the
page in every language of the table (`i18n.LANGUAGES`, about a second each), and the pages are
kept in memory (`kept` games) and on disk beside the game (`<id>.review`, the store's own file:
a link or another kind of file under that name is refused), so a restart does not review it
again. The file is bound to the game by the record's digest: a review of another game, or of
an edited one, is computed anew.

Why a worker process and not a thread: the review is Python-heavy, and a thread holding the
interpreter lock starved the event loop (`GET /api/options` took 5.6–13.8 s while two reviews
ran). The worker is a separate process (`workers` of them, one by default: the machine's other
cores serve the pages); a process started by `spawn` shares no lock of the server's threads.

Why in the background, and a page that answers at once (issue 33): a 3–4 player review takes
15–60 s, and a tab left blank that long looks broken. The review of a table game starts when the
game ends (`bots.BotMover`, with `review_on_end`), and `GET /games/ID/review` answers at once with
the finished page or, while it works, a small page that says how far it is ("decisions reviewed:
34 of 97", sent by the worker as it goes: `review.walk`'s `on_decision`) and asks again every
few seconds (`render.review_page.waiting_html`: its own script, a timed reload without one). Why one worker at a time and
a lowered priority (`REVIEW_NICE`): the review must never starve the bots' moves and the hints,
which share the server's cores.

Why a budget: a review request costs nothing to send and a minute of a core to answer. Starting
a review counts against its client address's bucket (`rate` a second, `burst` at once; joining
a job already running or reading a kept page costs nothing), and at most `queued` reviews wait
at once, all clients together: past either, 429 with one line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from dreamhome import fileio
from dreamhome.errors import DreamhomeError
from dreamhome.i18n import LANGUAGES
from dreamhome.web.ratelimit import Buckets
from dreamhome.web.store import GameNotFoundError, GameStore

FORMAT = "dreamhome.webreview/1"
SUFFIX = ".review"
"""A game's review file: `<id>.review` beside `<id>.json` (not `.json`: `dreamhome analyze FOLDER`
reads the folder's `*.json` as games)."""
REVIEW_RATE = 1 / 60
"""Reviews one client address may start a second, on average (one a minute)."""
REVIEW_BURST = 4
"""Reviews one client address may start at once."""
REVIEWS_QUEUED = 8
"""Reviews computed or waiting at once, all clients together."""
REVIEW_PATIENCE = 900.0
"""Seconds a request waits for a review before it is answered 503 and the job forgotten (a
worker that died leaves its job unanswered); only a bound on waiting, never on the review's work."""
REVIEWS_KEPT = 16
"""Games whose review pages are held in memory (the least recently used dropped first; the rest
wait on disk)."""

REVIEW_NICE = 10
"""How much lower than the server's the review worker's priority is (`os.nice`): the bots' moves
and the hints, in the server's threads, come first on a busy machine."""
FIRST_WAIT = 0.5
"""Seconds a review request waits for a running job before answering with the progress page."""

Pages = dict[str, str]
OnProgress = Callable[[int, int], None]
"""(decisions reviewed, decisions in all): what a review reports as it goes."""
Compute = Callable[[dict[str, Any], str, OnProgress], Pages]
"""What a worker runs: (the game's record, its source name, a progress callback) → the page in
each language."""


@dataclass(frozen=True)
class Progress:
    """Where a review is: waiting for a worker (`started` false), or `done` of `total`
    decisions reviewed (`done == total`: the pages are being written)."""

    started: bool
    done: int = 0
    total: int = 0


log = logging.getLogger("dreamhome.web")


class ReviewBusyError(DreamhomeError):
    """Too many reviews started by this address, or waiting on the server: 429."""


class ReviewLateError(DreamhomeError):
    """The review did not come (a worker that died, the server stopping): 503."""


def review_pages(record: dict[str, Any], source: str, on_progress: OnProgress | None = None) -> Pages:
    """In a worker: `record` reviewed once (each decision reported to `on_progress`), its page
    rendered in every language of the table."""
    from dreamhome.render.review_page import review_html
    from dreamhome.review.game import review_record

    review = review_record(record, source, on_decision=on_progress)
    return {lang: review_html(review, lang) for lang in LANGUAGES}


def _worker(compute: Compute, record: dict[str, Any], source: str, parent: int, answer: Connection) -> None:
    """A review worker process: one review, its progress sent as it goes and its answer sent
    back whole. Ctrl-C is the server's to handle (it ends the workers), and the worker ends with
    the server (`die_with_parent`); it runs at a lower priority than the server (`REVIEW_NICE`)."""
    from dreamhome.worker_process import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    try:
        os.nice(REVIEW_NICE)
    except (AttributeError, OSError):  # no nice on this system: the same priority as the server
        pass

    def progress(done: int, total: int) -> None:
        answer.send(("progress", (int(done), int(total))))

    try:
        answer.send(("pages", compute(record, source, progress)))
    except DreamhomeError as exc:
        answer.send(("error", str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
    except BaseException as exc:  # noqa: BLE001 - sent to the server, which logs it
        answer.send(("crash", repr(exc)[:500]))
    finally:
        answer.close()


class Reviews:
    """The review pages of one store's games (see the module's docstring)."""

    def __init__(
        self,
        store: GameStore,
        compute: Compute = review_pages,
        workers: int = 1,
        rate: float = REVIEW_RATE,
        burst: int = REVIEW_BURST,
        queued: int = REVIEWS_QUEUED,
        kept: int = REVIEWS_KEPT,
    ):
        self.store = store
        self.compute = compute
        self.workers = max(1, workers)
        self.budget = Buckets(rate, burst)
        self.queued = queued
        self.kept = max(1, kept)
        self.computed = 0  # reviews computed by the workers (what the tests count)
        self._pages: OrderedDict[str, tuple[str, Pages]] = OrderedDict()  # game → (record digest, pages)
        self._jobs: dict[str, Future[Pages]] = {}
        self._progress: dict[str, Progress] = {}  # game → how far its running job is
        self._since: dict[str, float] = {}  # game → when its running job was asked for
        self._failed: dict[str, tuple[str, BaseException]] = {}  # game → (record digest, the error of its last job)
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(self.workers)
        self._processes: set[multiprocessing.process.BaseProcess] = set()
        self._closed = False

    # ---- kept pages
    def kept_pages(self, game_id: str, digest: str) -> Pages | None:
        """The pages of the game whose record has `digest`, from memory or its file; None if
        neither holds them (a file that does not fit is logged and computed anew)."""
        with self._lock:
            held = self._pages.get(game_id)
            if held is not None and held[0] == digest:
                self._pages.move_to_end(game_id)
                return held[1]
        try:
            raw = self.store.read_own(game_id, SUFFIX)
        except GameNotFoundError:
            return None
        except DreamhomeError as exc:
            log.warning("game %s: its review file is not used: %s", game_id, str(exc).splitlines()[0][:200])
            return None
        pages = _pages_of(raw, digest)
        if pages is None:
            log.warning("game %s: its review file is not this game's review; reviewed anew", game_id)
            return None
        self._remember(game_id, digest, pages)
        return pages

    def _remember(self, game_id: str, digest: str, pages: Pages) -> None:
        with self._lock:
            self._pages[game_id] = (digest, pages)
            self._pages.move_to_end(game_id)
            while len(self._pages) > self.kept:
                self._pages.popitem(last=False)

    def _keep(self, game_id: str, digest: str, pages: Pages) -> None:
        """A job's pages kept in memory and written beside the game (a failed write is logged:
        the pages are answered all the same)."""
        self._remember(game_id, digest, pages)
        text = json.dumps({"format": FORMAT, "record": digest, "pages": pages}, ensure_ascii=False)
        try:
            self.store.write_own(game_id, SUFFIX, text)
        except (OSError, DreamhomeError) as exc:
            log.warning("game %s: its review could not be kept on disk: %s", game_id, exc)

    # ---- jobs
    def job(self, game_id: str, record: dict[str, Any], client: str | None) -> Future[Pages]:
        """The job reviewing the game of `record`: the one running, else a new one, counted
        against `client`'s budget (None: the server's own, after a game ended)."""
        digest = str(record.get("digest"))
        with self._lock:
            running = self._jobs.get(game_id)
            if running is not None:
                return running
            if self._closed:
                raise ReviewBusyError("the server is stopping")
            if len(self._jobs) >= self.queued:
                raise ReviewBusyError("the server is busy reviewing other games; try again in a minute")
            if client is not None and not self.budget.take(client):
                raise ReviewBusyError("too many reviews asked from this address; try again in a minute")
            future: Future[Pages] = Future()
            self._jobs[game_id] = future
            self._progress[game_id] = Progress(started=False)
            self._since[game_id] = time.monotonic()
            self._failed.pop(game_id, None)

        def done(pages: Pages) -> None:  # in the job's thread
            self._keep(game_id, digest, pages)
            self.computed += 1
            self._forget(game_id, future)
            if not future.done():
                future.set_result(pages)

        def failed(exc: BaseException) -> None:
            if not isinstance(exc, DreamhomeError):
                log.error("game %s: the review failed: %r", game_id, exc)
                exc = DreamhomeError("the review could not be computed (logged by the server)")
            with self._lock:
                self._failed[game_id] = (digest, exc)  # told to the next request, which may ask again
            self._forget(game_id, future)
            if not future.done():
                future.set_exception(exc)

        def work() -> None:  # in a thread of its own: waits for a slot, then for the worker's answer
            try:
                done(self._run(game_id, record, f"game {game_id}"))
            except BaseException as exc:  # noqa: BLE001 - answered to the requests waiting
                failed(exc)

        threading.Thread(target=work, name=f"dreamhome-review-{game_id}", daemon=True).start()
        return future

    def _forget(self, game_id: str, future: Future[Pages]) -> None:
        """The job of `game_id` no longer running (if it is still `future`)."""
        with self._lock:
            if self._jobs.get(game_id) is future:
                self._drop(game_id)

    def _drop(self, game_id: str) -> None:
        """The running job of `game_id` and what is kept of it forgotten (call with the lock held)."""
        del self._jobs[game_id]
        self._progress.pop(game_id, None)
        self._since.pop(game_id, None)

    def _note(self, game_id: str, progress: Progress) -> None:
        with self._lock:
            if game_id in self._jobs:
                self._progress[game_id] = progress

    def _run(self, game_id: str, record: dict[str, Any], source: str) -> Pages:
        """One review in a new worker process (`spawn`: no lock of the server's threads is
        inherited), at most `workers` at once; its progress noted as it comes; a worker that
        dies is an error, never a wait."""
        with self._slots:
            context = multiprocessing.get_context("spawn")
            mine, theirs = context.Pipe(duplex=False)
            process = context.Process(target=_worker, args=(self.compute, record, source, os.getpid(), theirs), daemon=True)
            with self._lock:
                if self._closed:
                    raise ReviewLateError("the server is stopping")
                process.start()
                self._processes.add(process)
            theirs.close()
            self._note(game_id, Progress(started=True))
            try:
                kind, value = self._answer_of(game_id, mine)
            finally:
                mine.close()
                process.join()
                with self._lock:
                    self._processes.discard(process)
        if kind == "pages":
            return dict(value)
        if kind == "error":
            raise DreamhomeError(value)
        raise RuntimeError(value if kind == "crash" else f"the review worker ended with {process.exitcode}")

    def _answer_of(self, game_id: str, pipe: Connection) -> tuple[str, Any]:
        """The worker's answer (its progress noted meanwhile); `("ended", None)` if it died."""
        while True:
            try:
                kind, value = pipe.recv()
            except (EOFError, OSError):
                return "ended", None
            if kind != "progress":
                return kind, value
            done, total = value
            self._note(game_id, Progress(True, done, total))

    def status(self, game_id: str, record: dict[str, Any], client: str | None) -> Pages | Progress:
        """The game's pages if kept, else how far its review is (the running job's, or a new
        one's, started now against `client`'s budget). A job that failed since the last ask is
        told once (its error raised); asking again starts it anew. A job older than
        `REVIEW_PATIENCE` (a worker that hangs) is forgotten: `ReviewLateError`."""
        digest = str(record.get("digest"))
        kept = self.kept_pages(game_id, digest)
        if kept is not None:
            return kept
        with self._lock:
            failure = self._failed.pop(game_id, None)
            since = self._since.get(game_id)
            job = self._jobs.get(game_id)
            if job is not None and since is not None and time.monotonic() - since > REVIEW_PATIENCE:
                self._drop(game_id)
                raise ReviewLateError("the review took too long; ask again later")
        if failure is not None and failure[0] == digest:
            raise failure[1]
        if job is None:
            self.job(game_id, record, client)
        with self._lock:
            return self._progress.get(game_id, Progress(started=False))

    async def answer(self, game_id: str, record: dict[str, Any], client: str, wait: float = FIRST_WAIT) -> Pages | Progress:
        """`status` without holding the event loop: a job that ends within `wait` seconds is
        answered with its pages, else with its progress (a page that reloads itself)."""
        from starlette.concurrency import run_in_threadpool

        now = await run_in_threadpool(self.status, game_id, record, client)
        if not isinstance(now, Progress):
            return now
        with self._lock:
            job = self._jobs.get(game_id)
        if job is not None and wait > 0:
            waited = asyncio.wrap_future(job)
            done, _ = await asyncio.wait({waited}, timeout=wait)
            if not done:  # its outcome read when it comes (told by `status`), never left unretrieved
                waited.add_done_callback(lambda f: f.cancelled() or f.exception())
                with self._lock:
                    return self._progress.get(game_id, now)
            try:
                return waited.result()
            except DreamhomeError:
                with self._lock:
                    self._failed.pop(game_id, None)  # told now, not again
                raise
        with self._lock:
            return self._progress.get(game_id, now)

    async def pages(self, game_id: str, record: dict[str, Any], client: str) -> Pages:
        """The game's pages, awaited to the end (`REVIEW_PATIENCE` at most): for a caller that
        wants the review itself rather than a page of progress."""
        deadline = time.monotonic() + REVIEW_PATIENCE
        while True:
            now = await self.answer(game_id, record, client, wait=1.0)
            if not isinstance(now, Progress):
                return now
            if time.monotonic() > deadline:
                raise ReviewLateError("the review took too long; ask again later")

    def running(self) -> int:
        """Reviews computed or waiting now."""
        with self._lock:
            return len(self._jobs)

    def close(self) -> None:
        """End the workers now (the server stops); the jobs waiting fail, none is kept half done."""
        with self._lock:
            self._closed = True
            processes = list(self._processes)
            jobs, self._jobs = list(self._jobs.values()), {}
            self._progress.clear()
            self._since.clear()
        for process in processes:
            process.terminate()
        for job in jobs:
            if not job.done():
                job.set_exception(ReviewLateError("the server is stopping"))


def _pages_of(raw: bytes, digest: str) -> Pages | None:
    """The pages of a review file if it is one (`FORMAT`) for the record of `digest` with a page
    in every language, else None."""
    try:
        data = fileio.parse_json(fileio.decode_text(raw, "review", "review"), "review")
    except DreamhomeError:
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("record") != digest:
        return None
    pages = data.get("pages")
    if not isinstance(pages, dict) or not all(isinstance(pages.get(lang), str) for lang in LANGUAGES):
        return None
    return {lang: pages[lang] for lang in LANGUAGES}
