"""The one reader of plan records (policy/rules/plan_records.py): the node pools of the example
stack's recorded plan, one literal per pool and provider; what the reader makes of values not
known yet, and which of them it notes for a check (the budget) to name."""

from __future__ import annotations

from typing import Any

import pytest
from pulumi_policy import PolicyCustomTimeouts, PolicyResource, PolicyResourceOptions

from policy.rules import values
from policy.rules.plan_records import (
    AGENT_POOL,
    MANAGED_CLUSTER,
    NODE_GROUP,
    NODE_POOL,
    Accelerator,
    NodePool,
    Record,
    Taint,
    cloud_resources,
    node_pools,
    pools_of,
)
from preflight.runtime import Plan

PREFIX = "urn:pulumi:example::anyscale-cloud::"
CLOUD = f"{PREFIX}anyscale-cloud:index:AnyscaleCloud$anyscale-cloud:index:CloudResource::"
AKS = f"{PREFIX}anyscale-cloud:azure:AksTarget$azure-native:containerservice:"
EKS = f"{PREFIX}anyscale-cloud:aws:EksTarget$aws:eks/nodeGroup:NodeGroup::"
GKE = f"{PREFIX}anyscale-cloud:gcp:GkeTarget$gcp:container/nodePool:NodePool::"
CAPACITY = "node.anyscale.com/capacity-type"


def taint(key: str, value: str) -> Taint:
    return Taint(key, value, "NoSchedule")


EXAMPLE_POOLS = {
    # The AKS system pool, inline in the cluster (agentPoolProfiles): named by itself.
    "system": NodePool(
        provider="Azure",
        urn=f"{AKS}ManagedCluster::default-aks",
        resource="system",
        name="system",
        cloud_resource=f"{CLOUD}default",
        instance_type="Standard_D4s_v5",
        min_count=1,
        max_count=3,
        capacity_type="ON_DEMAND",
        inline=True,
    ),
    "default-pool-cpu": NodePool(
        provider="Azure",
        urn=f"{AKS}AgentPool::default-pool-cpu",
        resource="default-pool-cpu",
        name="cpu",
        cloud_resource=f"{CLOUD}default",
        instance_type="Standard_D16s_v5",
        min_count=0,
        max_count=10,
        capacity_type="ON_DEMAND",
        labels={CAPACITY: "ON_DEMAND"},
        taints=(taint(CAPACITY, "ON_DEMAND"),),
    ),
    "default-pool-cpuspot": NodePool(
        provider="Azure",
        urn=f"{AKS}AgentPool::default-pool-cpuspot",
        resource="default-pool-cpuspot",
        name="cpuspot",
        cloud_resource=f"{CLOUD}default",
        instance_type="Standard_D16s_v5",
        min_count=0,
        max_count=10,
        capacity_type="SPOT",
        labels={"kubernetes.azure.com/scalesetpriority": "spot", CAPACITY: "SPOT"},
        taints=(taint(CAPACITY, "SPOT"), taint("kubernetes.azure.com/scalesetpriority", "spot")),
    ),
    "default-pool-gput4": NodePool(
        provider="Azure",
        urn=f"{AKS}AgentPool::default-pool-gput4",
        resource="default-pool-gput4",
        name="gput4",
        cloud_resource=f"{CLOUD}default",
        instance_type="Standard_NC16as_T4_v3",
        min_count=0,
        max_count=4,
        capacity_type="ON_DEMAND",
        labels={
            "node.anyscale.com/accelerator-type": "GPU",
            CAPACITY: "ON_DEMAND",
            "nvidia.com/gpu.count": "1",
            "nvidia.com/gpu.product": "NVIDIA-T4",
        },
        taints=(
            taint(CAPACITY, "ON_DEMAND"),
            taint("nvidia.com/gpu", "present"),
            taint("node.anyscale.com/accelerator-type", "GPU"),
        ),
    ),
    "aws-usw2-system": NodePool(
        provider="AWS",
        urn=f"{EKS}aws-usw2-system",
        resource="aws-usw2-system",
        name="system",
        cloud_resource=f"{CLOUD}aws-usw2",
        instance_type="m6i.xlarge",
        min_count=1,
        max_count=3,
        capacity_type="ON_DEMAND",
    ),
    "aws-usw2-cpu": NodePool(
        provider="AWS",
        urn=f"{EKS}aws-usw2-cpu",
        resource="aws-usw2-cpu",
        name="cpu",
        cloud_resource=f"{CLOUD}aws-usw2",
        instance_type="m6i.4xlarge",
        min_count=0,
        max_count=10,
        capacity_type="ON_DEMAND",
        labels={CAPACITY: "ON_DEMAND"},
        taints=(taint(CAPACITY, "ON_DEMAND"),),  # NO_SCHEDULE in the record
    ),
    "aws-usw2-cpuspot": NodePool(
        provider="AWS",
        urn=f"{EKS}aws-usw2-cpuspot",
        resource="aws-usw2-cpuspot",
        name="cpuspot",
        cloud_resource=f"{CLOUD}aws-usw2",
        instance_type="m6i.4xlarge",
        min_count=0,
        max_count=10,
        capacity_type="SPOT",
        labels={CAPACITY: "SPOT"},
        taints=(taint(CAPACITY, "SPOT"),),
    ),
    "gcp-usc1-pool-system": NodePool(
        provider="GCP",
        urn=f"{GKE}gcp-usc1-pool-system",
        resource="gcp-usc1-pool-system",
        name="system",
        cloud_resource=f"{CLOUD}gcp-usc1",
        instance_type="e2-standard-4",
        min_count=1,
        max_count=3,
        capacity_type="ON_DEMAND",
    ),
    "gcp-usc1-pool-cpu": NodePool(
        provider="GCP",
        urn=f"{GKE}gcp-usc1-pool-cpu",
        resource="gcp-usc1-pool-cpu",
        name="cpu",
        cloud_resource=f"{CLOUD}gcp-usc1",
        instance_type="n2-standard-16",
        min_count=0,
        max_count=10,
        capacity_type="ON_DEMAND",
        labels={CAPACITY: "ON_DEMAND"},
        taints=(taint(CAPACITY, "ON_DEMAND"),),
    ),
    "gcp-usc1-pool-cpuspot": NodePool(
        provider="GCP",
        urn=f"{GKE}gcp-usc1-pool-cpuspot",
        resource="gcp-usc1-pool-cpuspot",
        name="cpuspot",
        cloud_resource=f"{CLOUD}gcp-usc1",
        instance_type="n2-standard-16",
        min_count=0,
        max_count=10,
        capacity_type="SPOT",
        labels={CAPACITY: "SPOT"},
        taints=(taint(CAPACITY, "SPOT"),),
    ),
}


@pytest.fixture(scope="module")
def example_records(example_plan: Plan) -> list[Record]:
    return [Record.from_plan(r) for r in example_plan.to_json()["resources"]]


def test_the_example_plans_pools_per_provider(example_records: list[Record]) -> None:
    pools = node_pools(example_records)
    assert len(pools) == len(EXAMPLE_POOLS)  # no pool read twice (onprem, Generic, has none)
    assert {p.resource: p for p in pools} == EXAMPLE_POOLS
    # The plan's order of the three clouds' records varies from run to run: compared as sets.
    assert {p.resource for p in pools if p.spot} == {
        "default-pool-cpuspot",
        "aws-usw2-cpuspot",
        "gcp-usc1-pool-cpuspot",
    }


def test_pools_come_in_record_order_an_aks_clusters_inline_pools_at_its_place() -> None:
    cluster = record(MANAGED_CLUSTER, "c", agentPoolProfiles=[{"name": "system"}, {"name": "second"}])
    records = [record(NODE_GROUP, "g"), cluster, record(AGENT_POOL, "a", agentPoolName="user")]
    assert [(p.resource, p.name, p.inline) for p in node_pools(records)] == [
        ("g", "g", False),  # no nodeGroupName: the resource's name
        ("system", "system", True),
        ("second", "second", True),
        ("a", "user", False),
    ]
    assert [p.urn for p in node_pools(records)] == ["urn:g", "urn:c", "urn:c", "urn:a"]


def test_counts_and_markets_as_each_cloud_spells_them() -> None:
    fixed = pools_of(record(AGENT_POOL, "a", count=2, minCount=0, maxCount=9, scaleSetPriority="Regular"))[0]
    assert (fixed.min_count, fixed.max_count, fixed.capacity_type) == (2, 2, "ON_DEMAND")  # no autoscaling
    block = pools_of(record(NODE_GROUP, "g", capacityType="CAPACITY_BLOCK", scalingConfig={"minSize": 1}))[0]
    assert (block.min_count, block.max_count, block.capacity_type, block.spot) == (1, None, "CAPACITY_BLOCK", False)
    unset = pools_of(record(NODE_GROUP, "g", instanceTypes=["g5.xlarge", "g5.2xlarge"]))[0]
    assert (unset.instance_type, unset.capacity_type) == ("g5.xlarge", "ON_DEMAND")  # EKS's default market
    gke = pools_of(record(NODE_POOL, "p", nodeCount=3, nodeConfig={"spot": True, "machineType": "g2-standard-8"}))[0]
    assert (gke.min_count, gke.max_count, gke.capacity_type, gke.instance_type) == (3, 3, "SPOT", "g2-standard-8")


def test_gke_attached_gpus_and_taints() -> None:
    config = {
        "guestAccelerators": [{"type": "nvidia-tesla-t4", "count": 2}, {"type": "nvidia-l4"}],
        "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NO_EXECUTE"}, {"key": "k", "effect": "X"}],
        "labels": {"a": "b", "n": 1},
    }
    pool = pools_of(record(NODE_POOL, "p", name="gpus", nodeConfig=config))[0]
    assert pool.accelerators == (Accelerator("nvidia-tesla-t4", 2), Accelerator("nvidia-l4", 1))
    assert pool.taints == (Taint("nvidia.com/gpu", "present", "NoExecute"), Taint("k", "", "X"))
    assert (pool.name, pool.labels) == ("gpus", {"a": "b", "n": "1"})


@pytest.mark.parametrize("unknown", ["<unknown>", "${pool.size}", None], ids=["engine", "placeholder", "none"])
def test_a_value_not_known_yet_is_none_never_a_guess(unknown: Any) -> None:
    props = {
        "enableAutoScaling": True,
        "minCount": unknown,
        "maxCount": 4,
        "vmSize": unknown,
        "scaleSetPriority": unknown,
        "nodeLabels": {"a": unknown, "b": "c"},
        "nodeTaints": [unknown, "k=v:NoSchedule"],
    }
    pool = pools_of(record(AGENT_POOL, "a", **props))[0]
    assert (pool.instance_type, pool.min_count, pool.max_count, pool.capacity_type, pool.spot) == (
        None,
        None,
        4,
        None,
        False,
    )
    assert (pool.labels, pool.taints) == ({"b": "c"}, (Taint("k", "v", "NoSchedule"),))


def test_only_what_decides_a_pools_cost_is_noted_when_not_known() -> None:
    """Inside a check (values.reading), the instance type, counts, market and attached GPUs
    are noted where they are not known; names, labels and taints are read in passing."""
    unknown = "${x.y}"
    props = {
        "name": unknown,
        "autoscaling": {"totalMinNodeCount": unknown, "totalMaxNodeCount": 3},
        "nodeConfig": {"machineType": unknown, "spot": unknown, "labels": {"a": unknown}, "taints": [unknown]},
    }
    with values.reading(lambda: [(None, props)]) as reads:
        (pool,) = pools_of(record(NODE_POOL, "p", **props))
    assert reads.paths() == ["autoscaling.totalMinNodeCount", "nodeConfig.machineType", "nodeConfig.spot"]
    assert (pool.name, pool.labels, pool.taints) == ("p", {}, ())


def test_each_record_belongs_to_its_nearest_cloud_resource() -> None:
    group = Record("urn:cr", "anyscale-cloud:index:CloudResource", "cr", {})
    target = Record("urn:t", "anyscale-cloud:azure:AksTarget", "t", {}, parent="urn:cr")
    pool = Record("urn:p", AGENT_POOL, "p", {}, parent="urn:t")
    loop = Record("urn:l", AGENT_POOL, "l", {}, parent="urn:l")  # a parent cycle ends, in no group
    owners = cloud_resources([group, target, pool, loop])
    assert owners == {"urn:cr": group, "urn:t": group, "urn:p": group, "urn:l": None}
    assert [p.cloud_resource for p in node_pools([group, target, pool, loop])] == ["urn:cr", None]


class CountedParent(Record):
    """A record that counts how often its parent is read."""

    reads = 0

    def __getattribute__(self, name: str) -> Any:
        if name == "parent":
            CountedParent.reads += 1
        return super().__getattribute__(name)


def test_a_deep_parent_chain_costs_linear_work() -> None:
    # `preflight diff` and `cost` ask every record's owner: a walk per record was quadratic
    # (about count * count / 2 reads; minutes for the tens of thousands a 2 MB plan holds).
    count = 1500
    chain = [Record("urn:cr", "anyscale-cloud:index:CloudResource", "cr", {})]
    for i in range(count):
        chain.append(CountedParent(f"urn:r{i}", AGENT_POOL, f"r{i}", {}, parent=chain[-1].urn))
    CountedParent.reads = 0
    owners = cloud_resources(list(reversed(chain)))  # deepest first: the worst order
    assert all(owner is chain[0] for owner in owners.values()) and len(owners) == count + 1
    assert CountedParent.reads <= 3 * count


def test_types_match_with_an_azure_native_api_version() -> None:
    versioned = Record("urn:a", "azure-native:containerservice/v20240801:AgentPool", "a", {"vmSize": "Standard_D4s_v5"})
    assert [p.instance_type for p in node_pools([versioned])] == ["Standard_D4s_v5"]
    assert node_pools([Record("urn:x", "azure-native:storage:StorageAccount", "x", {})]) == []


def test_records_from_a_plan_and_from_the_engine_are_the_same() -> None:
    plan_record = {"urn": "urn:p", "type": AGENT_POOL, "name": "p", "inputs": {"count": 1}, "parent": "urn:t"}
    options = PolicyResourceOptions(False, [], None, [], PolicyCustomTimeouts(0, 0, 0), [])
    parent = PolicyResource("anyscale-cloud:azure:AksTarget", {}, "urn:t", "t", options, None, None, [], {})
    engine = PolicyResource(AGENT_POOL, {"count": 1}, "urn:p", "p", options, None, parent, [], {})
    assert (
        Record.from_plan(plan_record)
        == Record.from_engine(engine)
        == Record("urn:p", AGENT_POOL, "p", {"count": 1}, "urn:t")
    )
    assert Record.from_plan({"type": NODE_POOL}) == Record("None", NODE_POOL, "", {}, None)


def record(kind: str, name: str, /, **props: Any) -> Record:
    return Record(f"urn:{name}", kind, name, props)
