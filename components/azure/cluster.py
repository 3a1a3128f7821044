"""The AKS cluster: OIDC issuer and workload identity on, a system pool, and its kubeconfig."""
from __future__ import annotations

import base64

import pulumi
from pulumi_azure_native import containerservice

from components.names import aks_cluster_name, aks_dns_prefix
from components.scope import Scope
from components.spec import AzureResource


def build_cluster(scope: Scope, spec: AzureResource) -> containerservice.ManagedCluster:
    cluster, ctx = spec.cluster, scope.ctx
    system = cluster.system_pool
    return containerservice.ManagedCluster(
        f"{spec.name}-aks",
        resource_name_=aks_cluster_name(ctx.cloud_name, spec.name),
        resource_group_name=ctx.resource_group_name,
        location=spec.region,
        dns_prefix=aks_dns_prefix(ctx.cloud_name, spec.name),
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
        tags=ctx.tags,
        # Worker pools are AgentPool resources of their own; AKS reports them here too.
        opts=scope.guarded(ignore_changes=["agentPoolProfiles"]),
    )


def cluster_kubeconfig(scope: Scope, spec: AzureResource, cluster: containerservice.ManagedCluster) -> pulumi.Output[str]:
    args = {"resource_group_name": scope.ctx.resource_group_name, "resource_name": cluster.name}
    if spec.cluster.disable_local_accounts:
        # No static admin credential: an exec (kubelogin) kubeconfig for Entra ID.
        user = containerservice.list_managed_cluster_user_credentials_output(**args, format="exec", opts=scope.invoke())
        kubeconfigs = user.kubeconfigs
    else:
        kubeconfigs = containerservice.list_managed_cluster_admin_credentials_output(**args, opts=scope.invoke()).kubeconfigs
    return pulumi.Output.secret(kubeconfigs[0].value.apply(lambda v: base64.b64decode(v).decode()))
