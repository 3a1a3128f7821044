"""workloads.managedNamespaces (config/workloads.py): the namespaces the program makes for
Ray pods besides the operator's, their rules and the clouds' limits they must fit. Model
tests only (load_spec on the example stack's values); the plan is in
tests/components/test_managed_namespaces.py."""

from __future__ import annotations

from typing import Any

from config import load_spec
from config.load import advisories
from config.workloads import WorkloadAccount, trust_policy_length
from tests.example_spec import example_cloud, example_resources, problems

PATH = "addons.anyscaleOperator.values.workloads"


def with_namespaces(index: int, namespaces: list[Any], cross: bool | None = True) -> list[dict[str, Any]]:
    resources = example_resources()
    workloads: dict[str, Any] = {"managedNamespaces": namespaces}
    if cross is not None:
        workloads["enableCrossNamespaceResourceManagement"] = cross
    resources[index].setdefault("addons", {})["anyscaleOperator"] = {"values": {"workloads": workloads}}
    return resources


def test_the_accounts_are_the_operators_namespace_then_each_managed_one() -> None:
    spec = load_spec(example_cloud(), with_namespaces(2, ["ray-a", "ray-b"]))
    gcp = spec.resources[2]
    assert gcp.addons.anyscale_operator.managed_namespaces == ["ray-a", "ray-b"]
    assert gcp.workload_accounts == [
        WorkloadAccount("anyscale-operator", "anyscale-workloads"),
        WorkloadAccount("ray-a", "anyscale-workloads"),
        WorkloadAccount("ray-b", "anyscale-workloads"),
    ]
    assert [a.subject for a in gcp.workload_accounts][1] == "system:serviceaccount:ray-a:anyscale-workloads"
    # None listed: the one account the program always made.
    assert spec.resources[0].workload_accounts == [WorkloadAccount("anyscale-operator")]


def test_names_the_program_cannot_make_are_refused_with_their_path() -> None:
    bad = ["ray-a", "Ray_A", "anyscale-operator", "ray-a", "kube-extra", "kuberay-system", "default", "x" * 64]
    assert problems(with_namespaces(0, bad)) == [
        f"resources[0].{PATH}.managedNamespaces[1] (default): 'Ray_A' is not a Kubernetes namespace name: at most 63 "
        "lower-case letters, digits and '-', starting and ending with a letter or digit",
        f"resources[0].{PATH}.managedNamespaces[2] (default): 'anyscale-operator' is the operator's own namespace, "
        "where Ray pods always run (with their account): remove it from the list",
        f"resources[0].{PATH}.managedNamespaces[3] (default): 'ray-a' is listed twice: list each namespace once",
        f"resources[0].{PATH}.managedNamespaces[4] (default): 'kube-extra' is a namespace Kubernetes or the platform "
        "owns (the program makes each managed namespace and its service account): use a namespace of your own",
        f"resources[0].{PATH}.managedNamespaces[5] (default): 'kuberay-system' is a namespace Kubernetes or the "
        "platform owns (the program makes each managed namespace and its service account): use a namespace of your own",
        f"resources[0].{PATH}.managedNamespaces[6] (default): 'default' is a namespace Kubernetes or the platform "
        "owns (the program makes each managed namespace and its service account): use a namespace of your own",
        f"resources[0].{PATH}.managedNamespaces[7] (default): '{'x' * 64}' is not a Kubernetes namespace name: at "
        "most 63 lower-case letters, digits and '-', starting and ending with a letter or digit",
    ]


def test_azure_takes_19_namespaces_beside_the_operators() -> None:
    # 20 federated identity credentials per user-assigned identity; the operator namespace's is one.
    load_spec(example_cloud(), with_namespaces(0, [f"ray-{i}" for i in range(19)]))
    assert problems(with_namespaces(0, [f"ray-{i}" for i in range(20)])) == [
        f"resources[0].{PATH}.managedNamespaces (default): 20 managed namespaces need 21 federated identity "
        "credentials on the Ray pods' identity (one per namespace, plus anyscale-operator's), and Azure allows at "
        "most 20 per identity: list at most 19 namespaces"
    ]


def test_the_aws_trust_policy_must_fit_iams_limit() -> None:
    # Characters without white space: 606 for one 63-character namespace in us-west-2; each
    # further one adds its subject (107 with quotes and comma).
    long = ["a" * 60 + f"{i:03d}" for i in range(40)]
    assert trust_policy_length("us-west-2", long[:1]) == 606
    assert trust_policy_length("us-west-2", long[:15]) == 2104
    assert trust_policy_length("us-west-2", long[:33]) == 4030
    load_spec(example_cloud(), with_namespaces(1, long[:33]))
    assert problems(with_namespaces(1, long[:34])) == [
        f"resources[1].{PATH}.managedNamespaces (aws-usw2): 34 managed namespaces make the Ray pods' IAM role trust "
        "policy 4137 characters (one subject per namespace), and IAM allows at most 4096 (the default quota is "
        "2048): list fewer or shorter namespaces"
    ]


def test_warnings_over_iams_default_quota_and_without_cross_namespace_rights() -> None:
    long = ["a" * 60 + f"{i:03d}" for i in range(15)]
    resources = with_namespaces(1, long)
    resources[2]["addons"] = {"anyscaleOperator": {"values": {"workloads": {"managedNamespaces": ["ray-a"]}}}}
    warnings = [str(p) for p in advisories(load_spec(example_cloud(), resources)) if "managedNamespaces" in str(p)]
    assert warnings == [
        f"resources[1].{PATH}.managedNamespaces (aws-usw2): the Ray pods' IAM role trust policy is 2104 characters "
        "(one subject per managed namespace), over IAM's default quota of 2048: raise the account's 'Role trust "
        "policy length' quota (up to 4096) before deploying, or list fewer namespaces",
        f"resources[2].{PATH}.managedNamespaces (gcp-usc1): workloads.managedNamespaces is set without "
        "workloads.enableCrossNamespaceResourceManagement: true, so the operator has no rights in those namespaces "
        "(the chart grants them only through its ClusterRole); set it to true",
    ]
