"""A day-2 change through the provider's replace rule to the diff (preflight/replacements.py):
what pulumi-azure-native replaces is shown as a replacement, and on the fixed-name AKS cluster
refused with the way through; never as an in-place update. Paths are literals from upstream
(pulumi-azure-native provider/pkg/gen/replacement.go, forceNewMap)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from preflight.changes import Change, diff_plans
from preflight.replacements import PROVIDER_REPLACES
from tests.conftest import stack_values
from tests.plans import recorded


def rows(type_token: str) -> set[str]:
    return {path for pattern, paths in PROVIDER_REPLACES if pattern == type_token for path in paths}


def test_the_aks_rows_are_the_providers() -> None:
    assert {
        "networkProfile.serviceCidr",
        "networkProfile.dnsServiceIP",
        "networkProfile.podCidr",
        "networkProfile.networkPlugin",
        "networkProfile.networkPluginMode",
        "networkProfile.networkDataplane",
        "networkProfile.networkPolicy",
        "networkProfile.outboundType",
        "dnsPrefix",
    } <= rows("azure-native:containerservice:ManagedCluster")
    assert rows("azure-native:containerservice:AgentPool") == {
        "gpuInstanceProfile",
        "vmSize",
        "networkProfile.nodePublicIPTags",
    }
    assert rows("azure-native:storage:StorageAccount") == {"isHnsEnabled", "location"}


def change_of(changes: list[Change], name: str) -> Change:
    return next(c for c in changes if c.name == name)


def dev_with(cluster: dict[str, Any]) -> dict[str, Any]:
    values = stack_values("dev")
    values["anyscale-cloud:resources"][0]["cluster"] = cluster
    return values


def test_adding_a_network_to_an_aks_cluster_replaces_it_and_is_refused() -> None:
    """The issue's case: `cluster.network` on a cluster created without one sets podCidr,
    serviceCidr and dnsServiceIP; the provider replaces the cluster, create-first, under the
    same name, which AKS refuses."""
    base = recorded("dev", stack_values("dev")).to_json()
    head = recorded("dev", dev_with({"network": {"podCidr": "10.244.0.0/16"}})).to_json()
    cluster = change_of(diff_plans(base, head), "default-aks")
    assert cluster.action == "replace" and cluster.disruptive
    forcing = sorted(p.path for p in cluster.properties if p.forces_replacement)
    assert forcing == ["networkProfile.dnsServiceIP", "networkProfile.podCidr", "networkProfile.serviceCidr"]
    assert any(
        reason.startswith('REFUSED: the replacement keeps the name "aks-ml-platform-dev-default"')
        for reason in cluster.reasons
    )


@pytest.mark.parametrize(
    ("path", "value", "action"),
    [
        ("vmSize", "Standard_D32s_v5", "replace"),  # forceNewMap: a new VM size is a new pool
        ("maxCount", 7, "update"),  # not in the provider's rules: in place
    ],
)
def test_an_agent_pool_follows_the_providers_rule(path: str, value: object, action: str) -> None:
    base = recorded("dev", stack_values("dev")).to_json()
    head = copy.deepcopy(base)
    pool = next(r for r in head["resources"] if r["name"] == "default-pool-cpu")
    pool["inputs"][path] = value
    # The program's own replaceOnChanges left out: the provider's rule alone decides.
    pool["options"]["replaceOnChanges"] = []
    assert change_of(diff_plans(base, head), "default-pool-cpu").action == action
