"""The gateway on every provider: two Envoy replicas spread over zones and nodes and a
PodDisruptionBudget, in an EnvoyProxy valid against the CRD of gateway-helm v1.7.0."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest

from preflight.runtime import Plan
from tests import crds
from tests.conftest import stack_values
from tests.plans import recorded

pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated in favor of:DeprecationWarning")

RESOURCES = ("default", "aws-usw2", "gcp-usc1", "onprem")
# The labels Envoy Gateway puts on the proxy pods of Gateway anyscale-operator/gateway.
PROXY_LABELS = {
    "gateway.envoyproxy.io/owning-gateway-name": "gateway",
    "gateway.envoyproxy.io/owning-gateway-namespace": "anyscale-operator",
}
# Envoy Gateway's EnvoyProxy CRD: charts/gateway-helm/crds/generated/ in envoyproxy/gateway
# at tag v1.7.0 (sha256 377bac82699f2ac26d136b5e378107953a5b0a1fc07d67a2714f0db926dbd342).
CRD = "gateway.envoyproxy.io_envoyproxies.yaml"
CRD_SHA256 = "377bac82699f2ac26d136b5e378107953a5b0a1fc07d67a2714f0db926dbd342"


@pytest.fixture(scope="module")
def plan() -> Plan:
    return recorded("example", stack_values("example"))


def kubernetes_provider(plan: Plan, resource: str) -> dict[str, Any]:
    spec = plan.named(f"{resource}-envoy-proxy")["inputs"]["spec"]
    assert spec["provider"]["type"] == "Kubernetes"
    return dict(spec["provider"]["kubernetes"])


@pytest.mark.parametrize("resource", RESOURCES)
def test_two_replicas_spread_over_zones_and_nodes(plan: Plan, resource: str) -> None:
    deployment = kubernetes_provider(plan, resource)["envoyDeployment"]
    assert deployment == {
        "replicas": 2,
        "pod": {
            "topologySpreadConstraints": [
                {
                    "maxSkew": 1,
                    "topologyKey": "topology.kubernetes.io/zone",
                    "whenUnsatisfiable": "ScheduleAnyway",
                    "labelSelector": {"matchLabels": PROXY_LABELS},
                },
                {
                    "maxSkew": 1,
                    "topologyKey": "kubernetes.io/hostname",
                    "whenUnsatisfiable": "ScheduleAnyway",
                    "labelSelector": {"matchLabels": PROXY_LABELS},
                },
            ]
        },
    }


@pytest.mark.parametrize("resource", RESOURCES)
def test_a_disruption_budget_keeps_one_proxy(plan: Plan, resource: str) -> None:
    assert kubernetes_provider(plan, resource)["envoyPDB"] == {"minAvailable": 1}


def test_only_eks_sets_load_balancer_annotations(plan: Plan) -> None:
    annotations = {r: kubernetes_provider(plan, r)["envoyService"]["annotations"] for r in RESOURCES}
    assert (
        annotations["aws-usw2"]["service.beta.kubernetes.io/aws-load-balancer-cross-zone-load-balancing-enabled"]
        == "true"
    )
    assert annotations["aws-usw2"]["service.beta.kubernetes.io/aws-load-balancer-attributes"] == (
        "load_balancing.cross_zone.enabled=true"
    )
    assert {r: a for r, a in annotations.items() if r != "aws-usw2"} == {"default": {}, "gcp-usc1": {}, "onprem": {}}


@pytest.fixture(scope="module")
def proxy_crd_report(plan: Plan, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The plan's EnvoyProxies, and a copy with a budget holding both bounds, against Envoy
    Gateway's EnvoyProxy CRD (one run of crd-validate)."""
    broken = copy.deepcopy(plan.to_json())
    proxy = next(r for r in broken["resources"] if r["name"] == "aws-usw2-envoy-proxy")
    proxy["inputs"]["spec"]["provider"]["kubernetes"]["envoyPDB"]["maxUnavailable"] = 1
    plans = {"plan": plan.to_json(), "broken": broken}
    text = crds.fixture(CRD)
    assert hashlib.sha256(text.encode()).hexdigest() == CRD_SHA256
    folder = tmp_path_factory.mktemp("envoyproxy-crd")
    return crds.report(crds.unpacked(text, folder, CRD), plans, folder)


def test_envoy_proxy_is_valid_against_its_crd(proxy_crd_report: dict[str, list[str]]) -> None:
    lines = proxy_crd_report["plan"]
    assert crds.all_valid(lines), "\n".join(lines)
    assert crds.objects(lines, "EnvoyProxy gateway.envoyproxy.io/v1alpha1") == 4


def test_the_crd_check_catches_a_budget_with_both_bounds(proxy_crd_report: dict[str, list[str]]) -> None:
    # The CRD's CEL rule: minAvailable or maxUnavailable, not both.
    lines = proxy_crd_report["broken"]
    assert not crds.all_valid(lines)
    assert any("only one of minAvailable or maxUnavailable can be specified" in line for line in lines)
    # Only the edited proxy fails: the others' summaries stay clean.
    summaries = [line for line in lines if line.strip().startswith("->")]
    assert (
        len(summaries) == 4 and sum(" 0 schema error(s);" in s and s.endswith(" 0 not passed") for s in summaries) == 3
    )


def test_the_report_check_fails_on_a_schema_error_or_a_failed_rule() -> None:
    ok = "   -> 0 schema error(s); CEL: 12 rule evaluations passed, 0 not passed"
    assert crds.all_valid(["plan.json: p (EnvoyProxy gateway.envoyproxy.io/v1alpha1, ...)", ok])
    assert not crds.all_valid([ok.replace("-> 0 schema", "-> 1 schema")])
    assert not crds.all_valid([ok.replace("0 not passed", "1 not passed")])
    assert not crds.all_valid([])  # no object validated at all
