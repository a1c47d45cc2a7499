"""Errors the project raises on bad input.

Every error a user can cause derives from `DreamhomeError`; the command line
turns it into one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass


class DreamhomeError(Exception):
    """Bad input: a file, id or argument the project cannot use."""


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
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"

    def long(self) -> str:
        """The message, the offending line and a caret under the column."""
        text = self.one_line()
        if self.source_line:
            caret = " " * (max(self.column, 1) - 1) + "^"
            text += f"\n  {self.source_line}\n  {caret}"
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
