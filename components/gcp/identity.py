"""The operator's service account, bound to its Kubernetes service account (Workload Identity)."""
from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_gcp as gcp

from components.gcp.names import workload_identity_member
from components.names import gcp_account_id, gcp_display_name
from components.scope import Scope
from components.spec import GcpResource

WORKLOAD_IDENTITY_ROLE = "roles/iam.workloadIdentityUser"


@dataclass(frozen=True)
class OperatorAccount:
    account: gcp.serviceaccount.Account
    workload_identity: gcp.serviceaccount.IAMMember

    @property
    def member(self) -> pulumi.Output[str]:
        return pulumi.Output.concat("serviceAccount:", self.account.email)


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
        member=workload_identity_member(spec.project),
        # The project's identity pool exists once a cluster with Workload Identity does.
        opts=scope.opts(depends_on=[cluster]),
    )
    return OperatorAccount(account, workload_identity)
