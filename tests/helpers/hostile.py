"""Hostile command lines shared by the fuzz tests and `benchmarks/bench_hostile.py`: templates
whose `{house}`, `{record}`, `{out}`, `{outdir}` and `{value}` slots are filled per run."""

from __future__ import annotations

CLI_TEMPLATES: tuple[tuple[str, ...], ...] = (
    ("check", "{house}", "--json"),
    ("score", "{house}", "--json"),
    ("render", "{house}", "-o", "{out}"),
    ("play", "--seed", "{value}", "--players", "{value}", "--record", "{out}"),
    ("play", "--first-player", "{value}", "--players", "2", "--json"),
    ("replay", "{record}", "--json", "--html", "{out}"),
    ("place", "{house}", "{value}", "--time-limit", "{value}", "--processes", "1"),
    ("optimize", "{house}", "--time-limit", "{value}", "--workers", "{value}", "--save", "{out}"),
    ("whatif", "{value}", "--games", "{value}", "--chunk", "{value}", "--executor", "local", "--out", "{outdir}"),
    ("rules", "show", "{value}"),
)

# Option values a careless or hostile user types: not-a-numbers, huge, empty, escapes, newlines.
OPTION_VALUES: tuple[str, ...] = ("nan", "inf", "-1", "0", "1e400", "10" * 40, "", "-", "\x1b[0m", "x\ny", "2", "0.5")
