"""addons.kuberay.historyServer: KubeRay's History Server on a GKE resource, reading and
writing that resource's bucket under its own prefix with an identity of its own."""

from __future__ import annotations

from typing import Any

import pytest

from preflight.runtime import Plan, run_program
from tests.kuberay_stack import problems, values_with


@pytest.fixture(scope="module")
def plan() -> Plan:
    return run_program("history", values_with([{}, {}, {"historyServer": True}, {}]))


@pytest.fixture(scope="module")
def first_preview() -> Plan:
    return run_program("history-preview", values_with([{}, {}, {"historyServer": True}, {}]), first_preview=True)


def inputs(plan: Plan, name: str) -> dict[str, Any]:
    return plan.named(name)["inputs"]


def test_server_reads_the_resources_own_bucket_under_its_prefix(plan: Plan) -> None:
    deployment = inputs(plan, "gcp-history-server")
    assert deployment["metadata"] == {"name": "ray-history-server", "namespace": "ray-history"}
    pod = deployment["spec"]["template"]["spec"]
    assert pod["serviceAccountName"] == "historyserver"
    (container,) = pod["containers"]
    assert container["image"] == "quay.io/kuberay/historyserver:v1.7.0"
    # The bucket the GKE resource registers (gs://<name>), without its scheme.
    bucket = plan.named("gcp-registration")["inputs"]["properties"]["cloudStorageBucketName"]
    assert bucket == "gs://ray-cloud-gcp-${gcp-storage-suffix.result}"
    assert container["env"] == [
        {"name": "STORAGE_BACKEND", "value": "gcs"},
        {"name": "GCS_BUCKET", "value": "ray-cloud-gcp-${gcp-storage-suffix.result}"},
        {"name": "STORAGE_ROOT_DIR", "value": "ray-history"},
    ]
    assert container["ports"] == [{"name": "http", "containerPort": 8080}]
    service = inputs(plan, "gcp-history-service")
    assert service["spec"]["type"] == "ClusterIP"
    assert service["spec"]["ports"] == [{"name": "http", "port": 30080, "protocol": "TCP", "targetPort": "http"}]
    assert service["spec"]["selector"] == deployment["spec"]["template"]["metadata"]["labels"]


def test_its_own_google_account_bound_to_both_service_accounts(plan: Plan) -> None:
    account = plan.named("gcp-history-sa")
    assert account["inputs"]["accountId"] == "history-ray-cloud-gcp"
    assert account["inputs"]["accountId"] != inputs(plan, "gcp-operator-sa")["accountId"]
    members = {
        inputs(plan, f"gcp-history-workload-identity-{k}")["member"]: inputs(
            plan, f"gcp-history-workload-identity-{k}"
        )["role"]
        for k in ("server", "collector")
    }
    assert members == {
        "serviceAccount:my-gcp-project.svc.id.goog[ray-history/historyserver]": "roles/iam.workloadIdentityUser",
        "serviceAccount:my-gcp-project.svc.id.goog[default/ray-history]": "roles/iam.workloadIdentityUser",
    }
    grant = inputs(plan, "gcp-history-storage")
    assert grant == {
        "bucket": "ray-cloud-gcp-${gcp-storage-suffix.result}",
        "member": "serviceAccount:${gcp-history-sa.email}",
        "role": "roles/storage.objectUser",
    }
    for key, (namespace, name) in {
        "server": ("ray-history", "historyserver"),
        "collector": ("default", "ray-history"),
    }.items():
        record = plan.named(f"gcp-history-{key}-account")
        assert record["inputs"]["metadata"] == {
            "name": name,
            "namespace": namespace,
            "annotations": {"iam.gke.io/gcp-service-account": "${gcp-history-sa.email}"},
        }
        # Pods may start only once Workload Identity and the grant exist.
        assert {plan.named(n)["urn"] for n in ("gcp-history-storage", "gcp-history-workload-identity-server")} <= set(
            record["dependsOn"]
        )
    binding = inputs(plan, "gcp-history-role-binding")
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "historyserver", "namespace": "ray-history"}]
    assert inputs(plan, "gcp-history-role")["rules"] == [
        {"apiGroups": ["ray.io"], "resources": ["rayclusters"], "verbs": ["get", "list"]}
    ]


def test_the_operator_turns_on_the_collector_gate(plan: Plan) -> None:
    gates = {g["name"]: g["enabled"] for g in inputs(plan, "gcp-kuberay")["values"]["featureGates"]}
    assert gates["RayClusterHistoryServer"] is True and gates["RayClusterNetworkPolicy"] is False
    assert "featureGates" not in inputs(plan, "aws-kuberay")["values"]
    assert not [r for r in plan.resources if "history" in r["name"] and not r["name"].startswith("gcp-")]


def test_first_preview_registers_the_same_history_resources(plan: Plan, first_preview: Plan) -> None:
    def history(p: Plan) -> set[str]:
        return {r["name"] for r in p.resources if "history" in r["name"]}

    assert history(first_preview) == history(plan) and len(history(plan)) == 11


@pytest.mark.parametrize(
    "index, kuberay, expected",
    [
        (
            2,
            {"historyServer": True, "version": "1.6.2"},
            "resources[2].addons.kuberay.historyServer (gcp): needs the RayClusterHistoryServer feature gate, which "
            "KubeRay has from 1.7.0 and this program wires for chart 1.7.0 (addons.kuberay.version is 1.6.2); set "
            'addons.kuberay.version: "1.7.0"',
        ),
        (
            1,
            {"historyServer": True},
            "resources[1].addons.kuberay.historyServer (aws): the History Server reads the resource's bucket with a "
            "cloud identity of its own, which this program creates on GCP resources only (not AWS); turn "
            "historyServer off here",
        ),
        (
            0,
            {"historyServer": True},
            "resources[0].addons.kuberay.historyServer (default): the History Server reads the resource's bucket with "
            "a cloud identity of its own, which this program creates on GCP resources only (not Azure); turn "
            "historyServer off here",
        ),
        (
            2,
            {"historyServer": True, "featureGates": {"RayClusterHistoryServer": False}},
            "resources[2].addons.kuberay.featureGates (gcp): historyServer turns on the RayClusterHistoryServer gate "
            "that featureGates turns off: drop one of them",
        ),
    ],
)
def test_history_server_refusals(index: int, kuberay: dict[str, Any], expected: str) -> None:
    assert problems(index, kuberay) == [expected]
