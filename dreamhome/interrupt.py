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
- The main thread is handed an `Interrupted` for an interrupt whoever noticed the signal first:
  the watcher thread often notes it before the main thread's handler runs, or alone (the kernel
  gives a process's signal to any of its threads), and a handler that raised only for a signal
  nobody had noted yet never raised at all (a SIGTERM while `analyze` read a FIFO, or `play`
  waited at its prompt, was swallowed with every later one). So the watcher sends the signal on
  to the main thread (`_note`), whose blocking read then returns to its handler.
- A repeat while the command ends (its clean-up) is ignored. But an `Interrupted` can be lost:
  raised inside a C extension's import it becomes an ImportError, which a library's optional
  import swallows. So while an interrupt stands and the command has not ended, it is handed
  again every `REHAND_AFTER` seconds (in a process of its own, dreamhome.launch, the restop
  thread delivers the signal again), and past `HANDS` hands the process ends at once with the
  line and the status.
- The process's entry point (dreamhome.launch) installs all this before anything heavy loads,
  and once the command has its exit status (`ending`), a late signal ends the process at once
  with that status instead of striking the interpreter's own shutdown.

Forked children (process pools of `place` and `whatif`) get Python's default handlers back and
no wakeup fd, so they behave as before and never write into the parent's socketpair.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)
_RESTOP_SECONDS = 0.02
"""How often the watcher repeats `stop_search` on solvers still running after an interrupt: a
solver registered just before its search object existed would miss a single call."""
REHAND_AFTER = 2.0
"""Seconds after the main thread was handed `Interrupted` past which a signal (repeated by the
person, or delivered again by the restop thread) hands it again: the command had time to end and
did not, so the first was lost (or the clean-up is stuck in a wait)."""
HANDS = 3
"""Hands of one interrupt before the process ends at once (`_force_exit`): a command that lost
that many ends without its clean-up rather than never."""


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
        self.raised_at: float | None = None  # when the main thread was last handed `Interrupted`
        self.hands = 0  # how often it was, for this interrupt
        self.own_process = False  # installed by the process's entry point (dreamhome.launch)
        self.ending: int | None = None  # the exit status, once the command has one (`ending`)
        self.forwarded = False  # the watcher sent the signal on to the main thread (`_note`)
        self.installed = False
        self.pid = os.getpid()
        self.reader: socket.socket | None = None
        self.writer: socket.socket | None = None
        self.wake = threading.Event()
        self.previous: dict[int, Any] = {}
        self.previous_fd = -1
        self.blocked: set[int | signal.Signals] | None = None  # the mask before a fork (`_block_for_fork`)


_state = _State()
_fork_hook = False
_restop_started = False


def interrupted() -> int | None:
    """The signal that interrupted this process, or None."""
    return _state.signum


def check() -> None:
    """Raise `Interrupted` if a signal has arrived (a cheap call for long loops)."""
    signum = _state.signum
    if signum is not None:
        raise _handed(signum)


def _handed(signum: int) -> Interrupted:
    """The `Interrupted` to raise; in the main thread, the interrupt is marked as handed to it."""
    if threading.current_thread() is threading.main_thread():
        _state.raised_at = time.monotonic()
        _state.hands += 1
    return Interrupted(signum)


def _due() -> bool:
    """Whether the main thread is due an `Interrupted`: never handed one for this interrupt, or
    the last one `REHAND_AFTER` seconds ago (the command did not end: it was lost)."""
    return _state.raised_at is None or time.monotonic() - _state.raised_at >= REHAND_AFTER


def _note(signum: int, source: socket.socket | None = None) -> None:
    """`_mark`, then stop the solves under way and wake the restop thread (the watcher's part,
    and a caller's in another thread; never the handler's: see `_mark`)."""
    if not _mark(signum, source):
        return
    with _state.lock:
        solvers = list(_state.active)
    for solver in solvers:
        solver.stop_search()
    _state.wake.set()


def _mark(signum: int, source: socket.socket | None = None) -> bool:
    """Mark the process interrupted by `signum`; whether it did.

    Safe in the main thread's handler, which may run inside any code of that thread: only the
    reentrant `_state.lock` is taken. Waking the restop thread (an Event's plain lock) and
    `stop_search` (the CpSolver's plain lock, held around each solve) are not: a signal that
    landed while that thread held one ran the handler inside it, which then waited on the lock
    for good. The main thread's handler has no solve to stop anyway: it runs between bytecodes
    of that thread, never inside its solve; the watcher stops the solves.

    From the watcher (`source`: its socket), only while that socket is still the installed one:
    a byte read just before `uninstall()` is the same signal the handler already noted, and must
    not mark the process again after the caller has cleared it (a test, a server going on).

    The watcher also sends the signal on to the main thread, once per interrupt, unless that
    thread already had its `Interrupted`: the kernel hands a process's signal to any thread,
    and one that landed on another thread left the main thread blocked in its read (a prompt's
    stdin, a FIFO, a wait on a process pool) with its handler never run."""
    with _state.lock:
        if source is not None and _state.reader is not source:
            return False
        if _state.signum is None:
            _state.signum = signum
        forward = source is not None and _state.raised_at is None and not _state.forwarded
        _state.forwarded = _state.forwarded or forward
        if forward:
            _to_main(_state.signum)
    return True


def _to_main(signum: int) -> None:
    """Deliver `signum` to the main thread (its blocking read returns, its handler runs), while
    this module's handler is the one in place (under `_state.lock`, as `uninstall` swaps it):
    never to a caller's own handler once the command is over."""
    main = threading.main_thread().ident
    if main is not None and _state.installed and signal.getsignal(signum) is _handler:
        signal.pthread_kill(main, signum)


def _handler(signum: int, frame: object) -> None:
    """The Python-level handler (main thread): mark the process and end what it is doing.

    It raises when the main thread is due an `Interrupted` (`_due`), whether or not the watcher
    thread noted the signal first. A repeat while the command ends is ignored (raising again
    would strike its clean-up); past `HANDS` hands the process ends at once. The watcher, which
    reads every signal from the wakeup fd, wakes the restop thread."""
    _mark(signum)
    if _state.ending is not None:  # the command is over: its status stands, nothing to undo
        os._exit(_state.ending)
    if not _due():
        return
    first = _state.signum if _state.signum is not None else signum
    if _state.hands >= HANDS:
        _state.ending = 128 + first  # from here, a signal that lands before the exit adds nothing
        _force_exit(first)
    raise _handed(first)


def _force_exit(signum: int) -> None:
    """End the process now: the one line `cli.run()` would have printed, and 128 + `signum`."""
    try:
        os.write(2, f"dreamhome: {Interrupted(signum)}\n".encode())
    except OSError:
        pass
    os._exit(128 + signum)


def ending(status: int) -> None:
    """The command has its exit status: a signal from now on ends the process at once with it
    (the interpreter's shutdown, e.g. joining a process pool, is not the place for an exception)."""
    _state.ending = status


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
                signum = _state.signum
                if (
                    signum is not None
                    and _state.own_process
                    and _state.ending is None
                    and _state.raised_at is not None
                    and _due()
                ):
                    _to_main(signum)  # the `Interrupted` handed was lost, or the clean-up waits: again
            for solver in solvers:
                solver.stop_search()
            _state.wake.wait(_RESTOP_SECONDS)
            _state.wake.clear()


def clear() -> None:
    """Forget the interrupt: for a caller in the same process that has handled `Interrupted` and
    goes on (a test, a server answering the next request). Solves are no longer stopped."""
    with _state.lock:
        _state.signum = None
        _state.raised_at = None
        _state.hands = 0
        _state.forwarded = False


def install(own_process: bool = False) -> None:
    """Handle SIGINT and SIGTERM as described above. Main thread only; idempotent.
    `own_process`: the caller is the process's entry point (dreamhome.launch), not a longer-lived
    caller of `cli.run()`, so a lost `Interrupted` may be delivered again by a signal.

    The handlers and the wakeup fd in place before are kept, and `uninstall()` puts them back:
    a caller in a longer-lived process (a test run calling `cli.run()`) must get its own
    Ctrl-C back when the command ends, or a signal meant for it becomes an exception inside
    whatever runs next."""
    global _fork_hook, _restop_started
    if _state.installed or threading.current_thread() is not threading.main_thread():
        return
    _state.own_process = own_process
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    _state.previous = {signum: signal.getsignal(signum) for signum in SIGNALS}
    _state.reader, _state.writer = reader, writer
    threading.Thread(target=_watch, args=(reader,), daemon=True, name="dreamhome-signals").start()
    if not _restop_started:  # one for the process: it waits on `_state.wake`, which outlives an uninstall
        threading.Thread(target=_restop, daemon=True, name="dreamhome-restop").start()
        _restop_started = True
    if not _fork_hook:
        os.register_at_fork(before=_block_for_fork, after_in_parent=_unblock_after_fork, after_in_child=_reset_in_child)
        _fork_hook = True
    _state.installed = True
    # The handlers last: one that raised while the threads above were starting left them half
    # set up, and the `Interrupted` came out of `install()` itself, before any caller's `try`.
    _state.previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    for signum in SIGNALS:
        signal.signal(signum, _handler)


def uninstall() -> None:
    """Undo `install()`: the previous handlers and wakeup fd come back, the socketpair is closed
    (its watcher thread ends). A no-op when not installed or outside the main thread."""
    if not _state.installed or threading.current_thread() is not threading.main_thread():
        return
    with _state.lock:  # from here the watcher notes nothing (`_note` checks its socket) nor forwards
        signal.set_wakeup_fd(_state.previous_fd)
        for signum, previous in _state.previous.items():
            signal.signal(signum, previous if previous is not None else signal.SIG_DFL)
        sockets = (_state.writer, _state.reader)
        _state.reader = _state.writer = None
        _state.installed = False
    for sock in sockets:  # the writer first: the watcher's recv sees the end
        if sock is not None:
            sock.close()
    _state.previous = {}
    _state.previous_fd = -1


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


def _block_for_fork() -> None:
    """Before a fork while installed: hold SIGINT and SIGTERM in the forking thread, so the child
    starts with them pending, never handled, until `_reset_in_child` has put Python's own
    handlers back. A pool's worker forked as the command ends gets the pool's SIGTERM while the
    at-fork hooks run: with the parent's handler still in place it raised there ("Exception
    ignored in _reset_in_child" and a traceback on the command's stderr: CI, test_signal_moments,
    whatif), and its byte went down the parent's wakeup socket, marking the parent interrupted."""
    if _state.installed:
        _state.blocked = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)


def _unblock_after_fork() -> None:
    """The parent after the fork: the signals held by `_block_for_fork` are delivered now."""
    blocked, _state.blocked = _state.blocked, None
    if blocked is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _reset_in_child() -> None:
    """A forked child: Python's own signal behaviour, and no share in the parent's socketpair.
    A signal held since the fork ends the child by its default action, quietly: it was sent
    before the child ran anything of its own (a KeyboardInterrupt raised in this hook is printed
    as "Exception ignored" and then lost)."""
    global _state, _restop_started
    _restop_started = False  # threads do not survive a fork
    blocked = _state.blocked
    if _state.installed:
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
    if blocked is not None:
        for signum in signal.sigpending() & set(SIGNALS):
            signal.signal(signum, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


@contextmanager
def solving(solver: Any) -> Iterator[None]:
    """Around one `solver.solve`: stoppable by a signal, and never mistaken for an answer once stopped."""
    with _state.lock:
        if _state.signum is not None:
            raise _handed(_state.signum)
        _state.active.add(solver)
    try:
        yield
    finally:
        with _state.lock:
            _state.active.discard(solver)
    check()


__all__ = [
    "HANDS",
    "REHAND_AFTER",
    "Interrupted",
    "check",
    "clear",
    "ending",
    "handling",
    "install",
    "interrupted",
    "solving",
    "uninstall",
]
