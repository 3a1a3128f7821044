"""The stack the KubeRay tests build on: one cloud resource per provider, the primary with a
T4 pool (tests/components/test_kuberay.py plans it, tests/config/test_kuberay_options.py checks
the spec's refusals on it)."""

from __future__ import annotations

import copy
from typing import Any

from tests.example_spec import spec_problems

CLOUD = {"name": "ray-cloud", "location": "eastus2", "resourceGroup": "rg-ray-cloud", "protect": False}
GENERIC = {
    "name": "onprem",
    "provider": "Generic",
    "region": "dc1",
    "kubeconfig": {"secure": "v1:kubeconfig-ciphertext=="},
    "cliToken": {"secure": "v1:clitoken-ciphertext=="},
    "storage": {"bucket": "s3://ray-data", "endpoint": "https://minio.example.com", "existingSecret": "minio-keys"},
}
# One resource per provider; the primary adds a T4 pool (16 vCPU, 110 GiB, 1 GPU, max 4).
RESOURCES: list[dict[str, Any]] = [
    {
        "name": "default",
        "provider": "Azure",
        "region": "eastus2",
        "cluster": {
            "nodePools": [
                {"name": "cpu", "instanceType": "Standard_D16s_v5"},
                {"name": "cpuspot", "instanceType": "Standard_D16s_v5", "capacityType": "SPOT"},
                {"name": "gput4", "instanceType": "Standard_NC16as_T4_v3", "maxCount": 4, "gpu": {"type": "T4"}},
            ]
        },
    },
    {"name": "aws", "provider": "AWS", "region": "us-west-2"},
    {"name": "gcp", "provider": "GCP", "region": "us-central1", "project": "my-gcp-project"},
    GENERIC,
]
NAMES = ["default", "aws", "gcp", "onprem"]


def values_with(options: list[dict[str, Any]]) -> dict[str, Any]:
    resources = copy.deepcopy(RESOURCES)
    for resource, kuberay in zip(resources, options, strict=False):
        if kuberay:
            resource["addons"] = {"kuberay": kuberay}
    return {
        "pulumi:disable-default-providers": ["*"],
        "anyscale-cloud:cloud": CLOUD,
        "anyscale-cloud:resources": resources,
    }


def problems(index: int, kuberay: dict[str, Any]) -> list[str]:
    resources = copy.deepcopy(RESOURCES)
    resources[index]["addons"] = {"kuberay": kuberay}
    return spec_problems(CLOUD, resources)


# Every resource: Kueue, metrics with kube-prometheus-stack, token auth, the smoke job
# (tests/components/test_kuberay.py and test_kuberay_flows.py share its recorded plan).
FULL = {
    "batchScheduler": "kueue",
    "metrics": {"enabled": True, "installPrometheus": True},
    "authentication": "token",
    "smokeTest": True,
}


def full_values() -> dict[str, Any]:
    generic = {**FULL, "queueQuota": {"cpu": 64, "memoryGi": 256, "gpu": 2}}
    aws = {**FULL, "queueNamespaces": ["default", "team-a"]}  # a namespace of the user's choosing
    return values_with([FULL, aws, FULL, generic])


# The other schedulers, one per provider, with other options alongside. scheduler-plugins
# 0.33.5 needs Kubernetes 1.33: on EKS, where 1.33 is still created (in extended support).
ROTATION = [
    {"batchScheduler": "volcano", "smokeTest": True, "gpuSmokeTest": True},
    {"batchScheduler": "scheduler-plugins", "authentication": "kubernetes-rbac"},
    {"batchScheduler": "yunikorn"},
    # metrics without installPrometheus: Generic only (a cluster of ours lacks the CRDs).
    {"batchScheduler": "kai", "networkPolicy": True, "featureGates": {"RayCronJob": True}, "metrics": True},
]


def rotation_values() -> dict[str, Any]:
    values = values_with(ROTATION)
    values["anyscale-cloud:resources"][1]["cluster"] = {"kubernetesVersion": "1.33"}
    return values
