"""addons.kuberay.networkPolicy: the platform's allow policies beside KubeRay's own.

KubeRay 1.7.0's NetworkPolicy controller (ray-operator/controllers/ray/networkpolicy_controller.go
at v1.7.0) acts on RayClusters that set `spec.networkPolicy` (mode DenyAll by default). It makes
`<cluster>-head` (pods `ray.io/cluster=<cluster>, ray.io/node-type=head`) and
`<cluster>-workers-<group>`, allowing only:
- ingress from pods of the same cluster (`ray.io/cluster=<cluster>`), all ports;
- on the head of a RayJob in K8sJobMode, its submitter pod to the dashboard port (8265);
- egress to pods of the same cluster, all ports. No DNS ("the operator does not assume how
  the cluster's DNS is deployed") and no operator access ("platforms that need it should
  inject it via spec.networkPolicy.head.ingressRules").

So under DenyAll the KubeRay operator cannot poll the head's dashboard (a RayJob stays
RUNNING), Prometheus cannot scrape, no name resolves and neither the API server (the head's
autoscaler) nor object storage is reached. Policies are additive: the ones below add the
platform's flows for the pods that opt in with `OPT_IN_LABEL` (its value the cluster's mode)
in their head and worker pod templates. Selecting every Ray pod instead would isolate, and so break, the RayClusters that
do not ask for KubeRay's policies (any policy of type Ingress or Egress isolates the pods it
selects). Plain data: `install_network_policies` declares it, tests read it.
"""

from __future__ import annotations

from typing import Any, Final

import pulumi
import pulumi_kubernetes as k8s

from components.kuberay.history import NAMESPACE as HISTORY_NAMESPACE
from config import KubeRaySpec

# Put on the head's and the workers' pod templates, with the RayCluster's own mode as value
# (`spec.networkPolicy.mode`): a policy of type Egress isolates the pods it selects, so ours
# select for egress only the pods KubeRay already isolates there, and the same for ingress.
OPT_IN_LABEL: Final = "anyscale-cloud/network-policy"
INGRESS_MODES: Final = ("DenyAll", "DenyAllIngress")
EGRESS_MODES: Final = ("DenyAll", "DenyAllEgress")
NAME_LABEL: Final = "kubernetes.io/metadata.name"  # every namespace has it (Kubernetes >= 1.22)

# KubeRay 1.7.0 ray-operator/controllers/ray/utils/constant.go: DefaultDashboardPort 8265,
# DefaultServingPort 8000; the head's pod label ray.io/node-type=head (RayNodeTypeLabelKey).
DASHBOARD_PORT: Final = 8265
SERVE_PORT: Final = 8000
# Named ports of the PodMonitors (components/kuberay/values.pod_monitors, after KubeRay's
# config/prometheus/podMonitor.yaml): Ray's metrics, the autoscaler's and the dashboard's.
METRICS_PORTS: Final = ("metrics", "as-metrics", "dash-metrics")

# The sources, as their pods are labelled.
# kuberay-operator chart 1.7.0 templates/deployment.yaml (name/instance from nameOverride and
# the release name `kuberay-operator`), in ClusterAddons' KUBERAY_NAMESPACE.
OPERATOR: Final = ("kuberay-system", {"app.kubernetes.io/name": "kuberay-operator"})
# Envoy Gateway's proxy Deployment (envoyproxy/gateway internal/infrastructure/kubernetes/proxy
# testdata/deployments/*.yaml): ClusterAddons' ENVOY_NAMESPACE.
ENVOY: Final = ("envoy-gateway-system", {"app.kubernetes.io/name": "envoy", "app.kubernetes.io/component": "proxy"})
# prometheus-operator labels its Prometheus pods app.kubernetes.io/name=prometheus
# (pkg/prometheus/statefulset.go); kube-prometheus-stack runs in `monitoring`.
PROMETHEUS: Final = ("monitoring", {"app.kubernetes.io/name": "prometheus"})
PROMETHEUS_PORT: Final = 9090
# Grafana's pods (grafana chart, a kube-prometheus-stack dependency): container port 3000.
GRAFANA: Final = ("monitoring", {"app.kubernetes.io/name": "grafana"})
GRAFANA_PORT: Final = 3000
HISTORY_SERVER: Final = (HISTORY_NAMESPACE, {"app.kubernetes.io/name": "ray-history-server"})
# CoreDNS on AKS, EKS and GKE's kube-dns alike: k8s-app=kube-dns in kube-system.
DNS: Final = ("kube-system", {"k8s-app": "kube-dns"})
HTTPS_PORT: Final = 443

CILIUM_API: Final = "cilium.io/v2"


def _peer(source: tuple[str, dict[str, str]]) -> dict[str, Any]:
    namespace, labels = source
    return {"namespaceSelector": {"matchLabels": {NAME_LABEL: namespace}}, "podSelector": {"matchLabels": labels}}


def _ports(*ports: int | str, protocol: str = "TCP") -> list[dict[str, Any]]:
    return [{"protocol": protocol, "port": port} for port in ports]


def _selector(modes: tuple[str, ...], head_only: bool = False) -> dict[str, Any]:
    """Ray pods (KubeRay's ray.io/node-type) that opted in with one of `modes`."""
    node_type = {"operator": "In", "values": ["head"]} if head_only else {"operator": "Exists"}
    return {
        "matchExpressions": [
            {"key": OPT_IN_LABEL, "operator": "In", "values": list(modes)},
            {"key": "ray.io/node-type", **node_type},
        ]
    }


def network_policies(spec: KubeRaySpec, history_server: bool) -> dict[str, dict[str, Any]]:
    """The NetworkPolicy specs by name, in each namespace Ray runs in (the same everywhere)."""
    head_sources = [
        {"from": [_peer(OPERATOR)], "ports": _ports(DASHBOARD_PORT)},  # job status polling
        # A route on the resource's Gateway to a head: its dashboard or Ray Serve.
        {"from": [_peer(ENVOY)], "ports": _ports(DASHBOARD_PORT, SERVE_PORT)},
    ]
    if history_server:  # it proxies a live cluster's dashboard API
        head_sources.append({"from": [_peer(HISTORY_SERVER)], "ports": _ports(DASHBOARD_PORT)})
    policies: dict[str, dict[str, Any]] = {
        "ray-platform-head-ingress": {
            "podSelector": _selector(INGRESS_MODES, head_only=True),
            "policyTypes": ["Ingress"],
            "ingress": head_sources,
        },
    }
    if spec.metrics.enabled:
        policies["ray-platform-metrics-ingress"] = {
            "podSelector": _selector(INGRESS_MODES),
            "policyTypes": ["Ingress"],
            "ingress": [{"from": [_peer(PROMETHEUS)], "ports": _ports(*METRICS_PORTS)}],
        }
    egress: list[dict[str, Any]] = [
        {"to": [_peer(DNS)], "ports": _ports(53, protocol="UDP") + _ports(53)},
        # Object storage (Blob, S3, GCS, the collectors' uploads), package indexes, and the
        # API server where it sits outside the cluster on 443 (AKS, EKS, GKE); Cilium's
        # `world` is this block, its API server is not (the CiliumNetworkPolicy below).
        {"to": [{"ipBlock": {"cidr": "0.0.0.0/0"}}], "ports": _ports(HTTPS_PORT)},
    ]
    if spec.metrics.install_prometheus:  # the head's dashboard queries Prometheus and Grafana
        egress.append({"to": [_peer(PROMETHEUS)], "ports": _ports(PROMETHEUS_PORT)})
        egress.append({"to": [_peer(GRAFANA)], "ports": _ports(GRAFANA_PORT)})
    policies["ray-platform-egress"] = {
        "podSelector": _selector(EGRESS_MODES),
        "policyTypes": ["Egress"],
        "egress": egress,
    }
    return policies


def cilium_policies() -> dict[str, dict[str, Any]]:
    """Cilium gives the API server its own identity (entity `kube-apiserver`), which no
    NetworkPolicy ipBlock matches (docs.cilium.io, Policy > Layer 3 > Entities Based):
    the head's autoscaler and token reviews need it. AKS's Cilium data plane takes
    CiliumNetworkPolicy (learn.microsoft.com/azure/aks/azure-cni-powered-by-cilium)."""
    return {
        "ray-platform-apiserver-egress": {
            # Cilium isolates the egress of what a policy with egress rules selects, too.
            "endpointSelector": _selector(EGRESS_MODES),
            "egress": [{"toEntities": ["kube-apiserver"]}],
        }
    }


def logical(name: str, policy: str, namespace: str) -> str:
    """`<resource>-netpol-<policy without ray-platform->-<namespace>`: short enough for the
    plan's tree at 60 columns."""
    return f"{name}-netpol-{policy.removeprefix('ray-platform-')}-{namespace}"


def install_network_policies(
    name: str,
    spec: KubeRaySpec,
    namespaces: dict[str, list[pulumi.Resource]],
    cilium: bool,
    history_server: bool,
    opts: pulumi.ResourceOptions,
) -> None:
    """`namespaces`: each namespace Ray runs in and what creates it."""
    for ns, deps in namespaces.items():
        after = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(depends_on=deps))
        for policy, body in network_policies(spec, history_server).items():
            k8s.networking.v1.NetworkPolicy(
                logical(name, policy, ns), metadata={"name": policy, "namespace": ns}, spec=body, opts=after
            )
        if cilium:
            for policy, body in cilium_policies().items():
                k8s.apiextensions.CustomResource(
                    logical(name, policy, ns),
                    api_version=CILIUM_API,
                    kind="CiliumNetworkPolicy",
                    metadata={"name": policy, "namespace": ns},
                    spec=body,
                    opts=after,
                )


def opted_in(job: dict[str, Any], mode: str = "DenyAll") -> dict[str, Any]:
    """A RayJob (metadata and spec) under KubeRay's policies in `mode`, its pods opted in to
    the platform's flows: the smoke job then proves them (the operator polls its head)."""
    cluster = dict(job["spec"]["rayClusterSpec"])
    cluster["networkPolicy"] = {"mode": mode}

    def label(group: dict[str, Any]) -> dict[str, Any]:
        template = dict(group["template"])
        metadata = dict(template.get("metadata", {}))
        metadata["labels"] = {**metadata.get("labels", {}), OPT_IN_LABEL: mode}
        return {**group, "template": {**template, "metadata": metadata}}

    cluster["headGroupSpec"] = label(cluster["headGroupSpec"])
    if "workerGroupSpecs" in cluster:
        cluster["workerGroupSpecs"] = [label(g) for g in cluster["workerGroupSpecs"]]
    return {"metadata": job["metadata"], "spec": {**job["spec"], "rayClusterSpec": cluster}}
