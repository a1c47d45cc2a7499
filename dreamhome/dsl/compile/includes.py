"""Reading a rules file and following its includes: the first step of a compile.

A file is parsed, each `include` is resolved (beside the including file or in the packaged
rules), checked against the compile's include policy, read and expanded in place; a cycle is
refused at the `include` that closes it. The result is every item in order with the file it
came from, and the source with each include inlined (`inlined "…" { … }`), which is what a
game record keeps.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from dreamhome.dsl.ast import Include, Inlined, Item, Pos, RulesFile
from dreamhome.dsl.compile.diagnostics import Diagnostics
from dreamhome.dsl.compile.files import BASE_RULES, RULES_DIR, RULES_SUFFIX, is_file, read_rules_text
from dreamhome.dsl.parser import BOM, MAX_NESTING, RulesParser, nesting_problem
from dreamhome.errors import Diagnostic, RulesError
from dreamhome.fileio import printable

INCLUDES = ("relative", "absolute", "none")
"""Which includes a compile follows: `relative` (beside the including file or in the packaged
rules folder; the default), `absolute` (those and absolute paths: --allow-absolute-includes),
`none` (a game record's self-contained source: every include was inlined when it was written)."""


@dataclass(frozen=True)
class Loaded:
    """A top file read with its includes: the items in order (each with its file), the source
    with the includes inlined, and the name the file is shown by."""

    items: list[tuple[str, Item]]
    source: str
    path: str


class Reader:
    """Reads rules files for one compile, following includes as its policy allows."""

    def __init__(self, report: Diagnostics, includes: str = "relative") -> None:
        if includes not in INCLUDES:
            raise ValueError(f"includes must be one of {INCLUDES}, got {includes!r}")
        self.report = report
        self.includes = includes
        self.parser = RulesParser()

    def read(self, path: Path, at: Pos | None) -> RulesFile | None:
        try:
            text = read_rules_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            if at is None:
                raise RulesError([Diagnostic(str(path), 0, 0, f"cannot read rules file: {reason}")]) from None
            self.report.error(at, f"cannot read included file '{path}': {reason}")
            return None
        return self.parse_text(text, str(path))

    def parse_text(self, text: str, name: str) -> RulesFile | None:
        self.report.texts[name] = text.removeprefix(BOM).split("\n")
        try:
            return self.parser.parse(text, name)
        except RulesError as exc:
            self.report.errors.update(dict.fromkeys(exc.diagnostics))
            return None

    def load(self, path: Path | None, text: str | None, name: str | None) -> Loaded | None:
        """The top file (`text` named `name`, else the file at `path`, else the packaged base
        rules) with its includes followed; None if it cannot be parsed."""
        if text is None:
            path = Path(path) if path is not None else BASE_RULES
            rules_file = self.read(path, None)
            key = str(path.resolve())
            display = str(path)
        else:
            display = name or "<string>"
            rules_file = self.parse_text(text, display)
            key = display
        self.report.top = display
        if rules_file is None:
            return None
        items, source = self.flatten(rules_file, (key,))
        return Loaded(items, source, display)

    def include_refused(self, target: str) -> str | None:
        """Why this compile does not follow `include TARGET`, or None. Only rules files are read,
        so no other file's content can reach a diagnostic (`include "/proc/self/environ"`), and
        absolute paths only on request, so a file from elsewhere (a game record's source) cannot
        probe the machine's files."""
        if self.includes == "none":
            return "includes are not followed here (a game record's rules are self-contained)"
        if not target.endswith(RULES_SUFFIX):
            return f"only rules files ({RULES_SUFFIX}) can be included"
        if Path(target).is_absolute() and self.includes != "absolute":
            return "an absolute include path needs --allow-absolute-includes; write it relative to this file"
        return None

    @staticmethod
    def resolve_include(base_dir: Path | None, target: str) -> Path | None:
        candidate = Path(target)
        options = []
        if candidate.is_absolute():
            options.append(candidate)
        else:
            if base_dir is not None:
                options.append(base_dir / candidate)
            options.append(RULES_DIR / candidate)
        return next((p for p in options if is_file(p)), None)

    def flatten(self, rules_file: RulesFile, stack: tuple[str, ...]) -> tuple[list[tuple[str, Item]], str]:
        """Items in order with includes expanded, and the source with includes inlined."""
        items: list[tuple[str, Item]] = []
        pieces: list[str] = []
        cursor = 0
        base_dir = Path(rules_file.path).parent if not rules_file.path.startswith("<") else None

        def expand(segment: str, inlined_items: Iterable[Item]) -> None:
            for sub in inlined_items:
                if isinstance(sub, Inlined):
                    expand(f"{segment}::{sub.path}", sub.items)
                else:
                    items.append((segment, sub))

        for item in rules_file.items:
            if isinstance(item, Inlined):
                expand(f"{rules_file.path}::{item.path}", item.items)
                continue
            if not isinstance(item, Include):
                items.append((rules_file.path, item))
                continue
            pieces.append(rules_file.text[cursor : item.start])
            cursor = item.end
            refused = self.include_refused(item.path)
            if refused is not None:
                self.report.error(item.pos, f"cannot include '{printable(item.path[:200])}': {refused}")
                continue
            path = self.resolve_include(base_dir, item.path)
            if path is None:
                self.report.error(
                    item.pos,
                    f"cannot find included file '{printable(item.path[:200])}' "
                    "(looked beside this file and in the packaged rules)",
                )
                continue
            key = str(path.resolve())
            if len(stack) > MAX_NESTING:  # a chain of distinct files: bounded as inlined blocks are
                self.report.error(item.pos, nesting_problem("includes"))
                continue
            if key in stack:
                chain = " → ".join(Path(p).name for p in stack[stack.index(key) :] + (key,))
                self.report.error(item.pos, f"include cycle: {chain}")
                continue
            self.report.included_at.setdefault(str(path), item.pos)
            included = self.read(path, item.pos)
            if included is None:
                continue
            sub_items, sub_text = self.flatten(included, stack + (key,))
            items.extend(sub_items)
            pieces.append(f'inlined "{item.path}" {{\n{sub_text}\n}}')
        pieces.append(rules_file.text[cursor:])
        return items, "".join(pieces)
