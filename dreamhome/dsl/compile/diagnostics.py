"""What a compile found: every error and warning, each once, in the order found, with the
source line it points at; and the moving of a packaged file's diagnostics to the user's own
`include` line."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from dreamhome.dsl.ast import Pos
from dreamhome.dsl.compile.files import is_packaged
from dreamhome.errors import Diagnostic


class Diagnostics:
    """The diagnostics of one compile, and the texts and include sites that place them."""

    def __init__(self) -> None:
        # Dicts as ordered sets: a diagnostic found twice is kept once, in O(1).
        self.errors: dict[Diagnostic, None] = {}
        self.warnings: dict[Diagnostic, None] = {}
        self.texts: dict[str, list[str]] = {}
        # Where each included file was included (its first `include`), to show a problem found in a
        # packaged file at the user's own line (`relocate`).
        self.included_at: dict[str, Pos] = {}
        self.top: str | None = None

    def error(self, pos: Pos, message: str, severity: str = "error") -> None:
        lines = self.texts.get(pos.file, [])
        source = lines[pos.line - 1] if 0 < pos.line <= len(lines) else ""
        diag = Diagnostic(pos.file, pos.line, pos.column, message, source, severity)
        (self.errors if severity == "error" else self.warnings)[diag] = None

    def relocate(self, diags: Iterable[Diagnostic]) -> list[Diagnostic]:
        """Diagnostics found in a packaged rules file (base.dh) that the user's file includes, moved
        to the user's `include` line with the packaged position in the message (issue 21): the user
        cannot edit base.dh, and the problem comes from what their file changed. Diagnostics of the
        user's own files, and of the packaged rules compiled on their own, stay where they are."""
        top = self.top
        if top is None or is_packaged(top):
            return list(diags)
        out: dict[Diagnostic, None] = {}
        for diag in diags:
            at = self.included_at.get(diag.file) if is_packaged(diag.file) else None
            seen = {diag.file}
            while at is not None and at.file != top and at.file not in seen:
                seen.add(at.file)
                at = self.included_at.get(at.file)
            if at is None or at.file != top:
                out[diag] = None
                continue
            lines = self.texts.get(top, [])
            source = lines[at.line - 1] if 0 < at.line <= len(lines) else ""
            where = f"{Path(diag.file).name}:{diag.line}:{diag.column}"
            out[Diagnostic(top, at.line, at.column, f"{diag.message} (in {where}, included here)", source, diag.severity)] = None
        return list(out)
