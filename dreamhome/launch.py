"""The `dreamhome` process's entry point: Ctrl-C and SIGTERM are handled from its first line.

`dreamhome.cli` takes about a third of a second to import (click and its decorators), and the
handlers that `cli.run()` installs came too late for a signal sent in that time: SIGTERM killed
the process without a word and Ctrl-C printed a KeyboardInterrupt traceback. Here the handlers
(dreamhome.interrupt, which imports only the standard library) go in first, so a signal at any
later moment ends the command with one line and 128 + its number (130, 143). Only the
interpreter's own start, before `run` is called, is left to the signals' default actions.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import NoReturn


def run() -> NoReturn:
    """Run the command named by `sys.argv` and exit with its status."""
    try:
        from dreamhome import interrupt
    except KeyboardInterrupt:  # Ctrl-C before the handlers were in place
        sys.exit(_say_interrupted(signal.SIGINT))
    try:  # one block from the handlers' install on: a signal just after it raises here too
        interrupt.install(own_process=True)
        from dreamhome.cli import command_status

        status = command_status()
    except KeyboardInterrupt:  # Ctrl-C while the handlers were going in
        status = _say_interrupted(signal.SIGINT)
    except interrupt.Interrupted as exc:  # once they are in: while the CLI was imported, or run
        status = _say_interrupted(exc.signum)
    interrupt.ending(status)
    if status in INTERRUPTED or _nothing_left_running():
        _exit_now(status)
    sys.exit(status)


INTERRUPTED = (128 + signal.SIGINT, 128 + signal.SIGTERM)


def _nothing_left_running() -> bool:
    """No thread but the daemons and no child process: the interpreter's shutdown has nothing
    left to wait for."""
    if any(t is not threading.main_thread() and not t.daemon for t in threading.enumerate()):
        return False
    multiprocessing = sys.modules.get("multiprocessing")
    return multiprocessing is None or not multiprocessing.active_children()


def _exit_now(status: int) -> NoReturn:
    """End the process with `status` once its output is flushed, without the interpreter's own
    shutdown. That shutdown resets the signal handlers before the process is gone, so a signal in
    its last moments killed a command that had answered (exit -2: no line, no status); and after
    an interrupt, a process pool the command had stopped printed a traceback from its exit hook
    (concurrent.futures waking a pool whose pipe was closed). Every file was written atomically
    and closed, the pools stopped, the temporary folders removed, by the command itself."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


def _say_interrupted(signum: int) -> int:
    """The one line of an interrupted command; its exit status (128 + `signum`)."""
    try:
        os.write(2, f"dreamhome: interrupted ({signal.Signals(signum).name})\n".encode())
    except OSError:
        pass
    return 128 + signum


__all__ = ["run"]
