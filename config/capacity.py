"""Node subnets sized for their pools: whether a range the stack states (or the program derives)
holds every node at the pools' maxCount, with the headroom an upgrade adds, and the pods where
pods take the subnet's addresses. The facts, with their sources: config/data/subnets.py.

A subnet given only by ID (AKS existingSubnetId, EKS subnetIds, a GKE network that exists) has
a size this program cannot know offline: docs/troubleshooting.md says how to check it.
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Sequence
from typing import Protocol

from config.data.subnets import (
    AKS_SURGE_FRACTION,
    EC2_ENIS,
    EKS_SURGE_PER_ZONE,
    GKE_POD_ADDRESSES_PER_NODE,
    GKE_SURGE_PER_POOL,
    RESERVED_PER_SUBNET,
)


class Pool(Protocol):
    @property
    def instance_type(self) -> str: ...
    @property
    def max_count(self) -> int: ...


def size(cidr: str) -> int:
    return ipaddress.IPv4Network(cidr).num_addresses


def aks_nodes(pools: Sequence[Pool]) -> int:
    """Nodes at maxCount and each pool's default surge (the larger of 10% and one node)."""
    return sum(p.max_count + max(1, math.ceil(p.max_count * AKS_SURGE_FRACTION)) for p in pools)


def aks_node_subnet(subnet: str, pools: Sequence[Pool]) -> str | None:
    """Azure CNI overlay: one subnet address per node (pods use podCidr)."""
    usable, nodes = size(subnet) - RESERVED_PER_SUBNET["Azure"], aks_nodes(pools)
    if nodes <= usable:
        return None
    return (
        f"{subnet} holds {max(usable, 0)} nodes (Azure keeps 5 addresses of a subnet), but the pools at maxCount "
        f"with their upgrade surge take {nodes} (each node one address; pods use podCidr): use a larger "
        f"nodeSubnet (a /{prefix_for(nodes + RESERVED_PER_SUBNET['Azure'])}) or lower maxCount"
    )


def eks_addresses_per_node(instance_type: str) -> int:
    """VPC addresses the VPC CNI takes for a node however few pods it runs: its primary network
    interface's addresses and one warm interface's (WARM_ENI_TARGET=1, the amazon-vpc-cni-k8s
    default), so two interfaces' worth where the type has two; 1 for a type whose interfaces
    are not listed (its node only). A node packed with pods takes up to every interface's
    addresses (`interfaces x addresses`); Ray runs a few large pods per node, so the floor is
    what is refused: a stack refused here can never reach its maxCount, while one accepted
    may still run out if its nodes fill with small pods (docs/troubleshooting.md)."""
    enis = EC2_ENIS.get(instance_type)
    return min(enis[0], 2) * enis[1] if enis else 1


def eks_private_subnets(vpc_cidr: str, zones: int, pools: Sequence[Pool]) -> str | None:
    """The created VPC's private subnets (one per zone, an eighth of the VPC each: components/
    aws/network.py) against every node and pod of the node groups at maxCount, with each
    group's update surge, spread evenly over the zones as the Auto Scaling groups do."""
    prefix = ipaddress.IPv4Network(vpc_cidr).prefixlen + 3
    usable = 2 ** (32 - prefix) - RESERVED_PER_SUBNET["AWS"]
    surge = max(EKS_SURGE_PER_ZONE * zones, 1)
    need = sum((p.max_count + surge) * eks_addresses_per_node(p.instance_type) for p in pools)
    per_zone = math.ceil(need / zones)
    if per_zone <= usable:
        return None
    wanted = prefix_for(per_zone + RESERVED_PER_SUBNET["AWS"]) - 3
    # A VPC is at most a /16 and the program spreads it over at most 4 zones (config/eks.py).
    if wanted >= 16:
        way = f"a larger vpcCidr (a /{wanted})"
    elif zones < 4:
        way = "more availabilityZones"
    else:
        way = "fewer node groups or smaller instance types"
    return (
        f"{vpc_cidr} gives each of its {zones} private subnets (a /{prefix}) {usable} addresses (AWS keeps 5), but "
        f"the node groups at maxCount with their update surge take at least {need} VPC addresses (the VPC CNI "
        f"gives each node its network interface's addresses and a warm one's), {per_zone} per zone: use {way} or lower maxCount"
    )


def gke_nodes(pools: Sequence[Pool]) -> int:
    return sum(p.max_count + GKE_SURGE_PER_POOL for p in pools)


def gke_ranges(node_cidr: str, pod_cidr: str, pools: Sequence[Pool]) -> tuple[str, str] | None:
    """(field, problem): the node range holds a node per address, the pods' range a /24 per node."""
    nodes = gke_nodes(pools)
    usable = size(node_cidr) - RESERVED_PER_SUBNET["GCP"]
    if nodes > usable:
        return "nodeCidr", (
            f"{node_cidr} holds {max(usable, 0)} nodes (GCP keeps 4 addresses of a range), but the pools at maxCount "
            f"with their surge upgrade take {nodes}: use a larger nodeCidr (a /{prefix_for(nodes + 4)}) or lower "
            "maxCount"
        )
    pod_nodes = size(pod_cidr) // GKE_POD_ADDRESSES_PER_NODE
    if nodes > pod_nodes:
        return "podCidr", (
            f"{pod_cidr} holds the pods of {pod_nodes} nodes (GKE gives each node a /24 of it, for 110 pods), but the "
            f"pools at maxCount with their surge upgrade take {nodes} nodes: use a larger podCidr (a "
            f"/{prefix_for(nodes * GKE_POD_ADDRESSES_PER_NODE)}) or lower maxCount"
        )
    return None


def prefix_for(addresses: int) -> int:
    """The longest prefix whose network holds `addresses`."""
    return 32 - max(0, math.ceil(math.log2(max(addresses, 1))))
