"""AKS access and networks: who can reach the API server, whether pod traffic is
policed, and whether an Entra-only cluster is reachable at all. Plain checks over a
ManagedCluster's properties."""

from __future__ import annotations

from typing import Any

from rules.values import MISSING, UNKNOWN, get, is_list

NO_POLICY = ("none", "")


def public_api_problems(props: Any) -> list[str]:
    """A public API server open to the whole internet (advisory: Entra ID or a certificate
    still guards it, but every credential leak is then usable from anywhere)."""
    private = get(props, "apiServerAccessProfile", "enablePrivateCluster")
    if private is True or private is UNKNOWN:
        return []
    ranges = get(props, "apiServerAccessProfile", "authorizedIPRanges")
    if ranges is UNKNOWN:
        return []
    if is_list(ranges) and len(ranges) > 0:
        return []
    return [
        "the API server is public with no authorized IP ranges: anyone on the internet can reach it; set "
        "cluster.apiServer.authorizedIpRanges (include where `pulumi up` runs) or cluster.apiServer.private: true"
    ]


def network_policy_problems(props: Any) -> list[str]:
    """No network policy engine: Kubernetes NetworkPolicy objects are accepted and ignored."""
    policy = get(props, "networkProfile", "networkPolicy")
    if policy is UNKNOWN:
        return []
    if policy is MISSING or policy in NO_POLICY:
        return [
            "the cluster has no network policy engine: NetworkPolicy objects are accepted but not enforced, and every "
            "pod can reach every other; set cluster.network.networkPolicy (azure, calico or cilium; it needs "
            "cluster.network and is fixed at creation)"
        ]
    return []


def entra_only_problems(props: Any) -> list[str]:
    """Local accounts off without managed Entra ID integration: AKS refuses it, and without
    admin groups nobody could use the cluster."""
    if get(props, "disableLocalAccounts") is not True:
        return []
    aad = get(props, "aadProfile")
    if aad is UNKNOWN:
        return []
    managed = get(props, "aadProfile", "managed")
    if managed is not True and managed is not UNKNOWN:
        return [
            "local accounts are disabled without managed Entra ID integration (aadProfile.managed): AKS rejects the "
            "cluster; set cluster.adminGroupObjectIds in the stack"
        ]
    groups = get(props, "aadProfile", "adminGroupObjectIDs")  # read only now: moot without managed integration
    if groups is UNKNOWN or (is_list(groups) and len(groups) > 0):
        return []
    return [
        "local accounts are disabled and no Entra ID admin group is set (aadProfile.adminGroupObjectIDs): nobody "
        "is a cluster admin; set cluster.adminGroupObjectIds in the stack"
    ]
