"""Every command the README shows runs as written, in order, from a copy of the repository's
examples; outputs are compared where they are stable (the rulebook example's 29, the base game's
68, a JSON score equal to the scorer's, a record that replays).

A newcomer copies these lines first: a renamed option or a moved example must fail here, not on
their machine.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.house import load_house
from dreamhome.scoring import score_total
from tests.helpers.cli import run, run_here
from tests.helpers.paths import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _covered_elsewhere(args: list[str]) -> str | None:
    """The test file that runs a command a batch run cannot (it waits for a person), if any."""
    if args[0] == "serve":
        return "tests/test_web.py"  # a server runs until stopped: started, driven and stopped there
    if args[0] == "play" and "human" in " ".join(args).split("--bots", 1)[-1].split()[0].split(","):
        return "tests/test_human.py"  # a person's seat reads a terminal: driven through a pipe there
    return None


def _blocks(language: str) -> list[str]:
    return [body for lang, body in _BLOCK.findall(README) if lang == language]


def _commands() -> list[list[str]]:
    """Each command line of the README's shell blocks, split as the shell would, comments and
    `&&` chains taken apart."""
    commands = []
    for block in _blocks("bash"):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            while words:
                cut = words.index("&&") if "&&" in words else len(words)
                commands.append(words[:cut])
                words = words[cut + 1 :]
    return commands


def _dreamhome_commands() -> list[list[str]]:
    return [c[1:] for c in _commands() if c[0] == "dreamhome"]


def test_the_readme_shows_commands() -> None:
    assert len(_dreamhome_commands()) >= 10
    kinds = {c[0] for c in _commands()}
    assert kinds <= {"dreamhome", "pip", "python"}, f"a README command of an unknown kind: {kinds}"


def test_install_commands_name_existing_extras() -> None:
    """`pip install -e '.[a,b]'`: every extra is declared in pyproject.toml."""
    import tomllib

    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"])
    installs = [c for c in _commands() if c[:2] == ["pip", "install"]]
    assert installs
    for command in installs:
        assert command[2] == "-e", command
        named = re.fullmatch(r"\.(?:\[([\w,]+)\])?", command[3])
        assert named, command
        assert set(filter(None, (named.group(1) or "").split(","))) <= extras, command


def test_the_test_commands_are_the_ones_ci_runs() -> None:
    """The README's two test commands (the quick tier, the slow tier: issue 32) are what `.ci/run`
    runs last, so CI holds every test of both."""
    tests = [c for c in _commands() if c[0] == "python"]
    assert tests == [["python", "-m", "pytest", "-n", "auto"], ["python", "-m", "pytest", "-n", "auto", "-m", "slow"]]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert [line.strip() for line in ci[-2:]] == ["python -m pytest -n auto -m slow", "python -m pytest -n auto"]


def test_the_quick_tier_leaves_out_only_the_slow_tier() -> None:
    """The default run deselects the tests marked slow and nothing else; the marker is declared."""
    import tomllib

    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "-m 'not slow'" in options["addopts"]
    assert [m.split(":")[0] for m in options["markers"]] == ["slow"]


def test_the_rules_file_shown_is_the_shipped_example() -> None:
    (shown,) = _blocks("dh")
    assert shown == (ROOT / "examples" / "my_rules.dh").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the examples, where the README's commands run one after the other (later
    commands read what earlier ones wrote, as on a user's machine)."""
    where = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", where / "examples")
    return where


@pytest.mark.slow
def test_every_dreamhome_command_runs(workdir: Path) -> None:
    failures = []
    outputs: dict[str, str] = {}
    for args in _dreamhome_commands():
        key = " ".join(args)
        elsewhere = _covered_elsewhere(args)
        if elsewhere is not None:
            assert (ROOT / elsewhere).is_file(), elsewhere
            continue
        proc = run_here(*args, cwd=workdir)  # in process: what a command says and writes (the process: below)
        outputs[key] = proc.stdout
        if proc.returncode != 0:
            failures.append(f"dreamhome {key}: exit {proc.returncode}: {proc.stderr.strip()[:300]}")
    assert not failures, "\n".join(failures)

    rules = compile_rules()
    # The start-here command: the rulebook's own scoring example scores 29.
    assert re.search(r"\b29\b", outputs["score examples/rulebook_example.json"])
    # A JSON score is the scorer's.
    scored = json.loads(outputs["score examples/endgame.json --json"])
    assert scored["total"] == score_total(rules, load_house(rules, ROOT / "examples" / "endgame.json"))
    # The base game's best house (docs/SOLVER.md proves 68 by a second path in tests/test_best_house.py).
    assert re.search(r"\b68\b", outputs["max"])
    # The review's summary the README shows is what `analyze` says of the README's own game (the
    # `play ... --seed 7 --record game.json` above): each line of the README's text block.
    (summary,) = [body for body in _blocks("text") if body.startswith("player 0 (")]
    assert len(summary.splitlines()) == 4  # a line for each seat of the 4-player game
    analyzed = outputs["analyze game.json --html review.html"]
    for line in summary.splitlines():
        assert line in analyzed, line
    # What the commands wrote is there and whole.
    for written in ["house.svg", "before_after.svg", "game.json", "game.html", "results/results.json"]:
        assert (workdir / written).stat().st_size > 0, written
    assert run_here("replay", "game.json", cwd=workdir).returncode == 0


def test_the_start_here_command(workdir: Path) -> None:
    """The first command of the README, after its install step."""
    first = _commands()[0:2]
    assert first[0][:2] == ["pip", "install"] and first[1][0] == "dreamhome"
    proc = run(*first[1][1:], cwd=ROOT)
    assert proc.returncode == 0 and re.search(r"\b29\b", proc.stdout)
