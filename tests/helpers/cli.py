"""Running the `dreamhome` command as a user does: a fresh process, a plain environment."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


def run(*args: object, cwd: Path | str | None = None) -> subprocess.CompletedProcess[str]:
    """`dreamhome ARGS…` in a subprocess; a traceback on stderr fails the test at once."""
    proc = subprocess.run(
        [sys.executable, "-m", "dreamhome", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "HOME": "/tmp"},
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def spawn(*args: object, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`dreamhome ARGS…` started in the background, so a test can signal it. The child gets
    Ctrl-C's default action back (a test runner's shell may have set it to ignore)."""
    return subprocess.Popen(
        [sys.executable, "-m", "dreamhome", *map(str, args)],
        env=env if env is not None else {"COLUMNS": "160", "PATH": "/usr/bin:/bin", "HOME": "/tmp"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


@dataclass(frozen=True)
class Ran:
    """What a command did, as `subprocess.CompletedProcess` says it: exit status and both streams."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str


def run_here(*args: object, cwd: Path | str | None = None, input: str | None = None, env: dict[str, str] | None = None) -> Ran:
    """`dreamhome ARGS…` run in this process through the entry point a user's shell runs
    (`dreamhome.cli.run`: the same one-line errors, exit statuses and signal handling), with
    stdin, stdout and stderr captured by Click's `CliRunner`. For a test about what a command
    says or writes, not about the process itself (signals, a closed stdout, the interpreter's
    start-up, the installed script): those use `run` or `spawn`. A traceback on stderr fails
    the test at once, as with `run`."""
    from click import formatting
    from click.testing import CliRunner

    from dreamhome import cli

    argv, here = sys.argv, os.getcwd()
    width = formatting.FORCED_WIDTH
    code: int = 0
    # The environment `run` gives its process, and nothing else (a DREAMHOME_LANG or FORCE_COLOR
    # of the caller's shell must not change what a test reads).
    plain: dict[str, str | None] = {name: None for name in os.environ}
    plain.update({"COLUMNS": "160", "PATH": "/usr/bin:/bin", "HOME": "/tmp", **(env or {})})
    with CliRunner().isolation(input=input, env=plain) as (out, err, _mixed):
        formatting.FORCED_WIDTH = width  # help wraps at the terminal's width, as in a real process
        sys.argv = ["dreamhome", *map(str, args)]
        try:
            if cwd is not None:
                os.chdir(cwd)
            cli.run()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        finally:
            sys.argv = argv
            os.chdir(here)
        sys.stdout.flush()
        sys.stderr.flush()
        said = (out.getvalue().decode("utf-8", "replace"), err.getvalue().decode("utf-8", "replace"))
        ran = Ran(tuple(map(str, args)), code, *said)
    _pass_on_an_outside_signal()
    assert "Traceback" not in ran.stderr, ran.stderr
    return ran


def _pass_on_an_outside_signal() -> None:
    """A Ctrl-C or SIGTERM that reached the test run while a command ran in this process was the
    command's (dreamhome.interrupt: exit 130 or 143, the caller's handlers back): no test signals
    itself during `run_here`, so it came from outside, meant for the run. Delivered again under
    the run's own handlers, it stops the run as it would between two tests; before this, a
    `timeout`'s SIGTERM only failed the test in progress and the run went on for minutes."""
    from dreamhome import interrupt

    signum = interrupt.interrupted()
    if signum is not None:
        interrupt.clear()
        signal.raise_signal(signum)
