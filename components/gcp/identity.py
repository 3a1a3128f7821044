"""The operator's service account, bound to its Kubernetes service account (Workload
Identity) and allowed to sign blobs as itself; and the nodes' own service account."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_gcp as gcp

from components.cloud_args import known
from components.gcp.names import workload_identity_member
from components.scope import Scope
from config import GcpResource
from config.names import gcp_account_id, gcp_display_name
from config.names import gke_node_account_id as node_account_id

WORKLOAD_IDENTITY_ROLE = "roles/iam.workloadIdentityUser"
# The operator signs GCS URLs (the console reads logs through them) without a key: the
# IAM signBlob call, which needs this role on the account itself.
TOKEN_CREATOR_ROLE = "roles/iam.serviceAccountTokenCreator"
# GKE's least-privilege role for node service accounts (logging, monitoring, metadata,
# autoscaling metrics; it replaces logWriter + metricWriter + monitoring.viewer), and
# image pulls from the project's Artifact Registry. Workloads use Workload Identity.
# https://cloud.google.com/kubernetes-engine/docs/how-to/service-accounts (configure node service accounts)
NODE_ROLES = {
    "node": "roles/container.defaultNodeServiceAccount",
    "images": "roles/artifactregistry.reader",
}


@dataclass(frozen=True)
class OperatorAccount:
    account: gcp.serviceaccount.Account
    workload_identity: gcp.serviceaccount.IAMMember
    token_creator: gcp.serviceaccount.IAMMember

    @property
    def member(self) -> pulumi.Output[str]:
        return pulumi.Output.concat("serviceAccount:", self.account.email)


@dataclass(frozen=True)
class NodeAccount:
    account: gcp.serviceaccount.Account
    grants: list[gcp.projects.IAMMember]


def build_account(scope: Scope, spec: GcpResource, cluster: gcp.container.Cluster) -> OperatorAccount:
    cloud = scope.ctx.cloud_name
    account = gcp.serviceaccount.Account(
        f"{spec.name}-operator-sa",
        account_id=gcp_account_id(cloud, spec.name),
        display_name=gcp_display_name(cloud, spec.name),
        description="Used by the Anyscale operator and its Ray pods through Workload Identity",
        opts=scope.opts(),
    )
    workload_identity = gcp.serviceaccount.IAMMember(
        f"{spec.name}-operator-workload-identity",
        service_account_id=account.name,
        role=WORKLOAD_IDENTITY_ROLE,
        member=pulumi.Output.from_input(known(spec.project)).apply(workload_identity_member),
        # The project's identity pool exists once a cluster with Workload Identity does.
        opts=scope.opts(depends_on=[cluster]),
    )
    token_creator = gcp.serviceaccount.IAMMember(
        f"{spec.name}-operator-sign-blob",
        service_account_id=account.name,
        role=TOKEN_CREATOR_ROLE,
        member=pulumi.Output.concat("serviceAccount:", account.email),
        opts=scope.opts(),
    )
    return OperatorAccount(account, workload_identity, token_creator)


def build_node_account(scope: Scope, spec: GcpResource) -> NodeAccount:
    """Every pool's nodes run as this account, not the Compute Engine default one (Editor
    on the whole project in many projects)."""
    cloud = scope.ctx.cloud_name
    account = gcp.serviceaccount.Account(
        f"{spec.name}-node-sa",
        account_id=node_account_id(cloud, spec.name),
        display_name=f"GKE nodes ({cloud}/{spec.name})",
        description="The GKE nodes' own identity: logs, metrics and image pulls only",
        opts=scope.opts(),
    )
    member = pulumi.Output.concat("serviceAccount:", account.email)
    grants = [
        gcp.projects.IAMMember(
            f"{spec.name}-node-sa-{key}", project=known(spec.project), role=role, member=member, opts=scope.opts()
        )
        for key, role in NODE_ROLES.items()
    ]
    return NodeAccount(account, grants)
