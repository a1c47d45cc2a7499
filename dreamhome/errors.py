"""Errors the project raises on bad input.

Every error a user can cause derives from `DreamhomeError`; the command line
turns it into one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass


class DreamhomeError(Exception):
    """Bad input: a file, id or argument the project cannot use."""


SOURCE_LINE_LIMIT = 200
"""Most characters of a rules file's line a diagnostic shows."""


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a rules file, with where it is."""

    file: str
    line: int
    column: int
    message: str
    source_line: str = ""
    severity: str = "error"

    def one_line(self) -> str:
        """`file:line:column: severity: message`; with no line (line 0: a whole file, or a name given
        on the command line) no made-up position: `file: …`, or just `severity: message`."""
        if self.line > 0:
            return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"
        return f"{self.file}: {self.severity}: {self.message}" if self.file else f"{self.severity}: {self.message}"

    def long(self) -> str:
        """The message, the offending line and a caret under the column.

        Never more than `SOURCE_LINE_LIMIT` characters of the line, around the column: a rules
        file of one enormous line (or a file that is not rules at all) is not echoed whole.
        """
        text = self.one_line()
        if self.source_line:
            line, column = self.source_line, max(self.column, 1)
            if len(line) > SOURCE_LINE_LIMIT:
                start = max(0, min(column - 1 - SOURCE_LINE_LIMIT // 2, len(line) - SOURCE_LINE_LIMIT))
                end = start + SOURCE_LINE_LIMIT
                line = ("…" if start else "") + line[start:end] + ("…" if end < len(line) else "")
                column = column - start + (1 if start else 0)
            caret = " " * (column - 1) + "^"
            text += f"\n  {line}\n  {caret}"
        return text

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "severity": self.severity,
        }


class RulesError(DreamhomeError):
    """A rules file that cannot be compiled; carries every error found in it."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0].one_line() if self.diagnostics else "rules error"
        more = len(self.diagnostics) - 1
        suffix = f" (and {more} more error{'s' if more > 1 else ''})" if more > 0 else ""
        super().__init__(first + suffix)


class HouseError(DreamhomeError):
    """A house file that cannot be read as `dreamhome.house/1`."""
