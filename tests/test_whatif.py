"""What-if experiments: identical numbers on every executor, resume, crash reports, bad input."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from dreamhome.errors import DreamhomeError
from dreamhome.whatif import executors
from dreamhome.whatif.experiment import Experiment, resolve_ruleset
from dreamhome.whatif.runner import run_experiment
from tests.helpers.cli import run_here, spawn


def experiment(games=8, chunk=3, rulesets=("base", "kitchen3", "car")):
    specs = tuple(resolve_ruleset(r) for r in rulesets)
    return Experiment(specs, games, 3, ("greedy", "random", "greedy"), 7, chunk)


def numbers(doc):
    return doc["rulesets"]


@pytest.mark.slow
def test_same_numbers_on_every_executor_and_worker_count(tmp_path):
    exp = experiment()
    local = run_experiment(exp, tmp_path / "a", executor_name="local", workers=1)
    procs = run_experiment(exp, tmp_path / "b", executor_name="processes", workers=2)
    assert numbers(local) == numbers(procs)
    assert local["rulesets"][0]["games"] == 8 and "difference_vs_baseline" in local["rulesets"][1]
    for name in ("results.json", "report.md", "scores.png", "scores.svg", "components.svg", "seats.png"):
        assert (tmp_path / "a" / name).exists()


def test_common_random_numbers_pair_the_games():
    """The car rule changes nothing in the decks: paired differences are tiny, per game."""
    doc = run_experiment(experiment(games=6, rulesets=("base", "car")), None, executor_name="local", workers=1)
    diff = doc["rulesets"][1]["difference_vs_baseline"]
    assert abs(diff["mean"]) <= 1 and diff["n"] == 6


@pytest.mark.slow
def test_interrupted_run_resumes_to_the_same_numbers(tmp_path, monkeypatch):
    exp = experiment(games=9, chunk=2)
    whole = run_experiment(exp, tmp_path / "whole", executor_name="local", workers=1)
    original = executors.run_local

    def interrupted(payloads, workers):
        for k, chunk in enumerate(original(payloads, workers)):
            if k == 4:
                raise KeyboardInterrupt
            yield chunk

    monkeypatch.setattr(executors, "run_local", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, tmp_path / "part", executor_name="local", workers=1)
    monkeypatch.setattr(executors, "run_local", original)
    assert len(list((tmp_path / "part" / "chunks").glob("*.json"))) == 4
    with pytest.raises(DreamhomeError, match="--resume"):
        run_experiment(exp, tmp_path / "part", executor_name="local", workers=1)
    resumed = run_experiment(exp, tmp_path / "part", executor_name="local", workers=1, resume=True)
    assert numbers(resumed) == numbers(whole)


def test_resume_refuses_another_experiment(tmp_path):
    run_experiment(experiment(games=3), tmp_path / "x", executor_name="local", workers=1)
    before = sorted(p.name for p in (tmp_path / "x").rglob("*"))
    manifest = (tmp_path / "x" / "manifest.json").read_text()
    with pytest.raises(DreamhomeError, match="different experiment"):
        run_experiment(experiment(games=4), tmp_path / "x", executor_name="local", workers=1, resume=True)
    assert sorted(p.name for p in (tmp_path / "x").rglob("*")) == before
    assert (tmp_path / "x" / "manifest.json").read_text() == manifest


def sabotage(monkeypatch, seed, effect):
    """Make the game of one seed fail with `effect()`; worker processes are forked and see it too."""
    import dreamhome.players.playing as playing

    real = playing.play_game

    def play(rules, players, bots, s, first_player=None):
        if s == seed:
            effect()
        return real(rules, players, bots, s, first_player)

    monkeypatch.setattr(playing, "play_game", play)


def test_a_crashing_game_is_reported_with_its_seed(monkeypatch):
    def boom():
        raise RuntimeError("boom")

    sabotage(monkeypatch, 9, boom)
    doc = run_experiment(experiment(games=4, rulesets=("base",)), None, executor_name="local", workers=1)
    base = doc["rulesets"][0]
    assert base["games"] == 3 and base["crashed"] == [{"game": 2, "seed": 9, "error": "RuntimeError: boom"}]


def test_a_killed_worker_is_reported_with_its_seed(monkeypatch):
    """A worker process that dies (here: exits hard on seed 10) costs that game only."""
    import os

    sabotage(monkeypatch, 10, lambda: os._exit(3))
    doc = run_experiment(experiment(games=6, chunk=2, rulesets=("base",)), None, executor_name="processes", workers=2)
    base = doc["rulesets"][0]
    assert base["games"] == 5
    assert base["crashed"] == [{"game": 3, "seed": 10, "error": "the worker process died"}]


@pytest.mark.slow
def test_ray_executor_gives_the_same_numbers(tmp_path):
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install -e '.[ray]')")
    exp = experiment(games=4, chunk=2, rulesets=("base", "kids"))
    local = run_experiment(exp, None, executor_name="local", workers=1)
    on_ray = run_experiment(exp, None, executor_name="ray", workers=2)
    assert numbers(local) == numbers(on_ray)


@pytest.mark.slow
def test_ray_executor_starts_its_own_instance_beside_another_runs(tmp_path):
    """Without `--address` the run starts a Ray instance of its own: with another process's
    cluster running on the machine (a head node, as `ray start` or the node test below starts
    one), `ray.init` had joined it and refused the run's `num_cpus` with a ValueError (CI: this
    module's two Ray tests at once on two xdist workers)."""
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install -e '.[ray]')")
    ready = tmp_path / "ready"
    other = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import pathlib, sys, time\n"
            "from ray.cluster_utils import Cluster\n"
            "cluster = Cluster(initialize_head=True, head_node_args={'num_cpus': 1, 'include_dashboard': False})\n"
            "pathlib.Path(sys.argv[1]).touch()\n"
            "time.sleep(120)\n",
            str(ready),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 90
        while not ready.exists():
            assert other.poll() is None and time.monotonic() < deadline, "the other Ray instance did not start"
            time.sleep(0.1)
        exp = experiment(games=2, chunk=1, rulesets=("base",))
        assert numbers(run_experiment(exp, None, executor_name="ray", workers=1)) == numbers(
            run_experiment(exp, None, executor_name="local", workers=1)
        )
    finally:
        other.terminate()
        other.wait(timeout=60)


@pytest.mark.slow
def test_whatif_cli(tmp_path):
    out = tmp_path / "exp"
    args = [
        "whatif",
        "base",
        "kids",
        "--games",
        "4",
        "--players",
        "2",
        "--bots",
        "greedy,random",
        "--seed",
        "3",
        "--out",
        out,
        "--executor",
        "local",
    ]
    proc = run_here(*args, "--workers", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert [r["ruleset"] for r in doc["rulesets"]] == ["base", "kids"]
    assert json.loads((out / "results.json").read_text())["rulesets"] == doc["rulesets"]
    again = run_here(*args)
    assert again.returncode == 2 and "--resume" in again.stderr
    resumed = run_here(*args, "--resume", "--json")
    assert resumed.returncode == 0 and json.loads(resumed.stdout)["rulesets"] == doc["rulesets"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["whatif", "base", "kids3"], "unknown ruleset or variant 'kids3'"),
        (["whatif", "base", "--players", "3", "--bots", "greedy"], "one per seat"),
        (["whatif", "base", "--players", "6"], "players must be 2–4"),
    ],
)
def test_whatif_bad_input(args, needle, tmp_path):
    proc = run_here(*args, "--out", tmp_path / "o")
    assert proc.returncode == 2 and needle in proc.stderr and proc.stderr.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_whatif_bad_rules_file(tmp_path):
    bad = tmp_path / "bad.dh"
    bad.write_text('include "base.dh"\nroom kitchen { points 3 1 }\n')
    proc = run_here("whatif", "base", bad, "--games", "2")
    assert proc.returncode == 2 and "bad.dh:2:16" in proc.stderr


@pytest.mark.slow
def test_ctrl_c_on_the_process_pool_then_resume(tmp_path):
    """A real SIGINT mid-run: exit 130 with finished chunks kept; --resume gives the full run's numbers."""
    import os
    import signal
    import time

    out = tmp_path / "run"
    args = [
        "whatif",
        "base",
        "--games",
        "60",
        "--players",
        "2",
        "--bots",
        "greedy,greedy",
        "--seed",
        "4",
        "--chunk",
        "2",
        "--workers",
        "2",
        "--out",
        str(out),
    ]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/tmp", "COLUMNS": "120"}
    proc = spawn(*args, env=env)
    deadline = time.time() + 60
    while time.time() < deadline and len(list((out / "chunks").glob("*.json"))) < 3:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _stdout, stderr = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the run finished before the signal arrived")
    assert proc.returncode == 130 and "--resume" in stderr and "Traceback" not in stderr
    kept = len(list((out / "chunks").glob("*.json")))
    assert 3 <= kept < 30
    resumed = run_here(*args, "--resume", "--json")
    full = run_here(*[a if a != str(out) else str(tmp_path / "full") for a in args], "--json")
    assert resumed.returncode == 0 and full.returncode == 0
    assert json.loads(resumed.stdout)["rulesets"] == json.loads(full.stdout)["rulesets"]


@pytest.mark.slow
def test_ray_survives_a_worker_node_dying(tmp_path):
    """A local Ray cluster of a head and a worker node: the worker node is killed after the first
    chunk is back, its chunks are redone on the head, and the numbers equal the undisturbed run."""
    ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install -e '.[ray]')")
    from ray.cluster_utils import Cluster

    exp = experiment(games=10, chunk=1, rulesets=("base", "kids"))
    undisturbed = run_experiment(exp, None, executor_name="local", workers=1)
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    worker = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    killed_at: list[int] = []

    def kill_the_worker_node(finished: int, total: int) -> None:
        if finished and not killed_at:
            killed_at.append(finished)
            cluster.remove_node(worker, allow_graceful=False)

    try:
        ray.init(address=cluster.address, log_to_driver=False)
        assert len(ray.nodes()) == 2
        disturbed = run_experiment(exp, None, executor_name="ray", workers=2, progress=kill_the_worker_node)
    finally:
        ray.shutdown()
        cluster.shutdown()
        for (
            signum,
            handler,
        ) in handlers.items():  # Ray's head node and ray.init put their own SIGTERM handler in place (conftest checks)
            signal.signal(signum, handler)
    assert killed_at and killed_at[0] < 20  # the node died with chunks still to play
    assert numbers(disturbed) == numbers(undisturbed)
    assert all(not r.get("crashed") for r in disturbed["rulesets"])
