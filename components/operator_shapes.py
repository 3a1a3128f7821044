"""The operator's instance types, derived from a cluster's worker pools.

Users can only pick the operator's instance types (`workloads.instanceTypes`,
platform.md 9.2): the chart's defaults (2CPU-8GB ... 8CPU-32GB-1xT4) fit no GPU pool
but T4 ones, so every pool gets one here (`workloads.instanceTypes.additional`): a pod
shape that fits its node's allocatable, naming the chart's accelerator, with a node
selector that lands it on that pool's nodes and tolerations for the pool's taints.

Reserve (what a node keeps for itself, so the pod shape fits its allocatable):
- CPU: 1 vCPU, plus 1 per 64 vCPUs. Covers kubelet/system reserved (AKS, EKS and GKE
  reserve 60m for the first core down to 2.5m per core above 4: 110m on 16 vCPUs,
  310m on 96), the daemonsets (kube-proxy, CNI, CSI, device plugin) and the Ray
  pod's sidecars. The chart wants whole cores.
- Memory: the larger of GKE's tiered kube-reserved (25% of the first 4 GiB, 20% of the
  next 4, 10% of the next 8, 6% up to 128 GiB, 2% above) and AKS's (20 MB per pod at
  250 pods + 50 MB, at most 25%); EKS's (255 MiB + 11 MiB per pod) is below both.
  Plus 100 MiB eviction threshold and 1.5 GiB for daemonsets and sidecars. Whole GiB.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from components.nodepools import CAPACITY_TAINT, gpu_selector, pool_taints
from config import NodePoolSpec

PREFIX = "workloads.instanceTypes.additional"
# Set on every node by the cloud's node controller (AKS, EKS, GKE): pins a shape sized
# for one instance type to nodes of that type.
INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
EVICTION_GIB = 100 / 1024
SYSTEM_GIB = 1.5
AKS_RESERVED_GIB = (20 * 250 + 50) * 1e6 / 2**30


@dataclass(frozen=True)
class Shape:
    """One operator instance type."""

    name: str
    cpu: int
    memory_gib: int
    gpus: int = 0
    accelerator: str | None = None  # the chart's accelerator name (its nodeSelectors key)
    node_selector: dict[str, str] = field(default_factory=dict)
    tolerations: tuple[tuple[tuple[str, str], ...], ...] = ()

    def values(self) -> dict[str, Any]:
        """This instance type as the chart reads it (values.yaml's instance type schema)."""
        resources: dict[str, Any] = {"CPU": self.cpu, "memory": f"{self.memory_gib}Gi"}
        if self.gpus:
            resources |= {"GPU": self.gpus, "accelerators": [self.accelerator]}
        return {
            "resources": resources,
            "nodeSelector": dict(self.node_selector),
            "tolerations": [dict(t) for t in self.tolerations],
        }


def reserved_cpu(vcpu: int) -> int:
    return 1 + vcpu // 64


def reserved_memory_gib(memory: float) -> float:
    tiers = [(4, 0.25), (4, 0.20), (8, 0.10), (112, 0.06), (math.inf, 0.02)]
    gke, rest = 0.0, memory
    for size, rate in tiers:
        gke += min(rest, size) * rate
        rest -= min(rest, size)
    aks = min(AKS_RESERVED_GIB, 0.25 * memory)
    return max(gke, aks) + EVICTION_GIB + SYSTEM_GIB


def node_size(provider: str, pool: NodePoolSpec) -> tuple[int, float, int]:
    """vCPU, GiB, GPUs of the pool's nodes (NodePoolSpec.node_size)."""
    return pool.node_size(provider)


def pool_shape(provider: str, pool: NodePoolSpec) -> Shape:
    vcpu, memory, gpus = node_size(provider, pool)
    cpu = vcpu - reserved_cpu(vcpu)
    memory_gib = math.floor(memory - reserved_memory_gib(memory))
    selector = {INSTANCE_TYPE_LABEL: pool.instance_type}
    accelerator = None
    name = f"{cpu}CPU-{memory_gib}GB"
    if pool.gpu is not None:
        accelerator = pool.gpu.type
        key, value = gpu_selector(provider, accelerator)
        selector[key] = value
        name += f"-{gpus}x{accelerator}"
    # The capacity-type taint is the chart's business: its market-type patches add the
    # ON_DEMAND or SPOT toleration (and selector) per workload.
    tolerations = tuple(
        (("key", t.key), ("operator", "Equal"), ("value", t.value), ("effect", t.effect))
        for t in pool_taints(pool)
        if t.key != CAPACITY_TAINT
    )
    return Shape(name, cpu, memory_gib, gpus, accelerator, selector, tolerations)


def pool_shapes(provider: str, pools: Sequence[NodePoolSpec]) -> list[Shape]:
    """One shape per distinct pool shape (on-demand and spot pools of one instance type
    share it: the chart's market-type patches pick the pool)."""
    shapes: dict[str, Shape] = {}
    for pool in pools:
        shape = pool_shape(provider, pool)
        if shape.name in shapes and shapes[shape.name] != shape:
            # Another instance type of the same size: name it after its instance type.
            suffix = pool.instance_type.lower().replace("_", "-").replace(".", "-")
            shape = replace(shape, name=f"{shape.name}-{suffix}")
        shapes[shape.name] = shape
    return list(shapes.values())


def escape(key: str) -> str:
    """A map key inside a Helm `--set` path: dots escaped (`nvidia\\.com/gpu\\.product`)."""
    return key.replace(".", "\\.")


def flatten(prefix: str, value: Any) -> dict[str, Any]:
    """Nested values -> flat Helm `--set` paths (`a.b[0].c`), the form the AKS
    extension's configuration settings take; `components.addons.operator.nest` reverses it
    for Helm."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out |= flatten(f"{prefix}.{escape(key)}", item)
        return out
    if isinstance(value, list):
        out = {}
        for index, item in enumerate(value):
            out |= flatten(f"{prefix}[{index}]", item)
        return out
    return {prefix: value}


# The chart's own `workloads.instanceTypes.defaults` (anyscale-operator 1.8.0 values.yaml,
# lines 182-201): three CPU shapes, and 8CPU-32GB-1xT4, left out below.
CHART_CPU_DEFAULTS = (Shape("2CPU-8GB", 2, 8), Shape("4CPU-16GB", 4, 16), Shape("8CPU-32GB", 8, 32))
ENABLE_DEFAULTS = "workloads.instanceTypes.enableDefaults"


def default_settings() -> dict[str, Any]:
    """The chart's default shapes less its T4 one. 8CPU-32GB-1xT4 has no toleration for the
    GPU taints every GPU pool here carries (nodepools.pool_taints) and no node selector, so
    it fits no pool the program makes: it would be offered to users with its pods Pending
    (the scheduling view's "fits on no pool"). Each GPU pool gets a shape of its own instead
    (pool_shape). values.yaml (lines 203-205): with `enableDefaults: false` the `additional`
    types replace the defaults, so the CPU defaults are given there as the chart writes them."""
    settings: dict[str, Any] = {ENABLE_DEFAULTS: False}
    for shape in CHART_CPU_DEFAULTS:
        settings |= flatten(f"{PREFIX}.{shape.name}", shape.values())
    return settings


def instance_type_settings(provider: str, pools: Sequence[NodePoolSpec]) -> dict[str, Any]:
    """The operator settings (flat chart keys) for the pools' instance types."""
    settings: dict[str, Any] = default_settings()
    for shape in pool_shapes(provider, pools):
        settings |= flatten(f"{PREFIX}.{shape.name}", shape.values())
    return settings
