"""Pinned versions: the platform's API and the charts and
extension every cluster runs (override per resource under `addons`).

Kept as data in one place so that a version bump is a one-line change that shows up in
review, and so that the spec, the components and the tests agree on the values.
Renovate bumps the chart pins (renovate.json matches each `*_REPO`/`*_CHART` line and the
`*_VERSION` line after it; tests/project/test_lock.py checks that every pin is matched).
"""

from typing import Final

# The `Anyscale.Platform` API version (platform.md 1): GA; older templates use 2026-02-01-preview.
API_VERSION: Final = "2026-09-01"
# Every `Anyscale.Platform` API version there is (platform.md, "API version", read
# 2026-12-01): the GA version and the preview older templates use.
API_VERSIONS: Final = ("2026-02-01-preview", "2026-09-01")

# --- Pinned chart / extension versions ----------------------------------------------
ENVOY_GATEWAY_CHART: Final = "oci://docker.io/envoyproxy/gateway-helm"
ENVOY_GATEWAY_VERSION: Final = "v1.7.0"  # what the platform's docs pin
KUBERAY_REPO: Final = "https://ray-project.github.io/kuberay-helm/"
KUBERAY_VERSION: Final = "1.7.0"
# The KubeRay versions whose CRDs and Grafana dashboards ship with the program
# (components/data/kuberay/<version>/, from ray-project/kuberay at tag v<version>; nothing is
# downloaded at deploy time): `addons.kuberay.version` is one of them. A bump of the pin
# above adds its files first (docs/development.md, "Shipped upstream files").
KUBERAY_SHIPPED: Final = ("1.6.2", "1.7.0")
ANYSCALE_REPO: Final = "https://anyscale.github.io/helm-charts"
ANYSCALE_OPERATOR_VERSION: Final = "1.8.0"
NVIDIA_DEVICE_PLUGIN_REPO: Final = "https://nvidia.github.io/k8s-device-plugin"
NVIDIA_DEVICE_PLUGIN_VERSION: Final = "0.17.1"
# EKS only. Chart 9.47.0 ships Cluster Autoscaler 1.33.0 (the 1.33 row below). Renovate
# bumps this line, and a minor bump waits for approval (renovate.json): the chart copies
# the tests render are under ../shared/reference/charts, which has 9.47.0 only.
CLUSTER_AUTOSCALER_REPO: Final = "https://kubernetes.github.io/autoscaler"
CLUSTER_AUTOSCALER_VERSION: Final = "9.47.0"
# The autoscaler's minor must match the cluster's (its README: versioning "match[es]
# Kubernetes minor releases exactly"; use it with the control plane version "for which
# it was meant"), so each EKS minor gets its own chart and image:
# the newest chart whose appVersion has that minor (but 1.33: the Renovate-managed pin
# above), and the newest patch image of that minor, set as `image.tag` (the chart's
# default is its appVersion's patch). Sources: kubernetes/autoscaler tags
# `cluster-autoscaler-chart-<v>` (Chart.yaml appVersion) and
# `cluster-autoscaler-<minor>.<patch>` (the release that publishes
# registry.k8s.io/autoscaling/cluster-autoscaler:v<minor>.<patch>), read 2026-11-30.
# 1.31 and older are past EKS extended support. 1.36 has no chart release with a 1.36
# appVersion yet (to 2026-08-22): the newest chart, 9.59.0, with the 1.36 image, as the
# chart's README allows ("may work by overriding the `image`").
CLUSTER_AUTOSCALER_RELEASES: Final[dict[str, tuple[str, str]]] = {
    # minor: (chart version, image tag)
    "1.32": ("9.46.6", "v1.32.7"),  # chart appVersion 1.32.0
    "1.33": (CLUSTER_AUTOSCALER_VERSION, "v1.33.6"),  # chart appVersion 1.33.0
    "1.34": ("9.53.0", "v1.34.5"),  # chart appVersion 1.34.2
    "1.35": ("9.59.0", "v1.35.2"),  # chart appVersion 1.35.0
    "1.36": ("9.59.0", "v1.36.1"),  # chart appVersion 1.35.0; tag cluster-autoscaler-1.36.1 (2026-07-22)
}

# The default Kubernetes minor of each provider: config/data/kubernetes.py DEFAULT_MINOR.
