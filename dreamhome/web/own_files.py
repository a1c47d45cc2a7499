"""The store's own files: read and replace only regular files of its folder, never through a link.

Why not `fileio.write_atomic`: the command line writes where its user points, through a symlink
to its target, on purpose. The table's data folder is another matter: its names are the
server's (`<id>.json`), and anything else found under such a name (a symlink planted towards
`../outside/victim.json`, a FIFO, a device, a folder) is not a game but a trap. So a file is
opened with `O_NOFOLLOW` (a link is refused by the system itself, with no window between a
check and the open) and `O_NONBLOCK` (a FIFO does not hang the open), and must then be a
regular file (`fstat`); a write goes to a new temp file of the folder, synced and renamed over
the name, after `lstat` found no entry there or a regular file. A rename replaces a directory
entry and never writes through one, so even a link planted between the check and the rename is
replaced, not followed. A hard link is a regular file: renaming over it leaves the other name's
file as it was.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from dreamhome.errors import DreamhomeError

TEMP_SUFFIX = ".tmp"
"""Temp files are `.<name>.<random>.tmp` in the folder (`store.STALE_TEMP` finds them left over)."""


class ForeignFileError(DreamhomeError):
    """A name of the store's taken by something the store did not write (a symlink, a FIFO, a
    folder): refused, nothing read or written through it."""


class OwnFileMissingError(DreamhomeError):
    """No entry under that name."""


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_own(path: Path, limit: int) -> bytes:
    """The bytes of the regular file `path` (at most `limit`; `OSError` EFBIG past it).
    `OwnFileMissingError` if there is none; `ForeignFileError` for a link or another kind."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise OwnFileMissingError(f"{path.name}: no such file") from None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):  # O_NOFOLLOW on a symlink (EMLINK on some BSDs)
            raise ForeignFileError(f"{path.name} is a symbolic link, not the server's own file") from None
        check_own(path)  # a socket cannot be opened (ENXIO): named as what it is
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ForeignFileError(f"{path.name} is {_kind(mode)}, not the server's own file")
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise OSError(errno.EFBIG, f"larger than {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def check_own(path: Path) -> None:
    """`ForeignFileError` if an entry other than a regular file holds the name `path`."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise ForeignFileError(f"{path.name} is {_kind(mode)}, not the server's own file")


def replace_own(path: Path, data: bytes) -> None:
    """`data` as the whole file `path` (a temp file of the same folder, synced, renamed over the
    name): a crash leaves the old file or the new one. `ForeignFileError` if the name holds a
    link or another kind of file; `OSError` if the folder cannot be written."""
    check_own(path)
    folder = path.parent
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
