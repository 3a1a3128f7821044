"""What the stack can cost: an advisory budget on the hourly cost at maximum (every node
pool at its maximum), from the list prices of rules/prices.py."""

from __future__ import annotations

from pack import ADVISORY, LOW, Policy, Settings, policy, stack_resources
from pulumi_policy import StackValidationArgs
from rules import cost, prices
from rules.plan_records import Record
from rules.values import forget, mark


def budget_findings(args: StackValidationArgs, config: Settings) -> list[tuple[str | None, str]]:
    budget = config["maximumHourlyUsd"]
    start = mark()
    groups = cost.estimate(Record.from_engine(r) for r in stack_resources(args))
    _, maximum, missing = cost.totals(groups)
    if maximum <= budget:
        return []  # what was not known yet (a pool's size or type) could still take it above
    forget(start)  # above the budget whatever the values not known yet are
    largest = sorted(groups, key=lambda g: g.maximum, reverse=True)[:3]
    parts = ", ".join(f"{g.name} ${g.maximum:,.2f}" for g in largest)
    # What is not priced is left out of the sum: the maximum is then at least that much.
    unpriced = f"; {missing} item(s) not priced are not in the sum" if missing else ""
    least = "at least " if missing else ""
    return [
        (
            None,
            f"at maximum the stack can cost {least}${maximum:,.2f} per hour, above the budget of ${budget:,.2f} "
            f"(list prices of {prices.PRICES_AS_OF}; largest: {parts}{unpriced})",
        )
    ]


POLICIES: list[Policy] = [
    policy(
        "cost-budget",
        "The hourly cost with every node pool at its maximum stays within a budget (list prices; spot at the "
        "on-demand price; egress, disks and support not counted).",
        level=ADVISORY,
        severity=LOW,
        remediation="Lower the maxCount of the largest pools (python -m preflight cost --stack <stack> lists each "
        "pool's figure), or raise maximumHourlyUsd in the policy config when the maximum is intended.",
        stack_check=budget_findings,
        settings={
            "maximumHourlyUsd": {
                "type": "number",
                "minimum": 0,
                "default": 100,
                "description": "Budget in US dollars per hour for the stack at maximum (every pool at maxCount).",
            }
        },
    ),
]
