"""A signal sent to a real `dreamhome` command at a chosen moment, and what must hold after it
(issue 34, item 2): shared by tests/test_signal_moments.py and `benchmarks/bench_hostile.py`.

The moment is counted from the instant the process has its handlers in place (the entry point,
dreamhome.launch, installs them before the CLI is imported; only the interpreter's own start
comes before). Whatever the moment, the command either ends by the signal — exit 128 + its
number, one line naming it, no traceback — or had already finished (exit 0, for the commands
that may); in both cases every file it wrote is whole (no temporary file left, every JSON file
parses, every page complete), in its output folder and in TMPDIR alike.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers.paths import EXAMPLES, GOLDEN, ROOT

LATEST = 2.5
"""The latest moment drawn (seconds after the handlers are in): every command below runs longer
than that, so most moments strike it at work (start-up, rules compiled, a solve, a wait)."""

WRAPPER = """
import sys
from dreamhome.launch import run
from dreamhome import interrupt
ready, sys.argv = sys.argv[1], ["dreamhome", *sys.argv[2:]]
install = interrupt.install
def install_then_say_so(own_process=False):
    install(own_process)
    open(ready, "w").close()  # the handlers are in: the moment is counted from here
interrupt.install = install_then_say_so
run()
"""
"""The `dreamhome` entry point, saying when its handlers are in. The file is written from inside
`launch.run`'s own install, so a signal at moment 0 lands where the product can meet it: once
the wrapper installed the handlers itself and a signal landed before `run()`, the traceback was
the wrapper's (`test_signal_moments`, seen three times under load)."""

COMMANDS: dict[str, tuple[tuple[str, ...], bool]] = {
    # name: (arguments, {out} the output folder; may it finish before LATEST on a quiet machine?)
    "play": (
        ("play", "--players", "4", "--bots", "solver,solver,greedy,greedy", "--seed", "3", "--record", "{out}/game.json"),
        False,
    ),
    "whatif": (
        ("whatif", "base", "kids", "--games", "60", "--workers", "2", "--chunk", "5", "--out", "{out}/exp", "--records"),
        False,
    ),
    "report": (("report", "--players", "2", "--games", "40", "--no-cards", "--workers", "2", "--out", "{out}/report"), False),
    "analyze": (("analyze", str(GOLDEN / "two_players_kids.json"), "--html", "{out}/review.html"), False),
    "optimize": (("optimize", str(EXAMPLES / "endgame.json"), "--save", "{out}/after.json"), True),
    "max": (("max", "--engine", "cpsat", "--save", "{out}/best.json"), False),
    "replay": (("replay", str(GOLDEN / "four_players.json")), True),
    "place": (("place", str(EXAMPLES / "midgame.json"), "living_room"), True),
    "serve": (("serve", "--port", "0", "--data", "{out}/games"), False),
}

BANNERS = ("dreamhome: Dream Home table at ", "dreamhome: answering to the Host names")
"""The lines `serve` prints on stderr as it starts (where it listens), before any signal."""

LARK_CACHE = ".lark_cache_"
"""Lark's own cache of the compiled grammar in TMPDIR, kept on purpose (the rules parser's)."""


def not_whole(folder: Path) -> list[str]:
    """What is not whole under `folder`: temporary files, JSON that does not parse, cut pages."""
    problems = []
    for path in sorted(folder.rglob("*")):
        name = path.name
        if path.is_dir() or name.startswith(LARK_CACHE):
            continue
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


def signal_at(command: str, signum: int, moment: float, tmp: Path) -> list[str]:
    """Run `command` (of COMMANDS) in `tmp`, send `signum` `moment` seconds after its handlers are
    in, and say what went wrong (nothing: an empty list)."""
    args, may_finish = COMMANDS[command]
    out, scratch = tmp / "out", tmp / "tmpdir"
    for folder in (out, scratch):
        folder.mkdir(parents=True)
    ready = tmp / "ready"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp), "COLUMNS": "160", "TMPDIR": str(scratch), "PYTHONPATH": str(ROOT)}
    name = signal.Signals(signum).name
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
            if proc.poll() is not None:
                return [f"{command}: ended before its handlers were in: {proc.communicate()[1][-300:]!r}"]
            if time.monotonic() > deadline:
                return [f"{command}: never got its handlers in"]
            time.sleep(0.005)
        time.sleep(moment)
        proc.send_signal(signum)
        try:
            _, stderr = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            return [f"{command}: still running 20 s after {name} at {moment:.2f} s"]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    problems = [f"{command}: a traceback after {name} at {moment:.2f} s: {stderr[-1500:]}"] if "Traceback" in stderr else []
    if not (proc.returncode == 0 and may_finish):
        lines = [line for line in stderr.strip().splitlines() if not line.startswith(BANNERS)]
        if proc.returncode != 128 + signum or len(lines) != 1 or name not in lines[0]:
            problems.append(f"{command}: {name} at {moment:.2f} s: exit {proc.returncode}, stderr {stderr[-300:]!r}")
        left = [p.name for p in scratch.iterdir() if not p.name.startswith(LARK_CACHE)]
        if left:
            problems.append(f"{command}: {name} at {moment:.2f} s left {left} in TMPDIR")
    return problems + not_whole(out) + not_whole(scratch)
