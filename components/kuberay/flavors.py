"""Kueue ResourceFlavors from the worker pools: one per pool, carrying the pool's node labels
(so admitted Ray pods are steered to it) and tolerations of its taints (so they may land on
it), with the pool's size at maxCount as its quota. Plain data, no Pulumi."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from components.nodepools import pool_labels, pool_taints
from config import ResourceSpec
from config.kueue import pool_quota

# AKS taints spot nodes itself (components/azure/pools.py declares the same taint).
AKS_SPOT_TAINT = ("kubernetes.azure.com/scalesetpriority", "spot")


@dataclass(frozen=True)
class Flavor:
    name: str
    node_labels: dict[str, str]
    tolerations: list[dict[str, str]]
    cpu: int
    memory_gi: int
    gpu: int

    def spec(self) -> dict[str, Any]:
        """The ResourceFlavor's spec (kueue.x-k8s.io/v1beta2 resourceflavor_types.go)."""
        return {"nodeLabels": self.node_labels, "tolerations": self.tolerations}


def pool_flavors(resource: ResourceSpec) -> list[Flavor]:
    """One flavor per worker pool, in the pools' order (Kueue tries flavors in that order);
    none for a Generic cluster, whose pools this program does not know."""
    cluster = getattr(resource, "cluster", None)
    if cluster is None:
        return []
    provider = resource.provider_name
    flavors = []
    for pool in cluster.node_pools:
        taints = [(t.key, t.value, t.effect) for t in pool_taints(pool)]
        if provider == "Azure" and pool.capacity_type == "SPOT":
            taints.append((*AKS_SPOT_TAINT, "NoSchedule"))
        quota = pool_quota(provider, pool)
        flavors.append(
            Flavor(
                name=quota.name,
                node_labels=pool_labels(pool, provider),
                tolerations=[
                    {"key": key, "operator": "Equal", "value": value, "effect": effect} for key, value, effect in taints
                ],
                cpu=quota.cpu,
                memory_gi=quota.memory_gi,
                gpu=quota.gpu,
            )
        )
    return flavors
