"""Taints and labels of worker pools (platform.md 7), shared by every provider module."""
from __future__ import annotations

from dataclasses import dataclass

from components.spec import NodePoolSpec

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


def pool_labels(pool: NodePoolSpec) -> dict[str, str]:
    labels: dict[str, str] = {CAPACITY_TAINT: pool.capacity_type}
    if pool.gpu is not None:
        labels |= {
            "nvidia.com/gpu.product": pool.gpu.product,
            "nvidia.com/gpu.count": str(pool.gpu.count),
            ACCELERATOR_TAINT: "GPU",
        }
    return labels
