"""The EKS cluster (API access entries, the creator as bootstrap admin) and its kubeconfig."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_aws as aws

from components.aws.iam import CLUSTER_POLICIES, service_role
from components.aws.network import Network
from components.kube import exec_kubeconfig
from components.scope import Scope
from config import AwsResource
from config.names import eks_cluster_name


def kubeconfig(name: str, region: str, endpoint: str, ca_data: str) -> str:
    """A kubeconfig that gets tokens from the AWS CLI (no static credential)."""
    args = ["eks", "get-token", "--cluster-name", name, "--region", region, "--output", "json"]
    return exec_kubeconfig(name, endpoint, ca_data, {"command": "aws", "args": args, "interactiveMode": "Never"})


@dataclass(frozen=True)
class Cluster:
    cluster: aws.eks.Cluster
    attachments: list[aws.iam.RolePolicyAttachment]  # the cluster role's policies


def build_cluster(scope: Scope, spec: AwsResource, network: Network) -> Cluster:
    role = service_role(scope, spec.name, "cluster", "eks.amazonaws.com", CLUSTER_POLICIES)
    settings = spec.cluster
    cluster = aws.eks.Cluster(
        f"{spec.name}-eks",
        name=eks_cluster_name(scope.ctx.cloud_name, spec.name),
        version=settings.minor,  # EKS takes major.minor
        role_arn=role.role.arn,
        access_config={"authentication_mode": "API", "bootstrap_cluster_creator_admin_permissions": True},
        vpc_config={
            "subnet_ids": [*network.private_subnet_ids, *network.public_subnet_ids],
            "endpoint_public_access": settings.endpoint_public_access,
            # On: nodes reach the API server inside the VPC, whatever the public CIDRs.
            "endpoint_private_access": settings.endpoint_private_access,
            # Always sent while the endpoint is public: the field is computed, so leaving it
            # out after a restriction would keep the old CIDRs instead of EKS's default.
            # 0.0.0.0/0 is that default (the policy pack's eks-public-endpoint warns on it).
            **(
                {"public_access_cidrs": settings.endpoint_public_access_cidrs or ["0.0.0.0/0"]}
                if settings.endpoint_public_access
                else {}
            ),
        },
        opts=scope.guarded(depends_on=list(role.attachments)),
    )
    return Cluster(cluster, role.attachments)


def cluster_kubeconfig(spec: AwsResource, cluster: aws.eks.Cluster) -> pulumi.Output[str]:
    return pulumi.Output.secret(
        pulumi.Output.all(cluster.name, cluster.endpoint, cluster.certificate_authority.data).apply(
            lambda a: kubeconfig(a[0], spec.region, a[1], a[2])
        )
    )
