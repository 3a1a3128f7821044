"""GPU pools that schedule: labels from the chart's mapping, instance types, the scheduling view.

One stack with a GPU pool of every GPU type the spec accepts on AKS, EKS and GKE; the
scheduling view is computed from its plan and checked against the operator chart's own
values (tests/charts/anyscale-operator-1.8.0/values.yaml, read here, not imported
from the code under test), with the expected labels as literals.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from config import SpecError, load_spec
from preflight.runtime import Plan
from preflight.scheduling import render_scheduling, scheduling
from tests.cli import preflight_in_process
from tests.plans import recorded

ROOT = Path(__file__).resolve().parents[2]
CHART_VALUES = ROOT / "tests" / "charts" / "anyscale-operator-1.8.0" / "values.yaml"

# GPU type -> (instance type, node-selector value the pool must carry), per provider.
# The values are the chart's workloads.accelerator.nodeSelectors (1.8.0), as literals.
GPU_POOLS: dict[str, dict[str, tuple[str, str]]] = {
    "Azure": {
        "T4": ("Standard_NC16as_T4_v3", "NVIDIA-T4"),
        "A10": ("Standard_NV36ads_A10_v5", "NVIDIA-A10"),
        "A100": ("Standard_NC24ads_A100_v4", "NVIDIA-A100"),
        "H100": ("Standard_ND96isr_H100_v5", "NVIDIA-H100"),
    },
    "AWS": {
        "V100": ("p3.2xlarge", "Tesla-V100-SXM2-16GB"),
        "T4": ("g4dn.xlarge", "Tesla-T4"),
        "L4": ("g6.xlarge", "NVIDIA-L4"),
        "A10G": ("g5.2xlarge", "NVIDIA-A10G"),
        "L40S": ("g6e.xlarge", "NVIDIA-L40S"),
        "A100-40G": ("p4d.24xlarge", "NVIDIA-A100-SXM4-40GB"),
        "A100-80G": ("p4de.24xlarge", "NVIDIA-A100-SXM4-80GB"),
        "H100": ("p5.48xlarge", "NVIDIA-H100-80GB-HBM3"),
    },
    "GCP": {
        "T4": ("n1-standard-16", "nvidia-tesla-t4"),
        "L4": ("g2-standard-8", "nvidia-l4"),
        "A100-40G": ("a2-highgpu-1g", "nvidia-tesla-a100"),
        "A100-80G": ("a2-ultragpu-1g", "nvidia-a100-80gb"),
        "H100": ("a3-highgpu-8g", "nvidia-h100-80gb"),
        "H100-MEGA": ("a3-megagpu-8g", "nvidia-h100-mega-80gb"),
        # Not in config/data/instance_types.py: given by its shape.
        "RTX-PRO-6000": ("g4-standard-48", "nvidia-rtx-pro-6000"),
    },
}
SELECTOR_KEYS = {
    "Azure": "nvidia.com/gpu.product",
    "AWS": "nvidia.com/gpu.product",
    "GCP": "cloud.google.com/gke-accelerator",
}
CHART_PROVIDER = {"Azure": "azure", "AWS": "aws", "GCP": "gcp"}
NAMES = {"Azure": "default", "AWS": "eks-gpus", "GCP": "gke-gpus"}


def gpu_pools(provider: str) -> list[dict[str, Any]]:
    pools: list[dict[str, Any]] = [
        {
            "name": "cpu",
            "instanceType": {"Azure": "Standard_D16s_v5", "AWS": "m6i.4xlarge", "GCP": "n2-standard-16"}[provider],
        }
    ]
    for index, (gpu, (instance_type, _)) in enumerate(GPU_POOLS[provider].items()):
        pool: dict[str, Any] = {"name": f"gpu{index}", "instanceType": instance_type, "gpu": {"type": gpu}}
        if gpu == "RTX-PRO-6000":
            pool["shape"] = {"cpu": 48, "memoryGb": 180, "gpus": 1}
        if gpu == "T4" and provider == "GCP":
            pool["gpu"]["count"] = 2
        pools.append(pool)
    if provider == "AWS":
        # Nine node groups at the default maxCount outgrow the default VPC's private subnets
        # (config/capacity.py); this stack is about labels and accelerators, not sizes.
        for pool in pools:
            pool["maxCount"] = 3
    return pools


def gpu_stack() -> dict[str, Any]:
    return {
        "anyscale-cloud:cloud": {"name": "gpus", "location": "eastus2", "resourceGroup": "rg-gpus", "protect": False},
        "anyscale-cloud:resources": [
            {"name": "default", "provider": "Azure", "region": "eastus2", "cluster": {"nodePools": gpu_pools("Azure")}},
            {"name": "eks-gpus", "provider": "AWS", "region": "us-west-2", "cluster": {"nodePools": gpu_pools("AWS")}},
            {
                "name": "gke-gpus",
                "provider": "GCP",
                "region": "us-central1",
                "project": "gpu-project",
                "cluster": {"nodePools": gpu_pools("GCP")},
            },
        ],
    }


@pytest.fixture(scope="module")
def plan() -> Plan:
    return recorded("gpus", gpu_stack())


@pytest.fixture(scope="module")
def chart_selectors() -> dict[str, dict[str, str]]:
    values = yaml.safe_load(CHART_VALUES.read_text())
    return values["workloads"]["accelerator"]["nodeSelectors"]


def test_every_gpu_type_the_spec_accepts_is_covered() -> None:
    from config.data.accelerators import GPU_TYPES

    assert {p: set(t) for p, t in GPU_TYPES.items()} == {p: set(t) for p, t in GPU_POOLS.items()}


def test_expected_labels_are_the_charts(chart_selectors: dict[str, dict[str, str]]) -> None:
    """The literals above are the chart's own mapping: nothing else is ever selected."""
    for provider, pools in GPU_POOLS.items():
        assert {gpu: value for gpu, (_, value) in pools.items()} == chart_selectors[CHART_PROVIDER[provider]]


def test_pool_labels_and_accelerators(plan: Plan) -> None:
    for provider, pools in GPU_POOLS.items():
        for index, (gpu, (_, value)) in enumerate(pools.items()):
            if provider == "Azure":
                labels = plan.named(f"default-pool-gpu{index}")["inputs"]["nodeLabels"]
                assert labels["nvidia.com/gpu.product"] == value, gpu
            elif provider == "AWS":
                labels = plan.named(f"eks-gpus-gpu{index}")["inputs"]["labels"]
                assert labels["nvidia.com/gpu.product"] == value, gpu
            else:
                config = plan.named(f"gke-gpus-pool-gpu{index}")["inputs"]["nodeConfig"]
                # GKE sets cloud.google.com/gke-accelerator from this type.
                assert config["guestAccelerators"][0]["type"] == value, gpu
                assert "nvidia.com/gpu.product" not in config["labels"]


def test_every_gpu_pool_is_targeted_by_an_instance_type_with_the_charts_selector(
    plan: Plan, chart_selectors: dict[str, dict[str, str]]
) -> None:
    views = {v.name: v for v in scheduling(plan.to_json())}
    for provider, pools in GPU_POOLS.items():
        view = views[NAMES[provider]]
        assert view.provider == provider
        assert view.untargeted_gpu_pools == []
        for index, (gpu, _) in enumerate(pools.items()):
            pool = next(p for p in view.pools if p.name == f"gpu{index}")
            targeting = [p.instance_type for p in view.placements if pool.name in p.pools["ON_DEMAND"]]
            ours = [t for t in targeting if not t.chart_default]
            assert len(ours) == 1, (provider, gpu, [t.name for t in targeting])
            shape = ours[0]
            assert shape.accelerator == gpu and shape.gpus == pool.gpus >= 1
            key = SELECTOR_KEYS[provider]
            assert shape.node_selector[key] == chart_selectors[CHART_PROVIDER[provider]][gpu] == pool.labels[key]
            assert shape.cpu <= pool.room[0] and shape.memory_gib <= pool.room[1] if pool.room else True
            # Never on the spot market: these pools are on-demand.
            assert pool.name not in [n for p in view.placements for n in p.pools["SPOT"]]


def test_our_instance_types_all_land_somewhere(plan: Plan) -> None:
    for view in scheduling(plan.to_json()):
        ours = [p.instance_type.name for p in view.placements if not p.instance_type.chart_default]
        assert ours and not set(ours) & set(view.unplaced), (view.name, view.unplaced)
        # The CPU pool's shape lands on the CPU pool only (not the system pool, not GPUs).
        cpu = next(p for p in view.placements if p.instance_type.name == "15CPU-56GB")
        assert cpu.pools == {"ON_DEMAND": ["cpu"], "SPOT": []}


def test_operator_values_format(plan: Plan) -> None:
    """The instance type as the chart's values.yaml schema has it: whole CPUs, memory
    as a Kubernetes quantity, GPU count, accelerators naming the chart's key."""
    values = plan.named("eks-gpus-anyscale-operator")["inputs"]["values"]["workloads"]["instanceTypes"]["additional"]
    assert values["94CPU-1120GB-8xA100-80G"] == {
        "resources": {"CPU": 94, "memory": "1120Gi", "GPU": 8, "accelerators": ["A100-80G"]},
        "nodeSelector": {
            "node.kubernetes.io/instance-type": "p4de.24xlarge",
            "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB",
        },
        "tolerations": [
            {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"},
            {"key": "node.anyscale.com/accelerator-type", "operator": "Equal", "value": "GPU", "effect": "NoSchedule"},
        ],
    }
    settings = plan.named("default-operator-extension")["inputs"]["configurationSettings"]
    prefix = "workloads.instanceTypes.additional.15CPU-100GB-1xT4"
    assert settings[f"{prefix}.nodeSelector.nvidia\\.com/gpu\\.product"] == "NVIDIA-T4"
    assert settings[f"{prefix}.resources.accelerators[0]"] == "T4"
    assert settings[f"{prefix}.resources.GPU"] == "1"
    assert settings[f"{prefix}.tolerations[1].key"] == "node.anyscale.com/accelerator-type"


def test_disks(plan: Plan) -> None:
    assert plan.named("eks-gpus-gpu0")["inputs"]["diskSize"] == 500
    assert plan.named("eks-gpus-system")["inputs"].get("diskSize") is None
    config = plan.named("gke-gpus-pool-gpu0")["inputs"]["nodeConfig"]
    assert (config["diskSizeGb"], config["diskType"]) == (500, "pd-ssd")
    assert "osDiskSizeGB" not in plan.named("default-pool-gpu0")["inputs"]


def test_view_flags_a_pool_with_the_wrong_label_and_a_shape_that_fits_nowhere(plan: Plan) -> None:
    document = copy.deepcopy(plan.to_json())
    for resource in document["resources"]:
        if resource["name"] == "default-pool-gpu0":  # the T4 pool, relabelled as GFD would
            resource["inputs"]["nodeLabels"]["nvidia.com/gpu.product"] = "Tesla-T4"
        if resource["name"] == "eks-gpus-anyscale-operator":
            resource["inputs"]["values"]["workloads"]["instanceTypes"]["additional"]["200CPU-8GB"] = {
                "resources": {"CPU": 200, "memory": "8Gi"}
            }
    views = {v.name: v for v in scheduling(document)}
    assert views["default"].untargeted_gpu_pools == ["gpu0"]
    assert "200CPU-8GB" in views["eks-gpus"].unplaced
    text = render_scheduling(document)
    assert "! GPU pool gpu0 is targeted by no instance type" in text
    assert "! 200CPU-8GB fits on no pool" in text


@pytest.mark.usefixtures("shared_recordings")
def test_plan_prints_the_view() -> None:
    result = preflight_in_process("plan", "--stack", "example")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    section = out[out.index("Scheduling: operator instance types -> node pools") :]
    assert "15CPU-100GB-1xT4  on-demand: gput4   spot: -" in section
    assert "onprem (Generic)" in section


@pytest.mark.parametrize(
    ("pool", "path", "message"),
    [
        (
            {"instanceType": "p4de.24xlarge", "gpu": {"type": "A100-40G"}},
            "gpu.type",
            "p4de.24xlarge carries A100-80G, not A100-40G",
        ),
        (
            {"instanceType": "p4d.24xlarge", "gpu": {"type": "A100"}},
            "gpu.type",
            "A100 is not a GPU type the operator chart maps on AWS; p4d.24xlarge carries A100-40G; use one of V100, T4, L4, A10G, L40S, A100-40G, A100-80G, H100",
        ),
        (
            {"instanceType": "p4d.24xlarge"},
            "gpu",
            "p4d.24xlarge carries 8 x A100-40G: add `gpu: {type: A100-40G}` so the pool is labelled and tainted for GPU pods",
        ),
        (
            {"instanceType": "p4d.24xlarge", "gpu": {"type": "A100-40G", "count": 4}},
            "gpu.count",
            "p4d.24xlarge carries 8 GPUs, not 4; omit `count` or set it to 8",
        ),
        (
            {"instanceType": "m6i.4xlarge", "gpu": {"type": "T4"}},
            "gpu.type",
            "m6i.4xlarge has no GPUs, not T4; for T4 use e.g. g4dn.xlarge",
        ),
        (
            {"instanceType": "m6i.4xlarg"},
            "instanceType",
            "'m6i.4xlarg' is not a known AWS instance type (config/data/instance_types.py); did you mean 'm6i.4xlarge'? or give the node's size as `shape: {cpu, memoryGb, gpus}`",
        ),
        (
            {
                "instanceType": "x9.huge",
                "shape": {"cpu": 8, "memoryGb": 32, "gpus": 2},
                "gpu": {"type": "T4", "count": 1},
            },
            "shape.gpus",
            "is 2 but the pool's gpu.count is 1; they must agree",
        ),
    ],
)
def test_gpu_rules_name_the_path_and_the_fix(pool: dict[str, Any], path: str, message: str) -> None:
    resources = [
        {"name": "default", "provider": "Azure", "region": "eastus2"},
        {
            "name": "aws-usw2",
            "provider": "AWS",
            "region": "us-west-2",
            "cluster": {
                "nodePools": [
                    {"name": "a", "instanceType": "m6i.4xlarge"},
                    {"name": "b", "instanceType": "m6i.4xlarge", "capacityType": "SPOT"},
                    {"name": "c", **pool},
                ]
            },
        },
    ]
    with pytest.raises(SpecError) as error:
        load_spec({"name": "c", "location": "eastus2", "resourceGroup": "rg"}, resources)
    assert [str(p) for p in error.value.problems] == [f"resources[1].cluster.nodePools[2].{path} (aws-usw2): {message}"]


def test_gcp_attached_t4_counts_and_a100_generations() -> None:
    resources = [
        {"name": "default", "provider": "Azure", "region": "eastus2"},
        {
            "name": "g",
            "provider": "GCP",
            "region": "us-central1",
            "project": "my-project",
            "cluster": {
                "nodePools": [
                    {"name": "a", "instanceType": "n1-standard-16", "gpu": {"type": "T4", "count": 3}},
                    {"name": "b", "instanceType": "a2-highgpu-1g", "gpu": {"type": "A100-80G"}},
                ]
            },
        },
    ]
    with pytest.raises(SpecError) as error:
        load_spec({"name": "c", "location": "eastus2", "resourceGroup": "rg"}, resources)
    assert [str(p) for p in error.value.problems] == [
        "resources[1].cluster.nodePools[0].gpu.count (g): n1-standard-16 takes 1, 2, 4 attached T4 GPUs, not 3",
        "resources[1].cluster.nodePools[1].gpu.type (g): a2-highgpu-1g carries A100-40G, not A100-80G",
    ]


def test_default_pools_get_the_default_disk() -> None:
    spec = load_spec(
        {"name": "c", "location": "eastus2", "resourceGroup": "rg"},
        [
            {"name": "default", "provider": "Azure", "region": "eastus2"},
            {"name": "a", "provider": "AWS", "region": "us-west-2"},
            {"name": "g", "provider": "GCP", "region": "us-central1", "project": "my-project"},
        ],
    )
    assert [[p.disk_size_gb for p in r.cluster.node_pools] for r in spec.resources] == [
        [None, None],
        [500, 500],
        [500, 500],
    ]


def test_an_eks_pool_at_zero_carries_the_capacity_label_ray_pods_select_on(example_plan: Plan) -> None:
    """The flow pod -> autoscaler -> node group at zero on EKS. The operator chart (1.8.0,
    `cloudProvider: aws`) selects `eks.amazonaws.com/capacityType`; the Cluster Autoscaler's
    template node for a managed node group gets that label from eks:DescribeNodegroup from
    release 1.29 on (kubernetes/autoscaler aws_wrapper.go getManagedNodegroupInfo, commit
    7ffb662fda "Fix capacityType label in AWS ManagedNodeGroup"; before it, a bare
    `capacityType`). Every release the program pins must have it, or the view would lie."""
    from config.data.versions import CLUSTER_AUTOSCALER_RELEASES

    for minor, (_, image) in CLUSTER_AUTOSCALER_RELEASES.items():
        major, release = (int(part) for part in image.removeprefix("v").split(".")[:2])
        assert (major, release) >= (1, 29), f"{minor}: autoscaler {image} lacks the label on a node group at zero"
    (aws,) = [view for view in scheduling(example_plan.to_json()) if view.provider == "AWS"]
    labels = {pool.name: pool.labels.get("eks.amazonaws.com/capacityType") for pool in aws.pools}
    assert labels == {"system": "ON_DEMAND", "cpu": "ON_DEMAND", "cpuspot": "SPOT"}
    fits = {p.instance_type.name: (p.pools["ON_DEMAND"], p.pools["SPOT"]) for p in aws.placements}
    assert fits["15CPU-56GB"] == (["cpu"], ["cpuspot"])


@pytest.mark.parametrize("golden", ["plan-dev.json", "plan-example.json"])
def test_the_shipped_stacks_schedule_every_shape_without_a_warning(golden: str) -> None:
    """The chart's 8CPU-32GB-1xT4 fits no pool the program makes (no toleration for its GPU
    taints): left out, so the shipped stacks' views end without a `!` line."""
    document = json.loads((ROOT / "tests" / "fixtures" / "golden" / golden).read_text(encoding="utf-8"))
    text = render_scheduling(document)
    assert "!" not in text and "8CPU-32GB-1xT4" not in text
    settings = next(r for r in document["resources"] if r["name"] == "default-operator-extension")["inputs"][
        "configurationSettings"
    ]
    # values.yaml: with enableDefaults false, `additional` replaces the defaults; the CPU ones come again.
    assert settings["workloads.instanceTypes.enableDefaults"] == "false"
    assert {k: v for k, v in settings.items() if ".2CPU-8GB." in k} == {
        "workloads.instanceTypes.additional.2CPU-8GB.resources.CPU": "2",
        "workloads.instanceTypes.additional.2CPU-8GB.resources.memory": "8Gi",
    }
    assert "(chart default)" in text  # the chart's shapes, given again, are still named as its own
