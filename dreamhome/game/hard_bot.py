"""The hard level's bot (issue 25): the strongest packaged bot.

For now the solver bot under its own name; the lead fills in what the measurements support
(docs/PERFORMANCE.md)."""

from __future__ import annotations

from dreamhome.game.bots import SolverBot


class HardBot(SolverBot):
    """The strongest packaged bot (work in progress: today the solver bot)."""

    name = "hard"
