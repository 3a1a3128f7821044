"""preflight.rollout and preflight.durations: critical path vs. serial creation time."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from preflight.durations import seconds_for
from preflight.rollout import estimate, format_seconds, render_estimate

FIXTURE = Path(__file__).parents[1] / "fixtures" / "plans" / "two_resources.json"
REGISTRATION_INPUTS = {"resourceProviderNamespace": "Anyscale.Platform", "resourceType": "cloudResources"}


def res(
    name: str,
    type_: str,
    parent: str | None = None,
    custom: bool = True,
    deps: tuple[str, ...] = (),
    provider: str | None = None,
    inputs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "urn": f"urn:{name}",
        "type": type_,
        "name": name,
        "parent": f"urn:{parent}" if parent else None,
        "custom": custom,
        "dependsOn": [f"urn:{d}" for d in deps],
        "provider": f"urn:{provider}::{provider}-id" if provider else None,
        "inputs": inputs or {},
        "options": {},
    }


def small_plan() -> dict[str, Any]:
    """A target component T (cluster A 600 s -> pool B 240 s, storage C 30 s), a
    Kubernetes provider P on A, a registration D that depends on the component T,
    a Helm release E through P, and an object F after D and E."""
    return {
        "project": "p",
        "stack": "s",
        "resources": [
            res("T", "anyscale-cloud:azure:AksTarget", custom=False),
            res("A", "azure-native:containerservice:ManagedCluster", parent="T"),
            res("B", "azure-native:containerservice:AgentPool", parent="T", deps=("A",)),
            res("C", "azure-native:storage:StorageAccount", parent="T"),
            res("P", "pulumi:providers:kubernetes", parent="T", deps=("A",)),
            res("D", "azure-native:resources:Resource", deps=("T",), inputs=REGISTRATION_INPUTS),
            res("E", "kubernetes:helm.sh/v3:Release", provider="P"),
            res("F", "kubernetes:core/v1:ConfigMap", deps=("D", "E")),
        ],
    }


def test_critical_path_of_a_known_graph() -> None:
    est = estimate(small_plan())
    assert [step.name for step in est.critical_path] == ["A", "B", "D", "F"]
    assert est.critical_seconds == 600 + 240 + 60 + 5
    assert est.serial_seconds == 600 + 240 + 30 + 0 + 60 + 90 + 5
    assert est.resource_count == 7  # the component does not count


def test_depending_on_a_component_waits_for_all_its_descendants() -> None:
    est = estimate(small_plan())
    # D names only the component; it still waits for B (A + B = 840 s), not 0 s.
    assert est.finish["urn:D"] == 840 + 60


def test_depending_on_a_component_includes_nested_components() -> None:
    plan = small_plan()
    plan["resources"] += [
        res("Inner", "anyscale-cloud:index:ClusterAddons", parent="T", custom=False),
        res("G", "azure-native:kubernetesconfiguration:Extension", parent="Inner", deps=("B",)),
    ]
    est = estimate(plan)
    assert est.finish["urn:G"] == 840 + 300
    assert est.finish["urn:D"] == 840 + 300 + 60  # G sits two levels below T


def test_a_child_does_not_wait_for_its_parent_component() -> None:
    plan = small_plan()
    plan["resources"] += [
        res("K", "anyscale-cloud:index:ClusterAddons", custom=False, deps=("A",)),
        res("L", "azure-native:storage:StorageAccount", parent="K"),
    ]
    est = estimate(plan)
    assert est.finish["urn:L"] == 30  # not 600 + 30: K's own dependency is not L's


def test_a_resource_waits_for_its_provider() -> None:
    est = estimate(small_plan())
    assert est.finish["urn:P"] == 600  # the provider waits for its cluster...
    assert est.finish["urn:E"] == 600 + 90  # ...and the release waits for the provider


def test_a_child_inside_the_component_it_depends_on_does_not_wait_for_itself() -> None:
    plan = small_plan()
    plan["resources"].append(res("H", "kubernetes:core/v1:Namespace", parent="T", deps=("T",)))
    est = estimate(plan)
    assert est.finish["urn:H"] == 5


def test_a_cycle_is_reported() -> None:
    plan = {
        "resources": [
            res("X", "kubernetes:core/v1:Namespace", deps=("Y",)),
            res("Y", "kubernetes:core/v1:Namespace", deps=("X",)),
        ]
    }
    with pytest.raises(ValueError, match="cycle"):
        estimate(plan)


@pytest.mark.parametrize(
    ("resource", "seconds"),
    [
        (res("a", "azure-native:containerservice:ManagedCluster"), 600),
        (res("a", "aws:eks/cluster:Cluster"), 600),  # full token, as the engine records it
        (res("a", "aws:eks:NodeGroup"), 300),
        (res("a", "gcp:container/cluster:Cluster"), 420),
        (res("a", "gcp:container:NodePool"), 240),
        (res("a", "kubernetes:helm.sh/v3:Release"), 90),
        (res("a", "kubernetes:gateway.networking.k8s.io/v1:Gateway"), 5),
        (res("a", "azure-native:resources:Resource", inputs=REGISTRATION_INPUTS), 60),
        (
            res(
                "a",
                "azure-native:resources:Resource",
                inputs={"resourceProviderNamespace": "Anyscale.Platform", "resourceType": "clouds"},
            ),
            60,
        ),
        (res("a", "azure-native:resources:Resource", inputs={"resourceProviderNamespace": "Other"}), 10),
        (res("a", "anyscale-cloud:index:CloudResource", custom=False), 0),
        (res("a", "pulumi:providers:kubernetes"), 0),
        (res("a", "something:else:Entirely"), 10),
    ],
)
def test_durations(resource: dict[str, Any], seconds: int) -> None:
    assert seconds_for(resource) == seconds


def test_render_shows_totals_speedup_and_path() -> None:
    text = render_estimate(estimate(small_plan()), width=100)
    assert "one at a time:     17m 05s" in text
    assert "in parallel:       15m 05s" in text
    assert "1.1x" in text
    path_lines = text.split("Critical path", 1)[1].splitlines()[1:]
    names = [re.search(r" (\S+)  \(", line).group(1) for line in path_lines[:4]]  # type: ignore[union-attr]
    assert names == ["A", "B", "D", "F"]


@pytest.mark.parametrize("width", [40, 60, 160])
def test_render_respects_width(width: int) -> None:
    plan = json.loads(FIXTURE.read_text())
    for line in render_estimate(estimate(plan), width=width).splitlines():
        assert len(line) <= width


def test_fixture_registrations_are_serialized_but_clusters_are_parallel() -> None:
    est = estimate(json.loads(FIXTURE.read_text()))
    finish = {urn.rsplit("::", 1)[1]: seconds for urn, seconds in est.finish.items()}
    assert finish["aws-usw2-registration"] >= finish["default-registration"] + 60
    assert finish["aws-usw2-eks"] == 10 + 600  # after its IAM role, alongside AKS (not after it)
    assert finish["default-aks"] == 10 + 600  # after the resource group
    assert est.critical_seconds < est.serial_seconds


@pytest.mark.parametrize(("seconds", "text"), [(0, "0s"), (59, "59s"), (60, "1m 00s"), (3725, "1h 02m 05s")])
def test_format_seconds(seconds: int, text: str) -> None:
    assert format_seconds(seconds) == text
