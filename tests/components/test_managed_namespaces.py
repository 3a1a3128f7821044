"""Ray pods in workloads.managedNamespaces run as themselves too (issue #40, "Workloads as
themselves"): the program makes each managed Namespace and anyscale-workloads in it, with the
same annotations, and federates every namespace's account to the workloads' cloud identity.

One recording: the example stack with two managed namespaces on every resource (and `ray-a`
also a Kueue queue namespace on the primary, which must then be one Namespace)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from preflight.runtime import Plan
from tests.components.test_charts import owned, rendered_operator
from tests.example_spec import MANAGED, variants_values
from tests.plans import recorded

NAMESPACES = ["anyscale-operator", "ray-a", "ray-b"]

pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated in favor of:DeprecationWarning")


@pytest.fixture(scope="module")
def plan() -> Plan:
    # The example with `ray-a` and `ray-b` managed on every resource, recorded once with
    # test_safety's variants (tests/example_spec.py variants_values).
    return recorded("example", variants_values())


def of_type(plan: Plan, resource: str, type_: str) -> list[dict[str, Any]]:
    return [r for r in owned(plan, resource) if r["type"] == type_]


def accounts(plan: Plan, resource: str) -> dict[str, dict[str, Any]]:
    found = [
        r
        for r in of_type(plan, resource, "kubernetes:core/v1:ServiceAccount")
        if r["inputs"]["metadata"]["name"] == "anyscale-workloads"
    ]
    return {r["inputs"]["metadata"]["namespace"]: r for r in found}


@pytest.mark.parametrize(
    ("resource", "annotations"),
    [
        ("default", {"azure.workload.identity/client-id": "${default-workload-identity.clientId}"}),
        ("aws-usw2", {"eks.amazonaws.com/role-arn": "${aws-usw2-workloads.arn}"}),
        ("gcp-usc1", {"iam.gke.io/gcp-service-account": "${gcp-usc1-workloads-sa.email}"}),
        ("onprem", None),
    ],
)
def test_each_namespace_gets_the_account_with_the_same_annotations(
    plan: Plan, resource: str, annotations: dict[str, str] | None
) -> None:
    made = accounts(plan, resource)
    assert sorted(made) == NAMESPACES
    for namespace, account in made.items():
        assert account["inputs"]["metadata"].get("annotations") == annotations, namespace
    assert made["anyscale-operator"]["name"] == f"{resource}-workload-account"
    assert made["ray-a"]["name"] == f"{resource}-workload-account-ray-a"
    # The Namespaces: made by the program (the chart only lists them), each once, the account after it.
    namespaces = {r["inputs"]["metadata"]["name"]: r for r in of_type(plan, resource, "kubernetes:core/v1:Namespace")}
    for namespace in MANAGED:
        assert namespaces[namespace]["name"] == f"{resource}-workload-namespace-{namespace}"
        assert namespaces[namespace]["urn"] in made[namespace]["dependsOn"]
    # The operator starts once every account exists.
    operator = [
        r
        for r in owned(plan, resource)
        if "operator-extension" in r["name"] or r["name"].endswith("-anyscale-operator")
    ]
    assert len(operator) == 1
    assert {a["urn"] for a in made.values()} <= set(operator[0]["dependsOn"])


def test_a_queue_namespace_that_is_managed_is_one_namespace(plan: Plan) -> None:
    names = [r["inputs"]["metadata"]["name"] for r in of_type(plan, "default", "kubernetes:core/v1:Namespace")]
    assert names.count("ray-a") == 1
    (queue,) = [r for r in owned(plan, "default") if r["name"] == "default-local-queue-ray-a"]
    (namespace,) = [r for r in owned(plan, "default") if r["name"] == "default-workload-namespace-ray-a"]
    assert namespace["urn"] in queue["dependsOn"]


def test_azure_federates_each_namespace_in_turn(plan: Plan) -> None:
    credentials = [
        r
        for r in of_type(plan, "default", "azure-native:managedidentity:FederatedIdentityCredential")
        if r["name"].startswith("default-workload-federation")
    ]
    assert [
        (r["name"], r["inputs"]["federatedIdentityCredentialResourceName"], r["inputs"]["subject"]) for r in credentials
    ] == [
        (
            "default-workload-federation",
            "anyscale-workloads",
            "system:serviceaccount:anyscale-operator:anyscale-workloads",
        ),
        (
            "default-workload-federation-ray-a",
            "anyscale-workloads-ray-a",
            "system:serviceaccount:ray-a:anyscale-workloads",
        ),
        (
            "default-workload-federation-ray-b",
            "anyscale-workloads-ray-b",
            "system:serviceaccount:ray-b:anyscale-workloads",
        ),
    ]
    # One at a time: Azure refuses concurrent writes to one identity's credentials.
    assert credentials[0]["urn"] in credentials[1]["dependsOn"]
    assert credentials[1]["urn"] in credentials[2]["dependsOn"]
    for credential in credentials:
        assert credential["inputs"]["audiences"] == ["api://AzureADTokenExchange"]


def test_aws_trust_lists_every_namespace(plan: Plan) -> None:
    (role,) = [r for r in owned(plan, "aws-usw2") if r["name"] == "aws-usw2-workloads"]
    document = json.loads(role["inputs"]["assumeRolePolicy"])
    (condition,) = document["Statement"][0]["Condition"].values()
    subjects = [v for k, v in condition.items() if k.endswith(":sub")]
    assert subjects == [
        [
            "system:serviceaccount:anyscale-operator:anyscale-workloads",
            "system:serviceaccount:ray-a:anyscale-workloads",
            "system:serviceaccount:ray-b:anyscale-workloads",
        ]
    ]
    # The operator's role still trusts its one account.
    (operator,) = [r for r in owned(plan, "aws-usw2") if r["name"] == "aws-usw2-operator"]
    (condition,) = json.loads(operator["inputs"]["assumeRolePolicy"])["Statement"][0]["Condition"].values()
    assert [v for k, v in condition.items() if k.endswith(":sub")] == [
        "system:serviceaccount:anyscale-operator:anyscale-operator"
    ]


def test_gcp_binds_each_namespace(plan: Plan) -> None:
    bindings = [
        r
        for r in of_type(plan, "gcp-usc1", "gcp:serviceaccount/iAMMember:IAMMember")
        if r["inputs"]["serviceAccountId"].endswith("/serviceAccounts/${gcp-usc1-workloads-sa.email}")
        and r["inputs"]["role"] == "roles/iam.workloadIdentityUser"
    ]
    assert [(r["name"], r["inputs"]["member"]) for r in bindings] == [
        (
            "gcp-usc1-workloads-workload-identity",
            "serviceAccount:my-gcp-project.svc.id.goog[anyscale-operator/anyscale-workloads]",
        ),
        (
            "gcp-usc1-workloads-workload-identity-ray-a",
            "serviceAccount:my-gcp-project.svc.id.goog[ray-a/anyscale-workloads]",
        ),
        (
            "gcp-usc1-workloads-workload-identity-ray-b",
            "serviceAccount:my-gcp-project.svc.id.goog[ray-b/anyscale-workloads]",
        ),
    ]


def test_generic_gets_no_federation(plan: Plan) -> None:
    for record in owned(plan, "onprem"):
        assert "ray-a" not in json.dumps(record["inputs"]) or record["type"].startswith("kubernetes:"), record["name"]


@pytest.mark.parametrize(
    ("resource", "provider"), [("default", "Azure"), ("aws-usw2", "AWS"), ("gcp-usc1", "GCP"), ("onprem", "Generic")]
)
def test_the_operator_chart_reads_the_namespaces_the_program_made_accounts_in(
    plan: Plan, render_cache: Path, resource: str, provider: str
) -> None:
    """The consumer: anyscale-operator 1.8.0, rendered with what the program sends it (the AKS
    extension's flat settings, `workloads.managedNamespaces[0]`, or a release's values), lists
    exactly the namespaces that got the account, and may act in them."""
    objects = rendered_operator(plan, resource, provider, render_cache)
    (listed,) = [
        o for o in objects if o["kind"] == "ConfigMap" and o["metadata"]["name"] == "anyscale-managed-namespaces"
    ]
    assert yaml.safe_load(listed["data"]["namespaces.yaml"]) == ["ray-a", "ray-b"]
    assert set(accounts(plan, resource)) == {"anyscale-operator", "ray-a", "ray-b"}
    assert [o for o in objects if o["kind"] == "ClusterRole"], "enableCrossNamespaceResourceManagement: no ClusterRole"
