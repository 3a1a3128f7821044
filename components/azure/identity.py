"""The operator's managed identity, federated to its service account, and its role grants."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pulumi
from pulumi_azure_native import authorization, containerservice, managedidentity

from components import defaults
from components.scope import Scope
from components.target import WorkloadIdentity
from config import AzureResource
from config.names import azure_identity_name, azure_workload_identity_name

# https://azure.github.io/azure-workload-identity/docs/topics/service-account-labels-and-annotations.html
CLIENT_ID_ANNOTATION = "azure.workload.identity/client-id"


def scope_subscription(scope: str) -> str | None:
    """The subscription an ARM ID names (`/subscriptions/<id>/...`), else None."""
    if scope.lower().startswith("/subscriptions/"):
        return scope.split("/")[2] or None
    return None


def role_definition_id(
    scope: pulumi.Input[str], default_subscription: pulumi.Input[str], role: str
) -> pulumi.Output[str]:
    """A built-in role's definition ID, named in the subscription of the scope it is granted
    on. ARM rewrites a definition named in another subscription to the scope's own, so a
    grant on an existing subnet in subscription B must say B, or every `pulumi up` shows a
    diff (or a create fails). The scope may be a string from config or an Output (the
    usual case: an ID the program created or passed through); a scope that is not an ARM
    ID yet (a created resource's ID before it exists) is in the provider's subscription,
    `default_subscription`."""

    def named(values: list[str]) -> str:
        on, default = values
        subscription = scope_subscription(on) if isinstance(on, str) else None
        return f"/subscriptions/{subscription or default}/providers/Microsoft.Authorization/roleDefinitions/{role}"

    return pulumi.Output.all(scope, default_subscription).apply(named)


@dataclass(frozen=True)
class Grants:
    """Role assignments at the subscription the cloud's provider points to."""

    scope: Scope
    subscription_id: pulumi.Output[str]

    @staticmethod
    def of(scope: Scope) -> Grants:
        return Grants(scope, authorization.get_client_config_output(opts=scope.invoke()).subscription_id)

    def grant(
        self, name: str, principal: pulumi.Input[str], role: str, on: pulumi.Input[str]
    ) -> authorization.RoleAssignment:
        return authorization.RoleAssignment(
            name,
            principal_id=principal,
            principal_type="ServicePrincipal",
            role_definition_id=role_definition_id(on, self.subscription_id, role),
            scope=on,
            opts=self.scope.opts(),
        )


@dataclass(frozen=True)
class OperatorIdentity:
    identity: managedidentity.UserAssignedIdentity
    federation: managedidentity.FederatedIdentityCredential


@dataclass(frozen=True)
class Credential:
    """One federated credential of an identity: its Pulumi name, its name in Azure and the
    Kubernetes service account it trusts (`system:serviceaccount:<namespace>:<name>`)."""

    logical: str
    name: str
    subject: str


def federated_identity(
    scope: Scope,
    spec: AzureResource,
    cluster: containerservice.ManagedCluster,
    logical: str,
    name: str,
    credentials: Sequence[Credential],
    import_: str | None = None,
) -> tuple[managedidentity.UserAssignedIdentity, list[managedidentity.FederatedIdentityCredential]]:
    """A user-assigned identity in the resource's region, federated to the cluster's OIDC
    issuer for each of `credentials`, one after another: concurrent writes of one identity's
    federated credentials fail (learn.microsoft.com/entra/workload-id/
    workload-identity-federation-considerations, "Concurrent updates aren't supported")."""
    ctx = scope.ctx
    identity = managedidentity.UserAssignedIdentity(
        logical,
        resource_name_=name,
        resource_group_name=ctx.resource_group_name,
        location=spec.region,
        tags=ctx.tags,
        opts=scope.opts(import_=import_),
    )
    issuer = cluster.oidc_issuer_profile.apply(lambda p: p.issuer_url if p else None)
    federations: list[managedidentity.FederatedIdentityCredential] = []
    for credential in credentials:
        federations.append(
            managedidentity.FederatedIdentityCredential(
                credential.logical,
                federated_identity_credential_resource_name=credential.name,
                resource_name_=identity.name,
                resource_group_name=ctx.resource_group_name,
                issuer=issuer,
                subject=credential.subject,
                audiences=[defaults.FEDERATED_AUDIENCE],
                opts=scope.opts(depends_on=federations[-1:]),
            )
        )
    return identity, federations


def build_identity(scope: Scope, spec: AzureResource, cluster: containerservice.ManagedCluster) -> OperatorIdentity:
    ctx = scope.ctx
    identity, (federation,) = federated_identity(
        scope,
        spec,
        cluster,
        f"{spec.name}-operator-identity",
        spec.adopt.name_of("identity") or azure_identity_name(ctx.cloud_name, spec.name),
        [Credential(f"{spec.name}-operator-federation", "anyscale-operator", defaults.WORKLOAD_IDENTITY_SUBJECT)],
        import_=spec.adopt.identity,
    )
    return OperatorIdentity(identity, federation)


def workload_credentials(spec: AzureResource) -> list[Credential]:
    """One credential per account Ray pods run as (config/workloads.py): the operator
    namespace's keeps its names; a managed namespace's is named after it (namespaces are
    unique, and a Kubernetes name fits a credential's name, 3-120 letters, digits, '-', '_').
    The spec refuses more than the identity's 20 credentials."""
    credentials = []
    for account in spec.workload_accounts:
        own = account.namespace == defaults.OPERATOR_NAMESPACE
        suffix = "" if own else f"-{account.namespace}"
        credentials.append(
            Credential(f"{spec.name}-workload-federation{suffix}", f"{account.name}{suffix}", account.subject)
        )
    return credentials


def build_workload_identity(
    grants: Grants,
    spec: AzureResource,
    cluster: containerservice.ManagedCluster,
    container_id: pulumi.Input[str] | None,
) -> WorkloadIdentity:
    """The Ray pods' identity: federated to their service account only (in each namespace
    they run in), with Storage Blob
    Data Contributor on the resource's container (`container_id`; None for an existing
    bucket, whose data-plane roles are its owner's, as for the operator: config/load.py
    warns). The pods carry `azure.workload.identity/use: "true"` from the chart itself
    (anyscale-operator 1.8.0 templates/configmap_patches.yaml, when cloudProvider is azure)."""
    scope = grants.scope
    ctx = scope.ctx
    identity, federations = federated_identity(
        scope,
        spec,
        cluster,
        f"{spec.name}-workload-identity",
        azure_workload_identity_name(ctx.cloud_name, spec.name),
        workload_credentials(spec),
    )
    made: list[pulumi.Resource] = [identity, *federations]
    if container_id is not None:
        made.append(
            grants.grant(
                f"{spec.name}-workload-storage",
                identity.principal_id,
                defaults.ROLE_STORAGE_BLOB_DATA_CONTRIBUTOR,
                container_id,
            )
        )
    return WorkloadIdentity({CLIENT_ID_ANNOTATION: identity.client_id}, made)


def _kubelet_object_id(
    profile: Mapping[str, containerservice.outputs.UserAssignedIdentityManagedClusterResponse] | None,
) -> str:
    """The kubelet identity's object ID, which AKS always reports for a created cluster."""
    kubelet = (profile or {}).get("kubeletidentity")
    if kubelet is None or not kubelet.object_id:
        raise ValueError("AKS reported no kubelet identity for the cluster")
    return str(kubelet.object_id)


def registry_grants(
    grants: Grants, spec: AzureResource, cluster: containerservice.ManagedCluster, operator: pulumi.Input[str]
) -> list[authorization.RoleAssignment]:
    """Kubelets pull built images; only the primary's operator builds (and pushes)."""
    name, registry = spec.name, grants.scope.ctx.registry_id
    kubelet = cluster.identity_profile.apply(_kubelet_object_id)
    made = [grants.grant(f"{name}-kubelet-acrpull", kubelet, defaults.ROLE_ACR_PULL, registry)]
    if grants.scope.ctx.is_primary:
        made += [
            grants.grant(f"{name}-operator-acrpush", operator, defaults.ROLE_ACR_PUSH, registry),
            grants.grant(f"{name}-operator-acrtasks", operator, defaults.ROLE_ACR_TASKS_CONTRIBUTOR, registry),
        ]
    return made
