"""What-if experiments and the command line around them (issue 21): the global `--variant` was
ignored by `whatif`, and `whatif --resume` after a `module:Class` bot's code changed mixed games
of the old and the new bot in one result."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.resources import files

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.whatif.experiment import build_experiment
from tests.helpers.paths import ROOT

BOT = "from dreamhome.players.bots import RandomBot\n\n\nclass MyBot(RandomBot):\n    pass\n"


def _dh(*args: str, cwd) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dreamhome", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "HOME": "/tmp", "PYTHONPATH": f"{cwd}:{ROOT}"},
        timeout=300,
    )


def test_the_global_variant_is_on_under_every_ruleset():
    exp = build_experiment(["base", "car"], games=1, players=2, bots=None, seed=0, chunk=1, base_variants=("kids",))
    base, car = exp.rulesets
    assert base.variants == ("kids",) and car.variants == ("kids", "car")
    assert base.hash == compile_rules(variants=["kids"]).content_hash
    assert car.hash == compile_rules(variants=["kids", "car"]).content_hash
    plain = build_experiment(["base", "car"], games=1, players=2, bots=None, seed=0, chunk=1)
    assert plain.rulesets[0].hash == compile_rules().content_hash != base.hash
    assert plain.id != exp.id


def test_whatif_with_a_global_variant_from_the_command_line(tmp_path):
    out = _dh(
        "--variant", "kids", "whatif", "base", "--games", "1", "--players", "2", "--executor", "local", "--json", cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["experiment"]["rulesets"][0]["variants"] == ["kids"]


def test_an_unknown_global_variant_is_one_line(tmp_path):
    out = _dh("--variant", "nope", "whatif", "base", "--games", "1", "--players", "2", "--executor", "local", cwd=tmp_path)
    assert out.returncode == 2 and "nope" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.slow
def test_resume_after_the_bots_code_changed_is_refused(tmp_path):
    (tmp_path / "mybot.py").write_text(BOT)
    args = ("whatif", "base", "--games", "2", "--chunk", "1", "--players", "2", "--bots", "mybot:MyBot,greedy")
    first = _dh(*args, "--executor", "local", "--out", "exp", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = _dh(*args, "--executor", "local", "--out", "exp", "--resume", cwd=tmp_path)
    assert again.returncode == 0, again.stderr  # the same code: the same experiment
    results = json.loads((tmp_path / "exp" / "results.json").read_text())
    code = results["experiment"]["bot_code"]
    assert code[0].startswith("sha256:") and code[1] == ""  # the packaged greedy bot has no code hash
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(files("dreamhome.schemas").joinpath("whatif-results.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(results, schema)
    (tmp_path / "mybot.py").write_text(BOT + "\n# changed\n")
    changed = _dh(*args, "--executor", "local", "--out", "exp", "--resume", cwd=tmp_path)
    assert changed.returncode == 2 and "a bot's code" in changed.stderr, changed.stderr
    assert len(changed.stderr.strip().splitlines()) == 1
