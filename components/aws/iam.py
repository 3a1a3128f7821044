"""IAM: service roles with managed policies, the cluster's OIDC provider, IRSA roles."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pulumi
import pulumi_aws as aws

from components.aws.policies import STS_AUDIENCE, assume_role_policy, irsa_trust_policy
from components.scope import Scope
from config.workloads import WorkloadAccount

# Every region in config/data/regions.py is in the `aws` partition.
MANAGED_POLICY = "arn:aws:iam::aws:policy/{}"
CLUSTER_POLICIES = ("AmazonEKSClusterPolicy",)
NODE_POLICIES = ("AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonEC2ContainerRegistryReadOnly")


def _issuer(identities: Sequence[aws.eks.outputs.ClusterIdentity]) -> str:
    """The cluster's OIDC issuer URL, which EKS always reports for a created cluster."""
    oidcs = identities[0].oidcs if identities else None
    issuer = oidcs[0].issuer if oidcs else None
    if not issuer:
        raise ValueError("EKS reported no OIDC issuer for the cluster")
    return str(issuer)


@dataclass(frozen=True)
class ServiceRole:
    role: aws.iam.Role
    attachments: list[aws.iam.RolePolicyAttachment]  # what uses the role waits for these


def service_role(scope: Scope, resource: str, kind: str, service: str, policies: tuple[str, ...]) -> ServiceRole:
    role = aws.iam.Role(f"{resource}-{kind}-role", assume_role_policy=assume_role_policy(service), opts=scope.opts())
    attachments = [
        aws.iam.RolePolicyAttachment(
            f"{resource}-{kind}-{policy}", role=role.name, policy_arn=MANAGED_POLICY.format(policy), opts=scope.opts()
        )
        for policy in policies
    ]
    return ServiceRole(role, attachments)


@dataclass(frozen=True)
class Irsa:
    """IAM roles for service accounts: the cluster's OIDC provider and its issuer."""

    scope: Scope
    oidc: aws.iam.OpenIdConnectProvider
    issuer: pulumi.Output[str]  # https://oidc.eks...

    @staticmethod
    def of(scope: Scope, resource: str, cluster: aws.eks.Cluster) -> Irsa:
        issuer = cluster.identities.apply(_issuer)
        oidc = aws.iam.OpenIdConnectProvider(
            f"{resource}-oidc",
            url=issuer,
            client_id_lists=[STS_AUDIENCE],
            # No thumbprint: IAM validates the EKS issuer against its own trusted CAs.
            opts=scope.opts(),
        )
        return Irsa(scope, oidc, issuer)

    def role(self, name: str, namespace: str, service_account: str, description: str) -> aws.iam.Role:
        """A role that only `namespace/service_account` of this cluster may assume."""
        return self.role_of(name, [WorkloadAccount(namespace, service_account)], description)

    def role_of(self, name: str, accounts: Sequence[WorkloadAccount], description: str) -> aws.iam.Role:
        """A role that only these service accounts of this cluster may assume (one `:sub`
        condition listing them; the spec checked that the document fits IAM's limit)."""
        subjects = [account.subject for account in accounts]
        return aws.iam.Role(
            name,
            assume_role_policy=pulumi.Output.all(self.oidc.arn, self.issuer).apply(
                lambda a: irsa_trust_policy(a[0], a[1], subjects)
            ),
            description=description,
            opts=self.scope.opts(),
        )
