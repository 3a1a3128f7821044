"""The AKS nodes' network (`cluster.network`): a VNet and node subnet the program creates,
or a subnet that exists already, and the cluster identity's role on that subnet."""

from __future__ import annotations

from dataclasses import dataclass, field

import pulumi
from pulumi_azure_native import containerservice, network

from components.azure.identity import Grants
from components.cloud_args import known
from config import AzureResource
from config.names import azure_vnet_name
from policy.rules.platform import AZURE_ROLES

ROLE_NETWORK_CONTRIBUTOR = next(guid for guid, name in AZURE_ROLES.items() if name == "Network Contributor")
NODE_SUBNET_NAME = "nodes"
# Storage traffic from the subnet stays on Azure's backbone and is identified by the subnet,
# which is what a storage account's virtual network rule admits (docs/what-it-creates.md, AKS networks).
STORAGE_SERVICE_ENDPOINT = "Microsoft.Storage"


@dataclass(frozen=True)
class NodeNetwork:
    subnet_id: pulumi.Output[str]
    created: bool  # the program made the subnet (and put the storage service endpoint on it)
    resources: list[pulumi.Resource] = field(default_factory=list)


def build_network(grants: Grants, spec: AzureResource) -> NodeNetwork | None:
    """None without `cluster.network`: AKS then manages the VNet itself."""
    net, scope = spec.cluster.network, grants.scope
    if net is None:
        return None
    if not net.created:
        return NodeNetwork(pulumi.Output.from_input(known(net.existing_subnet_id or "")), created=False)
    ctx = scope.ctx
    vnet = network.VirtualNetwork(
        f"{spec.name}-vnet",
        virtual_network_name=azure_vnet_name(ctx.cloud_name, spec.name),
        resource_group_name=ctx.resource_group_name,
        location=spec.region,
        address_space={"address_prefixes": [net.address_space]},
        tags=ctx.tags,
        opts=scope.opts(),
    )
    subnet = network.Subnet(
        f"{spec.name}-nodes",
        subnet_name=NODE_SUBNET_NAME,
        virtual_network_name=vnet.name,
        resource_group_name=ctx.resource_group_name,
        address_prefix=net.node_subnet,
        service_endpoints=[{"service": STORAGE_SERVICE_ENDPOINT}],
        opts=scope.opts(),
    )
    return NodeNetwork(subnet.id, created=True, resources=[vnet, subnet])


def network_grants(
    grants: Grants, spec: AzureResource, nodes: NodeNetwork | None, cluster: containerservice.ManagedCluster
) -> list[pulumi.Resource]:
    """AKS's cluster identity manages load balancers and node NICs in a subnet it does not
    own: Network Contributor on that subnet, and nothing wider."""
    if nodes is None:
        return []
    principal = cluster.identity.apply(lambda i: i.principal_id if i else None)
    return [grants.grant(f"{spec.name}-cluster-network", principal, ROLE_NETWORK_CONTRIBUTOR, nodes.subnet_id)]
