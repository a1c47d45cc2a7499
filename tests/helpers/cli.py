"""Running the `dreamhome` command as a user does: a fresh process, a plain environment."""

from __future__ import annotations

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
