"""`python -m preflight cost --stack S | --plan FILE [--json FILE]`: what a plan can cost
per hour, per cloud resource and in total, at idle and at maximum.

At idle: control planes, node pools at their minimum, NAT gateways, the gateway's load
balancer, the registry. At maximum: every pool at its maximum. List prices from the
dated table `spec/data/prices.py`; spot at the on-demand price (the most it can bill).
Not counted: egress and data processed, disks beyond the OS disk, public IPs, support
plans, the platform's own fees. An item without a price (an instance type, a region, a
SKU) is listed as not priced and left out of the sums.

Exit codes: 0 done; 1 the stack breaks a rule; 2 unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from preflight.escape import printable
from preflight.planfile import Plan, PlanError, plan_resources, read
from preflight.policy import pack_module
from spec.data.prices import CURRENCY, PRICES_AS_OF, SPOT_DISCOUNT

NOT_COUNTED = "egress and data processed, disks beyond the OS disk, public IPs, support plans, the platform's own fees"


def groups_of(plan: Plan) -> list[Any]:
    """The plan's cost groups (rules/cost.py `Group`): one per cloud resource, and the
    cloud's own resources as "cloud"."""
    cost = pack_module("rules.cost")
    records = [
        cost.Record(
            urn=str(r.get("urn")),
            type=str(r.get("type")),
            name=str(r.get("name") or ""),
            props=r.get("inputs") or {},
            parent=r.get("parent"),
        )
        for r in plan_resources(plan)
    ]
    groups: list[Any] = cost.estimate(records)
    return groups


def totals(groups: list[Any]) -> tuple[float, float, int]:
    result: tuple[float, float, int] = pack_module("rules.cost").totals(groups)
    return result


def money(value: float) -> str:
    return f"${value:,.3f}"


def render(groups: list[Any]) -> str:
    """The per-resource table, each resource's items, what is not priced, the totals."""
    lines = [f"Hourly cost, list prices of {PRICES_AS_OF} ({CURRENCY}; estimates only)", ""]
    width = max([len(printable(g.name)) for g in groups] + [14])
    lines.append(f"  {'cloud resource':<{width}}  {'idle':>11}  {'maximum':>11}")
    for group in groups:
        flag = f"  ({len(group.not_priced)} not priced)" if group.not_priced else ""
        lines.append(f"  {printable(group.name):<{width}}  {money(group.idle):>11}  {money(group.maximum):>11}{flag}")
    idle, maximum, missing = totals(groups)
    lines.append(f"  {'total':<{width}}  {money(idle):>11}  {money(maximum):>11}")
    for group in groups:
        lines += ["", f"{printable(group.name)}:"]
        for line in group.lines:
            if line.missing:
                lines.append(f"  {printable(line.label)}: not priced ({printable(line.missing)})")
            else:
                lines.append(f"  {printable(line.label)}: {money(line.idle)} idle, {money(line.maximum)} maximum")
    lines.append("")
    if missing:
        lines.append(f"{missing} item(s) not priced: left out of the figures above.")
    spot = "spot at the on-demand price" if SPOT_DISCOUNT == 0 else f"spot at {SPOT_DISCOUNT:.0%} off"
    lines.append(f"Counted: control planes, node pools (idle at their minimum, maximum at their maximum; {spot}),")
    lines.append("NAT gateways, load balancers, the registry. Not counted: " + NOT_COUNTED + ".")
    return "\n".join(lines) + "\n"


def to_json(groups: list[Any]) -> dict[str, Any]:
    idle, maximum, missing = totals(groups)
    return {
        "pricesAsOf": PRICES_AS_OF,
        "currency": CURRENCY,
        "spotDiscount": SPOT_DISCOUNT,
        "notCounted": NOT_COUNTED,
        "total": {"idleHourly": idle, "maximumHourly": maximum, "notPriced": missing},
        "cloudResources": [
            {
                "name": g.name,
                "provider": g.provider,
                "region": g.region,
                "idleHourly": g.idle,
                "maximumHourly": g.maximum,
                "items": [
                    {"label": line.label, "idleHourly": line.idle, "maximumHourly": line.maximum, "notPriced": line.missing}
                    for line in g.lines
                ],
                "notPriced": g.not_priced,
            }
            for g in groups
        ],
    }


def summary_line(plan: Plan) -> str:
    """One line for the plan summary: the totals."""
    idle, maximum, missing = totals(groups_of(plan))
    extra = f", {missing} item(s) not priced" if missing else ""
    return f"Cost per hour (list prices of {PRICES_AS_OF}): {money(idle)} idle, {money(maximum)} at maximum{extra}"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m preflight cost", description=__doc__.split("\n\n")[0])
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--stack", help="record stacks/Pulumi.<stack>.yaml and price it")
    source.add_argument("--plan", metavar="FILE", help="price a plan written by `preflight plan --json`")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    return p


def main(argv: list[str]) -> int:
    from preflight.plan import RECORD_ERRORS, record, report_record_error

    try:
        args = parser().parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    try:
        plan = read(args.plan) if args.plan else record(args.stack).to_json()
    except PlanError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except RECORD_ERRORS as error:
        return report_record_error(error)
    groups = groups_of(plan)
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as handle:
                json.dump(to_json(groups), handle, indent=2)
                handle.write("\n")
        except OSError as error:
            print(f"error: cannot write {args.json}: {error.strerror or error}", file=sys.stderr)
            return 2
    sys.stdout.write(render(groups))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
