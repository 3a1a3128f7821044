"""addons.kuberay.historyServer on GKE: a Google service account of its own, bound through
Workload Identity to the History Server's and the collectors' Kubernetes service accounts,
with object read and write on the resource's bucket and nothing else (no signBlob, no
project role): the operator's account can do more than the History Server needs."""

from __future__ import annotations

import functools

import pulumi
import pulumi_gcp as gcp

from components.cloud_args import known
from components.gcp.identity import WORKLOAD_IDENTITY_ROLE
from components.gcp.names import workload_identity_member
from components.kuberay.history import SERVICE_ACCOUNTS
from components.scope import Scope
from components.target import HistoryIdentity
from config import GcpResource
from config.names import gcp_name

# Objects only (get, list, create, delete): the collectors write, the server reads.
# https://cloud.google.com/storage/docs/access-control/iam-roles (roles/storage.objectUser)
BUCKET_ROLE = "roles/storage.objectUser"


def history_account_id(cloud: str, resource: str) -> str:
    """6-30 characters, apart from the operator's `anyscale-...` and the nodes' `nodes-...`."""
    return gcp_name("history", cloud, resource, limit=30)


def build_history_identity(
    scope: Scope, spec: GcpResource, cluster: gcp.container.Cluster, bucket_uri: pulumi.Input[str]
) -> HistoryIdentity:
    cloud = scope.ctx.cloud_name
    account = gcp.serviceaccount.Account(
        f"{spec.name}-history-sa",
        account_id=history_account_id(cloud, spec.name),
        display_name=f"Ray History Server ({cloud}/{spec.name})"[:100],
        description="KubeRay's History Server and its collectors, through Workload Identity",
        opts=scope.opts(),
    )
    bindings: list[pulumi.Resource] = [
        gcp.serviceaccount.IAMMember(
            f"{spec.name}-history-workload-identity-{key}",
            service_account_id=account.name,
            role=WORKLOAD_IDENTITY_ROLE,
            member=pulumi.Output.from_input(known(spec.project)).apply(
                functools.partial(workload_identity_member, namespace=namespace, name=name)
            ),
            # The project's identity pool exists once a cluster with Workload Identity does.
            opts=scope.opts(depends_on=[cluster]),
        )
        for key, (namespace, name) in SERVICE_ACCOUNTS.items()
    ]
    bucket = pulumi.Output.from_input(bucket_uri).apply(lambda uri: uri.removeprefix("gs://"))
    grant = gcp.storage.BucketIAMMember(
        f"{spec.name}-history-storage",
        bucket=bucket,
        role=BUCKET_ROLE,
        member=pulumi.Output.concat("serviceAccount:", account.email),
        opts=scope.opts(),
    )
    return HistoryIdentity(
        {"iam.gke.io/gcp-service-account": account.email},
        [account, *bindings, grant],
        storage_variables={"GCS_BUCKET": bucket},  # storage/gcs/config.go
    )
