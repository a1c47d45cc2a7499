"""What every command of the CLI shares: its exit statuses, its one-line messages, its output files
and what it reads from the command group (the rules, the language).

One place so that every command fails alike: bad input of any kind is one line on stderr and exit
status 2 (`fail`), an answer "no" is exit status 1, and no output file is written before it was
checked (`outputs_or_fail`) or other than atomically (`write_or_fail`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import NoReturn

import click

from dreamhome.errors import DreamhomeError, RulesError
from dreamhome.fileio import OutputError, check_output, printable, write_atomic

EXIT_NO = 1
EXIT_BAD = 2
EXIT_INTERRUPTED = 130

MAX_MESSAGE = 1000
"""Longest message `say` prints whole: past it the middle is cut (a 3,000-character bot name or a
pasted file echoed back would bury the one line it belongs to)."""


def say(message: str) -> None:
    """One line on stderr: controls escaped, at most about `MAX_MESSAGE` characters, and encodable
    whatever the stream's encoding."""
    stream = sys.stderr
    encoding = getattr(stream, "encoding", None) or "utf-8"
    text = printable(message)
    if len(text) > MAX_MESSAGE:
        text = f"{text[: MAX_MESSAGE * 2 // 3]} … ({len(text) - MAX_MESSAGE:,} characters cut) … {text[-MAX_MESSAGE // 3 :]}"
    line = f"dreamhome: {text}\n".encode(encoding, "backslashreplace").decode(encoding)
    try:
        stream.write(line)
        stream.flush()
    except (OSError, ValueError):
        pass  # stderr itself is gone: nothing left to tell


def fail(message: str) -> NoReturn:
    """Bad input: its one line on stderr, and exit status 2 (click's `Exit`, so the command's
    `finally` blocks and context managers still run)."""
    say(message)
    raise click.exceptions.Exit(EXIT_BAD)


def outputs_or_fail(outputs: Iterable[str | None], inputs: Iterable[str | None] = (), stdout_ok: bool = False) -> None:
    """Check every output path of a command before its work starts (fileio.check_output)."""
    given = [o for o in outputs if o]
    sources = list(inputs)
    for k, path in enumerate(given):
        try:
            check_output(path, inputs=sources, others=given[:k], stdout_ok=stdout_ok)
        except OutputError as exc:
            fail(str(exc))


def write_or_fail(path: str, content: str | bytes) -> None:
    """Write an output file atomically (`-`: stdout); a failure is one line and exit 2."""
    if path == "-":
        text = content.decode("utf-8") if isinstance(content, bytes) else content
        click.echo(text, nl=False)
        return
    try:
        write_atomic(path, content)
    except OutputError as exc:
        fail(str(exc))


def write_picture(output: str, svg: str) -> None:
    """The picture as SVG, or as PNG for a .png name (cairosvg), written atomically."""
    if output.lower().endswith(".png"):
        try:
            import cairosvg  # optional extra (the png extra)
        except ImportError:
            fail(
                f"{printable(output)}: writing PNG needs the optional cairosvg package (pip install cairosvg); "
                "use an .svg name instead"
            )
        write_or_fail(output, cairosvg.svg2png(bytestring=svg.encode("utf-8")))
        return
    write_or_fail(output, svg)


def new_console():
    """The terminal's console: names from files printed literally, never as markup or escapes."""
    from dreamhome.render.console import SafeConsole

    return SafeConsole()


def emit_json(data) -> None:
    """A `--json` answer on stdout: indented, names as written, not escaped to ASCII."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def group_settings() -> dict:
    """What the command group was given (`root.main` keeps it in the root context's `obj`)."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    return obj or {}


def absolute_includes() -> bool:
    """--allow-absolute-includes, given to the command group."""
    return bool(group_settings().get("absolute_includes"))


def current_lang() -> str:
    """--lang (or DREAMHOME_LANG), given to the command group: the language of card names and labels."""
    return str(group_settings().get("lang") or "en")


def rules_file_or_fail(path: str) -> None:
    """Refuse a rules file that is not a regular file (`<(cat f.dh)`, /dev/zero) in one line, before
    anything reads it. The compiler reads each rules file once, under the input size cap
    (`dsl.compiler.read_rules_text`): a pipe read here first would reach it empty."""
    from dreamhome.dsl.compiler import rules_file_problem

    if path == "-":
        fail("-: rules cannot come from standard input (they include other files, found beside them); give a file")
    problem = rules_file_problem(path)
    if problem is not None:
        fail(f"{printable(path)}: cannot read rules file: {problem}")


def load_rules(spec):
    """The ruleset of a `rules_spec` (options.rules_options), or its first error in one line."""
    from dreamhome.dsl.compiler import compile_rules

    path, variants = spec
    if path:
        rules_file_or_fail(path)
    try:
        return compile_rules(path, variants, allow_absolute_includes=absolute_includes())
    except RulesError as exc:
        first = exc.diagnostics[0].one_line() if exc.diagnostics else "rules error"
        more = len(exc.diagnostics) - 1
        hint = f" (+{more} more; run `dreamhome rules check {path or 'FILE'}`)" if more > 0 else ""
        fail(first + hint)


def load_house_or_fail(rules, path: str):
    """The house of a HOUSE argument (`-`: stdin), or why it cannot be read, in one line."""
    from dreamhome.house import load_house

    try:
        return load_house(rules, path)
    except DreamhomeError as exc:
        fail(str(exc))


def require_legal(rules, house, house_path) -> None:
    """Refuse an illegal house before scoring or drawing it: a score of an illegal house means
    nothing (`check` is the command that lists what is wrong with it)."""
    from dreamhome.legality import house_violations, summarize_violations

    violations = house_violations(rules, house)
    if violations:
        fail(f"{house_path}: the house is illegal ({summarize_violations(violations)}); see `dreamhome check`")


def resolve_room_card(rules, card: str) -> str:
    """CARD as a person types it: an id, or the card's name in any language, any case
    (`Ruleset.find_cards`). A text nothing matches is passed on as it stands, so the command's
    own message (with its "did you mean") still says what is wrong with it."""
    found = rules.find_cards(card)
    if len(found) > 1:
        fail(f"{card!r} names several cards ({', '.join(found)}); give the id")
    if found and not rules.has_room(found[0]):
        fail(f"{card!r} is the card '{found[0]}', not a room card")
    return found[0] if found else card
