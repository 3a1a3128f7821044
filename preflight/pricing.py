"""What a plan can cost per hour, per cloud resource and in total, at idle and at maximum:
the figures behind `preflight cost`, the cost in `preflight diff` and the plan summary.

At idle: control planes, node pools at their minimum, NAT gateways and their public IPv4
addresses, the gateway's load balancer, the registry. At maximum: every pool at its maximum. List prices from the
dated table `config/data/prices.py`; spot at the on-demand price (the most it can bill).
Not counted: egress and data processed, disks beyond the OS disk, the public IPs a cluster
makes for itself, support plans, the platform's own fees. An item without a price (an instance type, a region, a
SKU) is listed as not priced and left out of the sums, which then read as lower bounds
(`≥ $X`, "at least $X") with the count of items left out.

The arithmetic is the policy pack's (policy/rules/cost.py, which its budget policy runs
too), imported the way the Pulumi CLI runs the pack: with policy/ on sys.path.
"""

from __future__ import annotations

import textwrap
from typing import Any

from config.data.prices import CURRENCY, PRICES_AS_OF, SPOT_DISCOUNT
from policy.rules.plan_records import Record
from preflight.escape import printable
from preflight.pack_import import pack_module
from preflight.planfile import Plan, plan_resources

NOT_COUNTED = (
    "egress and data processed, storage by the GB, disks beyond the OS disk, the public IPs a cluster makes "
    "for itself, support plans, the platform's own fees"
)


def groups_of(plan: Plan) -> list[Any]:
    """The plan's cost groups (rules/cost.py `Group`): one per cloud resource, and the
    cloud's own resources as "cloud"."""
    groups: list[Any] = pack_module("rules.cost").estimate(Record.from_plan(r) for r in plan_resources(plan))
    return groups


def totals(groups: list[Any]) -> tuple[float, float, int]:
    result: tuple[float, float, int] = pack_module("rules.cost").totals(groups)
    return result


def money(value: float) -> str:
    return f"${value:,.3f}"


def bound(value: float, unpriced: int) -> str:
    """A sum in a table: `≥ $X` when it leaves out `unpriced` items (a lower bound)."""
    return f"≥ {money(value)}" if unpriced else money(value)


def at_least(value: float, unpriced: int) -> str:
    """A sum in a sentence: "at least $X" when it leaves out `unpriced` items."""
    return f"at least {money(value)}" if unpriced else money(value)


def not_priced_note(unpriced: int) -> str:
    return f"{unpriced} item(s) not priced" if unpriced else ""


def render(groups: list[Any]) -> str:
    """The per-resource table, each resource's items, what is not priced, the totals."""
    lines = [f"Hourly cost, list prices of {PRICES_AS_OF} ({CURRENCY}; estimates only)", ""]
    width = max([len(printable(g.name)) for g in groups] + [14])
    lines.append(f"  {'cloud resource':<{width}}  {'idle':>13}  {'maximum':>13}")

    def row(name: str, idle: float, maximum: float, unpriced: int) -> str:
        flag = f"  ({unpriced} not priced)" if unpriced else ""
        return f"  {name:<{width}}  {bound(idle, unpriced):>13}  {bound(maximum, unpriced):>13}{flag}"

    for group in groups:
        lines.append(row(printable(group.name), group.idle, group.maximum, len(group.not_priced)))
    idle, maximum, missing = totals(groups)
    lines.append(row("total", idle, maximum, missing))
    for group in groups:
        lines += ["", f"{printable(group.name)}:"]
        for line in group.lines:
            if line.missing:
                lines.append(f"  {printable(line.label)}: not priced ({printable(line.missing)})")
            else:
                lines.append(f"  {printable(line.label)}: {money(line.idle)} idle, {money(line.maximum)} maximum")
    lines.append("")
    if missing:
        lines.append(
            f"{missing} item(s) not priced: left out of the figures above, so those marked ≥ are lower bounds."
        )
    spot = "spot at the on-demand price" if SPOT_DISCOUNT == 0 else f"spot at {SPOT_DISCOUNT:.0%} off"
    counted = (
        f"Counted: control planes, node pools (idle at their minimum, maximum at their maximum; {spot}), "
        f"NAT gateways and their public IPs, load balancers, the registry. Not counted: {NOT_COUNTED}."
    )
    lines += textwrap.wrap(counted, width=88)
    return "\n".join(lines) + "\n"


def to_json(groups: list[Any]) -> dict[str, Any]:
    idle, maximum, missing = totals(groups)
    return {
        "pricesAsOf": PRICES_AS_OF,
        "currency": CURRENCY,
        "spotDiscount": SPOT_DISCOUNT,
        "notCounted": NOT_COUNTED,
        "total": {"idleHourly": idle, "maximumHourly": maximum, "notPriced": missing, "lowerBound": missing > 0},
        "cloudResources": [
            {
                "name": g.name,
                "provider": g.provider,
                "region": g.region,
                "idleHourly": g.idle,
                "maximumHourly": g.maximum,
                "items": [
                    {
                        "label": line.label,
                        "idleHourly": line.idle,
                        "maximumHourly": line.maximum,
                        "notPriced": line.missing,
                    }
                    for line in g.lines
                ],
                "notPriced": g.not_priced,
                "lowerBound": bool(g.not_priced),
            }
            for g in groups
        ],
    }


def summary_line(plan: Plan, width: int = 100) -> str:
    """The totals, for the plan summary, wrapped to `width`."""
    idle, maximum, missing = totals(groups_of(plan))
    extra = f" ({not_priced_note(missing)}, left out)" if missing else ""
    text = (
        f"Cost per hour (list prices of {PRICES_AS_OF}): {at_least(idle, missing)} idle, "
        f"{at_least(maximum, missing)} at maximum{extra}"
    )
    return "\n".join(textwrap.wrap(text, width=max(width, 20), subsequent_indent="  "))
