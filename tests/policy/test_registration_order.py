"""The registration-order policy reads the chain of `clouds/cloudResources` registrations from
the graph the engine keeps (each registration's dependencies and its parent chain, platform.md
1.2), never from where the records sit in the plan file: the golden plans are sorted by URN,
and a plan listing its records in any order gives the same verdict. A chain that is really
broken or reversed fails in every order."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from preflight import policy as runner
from preflight.planfile import UNKNOWN
from tests.policy.helpers import validate_stack

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"
STACKS = ("dev", "example", "gpu")


def golden(stack: str) -> dict[str, Any]:
    return json.loads((GOLDEN / f"plan-{stack}.json").read_text())  # type: ignore[no-any-return]


def orders(plan: dict[str, Any]) -> list[dict[str, Any]]:
    """The plan with its records as recorded, reversed and shuffled three ways: the same
    records in other lists (checking a plan reads it only: tests/policy/test_pack_cli.py)."""
    found = []
    for seed in (None, "reversed", 1, 2, 3):
        listed = list(plan["resources"])
        if seed == "reversed":
            listed.reverse()
        elif seed is not None:
            random.Random(seed).shuffle(listed)
        found.append({**plan, "resources": listed})
    return found


def violations(plan: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    return sorted((v.policy, v.level, v.urn or "", v.message) for v in runner.check_plan(plan))


def order_findings(plan: dict[str, Any]) -> list[tuple[str | None, str]]:
    return sorted(validate_stack("registration-order", plan), key=str)


def record(plan: dict[str, Any], name: str, kind: str = "azure-native:resources:Resource") -> dict[str, Any]:
    return next(r for r in plan["resources"] if r["name"] == name and r["type"] == kind)


def unlinked(plan: dict[str, Any], name: str, *previous: str) -> dict[str, Any]:
    """`plan` with the registration `name` no longer depending on the registrations `previous`
    (a new plan of the same records but that one: each caller's `plan` is a fresh golden)."""
    gone = {record(plan, p)["urn"] for p in previous}
    rec = record(plan, name)
    changed = {**rec, "dependsOn": [u for u in rec["dependsOn"] if u not in gone]}
    return {**plan, "resources": [changed if r is rec else r for r in plan["resources"]]}


def same_in_every_order(plan: dict[str, Any]) -> list[tuple[str | None, str]]:
    found = [order_findings(p) for p in orders(plan)]
    assert all(f == found[0] for f in found), found
    return found[0]


@pytest.mark.parametrize("stack", STACKS)
def test_a_golden_plan_gives_the_same_violations_in_any_order(stack: str) -> None:
    plan = golden(stack)
    assert [r["urn"] for r in plan["resources"]] == sorted(r["urn"] for r in plan["resources"])  # as written
    found = [violations(p) for p in orders(plan)]
    assert all(f == found[0] for f in found)
    assert [v for v in found[0] if v[1] == "mandatory"] == []


def test_the_example_plan_in_program_order_and_sorted_by_urn_agree(example_plan: Any) -> None:
    recorded = example_plan.to_json()
    assert order_findings(recorded) == order_findings(golden("example")) == []


def test_a_missing_link_fails_in_every_order() -> None:
    broken = unlinked(golden("example"), "gcp-usc1-registration", "aws-usw2-registration")
    ((urn, message),) = same_in_every_order(broken)
    assert urn == record(broken, "gcp-usc1-registration")["urn"]
    assert message.startswith("registration 'gcp-usc1' does not depend on 'aws-usw2', the registration before it")


def test_registrations_chained_to_nothing_fail_in_every_order() -> None:
    plan = golden("example")
    for name, previous in (
        ("aws-usw2-registration", "default-registration"),
        ("gcp-usc1-registration", "aws-usw2-registration"),
        ("onprem-registration", "gcp-usc1-registration"),
    ):
        plan = unlinked(plan, name, previous)
    found = same_in_every_order(plan)
    assert [(urn.rsplit("::", 1)[-1] if urn else None, m.split(",")[0]) for urn, m in found] == [
        ("aws-usw2-registration", "registration 'aws-usw2' does not depend on 'default'"),
        ("gcp-usc1-registration", "registration 'gcp-usc1' does not depend on 'aws-usw2'"),
        ("onprem-registration", "registration 'onprem' does not depend on 'gcp-usc1'"),
    ]


def test_the_primary_chained_after_another_fails_in_every_order() -> None:
    """aws-usw2 first in the graph: default waits for it, it waits for no registration."""
    plan = unlinked(golden("example"), "aws-usw2-registration", "default-registration")
    aws = record(plan, "aws-usw2-registration")
    record(plan, "default-registration")["dependsOn"].append(aws["urn"])
    found = same_in_every_order(plan)
    on_aws = [m for urn, m in found if urn == aws["urn"]]
    assert len(on_aws) == 2
    assert "the first registration is 'aws-usw2'" in on_aws[0] + on_aws[1]
    assert "must have provider AZURE" in on_aws[0] + on_aws[1]
    assert record(plan, "default-registration")["urn"] not in [urn for urn, _ in found]


def test_a_link_through_the_parent_component_is_a_link() -> None:
    """The SDK registers a child once its parent is registered, and the parent once its own
    dependencies are: gcp-usc1's registration waits for aws-usw2's through its component."""
    plan = unlinked(golden("example"), "gcp-usc1-registration", "aws-usw2-registration")
    component = record(plan, "gcp-usc1", "anyscale-cloud:index:CloudResourceRegistration")
    assert record(plan, "gcp-usc1-registration")["parent"] == component["urn"]
    component["dependsOn"] = [record(plan, "aws-usw2-registration")["urn"]]
    assert same_in_every_order(plan) == []


def test_a_registration_not_known_yet_may_be_the_first_in_every_order() -> None:
    """default-registration's type unknown (a preview): aws-usw2 is the first known one, but
    the unknown one may come before it, so neither is judged as the primary."""
    plan = golden("example")
    record(plan, "default-registration")["inputs"]["resourceType"] = UNKNOWN
    assert same_in_every_order(plan) == []


def test_a_long_chain_is_read_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A crafted plan of thousands of chained registrations (the spec allows 100): the chain
    is read link by link, never as every registration's whole upstream (which took seconds
    and gigabytes at a few thousand)."""
    from preflight.pack_import import pack_module

    stack = pack_module("rules.stack")
    calls = 0
    upstream = stack.upstream

    def counted(resource: Any) -> Any:
        nonlocal calls
        calls += 1
        return upstream(resource)

    monkeypatch.setattr(stack, "upstream", counted)
    chained = golden("dev")
    base = record(chained, "default-registration")
    previous = base["urn"]
    for index in range(3000):
        # A copy of the primary's record but for its name, URN, inputs' name and dependency (the
        # rest shared: nothing writes into a record but this test, into the top of each one's inputs).
        name = f"extra{index}-registration"
        extra = {
            **base,
            "name": name,
            "urn": base["urn"].replace("default-registration", name),
            "inputs": {**base["inputs"], "resourceName": f"extra{index}"},
            "dependsOn": [previous],
        }
        chained["resources"].append(extra)
        previous = extra["urn"]
    assert order_findings(chained) == []
    # Each registration's search ends at the one before it: a few steps each, not thousands.
    assert calls < 20 * 3000, calls
    # Registrations whose type is not known yet are placed by one walk from the first, too.
    for extra in chained["resources"][-1000:]:
        extra["inputs"]["resourceType"] = UNKNOWN
    calls = 0
    assert order_findings(chained) == []
    assert calls < 20 * 3000, calls
    # ... and it is the chain that was read: one link taken out is the one finding.
    middle = record(chained, "extra1500-registration")
    middle["dependsOn"] = []
    (found,) = order_findings(chained)
    assert found[0] == middle["urn"]
