"""GKE node pools: the system pool and one pool per spec pool (autoscaling, spot, GPUs)."""
from __future__ import annotations

import pulumi_gcp as gcp

from components.nodepools import Taint, pool_labels, pool_taints
from components.scope import Scope
from components.spec import GcpResource, NodePoolSpec

# Spec GPU type -> GKE accelerator name (the spec admits only these on GCP).
ACCELERATORS: dict[str, str] = {
    "T4": "nvidia-tesla-t4",
    "L4": "nvidia-l4",
    "A100": "nvidia-a100-80gb",
    "H100": "nvidia-h100-80gb",
}
# Kubernetes taint effects -> the GKE API's spelling.
TAINT_EFFECTS: dict[str, str] = {"NoSchedule": "NO_SCHEDULE", "PreferNoSchedule": "PREFER_NO_SCHEDULE", "NoExecute": "NO_EXECUTE"}
SYSTEM_POOL = "system"
# Access goes through IAM (Workload Identity); scopes stay wide, as GKE recommends.
OAUTH_SCOPES = ["https://www.googleapis.com/auth/cloud-platform"]


def accelerator(pool: NodePoolSpec) -> list[gcp.container.NodePoolNodeConfigGuestAcceleratorArgsDict]:
    assert pool.gpu is not None
    return [
        {
            "type": ACCELERATORS[pool.gpu.type],
            "count": pool.gpu.count,
            # GKE installs the driver; its own device plugin then advertises nvidia.com/gpu.
            "gpu_driver_installation_config": {"gpu_driver_version": "LATEST"},
        }
    ]


def gke_taint(taint: Taint) -> gcp.container.NodePoolNodeConfigTaintArgsDict:
    return {"key": taint.key, "value": taint.value, "effect": TAINT_EFFECTS[taint.effect]}


def worker_config(pool: NodePoolSpec) -> gcp.container.NodePoolNodeConfigArgsDict:
    node_config: gcp.container.NodePoolNodeConfigArgsDict = {
        "machine_type": pool.instance_type,
        "spot": pool.capacity_type == "SPOT",
        "taints": [gke_taint(t) for t in pool_taints(pool)],
        "labels": pool_labels(pool),
    }
    if pool.gpu is not None:
        node_config["guest_accelerators"] = accelerator(pool)
    return node_config


def node_pool(
    scope: Scope, spec: GcpResource, cluster: gcp.container.Cluster, name: str, node_config: gcp.container.NodePoolNodeConfigArgsDict, min_count: int, max_count: int, spot: bool
) -> gcp.container.NodePool:
    return gcp.container.NodePool(
        f"{spec.name}-pool-{name}",
        name=name,
        cluster=cluster.name,
        location=spec.region,
        # Per zone; the autoscaler then keeps the pool within the spec's totals.
        initial_node_count=1 if min_count > 0 else 0,
        # The spec's counts are totals for the pool (as on AKS), not per zone.
        autoscaling={
            "total_min_node_count": min_count,
            "total_max_node_count": max_count,
            # Spot capacity: take whichever zone has it, fewer preemptions.
            "location_policy": "ANY" if spot else "BALANCED",
        },
        management={"auto_repair": True, "auto_upgrade": True},
        node_config={
            **node_config,
            "oauth_scopes": OAUTH_SCOPES,
            # Pods get their Kubernetes service account's identity, not the node's.
            "workload_metadata_config": {"mode": "GKE_METADATA"},
        },
        # Changing the initial count would replace the pool; the autoscaler owns the size.
        opts=scope.opts(ignore_changes=["initialNodeCount"]),
    )


def build_system_pool(scope: Scope, spec: GcpResource, cluster: gcp.container.Cluster) -> gcp.container.NodePool:
    system = spec.cluster.system_pool
    return node_pool(scope, spec, cluster, SYSTEM_POOL, {"machine_type": system.instance_type}, system.min_count, system.max_count, spot=False)


def build_pools(scope: Scope, spec: GcpResource, cluster: gcp.container.Cluster) -> list[gcp.container.NodePool]:
    return [
        node_pool(scope, spec, cluster, p.name, worker_config(p), p.min_count, p.max_count, p.capacity_type == "SPOT")
        for p in spec.cluster.node_pools
    ]
