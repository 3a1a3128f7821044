"""`peeredWith`: networks peered across resources must use distinct address ranges.

The ranges compared are those the networks will have, defaults included (a created AKS
VNet's, a created GKE network's), whether or not the stack file states them.
"""

from __future__ import annotations

import ipaddress
import itertools
from collections.abc import Callable, Sequence

from pydantic_core import InitErrorDetails

from config.aks import AzureResource
from config.eks import AwsResource
from config.gke import GcpResource
from config.resources import ResourceSpec
from config.types import detail


def _gke_cidrs(resource: GcpResource) -> dict[str, str]:
    return {f"cluster.{key}": cidr for key, cidr in resource.cluster.ranges().items()}


def _eks_cidrs(resource: AwsResource) -> dict[str, str]:
    # An existing VPC's range is not in the spec (vpcCidr describes one the program creates).
    return {} if resource.cluster.vpc_id else {"cluster.vpcCidr": resource.cluster.vpc_cidr}


def _aks_cidrs(resource: AzureResource) -> dict[str, str]:
    """The AKS network's ranges (cluster.network). The node subnet is inside addressSpace
    (a rule of its own), so addressSpace stands for both; the pod range (Azure CNI Overlay,
    which both data planes use here) and the service range must not overlap a peered
    network either (Microsoft Learn, "Azure CNI Overlay" IP planning). Without
    cluster.network, or with existingSubnetId, the VNet's own range is not known here and
    is not compared."""
    network = resource.cluster.network
    if network is None:
        return {}
    vnet = network.vnet
    found = {"cluster.network.addressSpace": vnet[0]} if vnet else {}
    return found | {"cluster.network.podCidr": network.pod_cidr, "cluster.network.serviceCidr": network.service_cidr}


def network_cidrs(resource: ResourceSpec) -> dict[str, str]:
    """Config path inside the resource -> CIDR, for the address ranges its network uses
    (empty where unknown: a Generic cluster, an existing network given without ranges)."""
    readers: list[tuple[type, Callable[..., dict[str, str]]]] = [
        (GcpResource, _gke_cidrs),
        (AwsResource, _eks_cidrs),
        (AzureResource, _aks_cidrs),
    ]
    return next((read(resource) for kind, read in readers if isinstance(resource, kind)), {})


def peering_problems(resources: Sequence[ResourceSpec]) -> list[InitErrorDetails]:
    """`peeredWith`: the names exist, and peered networks use distinct address ranges."""
    index = {r.name: i for i, r in enumerate(resources)}
    problems = []
    for i, resource in enumerate(resources):
        for j, other_name in enumerate(resource.peered_with):
            loc = ("resources", i, "peeredWith", j)
            k = index.get(other_name)
            if other_name == resource.name or k is None:
                why = "is this resource itself" if k == i else "is not the name of a cloud resource of this stack"
                problems.append(detail(loc, "peering", f"'{other_name}' {why}"))
                continue
            other = resources[k]
            if resource.name in other.peered_with and k < i:
                continue  # reported at the other side's entry
            for (here, mine), (there, theirs) in itertools.product(
                network_cidrs(resource).items(), network_cidrs(other).items()
            ):
                if ipaddress.ip_network(mine, strict=False).overlaps(ipaddress.ip_network(theirs, strict=False)):
                    problems.append(
                        detail(
                            loc,
                            "peering",
                            f"{here} {mine} overlaps {other_name}'s {there} {theirs}: peered networks need distinct "
                            "address ranges; change one of them",
                        )
                    )
    return problems
