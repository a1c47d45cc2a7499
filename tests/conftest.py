"""Hypothesis profiles and the fixtures every test module may ask for."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from dreamhome.ruleset import Ruleset
from tests.helpers.rules import compiled

settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def base() -> Ruleset:
    """The base rules."""
    return compiled()


@pytest.fixture(scope="session")
def car_rules() -> Ruleset:
    """The base rules with the car variant (VAR-CAR)."""
    return compiled("car")
