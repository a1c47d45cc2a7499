"""Ctrl-C and SIGTERM end any command promptly, even in the middle of a CP-SAT solve.

CP-SAT installs its own SIGINT handler by default (`catch_sigint_signal`), which turns Ctrl-C
into "stop the search and return the best answer so far": the command then goes on from a
cut-short solve (a self-check trips, or a game continues from a different move). So every
solver is created with `catch_sigint_signal = False` (engine/cpsat.py) and this module does
the job instead:

- `install()` (called by `cli.run()`, in the main thread) puts a handler on SIGINT and SIGTERM
  and points Python's wakeup fd at a socketpair. Python runs signal handlers only in the main
  thread between bytecodes, which a long C++ `solve` blocks; the C-level handler still writes
  the signal number to the wakeup fd, so a daemon thread reading the other end learns of the
  signal at once and calls `stop_search()` on every solver currently solving.
- `solving(solver)` wraps each solve: it registers the solver and, when the solve returns
  after an interrupt, raises `Interrupted` instead of letting a stopped search pass for an
  answer. The Python-level handler raises `Interrupted` too, for code outside any solve.
- `Interrupted` derives from BaseException (not Exception, so no `except Exception` swallows
  it; not KeyboardInterrupt, so click does not turn it into its own Abort); `cli.run()` maps it
  to exit status 128 + the signal number (130 for SIGINT, 143 for SIGTERM) with one line.

Forked children (process pools of `place` and `whatif`) get Python's default handlers back and
no wakeup fd, so they behave as before and never write into the parent's socketpair.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)
_RESTOP_SECONDS = 0.02
"""How often the watcher repeats `stop_search` on solvers still running after an interrupt: a
solver registered just before its search object existed would miss a single call."""


class Interrupted(BaseException):
    """The process received SIGINT or SIGTERM: the command ends, writing nothing more."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """The shell's convention for a death by signal: 128 + its number (130, 143)."""
        return 128 + self.signum

    def __str__(self) -> str:
        return f"interrupted ({signal.Signals(self.signum).name})"


class _State:
    """The process-wide interrupt state (one per process; reset in forked children)."""

    def __init__(self) -> None:
        # Reentrant: the Python-level handler (`_handler`, main thread) takes this lock, and a
        # signal can arrive while the main thread holds it in `solving`; a plain Lock then
        # deadlocked the process for good (a `max` stopped as its solve began never ended).
        self.lock = threading.RLock()
        self.active: set[Any] = set()
        self.signum: int | None = None
        self.installed = False
        self.pid = os.getpid()
        self.reader: socket.socket | None = None
        self.writer: socket.socket | None = None
        self.wake = threading.Event()
        self.previous: dict[int, Any] = {}
        self.previous_fd = -1


_state = _State()
_fork_hook = False
_restop_started = False


def interrupted() -> int | None:
    """The signal that interrupted this process, or None."""
    return _state.signum


def check() -> None:
    """Raise `Interrupted` if a signal has arrived (a cheap call for long loops)."""
    if _state.signum is not None:
        raise Interrupted(_state.signum)


def _note(signum: int, source: socket.socket | None = None) -> None:
    """Mark the process interrupted by `signum`. From the watcher (`source`: its socket), only
    while that socket is still the installed one: a byte read just before `uninstall()` is the
    same signal the handler already noted, and must not mark the process again after the caller
    has cleared it (a test, a server going on)."""
    with _state.lock:
        if source is not None and _state.reader is not source:
            return
        if _state.signum is None:
            _state.signum = signum
        solvers = list(_state.active)
    for solver in solvers:
        solver.stop_search()
    _state.wake.set()


def _handler(signum: int, frame: object) -> None:
    """The Python-level handler (main thread): mark the process and end what it is doing."""
    first = _state.signum is None
    _note(signum)
    if first:
        raise Interrupted(signum)
    # A second Ctrl-C while the first is being handled: the command is already ending.


def _watch(reader: socket.socket) -> None:
    """Daemon thread: learn of signals from the wakeup fd while the main thread is in C++."""
    while True:
        try:
            data = reader.recv(64)
        except InterruptedError:
            continue
        except OSError:
            return
        if not data:
            return
        for byte in data:
            if byte in SIGNALS:
                _note(byte, reader)


def _restop() -> None:
    """Daemon thread: while an interrupt stands, keep stopping solvers (a solve started after the
    signal is stopped too); once it is cleared (`clear`), wait for the next one."""
    while True:
        _state.wake.wait()
        _state.wake.clear()
        while _state.signum is not None:
            with _state.lock:
                solvers = list(_state.active)
            for solver in solvers:
                solver.stop_search()
            _state.wake.wait(_RESTOP_SECONDS)
            _state.wake.clear()


def clear() -> None:
    """Forget the interrupt: for a caller in the same process that has handled `Interrupted` and
    goes on (a test, a server answering the next request). Solves are no longer stopped."""
    with _state.lock:
        _state.signum = None


def install() -> None:
    """Handle SIGINT and SIGTERM as described above. Main thread only; idempotent.

    The handlers and the wakeup fd in place before are kept, and `uninstall()` puts them back:
    a caller in a longer-lived process (a test run calling `cli.run()`) must get its own
    Ctrl-C back when the command ends, or a signal meant for it becomes an exception inside
    whatever runs next."""
    global _fork_hook, _restop_started
    if _state.installed or threading.current_thread() is not threading.main_thread():
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    _state.previous = {signum: signal.getsignal(signum) for signum in SIGNALS}
    _state.previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    _state.reader, _state.writer = reader, writer
    for signum in SIGNALS:
        signal.signal(signum, _handler)
    threading.Thread(target=_watch, args=(reader,), daemon=True, name="dreamhome-signals").start()
    if not _restop_started:  # one for the process: it waits on `_state.wake`, which outlives an uninstall
        threading.Thread(target=_restop, daemon=True, name="dreamhome-restop").start()
        _restop_started = True
    _state.installed = True
    if not _fork_hook:
        os.register_at_fork(after_in_child=_reset_in_child)
        _fork_hook = True


def uninstall() -> None:
    """Undo `install()`: the previous handlers and wakeup fd come back, the socketpair is closed
    (its watcher thread ends). A no-op when not installed or outside the main thread."""
    if not _state.installed or threading.current_thread() is not threading.main_thread():
        return
    signal.set_wakeup_fd(_state.previous_fd)
    for signum, previous in _state.previous.items():
        signal.signal(signum, previous if previous is not None else signal.SIG_DFL)
    with _state.lock:  # from here the watcher notes nothing (`_note` checks its socket)
        sockets = (_state.writer, _state.reader)
        _state.reader = _state.writer = None
    for sock in sockets:  # the writer first: the watcher's recv sees the end
        if sock is not None:
            sock.close()
    _state.previous = {}
    _state.previous_fd = -1
    _state.installed = False


@contextmanager
def handling() -> Iterator[None]:
    """`install()` for the length of a block, then `uninstall()` (`cli.run()` around a command)."""
    was = _state.installed
    install()
    try:
        yield
    finally:
        if not was:
            uninstall()


def _reset_in_child() -> None:
    """A forked child: Python's own signal behaviour, and no share in the parent's socketpair."""
    global _state, _restop_started
    _restop_started = False  # threads do not survive a fork
    if not _state.installed:
        return
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    except ValueError:  # forked from a thread other than the main one
        pass
    for sock in (_state.reader, _state.writer):
        if sock is not None:
            sock.close()
    _state = _State()


@contextmanager
def solving(solver: Any) -> Iterator[None]:
    """Around one `solver.solve`: stoppable by a signal, and never mistaken for an answer once stopped."""
    with _state.lock:
        if _state.signum is not None:
            raise Interrupted(_state.signum)
        _state.active.add(solver)
    try:
        yield
    finally:
        with _state.lock:
            _state.active.discard(solver)
    check()


__all__ = ["Interrupted", "check", "clear", "handling", "install", "interrupted", "solving", "uninstall"]
