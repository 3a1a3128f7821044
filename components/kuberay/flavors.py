"""Kueue's objects from the worker pools: a ResourceFlavor per pool, the ClusterQueue over them
and the LocalQueues. Plain data, no Pulumi.

How Kueue 0.19.2 reads a flavor when it admits a pod set
(pkg/scheduler/flavorassigner/flavorassigner.go:1239, checkFlavorForPodSets): a flavor whose
`nodeTaints` are not all tolerated by the pod template's tolerations plus the flavor's own
`tolerations` is skipped ("untolerated taint"); then the pod's node selector must agree with
the flavor's `nodeLabels`. On admission Kueue adds the flavor's `nodeLabels` as node selector
and its `tolerations` to the pods (pkg/podset/podset.go:86-88). Flavors are tried in the
ClusterQueue's order.

So each flavor carries every taint of its pool as `nodeTaints`, and tolerates for the pods only
the taints every Ray pod may take (the capacity type, AKS's spot taint): the accelerator taints
are left to the workload. A CPU-only pod (a head, a CPU worker) never tolerates them, so it is
never admitted to a GPU pool's flavor; a GPU worker that tolerates them is. Every worker pool is
tainted, so an untolerating head is admitted to the first CPU pool's flavor with quota (there is
no flavor for the system pool): docs/what-it-creates.md says so and what it costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from components.nodepools import ACCELERATOR_TAINT, GPU_TAINT, pool_labels, pool_taints
from config import KubeRaySpec, QueueQuotaSpec, ResourceSpec
from config.data import kuberay_charts as charts
from config.kueue import pool_quota

KUEUE_API: Final = "kueue.x-k8s.io/v1beta2"  # the storage version of Kueue 0.19's CRDs
RESOURCE_FLAVOR: Final = "default-flavor"
CLUSTER_QUEUE: Final = "ray-cluster-queue"
LOCAL_QUEUE: Final = "ray-queue"
QUEUE_LABEL: Final = "kueue.x-k8s.io/queue-name"
# AKS taints spot nodes itself (components/azure/pools.py declares the same taint).
AKS_SPOT_TAINT = ("kubernetes.azure.com/scalesetpriority", "spot")
# The taints a workload must tolerate itself to be admitted to a pool's flavor.
WORKLOAD_TAINTS: Final = (GPU_TAINT, ACCELERATOR_TAINT)


def _toleration(taint: dict[str, str]) -> dict[str, str]:
    return {"key": taint["key"], "operator": "Equal", "value": taint["value"], "effect": taint["effect"]}


@dataclass(frozen=True)
class Flavor:
    name: str
    node_labels: dict[str, str]
    node_taints: list[dict[str, str]]  # the pool's taints, `{key, value, effect}` (corev1.Taint)
    cpu: int
    memory_gi: int
    gpu: int

    @property
    def tolerations(self) -> list[dict[str, str]]:
        """What Kueue adds to the pods it admits here: the pool's taints but the accelerator ones."""
        return [_toleration(t) for t in self.node_taints if t["key"] not in WORKLOAD_TAINTS]

    @property
    def pod_tolerations(self) -> list[dict[str, str]]:
        """What a pod needs to run on the pool's nodes: every one of its taints tolerated."""
        return [_toleration(t) for t in self.node_taints]

    def spec(self) -> dict[str, Any]:
        """The ResourceFlavor's spec (kueue.x-k8s.io/v1beta2 resourceflavor_types.go)."""
        return {"nodeLabels": self.node_labels, "nodeTaints": self.node_taints, "tolerations": self.tolerations}


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
                node_taints=[{"key": key, "value": value, "effect": effect} for key, value, effect in taints],
                cpu=quota.cpu,
                memory_gi=quota.memory_gi,
                gpu=quota.gpu,
            )
        )
    return flavors


COVERED: Final = ("cpu", "memory", "nvidia.com/gpu")


def _quotas(cpu: int, memory_gi: int, gpu: int) -> list[dict[str, str]]:
    return [
        {"name": "cpu", "nominalQuota": str(cpu)},
        {"name": "memory", "nominalQuota": f"{memory_gi}Gi"},
        {"name": "nvidia.com/gpu", "nominalQuota": str(gpu)},
    ]


def queue_flavors(flavors: list[Flavor], quota: QueueQuotaSpec) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(name, ResourceFlavor spec, ClusterQueue flavor entry) per flavor: one per worker pool,
    each with that pool's quota; without known pools (Generic) one empty flavor, which
    matches every node, with the given quota."""
    if not flavors:
        entry = {"name": RESOURCE_FLAVOR, "resources": _quotas(quota.cpu, quota.memory_gi, quota.gpu)}
        return [(RESOURCE_FLAVOR, {}, entry)]
    return [(f.name, f.spec(), {"name": f.name, "resources": _quotas(f.cpu, f.memory_gi, f.gpu)}) for f in flavors]


def cluster_queue(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The one ClusterQueue over the flavors, tried in order. One resource group: Kueue picks a
    flavor per resource group, so a GPU pod's CPU and its GPU must come from one group (else
    they could come from two pools' flavors, whose node selectors cannot both hold); the
    GPU flavors' `nodeTaints` keep CPU-only pods off them, and the CPU flavors' GPU quota of 0
    keeps GPU pods off those."""
    return {
        "namespaceSelector": {},  # every namespace may have a LocalQueue pointing here
        "resourceGroups": [{"coveredResources": list(COVERED), "flavors": entries}],
    }


def local_queue_namespaces(spec: KubeRaySpec) -> tuple[str, ...]:
    return tuple(spec.queue_namespaces) + ((charts.SMOKE_NAMESPACE,) if spec.smoke_test else ())


# Namespaces that exist in every cluster, for which no Namespace object is created.
EXISTING_NAMESPACES: Final = ("default",)
