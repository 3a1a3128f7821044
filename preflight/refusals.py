"""Updates the cloud refuses, or that never reach it, each with the way through.

The provider plans these as in-place updates (or as a replacement that cannot succeed), so
`preflight diff` must say what will really happen: REFUSED with the way to do it, or the
part of the change `pulumi up` drops. Sources, read 2026-12-02:

- Public <-> private API server: AKS's `apiServerAccessProfile.enablePrivateCluster` is
  "whether to create the cluster as a private cluster or not" (the AKS REST API,
  ManagedClusterAPIServerAccessProfile); a private link cluster is chosen at creation
  ("Create a private AKS cluster", learn.microsoft.com/azure/aks/private-clusters). Only API
  Server VNet Integration, which the program does not use, switches an existing cluster.
  pulumi-azure-native does not replace on it (provider/pkg/gen/replacement.go has no such
  row), so the engine sends an update AKS rejects.
- Entra ID and local accounts off in one change: with `disableLocalAccounts` the program reads
  the cluster's user credentials as an exec (kubelogin) kubeconfig (components/azure/
  cluster.py); the preview reads the existing cluster, which has no Entra ID yet, so AKS
  answers with a certificate kubeconfig and both preview and `pulumi up` fail. AKS-managed
  Entra ID integration cannot be turned off once on ("AKS-managed Microsoft Entra
  integration", learn.microsoft.com/azure/aks/managed-azure-ad: "can't be disabled").
- The system pool: the cluster ignores `agentPoolProfiles` (components/azure/cluster.py: AKS
  lists the worker pools there too, and a refresh would copy them into the cluster's inputs),
  so a change of the system pool is dropped. pulumi-azure-native sends one PUT per update
  (pulumi-azure-native#579), and through the managed-cluster API AKS takes a pool's
  `orchestratorVersion` only unchanged or equal to the control plane's
  (NotAllAgentPoolOrchestratorVersionSpecifiedAndUnchanged, pulumi-azure-native#2094); a
  pool's minor must stay within two minors of the control plane ("Upgrade options for AKS",
  learn.microsoft.com/azure/aks/upgrade-cluster).
- A bucket's or storage account's name is global: a replacement keeps it, and the create
  collides with the old one, which `retainOnDelete` keeps (preflight/disruption.py names
  the way).
"""

from __future__ import annotations

import json
from typing import Any

from preflight.planfile import Resource, type_matches

AKS = "azure-native:containerservice:ManagedCluster"
# The spec's systemPool keys as the cluster's agentPoolProfiles[0] carries them.
SYSTEM_POOL_KEYS = {"vmSize": "instanceType", "minCount": "minCount", "maxCount": "maxCount"}


def _inputs(resource: Resource | None) -> dict[str, Any]:
    inputs = (resource or {}).get("inputs")
    return inputs if isinstance(inputs, dict) else {}


def _get(value: Any, *keys: str | int) -> Any:
    for key in keys:
        if isinstance(key, int):
            value = value[key] if isinstance(value, list) and len(value) > key else None
        else:
            value = value.get(key) if isinstance(value, dict) else None
    return value


def refused_updates(base: Resource | None, head: Resource, action: str) -> list[str]:
    """REFUSED reasons for a change the cloud rejects, whatever the provider plans."""
    if base is None or action not in ("update", "replace") or not type_matches(head, AKS):
        return []
    old, new = _inputs(base), _inputs(head)
    reasons = []
    was_private = _get(old, "apiServerAccessProfile", "enablePrivateCluster") is True
    is_private = _get(new, "apiServerAccessProfile", "enablePrivateCluster") is True
    if was_private != is_private:
        reasons.append(
            "REFUSED: AKS chooses a public or a private API server when it creates the cluster (private link); "
            f"it refuses to make an existing one {'private' if is_private else 'public'}, and the provider plans "
            "an update, which fails. Revert cluster.apiServer.private; to change it, add a cloud resource under a "
            "new name with the API server you want, move the workloads there, then remove this one."
        )
    had_entra = isinstance(old.get("aadProfile"), dict)
    has_entra = isinstance(new.get("aadProfile"), dict)
    if new.get("disableLocalAccounts") is True and old.get("disableLocalAccounts") is not True and not had_entra:
        reasons.append(
            "REFUSED: Entra ID and local accounts off in one change: the preview reads the existing cluster's "
            "credentials as a kubelogin kubeconfig, but the cluster has no Entra ID yet, so AKS returns a "
            "certificate one and preview and update fail. Two steps: first add adminGroupObjectIds with "
            "disableLocalAccounts: false and apply; then set disableLocalAccounts: true and apply."
        )
    if had_entra and not has_entra:
        reasons.append(
            "REFUSED: AKS-managed Entra ID cannot be turned off once on; removing adminGroupObjectIds would send "
            "a cluster without it, which AKS rejects. Keep adminGroupObjectIds (it may list other groups)."
        )
    return reasons + system_pool_reasons(base, head)


def system_pool_reasons(base: Resource, head: Resource) -> list[str]:
    """A systemPool edit that `ignoreChanges: agentPoolProfiles` drops: refused, with the way."""
    if "agentPoolProfiles" not in ((head.get("options") or {}).get("ignoreChanges") or []):
        return []
    old, new = (_get(_inputs(r), "agentPoolProfiles", 0) for r in (base, head))
    if not isinstance(old, dict) or not isinstance(new, dict):
        return []
    reasons = []
    for key, spec_key in SYSTEM_POOL_KEYS.items():
        if old.get(key) != new.get(key):
            way = (
                "AKS cannot change a pool's VM size in place and the system pool is part of the cluster: a new "
                "size means a new cluster (add a cloud resource under a new name, move the workloads, remove this "
                "one); or add a System-mode pool of the new size with `az aks nodepool add --mode System`, then "
                "delete the old one, by hand"
                if key == "vmSize"
                else "change it by hand (`az aks nodepool update --name system --update-cluster-autoscaler "
                "--min-count N --max-count M`), then keep the stack's value equal to it"
            )
            reasons.append(
                f"REFUSED: cluster.systemPool.{spec_key} {json.dumps(old.get(key))} -> {json.dumps(new.get(key))} "
                "never reaches AKS: the cluster ignores agentPoolProfiles (AKS lists the worker pools there too), "
                f"so `pulumi up` drops it without a word. Revert it, or {way}."
            )
    return reasons


def system_pool_notes(base: Resource | None, head: Resource) -> list[str]:
    """A control-plane minor change leaves the system pool where it is: the command that moves it."""
    if base is None or not type_matches(head, AKS):
        return []
    old, new = (_get(_inputs(r), "kubernetesVersion") for r in (base, head))
    if old == new or not isinstance(new, str):
        return []
    name, group = _inputs(head).get("resourceName"), _inputs(head).get("resourceGroupName")
    return [
        f"the system pool stays at its version ({json.dumps(old)}): the cluster ignores agentPoolProfiles and the "
        "`patch` auto-upgrade channel never changes a minor. After this apply run `az aks nodepool upgrade "
        f"-g {group} --cluster-name {name} --name system --kubernetes-version {new}`; AKS refuses a control-plane "
        "upgrade that leaves a pool more than two minors behind"
    ]
