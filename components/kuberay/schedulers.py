"""Plain data: each batch scheduler's chart values, from the chart and the scheduler's code at
its pinned tag (config/data/kuberay_charts.py), each value with the upstream file it answers to.
Checked in tests against the rendered charts (tests/components/test_kuberay_flows.py)."""

from __future__ import annotations

from typing import Any, Final

import yaml

from config.data.kuberay_charts import PLATFORM_NAMESPACES

SCHEDULER_PLUGINS_NAME: Final = "scheduler-plugins-scheduler"

# --- Kueue -----------------------------------------------------------------------------------

# Kueue's manager configuration: the chart's default (charts/kueue values.yaml at v0.19.2,
# managerConfig.controllerManagerConfigYaml) with the integrations cut to what Ray needs.
# The chart (templates/webhook/manifests.yaml) renders the same webhooks whatever this list
# holds, one per kind it knows; the list sets only the failure policy of the pod,
# deployment and statefulset webhooks: Fail when listed, Ignore when not. Its default list
# holds all three, so plain pods, deployments and statefulsets in every namespace but
# kube-system and kueue-system would wait on Kueue, and while Kueue is down no operator,
# gateway or Prometheus pod could start; left out here, those webhooks fail open. Every
# other kind's webhook fails closed, listed or not (batch Jobs, the Ray kinds, and kinds
# such as JobSet whose CRDs the program does not install, so nothing matches them).
KUEUE_FRAMEWORKS: Final = ("batch/job", "ray.io/rayjob", "ray.io/rayservice", "ray.io/raycluster")
# Every webhook on workload kinds takes managedJobsNamespaceSelector as its own
# namespaceSelector, so the API server never calls Kueue for these namespaces (what the
# program installs into: the platform's own Jobs, such as Helm hooks, never wait on Kueue);
# only Kueue's own kinds (ClusterQueue, Cohort, ResourceFlavor, Workload) have webhooks
# without one. Ray jobs go anywhere else, e.g. `default`.
KUEUE_UNMANAGED_NAMESPACES: Final = PLATFORM_NAMESPACES
KUEUE_CONFIG: Final[dict[str, Any]] = {
    "apiVersion": "config.kueue.x-k8s.io/v1beta2",
    "kind": "Configuration",
    "health": {"healthProbeBindAddress": ":8081"},
    "metrics": {"bindAddress": ":8443"},
    "webhook": {"port": 9443},
    "leaderElection": {"leaderElect": True, "resourceName": "c1f6bfd2.kueue.x-k8s.io"},
    "controller": {
        "groupKindConcurrency": {
            "Job.batch": 5,
            "Pod": 5,
            "Workload.kueue.x-k8s.io": 10,
            "LocalQueue.kueue.x-k8s.io": 5,
            "ClusterQueue.kueue.x-k8s.io": 5,
            "ResourceFlavor.kueue.x-k8s.io": 1,
        }
    },
    "clientConnection": {"qps": 300, "burst": 500},
    "managedJobsNamespaceSelector": {
        "matchExpressions": [
            {"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": list(KUEUE_UNMANAGED_NAMESPACES)}
        ]
    },
    "integrations": {"frameworks": list(KUEUE_FRAMEWORKS)},
}

# --- Volcano -----------------------------------------------------------------------------------

# The chart's scheduler configuration (installer/helm/chart/volcano/config/volcano-scheduler.conf
# at v1.14.4) without the `enqueue` action. With `enqueue`, a PodGroup stays Pending while
# `overcommit` and `proportion` find it bigger than the cluster's capacity (about 1.2x what runs),
# and `allocate` skips Pending PodGroups (pkg/scheduler/actions/allocate/allocate.go:150-161).
# Whether the autoscaler then sees the pods is less clear than volcano-sh/volcano#3910 suggests:
# that thread is about vcjob pods not yet created, while KubeRay creates its pods itself, and
# 1.14.4's RecordJobStatusEvent (pkg/scheduler/cache/cache.go) marks the pending tasks of Pending
# PodGroups Unschedulable too (pkg/scheduler/api/job_info.go:862, "keep UNSCHEDULABLE as the reason
# to support cluster autoscaler"). Dropping `enqueue` is safe either way: `allocate` moves a
# Pending PodGroup to Inqueue itself (same lines) and tries to place its pods, and the pods it
# cannot place are Unschedulable, which is what the cluster autoscaler scales up for. The cost:
# no queue-capacity gate at the enqueue stage (a gang's pods are created and wait). Gang
# scheduling itself stays: `gang` still binds a PodGroup's pods only when minMember of them fit.
# The agent scheduler, which reads the same override (templates/agent_scheduler.yaml), is off in
# the chart (custom.agent_scheduler_enable: false).
VOLCANO_ACTIONS: Final = "allocate, backfill"
VOLCANO_SCHEDULER_CONFIG: Final[dict[str, Any]] = {
    "actions": VOLCANO_ACTIONS,
    "tiers": [
        {"plugins": [{"name": "priority"}, {"name": "gang", "enablePreemptable": False}, {"name": "conformance"}]},
        {
            "plugins": [
                {"name": "overcommit"},
                {"name": "drf", "enablePreemptable": False},
                {"name": "predicates"},
                {"name": "proportion"},
                {"name": "nodeorder"},
                {"name": "binpack"},
            ]
        },
    ],
}

# --- YuniKorn ----------------------------------------------------------------------------------

# YuniKorn's built-in partition (yunikorn-core v1.8.0 pkg/common/configs/config.go,
# DefaultSchedulerConfig) places every application by the `tag` rule on its namespace, so the
# queue a RayCluster names (KubeRay copies `yunikorn.apache.org/queue` to the pods' `queue`
# label, batchscheduler/yunikorn/yunikorn_scheduler.go) is ignored. The `provided` rule first
# (pkg/scheduler/placement/provided_rule.go) places an application in the queue it names,
# created under root when missing; the namespace rule stays for the rest. The chart renders
# `yunikornDefaults` into the yunikorn-defaults ConfigMap (templates/yunikorn-defaults.yaml).
YUNIKORN_QUEUES: Final[dict[str, Any]] = {
    "partitions": [
        {
            "name": "default",
            "placementrules": [
                {"name": "provided", "create": True},
                {"name": "tag", "value": "namespace", "create": True},
            ],
            "queues": [{"name": "root", "submitacl": "*"}],
        }
    ]
}

# --- KAI -------------------------------------------------------------------------------------

# KAI's admission webhook sets runtimeClassName `nvidia` on every pod that requests a GPU
# (KAI-Scheduler v0.12.6 pkg/admission/webhook/v1alpha2/runtimeenforcement/runtime_enforcement.go),
# and no cluster here has a RuntimeClass of that name (the GPU pools run the provider's GPU setup
# and the NVIDIA device plugin, whose pods need none), so the API server would refuse a GPU pod.
# Creating one would need its handler in every GPU node's containerd, which differs per provider
# and cannot be checked offline. The plugin is registered only when the name is not empty
# (cmd/admission/main.go:48); the operator passes the Config's value as is
# (pkg/operator/operands/admission/resources.go:347, `""` included, resources_test.go:187). The
# chart writes `{{ .Values.admission.gpuPodRuntimeClassName | default "nvidia" }}` unquoted
# (templates/kai-config.yaml), so an empty value would become `nvidia`: the two characters `""`
# render as the YAML empty string. GPU Ray pods then run as they do without KAI.
KAI_NO_RUNTIME_CLASS: Final = '""'
# KAI's pod webhooks fail closed for every namespace but kube-system and KAI's own
# (buildWebhookSelectors, resources.go:143-180); `global.podLabelSelector` becomes their
# objectSelector (and the pod grouper's filter, pkg/operator/operands/pod_grouper/resources.go:90),
# so only Ray pods meet them: KubeRay labels every Ray pod `ray.io/is-ray-node: "yes"`
# (kuberay v1.7.0 ray-operator/controllers/ray/common/pod.go labelPod, utils/constant.go:22).
RAY_POD_LABEL: Final = {"ray.io/is-ray-node": "yes"}


def scheduler_values(scheduler: str) -> dict[str, Any]:
    """Each scheduler runs on the system pool: it is the only untainted pool, and these
    charts' pods tolerate none of the worker pools' taints, so no selector is needed."""
    if scheduler == "volcano":
        return {"custom": {"scheduler_config_override": yaml.safe_dump(VOLCANO_SCHEDULER_CONFIG, sort_keys=False)}}
    if scheduler == "yunikorn":
        # Its admission controller would send every pod of the cluster (the Anyscale
        # operator's too) to YuniKorn; KubeRay stamps schedulerName on Ray pods itself.
        return {
            "embedAdmissionController": False,
            "yunikornDefaults": {"queues.yaml": yaml.safe_dump(YUNIKORN_QUEUES, sort_keys=False)},
        }
    if scheduler == "scheduler-plugins":
        # KubeRay stamps schedulerName: scheduler-plugins-scheduler on Ray pods
        # (batchscheduler/scheduler-plugins/scheduler_plugins.go); the second scheduler
        # answers to its `scheduler.name`, which must stay that name (the chart's default).
        return {"scheduler": {"name": SCHEDULER_PLUGINS_NAME}}
    if scheduler == "kueue":
        return {"managerConfig": {"controllerManagerConfigYaml": yaml.safe_dump(KUEUE_CONFIG, sort_keys=False)}}
    if scheduler == "kai":
        return {
            "admission": {"gpuPodRuntimeClassName": KAI_NO_RUNTIME_CLASS},
            "global": {"podLabelSelector": dict(RAY_POD_LABEL)},
        }
    return {}
