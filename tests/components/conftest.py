"""Fixtures the KubeRay tests share (test_kuberay.py, test_kuberay_flows.py): the two stacks of
tests/kuberay_stack.py, recorded once per run (tests/plans.py)."""

from __future__ import annotations

import pytest

from preflight.runtime import Plan
from tests.kuberay_stack import full_values, rotation_values
from tests.plans import recorded


@pytest.fixture(scope="module")
def full() -> Plan:
    return recorded("kuberay-full", full_values())


@pytest.fixture(scope="module")
def rotation() -> Plan:
    return recorded("kuberay-rotation", rotation_values())
