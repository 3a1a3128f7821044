"""addons.kuberay.historyServer on AKS: a user-assigned managed identity of its own, federated
to the History Server's and the collectors' Kubernetes service accounts (AKS workload
identity, as the operator's), with Storage Blob Data Contributor on the resource's container
only: the collectors write, the server reads. KubeRay 1.7.0's `azureblob` backend
(historyserver/pkg/storage/azureblob/config.go, azureblob.go) takes the account URL, the
container and AZURE_STORAGE_AUTH_MODE=workload_identity (azidentity's
WorkloadIdentityCredential, from the variables AKS's webhook injects into pods labelled
`azure.workload.identity/use: "true"` whose service account names the client ID)."""

from __future__ import annotations

import pulumi
from pulumi_azure_native import containerservice

from components import defaults
from components.azure.identity import CLIENT_ID_ANNOTATION, Credential, Grants, federated_identity
from components.kuberay.history import SERVICE_ACCOUNTS
from components.target import HistoryIdentity
from config import AzureResource
from config.names import azure_history_identity_name

# https://azure.github.io/azure-workload-identity/docs/topics/service-account-labels-and-annotations.html
USE_LABEL = "azure.workload.identity/use"


def container_of(uri: str) -> str:
    """`abfss://<container>@<account>.dfs.core.windows.net` -> `<container>`."""
    return uri.removeprefix("abfss://").split("@", 1)[0]


def build_history_identity(
    grants: Grants,
    spec: AzureResource,
    cluster: containerservice.ManagedCluster,
    bucket_uri: pulumi.Input[str],
    bucket_endpoint: pulumi.Input[str],
    container_id: pulumi.Input[str],
) -> HistoryIdentity:
    """`container_id`: the ARM ID of the resource's blob container (the grant's scope)."""
    scope = grants.scope
    ctx = scope.ctx
    identity, federations = federated_identity(
        scope,
        spec,
        cluster,
        f"{spec.name}-history-identity",
        azure_history_identity_name(ctx.cloud_name, spec.name),
        [
            Credential(
                f"{spec.name}-history-federation-{key}", f"ray-history-{key}", f"system:serviceaccount:{ns}:{name}"
            )
            for key, (ns, name) in SERVICE_ACCOUNTS.items()
        ],
    )
    grant = grants.grant(
        f"{spec.name}-history-storage", identity.principal_id, defaults.ROLE_STORAGE_BLOB_DATA_CONTRIBUTOR, container_id
    )
    return HistoryIdentity(
        {CLIENT_ID_ANNOTATION: identity.client_id},
        [identity, *federations, grant],
        storage_variables={
            "AZURE_STORAGE_ACCOUNT_URL": bucket_endpoint,
            "AZURE_STORAGE_CONTAINER": pulumi.Output.from_input(bucket_uri).apply(container_of),
            "AZURE_STORAGE_AUTH_MODE": "workload_identity",
        },
        pod_labels={USE_LABEL: "true"},
    )
