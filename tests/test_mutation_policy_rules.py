"""Tests written for mutants of policy/rules/*.py that `make mutate` found alive (README,
"Mutation testing").

The pack builds its policies when it is imported: `aks._on_clusters`, `eks._resource_check`,
`eks._stack_check` and `gke._policy` wrap each check into the callback CrossGuard calls. The
policy tests go through policies built once, so a fault inside those wrappers (a message
reported against the wrong URN, a type filter dropped) showed only on a fresh import. These
tests build policies with the wrappers themselves. Modules are imported as the pack imports
them (`rules.x`, policy/ on sys.path), through preflight's runner; resource types are literals."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from pulumi_policy import EnforcementLevel

from preflight import policy as runner

aks = runner.pack_module("rules.aks")
eks = runner.pack_module("rules.eks")
gke = runner.pack_module("rules.gke")
values = runner.pack_module("rules.values")


def reported(validate: Callable[[Any, Any], None], **args: Any) -> list[tuple[str, str | None]]:
    found: list[tuple[str, str | None]] = []
    validate(SimpleNamespace(**args), lambda message, urn: found.append((message, urn)))
    return found


def check(props: Any) -> list[str]:
    return [f"first {props['x']}", "second"]


def test_aks_wrapper_reports_every_message_of_a_managed_cluster_and_nothing_else() -> None:
    validate = aks._on_clusters(check)
    expected = [("first 1", None), ("second", None)]
    assert reported(validate, resource_type="azure-native:containerservice:ManagedCluster", props={"x": 1}) == expected
    # azure-native's API-version modules are the same type.
    assert (
        reported(validate, resource_type="azure-native:containerservice/v20250801:ManagedCluster", props={"x": 1})
        == expected
    )
    assert reported(validate, resource_type="azure-native:containerservice:AgentPool", props={"x": 1}) == []


def test_eks_resource_wrapper_filters_by_the_type_it_was_given() -> None:
    validate = eks._resource_check(check, "aws:eks/cluster:Cluster")
    assert reported(validate, resource_type="aws:eks/cluster:Cluster", props={"x": 2}) == [
        ("first 2", None),
        ("second", None),
    ]
    assert reported(validate, resource_type="aws:eks/nodeGroup:NodeGroup", props={"x": 2}) == []


def test_eks_stack_wrapper_reports_each_finding_against_its_resource() -> None:
    def findings(resources: list[Any]) -> list[tuple[str, str]]:
        return [(f"urn:{r}", f"bad {r}") for r in resources]

    validate = eks._stack_check(findings)
    assert reported(validate, resources=("a", "b")) == [("bad a", "urn:a"), ("bad b", "urn:b")]


def test_gke_policy_factory_keeps_name_description_level_and_reports_the_check() -> None:
    def by_type(kind: str, props: Any) -> list[str]:
        return [f"{kind} {props['x']}"]

    policy = gke._policy("gke-test", "what it checks", EnforcementLevel.MANDATORY, by_type)
    assert (policy.name, policy.description, policy.enforcement_level) == (
        "gke-test",
        "what it checks",
        EnforcementLevel.MANDATORY,
    )
    validate = policy._ResourceValidationPolicy__validate
    assert reported(validate, resource_type="gcp:container/cluster:Cluster", props={"x": 3}) == [
        ("gcp:container/cluster:Cluster 3", None)
    ]


def test_value_markers_print_their_name() -> None:
    # Messages about values that are not known yet name the marker.
    assert repr(values._Marker("UNKNOWN")) == "UNKNOWN"
    assert repr(values.MISSING) == "MISSING"
