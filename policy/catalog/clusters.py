"""The clusters (AKS, EKS, GKE) and what runs in them: the Anyscale operator and charts
(platform.md 4)."""

from __future__ import annotations

from pack import (
    ADVISORY,
    HIGH,
    LOW,
    MANDATORY,
    MEDIUM,
    Policy,
    Settings,
    array_of_strings,
    policy,
    stack_resources,
)
from pulumi_policy import ResourceValidationArgs
from rules import aks, clusters, eks, gke, identity, platform
from rules.plan_records import EKS_CLUSTER, EXTENSION, GKE_CLUSTER, HELM_CHART, HELM_RELEASE, MANAGED_CLUSTER
from rules.values import setting, type_is


def check_operator_identity(args: ResourceValidationArgs, _: Settings) -> list[str]:
    settings = clusters.operator_settings(args.resource_type, args.props)
    if not isinstance(settings, dict):
        return []
    provider = "Azure" if type_is(args.resource_type, EXTENSION) else setting(settings, "global.cloudProvider")
    return identity.operator_iam_identity_problems(settings, provider)


def check_control_plane(args: ResourceValidationArgs, config: Settings) -> list[str]:
    settings = clusters.operator_settings(args.resource_type, args.props)
    return clusters.control_plane_problems(settings, config["controlPlaneUrl"])


def check_chart_keys(args: ResourceValidationArgs, config: Settings) -> list[str]:
    settings = clusters.operator_settings(args.resource_type, args.props)
    return clusters.chart_key_problems(settings, list(config["extraAllowedKeys"]))


POLICIES: list[Policy] = [
    # --- AKS ---
    policy(
        "aks-rbac",
        "AKS clusters keep Kubernetes RBAC on.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set enable_rbac=True on the ManagedCluster (components/azure/cluster.py does). RBAC cannot be "
        "turned on for an existing cluster: a cluster created without it must be recreated.",
        check=lambda args, _: clusters.aks_rbac_problems(args.props),
        on=(MANAGED_CLUSTER,),
    ),
    policy(
        "aks-workload-identity",
        "AKS clusters have the OIDC issuer and workload identity enabled (the operator's identity is federated).",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set oidc_issuer_profile={'enabled': True} and "
        "security_profile={'workload_identity': {'enabled': True}} on the ManagedCluster "
        "(components/azure/cluster.py does); the operator's identity is federated to that issuer.",
        check=lambda args, _: clusters.aks_identity_problems(args.props),
        on=(MANAGED_CLUSTER,),
    ),
    policy(
        "aks-entra-only-access",
        "AKS clusters without local accounts have managed Entra ID integration with admin groups "
        "(otherwise AKS rejects them or nobody can administer them).",
        level=MANDATORY,
        severity=HIGH,
        remediation="With cluster.disableLocalAccounts: true, set cluster.adminGroupObjectIds in the stack to the "
        "Entra ID groups of the cluster's admins (`az ad group show --group <name> --query id`); the program then "
        "enables managed Entra ID integration.",
        check=lambda args, _: aks.entra_only_problems(args.props),
        on=(MANAGED_CLUSTER,),
    ),
    policy(
        "aks-local-accounts",
        "AKS clusters disable local accounts (Entra ID only). Advisory: it needs Entra RBAC set up first.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Once Entra ID RBAC for the cluster is set up, set cluster.disableLocalAccounts: true and "
        "cluster.adminGroupObjectIds in the stack; the static admin kubeconfig then stops working.",
        check=lambda args, _: clusters.aks_local_account_problems(args.props),
        on=(MANAGED_CLUSTER,),
    ),
    policy(
        "aks-sku-tier",
        "AKS clusters do not run on the Free tier (no API server SLA). Advisory: fine for a sandbox.",
        level=ADVISORY,
        severity=LOW,
        remediation="Set cluster.skuTier: Standard (or Premium) in the stack for a cluster users depend on; the "
        "tier can be changed in place.",
        check=lambda args, config: clusters.aks_sku_problems(args.props, list(config["disallowedTiers"])),
        on=(MANAGED_CLUSTER,),
        settings={
            "disallowedTiers": array_of_strings(
                ["Free"], "AKS sku tiers to warn about", ["Free", "Standard", "Premium"]
            )
        },
    ),
    policy(
        "aks-public-api-server",
        "AKS API servers are private or restricted to authorized IP ranges. Advisory: Entra ID or the "
        "cluster certificate still guards a public one.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Set cluster.apiServer.authorizedIpRanges in the stack to the ranges of your offices, VPN and "
        "CI runners (include where `pulumi up` runs), or cluster.apiServer.private: true when deploys run inside "
        "the network.",
        check=lambda args, _: aks.public_api_problems(args.props),
        on=(MANAGED_CLUSTER,),
    ),
    policy(
        "aks-network-policy",
        "AKS clusters run a network policy engine (azure, calico or cilium). Advisory: without one, "
        "NetworkPolicy objects are ignored.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Set cluster.network.networkPolicy (azure, calico or cilium) in the stack; it needs "
        "cluster.network and is fixed when the cluster is created, so an existing cluster is replaced.",
        check=lambda args, _: aks.network_policy_problems(args.props),
        on=(MANAGED_CLUSTER,),
    ),
    # --- EKS ---
    policy(
        "eks-public-endpoint",
        "EKS clusters with a public API endpoint restrict it to listed CIDRs (not 0.0.0.0/0). "
        "Advisory: EKS's default, and a restricted endpoint needs every deployer's and CI runner's address.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Set cluster.endpointPublicAccessCidrs in the stack to the ranges of your offices, VPN and CI "
        "runners (the nodes use the private endpoint), or cluster.endpointPublicAccess: false when deploys run "
        "inside the VPC.",
        check=lambda args, _: eks.public_endpoint_problems(args.props),
        on=(EKS_CLUSTER,),
    ),
    policy(
        "eks-access-entries",
        "EKS clusters with API authentication have access entries beyond the creating identity. "
        "Advisory: a single-operator sandbox may need none.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Add cluster.accessEntries in the stack (principalArn and policy) for the team members and CI "
        "roles that use the cluster; otherwise only the identity that created it can.",
        stack_check=lambda args, _: eks.access_entry_findings(stack_resources(args)),
    ),
    # --- GKE ---
    policy(
        "gke-node-service-account",
        "GKE nodes (clusters' default pools and node pools) run as a service account of their own, never the Compute "
        "Engine default one.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Give every node pool (and a cluster's default pool, unless it is removed) "
        "nodeConfig.serviceAccount, a service account with the node roles only (components/gcp/pools.py does).",
        check=lambda args, _: gke.node_account_problems(args.resource_type, args.props),
    ),
    policy(
        "gke-default-network",
        "GKE clusters do not run on the project's `default` VPC (often absent; SSH and RDP open to the internet). "
        "Advisory: an existing stack may have to stay there.",
        level=ADVISORY,
        severity=LOW,
        remediation="Leave cluster.network unset in the stack (the program creates a VPC) or name a network of your "
        "own; moving an existing cluster to another network replaces it.",
        check=lambda args, _: gke.default_network_problems(args.props),
        on=(GKE_CLUSTER,),
    ),
    # --- the Anyscale operator and charts (platform.md 4) ---
    policy(
        "operator-iam-identity",
        "The Anyscale operator on Azure, AWS or GCP has global.auth.iamIdentity set (its cloud identity).",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set global.auth.iamIdentity to the operator's cloud identity: the managed identity's client ID "
        "(Azure), the IAM role ARN (AWS) or the service account email (GCP); the program's addons set it.",
        check=check_operator_identity,
    ),
    policy(
        "operator-control-plane",
        "The Anyscale operator (AKS extension or Helm chart) has global.controlPlaneURL set to exactly the "
        "Azure control plane.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set global.controlPlaneURL to exactly the control plane (no trailing slash); the program's "
        "addons set it. Another control plane goes into this policy's controlPlaneUrl setting.",
        check=check_control_plane,
        settings={
            "controlPlaneUrl": {
                "type": "string",
                "default": platform.CONSOLE_ORIGIN,
                "description": "the control plane the operator must talk to",
            }
        },
    ),
    policy(
        "operator-chart-keys",
        "The Anyscale operator sets only keys its chart reads (Helm ignores any other silently), and never "
        "networking.gateway.className.",
        level=MANDATORY,
        severity=MEDIUM,
        remediation="Fix the key's spelling or remove it (the chart's keys are listed in policy/rules/chart_keys.py); "
        "keys of a newer chart go into this policy's extraAllowedKeys setting.",
        check=check_chart_keys,
        settings={
            "extraAllowedKeys": array_of_strings(
                [], "chart keys to accept beyond the 1.8.0 list (e.g. for a newer chart)"
            )
        },
    ),
    policy(
        "chart-versions-pinned",
        "Helm releases pin one exact chart version (not a range like '>=1.0.0', '~1.2', '*' or a tag like "
        "'latest'); the operator's AKS extension pins its version the same way, without minor auto-upgrades.",
        level=MANDATORY,
        severity=MEDIUM,
        remediation="Pin each chart to one exact version (components/defaults.py holds the program's pins; "
        "addons.*.version in the stack overrides them), and set auto_upgrade_minor_version=False on the operator's "
        "AKS extension.",
        check=lambda args, _: clusters.chart_version_problems(args.resource_type, args.props),
        on=(HELM_RELEASE, HELM_CHART, EXTENSION),
    ),
]
