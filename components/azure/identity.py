"""The operator's managed identity, federated to its service account, and its role grants."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pulumi
from pulumi_azure_native import authorization, containerservice, managedidentity

from components import defaults
from components.names import azure_identity_name
from components.scope import Scope
from components.spec import AzureResource


def scope_subscription(scope: pulumi.Input[str]) -> str | None:
    """The subscription of a scope known from config (an existing subnet may live in
    another subscription than the deployer's): the role definition is named in it."""
    if isinstance(scope, str) and scope.lower().startswith("/subscriptions/"):
        return scope.split("/")[2]
    return None


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
            role_definition_id=pulumi.Output.concat(
                "/subscriptions/",
                scope_subscription(on) or self.subscription_id,
                "/providers/Microsoft.Authorization/roleDefinitions/",
                role,
            ),
            scope=on,
            opts=self.scope.opts(),
        )


@dataclass(frozen=True)
class OperatorIdentity:
    identity: managedidentity.UserAssignedIdentity
    federation: managedidentity.FederatedIdentityCredential


def build_identity(scope: Scope, spec: AzureResource, cluster: containerservice.ManagedCluster) -> OperatorIdentity:
    ctx = scope.ctx
    identity = managedidentity.UserAssignedIdentity(
        f"{spec.name}-operator-identity",
        resource_name_=azure_identity_name(ctx.cloud_name, spec.name),
        resource_group_name=ctx.resource_group_name,
        location=spec.region,
        tags=ctx.tags,
        opts=scope.opts(),
    )
    federation = managedidentity.FederatedIdentityCredential(
        f"{spec.name}-operator-federation",
        federated_identity_credential_resource_name="anyscale-operator",
        resource_name_=identity.name,
        resource_group_name=ctx.resource_group_name,
        issuer=cluster.oidc_issuer_profile.apply(lambda p: p.issuer_url if p else None),
        subject=defaults.WORKLOAD_IDENTITY_SUBJECT,
        audiences=[defaults.FEDERATED_AUDIENCE],
        opts=scope.opts(),
    )
    return OperatorIdentity(identity, federation)


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
