"""The gateway on every provider: two Envoy replicas spread over zones and nodes and a
PodDisruptionBudget, in an EnvoyProxy valid against the CRD of gateway-helm v1.7.0."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from preflight.runtime import Plan
from tests import helm
from tests.conftest import stack_values
from tests.plans import recorded

pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated in favor of:DeprecationWarning")

RESOURCES = ("default", "aws-usw2", "gcp-usc1", "onprem")
# The labels Envoy Gateway puts on the proxy pods of Gateway anyscale-operator/gateway.
PROXY_LABELS = {
    "gateway.envoyproxy.io/owning-gateway-name": "gateway",
    "gateway.envoyproxy.io/owning-gateway-namespace": "anyscale-operator",
}
CRD = "gateway-helm-v1.7.0/crds/generated/gateway.envoyproxy.io_envoyproxies.yaml"


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


def crd_validate(plan_json: dict[str, Any], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    validator = Path.home() / ".cache" / "crd-validate" / "venv" / "bin" / "python"
    tool = helm.SHARED / "tools" / "crd-validate" / "crd_validate.py"
    crd = helm.CHARTS / CRD
    if not (validator.exists() and tool.exists() and crd.exists()):
        pytest.skip(f"crd-validate not set up (bash {tool.parent}/setup.sh) or {crd} absent")
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(plan_json))
    return subprocess.run(
        [str(validator), str(tool), str(crd), str(plan_file)], capture_output=True, text=True, timeout=300, check=False
    )


def test_envoy_proxy_is_valid_against_its_crd(plan: Plan, tmp_path: Path) -> None:
    result = crd_validate(plan.to_json(), tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("EnvoyProxy gateway.envoyproxy.io/v1alpha1") == 4
    assert "TOTAL violations: 0" in result.stdout


def test_the_crd_check_catches_a_budget_with_both_bounds(plan: Plan, tmp_path: Path) -> None:
    # The CRD's CEL rule: minAvailable or maxUnavailable, not both.
    broken = copy.deepcopy(plan.to_json())
    proxy = next(r for r in broken["resources"] if r["name"] == "aws-usw2-envoy-proxy")
    proxy["inputs"]["spec"]["provider"]["kubernetes"]["envoyPDB"]["maxUnavailable"] = 1
    result = crd_validate(broken, tmp_path)
    assert result.returncode == 1
    assert "only one of minAvailable or maxUnavailable can be specified" in result.stdout
