"""Tests written for mutants of policy/rules/*.py that `make mutate` found alive (README,
"Mutation testing").

The pack builds its policies when it is imported: `aks._on_clusters`, `eks._resource_check`,
`eks._stack_check` and `gke._policy` wrap each check into the callback CrossGuard calls. The
policy tests go through policies built once, so a fault inside those wrappers (a message
reported against the wrong URN, a type filter dropped) showed only on a fresh import. These
tests build policies with the wrappers themselves. Modules are imported as the pack imports
them (`rules.x`, policy/ on sys.path), through preflight's runner; resource types are literals."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from pulumi_policy import EnforcementLevel

from preflight import policy as runner

aks = runner.pack_module("rules.aks")
eks = runner.pack_module("rules.eks")
gke = runner.pack_module("rules.gke")
values = runner.pack_module("rules.values")


def reported(validate: Callable[[Any, Any], None], **args: Any) -> list[tuple[str, str | None]]:
    found: list[tuple[str, str | None]] = []
    validate(SimpleNamespace(**args), lambda message, urn: found.append((message, urn)))
    return found


def check(props: Any) -> list[str]:
    return [f"first {props['x']}", "second"]


def test_aks_wrapper_reports_every_message_of_a_managed_cluster_and_nothing_else() -> None:
    validate = aks._on_clusters(check)
    expected = [("first 1", None), ("second", None)]
    assert reported(validate, resource_type="azure-native:containerservice:ManagedCluster", props={"x": 1}) == expected
    # azure-native's API-version modules are the same type.
    assert (
        reported(validate, resource_type="azure-native:containerservice/v20250801:ManagedCluster", props={"x": 1})
        == expected
    )
    assert reported(validate, resource_type="azure-native:containerservice:AgentPool", props={"x": 1}) == []


def test_eks_resource_wrapper_filters_by_the_type_it_was_given() -> None:
    validate = eks._resource_check(check, "aws:eks/cluster:Cluster")
    assert reported(validate, resource_type="aws:eks/cluster:Cluster", props={"x": 2}) == [
        ("first 2", None),
        ("second", None),
    ]
    assert reported(validate, resource_type="aws:eks/nodeGroup:NodeGroup", props={"x": 2}) == []


def test_eks_stack_wrapper_reports_each_finding_against_its_resource() -> None:
    def findings(resources: list[Any]) -> list[tuple[str, str]]:
        return [(f"urn:{r}", f"bad {r}") for r in resources]

    validate = eks._stack_check(findings)
    assert reported(validate, resources=("a", "b")) == [("bad a", "urn:a"), ("bad b", "urn:b")]


def test_gke_policy_factory_keeps_name_description_level_and_reports_the_check() -> None:
    def by_type(kind: str, props: Any) -> list[str]:
        return [f"{kind} {props['x']}"]

    policy = gke._policy("gke-test", "what it checks", EnforcementLevel.MANDATORY, by_type)
    assert (policy.name, policy.description, policy.enforcement_level) == (
        "gke-test",
        "what it checks",
        EnforcementLevel.MANDATORY,
    )
    validate = policy._ResourceValidationPolicy__validate
    assert reported(validate, resource_type="gcp:container/cluster:Cluster", props={"x": 3}) == [
        ("gcp:container/cluster:Cluster 3", None)
    ]


def test_value_markers_print_their_name() -> None:
    # Messages about values that are not known yet name the marker.
    assert repr(values._Marker("UNKNOWN")) == "UNKNOWN"
    assert repr(values.MISSING) == "MISSING"


# --- second round (make mutate over policy/rules, 2026-11-30): branches no plan record reaches --

aws_iam = runner.pack_module("rules.aws_iam")
WEB_IDENTITY = "sts:AssumeRoleWithWebIdentity"
SUB = "oidc.eks.us-west-2.amazonaws.com/id/ABC:sub"
OPERATOR_SA = "system:serviceaccount:anyscale-operator:anyscale-operator"


def policy(*statements: dict[str, Any]) -> dict[str, str]:
    import json

    return {"policy": json.dumps({"Version": "2012-10-17", "Statement": list(statements)})}


def test_a_public_statement_without_actions_is_reported_as_access() -> None:
    public = {"Effect": "Allow", "Principal": "*", "Resource": "arn:aws:s3:::b/*"}
    assert aws_iam.bucket_policy_problems(policy(public)) == [
        "the bucket policy allows access to everyone (Principal '*', no Condition): the bucket holds users' logs and "
        "snapshots; grant the operator's role instead"
    ]
    named = {**public, "Action": ["s3:GetObject", "s3:ListBucket"]}
    assert aws_iam.bucket_policy_problems(policy(named))[0].startswith(
        "the bucket policy allows 's3:GetObject', 's3:ListBucket' to everyone"
    )


def trust(*statements: dict[str, Any]) -> list[str]:
    import json

    doc = {"Version": "2012-10-17", "Statement": list(statements)}
    return aws_iam.trust_problems({"assumeRolePolicy": json.dumps(doc)})


def web_identity(*subjects: str) -> dict[str, Any]:
    return {
        "Effect": "Allow",
        "Principal": {"Federated": "arn:aws:iam::111122223333:oidc-provider/oidc.eks"},
        "Action": WEB_IDENTITY,
        "Condition": {"StringLike": {SUB: list(subjects)}},
    }


def test_every_web_identity_statement_is_checked_after_a_deny() -> None:
    deny = {"Effect": "Deny", "Principal": "*", "Action": "sts:AssumeRole"}
    wild = "the web-identity trust's ':sub' condition is 'system:serviceaccount:*:*': a wildcard lets other service "
    # A Deny first must not end the walk; two loose statements are two problems.
    assert (
        trust(deny, web_identity("system:serviceaccount:*:*"), web_identity("system:serviceaccount:*:*"))
        == [wild + "accounts assume the role; name the one service account (StringEquals)"] * 2
    )
    assert trust(deny, web_identity(OPERATOR_SA)) == []


def test_two_wildcard_subjects_are_both_named() -> None:
    assert trust(web_identity("system:serviceaccount:a:*", "system:serviceaccount:*:b")) == [
        "the web-identity trust's ':sub' condition is 'system:serviceaccount:a:*', 'system:serviceaccount:*:b': a "
        "wildcard lets other service accounts assume the role; name the one service account (StringEquals)"
    ]


def tls_statement(**changes: Any) -> dict[str, Any]:
    return {
        "Effect": "Deny",
        "Principal": "*",
        "Action": "s3:*",
        "Condition": {"Bool": {"aws:SecureTransport": "false"}},
        **changes,
    }


def test_a_tls_only_statement_is_found_after_others_and_only_when_it_is_one() -> None:
    allow = {"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::111122223333:role/x"}, "Action": "s3:GetObject"}
    assert eks.denies_insecure_transport({"Statement": [allow, tls_statement()]}) is True
    # Denying one principal, not everyone, is not TLS-only.
    assert eks.denies_insecure_transport({"Statement": [tls_statement(Principal={"AWS": "arn:x"})]}) is False
    # A Condition or a Bool that is not a map (a malformed document) is no TLS rule, and no crash.
    assert eks.denies_insecure_transport({"Statement": [tls_statement(Condition=["Bool"])]}) is False
    assert eks.denies_insecure_transport({"Statement": [tls_statement(Condition={"Bool": "false"})]}) is False
    assert eks.denies_insecure_transport({"Statement": [tls_statement(Condition={"Bool": {}})]}) is False


def test_a_node_pool_with_its_own_service_account_passes() -> None:
    default = (
        "the pool's nodes run as the Compute Engine default service account (Editor on the project in many "
        "projects): a compromised node gets all of it; give nodeConfig.serviceAccount a service account of their own"
    )
    pool = "gcp:container/nodePool:NodePool"
    own = {"nodeConfig": {"serviceAccount": "anyscale-nodes@my-project.iam.gserviceaccount.com"}}
    assert gke.node_account_problems(pool, own) == []
    assert gke.node_account_problems(pool, {"nodeConfig": {}}) == [default]
    compute = {"nodeConfig": {"serviceAccount": "123456789012-compute@developer.gserviceaccount.com"}}
    assert gke.node_account_problems(pool, compute) == [default]
    assert gke.node_account_problems(pool, {"nodeConfig": {"serviceAccount": "${sa.email}"}}) == []


def entry(**changes: Any) -> SimpleNamespace:
    base = {"props": {"type": "STANDARD"}, "urn": "urn:entry", "dependencies": [], "property_dependencies": {}}
    return SimpleNamespace(**{**base, **changes})


def test_an_access_entry_belongs_to_the_cluster_it_depends_on_or_names() -> None:
    cluster = SimpleNamespace(urn="urn:cluster", props={"name": "ml-eks"})
    other = SimpleNamespace(urn="urn:other")
    assert eks._may_belong(entry(dependencies=[other, cluster]), cluster) is True
    assert eks._may_belong(entry(property_dependencies={"clusterName": [other, cluster]}), cluster) is True
    assert eks._may_belong(entry(property_dependencies={"clusterName": [other]}), cluster) is False
    assert eks._may_belong(entry(props={"type": "STANDARD", "clusterName": "ml-eks"}), cluster) is True
    assert eks._may_belong(entry(props={"type": "STANDARD", "clusterName": "other-eks"}), cluster) is False
    assert eks._may_belong(entry(props={"type": "EC2_LINUX", "clusterName": "ml-eks"}), cluster) is False
    assert eks._may_belong(entry(dependencies=None, property_dependencies=None), cluster) is False
