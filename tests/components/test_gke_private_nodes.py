"""GKE: private nodes behind a Cloud Router and Cloud NAT in the network the program creates;
none of that on an existing network; pools after their service account's grants."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from preflight.runtime import Plan
from tests.conftest import stack_values
from tests.example_spec import standalone
from tests.plans import recorded

NAME = "gcp-usc1"
NETWORK = "anyscale-ml-platform-gcp-usc1"


def gcp_values(**cluster: Any) -> dict[str, Any]:
    values = standalone(stack_values("example"))
    default, _, gcp, _ = values["anyscale-cloud:resources"]
    assert gcp["name"] == NAME
    if cluster:
        gcp = {**gcp, "cluster": cluster}
    values["anyscale-cloud:resources"] = [default, gcp]
    return values


@pytest.fixture(scope="module")
def plan() -> Plan:
    return recorded("test", gcp_values())


@pytest.fixture(scope="module")
def existing() -> Plan:
    return recorded(
        "test",
        gcp_values(
            network="shared-vpc", subnetwork="gke-usc1", podsRangeName="gke-pods", servicesRangeName="gke-services"
        ),
    )


def pools(plan: Plan) -> list[dict[str, Any]]:
    found = [r for r in plan.of_type("gcp:container/nodePool:NodePool") if r["name"].startswith(NAME)]
    assert len(found) == 3
    return found


def ancestors(plan: Plan, name: str) -> set[str]:
    by_urn = {r["urn"]: r for r in plan.resources}
    seen: set[str] = set()
    todo = list(plan.named(name)["dependsOn"])
    while todo:
        urn = todo.pop()
        if urn not in seen:
            seen.add(urn)
            todo += by_urn[urn]["dependsOn"]
    return {by_urn[u]["name"] for u in seen}


def test_cloud_router_and_nat_in_the_clusters_region(plan: Plan) -> None:
    router = plan.named(f"{NAME}-router")
    assert router["inputs"] == {"name": f"{NETWORK}-router", "network": f"${{{NAME}-vpc.id}}", "region": "us-central1"}
    nat = plan.named(f"{NAME}-nat")
    assert nat["inputs"] == {
        "name": f"{NETWORK}-nat",
        "router": f"{NETWORK}-router",
        "region": "us-central1",
        "natIpAllocateOption": "AUTO_ONLY",
        "sourceSubnetworkIpRangesToNat": "ALL_SUBNETWORKS_ALL_IP_RANGES",
        "logConfig": {"enable": True, "filter": "ERRORS_ONLY"},
    }
    assert router["urn"] in nat["dependsOn"]


def test_every_pool_has_private_nodes_and_waits_for_the_nat(plan: Plan) -> None:
    for pool in pools(plan):
        assert pool["inputs"]["networkConfig"] == {"enablePrivateNodes": True}, pool["name"]
        assert {f"{NAME}-nat", f"{NAME}-router"} <= ancestors(plan, pool["name"]), pool["name"]
    # And the cluster's default, so that the default pool GKE creates first has no external
    # IPs either; the provider updates that default in place (google-beta v6.11.0 on), which
    # changes no existing pool.
    assert plan.named(f"{NAME}-gke")["inputs"]["privateClusterConfig"] == {"enablePrivateNodes": True}


def test_pools_wait_for_the_node_accounts_grants(plan: Plan) -> None:
    grants = {plan.named(f"{NAME}-node-sa-{k}")["urn"] for k in ("node", "images")}
    for pool in pools(plan):
        assert grants <= set(pool["dependsOn"]), pool["name"]


def test_an_existing_network_keeps_its_own_way_out(existing: Plan) -> None:
    names = {r["name"] for r in existing.resources}
    assert not {f"{NAME}-router", f"{NAME}-nat", f"{NAME}-vpc"} & names
    for pool in pools(existing):
        assert "networkConfig" not in pool["inputs"], pool["name"]


def test_first_preview_registers_the_router_and_nat() -> None:
    first = recorded("test", copy.deepcopy(gcp_values()), first_preview=True)
    assert first.named(f"{NAME}-nat")["inputs"]["router"] == f"{NETWORK}-router"
    assert all(p["inputs"]["networkConfig"] == {"enablePrivateNodes": True} for p in pools(first))
