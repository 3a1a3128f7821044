"""addons.kuberay.networkPolicy: each flow the platform needs, followed through the policies
the example stack's plan creates (its AKS primary has networkPolicy, metrics with
kube-prometheus-stack and the smoke job) together with the head policy KubeRay 1.7.0's
controller makes for a RayCluster under DenyAll (networkpolicy_controller.go at v1.7.0,
buildHeadNetworkPolicy, copied below as a literal). A flow passes when NetworkPolicy's
rules say it does: a pod selected by any policy of a direction is isolated in it and
reaches (or is reached) only where some rule of those policies allows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from components.kuberay.network_policy import network_policies, opted_in
from config import KubeRaySpec
from preflight.runtime import Plan

OPT_IN = {"anyscale-cloud/network-policy": "DenyAll"}
HEAD = {"ray.io/cluster": "demo", "ray.io/node-type": "head", "ray.io/group": "headgroup", **OPT_IN}
WORKER = {"ray.io/cluster": "demo", "ray.io/node-type": "worker", "ray.io/group": "cpu", **OPT_IN}
# KubeRay's head and worker containers' named ports (metrics 8080, after its PodMonitor).
RAY_PORTS = {"metrics": 8080, "as-metrics": 44217, "dash-metrics": 44227, "dashboard": 8265, "serve": 8000}


@dataclass(frozen=True)
class Pod:
    namespace: str
    labels: dict[str, str]
    ports: dict[str, int] = field(default_factory=dict)  # named container ports


# The sources and destinations as their charts label their pods.
OPERATOR = Pod(  # kuberay-operator 1.7.0 templates/deployment.yaml
    "kuberay-system",
    dict.fromkeys(
        ("app.kubernetes.io/name", "app.kubernetes.io/instance", "app.kubernetes.io/component"), "kuberay-operator"
    ),
)
ENVOY = Pod(  # Envoy Gateway's proxy Deployment
    "envoy-gateway-system",
    {
        "app.kubernetes.io/name": "envoy",
        "app.kubernetes.io/component": "proxy",
        "app.kubernetes.io/managed-by": "envoy-gateway",
    },
)
PROMETHEUS = Pod(
    "monitoring", {"app.kubernetes.io/name": "prometheus", "prometheus": "kube-prometheus-stack-prometheus"}
)
GRAFANA = Pod("monitoring", {"app.kubernetes.io/name": "grafana"}, {"grafana": 3000})
DNS = Pod("kube-system", {"k8s-app": "kube-dns"})
HISTORY = Pod("ray-history", {"app.kubernetes.io/name": "ray-history-server"})


def kuberay_policies(cluster: str, namespace: str, mode: str = "DenyAll") -> list[dict[str, Any]]:
    """KubeRay 1.7.0's `<cluster>-head` and `<cluster>-workers-cpu` for a RayCluster no
    RayJob owns (buildHeadNetworkPolicy, buildWorkerGroupNetworkPolicy)."""
    same = [{"podSelector": {"matchLabels": {"ray.io/cluster": cluster}}}]
    types = {"DenyAll": ["Ingress", "Egress"], "DenyAllIngress": ["Ingress"], "DenyAllEgress": ["Egress"]}[mode]
    rules = {"ingress": [{"from": same}], "egress": [{"to": same}]}
    selectors = {
        "head": {"ray.io/cluster": cluster, "ray.io/node-type": "head"},
        "workers-cpu": {"ray.io/cluster": cluster, "ray.io/node-type": "worker", "ray.io/group": "cpu"},
    }
    return [
        {
            "metadata": {"name": f"{cluster}-{suffix}", "namespace": namespace},
            "spec": {
                "podSelector": {"matchLabels": labels},
                "policyTypes": types,
                **{key: rules[key] for key in ("ingress", "egress") if key.capitalize() in types},
            },
        }
        for suffix, labels in selectors.items()
    ]


def selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    if any(labels.get(k) != v for k, v in selector.get("matchLabels", {}).items()):
        return False
    for expression in selector.get("matchExpressions", []):
        key, op, values = expression["key"], expression["operator"], expression.get("values", [])
        ok = {"Exists": key in labels, "DoesNotExist": key not in labels, "In": labels.get(key) in values}.get(
            op, key not in labels or labels[key] not in values
        )
        if not ok:
            return False
    return True


def peer_matches(peer: dict[str, Any], policy_namespace: str, other: Pod | str) -> bool:
    if isinstance(other, str):  # an address outside the cluster
        return "ipBlock" in peer and peer["ipBlock"]["cidr"] == "0.0.0.0/0"
    if "ipBlock" in peer:
        return False
    if "namespaceSelector" in peer:
        if not selects(peer["namespaceSelector"], {"kubernetes.io/metadata.name": other.namespace}):
            return False
    elif other.namespace != policy_namespace:
        return False
    return selects(peer.get("podSelector", {}), other.labels)


def port_matches(ports: list[dict[str, Any]], port: int, protocol: str, named: dict[str, int]) -> bool:
    if not ports:
        return True
    return any(
        p.get("protocol", "TCP") == protocol and (p["port"] == port or named.get(str(p["port"])) == port) for p in ports
    )


def allowed(policies: list[dict[str, Any]], src: Pod, dst: Pod | str, port: int, protocol: str = "TCP") -> bool:
    """Both ends' policies: the source's egress and (for a pod) the destination's ingress."""

    def side(pod: Pod, direction: str, other: Pod | str, named: dict[str, int]) -> bool:
        kind, key, peers = ("Ingress", "ingress", "from") if direction == "in" else ("Egress", "egress", "to")
        mine = [
            p
            for p in policies
            if p["metadata"]["namespace"] == pod.namespace
            and kind in p["spec"].get("policyTypes", [])
            and selects(p["spec"]["podSelector"], pod.labels)
        ]
        if not mine:
            return True  # not isolated in this direction
        return any(
            port_matches(rule.get("ports", []), port, protocol, named)
            and (
                not rule.get(peers)
                or any(peer_matches(peer, p["metadata"]["namespace"], other) for peer in rule[peers])
            )
            for p in mine
            for rule in p["spec"].get(key, [])
        )

    out = side(src, "out", dst, dst.ports if isinstance(dst, Pod) else {})
    return out and (isinstance(dst, str) or side(dst, "in", src, dst.ports))


@pytest.fixture(scope="module")
def policies(example_plan: Plan) -> list[dict[str, Any]]:
    """The example primary's NetworkPolicies in `default`, with KubeRay's head policy for `demo`."""
    made = [
        {"metadata": r["inputs"]["metadata"], "spec": r["inputs"]["spec"]}
        for r in example_plan.of_type("kubernetes:networking.k8s.io/v1:NetworkPolicy")
        if r["name"].startswith("default-")
    ]
    return made + kuberay_policies("demo", "default")


def ray(labels: dict[str, str]) -> Pod:
    return Pod("default", labels, RAY_PORTS)


def test_the_policies_are_in_every_namespace_ray_runs_in(example_plan: Plan) -> None:
    placed = {
        (r["inputs"]["metadata"]["namespace"], r["inputs"]["metadata"]["name"])
        for r in example_plan.of_type("kubernetes:networking.k8s.io/v1:NetworkPolicy")
    }
    names = {"ray-platform-head-ingress", "ray-platform-metrics-ingress", "ray-platform-egress"}
    assert placed == {(ns, n) for ns in ("default", "kuberay-smoke-test") for n in names}


def test_kuberay_alone_blocks_the_operator_and_our_policies_let_it_poll(policies: list[dict[str, Any]]) -> None:
    kuberay_only = kuberay_policies("demo", "default")
    assert not allowed(kuberay_only, OPERATOR, ray(HEAD), 8265)  # the issue: RayJobs stay RUNNING
    assert allowed(policies, OPERATOR, ray(HEAD), 8265)
    assert not allowed(policies, OPERATOR, ray(HEAD), 6379)  # the dashboard only
    # A head that does not opt in keeps KubeRay's isolation as it was.
    bare = {k: v for k, v in HEAD.items() if k not in OPT_IN}
    assert not allowed(policies, OPERATOR, ray(bare), 8265)


@pytest.mark.parametrize("port", ["metrics", "as-metrics", "dash-metrics"])
def test_prometheus_scrapes_heads_and_workers(policies: list[dict[str, Any]], port: str) -> None:
    assert allowed(policies, PROMETHEUS, ray(HEAD), RAY_PORTS[port])
    assert allowed(policies, PROMETHEUS, ray(WORKER), RAY_PORTS[port])
    assert not allowed(policies, PROMETHEUS, ray(HEAD), 8265)


@pytest.mark.parametrize("protocol", ["UDP", "TCP"])
def test_dns_egress_to_kube_dns(policies: list[dict[str, Any]], protocol: str) -> None:
    assert allowed(policies, ray(HEAD), DNS, 53, protocol)
    assert allowed(policies, ray(WORKER), DNS, 53, protocol)
    assert not allowed(policies, ray(HEAD), Pod("kube-system", {"k8s-app": "other"}), 53, protocol)


def test_object_storage_and_api_server_on_443(policies: list[dict[str, Any]]) -> None:
    # Blob, S3 and GCS endpoints (and AKS's API server off the Cilium data plane) on HTTPS.
    assert allowed(policies, ray(WORKER), "20.60.0.1", 443)
    assert not allowed(policies, ray(WORKER), "20.60.0.1", 80)


def test_api_server_on_cilium_is_an_entity(example_plan: Plan) -> None:
    [cnp] = [
        r["inputs"]
        for r in example_plan.of_type("kubernetes:cilium.io/v2:CiliumNetworkPolicy")
        if r["inputs"]["metadata"]["namespace"] == "default"
    ]
    assert cnp["spec"]["egress"] == [{"toEntities": ["kube-apiserver"]}]
    assert selects(cnp["spec"]["endpointSelector"], HEAD) and selects(cnp["spec"]["endpointSelector"], WORKER)
    # Only the AKS primary (Cilium): the others have no networkPolicy here.
    assert {r["name"].split("-")[0] for r in example_plan.of_type("kubernetes:cilium.io/v2:CiliumNetworkPolicy")} == {
        "default"
    }


def test_gateway_and_history_server_reach_the_head(policies: list[dict[str, Any]]) -> None:
    assert allowed(policies, ENVOY, ray(HEAD), 8000) and allowed(policies, ENVOY, ray(HEAD), 8265)
    assert not allowed(policies, ENVOY, ray(WORKER), 8000)
    assert not allowed(policies, HISTORY, ray(HEAD), 8265)  # the example runs no History Server


def test_the_head_reaches_prometheus_and_grafana(policies: list[dict[str, Any]]) -> None:
    assert allowed(policies, ray(HEAD), Pod("monitoring", PROMETHEUS.labels, {"web": 9090}), 9090)
    assert allowed(policies, ray(HEAD), GRAFANA, 3000)


def test_same_cluster_traffic_stays_kuberays_and_no_wider(policies: list[dict[str, Any]]) -> None:
    assert allowed(policies, ray(WORKER), ray(HEAD), 6379)
    other = {**WORKER, "ray.io/cluster": "other"}
    assert not allowed(policies + kuberay_policies("other", "default"), ray(other), ray(HEAD), 6379)


@pytest.mark.parametrize("mode", ["DenyAllIngress", "DenyAllEgress"])
def test_a_one_way_mode_is_not_isolated_the_other_way_by_ours(example_plan: Plan, mode: str) -> None:
    made = [
        {"metadata": r["inputs"]["metadata"], "spec": r["inputs"]["spec"]}
        for r in example_plan.of_type("kubernetes:networking.k8s.io/v1:NetworkPolicy")
    ]
    policies = made + kuberay_policies("demo", "default", mode)
    head, worker = (ray({**labels, "anyscale-cloud/network-policy": mode}) for labels in (HEAD, WORKER))
    # Egress anywhere on any port stays open under DenyAllIngress (and ingress under DenyAllEgress).
    assert allowed(policies, worker, "203.0.113.9", 5432) is (mode == "DenyAllIngress")
    assert allowed(policies, Pod("apps", {"app": "client"}), head, 10001) is (mode == "DenyAllEgress")
    # The platform's flows in the isolated direction.
    assert allowed(policies, OPERATOR, head, 8265)
    assert allowed(policies, worker, DNS, 53, "UDP")


def test_the_smoke_job_runs_under_deny_all_opted_in(example_plan: Plan) -> None:
    cluster = example_plan.named("default-smoke-test")["inputs"]["spec"]["rayClusterSpec"]
    assert cluster["networkPolicy"] == {"mode": "DenyAll"}
    assert cluster["headGroupSpec"]["template"]["metadata"]["labels"] == OPT_IN


def test_opted_in_labels_every_group_and_keeps_theirs() -> None:
    group = {"template": {"metadata": {"labels": {"team": "a"}}, "spec": {}}}
    job = {"metadata": {}, "spec": {"rayClusterSpec": {"headGroupSpec": group, "workerGroupSpecs": [group]}}}
    cluster = opted_in(job)["spec"]["rayClusterSpec"]
    assert cluster["networkPolicy"] == {"mode": "DenyAll"}
    for g in (cluster["headGroupSpec"], *cluster["workerGroupSpecs"]):
        assert g["template"]["metadata"]["labels"] == {"team": "a", **OPT_IN}
    assert group["template"]["metadata"]["labels"] == {"team": "a"}  # the input untouched


def test_the_history_server_reaches_heads_when_it_runs() -> None:
    spec = KubeRaySpec.model_validate({"networkPolicy": True, "historyServer": True})
    made = [
        {"metadata": {"name": name, "namespace": "default"}, "spec": body}
        for name, body in network_policies(spec, history_server=True).items()
    ]
    assert allowed(made + kuberay_policies("demo", "default"), HISTORY, ray(HEAD), 8265)
    assert "ray-platform-metrics-ingress" not in {p["metadata"]["name"] for p in made}  # metrics off
