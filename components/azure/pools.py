"""AKS worker pools: one AgentPool per spec pool, tainted and labelled for Anyscale."""

from __future__ import annotations

import pulumi
from pulumi_azure_native import containerservice

from components.azure.network import NodeNetwork
from components.nodepools import pool_labels, pool_taints
from components.scope import Scope
from config import AksNodePool, AzureResource
from config.names import pool_logical_name

SPOT_TAINT = "kubernetes.azure.com/scalesetpriority=spot:NoSchedule"
SPOT_LABEL = "kubernetes.azure.com/scalesetpriority"
# What AKS cannot change on an existing pool (the API rejects the update with
# PropertyChangeNotAllowed; the OS disk size included).
REPLACED_ON = ["vmSize", "scaleSetPriority", "scaleSetEvictionPolicy", "osType", "osDiskSizeGB"]


def build_pool(
    scope: Scope,
    spec: AzureResource,
    cluster: containerservice.ManagedCluster,
    pool: AksNodePool,
    subnet: pulumi.Output[str] | None = None,
    after: list[pulumi.Resource] | None = None,
) -> containerservice.AgentPool:
    taints = [str(t) for t in pool_taints(pool)]
    labels = pool_labels(pool, "Azure")
    spot = pool.capacity_type == "SPOT"
    if spot:
        taints.append(SPOT_TAINT)  # AKS adds it anyway; declaring it avoids a perpetual diff
        # AKS keeps its spot label among the pool's user labels, and a label update replaces
        # that whole set, dropping it (Azure/AKS#3152): declared, every update sends it.
        labels = {**labels, SPOT_LABEL: "spot"}
    return containerservice.AgentPool(
        pool_logical_name(spec.name, pool.name),
        agent_pool_name=pool.name,
        resource_name_=cluster.name,
        resource_group_name=scope.ctx.resource_group_name,
        mode="User",
        # The cluster's version (major.minor: AKS picks the newest patch, never a downgrade).
        # The pool depends on the cluster, so an upgrade moves the control plane, then it.
        orchestrator_version=spec.cluster.kubernetes_version,
        vm_size=pool.instance_type,
        os_type="Linux",
        type="VirtualMachineScaleSets",
        enable_auto_scaling=True,
        count=pool.min_count,
        min_count=pool.min_count,
        max_count=pool.max_count,
        node_taints=taints,
        node_labels=labels,
        **({"os_disk_size_gb": pool.disk_size_gb} if pool.disk_size_gb else {}),
        # Every pool of a cluster with its own network joins the system pool's subnet.
        **({"vnet_subnet_id": subnet} if subnet is not None else {}),
        **({"scale_set_priority": "Spot", "scale_set_eviction_policy": "Delete", "spot_max_price": -1} if spot else {}),
        # The pool's name is fixed, and AKS cannot change a pool's VM size or priority:
        # such a change is a new pool, created after the old one is gone. The autoscaler
        # owns `count` once the pool exists.
        opts=scope.opts(
            replace_on_changes=REPLACED_ON,
            delete_before_replace=True,
            ignore_changes=["count"],
            depends_on=after or [],
        ),
    )


def build_pools(
    scope: Scope,
    spec: AzureResource,
    cluster: containerservice.ManagedCluster,
    nodes: NodeNetwork | None = None,
    after: list[pulumi.Resource] | None = None,
) -> list[containerservice.AgentPool]:
    subnet = nodes.subnet_id if nodes else None
    return [build_pool(scope, spec, cluster, pool, subnet, after) for pool in spec.cluster.node_pools]
