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
