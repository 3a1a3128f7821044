"""GKE node pools: the system pool and one pool per spec pool (autoscaling, spot, GPUs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_gcp as gcp

from components.nodepools import Taint, gpu_selector, pool_labels, pool_taints
from components.scope import Scope
from config import GcpResource, GkeNodePool, NodePoolSpec
from config.names import SYSTEM_POOL, pool_logical_name
from config.pools import GKE_DISK_TYPE

# Kubernetes taint effects -> the GKE API's spelling.
TAINT_EFFECTS: dict[str, str] = {
    "NoSchedule": "NO_SCHEDULE",
    "PreferNoSchedule": "PREFER_NO_SCHEDULE",
    "NoExecute": "NO_EXECUTE",
}
# What we change only through a new pool (spot and accelerators are fixed at creation).
# What GKE cannot change on an existing pool. The machine type and the disk can change in
# place (UpdateNodePool; the google provider since 5.10): GKE recreates the nodes with a
# surge upgrade instead of deleting the pool first.
REPLACED_ON = ["nodeConfig.spot", "nodeConfig.guestAccelerators"]
# Access goes through IAM (Workload Identity); scopes stay wide, as GKE recommends.
OAUTH_SCOPES = ["https://www.googleapis.com/auth/cloud-platform"]


def accelerator(pool: NodePoolSpec) -> list[gcp.container.NodePoolNodeConfigGuestAcceleratorArgsDict]:
    assert pool.gpu is not None
    return [
        {
            # GKE labels the nodes cloud.google.com/gke-accelerator=<type>: the chart's value.
            "type": gpu_selector("GCP", pool.gpu.type)[1],
            "count": pool.gpu.count,
            # GKE installs the driver; its own device plugin then advertises nvidia.com/gpu.
            "gpu_driver_installation_config": {"gpu_driver_version": "LATEST"},
        }
    ]


def gke_taint(taint: Taint) -> gcp.container.NodePoolNodeConfigTaintArgsDict:
    return {"key": taint.key, "value": taint.value, "effect": TAINT_EFFECTS[taint.effect]}


def worker_config(pool: GkeNodePool) -> dict[str, Any]:
    node_config: dict[str, Any] = {
        "machine_type": pool.instance_type,
        "spot": pool.capacity_type == "SPOT",
        "taints": [gke_taint(t) for t in pool_taints(pool)],
        "labels": pool_labels(pool, "GCP"),
        "disk_size_gb": pool.disk_size_gb,
        "disk_type": GKE_DISK_TYPE,
    }
    if pool.gpu is not None:
        node_config["guest_accelerators"] = accelerator(pool)
    return node_config


@dataclass(frozen=True)
class PoolArgs:
    """What every pool of a cluster shares."""

    cluster: gcp.container.Cluster
    node_account: pulumi.Input[str]  # the nodes' service account email
    private_nodes: bool  # no external IPs (the network has a Cloud NAT)
    before: list[pulumi.Resource]  # the node account's role grants


def node_pool(
    scope: Scope,
    spec: GcpResource,
    shared: PoolArgs,
    name: str,
    node_config: dict[str, Any],
    min_count: int,
    max_count: int,
    spot: bool,
    zones: list[str] | None = None,
) -> gcp.container.NodePool:
    return gcp.container.NodePool(
        pool_logical_name(spec.name, name),
        name=name,
        cluster=shared.cluster.name,
        location=spec.region,
        # The pool's zones (nodeLocations); by default the cluster's (GKE picks three).
        **({"node_locations": zones} if zones else {}),
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
            "service_account": shared.node_account,
            "oauth_scopes": OAUTH_SCOPES,
            # Pods get their Kubernetes service account's identity, not the node's.
            "workload_metadata_config": {"mode": "GKE_METADATA"},
        },
        # Per pool as well as the cluster's default (components/gcp/cluster.py): GKE updates a
        # pool's setting in place (a surge upgrade of its nodes), and the cluster's default
        # applies only to pools created after it.
        **({"network_config": {"enable_private_nodes": True}} if shared.private_nodes else {}),
        # Changing the initial count would replace the pool; the autoscaler owns the size.
        # The pool's name is fixed: a replacement deletes the old pool first, or the new
        # one fails with "already exists" (platform.md 9.4).
        opts=scope.opts(
            depends_on=shared.before,
            ignore_changes=["initialNodeCount"],
            replace_on_changes=REPLACED_ON,
            delete_before_replace=True,
        ),
    )


def build_system_pool(scope: Scope, spec: GcpResource, shared: PoolArgs) -> gcp.container.NodePool:
    system = spec.cluster.system_pool
    return node_pool(
        scope,
        spec,
        shared,
        SYSTEM_POOL,
        {"machine_type": system.instance_type},
        system.min_count,
        system.max_count,
        spot=False,
    )


def build_pools(scope: Scope, spec: GcpResource, shared: PoolArgs) -> list[gcp.container.NodePool]:
    return [
        node_pool(
            scope, spec, shared, p.name, worker_config(p), p.min_count, p.max_count, p.capacity_type == "SPOT", p.zones
        )
        for p in spec.cluster.node_pools
    ]
