"""A worker process that ends with its parent: the what-if's and the review's process pools and
the table's review workers start their workers with `die_with_parent`, so a `kill -9` of the
command or the server leaves no orphan burning the CPU. Its own module, below the packages
that start workers."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1
_PARENT_POLL_SECONDS = 1.0


def die_with_parent(parent: int | None) -> None:
    """Pool initializer: end this worker when the process that started it dies.

    On Linux the kernel sends SIGKILL at the parent's death (prctl
    PR_SET_PDEATHSIG); everywhere a daemon thread also polls `os.getppid()`.
    `parent` (the expected parent pid, None when unknown) catches a parent that
    died before the initializer ran.
    """
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    start = os.getppid()
    if parent is not None and start != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(start,), daemon=True, name="dreamhome-parent-watch").start()


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(_PARENT_POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


__all__ = ["die_with_parent"]
