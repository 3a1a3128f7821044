"""Node subnets sized for their pools (config/capacity.py), on the example stack's pools, at the
exact limit on both sides: AKS nodes (overlay pods take no subnet address), EKS nodes and pods
(the VPC CNI), GKE nodes and their /24s of the pods' range; and GKE's smallest Service range.
Subnets given by ID are not sized offline and are accepted."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from config.capacity import eks_addresses_per_node
from tests.conftest import stack_values
from tests.example_spec import spec_problems

EXAMPLE = stack_values("example")
AWS_SUBNETS = {"private": ["subnet-0a1b2c3d4e5f67890", "subnet-0a1b2c3d4e5f67891"]}


def problems(index: int, cluster: dict[str, Any]) -> list[str]:
    cloud = copy.deepcopy(EXAMPLE["anyscale-cloud:cloud"])
    resources = copy.deepcopy(EXAMPLE["anyscale-cloud:resources"])
    resources[index].setdefault("cluster", {}).update(cluster)
    return spec_problems(cloud, resources)


def aks_subnet(subnet: str) -> dict[str, Any]:
    return {"network": {"addressSpace": "10.224.0.0/12", "nodeSubnet": subnet}}


def test_an_aks_node_subnet_holds_every_node_and_its_surge() -> None:
    # system 3 + cpu 10 + cpuspot 10 + gput4 4, each pool one surge node: 31 nodes.
    assert problems(0, aks_subnet("10.224.0.0/27")) == [
        "resources[0].cluster.network.nodeSubnet (default): 10.224.0.0/27 holds 27 nodes (Azure keeps 5 addresses "
        "of a subnet), but the pools at maxCount with their upgrade surge take 31 (each node one address; pods use "
        "podCidr): use a larger nodeSubnet (a /26) or lower maxCount"
    ]
    assert problems(0, aks_subnet("10.224.0.0/26")) == []


def test_an_aks_pool_surges_by_a_tenth_of_its_nodes() -> None:
    def pool(max_count: int) -> dict[str, Any]:
        return {
            **aks_subnet("10.224.0.0/24"),
            "nodePools": [{"name": "big", "instanceType": "Standard_D4s_v5", "maxCount": max_count}],
        }

    assert problems(0, pool(224)) == []  # 224 + 23 + the system pool's 3 + 1 = 251, what a /24 holds
    assert problems(0, pool(225)) == [
        "resources[0].cluster.network.nodeSubnet (default): 10.224.0.0/24 holds 251 nodes (Azure keeps 5 "
        "addresses of a subnet), but the pools at maxCount with their upgrade surge take 252 (each node one "
        "address; pods use podCidr): use a larger nodeSubnet (a /23) or lower maxCount"
    ]


def test_an_existing_aks_subnet_is_not_sized_offline() -> None:
    subnet = (
        "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/"
        "virtualNetworks/vnet/subnets/nodes"
    )
    assert problems(0, {"network": {"existingSubnetId": subnet}}) == []


@pytest.mark.parametrize(("prefix", "accepted"), [(16, True), (19, True), (20, False), (24, False)])
def test_eks_private_subnets_hold_every_node_and_pod(prefix: int, accepted: bool) -> None:
    # What the VPC CNI takes per node with WARM_ENI_TARGET=1: two interfaces' addresses: system
    # m6i.xlarge 2 x 15 = 30, two m6i.4xlarge pools 2 x 30 = 60 each, every group maxCount + 4
    # surge (two zones): 7 x 30 + 2 x 14 x 60 = 1,890, 945 per zone; a /19's private /22s hold
    # 1,019, a /20's /23s 507.
    found = problems(1, {"vpcCidr": f"10.0.0.0/{prefix}"})
    if accepted:
        assert found == []
    else:
        assert found == [
            f"resources[1].cluster.vpcCidr (aws-usw2): 10.0.0.0/{prefix} gives each of its 2 private subnets (a "
            f"/{prefix + 3}) {2 ** (32 - prefix - 3) - 5} addresses (AWS keeps 5), but the node groups at maxCount "
            "with their update surge take at least 1890 VPC addresses (the VPC CNI gives each node its network "
            "interface's addresses and a warm one's), 945 per zone: use a larger vpcCidr (a /19) or lower maxCount"
        ]


def test_eks_counts_a_node_and_its_pods_by_its_network_interfaces() -> None:
    assert [eks_addresses_per_node(t) for t in ("m6i.xlarge", "m6i.4xlarge", "p4d.24xlarge", "p5.48xlarge")] == [
        30,  # 2 of 4 interfaces x 15
        60,  # 2 of 8 x 30
        100,  # 2 of 15 x 50
        100,  # 2 of 2 x 50
    ]
    assert eks_addresses_per_node("x2iedn.32xlarge") == 1  # not listed: the node only


def test_an_existing_eks_vpc_is_not_sized_offline() -> None:
    assert problems(1, {"vpcId": "vpc-0a1b2c3d4e5f67890", "subnetIds": AWS_SUBNETS}) == []


def test_gke_node_range_holds_every_node_and_its_surge() -> None:
    assert problems(2, {"nodeCidr": "10.10.0.0/28"}) == [
        "resources[2].cluster.nodeCidr (gcp-usc1): 10.10.0.0/28 holds 12 nodes (GCP keeps 4 addresses of a range), "
        "but the pools at maxCount with their surge upgrade take 26: use a larger nodeCidr (a /27) or lower maxCount"
    ]
    assert problems(2, {"nodeCidr": "10.10.0.0/27"}) == []


def test_gke_pod_range_holds_a_slash_24_per_node() -> None:
    assert problems(2, {"podCidr": "10.12.0.0/20"}) == [
        "resources[2].cluster.podCidr (gcp-usc1): 10.12.0.0/20 holds the pods of 16 nodes (GKE gives each node a "
        "/24 of it, for 110 pods), but the pools at maxCount with their surge upgrade take 26 nodes: use a larger "
        "podCidr (a /19) or lower maxCount"
    ]
    assert problems(2, {"podCidr": "10.12.0.0/19"}) == []


@pytest.mark.parametrize("cidr", ["10.16.0.0/32", "10.16.0.0/28"])
def test_a_gke_service_range_smaller_than_a_slash_27_is_refused(cidr: str) -> None:
    assert problems(2, {"serviceCidr": cidr}) == [
        f"resources[2].cluster.serviceCidr (gcp-usc1): '{cidr}' is smaller than a /27, the smallest Service range "
        "GKE takes (config/data/subnets.py): use a /27 or larger, e.g. 10.16.0.0/20"
    ]
    assert problems(2, {"serviceCidr": "10.16.0.0/27"}) == []
