"""AksTarget: an AKS-backed cloud resource's cluster, bucket and operator identity."""
from __future__ import annotations

import base64

import pulumi
import pulumi_random as random
from pulumi_azure_native import authorization, containerservice, managedidentity, storage

from components import defaults
from components.nodepools import pool_labels, pool_taints
from components.spec import AksNodePool, AzureResource
from components.kube import kubernetes_provider
from components.target import CloudContext, OperatorExtension, Target

SPOT_TAINT = "kubernetes.azure.com/scalesetpriority=spot:NoSchedule"
CONTAINER_NAME = "anyscale"
SUFFIX_LENGTH = 6


def role_definition_id(subscription_id: pulumi.Input[str], role: str) -> pulumi.Output[str]:
    return pulumi.Output.concat(
        "/subscriptions/", subscription_id, "/providers/Microsoft.Authorization/roleDefinitions/", role
    )


def account_name(cloud: str, resource: str, suffix: str) -> str:
    """Storage account names are global: 3-24 lowercase letters and digits."""
    stem = "".join(c for c in f"{cloud}{resource}".lower() if c.isalnum())
    return f"as{stem[: 22 - SUFFIX_LENGTH]}{suffix}"


class AksTarget(pulumi.ComponentResource):
    """AKS with OIDC issuer and workload identity, an ADLS Gen2 bucket with the console's
    CORS rule, and the operator's managed identity federated to its service account."""

    cluster_name: pulumi.Output[str]
    bucket_uri: pulumi.Output[str]
    bucket_endpoint: pulumi.Output[str]
    principal_id: pulumi.Output[str]
    client_id: pulumi.Output[str]
    kubeconfig: pulumi.Output[str]

    def __init__(self, spec: AzureResource, ctx: CloudContext, opts: pulumi.ResourceOptions | None = None):
        super().__init__("anyscale-cloud:azure:AksTarget", spec.name, None, opts)
        self._spec, self._ctx = spec, ctx
        self._azure = pulumi.ResourceOptions(parent=self, provider=ctx.azure_provider)
        self._guarded = pulumi.ResourceOptions.merge(self._azure, pulumi.ResourceOptions(protect=ctx.protect))
        client = authorization.get_client_config_output(opts=pulumi.InvokeOutputOptions(parent=self, provider=ctx.azure_provider))
        self._subscription_id = client.subscription_id

        self.cluster = self._cluster()
        self.pools = [self._pool(pool) for pool in spec.cluster.node_pools]
        self.kubeconfig = self._kubeconfig()
        self.identity = managedidentity.UserAssignedIdentity(
            f"{spec.name}-operator-identity",
            resource_name_=f"id-{ctx.cloud_name}-{spec.name}-operator"[:128],  # ARM limit
            resource_group_name=ctx.resource_group_name,
            location=spec.region,
            tags=ctx.tags,
            opts=self._azure,
        )
        self.federation = managedidentity.FederatedIdentityCredential(
            f"{spec.name}-operator-federation",
            federated_identity_credential_resource_name="anyscale-operator",
            resource_name_=self.identity.name,
            resource_group_name=ctx.resource_group_name,
            issuer=self.cluster.oidc_issuer_profile.apply(lambda p: p.issuer_url if p else None),
            subject=defaults.WORKLOAD_IDENTITY_SUBJECT,
            audiences=[defaults.FEDERATED_AUDIENCE],
            opts=self._azure,
        )
        self.grants = self._registry_grants()
        self._bucket()
        self.principal_id = self.identity.principal_id
        self.client_id = self.identity.client_id
        self.cluster_name = self.cluster.name
        self.kubernetes = kubernetes_provider(spec.name, self.kubeconfig, self)
        self.target = Target(
            provider="Azure",
            region=spec.region,
            kubernetes=self.kubernetes,
            cluster=self.cluster,
            bucket_uri=self.bucket_uri,
            bucket_endpoint=self.bucket_endpoint,
            bucket_region=spec.storage.region or spec.region,
            registration_identity=self.identity.principal_id,  # the OBJECT (principal) ID
            operator_identity=self.identity.client_id,  # the CLIENT ID: a different GUID
            operator_settings={"global.auth.audience": defaults.OPERATOR_AUDIENCE},
            install_device_plugin=any(p.gpu for p in spec.cluster.node_pools),
            operator_extension=OperatorExtension(self.cluster.name, ctx.resource_group_name, ctx.azure_provider),
            ready=[self.cluster, *self.pools, self.identity, self.federation, *self.grants, *self._storage],
        )
        self.register_outputs(
            {
                "cluster_name": self.cluster_name,
                "bucket_uri": self.bucket_uri,
                "bucket_endpoint": self.bucket_endpoint,
                "principal_id": self.principal_id,
                "client_id": self.client_id,
                "kubeconfig": self.kubeconfig,
            }
        )

    def _cluster(self) -> containerservice.ManagedCluster:
        spec, cluster = self._spec, self._spec.cluster
        system = cluster.system_pool
        return containerservice.ManagedCluster(
            f"{spec.name}-aks",
            resource_name_=f"aks-{self._ctx.cloud_name}-{spec.name}"[:63],
            resource_group_name=self._ctx.resource_group_name,
            location=spec.region,
            dns_prefix=f"{self._ctx.cloud_name}-{spec.name}".replace("_", "-")[:54].strip("-"),
            kubernetes_version=cluster.kubernetes_version,
            identity={"type": "SystemAssigned"},
            sku={"name": "Base", "tier": cluster.sku_tier},
            enable_rbac=True,
            disable_local_accounts=cluster.disable_local_accounts,
            oidc_issuer_profile={"enabled": True},
            security_profile={"workload_identity": {"enabled": True}},
            network_profile={"network_plugin": "azure", "network_plugin_mode": "overlay", "load_balancer_sku": "standard"},
            auto_upgrade_profile={"upgrade_channel": "patch", "node_os_upgrade_channel": "NodeImage"},
            agent_pool_profiles=[
                {
                    "name": "system",
                    "mode": "System",
                    "vm_size": system.instance_type,
                    "os_type": "Linux",
                    "type": "VirtualMachineScaleSets",
                    "enable_auto_scaling": True,
                    "count": system.min_count,
                    "min_count": system.min_count,
                    "max_count": system.max_count,
                }
            ],
            tags=self._ctx.tags,
            # Worker pools are AgentPool resources of their own; AKS reports them here too.
            opts=pulumi.ResourceOptions.merge(self._guarded, pulumi.ResourceOptions(ignore_changes=["agentPoolProfiles"])),
        )

    def _pool(self, pool: AksNodePool) -> containerservice.AgentPool:
        taints = [str(t) for t in pool_taints(pool)]
        spot = pool.capacity_type == "SPOT"
        if spot:
            taints.append(SPOT_TAINT)  # AKS adds it anyway; declaring it avoids a perpetual diff
        return containerservice.AgentPool(
            f"{self._spec.name}-pool-{pool.name}",
            agent_pool_name=pool.name,
            resource_name_=self.cluster.name,
            resource_group_name=self._ctx.resource_group_name,
            mode="User",
            vm_size=pool.instance_type,
            os_type="Linux",
            type="VirtualMachineScaleSets",
            enable_auto_scaling=True,
            count=pool.min_count,
            min_count=pool.min_count,
            max_count=pool.max_count,
            node_taints=taints,
            node_labels=pool_labels(pool),
            **({"scale_set_priority": "Spot", "scale_set_eviction_policy": "Delete", "spot_max_price": -1} if spot else {}),
            opts=self._azure,
        )

    def _kubeconfig(self) -> pulumi.Output[str]:
        invoke_opts = pulumi.InvokeOutputOptions(parent=self, provider=self._ctx.azure_provider)
        args = {"resource_group_name": self._ctx.resource_group_name, "resource_name": self.cluster.name}
        if self._spec.cluster.disable_local_accounts:
            # No static admin credential: an exec (kubelogin) kubeconfig for Entra ID.
            creds = containerservice.list_managed_cluster_user_credentials_output(**args, format="exec", opts=invoke_opts)
        else:
            creds = containerservice.list_managed_cluster_admin_credentials_output(**args, opts=invoke_opts)
        return pulumi.Output.secret(creds.kubeconfigs[0].value.apply(lambda v: base64.b64decode(v).decode()))

    def _registry_grants(self) -> list[authorization.RoleAssignment]:
        """Kubelets pull built images; only the primary's operator builds (and pushes)."""
        name, registry = self._spec.name, self._ctx.registry_id
        kubelet = self.cluster.identity_profile.apply(lambda p: p["kubeletidentity"].object_id)
        grants = [self._grant(f"{name}-kubelet-acrpull", kubelet, defaults.ROLE_ACR_PULL, registry)]
        if self._ctx.is_primary:
            operator = self.identity.principal_id
            grants += [
                self._grant(f"{name}-operator-acrpush", operator, defaults.ROLE_ACR_PUSH, registry),
                self._grant(f"{name}-operator-acrtasks", operator, defaults.ROLE_ACR_TASKS_CONTRIBUTOR, registry),
            ]
        return grants

    def _grant(self, name: str, principal: pulumi.Input[str], role: str, scope: pulumi.Input[str]) -> authorization.RoleAssignment:
        return authorization.RoleAssignment(
            name,
            principal_id=principal,
            principal_type="ServicePrincipal",
            role_definition_id=role_definition_id(self._subscription_id, role),
            scope=scope,
            opts=self._azure,
        )

    def _bucket(self) -> None:
        """The bucket: ours (created here), or the existing one named in the spec."""
        spec = self._spec
        self._storage: list[pulumi.Resource] = []
        if spec.storage.bucket is not None:
            # Existing bucket: its CORS rule and data-plane role are the owner's to set.
            self.bucket_uri = pulumi.Output.from_input(spec.storage.bucket)
            self.bucket_endpoint = pulumi.Output.from_input(spec.storage.endpoint or "")
            return
        kept = pulumi.ResourceOptions.merge(
            self._guarded, pulumi.ResourceOptions(retain_on_delete=spec.storage.retain_on_delete)
        )
        suffix = random.RandomString(
            f"{spec.name}-storage-suffix",
            length=SUFFIX_LENGTH,
            special=False,
            upper=False,
            opts=pulumi.ResourceOptions(parent=self, provider=self._ctx.random_provider),
        )
        account = storage.StorageAccount(
            f"{spec.name}-storage",
            account_name=suffix.result.apply(lambda s: account_name(self._ctx.cloud_name, spec.name, s)),
            resource_group_name=self._ctx.resource_group_name,
            location=spec.storage.region,
            kind="StorageV2",
            sku={"name": "Standard_LRS"},
            is_hns_enabled=True,  # ADLS Gen2, for abfss://
            enable_https_traffic_only=True,
            minimum_tls_version="TLS1_2",
            allow_blob_public_access=False,
            allow_shared_key_access=False,
            default_to_o_auth_authentication=True,
            tags=self._ctx.tags,
            opts=kept,
        )
        container = storage.BlobContainer(
            f"{spec.name}-container",
            container_name=CONTAINER_NAME,
            account_name=account.name,
            resource_group_name=self._ctx.resource_group_name,
            public_access="None",
            opts=kept,
        )
        cors = storage.BlobServiceProperties(
            f"{spec.name}-blob-cors",
            blob_services_name="default",
            account_name=account.name,
            resource_group_name=self._ctx.resource_group_name,
            cors={
                "cors_rules": [
                    {
                        "allowed_origins": [defaults.CONSOLE_ORIGIN],
                        "allowed_methods": defaults.CORS_METHODS,
                        "allowed_headers": defaults.CORS_ALLOWED_HEADERS,
                        "exposed_headers": ["*"],
                        "max_age_in_seconds": defaults.CORS_MAX_AGE_SECONDS,
                    }
                ]
            },
            opts=self._azure,
        )
        data_access = self._grant(
            f"{spec.name}-operator-storage",
            self.identity.principal_id,
            defaults.ROLE_STORAGE_BLOB_DATA_CONTRIBUTOR,
            account.id,
        )
        self._storage = [account, container, cors, data_access]
        self.bucket_uri = pulumi.Output.concat("abfss://", container.name, "@", account.name, ".dfs.core.windows.net")
        # The blob endpoint ends with "/", which silently breaks log delivery.
        self.bucket_endpoint = account.primary_endpoints.apply(lambda e: e.blob.rstrip("/"))
