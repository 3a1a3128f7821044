"""addons.kuberay.historyServer: KubeRay's History Server on AKS, EKS and GKE resources (one
plan), each reading and writing its resource's bucket under its own prefix with an identity of
its own; the AKS one in token mode (`authentication: token`)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from components.aws.history import history_bucket_policy, history_trust_policy
from config import SpecError, load_spec
from preflight.runtime import Plan
from tests.kuberay_stack import CLOUD, RESOURCES, problems, values_with
from tests.plans import recorded

ON: list[dict[str, Any]] = [
    {"historyServer": True, "authentication": "token"},
    {"historyServer": True},
    {"historyServer": True},
    {},
]


@pytest.fixture(scope="module")
def plan() -> Plan:
    return recorded("history", values_with(ON))


@pytest.fixture(scope="module")
def first_preview() -> Plan:
    return recorded("history-preview", values_with(ON), first_preview=True)


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
    assert "featureGates" not in inputs(plan, "onprem-kuberay")["values"]
    assert not [r for r in plan.resources if "history" in r["name"] and r["name"].startswith("onprem-")]


def test_first_preview_registers_the_same_history_resources(plan: Plan, first_preview: Plan) -> None:
    def history(p: Plan) -> set[str]:
        return {r["name"] for r in p.resources if "history" in r["name"]}

    # GCP 11, Azure 13 (its identity, two federations, the grant, token reader and binding), AWS 9.
    assert history(first_preview) == history(plan) and len(history(plan)) == 33


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
            3,
            {"historyServer": True},
            "resources[3].addons.kuberay.historyServer (onprem): the History Server reads the resource's bucket with "
            "a cloud identity of its own, which this program creates on Azure, AWS, GCP resources only (not "
            "Generic); turn historyServer off here",
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


def test_azure_reads_the_container_through_workload_identity(plan: Plan) -> None:
    deployment = inputs(plan, "default-history-server")
    template = deployment["spec"]["template"]
    assert template["metadata"]["labels"] == {
        "app.kubernetes.io/name": "ray-history-server",
        "azure.workload.identity/use": "true",
    }
    (container,) = template["spec"]["containers"]
    assert container["env"] == [
        {"name": "STORAGE_BACKEND", "value": "azureblob"},
        {
            "name": "AZURE_STORAGE_ACCOUNT_URL",
            "value": "https://asrayclouddefault${default-storage-suffix.result}.blob.core.windows.net",
        },
        {"name": "AZURE_STORAGE_CONTAINER", "value": "anyscale"},
        {"name": "AZURE_STORAGE_AUTH_MODE", "value": "workload_identity"},
        {"name": "STORAGE_ROOT_DIR", "value": "ray-history"},
    ]
    # authentication: token -> the server proxies live clusters with their token Secrets.
    assert container["args"] == ["--session-cache-max-memory=8Gi", "--use-auth-token-mode=true"]
    assert inputs(plan, "default-history-token-reader-default")["rules"] == [
        {"apiGroups": [""], "resources": ["secrets"], "verbs": ["get"]}
    ]
    assert inputs(plan, "default-history-token-reader-binding-default")["subjects"] == [
        {"kind": "ServiceAccount", "name": "historyserver", "namespace": "ray-history"}
    ]
    identity = inputs(plan, "default-history-identity")
    assert identity["resourceName"] == "id-ray-cloud-default-history"
    subjects = {inputs(plan, f"default-history-federation-{k}")["subject"] for k in ("server", "collector")}
    assert subjects == {"system:serviceaccount:ray-history:historyserver", "system:serviceaccount:default:ray-history"}
    assert inputs(plan, "default-history-federation-collector")["audiences"] == ["api://AzureADTokenExchange"]
    grant = inputs(plan, "default-history-storage")
    # Storage Blob Data Contributor, on the container only.
    assert grant["roleDefinitionId"].endswith("/roleDefinitions/ba92f5b4-2d11-453d-a403-e96b0029c9fe")
    assert grant["scope"] == "${default-container.id}"
    annotations = plan.named("default-history-collector-account")["inputs"]["metadata"]["annotations"]
    assert annotations == {"azure.workload.identity/client-id": "${default-history-identity.clientId}"}


def test_aws_reads_the_bucket_through_irsa(plan: Plan) -> None:
    (container,) = inputs(plan, "aws-history-server")["spec"]["template"]["spec"]["containers"]
    assert container["env"] == [
        {"name": "STORAGE_BACKEND", "value": "s3"},
        {"name": "S3_BUCKET", "value": "ray-cloud-aws-${aws-bucket-suffix.result}"},
        {"name": "S3_REGION", "value": "us-west-2"},
        {"name": "STORAGE_ROOT_DIR", "value": "ray-history"},
    ]
    assert container["args"] == ["--session-cache-max-memory=8Gi"]  # no token mode without it
    annotations = plan.named("aws-history-server-account")["inputs"]["metadata"]["annotations"]
    assert annotations == {"eks.amazonaws.com/role-arn": "${aws-history.arn}"}


def test_aws_trust_and_policy_documents() -> None:
    trust = json.loads(history_trust_policy("arn:aws:iam::1:oidc-provider/oidc.eks/id/X", "https://oidc.eks/id/X"))
    (statement,) = trust["Statement"]
    assert statement["Condition"]["StringEquals"] == {
        "oidc.eks/id/X:sub": [
            "system:serviceaccount:ray-history:historyserver",
            "system:serviceaccount:default:ray-history",
        ],
        "oidc.eks/id/X:aud": "sts.amazonaws.com",
    }
    objects = json.loads(history_bucket_policy("b"))["Statement"]
    assert {s["Sid"]: s["Resource"] for s in objects} == {
        "List": "arn:aws:s3:::b",
        "Location": "arn:aws:s3:::b",
        "Objects": "arn:aws:s3:::b/ray-history/*",
    }
    # KubeRay 1.7.0's S3 backend starts with HeadBucket, which S3 authorises as s3:ListBucket
    # without a prefix: a prefix condition on the listing would stop the server from starting.
    listing = next(s for s in objects if s["Sid"] == "List")
    assert listing["Action"] == ["s3:ListBucket"] and "Condition" not in listing


def test_azure_refuses_an_existing_bucket() -> None:
    resources = copy.deepcopy(RESOURCES)
    resources[0]["addons"] = {"kuberay": {"historyServer": True}}
    resources[0]["storage"] = {
        "bucket": "abfss://ray@acct.dfs.core.windows.net",
        "endpoint": "https://acct.blob.core.windows.net",
    }
    with pytest.raises(SpecError) as error:
        load_spec(CLOUD, resources)
    assert [str(p) for p in error.value.problems] == [
        "resources[0].addons.kuberay.historyServer (default): on Azure the History Server's identity is granted "
        "the container this program creates, and storage.bucket names an existing one (whose grants are its "
        "owner's); drop storage.bucket or turn historyServer off here"
    ]
