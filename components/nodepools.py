"""Taints and labels of worker pools (platform.md 7), shared by every provider module."""

from __future__ import annotations

from dataclasses import dataclass

from config import NodePoolSpec
from config.data.accelerators import GPU_NODE_SELECTORS, GPU_SELECTOR_KEY

CAPACITY_TAINT = "node.anyscale.com/capacity-type"
ACCELERATOR_TAINT = "node.anyscale.com/accelerator-type"
GPU_TAINT = "nvidia.com/gpu"


@dataclass(frozen=True)
class Taint:
    key: str
    value: str
    effect: str = "NoSchedule"

    def __str__(self) -> str:  # the `key=value:Effect` form AKS and kubectl use
        return f"{self.key}={self.value}:{self.effect}"


def pool_taints(pool: NodePoolSpec) -> list[Taint]:
    """Only Anyscale workloads (which tolerate these) land on worker pools."""
    taints = [Taint(CAPACITY_TAINT, pool.capacity_type)]
    if pool.gpu is not None:
        taints += [Taint(GPU_TAINT, "present"), Taint(ACCELERATOR_TAINT, "GPU")]
    return taints


def gpu_selector(provider: str, gpu_type: str) -> tuple[str, str]:
    """The node label the operator selects this GPU's nodes by: the chart's own value
    (config/data/accelerators.py), under its key for the provider."""
    return GPU_SELECTOR_KEY[provider], GPU_NODE_SELECTORS[provider][gpu_type]


def pool_labels(pool: NodePoolSpec, provider: str) -> dict[str, str]:
    labels: dict[str, str] = {CAPACITY_TAINT: pool.capacity_type}
    if pool.gpu is not None:
        key, value = gpu_selector(provider, pool.gpu.type)
        # GKE labels `cloud.google.com/gke-accelerator` itself, from the pool's
        # accelerator type (and refuses labels under cloud.google.com).
        labels |= {} if provider == "GCP" else {key: value}
        labels |= {"nvidia.com/gpu.count": str(pool.gpu.count), ACCELERATOR_TAINT: "GPU"}
    return labels
