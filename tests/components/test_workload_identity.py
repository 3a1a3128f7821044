"""Ray pods run as themselves (issue #40 item 4): the operator chart puts every workload pod on
the service account anyscale-workloads, which the program creates with no RoleBinding and
annotates with a cloud identity of its own, federated to that account only and granted the
bucket only. The operator's account keeps its Role.

Chart facts (anyscale-operator 1.8.0, tests/charts): templates/configmap_patches.yaml patches
`/spec/serviceAccountName` with workloads.serviceAccount.name and, on azure, labels the pods
`azure.workload.identity/use: "true"`; templates/role_binding.yaml and
cluster_role_binding.yaml bind only operator.serviceAccount.name.

Cheap: the example stack's recorded plan (shared with test_charts and the golden plans), the
golden gpu stack's for an existing Azure bucket, and the operator renders test_charts caches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from preflight.runtime import Plan
from preflight.stackfile import read_stack_file
from tests.components.test_charts import one, owned, rendered_operator
from tests.conftest import stack_values
from tests.plans import recorded

NS = "anyscale-operator"
WORKLOADS = "anyscale-workloads"
SUBJECT = "system:serviceaccount:anyscale-operator:anyscale-workloads"
BLOB_DATA_CONTRIBUTOR = "ba92f5b4-2d11-453d-a403-e96b0029c9fe"  # Storage Blob Data Contributor
EXAMPLE = {"default": "Azure", "aws-usw2": "AWS", "gcp-usc1": "GCP", "onprem": "Generic"}
GOLDEN_GPU = Path(__file__).resolve().parents[1] / "fixtures" / "golden" / "Pulumi.gpu.yaml"

pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated in favor of:DeprecationWarning")


@pytest.fixture(scope="module")
def example() -> Plan:
    return recorded("example", stack_values("example"))


def workload_account(plan: Plan, resource: str) -> dict[str, Any]:
    (account,) = [
        r
        for r in owned(plan, resource)
        if r["type"] == "kubernetes:core/v1:ServiceAccount" and r["inputs"]["metadata"]["name"] == WORKLOADS
    ]
    assert account["inputs"]["metadata"]["namespace"] == NS
    return account


def placeholder(value: str) -> tuple[str, str]:
    """`${name.prop}` -> (name, prop)."""
    assert value.startswith("${") and value.endswith("}"), value
    name, prop = value[2:-1].rsplit(".", 1)
    return name, prop


@pytest.mark.parametrize("resource", sorted(EXAMPLE))
def test_workload_pods_run_as_their_own_account_bound_to_no_role(
    resource: str, example: Plan, render_cache: Path
) -> None:
    workload_account(example, resource)
    objects = rendered_operator(example, resource, EXAMPLE[resource], render_cache)
    patches = yaml.safe_load(one(objects, "ConfigMap", "patches")["data"]["patches.yaml"])
    accounts = [p["value"] for entry in patches for p in entry["patch"] if p["path"] == "/spec/serviceAccountName"]
    assert accounts == [WORKLOADS]
    bindings = [o for o in objects if o["kind"] in ("RoleBinding", "ClusterRoleBinding")]
    assert bindings  # the operator keeps its rights
    for binding in bindings:
        assert {s["name"] for s in binding["subjects"]} == {"anyscale-operator"}, binding["metadata"]["name"]
    # Nor does the program bind the workloads' account to anything.
    for record in example.resources:
        if record["type"].startswith("kubernetes:rbac.authorization.k8s.io/"):
            assert WORKLOADS not in json.dumps(record["inputs"]), record["name"]
    if EXAMPLE[resource] == "Azure":  # the webhook's opt-in, from the chart itself
        labels = [p for entry in patches for p in entry["patch"] if p["path"].startswith("/metadata/labels/")]
        assert {"op": "add", "path": "/metadata/labels/azure.workload.identity~1use", "value": "true"} in labels


def test_azure_flow_account_identity_subject_container(example: Plan) -> None:
    annotations = workload_account(example, "default")["inputs"]["metadata"]["annotations"]
    name, prop = placeholder(annotations["azure.workload.identity/client-id"])
    assert (name, prop) == ("default-workload-identity", "clientId")
    identity = example.named(name)
    assert identity["type"] == "azure-native:managedidentity:UserAssignedIdentity"
    assert name != "default-operator-identity"
    (federation,) = [
        r
        for r in example.of_type("azure-native:managedidentity:FederatedIdentityCredential")
        if r["inputs"]["resourceName"] == identity["inputs"]["resourceName"]
    ]
    assert federation["inputs"]["subject"] == SUBJECT
    assert federation["inputs"]["issuer"] == "${default-aks.oidcIssuerProfile.issuerURL}"
    assert federation["inputs"]["audiences"] == ["api://AzureADTokenExchange"]
    (grant,) = [
        r
        for r in example.of_type("azure-native:authorization:RoleAssignment")
        if r["inputs"]["principalId"] == "${default-workload-identity.principalId}"
    ]
    assert grant["inputs"]["scope"] == "${default-container.id}"  # the container, not the account
    assert grant["inputs"]["roleDefinitionId"].endswith(f"/roleDefinitions/{BLOB_DATA_CONTRIBUTOR}")


def test_azure_existing_bucket_gets_no_grant() -> None:
    """An existing bucket's data-plane roles are its owner's (config/load.py warns)."""
    plan = recorded("gpu", read_stack_file(GOLDEN_GPU).config)
    annotations = workload_account(plan, "aks-byob")["inputs"]["metadata"]["annotations"]
    assert annotations == {"azure.workload.identity/client-id": "${aks-byob-workload-identity.clientId}"}
    assert plan.named("aks-byob-workload-federation")["inputs"]["subject"] == SUBJECT
    assert not [
        r
        for r in plan.of_type("azure-native:authorization:RoleAssignment")
        if r["inputs"]["principalId"] == "${aks-byob-workload-identity.principalId}"
    ]


def test_aws_flow_account_role_trust_bucket(example: Plan) -> None:
    annotations = workload_account(example, "aws-usw2")["inputs"]["metadata"]["annotations"]
    name, prop = placeholder(annotations["eks.amazonaws.com/role-arn"])
    assert (name, prop) == ("aws-usw2-workloads", "arn")
    role = example.named(name)
    assert role["type"] == "aws:iam/role:Role"
    (statement,) = json.loads(role["inputs"]["assumeRolePolicy"])["Statement"]
    assert statement["Principal"] == {"Federated": "${aws-usw2-oidc.arn}"}
    conditions = statement["Condition"]["StringEquals"]
    assert [v for k, v in conditions.items() if k.endswith(":sub")] == [SUBJECT]
    (policy,) = [
        r for r in example.of_type("aws:iam/rolePolicy:RolePolicy") if r["inputs"]["role"] == f"${{{name}.id}}"
    ]
    bucket = "arn:aws:s3:::" + example.named("aws-usw2-bucket")["inputs"]["bucket"]
    resources = {s["Resource"] for s in json.loads(policy["inputs"]["policy"])["Statement"]}
    assert resources == {bucket, f"{bucket}/*"}
    assert not [r for r in example.of_type("aws:iam/rolePolicyAttachment:RolePolicyAttachment") if name in str(r)]


def test_gcp_flow_account_member_bucket(example: Plan) -> None:
    annotations = workload_account(example, "gcp-usc1")["inputs"]["metadata"]["annotations"]
    name, prop = placeholder(annotations["iam.gke.io/gcp-service-account"])
    assert (name, prop) == ("gcp-usc1-workloads-sa", "email")
    assert example.named(name)["type"] == "gcp:serviceaccount/account:Account"
    (binding,) = [
        r
        for r in example.of_type("gcp:serviceaccount/iAMMember:IAMMember")
        if r["inputs"]["serviceAccountId"].endswith(f"/serviceAccounts/${{{name}.email}}")
    ]
    assert binding["inputs"]["role"] == "roles/iam.workloadIdentityUser"
    assert (
        binding["inputs"]["member"] == "serviceAccount:my-gcp-project.svc.id.goog[anyscale-operator/anyscale-workloads]"
    )
    member = f"serviceAccount:${{{name}.email}}"
    grants = [r for r in example.resources if r["inputs"].get("member") == member and r is not binding]
    assert [(g["type"], g["inputs"]["role"]) for g in grants] == [
        ("gcp:storage/bucketIAMMember:BucketIAMMember", "roles/storage.objectAdmin")
    ]
    assert grants[0]["inputs"]["bucket"] == example.named("gcp-usc1-storage")["inputs"]["name"]


def test_generic_account_has_no_cloud_identity(example: Plan) -> None:
    assert workload_account(example, "onprem")["inputs"]["metadata"].get("annotations") is None
