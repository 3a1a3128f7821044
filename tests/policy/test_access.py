"""Who may do what (policy/catalog/access.py): Azure role assignments, principal and client
IDs, federated credentials, AWS permissions and trust policies, GCP project roles and
workload identity, the container registry, and secrets in clear. Every policy is called
directly on records of the multicloud plan, compliant as recorded and changed to violate it.
CASES holds each policy's row (settings, planted violations: tests/policy/cases.py)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from pulumi_policy import ResourceValidationArgs
from pulumi_policy.proxy import UNKNOWN_BOOLEAN_VALUE

from preflight import policy as runner
from tests.policy.helpers import (
    OWNER,
    POLICIES,
    Plant,
    PolicyCase,
    changed,
    doc,
    one,
    props,
    real_engine_options,
    record,
    retype,
    retyped,
    set_at,
    validate,
    violations,
)

KUBECONFIG = "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: 'https://k8s.example.com'}\nusers:\n- name: u\n  user: {token: abc}\n"
JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2lnbmF0dXJl"
ROLE_DEFINITIONS = "/subscriptions/s/providers/Microsoft.Authorization/roleDefinitions"


def _grant_owner(rec: dict[str, Any]) -> None:
    """The same role assignment, granting Owner instead."""
    rec["inputs"]["roleDefinitionId"] = rec["inputs"]["roleDefinitionId"].rsplit("/", 1)[0] + "/" + OWNER


def _untrust(rec: dict[str, Any]) -> None:
    trust = json.loads(rec["inputs"]["assumeRolePolicy"])
    del trust["Statement"][0]["Condition"]
    rec["inputs"]["assumeRolePolicy"] = json.dumps(trust)


CASES = [
    PolicyCase(
        "identity-role-assignments",
        # Azure built-in roles (learn.microsoft.com/azure/role-based-access-control/built-in-roles), platform.md 3.
        config_default={
            "forbiddenRoles": {
                OWNER: "Owner",
                "b24988ac-6180-42a0-ab88-20f7382dd24c": "Contributor",
                "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9": "User Access Administrator",
                "f58310d9-a9f6-439a-9e8d-f62e7b41a168": "Role Based Access Control Administrator",
                "17d1049b-9a84-46fb-8f53-869881c3d3ab": "Storage Account Contributor",
            }
        },
        violate=lambda plan: changed(plan, "default-operator-storage", _grant_owner),
        allow={"forbiddenRoles": {}},
        planted=(
            Plant(
                "default-operator-storage",
                set_at(("inputs", "roleDefinitionId"), f"{ROLE_DEFINITIONS}/{OWNER}"),
                "narrowest role",
            ),
            Plant(
                "default-kubelet-acrpull",
                set_at(("inputs", "scope"), "/subscriptions/${azure.subscriptionId}"),
                "scope it to the one resource",
            ),
            Plant(
                "default-operator-storage",
                set_at(("inputs", "scope"), "/subscriptions/${azure.subscriptionId}/resourceGroups/rg-ml-platform-dev"),
                "a whole resource group",
            ),
            Plant(
                "default-operator-acrpush",
                set_at(("inputs", "roleDefinitionId"), f"{ROLE_DEFINITIONS}/f58310d9-a9f6-439a-9e8d-f62e7b41a168"),
                "Role Based Access Control Administrator",
            ),
        ),
    ),
    PolicyCase(
        "identity-principal-vs-client",
        planted=(
            Plant(
                "default-registration",
                set_at(
                    ("inputs", "properties", "anyscaleOperatorIamIdentity"), "${default-operator-identity.clientId}"
                ),
                "identity.principal_id",
            ),
        ),
    ),
    PolicyCase(
        "identity-federated-subject",
        planted=(
            Plant(
                "default-operator-federation",
                set_at(("inputs", "subject"), "system:serviceaccount:default:default"),
                "system:serviceaccount:anyscale-operator:anyscale-operator",
            ),
        ),
    ),
    PolicyCase(
        "identity-aws-policies",
        planted=(
            Plant(
                "aws-usw2-operator-s3",
                set_at(("inputs", "policy"), doc({"Effect": "Allow", "Action": "s3:*", "Resource": "*"})),
                "list the actions",
            ),
            Plant(
                "aws-usw2-operator",
                set_at(("inputs", "managedPolicyArns"), ["arn:aws:iam::aws:policy/AdministratorAccess"]),
                "AdministratorAccess",
            ),
        ),
    ),
    PolicyCase("identity-aws-trust", planted=(Plant("aws-usw2-operator", _untrust, "no ':sub' condition"),)),
    PolicyCase(
        "identity-gcp-project-roles",
        planted=(
            Plant(
                "gcp-usc1-operator-storage-objects",
                retype(
                    "gcp:projects/iAMMember:IAMMember",
                    {
                        "project": "my-gcp-project",
                        "role": "roles/owner",
                        "member": "serviceAccount:${gcp-usc1-operator-sa.email}",
                    },
                ),
                "on the whole project",
            ),
        ),
    ),
    PolicyCase(
        "identity-gcp-workload-identity",
        planted=(
            Plant(
                "gcp-usc1-operator-workload-identity",
                set_at(("inputs", "member"), "serviceAccount:my-gcp-project.svc.id.goog[default/default]"),
                "[anyscale-operator/anyscale-operator]",
            ),
        ),
    ),
    PolicyCase(
        "registry-private",
        planted=(
            Plant(
                "ml-platform-dev-registry",
                set_at(("inputs", "anonymousPullEnabled"), True),
                "anonymous_pull_enabled=False",
            ),
        ),
    ),
    PolicyCase(
        "secrets-not-in-clear",
        planted=(
            Plant(
                "default-k8s", set_at(("inputs", "kubeconfig"), KUBECONFIG), "kubeconfig holds a kubeconfig in clear"
            ),
            Plant(
                "onprem-anyscale-operator",
                set_at(("inputs", "values", "global", "auth", "anyscaleCliToken"), JWT),
                "a token (JWT) in clear",
            ),
        ),
    ),
]


# --- Azure role assignments ------------------------------------------------------------------------


ROLE_ASSIGNMENTS = [
    "default-operator-acrpush",
    "default-operator-acrtasks",
    "default-kubelet-acrpull",
    "default-operator-storage",
]


@pytest.mark.parametrize("name", ROLE_ASSIGNMENTS)
def test_role_assignments_compliant(plan, name):
    assert validate("identity-role-assignments", record(plan, name)) == []


@pytest.mark.parametrize(
    "role, name",
    [
        (OWNER, "Owner"),
        ("b24988ac-6180-42a0-ab88-20f7382dd24c", "Contributor"),
        ("18D7D88D-D35E-4FB5-A5C3-7773C20A72D9", "User Access Administrator"),
        ("f58310d9-a9f6-439a-9e8d-f62e7b41a168", "Role Based Access Control Administrator"),
        ("17d1049b-9a84-46fb-8f53-869881c3d3ab", "Storage Account Contributor"),
    ],
)
def test_role_assignments_no_broad_roles(plan, role, name):
    rec = copy.deepcopy(record(plan, "default-operator-storage"))
    rec["inputs"]["roleDefinitionId"] = (
        f"/subscriptions/${{azure.subscriptionId}}/providers/Microsoft.Authorization/roleDefinitions/{role}"
    )
    one(validate("identity-role-assignments", rec), f"built-in role {name}", "narrowest role")


@pytest.mark.parametrize(
    "scope",
    [
        "/subscriptions/${azure.subscriptionId}",
        "/subscriptions/0000-1111/",
        "/providers/Microsoft.Management/managementGroups/root",
    ],
)
def test_role_assignments_not_at_subscription_scope(plan, scope):
    rec = copy.deepcopy(record(plan, "default-operator-storage"))
    rec["inputs"]["scope"] = scope
    one(validate("identity-role-assignments", rec), "whole subscription", "scope it to the one resource")


@pytest.mark.parametrize(
    "scope",
    [
        "/subscriptions/0000/resourceGroups/rg-ml-platform-dev",
        "/subscriptions/${azure.subscriptionId}/resourceGroups/rg/",
    ],
)
def test_role_assignments_not_at_resource_group_scope(plan, scope):
    rec = copy.deepcopy(record(plan, "default-operator-storage"))
    rec["inputs"]["scope"] = scope
    one(validate("identity-role-assignments", rec), "a whole resource group", "scope it to the one resource")


@pytest.mark.parametrize(
    "scope",
    [
        "${default-storage.id}",
        "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/acct",
        "/subscriptions/0000/resourceGroups/${rg.name}/providers/Microsoft.ContainerRegistry/registries/reg",
    ],
)
def test_role_assignments_resource_scope_is_fine(plan, scope):
    rec = copy.deepcopy(record(plan, "default-operator-storage"))
    rec["inputs"]["scope"] = scope
    assert validate("identity-role-assignments", rec) == []


def test_role_assignments_forbidden_roles_are_configurable(plan):
    blob = "ba92f5b4-2d11-453d-a403-e96b0029c9fe"
    config = {"forbiddenRoles": {blob: "Storage Blob Data Contributor"}}
    one(
        validate("identity-role-assignments", record(plan, "default-operator-storage"), config),
        "Storage Blob Data Contributor",
    )


# --- Azure identities --------------------------------------------------------------------------------


def test_principal_vs_client(plan):
    for name in ("default-registration", "default-operator-extension", "default-operator-storage"):
        assert validate("identity-principal-vs-client", record(plan, name)) == [], name
    reg = copy.deepcopy(record(plan, "default-registration"))
    props(reg)["anyscaleOperatorIamIdentity"] = "${default-operator-identity.clientId}"
    one(validate("identity-principal-vs-client", reg), "use identity.principal_id")
    ext = copy.deepcopy(record(plan, "default-operator-extension"))
    ext["inputs"]["configurationSettings"]["global.auth.iamIdentity"] = "${default-operator-identity.principalId}"
    one(validate("identity-principal-vs-client", ext), "use identity.client_id")
    grant = copy.deepcopy(record(plan, "default-operator-storage"))
    grant["inputs"]["principalId"] = "${default-operator-identity.clientId}"
    one(validate("identity-principal-vs-client", grant), "principal_id")


def test_federated_subject(plan):
    rec = record(plan, "default-operator-federation")
    assert validate("identity-federated-subject", rec) == []
    # The Ray pods' identity trusts their own account (components/azure/identity.py).
    workloads = record(plan, "default-workload-federation")
    assert workloads["inputs"]["subject"] == "system:serviceaccount:anyscale-operator:anyscale-workloads"
    assert validate("identity-federated-subject", workloads) == []
    # And in a managed namespace (workloads.managedNamespaces): its account there, one credential each.
    managed = copy.deepcopy(workloads)
    managed["inputs"]["subject"] = "system:serviceaccount:ray-a:anyscale-workloads"
    assert validate("identity-federated-subject", managed) == []
    for subject in (
        "system:serviceaccount:default:default",
        "system:serviceaccount:anyscale-operator:*",
        "",
        "system:serviceaccount:ray-a:default",  # another account of a managed namespace
        "system:serviceaccount:ray-a:anyscale-operator",  # the operator's name, elsewhere
        "system:serviceaccount:*:anyscale-workloads",
        "system:serviceaccount:Ray_A:anyscale-workloads",  # not a namespace name
    ):
        bad = copy.deepcopy(rec)
        bad["inputs"]["subject"] = subject
        one(
            validate("identity-federated-subject", bad),
            repr(subject),
            "system:serviceaccount:anyscale-operator:anyscale-operator",
        )
    bad = copy.deepcopy(rec)
    bad["inputs"]["audiences"] = ["api://AzureADTokenExchange", "https://evil.example.com"]
    one(validate("identity-federated-subject", bad), "audiences", "api://AzureADTokenExchange")
    unknown = copy.deepcopy(rec)
    unknown["inputs"]["subject"] = "system:serviceaccount:${ns.name}:anyscale-operator"
    assert validate("identity-federated-subject", unknown) == []


# --- AWS permissions and trust -----------------------------------------------------------------------


def test_aws_policies_compliant(plan):
    for name in ("aws-usw2-operator-s3", "aws-usw2-operator"):
        assert validate("identity-aws-policies", record(plan, name)) == [], name


@pytest.mark.parametrize("action, shown", [("*", "'*'"), ("s3:*", "'s3:*'"), (["s3:GetObject", "iam:*"], "'iam:*'")])
def test_aws_policies_wildcard_actions(plan, action, shown):
    rec = copy.deepcopy(record(plan, "aws-usw2-operator-s3"))
    rec["inputs"]["policy"] = doc({"Effect": "Allow", "Action": action, "Resource": "*"})
    one(validate("identity-aws-policies", rec), f"allows {shown}", "list the actions")
    rec["inputs"]["policy"] = doc({"Effect": "Deny", "Action": action, "Resource": "*"})
    assert validate("identity-aws-policies", rec) == []
    role = copy.deepcopy(record(plan, "aws-usw2-operator"))
    role["inputs"]["inlinePolicies"] = [
        {"name": "extra", "policy": doc({"Effect": "Allow", "Action": action, "Resource": "*"})}
    ]
    one(validate("identity-aws-policies", role), "inline policy 'extra'", shown)


@pytest.mark.parametrize(
    "arn", ["arn:aws:iam::aws:policy/AdministratorAccess", "arn:aws-us-gov:iam::aws:policy/IAMFullAccess"]
)
def test_aws_policies_broad_managed_policies(plan, arn):
    attachment = retyped(
        record(plan, "aws-usw2-operator"),
        "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
        {"policyArn": arn, "role": "${aws-usw2-operator.name}"},
    )
    one(validate("identity-aws-policies", attachment), f"attaches {arn}")
    role = copy.deepcopy(record(plan, "aws-usw2-operator"))
    role["inputs"]["managedPolicyArns"] = ["arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess", arn]
    one(validate("identity-aws-policies", role), f"attaches {arn}")
    attachment["inputs"]["policyArn"] = "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy"
    assert validate("identity-aws-policies", attachment) == []


def _trust(rec: dict[str, Any]) -> dict[str, Any]:
    return json.loads(rec["inputs"]["assumeRolePolicy"])  # type: ignore[no-any-return]


def _with_trust(rec: dict[str, Any], trust: dict[str, Any]) -> dict[str, Any]:
    rec = copy.deepcopy(rec)
    rec["inputs"]["assumeRolePolicy"] = json.dumps(trust)
    return rec


def test_aws_trust_compliant(plan):
    operator = record(plan, "aws-usw2-operator")
    assert validate("identity-aws-trust", operator) == []
    service = _with_trust(
        operator,
        {"Statement": [{"Effect": "Allow", "Principal": {"Service": "eks.amazonaws.com"}, "Action": "sts:AssumeRole"}]},
    )
    assert validate("identity-aws-trust", service) == []
    unknown = copy.deepcopy(operator)
    unknown["inputs"]["assumeRolePolicy"] = "${aws-usw2-trust.json}"
    assert validate("identity-aws-trust", unknown) == []


def test_aws_trust_violations(plan):
    operator = record(plan, "aws-usw2-operator")
    trust = _trust(operator)
    conditions = trust["Statement"][0]["Condition"]["StringEquals"]
    sub = next(k for k in conditions if k.endswith(":sub"))
    assert conditions[sub] == "system:serviceaccount:anyscale-operator:anyscale-operator"  # the real one

    no_condition = copy.deepcopy(trust)
    del no_condition["Statement"][0]["Condition"]
    one(validate("identity-aws-trust", _with_trust(operator, no_condition)), "no ':sub' condition", "any pod")

    audience_only = copy.deepcopy(trust)
    del audience_only["Statement"][0]["Condition"]["StringEquals"][sub]
    one(validate("identity-aws-trust", _with_trust(operator, audience_only)), "no ':sub' condition")

    wildcard = copy.deepcopy(trust)
    wildcard["Statement"][0]["Condition"] = {"StringLike": {sub: "system:serviceaccount:*"}}
    one(validate("identity-aws-trust", _with_trust(operator, wildcard)), "'system:serviceaccount:*'", "wildcard")

    for principal in ("*", {"AWS": "*"}, {"Federated": "*"}):
        anyone = copy.deepcopy(trust)
        anyone["Statement"][0]["Principal"] = principal
        one(validate("identity-aws-trust", _with_trust(operator, anyone)), "any principal ('*')")


# --- GCP roles and workload identity -----------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, inputs",
    [
        (
            "gcp:projects/iAMMember:IAMMember",
            {"project": "p", "role": "roles/owner", "member": "serviceAccount:${sa.email}"},
        ),
        (
            "gcp:projects/iAMBinding:IAMBinding",
            {"project": "p", "role": "roles/editor", "members": ["serviceAccount:${sa.email}"]},
        ),
        (
            "gcp:projects/iAMPolicy:IAMPolicy",
            {
                "project": "p",
                "policyData": json.dumps({"bindings": [{"role": "roles/owner", "members": ["user:a@example.com"]}]}),
            },
        ),
    ],
)
def test_gcp_project_roles(plan, kind, inputs):
    rec = retyped(record(plan, "gcp-usc1-operator-storage-objects"), kind, inputs)
    one(validate("identity-gcp-project-roles", rec), "on the whole project", "grant a narrow role")
    narrow = json.loads(
        json.dumps(inputs)
        .replace("roles/owner", "roles/logging.logWriter")
        .replace("roles/editor", "roles/logging.logWriter")
    )
    assert validate("identity-gcp-project-roles", retyped(rec, kind, narrow)) == []


def test_gcp_project_roles_ignore_bucket_grants(plan):
    rec = copy.deepcopy(record(plan, "gcp-usc1-operator-storage-objects"))
    rec["inputs"]["role"] = "roles/owner"  # a bucket-level grant: not this policy's concern
    assert validate("identity-gcp-project-roles", rec) == []


@pytest.mark.parametrize(
    "member",
    [
        "serviceAccount:my-gcp-project.svc.id.goog[default/default]",
        "serviceAccount:my-gcp-project.svc.id.goog[anyscale-operator/other]",
        "serviceAccount:my-gcp-project.svc.id.goog[ray-a/default]",
        "serviceAccount:my-gcp-project.svc.id.goog[ray-a/anyscale-operator]",
        "serviceAccount:my-gcp-project.svc.id.goog[*/anyscale-workloads]",
        "serviceAccount:ci@my-gcp-project.iam.gserviceaccount.com",
        "allAuthenticatedUsers",
    ],
)
def test_gcp_workload_identity_violations(plan, member):
    rec = copy.deepcopy(record(plan, "gcp-usc1-operator-workload-identity"))
    rec["inputs"]["member"] = member
    one(validate("identity-gcp-workload-identity", rec), repr(member), "[anyscale-operator/anyscale-operator]")
    binding = retyped(
        rec,
        "gcp:serviceaccount/iAMBinding:IAMBinding",
        {"role": "roles/iam.workloadIdentityUser", "serviceAccountId": "x", "members": [member]},
    )
    one(validate("identity-gcp-workload-identity", binding), repr(member))


@pytest.mark.parametrize(
    "member",
    [
        "serviceAccount:my-gcp-project.svc.id.goog[anyscale-operator/anyscale-operator]",
        "serviceAccount:${gcp-usc1-operator-sa.project}.svc.id.goog[anyscale-operator/anyscale-operator]",
        "serviceAccount:my-gcp-project.svc.id.goog[anyscale-operator/anyscale-workloads]",
        "serviceAccount:my-gcp-project.svc.id.goog[ray-a/anyscale-workloads]",
        "${some.member}",
    ],
)
def test_gcp_workload_identity_compliant(plan, member):
    rec = copy.deepcopy(record(plan, "gcp-usc1-operator-workload-identity"))
    rec["inputs"]["member"] = member
    assert validate("identity-gcp-workload-identity", rec) == []
    rec["inputs"].update(role="roles/iam.serviceAccountUser", member="user:a@example.com")
    assert validate("identity-gcp-workload-identity", rec) == []  # another role: not this policy's concern


# --- the registry and secrets ------------------------------------------------------------------------


def test_registry_private(plan):
    assert validate("registry-private", record(plan, "ml-platform-dev-registry")) == []
    rec = copy.deepcopy(record(plan, "ml-platform-dev-registry"))
    del rec["inputs"]["adminUserEnabled"], rec["inputs"]["anonymousPullEnabled"]
    assert validate("registry-private", rec) == []  # both default to off
    for key, fix in [
        ("adminUserEnabled", "admin_user_enabled=False"),
        ("anonymousPullEnabled", "anonymous_pull_enabled=False"),
    ]:
        rec = copy.deepcopy(record(plan, "ml-platform-dev-registry"))
        rec["inputs"][key] = True
        one(validate("registry-private", rec), f"{key} is true", fix)
        rec["inputs"][key] = UNKNOWN_BOOLEAN_VALUE
        assert validate("registry-private", rec) == []


def test_secrets_in_clear_compliant(plan):
    for rec in plan["resources"]:
        assert validate("secrets-not-in-clear", rec) == [], rec["name"]


@pytest.mark.parametrize(
    "name, path, value, where, what",
    [
        ("default-k8s", ("kubeconfig",), KUBECONFIG, "kubeconfig", "a kubeconfig"),
        (
            "default-k8s",
            ("kubeconfig",),
            json.dumps({"apiVersion": "v1", "kind": "Config"}),
            "kubeconfig",
            "a kubeconfig",
        ),
        ("default-k8s", ("kubeconfig",), "plain-text-token", "kubeconfig", "a credential"),
        (
            "onprem-anyscale-operator",
            ("values", "global", "auth", "anyscaleCliToken"),
            "aph0_secret",
            "values.global.auth.anyscaleCliToken",
            "a credential",
        ),
        (
            "default-operator-extension",
            ("configurationProtectedSettings",),
            {"global.auth.anyscaleCliToken": "aph0_x"},
            "configurationProtectedSettings.global.auth.anyscaleCliToken",
            "a credential",
        ),
        ("default-storage", ("tags",), {"note": JWT}, "tags.note", "a token (JWT)"),
        ("default-envoy-gateway", ("values",), {"config": {"kube": KUBECONFIG}}, "values.config.kube", "a kubeconfig"),
    ],
)
def test_secrets_in_clear(plan, name, path, value, where, what):
    rec = copy.deepcopy(record(plan, name))
    node = rec["inputs"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    messages = validate("secrets-not-in-clear", rec)
    one(messages, f"{where} holds {what} in clear", "Pulumi secret")
    assert "abc" not in messages[0] and "aph0" not in messages[0] and "eyJ" not in messages[0]  # never echoed
    args = ResourceValidationArgs(
        rec["type"], runner.props_of(rec), rec["urn"], rec["name"], real_engine_options(None), None
    )
    # A real engine hands secrets over in plain: offline only.
    assert violations(POLICIES["secrets-not-in-clear"], args) == []
