"""The AKS cluster: OIDC issuer and workload identity on, a system pool, and its kubeconfig."""

from __future__ import annotations

import base64
import itertools
from typing import Any

import pulumi
import yaml
from pulumi_azure_native import containerservice

from components.azure.network import NodeNetwork
from components.cloud_args import known_all
from components.scope import Scope
from config import AksClusterSpec, AzureResource
from config.aks import DEFAULT_DATAPLANE
from config.names import aks_cluster_name, aks_dns_prefix

# The AKS Entra ID server application: the audience of every cluster's tokens, the same in
# every tenant (kubelogin's docs, "Using kubelogin with AKS").
AKS_SERVER_ID = "6dae42f8-4368-4678-94ff-3960e28e3630"


def build_cluster(
    scope: Scope, spec: AzureResource, nodes: NodeNetwork | None = None
) -> containerservice.ManagedCluster:
    cluster, ctx = spec.cluster, scope.ctx
    system = cluster.system_pool
    subnet = {"vnet_subnet_id": nodes.subnet_id} if nodes else {}
    return containerservice.ManagedCluster(
        f"{spec.name}-aks",
        # An adopted cluster keeps its name (the ID's) and is imported (config/adopt.py).
        resource_name_=spec.adopt.name_of("cluster") or aks_cluster_name(ctx.cloud_name, spec.name),
        resource_group_name=ctx.resource_group_name,
        location=spec.region,
        dns_prefix=aks_dns_prefix(ctx.cloud_name, spec.name),
        kubernetes_version=cluster.kubernetes_version,
        identity={"type": "SystemAssigned"},
        sku={"name": "Base", "tier": cluster.sku_tier},
        # AKSLongTermSupport (Premium only, checked in the spec) keeps a minor a year past
        # its community support.
        support_plan=cluster.support_plan,
        enable_rbac=True,
        disable_local_accounts=cluster.disable_local_accounts,
        **entra_args(cluster),
        oidc_issuer_profile={"enabled": True},
        security_profile={"workload_identity": {"enabled": True}},
        network_profile=network_profile(cluster),
        **api_server_args(cluster),
        auto_upgrade_profile={"upgrade_channel": "patch", "node_os_upgrade_channel": "NodeImage"},
        agent_pool_profiles=[
            {
                "name": "system",
                "mode": "System",
                # The cluster's version, as given (AKS takes major.minor and picks the newest
                # patch): a pool without one is left behind by a control-plane upgrade.
                "orchestrator_version": cluster.kubernetes_version,
                "vm_size": system.instance_type,
                "os_type": "Linux",
                "type": "VirtualMachineScaleSets",
                "enable_auto_scaling": True,
                "count": system.min_count,
                "min_count": system.min_count,
                "max_count": system.max_count,
                **subnet,
            }
        ],
        tags=ctx.tags,
        # Worker pools are AgentPool resources of their own; AKS reports them here too.
        opts=scope.guarded(ignore_changes=["agentPoolProfiles"], import_=spec.adopt.cluster),
    )


def entra_args(cluster: AksClusterSpec) -> dict[str, Any]:
    """Managed Entra ID integration with Azure RBAC, when admin groups are given (required
    without local accounts: the API rejects disableLocalAccounts without it)."""
    if not cluster.admin_group_object_ids:
        return {}
    return {
        "aad_profile": {
            "managed": True,
            "enable_azure_rbac": True,
            "admin_group_object_ids": known_all(cluster.admin_group_object_ids),
        }
    }


def network_profile(cluster: AksClusterSpec) -> dict[str, Any]:
    """Azure CNI overlay: nodes take subnet addresses, pods overlay ones (podCidr); a
    NetworkPolicy engine on every cluster."""
    profile: dict[str, Any] = {
        "network_plugin": "azure",
        "network_plugin_mode": "overlay",
        "load_balancer_sku": "standard",
    }
    net = cluster.network
    if net is None:
        # AKS manages the VNet; the data plane and policy engine are still ours to pick, so
        # NetworkPolicy is enforced on every cluster (config/aks.py DEFAULT_DATAPLANE).
        profile |= {"network_dataplane": DEFAULT_DATAPLANE, "network_policy": DEFAULT_DATAPLANE}
    else:
        profile |= {
            "network_dataplane": net.dataplane,
            "network_policy": net.network_policy,
            "pod_cidr": net.pod_cidr,
            "service_cidr": net.service_cidr,
            "dns_service_ip": net.dns_service_ip,
        }
    return profile


def api_server_args(cluster: AksClusterSpec) -> dict[str, Any]:
    api = cluster.api_server
    if api is None:
        return {}
    access: dict[str, Any] = {}
    if api.private:
        access["enable_private_cluster"] = True
    if api.authorized_ip_ranges:
        access["authorized_ip_ranges"] = list(api.authorized_ip_ranges)
    return {"api_server_access_profile": access} if access else {}


def cluster_kubeconfig(
    scope: Scope, spec: AzureResource, cluster: containerservice.ManagedCluster
) -> pulumi.Output[str]:
    args = {"resource_group_name": scope.ctx.resource_group_name, "resource_name": cluster.name}
    if spec.cluster.disable_local_accounts:
        # No static admin credential: an exec (kubelogin) kubeconfig for Entra ID, made to
        # log in without a person (AKS answers with `--login devicecode`).
        creds = containerservice.list_managed_cluster_user_credentials_output(
            **args, format="exec", opts=scope.invoke()
        )
        mode = spec.cluster.kubelogin_mode
        text = creds.kubeconfigs[0].value.apply(lambda v: noninteractive_kubeconfig(base64.b64decode(v).decode(), mode))
    else:
        creds = containerservice.list_managed_cluster_admin_credentials_output(**args, opts=scope.invoke())
        text = creds.kubeconfigs[0].value.apply(lambda v: base64.b64decode(v).decode())
    return pulumi.Output.secret(text)


def noninteractive_kubeconfig(text: str, mode: str) -> str:
    """The AKS exec kubeconfig with each kubelogin user's args rewritten to `mode`."""
    config = yaml.safe_load(text)
    users = config.get("users") if isinstance(config, dict) else None
    execs = [
        u["user"]["exec"]
        for u in users or []
        if isinstance(u, dict) and isinstance((u.get("user") or {}).get("exec"), dict)
    ]
    kubelogin = [e for e in execs if e.get("command") == "kubelogin"]
    if not kubelogin:
        # AKS answers with a certificate kubeconfig when the cluster has no Entra ID yet: Entra ID
        # and local accounts off in one change (preflight diff refuses it: preflight/refusals.py).
        raise ValueError(
            "the cluster's user kubeconfig (format=exec) has no kubelogin exec user: cannot make it non-interactive. "
            "If the cluster has no Entra ID yet, turn it on first (adminGroupObjectIds with disableLocalAccounts: "
            "false) and apply, then set disableLocalAccounts: true"
        )
    for entry in kubelogin:
        entry["args"] = kubelogin_args(entry.get("args") or [], mode)
    return str(yaml.safe_dump(config, sort_keys=False))


def kubelogin_args(args: list[str], mode: str) -> list[str]:
    """`kubelogin get-token` for `mode`, as `kubelogin convert-kubeconfig -l <mode>` writes it:
    azurecli and workloadidentity take everything else from `az login` or the environment
    (AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_FEDERATED_TOKEN_FILE); spn keeps the tenant and
    cloud but not AKS's public client ID (the principal's comes from AZURE_CLIENT_ID)."""
    out = ["get-token", "--login", mode, "--server-id", AKS_SERVER_ID]
    if mode == "spn":
        given = {
            flag: value
            for flag, value in itertools.pairwise(args)
            if flag.startswith("--") and not value.startswith("--")
        }
        for flag in ("--tenant-id", "--environment"):
            if flag in given:
                out += [flag, given[flag]]
    return out
