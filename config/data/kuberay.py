"""KubeRay facts per chart version: the operator's feature gates and their defaults.

Source: `featureGates` in helm-chart/kuberay-operator/values.yaml of ray-project/kuberay at
tags v1.6.2 and v1.7.0 (the charts in ../shared/reference/charts), read 2026-12-01. The chart
passes the list as `--feature-gates=<name>=<bool>,...`, and a value given for `featureGates`
replaces the whole list, so the program always sends every gate of the version.
"""

from typing import Final

# chart version -> ((gate, default), ...) in the chart's order.
FEATURE_GATES: Final[dict[str, tuple[tuple[str, bool], ...]]] = {
    "1.6.2": (
        ("RayClusterStatusConditions", True),
        ("RayJobDeletionPolicy", True),
        ("RayMultiHostIndexing", True),
        ("RayServiceIncrementalUpgrade", False),
        ("RayCronJob", False),
    ),
    "1.7.0": (
        ("RayClusterStatusConditions", True),
        ("RayJobDeletionPolicy", True),
        ("RayMultiHostIndexing", True),
        ("RayServiceIncrementalUpgrade", True),
        ("RayCronJob", False),
        ("RayClusterMTLS", False),
        ("RayClusterNetworkPolicy", False),
        ("RayClusterHistoryServer", False),
    ),
}

# scheduler-plugins builds one chart per Kubernetes minor (its kube-scheduler is built
# against that minor's libraries): Kubernetes minor -> chart version. Source:
# kubernetes-sigs/scheduler-plugins manifests/install/charts/as-a-second-scheduler at tag
# v0.33.5 (Chart.yaml, values.yaml `scheduler.image` kube-scheduler:v0.33.5), read 2026-12-01.
# The minors without an entry have no chart here, so scheduler-plugins is refused on them.
SCHEDULER_PLUGINS_CHARTS: Final[dict[str, str]] = {"1.33": "0.33.5"}

# What Kueue counts for a RayJob's submitter pod when the job gives no submitter template:
# the requests of kubernetes-sigs/kueue pkg/controller/jobs/rayjob/rayjob_controller.go,
# defaultSubmitterResources (lines 252-263 at tag v0.19.2, the pinned chart; copied from
# KubeRay's ray-operator/controllers/ray/common/job.go), read 2026-12-02. Kueue adds this pod
# set to the workload in K8sJobMode (addSubmitterPodSet, the RayJob CRD's default mode).
# (CPU millicores, memory MiB.)
KUEUE_SUBMITTER_REQUEST: Final = (500, 200)
