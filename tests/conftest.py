"""Hypothesis profiles and the fixtures every test module may ask for."""

from __future__ import annotations

import os
import signal

import pytest
from hypothesis import HealthCheck, settings

from dreamhome.ruleset import Ruleset
from tests.helpers.rules import compiled
from tests.helpers.thorough import THOROUGH

settings.register_profile("thorough", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("thorough" if THOROUGH else "dev")  # tests/helpers/thorough.py


@pytest.fixture(scope="session")
def base() -> Ruleset:
    """The base rules."""
    return compiled()


@pytest.fixture(scope="session")
def car_rules() -> Ruleset:
    """The base rules with the car variant (VAR-CAR)."""
    return compiled("car")


def _signal_setup() -> tuple[object, ...]:
    """The process's SIGINT and SIGTERM handlers and its wakeup fd (read without changing it)."""
    fd = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(fd)
    return (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM), fd)


@pytest.fixture(autouse=True)
def _signal_handlers_restored():
    """A test that leaves the signal handlers changed fails: an in-process `cli.run()` once left
    dreamhome.interrupt's handler behind, and Ctrl-C or a CI's SIGTERM then became an exception
    inside whichever test ran next, while the run went on."""
    before = _signal_setup()
    yield
    after = _signal_setup()
    if after != before:
        signal.signal(signal.SIGINT, before[0])  # type: ignore[arg-type]
        signal.signal(signal.SIGTERM, before[1])  # type: ignore[arg-type]
        signal.set_wakeup_fd(before[2])  # type: ignore[arg-type]
        pytest.fail(f"the test left the signal handlers changed: {before} -> {after}")
    from dreamhome import interrupt

    left = interrupt.interrupted()
    if left is not None:  # every CP-SAT solve of every later test would stop at once
        interrupt.clear()
        pytest.fail(f"the test left the process marked interrupted (signal {left})")


def _workers() -> list[int]:
    """The process ids of this process's children (pytest-xdist's workers, in the controller),
    read from /proc; none where there is no /proc."""
    me, found = os.getpid(), []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                parent = int(handle.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == me:
            found.append(int(name))
    return found


def _stop_the_run(signum: int, frame: object) -> None:
    """SIGTERM to the controller of a parallel run: each worker is sent SIGTERM too (it ends at
    once, whatever test it is in), then the run stops as on Ctrl-C. Without this the controller
    died alone and its workers went on to the end of their current test, minutes for some."""
    for pid in _workers():
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    raise KeyboardInterrupt


def pytest_configure(config: pytest.Config) -> None:
    """In the controller of a parallel run (`-n N`), SIGTERM stops the workers and the run
    (`_stop_the_run`). Ctrl-C reaches every process of the terminal's group already, and a run
    in one process ends on SIGTERM by the signal's default action."""
    if not hasattr(config, "workerinput") and getattr(config.option, "numprocesses", None):
        signal.signal(signal.SIGTERM, _stop_the_run)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`--dist loadgroup` (pyproject.toml) as pytest-xdist means it: each test marked
    `xdist_group(NAME)` gets `@NAME` at the end of its node id, which sends the group to one
    worker. pytest-xdist 3.8 writes the id to `item._nodeid`, which pytest 9 no longer reads (the
    id is `item._id`): every group was ignored, so a module's costly fixtures (the reviews of
    tests/test_review.py, the piped games of tests/test_human.py) were computed on each worker."""
    if not getattr(config.option, "loadgroup", False):  # set in each worker of a loadgroup run
        return
    try:
        from _pytest.nodeid import coerce_node_id
    except ImportError:  # pytest 8: the id is `_nodeid`, and pytest-xdist's own suffix holds
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid.rpartition("]")[2]:
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(names)}")  # type: ignore[attr-defined]
