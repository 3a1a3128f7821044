"""What the stack can cost (policy/catalog/cost.py): the advisory budget on the hourly cost
with every node pool at its maximum, over the multicloud plan, whose AWS and GCP fixtures
carry the program's own node pools. How the cost is estimated is tests/preflight/test_cost.py's.
CASES holds the policy's row (its setting: tests/policy/cases.py)."""

from __future__ import annotations

from typing import Any

from preflight import policy as runner
from preflight.runtime import Plan
from tests.policy.helpers import POLICIES, PolicyCase, reports

CASES = [
    # The budget is the project's (docs/policies.md), in US dollars per hour; advisory, so never planted.
    PolicyCase("cost-budget", config_default={"maximumHourlyUsd": 100}),
]


def budget(plan: dict[str, Any], config: dict[str, Any] | None = None) -> list[tuple[str | None, str]]:
    """The findings of cost-budget over `plan`, which must leave nothing unchecked."""
    found, unchecked = reports(POLICIES["cost-budget"], runner.stack_args(plan["resources"], config))
    assert unchecked is None, unchecked
    return found


def test_the_budget_default_is_what_the_check_uses(plan: dict[str, Any]) -> None:
    """Without config the check applies the documented $100 an hour: the same findings as with
    it passed explicitly, none for the multicloud plan."""
    found = budget(plan)
    assert found == []
    assert budget(plan, {"maximumHourlyUsd": 100}) == found


def test_the_fixtures_node_pools_count_toward_the_budget(plan: dict[str, Any], dev_plan: Plan) -> None:
    """A budget the dev stack alone keeps is broken once the fixtures' pools are in the plan:
    one finding, against the stack, naming the budget."""
    assert budget(dev_plan.to_json(), {"maximumHourlyUsd": 20}) == []
    found = budget(plan, {"maximumHourlyUsd": 20})
    assert [urn for urn, _ in found] == [None]
    assert found[0][1].startswith("at maximum the stack can cost at least $")
    assert "above the budget of $20.00" in found[0][1]
