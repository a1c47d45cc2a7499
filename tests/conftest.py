from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from dreamhome.dsl.compiler import compile_rules

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def base():
    return compile_rules()


@pytest.fixture(scope="session")
def car_rules():
    return compile_rules(variants=["car"])
