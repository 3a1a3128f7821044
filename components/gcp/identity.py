"""The operator's service account, bound to its Kubernetes service account (Workload
Identity) and allowed to sign blobs as itself; and the nodes' own service account."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pulumi
import pulumi_gcp as gcp

from components import defaults
from components.cloud_args import known
from components.gcp.names import workload_identity_member
from components.scope import Scope
from components.target import WorkloadIdentity
from config import GcpResource
from config.names import gcp_account_id, gcp_display_name, gcp_workload_account_id
from config.names import gke_node_account_id as node_account_id

WORKLOAD_IDENTITY_ROLE = "roles/iam.workloadIdentityUser"
# https://cloud.google.com/kubernetes-engine/docs/how-to/workload-identity (the annotation)
GSA_ANNOTATION = "iam.gke.io/gcp-service-account"
# The Ray pods' objects in the resource's bucket (get, list, create, delete, overwrite):
# https://cloud.google.com/storage/docs/access-control/iam-roles (roles/storage.objectAdmin).
WORKLOAD_BUCKET_ROLE = "roles/storage.objectAdmin"
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


def build_workload_account(
    scope: Scope, spec: GcpResource, cluster: gcp.container.Cluster, bucket_uri: pulumi.Input[str]
) -> WorkloadIdentity:
    """The Ray pods' account: bound through Workload Identity to their service account
    (anyscale-workloads in the operator's namespace and in each managed namespace) only, with objectAdmin on the resource's bucket
    (created or existing, as the operator's grant) and nothing else: no signBlob, no project role."""
    cloud = scope.ctx.cloud_name
    account = gcp.serviceaccount.Account(
        f"{spec.name}-workloads-sa",
        account_id=gcp_workload_account_id(cloud, spec.name),
        display_name=f"Anyscale Ray pods ({cloud}/{spec.name})"[:100],
        description="Used by the Anyscale operator's Ray pods through Workload Identity: the bucket only",
        opts=scope.opts(),
    )
    # One binding per account Ray pods run as (config/workloads.py); the operator namespace's
    # keeps its name.
    project = pulumi.Output.from_input(known(spec.project))
    bindings = [
        gcp.serviceaccount.IAMMember(
            f"{spec.name}-workloads-workload-identity"
            + ("" if who.namespace == defaults.OPERATOR_NAMESPACE else f"-{who.namespace}"),
            service_account_id=account.name,
            role=WORKLOAD_IDENTITY_ROLE,
            member=project.apply(functools.partial(workload_identity_member, namespace=who.namespace, name=who.name)),
            # The project's identity pool exists once a cluster with Workload Identity does.
            opts=scope.opts(depends_on=[cluster]),
        )
        for who in spec.workload_accounts
    ]
    grant = gcp.storage.BucketIAMMember(
        f"{spec.name}-workloads-storage",
        bucket=pulumi.Output.from_input(bucket_uri).apply(lambda uri: uri.removeprefix("gs://")),
        role=WORKLOAD_BUCKET_ROLE,
        member=pulumi.Output.concat("serviceAccount:", account.email),
        opts=scope.opts(),
    )
    return WorkloadIdentity({GSA_ANNOTATION: account.email}, [account, *bindings, grant])
