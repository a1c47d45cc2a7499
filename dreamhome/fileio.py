"""Every file the project reads or writes goes through here.

Why one layer: hostile or unlucky paths used to lose files (an output written
over its own input, a symlink replaced, a device node turned into a regular
file) and malformed inputs used to end in tracebacks (a 100,000-deep JSON
array, /dev/zero as a house). Keeping the rules in one module means every
command gets the same guarantees:

* Inputs are read with a size cap (`DEFAULT_MAX_BYTES`, or the environment
  variable `DREAMHOME_MAX_INPUT_BYTES`), at most cap + 1 bytes, so an endless
  file stops at once. JSON is checked for nesting depth without recursion,
  refuses duplicate keys and NaN/Infinity, and accepts UTF-8 with or without a
  BOM. `-` reads stdin. Every failure is a `DreamhomeError` with one line that
  names the file.
* Outputs are checked before any work starts (`check_output`): the parent
  directory exists and is writable, the target is not a directory, not a
  device, FIFO or socket, and not the same file as an input (by device and
  inode, through symlinks). `write_atomic` then writes a temp file in the
  same directory, fsyncs it and renames it over the target of a symlink,
  keeping an existing file's mode.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
import tempfile
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamhome.errors import DreamhomeError

StrPath = str | os.PathLike[str]

DEFAULT_MAX_BYTES = 16 * 1024 * 1024
"""Largest input file read (16 MiB): a house is ~2 KB, a game record ~200 KB."""
MAX_BYTES_ENV = "DREAMHOME_MAX_INPUT_BYTES"
MAX_JSON_DEPTH = 64
"""Deepest JSON nesting accepted; the project's own files nest fewer than 10 levels."""
STDIN = "-"


class InputError(DreamhomeError):
    """An input file that cannot be read or parsed."""


class OutputError(DreamhomeError):
    """An output path that cannot (or must not) be written."""


# ---------------------------------------------------------------- messages
_BIDI = {0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


def _unsafe(ch: str) -> bool:
    code = ord(ch)
    return code in _BIDI or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")


def printable(text: str, keep: str = "") -> str:
    """`text` with control, format and bidi characters escaped (\\x1b, \\u202e, \\n), but those of
    `keep` (the terminal's console keeps its line ends: render.console).

    Ids and file names come from the user; echoed raw, an ANSI escape or a
    newline would repaint the terminal or split a one-line error in two.
    """
    if not any(_unsafe(ch) and ch not in keep for ch in text):
        return text
    out = []
    for ch in text:
        if not _unsafe(ch) or ch in keep:
            out.append(ch)
        elif ord(ch) <= 0xFF:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return "".join(out)


def display_name(path: StrPath) -> str:
    """How a path appears in messages: `<stdin>` for `-`, else the path with controls escaped."""
    text = os.fspath(path)
    return "<stdin>" if text == STDIN else printable(text)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


# ---------------------------------------------------------------- reading
def max_input_bytes() -> int:
    """The input size cap: `DREAMHOME_MAX_INPUT_BYTES` if set, else `DEFAULT_MAX_BYTES`."""
    raw = os.environ.get(MAX_BYTES_ENV)
    if raw is None or raw.strip() == "":
        return DEFAULT_MAX_BYTES
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value <= 0:
        raise InputError(f"{MAX_BYTES_ENV}={printable(raw)!r}: expected a positive whole number of bytes")
    return value


def read_bytes(path: StrPath, what: str = "file", *, limit: int | None = None, error: type[DreamhomeError] = InputError) -> bytes:
    """The bytes of `path` (`-`: stdin), refusing more than `limit` bytes.

    Reads at most limit + 1 bytes, so /dev/zero or an endless pipe stops at once.
    """
    cap = max_input_bytes() if limit is None else limit
    name = display_name(path)
    try:
        if os.fspath(path) == STDIN:
            data = sys.stdin.buffer.read(cap + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(cap + 1)
    except OSError as exc:
        raise error(f"{name}: cannot read {what}: {_reason(exc)}") from None
    if len(data) > cap:
        raise error(f"{name}: cannot read {what}: larger than {cap} bytes (set {MAX_BYTES_ENV} to raise the limit)")
    return data


def decode_text(data: bytes, source: str, what: str = "file", error: type[DreamhomeError] = InputError) -> str:
    """UTF-8 text, with or without a byte-order mark."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{source}: cannot read {what}: not UTF-8 text (byte {exc.start})") from None


def read_text(path: StrPath, what: str = "file", *, limit: int | None = None, error: type[DreamhomeError] = InputError) -> str:
    """The UTF-8 text of `path` (`-`: stdin), under the size cap."""
    return decode_text(read_bytes(path, what, limit=limit, error=error), display_name(path), what, error)


class _DuplicateKeyError(Exception):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


class _BadConstantError(Exception):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(key)
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise _BadConstantError(name)


_TOKENS = re.compile(r'"(?:[^"\\]++|\\.)*+"|[\[\]{}]', re.DOTALL)


def _line_column(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def check_depth(text: str, source: str, max_depth: int = MAX_JSON_DEPTH, error: type[DreamhomeError] = InputError) -> None:
    """Refuse JSON nested deeper than `max_depth`, without recursing (strings are skipped)."""
    if text.count("[") + text.count("{") <= max_depth:
        return
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > max_depth:
                line, col = _line_column(text, match.start())
                raise error(f"{source}:{line}:{col}: malformed JSON: nested deeper than {max_depth} levels")
        elif token in "]}":
            depth -= 1


class _Unreadable:
    """A JSON number Python cannot hold as asked: an integer longer than Python converts
    (`sys.get_int_max_str_digits`, 4300 digits) or a float beyond its range (1e999)."""

    def __init__(self, literal: str):
        self.literal = literal

    def describe(self) -> str:
        digits = len(self.literal.lstrip("-"))
        if self.literal.lstrip("-").isdigit():
            return f"a whole number of {digits} digits is larger than any this program reads"
        shown = self.literal if len(self.literal) <= 24 else self.literal[:20] + "…"
        return f"the number {shown} is beyond the range of numbers this program reads"


def json_path(path: tuple[str | int, ...]) -> str:
    """A place in a JSON document as the error messages name it: `floors.top[3].room`."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "top level"


def _find_unreadable(value: Any, path: tuple[str | int, ...] = ()) -> tuple[tuple[str | int, ...], _Unreadable] | None:
    """The first unreadable number in a parsed document, with its path (depth is capped)."""
    if isinstance(value, _Unreadable):
        return path, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _find_unreadable(item, (*path, key))
        if found is not None:
            return found
    return None


def parse_json(text: str, source: str, error: type[DreamhomeError] = InputError) -> Any:
    """JSON text to Python values: depth-capped, no duplicate keys, no NaN or Infinity, and no
    number Python cannot hold (a 5,000-digit integer, 1e999): one line naming its JSON path."""
    check_depth(text, source, error=error)
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    odd: list[_Unreadable] = []

    def parse_int(literal: str) -> Any:
        if limit and len(literal.lstrip("-")) > limit:
            odd.append(_Unreadable(literal))
            return odd[-1]
        return int(literal)

    def parse_float(literal: str) -> Any:
        value = float(literal)
        if not math.isfinite(value):
            odd.append(_Unreadable(literal))
            return odd[-1]
        return value

    try:
        data = json.loads(
            text, object_pairs_hook=_unique_object, parse_constant=_no_constant, parse_int=parse_int, parse_float=parse_float
        )
        if odd:
            found = _find_unreadable(data)
            path, number = found if found is not None else ((), odd[0])
            raise error(f"{source}: {printable(json_path(path))}: {number.describe()}")
        return data
    except json.JSONDecodeError as exc:
        raise error(f"{source}:{exc.lineno}:{exc.colno}: malformed JSON: {exc.msg}") from None
    except _DuplicateKeyError as exc:
        raise error(f"{source}: malformed JSON: duplicate key {json.dumps(exc.key)} in one object") from None
    except _BadConstantError as exc:
        raise error(f"{source}: malformed JSON: {exc.name} is not a number JSON allows") from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4300 digits
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise error(f"{source}: malformed JSON: {printable(first)}") from None


def read_json(path: StrPath, what: str = "file", *, limit: int | None = None, error: type[DreamhomeError] = InputError) -> Any:
    """Read and parse a JSON file (`-`: stdin) with every guard of this module."""
    return parse_json(read_text(path, what, limit=limit, error=error), display_name(path), error)


# ---------------------------------------------------------------- outputs
@dataclass(frozen=True)
class _Identity:
    dev: int
    ino: int


def _identity(path: StrPath) -> _Identity | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return _Identity(st.st_dev, st.st_ino)


def _special_kind(mode: int) -> str | None:
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return None


def _probe_directory(directory: str, name: str) -> None:
    """Create and remove a temp file: the only honest test of "writable" (root, read-only mounts)."""
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".dreamhome-probe-", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"{name}: cannot write in {printable(directory)}: {_reason(exc)}") from None
    os.close(fd)
    os.unlink(tmp)


def check_output(
    path: StrPath,
    *,
    inputs: Iterable[StrPath | None] = (),
    others: Iterable[StrPath | None] = (),
    stdout_ok: bool = False,
) -> None:
    """Refuse an output path before the work starts, with one line saying why.

    `inputs`: files the command reads (an output over one of them would destroy
    it); `others`: the command's other outputs (two outputs into one file would
    keep only the last). `stdout_ok`: `-` means standard output.
    """
    text = os.fspath(path)
    name = display_name(path)
    if text == STDIN:
        if stdout_ok:
            return
        raise OutputError("-: standard output is not accepted here (the command prints its own summary there); give a file name")
    if text == "":
        raise OutputError("an empty output file name was given")
    real = os.path.realpath(text)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OutputError(f"{name}: cannot write: {_reason(exc)}") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{name}: is a directory; give a file name")
        kind = _special_kind(st.st_mode)
        if kind:
            raise OutputError(f"{name}: is {kind}, not a regular file; refusing to replace it")
        me = _Identity(st.st_dev, st.st_ino)
        for other in inputs:
            if other is not None and os.fspath(other) != STDIN and _identity(other) == me:
                raise OutputError(f"{name}: is also an input ({display_name(other)}); refusing to write over it")
    for other in others:
        if other is not None and os.fspath(other) != STDIN and os.path.realpath(os.fspath(other)) == real:
            raise OutputError(f"{name}: given for two outputs; each needs its own file")
    parent = os.path.dirname(real) or "."
    if not os.path.isdir(parent):
        shown = os.path.dirname(text) if os.path.dirname(os.path.abspath(text)) == parent else parent  # a symlink's
        raise OutputError(f"{name}: cannot write: directory {printable(shown or '.')} does not exist")
    _probe_directory(parent, name)


def check_output_dir(path: StrPath) -> None:
    """Refuse an output directory that exists as something else or cannot be created or written."""
    name = display_name(path)
    real = Path(os.path.realpath(os.fspath(path)))
    if real.exists():
        if not real.is_dir():
            raise OutputError(f"{name}: is not a directory")
        _probe_directory(str(real), name)
        return
    ancestor = real.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise OutputError(f"{name}: cannot create it: {printable(str(ancestor))} is not a directory")
    _probe_directory(str(ancestor), name)


def check_output_tree(directory: StrPath, files: Iterable[str] = (), folders: Iterable[str] = ()) -> None:
    """Refuse, before the work starts, an output directory any of whose outputs could not be
    written: `directory` itself (`check_output_dir`), each of `folders` under it that exists as
    something else than a directory, and each of `files` under it (`check_output`). A command
    that writes into a folder once stopped after its first games were played, on a
    `records` that was a file, with "File exists" and no name (issue 34, item 13)."""
    check_output_dir(directory)
    base = Path(os.fspath(directory))
    if not base.is_dir():
        return  # made by the command: nothing in it yet
    for folder in folders:
        path = base / folder
        if os.path.lexists(path) and not path.is_dir():
            raise OutputError(f"{display_name(path)}: is not a directory (the command keeps its {printable(folder)} there)")
    for file in files:
        check_output(base / file)


def _mode_for(target: str) -> tuple[int, os.stat_result | None]:
    """The permission bits the written file gets: an existing file's own, else 0666 less the umask."""
    try:
        st = os.stat(target)
        return stat.S_IMODE(st.st_mode), st
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask, None


def _fsync_directory(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: StrPath, content: str | bytes) -> None:
    """Write a whole file or nothing, through a symlink to its target, keeping its mode.

    A temp file in the target's directory is written, fsynced and renamed over
    the target; a crash leaves the old file or the new one, never half of one.
    Raises `OutputError` (one line) if the file cannot be written.
    """
    name = display_name(path)
    target = os.path.realpath(os.fspath(path))
    try:
        st = os.stat(target)
    except OSError:
        st = None
    if st is not None and (stat.S_ISDIR(st.st_mode) or _special_kind(st.st_mode)):
        raise OutputError(f"{name}: is not a regular file; refusing to replace it")
    data = content.encode("utf-8") if isinstance(content, str) else content
    mode, old = _mode_for(target)
    directory = os.path.dirname(target) or "."
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"{name}: cannot write: {_reason(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            os.fchmod(handle.fileno(), mode)
            if old is not None and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                try:
                    os.fchown(handle.fileno(), old.st_uid, old.st_gid)
                except OSError:
                    pass  # only root may give a file away; the mode is kept either way
        os.replace(tmp, target)
    except OSError as exc:
        _remove_quietly(tmp)
        raise OutputError(f"{name}: cannot write: {_reason(exc)}") from None
    except BaseException:
        _remove_quietly(tmp)
        raise
    _fsync_directory(directory)


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


__all__ = [
    "DEFAULT_MAX_BYTES",
    "MAX_BYTES_ENV",
    "MAX_JSON_DEPTH",
    "InputError",
    "OutputError",
    "check_depth",
    "check_output",
    "check_output_dir",
    "check_output_tree",
    "decode_text",
    "display_name",
    "max_input_bytes",
    "parse_json",
    "printable",
    "read_bytes",
    "read_json",
    "read_text",
    "write_atomic",
]
