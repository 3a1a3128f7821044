"""What Kueue admits: the smoke RayJobs' requests (one definition, which the components
render) and the quota of each worker pool's ResourceFlavor, and whether a smoke job fits.

Kueue admits a workload when every pod set gets a flavor whose remaining nominal quota holds
it, trying the ClusterQueue's flavors in order and counting the pod sets already placed
(kubernetes-sigs/kueue pkg/scheduler/flavorassigner, v0.19.2). A smoke job that no flavor
holds is never admitted and `pulumi up` waits on it until its timeout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from config.data.kuberay import KUEUE_SUBMITTER_REQUEST
from config.pools import NodePoolSpec


@dataclass(frozen=True)
class PodRequest:
    """A pod's requests as Kueue counts them."""

    cpu_milli: int
    memory_mi: int
    gpu: int = 0

    def text(self) -> str:
        memory = f"{self.memory_mi // 1024} GiB" if self.memory_mi % 1024 == 0 else f"{self.memory_mi} MiB"
        return f"{self.cpu_milli / 1000:g} vCPU, {memory}" + (f", {self.gpu} GPU" if self.gpu else "")


# The smoke RayJob's head (components/kuberay/values.py smoke_job renders it), and the GPU
# smoke job's one worker (gpu_smoke_job), which only the first GPU pool's flavor can hold.
SMOKE_HEAD: Final = PodRequest(1000, 2048)
GPU_SMOKE_WORKER: Final = PodRequest(1000, 4096, 1)
SUBMITTER: Final = PodRequest(*KUEUE_SUBMITTER_REQUEST)


@dataclass(frozen=True)
class FlavorQuota:
    """A ResourceFlavor's nominal quota in the ClusterQueue (whole vCPUs, GiB, GPUs)."""

    name: str
    cpu: int
    memory_gi: int
    gpu: int
    # A GPU pool's flavor carries the GPU taints as nodeTaints (components/kuberay/flavors.py):
    # Kueue admits to it only pod sets that tolerate them (flavorassigner.go, v0.19.2), which
    # the smoke jobs' head and Kueue's submitter pod do not.
    tainted: bool = False


def pool_quota(provider: str, pool: NodePoolSpec) -> FlavorQuota:
    """A worker pool's flavor quota: its node size at maxCount (components/kuberay/flavors.py)."""
    cpu, memory, gpus = pool.node_size(provider)
    return FlavorQuota(
        f"pool-{pool.name}",
        cpu * pool.max_count,
        int(memory * pool.max_count),
        gpus * pool.max_count,
        tainted=pool.gpu is not None,
    )


def admits(flavors: Sequence[FlavorQuota], pod_sets: Sequence[tuple[PodRequest, str | None]]) -> bool:
    """Whether Kueue admits one workload: each pod set (its request, and the one flavor its
    node selector allows, None for any) takes the first flavor, in order, whose quota less
    what the workload's earlier pod sets took still holds it."""
    used = {f.name: [0, 0, 0] for f in flavors}
    for request, only in pod_sets:
        for flavor in flavors:
            if only is not None and flavor.name != only:
                continue
            if only is None and flavor.tainted:
                continue  # a pod set without the GPU tolerations is never admitted there
            cpu, memory, gpu = used[flavor.name]
            fits = (
                cpu + request.cpu_milli <= flavor.cpu * 1000
                and memory + request.memory_mi <= flavor.memory_gi * 1024
                and gpu + request.gpu <= flavor.gpu
            )
            if fits:
                used[flavor.name] = [cpu + request.cpu_milli, memory + request.memory_mi, gpu + request.gpu]
                break
        else:
            return False
    return True


def smoke_jobs(gpu_flavor: str | None) -> dict[str, list[tuple[PodRequest, str | None]]]:
    """The smoke RayJobs' pod sets in Kueue's order (head, workers, submitter): the CPU job
    always, the GPU job when `gpu_flavor` (the first GPU pool's flavor) is given."""
    jobs: dict[str, list[tuple[PodRequest, str | None]]] = {"smokeTest": [(SMOKE_HEAD, None), (SUBMITTER, None)]}
    if gpu_flavor is not None:
        jobs["gpuSmokeTest"] = [(SMOKE_HEAD, None), (GPU_SMOKE_WORKER, gpu_flavor), (SUBMITTER, None)]
    return jobs
