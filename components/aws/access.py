"""EKS access entries: the IAM principals (people's roles, the CI role) that may use the
cluster besides the identity that created it, each with one EKS access policy."""

from __future__ import annotations

import hashlib

import pulumi
import pulumi_aws as aws

from components.scope import Scope
from config import AccessEntrySpec, AwsResource

# The EKS access policies (`aws eks list-access-policies`; EKS user guide, "Review access
# policy permissions"), named after the Kubernetes user-facing roles they mirror.
ACCESS_POLICY_ARN = "arn:aws:eks::aws:cluster-access-policy/{}"
ACCESS_POLICIES = {
    "cluster-admin": "AmazonEKSClusterAdminPolicy",
    "admin": "AmazonEKSAdminPolicy",
    "edit": "AmazonEKSEditPolicy",
    "view": "AmazonEKSViewPolicy",
}


def access_scope(entry: AccessEntrySpec) -> dict[str, object]:
    if entry.namespaces is None:
        return {"type": "cluster"}
    return {"type": "namespace", "namespaces": list(entry.namespaces)}


def entry_key(principal_arn: str) -> str:
    """A logical name part that stays with the principal, whatever the list's order
    (an index would re-create entries when one is removed from the middle)."""
    return hashlib.sha256(principal_arn.encode()).hexdigest()[:8]


def build_access_entries(scope: Scope, spec: AwsResource, cluster: aws.eks.Cluster) -> list[pulumi.Resource]:
    """One STANDARD access entry per principal and its policy association; the
    association waits for the entry (EKS: the principal must have an entry first)."""
    created: list[pulumi.Resource] = []
    for entry in spec.cluster.access_entries:
        name = f"{spec.name}-access-{entry_key(entry.principal_arn)}"
        access = aws.eks.AccessEntry(
            name,
            cluster_name=cluster.name,
            principal_arn=entry.principal_arn,
            type="STANDARD",
            opts=scope.opts(),
        )
        association = aws.eks.AccessPolicyAssociation(
            f"{name}-policy",
            cluster_name=cluster.name,
            principal_arn=access.principal_arn,
            policy_arn=ACCESS_POLICY_ARN.format(ACCESS_POLICIES[entry.policy]),
            access_scope=access_scope(entry),
            opts=scope.opts(),
        )
        created += [access, association]
    return created
