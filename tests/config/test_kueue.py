"""The smoke RayJobs under Kueue (config/kueue.py): a quota that can never admit one is refused
where it is set, one that just holds it is accepted; what Kueue counts (head, workers and its
submitter pod) and how it places pod sets on flavors."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from components.kuberay.values import smoke_job
from config import load_spec
from config.kueue import GPU_SMOKE_WORKER, SMOKE_HEAD, SUBMITTER, FlavorQuota, PodRequest, admits
from tests.example_spec import spec_problems
from tests.kuberay_stack import CLOUD, RESOURCES


def refusals(resources: list[dict[str, Any]]) -> list[str]:
    return spec_problems(CLOUD, resources)


def generic_quota(cpu: int, memory_gi: int) -> list[dict[str, Any]]:
    resources = copy.deepcopy(RESOURCES)
    resources[3]["addons"] = {
        "kuberay": {"batchScheduler": "kueue", "smokeTest": True, "queueQuota": {"cpu": cpu, "memoryGi": memory_gi}}
    }
    return resources


def test_a_generic_quota_smaller_than_the_smoke_job_is_refused_at_queue_quota() -> None:
    assert refusals(generic_quota(1, 2)) == [
        "resources[3].addons.kuberay.queueQuota (onprem): queueQuota cannot admit the smokeTest RayJob, whose pods "
        "Kueue counts together (1 vCPU, 2 GiB; 0.5 vCPU, 200 MiB: its head, workers and submitter): `pulumi up` "
        "would wait on it until its timeout; raise queueQuota (at least 2 vCPUs and 3 GiB) or drop smokeTest"
    ]


@pytest.mark.parametrize(("cpu", "memory_gi", "admitted"), [(2, 3, True), (1, 100, False), (100, 2, False)])
def test_the_generic_quota_holds_head_and_submitter_together(cpu: int, memory_gi: int, admitted: bool) -> None:
    assert (refusals(generic_quota(cpu, memory_gi)) == []) is admitted


def one_aws_pool(max_count: int, cpu: int, memory_gb: int, **kuberay: Any) -> list[dict[str, Any]]:
    resources = copy.deepcopy(RESOURCES)
    shape = {"cpu": cpu, "memoryGb": memory_gb}
    resources[1]["cluster"] = {
        "nodePools": [{"name": "tiny", "instanceType": "t3.micro", "maxCount": max_count, "shape": shape}]
    }
    resources[1]["addons"] = {"kuberay": {"batchScheduler": "kueue", "smokeTest": True, **kuberay}}
    return resources


def test_pools_too_small_for_the_smoke_job_are_refused_at_smoke_test() -> None:
    assert refusals(one_aws_pool(1, 2, 2)) == [
        "resources[1].addons.kuberay.smokeTest (aws): no worker pool's Kueue quota (its nodes at maxCount) can "
        "admit the smokeTest RayJob (1 vCPU, 2 GiB; 0.5 vCPU, 200 MiB: its head, workers and submitter): `pulumi "
        "up` would wait on it until its timeout; give a pool more nodes or larger ones, or drop smokeTest"
    ]
    assert refusals(one_aws_pool(2, 2, 2)) == []  # 4 vCPUs, 4 GiB at maxCount
    assert refusals(one_aws_pool(1, 2, 2, smokeTest=False)) == []  # no smoke job, nothing to admit


def test_the_default_pools_admit_both_smoke_jobs() -> None:
    resources = copy.deepcopy(RESOURCES)
    resources[0]["addons"] = {"kuberay": {"batchScheduler": "kueue", "smokeTest": True, "gpuSmokeTest": True}}
    assert refusals(resources) == []


def test_the_gpu_worker_takes_only_the_gpu_pools_flavor() -> None:
    cpu = FlavorQuota("pool-cpu", 100, 100, 0)
    small_gpu = FlavorQuota("pool-gpu", 1, 4, 1)  # the worker fits, head and worker together do not
    pod_sets = [(SMOKE_HEAD, None), (GPU_SMOKE_WORKER, "pool-gpu"), (SUBMITTER, None)]
    assert admits([cpu, small_gpu], pod_sets)  # the head and submitter go to the CPU pool
    assert not admits([small_gpu, cpu], pod_sets)  # the head takes the GPU flavor first: the worker no longer fits
    assert not admits([cpu], pod_sets)


def test_pods_without_the_gpu_tolerations_skip_a_gpu_pools_flavor() -> None:
    # A GPU pool's flavor carries the GPU taints as nodeTaints: the head and Kueue's submitter
    # pod (no tolerations) are never admitted there, however large its quota.
    gpu = FlavorQuota("pool-gpu", 96, 880, 8, tainted=True)
    assert not admits([gpu], [(SMOKE_HEAD, None), (SUBMITTER, None)])
    assert admits([gpu, FlavorQuota("pool-cpu", 4, 16, 0)], [(SMOKE_HEAD, None), (SUBMITTER, None)])


def test_a_cluster_with_only_gpu_pools_cannot_admit_the_smoke_job() -> None:
    resources = copy.deepcopy(RESOURCES)
    resources[1]["cluster"] = {
        "nodePools": [{"name": "gpu", "instanceType": "g5.12xlarge", "maxCount": 2, "gpu": {"type": "A10G"}}]
    }
    resources[1]["addons"] = {"kuberay": {"batchScheduler": "kueue", "smokeTest": True}}
    assert refusals(resources) == [
        "resources[1].addons.kuberay.smokeTest (aws): no worker pool's Kueue quota (its nodes at maxCount) can "
        "admit the smokeTest RayJob (1 vCPU, 2 GiB; 0.5 vCPU, 200 MiB: its head, workers and submitter): `pulumi "
        "up` would wait on it until its timeout; give a pool more nodes or larger ones, or drop smokeTest"
    ]


def test_the_smoke_pods_are_rendered_from_the_requests_the_spec_counts() -> None:
    spec = load_spec(CLOUD, copy.deepcopy(RESOURCES)).resources[0].addons.kuberay
    head = smoke_job(spec)["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"]["containers"][0]
    assert head["resources"]["requests"] == {"cpu": "1", "memory": "2Gi"} == head["resources"]["limits"]
    assert (PodRequest(1000, 2048), PodRequest(500, 200)) == (SMOKE_HEAD, SUBMITTER)
    assert PodRequest(1000, 4096, 1) == GPU_SMOKE_WORKER
