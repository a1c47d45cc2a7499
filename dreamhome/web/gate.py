"""The server's places to compute (`ComputeGate`): at most a few threads work the interpreter
for the games' changes at once, and a thread waiting for the disk gives its place up.

Why (issue 33: any request within 0.5 s while other pages load): Python's threads share one
core (the interpreter lock), so twenty clicks computing at once would leave a quick read (a
page, a view) a twenty-first of it. A click is mostly a wait for the disk, though (its decision
and the bot's answer are each stored whole and fsynced, tens of milliseconds on a busy disk),
and a thread that held its place through that wait kept the other clicks queued behind idle
fsyncs. So a change of a game computes in one of `places` (its decision, a bot's choice, its
stored text, the view it answers) and gives the place up while its file is written
(`waiting`, which `store.GameStore.save` calls around the write).

The order of locks, which keeps it free of deadlocks: a game's locks first, then a place; no
thread waits for a game's lock while it holds a place (taking a place back after the disk,
with the game's lock held, is in that order).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType

PLACES = 2
"""Threads that may compute the games' changes at once (the machine's cores, as measured)."""


class ComputeGate:
    """At most `places` threads inside at once (`with gate:`); re-entered freely by a thread
    already inside; `waiting()` gives the thread's place up for its duration."""

    def __init__(self, places: int = PLACES) -> None:
        self.places = max(1, places)
        self._free = threading.BoundedSemaphore(self.places)
        self._mine = threading.local()

    def _depth(self) -> int:
        return int(getattr(self._mine, "depth", 0))

    def __enter__(self) -> ComputeGate:
        depth = self._depth()
        if depth == 0:
            self._free.acquire()
        self._mine.depth = depth + 1
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._mine.depth = self._depth() - 1
        if self._mine.depth == 0:
            self._free.release()

    @contextmanager
    def waiting(self) -> Iterator[None]:
        """The thread's place given up while it waits (the disk), taken back after; nothing for
        a thread that holds none."""
        depth = self._depth()
        if depth == 0:
            yield
            return
        self._mine.depth = 0
        self._free.release()
        try:
            yield
        finally:
            self._free.acquire()
            self._mine.depth = depth
