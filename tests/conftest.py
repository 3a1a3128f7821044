"""Shared fixtures: run the real program under the recording mock runtime."""

from __future__ import annotations

import copy
import gc
import os
import shutil
import sys
import tempfile
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

# Every worker runs the program under mocks many times: the collector tuned as the
# `preflight` commands tune it (preflight/heap.py), before the SDKs are imported.
from preflight.heap import fewer_collections  # noqa: E402

fewer_collections()

from preflight.runtime import Plan, run_program  # noqa: E402
from preflight.stackfile import read_stack_file, stack_path  # noqa: E402
from tests.plans import ENV as PLANS_ENV  # noqa: E402
from tests.plans import recorded  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    """The controller makes the folder of shared recordings (tests/plans.py); its xdist
    workers, started after this hook, inherit it through the environment."""
    if not hasattr(config, "workerinput") and PLANS_ENV not in os.environ:
        folder = tempfile.mkdtemp(prefix="anyscale-test-plans-")
        os.environ[PLANS_ENV] = folder
        config.add_cleanup(lambda: (shutil.rmtree(folder, ignore_errors=True), os.environ.pop(PLANS_ENV, None)))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """A test worker's heap frozen as it ends (preflight/heap.py exit_without_last_collections):
    the SDKs and every recording it holds, over a million objects, which the collections of the
    interpreter's exit walked for seconds while the controller waited for both workers to end.
    Workers only: a process that runs pytest again (`make mutate`) keeps collecting."""
    if hasattr(config, "workerinput"):
        gc.freeze()


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
    """The example stack's plan, recorded once per test run (read-only!)."""
    return recorded("example", stack_values("example"))


@pytest.fixture(scope="session")
def dev_plan() -> Plan:
    return recorded("dev", stack_values("dev"))


@pytest.fixture
def shared_recordings(monkeypatch: pytest.MonkeyPatch) -> None:
    """`preflight plan` (and the commands that record a stack through it, in this process)
    takes the stack's shared recording (tests/plans.py) instead of running the program again.
    Only for a test that patches nothing the program reads and does not look at what the run
    logs: a recording keeps the plan, not the run's warnings."""
    import preflight.plan

    def shared(stack: str, values: dict[str, Any], first_preview: bool = False, program: Path | None = None) -> Plan:
        return recorded(stack, values, first_preview, program)

    monkeypatch.setattr(preflight.plan, "run_program", shared)


def by_name(plan: Plan, name: str) -> dict[str, Any]:
    return plan.named(name)


def urn_of(plan: Plan, name: str) -> str:
    return plan.named(name)["urn"]


@pytest.fixture(scope="session")
def render_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Helm renders (tests/helm.py), one directory per test run shared by the xdist workers
    (their basetemp's parent), so that a chart rendered with the same values by two tests
    of any module is rendered once."""
    from tests import helm

    # Never skipped: without the Helm library or cffi (`make test` installs both) it fails, naming them.
    if helm.unavailable():
        pytest.fail(str(helm.unavailable()), pytrace=False)
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "helm-renders"
