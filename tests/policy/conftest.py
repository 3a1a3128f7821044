"""The policy tests' fixture: the multicloud plan, built once per module from the session's
recorded dev plan (never recorded again). The helpers are tests/policy/helpers.py's."""

from __future__ import annotations

from typing import Any

import pytest

from preflight.runtime import Plan
from tests.policy.helpers import multicloud


@pytest.fixture(scope="module")
def plan(dev_plan: Plan) -> dict[str, Any]:
    """A module's own copy: a test that changed it in place would not reach another module."""
    return multicloud(dev_plan)
