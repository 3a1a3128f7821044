"""addons.kuberay in the stack model: the options upstream does not support, refused with the
config path and the way out, and the values the spec derives (Kueue's quota, the gates).
Expected messages are literals."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from config import SpecError, load_spec
from tests.kuberay_stack import CLOUD, RESOURCES, problems

# --- the spec's refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "index, kuberay, expected",
    [
        (
            3,
            {"networkPolicy": True, "version": "1.6.2"},
            "resources[3].addons.kuberay.networkPolicy (onprem): needs the RayClusterNetworkPolicy feature gate, which "
            "KubeRay has from 1.7.0 and this program wires for chart 1.7.0 (addons.kuberay.version is 1.6.2); set "
            'addons.kuberay.version: "1.7.0"',
        ),
        (
            1,
            {"networkPolicy": True},
            "resources[1].addons.kuberay.networkPolicy (aws): the AWS cluster this program builds enforces no "
            "NetworkPolicy (no network policy engine is enabled on it), so the policies KubeRay would create would be "
            "inert; use it on an AKS cluster or a Generic cluster that enforces NetworkPolicy",
        ),
        (
            2,
            {"networkPolicy": True},
            "resources[2].addons.kuberay.networkPolicy (gcp): the GCP cluster this program builds enforces no "
            "NetworkPolicy (no network policy engine is enabled on it), so the policies KubeRay would create would be "
            "inert; use it on an AKS cluster or a Generic cluster that enforces NetworkPolicy",
        ),
        (
            0,
            {"featureGates": {"RayClusterHistoryServer": True, "RayJobsEverywhere": True}},
            "resources[0].addons.kuberay.featureGates.RayJobsEverywhere (default): 'RayJobsEverywhere' is not a feature gate of "
            "kuberay-operator 1.7.0: use RayClusterStatusConditions, RayJobDeletionPolicy, RayMultiHostIndexing, "
            "RayServiceIncrementalUpgrade, RayCronJob, RayClusterMTLS, RayClusterNetworkPolicy, RayClusterHistoryServer",
        ),
        (
            0,
            {"featureGates": {"RayClusterMTLS": True}, "version": "1.6.2"},
            "resources[0].addons.kuberay.featureGates.RayClusterMTLS (default): 'RayClusterMTLS' is not a feature gate of "
            "kuberay-operator 1.6.2: use RayClusterStatusConditions, RayJobDeletionPolicy, RayMultiHostIndexing, "
            "RayServiceIncrementalUpgrade, RayCronJob",
        ),
        (
            0,
            {"featureGates": {"RayCronJob": True}, "version": "1.5.1"},
            "resources[0].addons.kuberay.featureGates (default): this program knows the feature gates of chart 1.6.2, "
            "1.7.0 only (addons.kuberay.version is 1.5.1): setting one replaces the chart's whole list; use one of "
            "those versions or drop featureGates",
        ),
        (
            3,
            {"networkPolicy": True, "featureGates": {"RayClusterNetworkPolicy": False}},
            "resources[3].addons.kuberay.featureGates (onprem): networkPolicy turns on the RayClusterNetworkPolicy "
            "gate that featureGates turns off: drop one of them",
        ),
        (
            1,
            {"batchScheduler": "scheduler-plugins", "smokeTest": True},
            "resources[1].addons.kuberay.smokeTest (aws): cannot run with batchScheduler scheduler-plugins: KubeRay's "
            "scheduler-plugins integration supports RayClusters only (it refuses RayJobs), so the smoke RayJob would "
            "never run; turn smokeTest off or use another batchScheduler",
        ),
        (
            1,
            {"batchScheduler": "kueue", "queueQuota": {"cpu": 8, "memoryGi": 32}},
            "resources[1].addons.kuberay.queueQuota (aws): the Kueue quotas of a cluster this program builds come "
            "from its pools (one ResourceFlavor per worker pool, sized at its maxCount): drop queueQuota and set the "
            "pools' maxCount instead",
        ),
        (
            3,
            {"batchScheduler": "kueue"},
            "resources[3].addons.kuberay.queueQuota (onprem): a Generic cluster's pools are unknown to this program: "
            "set addons.kuberay.queueQuota (cpu, memoryGi, gpu) to size the Kueue ClusterQueue",
        ),
        (
            2,
            {"batchScheduler": "kai", "version": "1.4.2"},
            "resources[2].addons.kuberay.batchScheduler (gcp): the KAI batch scheduler needs KubeRay 1.5.0 or later "
            "(addons.kuberay.version is 1.4.2); raise addons.kuberay.version",
        ),
        (
            0,
            {"batchScheduler": "kai", "smokeTest": True},
            "resources[0].addons.kuberay.smokeTest (default): cannot run with batchScheduler kai: the smoke test is a "
            "RayJob in K8sJobMode (a submitter Job beside the Ray pods), which KubeRay's KAI integration does not "
            "schedule; turn smokeTest off or use another batchScheduler",
        ),
        (
            0,
            {"authentication": "kubernetes-rbac", "version": "1.5.1"},
            "resources[0].addons.kuberay.authentication (default): authOptions.enableK8sTokenAuth needs KubeRay 1.6.0 or "
            "later (addons.kuberay.version is 1.5.1); raise addons.kuberay.version",
        ),
        (
            0,
            {"authentication": "token", "version": "1.5.0"},
            "resources[0].addons.kuberay.authentication (default): authOptions.mode: token needs KubeRay 1.5.1 or later "
            "(addons.kuberay.version is 1.5.0); raise addons.kuberay.version",
        ),
        (
            0,
            {"metrics": {"installPrometheus": True}},
            "resources[0].addons.kuberay.metrics.installPrometheus (default): installPrometheus without enabled: set "
            "metrics.enabled: true (or drop installPrometheus)",
        ),
        (
            0,
            {"queueQuota": {"cpu": 8, "memoryGi": 32}},
            "resources[0].addons.kuberay.queueQuota (default): queueQuota sizes the Kueue ClusterQueue: set "
            "batchScheduler: kueue or drop queueQuota",
        ),
        *[
            (
                index,
                {"metrics": True},
                f"resources[{index}].addons.kuberay.metrics.installPrometheus ({name}): metrics creates a "
                f"ServiceMonitor and PodMonitors (monitoring.coreos.com), whose CRDs the {provider} cluster this "
                "program builds does not have, so the KubeRay release would fail: set metrics.installPrometheus: "
                "true (it brings them), or turn metrics off",
            )
            for index, name, provider in ((0, "default", "Azure"), (1, "aws", "AWS"), (2, "gcp", "GCP"))
        ],
        (
            0,
            {"batchScheduler": "kueue", "queueNamespaces": ["team-a", "monitoring"]},
            "resources[0].addons.kuberay.queueNamespaces (default): 'monitoring' is a namespace the platform runs "
            "in, which Kueue's webhooks skip (no job there is ever queued): use a namespace of your own",
        ),
        (
            0,
            {"batchScheduler": "kueue", "queueNamespaces": ["Team_A"]},
            "resources[0].addons.kuberay.queueNamespaces (default): 'Team_A' is not a Kubernetes namespace name: at "
            "most 63 lower-case letters, digits and '-', starting and ending with a letter or digit",
        ),
        (
            0,
            {"batchScheduler": "kueue", "queueNamespaces": ["a" * 64]},
            f"resources[0].addons.kuberay.queueNamespaces (default): '{'a' * 64}' is not a Kubernetes namespace "
            "name: at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit",
        ),
        (
            0,
            {"batchScheduler": "kueue", "smokeTest": True, "queueNamespaces": ["kuberay-smoke-test"]},
            "resources[0].addons.kuberay.queueNamespaces (default): 'kuberay-smoke-test' is the smoke test's "
            "namespace, which gets its LocalQueue with smokeTest: use a namespace of your own",
        ),
        (
            0,
            {"batchScheduler": "kueue", "queueNamespaces": ["team-a", "team-a"]},
            "resources[0].addons.kuberay.queueNamespaces (default): 'team-a' is listed twice: list each namespace once",
        ),
        (
            0,
            {"batchScheduler": "kueue", "queueNamespaces": []},
            "resources[0].addons.kuberay.queueNamespaces (default): name at least one namespace (the default is "
            "[default])",
        ),
        (
            0,
            {"batchScheduler": "volcano", "queueNamespaces": ["team-a"]},
            "resources[0].addons.kuberay.queueNamespaces (default): queueNamespaces places Kueue's LocalQueues: set "
            "batchScheduler: kueue or drop queueNamespaces",
        ),
        (
            0,
            {"batchScheduler": "slurm"},
            "resources[0].addons.kuberay.batchScheduler (default): Input should be 'none', 'volcano', 'yunikorn', "
            "'kueue', 'scheduler-plugins' or 'kai'",
        ),
    ],
)
def test_spec_refuses_what_upstream_does_not_support(index: int, kuberay: dict[str, Any], expected: str) -> None:
    assert problems(index, kuberay) == [expected]


def kueue_on_one_pool(max_count: int, shape: dict[str, int]) -> list[dict[str, Any]]:
    """The stack's resources, the AWS one with Kueue and a single pool of this explicit shape."""
    resources = copy.deepcopy(RESOURCES)
    resources[1]["cluster"] = {
        "nodePools": [{"name": "big", "instanceType": "x2iedn.32xlarge", "maxCount": max_count, "shape": shape}]
    }
    resources[1]["addons"] = {"kuberay": {"batchScheduler": "kueue"}}
    return resources


def test_kueue_sizes_a_pool_with_an_explicit_shape_from_that_shape() -> None:
    resources = kueue_on_one_pool(2, {"cpu": 128, "memoryGb": 4096})
    quota = load_spec(CLOUD, resources).resources[1].addons.kuberay.queue_quota
    assert quota is not None and (quota.cpu, quota.memory_gi, quota.gpu) == (256, 8192, 0)


def test_network_policy_is_accepted_on_aks_which_runs_cilium() -> None:
    resources = copy.deepcopy(RESOURCES)
    resources[0]["addons"] = {"kuberay": {"networkPolicy": True}}
    assert load_spec(CLOUD, resources).resources[0].addons.kuberay.gates() is not None


@pytest.mark.parametrize("shorthand, enabled", [(True, True), (False, False)])
def test_metrics_accepts_a_boolean(shorthand: bool, enabled: bool) -> None:
    resources = copy.deepcopy(RESOURCES)
    resources[3]["addons"] = {"kuberay": {"metrics": shorthand}}  # Generic: metrics alone are taken there
    metrics = load_spec(CLOUD, resources).resources[3].addons.kuberay.metrics
    assert (metrics.enabled, metrics.install_prometheus) == (enabled, False)


def test_scheduler_plugins_needs_the_kubernetes_minor_it_was_built_for() -> None:
    resources = copy.deepcopy(RESOURCES)
    resources[1]["cluster"] = {"kubernetesVersion": "1.34"}
    resources[1]["addons"] = {"kuberay": {"batchScheduler": "scheduler-plugins"}}
    with pytest.raises(SpecError) as error:
        load_spec(CLOUD, resources)
    assert [str(p) for p in error.value.problems] == [
        "resources[1].addons.kuberay.batchScheduler (aws): scheduler-plugins has a chart for Kubernetes 1.33 only "
        "(its kube-scheduler must match the cluster's minor), but the cluster runs 1.34; use Kubernetes 1.33 or "
        "another batchScheduler"
    ]


def test_kueue_quota_the_pools_overflow_names_queue_quota() -> None:
    # 1,024 vCPUs x 1,000 nodes is over the quota's 1,000,000 vCPUs: the problem is reported at
    # queueQuota, with the sums and the way out (before: "resources[1].cpu", a path the file lacks).
    with pytest.raises(SpecError) as caught:
        load_spec(CLOUD, kueue_on_one_pool(1000, {"cpu": 1024, "memoryGb": 4}))
    assert [str(p) for p in caught.value.problems] == [
        "resources[1].addons.kuberay.queueQuota (aws): the worker pools at their maxCount add up to 1024000 vCPUs, "
        "4000 GiB and 0 GPUs, more than a Kueue quota this program sets (1,000,000 vCPUs, 100,000,000 GiB, "
        "100,000 GPUs): lower the pools' maxCount or set addons.kuberay.queueQuota"
    ]


@pytest.mark.parametrize(
    "index, kuberay, expected",
    [
        (
            0,
            {"gpuSmokeTest": True},
            "resources[0].addons.kuberay.gpuSmokeTest (default): gpuSmokeTest runs beside the smoke test: set "
            "smokeTest: true (or drop gpuSmokeTest)",
        ),
        (
            1,
            {"smokeTest": True, "gpuSmokeTest": True},
            "resources[1].addons.kuberay.gpuSmokeTest (aws): gpuSmokeTest needs a GPU pool of this program's cluster "
            "(its labels and taints are what the job targets): add a pool with `gpu`, or drop gpuSmokeTest",
        ),
    ],
)
def test_gpu_smoke_test_refusals(index: int, kuberay: dict[str, Any], expected: str) -> None:
    assert problems(index, kuberay) == [expected]


def test_kueue_queue_namespaces_at_their_limits() -> None:
    """A 63-character name and the Generic cluster's metrics alone are taken (its own CRDs may exist)."""
    assert problems(0, {"batchScheduler": "kueue", "queueNamespaces": ["a" * 63, "team-1", "default"]}) == []
    assert problems(3, {"metrics": True}) == []
    resources = copy.deepcopy(RESOURCES)
    resources[0]["addons"] = {"kuberay": {"batchScheduler": "kueue"}}
    assert load_spec(CLOUD, resources).resources[0].addons.kuberay.queue_namespaces == ["default"]
