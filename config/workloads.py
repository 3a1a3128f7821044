"""Where Ray pods run and the service account they run as in each namespace.

The operator chart names one account for every Ray pod, whatever its namespace: a patch
setting `spec.serviceAccountName` to workloads.serviceAccount.name on every pod it creates
(anyscale-operator 1.8.0 templates/configmap_patches.yaml:15-25). It runs them in its own
namespace and in each of workloads.managedNamespaces, which the chart only lists in a
ConfigMap for the operator (templates/anyscale_managed_namespace.yaml:1-15): it creates no
Namespace, no account and no RBAC there, and the operator's rules never name `namespaces`
(templates/_rbac_rules.tpl:7-36), so it cannot create one either. Its rights outside its own
namespace come only from the ClusterRole, with workloads.enableCrossNamespaceResourceManagement
(templates/cluster_role.yaml:20-23; the Role is its namespace's only, templates/role.yaml:5).
So the program makes each managed Namespace and the account in it, and federates every
(namespace, account) subject to the workloads' cloud identity: this module lists them, once,
for every provider (components/azure/identity.py, aws/resource.py, gcp/identity.py,
addons/component.py), and holds the rules and the clouds' limits they must fit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from config.data import identity_limits as limits
from config.data.kuberay_charts import PLATFORM_NAMESPACES, SMOKE_NAMESPACE
from policy.rules.platform import OPERATOR_NAMESPACE, WORKLOAD_SERVICE_ACCOUNT

MANAGED_NAMESPACES_KEY = "workloads.managedNamespaces"
CROSS_NAMESPACE_KEY = "workloads.enableCrossNamespaceResourceManagement"
_ITEM = re.compile(re.escape(MANAGED_NAMESPACES_KEY) + r"\[(\d+)\]")
# A Namespace's name is an RFC 1123 label (kubernetes apimachinery pkg/api/validation
# ValidateNamespaceName = NameIsDNSLabel): at most 63 lower-case letters, digits and '-',
# starting and ending with a letter or digit.
NAMESPACE_RE = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")
STS_AUDIENCE = "sts.amazonaws.com"  # the audience of the tokens EKS projects for IRSA


@dataclass(frozen=True)
class WorkloadAccount:
    """One Kubernetes service account Ray pods run as."""

    namespace: str
    name: str = WORKLOAD_SERVICE_ACCOUNT

    @property
    def subject(self) -> str:
        """The `sub` of the tokens the cluster projects for it (what Azure's federated
        credential and AWS's trust condition name)."""
        return service_account_subject(self.namespace, self.name)


def service_account_subject(namespace: str, name: str) -> str:
    return f"system:serviceaccount:{namespace}:{name}"


def managed_namespaces(values: Mapping[str, Any]) -> list[str]:
    """workloads.managedNamespaces of the operator's values, flattened to Helm paths
    (`workloads.managedNamespaces[0]`, config/addons.py), in their order."""
    items = sorted((int(m.group(1)), v) for k, v in values.items() if (m := _ITEM.fullmatch(k)))
    return [str(v) for _, v in items]


def workload_accounts(namespaces: Sequence[str]) -> list[WorkloadAccount]:
    """The operator's own namespace first (the account the program always made), then each
    managed namespace."""
    return [WorkloadAccount(OPERATOR_NAMESPACE), *(WorkloadAccount(ns) for ns in namespaces)]


def namespace_problems(values: Mapping[str, Any]) -> list[tuple[tuple[str | int, ...], str]]:
    """(path under the values, message) for each managed namespace the program cannot make."""
    problems: list[tuple[tuple[str | int, ...], str]] = []
    seen: list[str] = []
    for key in sorted(values, key=lambda k: int(m.group(1)) if (m := _ITEM.fullmatch(k)) else -1):
        match = _ITEM.fullmatch(key)
        if match is None:
            continue
        where: tuple[str | int, ...] = ("workloads", "managedNamespaces", int(match.group(1)))
        name = values[key]
        if not isinstance(name, str) or not NAMESPACE_RE.fullmatch(name):
            problems.append(
                (
                    where,
                    f"{name!r} is not a Kubernetes namespace name: at most 63 lower-case letters, digits and '-', "
                    "starting and ending with a letter or digit",
                )
            )
        elif name == OPERATOR_NAMESPACE:
            problems.append(
                (
                    where,
                    f"'{name}' is the operator's own namespace, where Ray pods always run (with their account): "
                    "remove it from the list",
                )
            )
        elif name == "default" or name.startswith("kube-") or name in PLATFORM_NAMESPACES or name == SMOKE_NAMESPACE:
            problems.append(
                (
                    where,
                    f"'{name}' is a namespace Kubernetes or the platform owns (the program makes each managed "
                    "namespace and its service account): use a namespace of your own",
                )
            )
        elif name in seen:
            problems.append((where, f"'{name}' is listed twice: list each namespace once"))
        else:
            seen.append(name)
    return problems


def azure_credentials_problem(namespaces: Sequence[str]) -> str | None:
    """The workloads' identity has one federated credential per account: the operator
    namespace's, which it always had, and one per managed namespace."""
    wanted = len(workload_accounts(namespaces))
    cap = limits.AZURE_MAX_FEDERATED_CREDENTIALS
    if wanted <= cap:
        return None
    return (
        f"{len(namespaces)} managed namespaces need {wanted} federated identity credentials on the Ray pods' "
        f"identity (one per namespace, plus anyscale-operator's), and Azure allows at most {cap} per identity: "
        f"list at most {cap - 1} namespaces"
    )


def irsa_trust_policy(provider_arn: str, issuer: str, subjects: Sequence[str]) -> str:
    """Only these service accounts, with tokens meant for STS, may assume the role. One
    subject stays a string (the document roles have always had); several are a list, any
    of which matches (StringEquals with several values)."""
    host = issuer.removeprefix("https://")
    sub: str | list[str] = subjects[0] if len(subjects) == 1 else list(subjects)
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Effect": "Allow",
                    "Principal": {"Federated": provider_arn},
                    "Action": "sts:AssumeRoleWithWebIdentity",
                    "Condition": {"StringEquals": {f"{host}:sub": sub, f"{host}:aud": STS_AUDIENCE}},
                }
            ],
        }
    )


def trust_policy_length(region: str, namespaces: Sequence[str]) -> int:
    """The characters IAM counts (no white space) of the workloads' role trust policy on an
    EKS cluster in `region`: its issuer and account ID have fixed lengths
    (config/data/identity_limits.py), so the length is known before they are."""
    host = f"oidc.eks.{region}.amazonaws.com/id/{'0' * limits.EKS_ISSUER_ID_LENGTH}"
    arn = f"arn:aws:iam::{'0' * limits.AWS_ACCOUNT_ID_LENGTH}:oidc-provider/{host}"
    subjects = [a.subject for a in workload_accounts(namespaces)]
    document = irsa_trust_policy(arn, f"https://{host}", subjects)
    return len(re.sub(r"\s", "", document))


def aws_trust_problem(region: str, namespaces: Sequence[str]) -> str | None:
    length = trust_policy_length(region, namespaces)
    cap = limits.IAM_TRUST_POLICY_MAX_LENGTH
    if length <= cap:
        return None
    return (
        f"{len(namespaces)} managed namespaces make the Ray pods' IAM role trust policy {length} characters (one "
        f"subject per namespace), and IAM allows at most {cap} (the default quota is "
        f"{limits.IAM_TRUST_POLICY_DEFAULT_LENGTH}): list fewer or shorter namespaces"
    )


def aws_trust_advisory(region: str, namespaces: Sequence[str]) -> str | None:
    """Over the default quota but under the ceiling: it fits once the quota is raised."""
    length = trust_policy_length(region, namespaces)
    if limits.IAM_TRUST_POLICY_DEFAULT_LENGTH < length <= limits.IAM_TRUST_POLICY_MAX_LENGTH:
        return (
            f"the Ray pods' IAM role trust policy is {length} characters (one subject per managed namespace), over "
            f"IAM's default quota of {limits.IAM_TRUST_POLICY_DEFAULT_LENGTH}: raise the account's 'Role trust "
            f"policy length' quota (up to {limits.IAM_TRUST_POLICY_MAX_LENGTH}) before deploying, or list fewer "
            "namespaces"
        )
    return None


def cross_namespace_advisory(values: Mapping[str, Any]) -> str | None:
    """Managed namespaces without the ClusterRole's rights: the operator's Role is its own
    namespace's only (anyscale-operator 1.8.0 templates/role.yaml:5), so it could not copy
    secrets to, nor create pods in, the others (templates/cluster_role.yaml:20-23)."""
    if managed_namespaces(values) and values.get(CROSS_NAMESPACE_KEY) is not True:
        return (
            f"{MANAGED_NAMESPACES_KEY} is set without {CROSS_NAMESPACE_KEY}: true, so the operator has no rights in "
            "those namespaces (the chart grants them only through its ClusterRole); set it to true"
        )
    return None
