"""AKS worker pools: one AgentPool per spec pool, tainted and labelled for Anyscale."""
from __future__ import annotations

from pulumi_azure_native import containerservice

from components.nodepools import pool_labels, pool_taints
from components.scope import Scope
from components.spec import AksNodePool, AzureResource

SPOT_TAINT = "kubernetes.azure.com/scalesetpriority=spot:NoSchedule"


def build_pool(scope: Scope, spec: AzureResource, cluster: containerservice.ManagedCluster, pool: AksNodePool) -> containerservice.AgentPool:
    taints = [str(t) for t in pool_taints(pool)]
    spot = pool.capacity_type == "SPOT"
    if spot:
        taints.append(SPOT_TAINT)  # AKS adds it anyway; declaring it avoids a perpetual diff
    return containerservice.AgentPool(
        f"{spec.name}-pool-{pool.name}",
        agent_pool_name=pool.name,
        resource_name_=cluster.name,
        resource_group_name=scope.ctx.resource_group_name,
        mode="User",
        vm_size=pool.instance_type,
        os_type="Linux",
        type="VirtualMachineScaleSets",
        enable_auto_scaling=True,
        count=pool.min_count,
        min_count=pool.min_count,
        max_count=pool.max_count,
        node_taints=taints,
        node_labels=pool_labels(pool),
        # None: not sent to the engine, as if omitted.
        scale_set_priority="Spot" if spot else None,
        scale_set_eviction_policy="Delete" if spot else None,
        spot_max_price=-1 if spot else None,
        opts=scope.opts(),
    )


def build_pools(scope: Scope, spec: AzureResource, cluster: containerservice.ManagedCluster) -> list[containerservice.AgentPool]:
    return [build_pool(scope, spec, cluster, pool) for pool in spec.cluster.node_pools]
