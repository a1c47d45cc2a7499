"""Running the `dreamhome` command as a user does: a fresh process, a plain environment."""

from __future__ import annotations

import signal
import subprocess
import sys
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
