"""Shared fixtures: run the real program under the recording mock runtime."""

from __future__ import annotations

import copy
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles for every property test: `ci` (the default) bounds the run time,
# `thorough` (HYPOTHESIS_PROFILE=thorough) searches much longer. No deadline: the
# machine is shared, and a slow example is not a failure.
settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The day Kubernetes versions are judged on (config/currency.py) is an input: the whole suite,
# and every program and command it runs in a subprocess, judges on this fixed day, so no
# test fails because the calendar ages.
TODAY = "2026-12-01"
os.environ["ANYSCALE_CLOUD_TODAY"] = TODAY

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from preflight.runtime import Plan, run_program  # noqa: E402
from preflight.stackfile import read_stack_file, stack_path  # noqa: E402


def stack_values(stack: str) -> dict[str, Any]:
    """The config of stacks/Pulumi.<stack>.yaml, as the CLI would hand it over."""
    return copy.deepcopy(read_stack_file(stack_path(stack)).config)


@pytest.fixture
def example_values() -> dict[str, Any]:
    return stack_values("example")


@pytest.fixture
def dev_values() -> dict[str, Any]:
    return stack_values("dev")


@pytest.fixture
def run() -> Callable[..., Plan]:
    """run(values, stack="test") -> Plan: one fresh run of __main__.py per call."""

    def _run(values: dict[str, Any], stack: str = "test") -> Plan:
        return run_program(stack, values)

    return _run


@pytest.fixture(scope="session")
def example_plan() -> Plan:
    """The example stack's plan, recorded once per session (read-only!)."""
    return run_program("example", stack_values("example"))


@pytest.fixture(scope="session")
def dev_plan() -> Plan:
    return run_program("dev", stack_values("dev"))


def by_name(plan: Plan, name: str) -> dict[str, Any]:
    return plan.named(name)


def urn_of(plan: Plan, name: str) -> str:
    return plan.named(name)["urn"]
