"""Pinned charts of what KubeRay works with, and the namespaces they run in.

Each chart is the one its project documents, at a release whose chart we read at its tag
(docs/what-it-creates.md, KubeRay options, lists the sources). The KubeRay operator's own pin is in
versions.py (KUBERAY_VERSION, with the pins Renovate bumps), where `addons.kuberay.version`
defaults from.
"""

from __future__ import annotations

from typing import Final, NamedTuple


class Pin(NamedTuple):
    release: str
    chart: str  # a chart name in `repo`, or an oci:// reference (repo None)
    version: str
    namespace: str
    repo: str | None


# Kueue: the chart the Kueue docs install (kubernetes-sigs/kueue charts/kueue, v0.19.2).
KUEUE: Final = Pin("kueue", "oci://registry.k8s.io/kueue/charts/kueue", "0.19.2", "kueue-system", None)
# Volcano: installer/helm/chart/volcano at v1.14.4, published at volcano-sh.github.io.
VOLCANO: Final = Pin("volcano", "volcano", "1.14.4", "volcano-system", "https://volcano-sh.github.io/helm-charts")
# Apache YuniKorn: yunikorn-release helm-charts/yunikorn, release 1.8.0.
YUNIKORN: Final = Pin("yunikorn", "yunikorn", "1.8.0", "yunikorn", "https://apache.github.io/yunikorn-release")
# scheduler-plugins "as a second scheduler" (manifests/install/charts); 0.33.x matches
# Kubernetes 1.33 (config/data/versions.py KUBERNETES_VERSION): the scheduler is built per minor.
SCHEDULER_PLUGINS: Final = Pin(
    "scheduler-plugins", "scheduler-plugins", "0.33.5", "scheduler-plugins", "https://scheduler-plugins.sigs.k8s.io"
)
# NVIDIA KAI Scheduler: the OCI chart NVIDIA's KAI integration guide installs.
KAI: Final = Pin(
    "kai-scheduler", "oci://ghcr.io/kai-scheduler/kai-scheduler/kai-scheduler", "v0.12.6", "kai-scheduler", None
)
# kube-prometheus-stack: prometheus-community/helm-charts tag kube-prometheus-stack-88.5.3.
PROMETHEUS: Final = Pin(
    "kube-prometheus-stack",
    "kube-prometheus-stack",
    "88.5.3",
    "monitoring",
    "https://prometheus-community.github.io/helm-charts",
)

SCHEDULERS: Final[dict[str, Pin]] = {
    "kueue": KUEUE,
    "volcano": VOLCANO,
    "yunikorn": YUNIKORN,
    "scheduler-plugins": SCHEDULER_PLUGINS,
    "kai": KAI,
}
SMOKE_NAMESPACE: Final = "kuberay-smoke-test"
# The namespaces this program (and the cluster itself) runs the platform in: every chart's
# namespace above and the Anyscale operator's, Envoy Gateway's, KubeRay's and the NVIDIA device
# plugin's (components/defaults.py). Kueue's webhooks skip them (its managedJobsNamespaceSelector),
# so a Kueue LocalQueue there would never see a job: `queueNamespaces` refuses them.
PLATFORM_NAMESPACES: Final = (
    "kube-system",
    "kueue-system",
    "anyscale-operator",
    "envoy-gateway-system",
    "kuberay-system",
    "monitoring",
    "nvidia-device-plugin",
)
