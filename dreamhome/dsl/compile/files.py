"""Where the packaged rules files are, and how one rules file is read: a regular file only,
under the input size cap, as UTF-8, without blocking on a FIFO."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from dreamhome.fileio import MAX_BYTES_ENV, max_input_bytes

RULES_DIR = Path(__file__).resolve().parent.parent.parent / "rules"
BASE_RULES = RULES_DIR / "base.dh"
VARIANTS_DIR = RULES_DIR / "variants"
RULES_SUFFIX = ".dh"


class NotRegularError(OSError):
    """A rules file that is a pipe, a device or a folder: refused before a byte is read."""


NOT_REGULAR = "not a regular file (a pipe, a device or a folder); save the rules to a file"


def rules_file_problem(path: str | Path) -> str | None:
    """Why `path` cannot be read as a rules file, without reading it (a FIFO's content is read
    once, by the compiler): not a regular file (`<(cat f.dh)`, /dev/zero), or None."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None  # missing or unnameable: the compiler's own diagnostic says so
    return None if stat.S_ISREG(mode) else NOT_REGULAR


def read_rules_text(path: Path) -> str:
    """A rules file's text, read once: a regular file only (opened without blocking, so a FIFO
    with no writer cannot hang), at most the input size cap (`fileio.max_input_bytes`), UTF-8.
    Raises OSError (NotRegularError) or UnicodeDecodeError."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise NotRegularError(0, NOT_REGULAR)
        cap = max_input_bytes()
        data = handle.read(cap + 1)
    if len(data) > cap:
        raise OSError(0, f"larger than {cap} bytes (set {MAX_BYTES_ENV} to raise the limit)")
    return data.decode("utf-8")


def is_packaged(file: str) -> bool:
    """Is `file` (a diagnostic's file name) one of the rules files the package ships?"""
    try:
        return Path(file).resolve().is_relative_to(RULES_DIR)
    except (OSError, ValueError):
        return False


def is_file(path: Path) -> bool:
    """`path.is_file()`, False where the name cannot even be looked up (too long, a NUL in it)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False
