"""Running the command group as a process does: `run` and `command_status`, every exception a
command may end in mapped to one line on stderr and an exit status.

Apart from the commands, so that the rule "never a traceback" is read in one place: usage errors,
interruptions, a stdout that cannot take the answer, and a bug all end here.
"""

from __future__ import annotations

import errno
import os
import sys

import click

from dreamhome.cli.common import EXIT_BAD, EXIT_INTERRUPTED, say
from dreamhome.cli.root import main
from dreamhome.errors import DreamhomeError
from dreamhome.interrupt import Interrupted, interrupted

DEBUG_ENV = "DREAMHOME_DEBUG"


def run() -> None:
    """Entry point: never a traceback, and every error is one line on stderr.

    Usage errors are shortened to one line too; a stdout that cannot take the
    output (full disk, closed pipe, an ASCII-only encoding) ends with one line
    and exit 2 instead of a traceback. Ctrl-C and SIGTERM end any command, even
    inside a CP-SAT solve (dreamhome.interrupt), with one line and exit 130 or 143;
    outputs are written atomically, so an interrupted command changes no file.
    """
    sys.exit(command_status())


def command_status() -> int:
    """The command named by `sys.argv` run to its end: its exit status (`run` without the exit;
    the process's entry point, dreamhome.launch, installs the signal handling before this)."""
    from dreamhome import interrupt

    with interrupt.handling():  # the caller's own handlers come back when the command ends
        try:
            code = _run_main()
        except Interrupted as exc:  # the signal struck while an error line was being printed
            _silence_stdout()
            say(str(exc))
            code = exc.exit_code
    return code if isinstance(code, int) else 0


def _run_main() -> object:
    """The command, every exception mapped to one line on stderr; the exit status."""
    if os.environ.get(DEBUG_ENV):
        return main(standalone_mode=False, prog_name="dreamhome") or 0
    try:
        code = main(standalone_mode=False, prog_name="dreamhome")
        sys.stdout.flush()  # here, not at the interpreter's exit: a full disk or a signal is still one line
    except click.exceptions.ClickException as exc:
        say(_usage_line(exc))
        code = exc.exit_code
    except Interrupted as exc:
        _silence_stdout()
        say(str(exc))
        code = exc.exit_code
    except click.exceptions.Abort:
        say("interrupted")
        code = EXIT_INTERRUPTED
    except DreamhomeError as exc:  # pragma: no cover - the commands catch their own
        say(str(exc))
        code = EXIT_BAD
    except UnicodeEncodeError as exc:
        _silence_stdout()
        say(f"cannot print the answer in this terminal's encoding ({exc.encoding}); set PYTHONIOENCODING=utf-8")
        code = EXIT_BAD
    except OSError as exc:
        _silence_stdout()
        if exc.errno != errno.EPIPE:  # a reader that went away (`| head`) needs no message
            say(f"cannot write the output: {exc.strerror or exc}")
        code = EXIT_BAD
    except (MemoryError, RecursionError) as exc:
        say(f"the input is too large or too deep to handle ({type(exc).__name__})")
        code = EXIT_BAD
    except Exception as exc:  # noqa: BLE001 - the last net: a bug still ends in one line, not a traceback
        signum = interrupted()
        if signum is not None:  # the signal struck inside code that turned it into its own error
            _silence_stdout()  # (a C extension being imported says "ImportError: initialization failed")
            say(str(Interrupted(signum)))
            return Interrupted(signum).exit_code
        first = str(exc).splitlines()[0] if str(exc) else ""
        say(f"internal error ({type(exc).__name__}: {first}); set {DEBUG_ENV}=1 for the traceback and please report it")
        code = EXIT_BAD
    return code


def _usage_line(exc: click.exceptions.ClickException) -> str:
    message = exc.format_message()
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.exceptions.UsageError) and ctx is not None:
        sub = ctx.command_path.split(" ", 1)[1] if " " in ctx.command_path else ""
        return f"{sub + ': ' if sub else ''}{message} (see --help)"
    return message


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


__all__ = ["DEBUG_ENV", "command_status", "run"]
