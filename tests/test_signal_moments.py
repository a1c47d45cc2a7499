"""Every long command stops on its first SIGINT or SIGTERM, whenever it comes (issue 34, item 2).

A property over the moment: for each long command, hypothesis draws (seeded: `derandomize`) the
signal and the time it is sent, counted from the instant the process has its handlers in
place (the entry point, dreamhome.launch, installs them before the CLI is imported; only the
interpreter's own start comes before). Whatever the moment, the command either ends by the
signal — exit 128 + its number, one line naming it, no traceback — or had already finished
(exit 0); and in both cases every file it wrote is whole (no temporary file left, every JSON
file parses, every page is complete), in its output folder and in TMPDIR alike.

Few examples a command: each is a real process started and stopped (a few seconds).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.paths import EXAMPLES, GOLDEN, ROOT

LATEST = 2.5
"""The latest moment drawn (seconds after the handlers are in): every command below runs
longer than that, so most moments strike it at work (start-up, rules compiled, a solve, a wait)."""

WRAPPER = """
import sys
from dreamhome.launch import run
from dreamhome import interrupt
interrupt.install()
open(sys.argv[1], "w").close()  # the handlers are in: the moment is counted from here
sys.argv = ["dreamhome", *sys.argv[2:]]
run()
"""

COMMANDS: dict[str, tuple[list[str], bool]] = {
    # name: (arguments, {out} the output folder; may it finish before LATEST on a quiet machine?)
    "play": (
        ["play", "--players", "4", "--bots", "solver,solver,greedy,greedy", "--seed", "3", "--record", "{out}/game.json"],
        False,
    ),
    "whatif": (
        ["whatif", "base", "kids", "--games", "60", "--workers", "2", "--chunk", "5", "--out", "{out}/exp", "--records"],
        False,
    ),
    "report": (["report", "--players", "2", "--games", "40", "--no-cards", "--workers", "2", "--out", "{out}/report"], False),
    "analyze": (["analyze", str(GOLDEN / "two_players_kids.json"), "--html", "{out}/review.html"], False),
    "optimize": (["optimize", str(EXAMPLES / "endgame.json"), "--save", "{out}/after.json"], True),
    "max": (["max", "--engine", "cpsat", "--save", "{out}/best.json"], False),
    "replay": (["replay", str(GOLDEN / "four_players.json")], True),
    "serve": (["serve", "--port", "0", "--data", "{out}/games"], False),
}


BANNERS = ("dreamhome: Dream Home table at ", "dreamhome: answering to the Host names")
"""The lines `serve` prints on stderr as it starts (where it listens), before any signal."""


def _whole(folder: Path) -> list[str]:
    """What is not whole under `folder`: temporary files, JSON that does not parse, cut pages."""
    problems = []
    for path in sorted(folder.rglob("*")):
        if path.is_dir():
            continue
        name = path.name
        if name.startswith(".lark_cache_"):
            continue  # Lark's own cache of the compiled grammar, kept on purpose (the rules parser's)
        if name.endswith(".tmp") or name.startswith("."):
            problems.append(f"{path}: a temporary file left behind")
        elif name.endswith(".json"):
            try:
                json.loads(path.read_text(encoding="utf-8"))
            except ValueError as exc:
                problems.append(f"{path}: not whole JSON ({exc})")
        elif name.endswith(".html") and not path.read_text(encoding="utf-8").rstrip().endswith("</html>"):
            problems.append(f"{path}: a cut page")
    return problems


def _signal_at(command: str, signum: int, moment: float, tmp: Path) -> None:
    args, may_finish = COMMANDS[command]
    out, scratch = tmp / "out", tmp / "tmpdir"
    for folder in (out, scratch):
        folder.mkdir(parents=True)
    ready = tmp / "ready"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp), "COLUMNS": "160", "TMPDIR": str(scratch), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRAPPER, str(ready), *(a.format(out=out) for a in args)],
        env=env,
        cwd=tmp,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, "the process never got its handlers in"
            time.sleep(0.005)
        time.sleep(moment)
        proc.send_signal(signum)
        try:
            _, stderr = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{command}: still running 20 s after {signal.Signals(signum).name} at {moment:.2f} s")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert "Traceback" not in stderr, stderr
    if proc.returncode == 0 and may_finish:
        assert _whole(out) + _whole(scratch) == []
        return
    assert proc.returncode == 128 + signum, (command, moment, proc.returncode, stderr)
    lines = [line for line in stderr.strip().splitlines() if not line.startswith(BANNERS)]
    assert len(lines) == 1 and signal.Signals(signum).name in lines[-1], (command, moment, stderr)
    assert _whole(out) + _whole(scratch) == []
    left = [p.name for p in scratch.iterdir() if not p.name.startswith(".lark_cache_")]
    assert left == [], "an interrupted command left its temporary folder"


@pytest.mark.parametrize("command", sorted(COMMANDS))
@settings(max_examples=2, derandomize=True, deadline=None, database=None)
@given(signum=st.sampled_from([signal.SIGINT, signal.SIGTERM]), moment=st.floats(0.0, LATEST))
def test_a_signal_at_any_moment_ends_the_command_in_one_line(command: str, signum: int, moment: float) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        _signal_at(command, signum, moment, Path(tmp))


def test_the_commands_run_long_enough() -> None:
    """Every long command this property signals exists (a renamed one must not drop out)."""
    from dreamhome.cli import main

    assert {args[0] for args, _ in COMMANDS.values()} <= set(main.commands)
    assert os.path.exists(GOLDEN / "two_players_kids.json")
