"""The `dreamhome` command: the command group with every command added to it.

Each command lives in a module named for its job — `houses` (check, score, render), `solve`
(optimize, place, max), `play`, `records` (replay, analyze), `whatif`, `report`, `rules`,
`serve` — and calls the library; the options several commands take are declared once in
`options`, what every command shares (one-line errors, exit statuses, output files, the rules
and language of the group) in `common`, and the process's exit status in `entry`. This module
only assembles them.

Bad input of any kind ends in one line on stderr and exit status 2; the answer "no" (an illegal
house for `check`) is exit status 1.
"""

from __future__ import annotations

from dreamhome.cli import houses, play, records, report, rules, serve, solve, whatif
from dreamhome.cli.entry import command_status, run
from dreamhome.cli.root import main

# Each command module keeps its name (`dreamhome.cli.play` is the module, `play.play` its command).
COMMANDS = (
    houses.check,
    houses.score,
    houses.render,
    solve.optimize,
    solve.place,
    solve.max_command,
    play.play,
    records.replay,
    records.analyze,
    whatif.whatif,
    report.report,
    rules.rules,
    serve.serve,
)
for command in COMMANDS:
    main.add_command(command)

__all__ = ["command_status", "main", "run"]
