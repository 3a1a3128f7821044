"""Clusters and what runs in them: AKS workload identity, pinned charts, and the
Anyscale operator's settings (platform.md 4)."""

from __future__ import annotations

import re
from typing import Any

from rules.chart_keys import FORBIDDEN_KEYS, TEMPLATE_KEYS, holds_listed, listed_or_under
from rules.plan_records import EXTENSION, HELM_CHART, HELM_RELEASE
from rules.values import (
    MISSING,
    UNKNOWN,
    FlatSettings,
    flatten,
    get,
    in_passing,
    is_map,
    is_unknown,
    keys,
    raw,
    sample,
    setting,
    type_is,
    unchecked,
)

HELM_RELEASES = (HELM_RELEASE, HELM_CHART)
OPERATOR_EXTENSION_TYPE = "anyscale.aks.operator"
OPERATOR_CHART = "anyscale-operator"


# --- AKS ----------------------------------------------------------------------------------


def aks_identity_problems(props: Any) -> list[str]:
    """The operator's managed identity is federated to the cluster's OIDC issuer."""
    problems = []
    oidc = get(props, "oidcIssuerProfile", "enabled")
    if oidc is not UNKNOWN and oidc is not True:
        problems.append(
            "the OIDC issuer is off: the operator's identity is federated to it; set oidc_issuer_profile={'enabled': True}"
        )
    workload = get(props, "securityProfile", "workloadIdentity", "enabled")
    if workload is not UNKNOWN and workload is not True:
        problems.append(
            "workload identity is off: the operator gets no cloud credentials without it; "
            "set security_profile={'workload_identity': {'enabled': True}}"
        )
    return problems


def aks_rbac_problems(props: Any) -> list[str]:
    if get(props, "enableRBAC") is not False:
        return []
    return [
        "Kubernetes RBAC is off (enableRBAC: false): every authenticated user and pod is cluster-admin; "
        "set enable_rbac=True (it cannot be turned on later without recreating the cluster)"
    ]


def aks_local_account_problems(props: Any) -> list[str]:
    disabled = get(props, "disableLocalAccounts")
    if disabled is UNKNOWN or disabled is True:
        return []
    return [
        "local accounts are enabled: anyone with the static admin kubeconfig bypasses Entra ID; set "
        "cluster.disableLocalAccounts: true in the stack once Entra ID RBAC for the cluster is set up"
    ]


def aks_sku_problems(props: Any, disallowed_tiers: list[str]) -> list[str]:
    tier = get(props, "sku", "tier")
    if isinstance(tier, str) and tier in disallowed_tiers:
        return [
            f"the cluster runs on the {tier} tier (no uptime SLA for the API server): set cluster.skuTier: Standard "
            "in the stack for anything users depend on"
        ]
    return []


# --- charts ---------------------------------------------------------------------------------


def chart_name(props: Any) -> Any:
    chart = get(props, "chart")
    return chart.rstrip("/").rsplit("/", 1)[-1] if isinstance(chart, str) else chart


# One exact version (SemVer, Helm's optional leading v): not a range (`>=1.0.0`, `~1.2`, `^1`,
# `1.x`, `*`), not a tag (`latest`). Helm resolves a range to the newest match on every deploy.
PINNED_VERSION_RE = re.compile(
    r"v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?"
)


def chart_version_problems(resource_type: str, props: Any) -> list[str]:
    if type_is(resource_type, EXTENSION):
        if not is_operator_extension(props):
            return []
        version = get(props, "version")
        problems = []
        if version is MISSING or version == "":
            problems.append(
                "the operator extension's version is not pinned: set version (e.g. addons.anyscaleOperator.version)"
            )
        elif _not_exact(props, version):
            problems.append(
                f"the operator extension's version {version!r} is not one exact version: pin one, e.g. 1.8.0"
            )
        elif get(props, "autoUpgradeMinorVersion") not in (False, UNKNOWN):
            problems.append("autoUpgradeMinorVersion is on with a pinned version: set auto_upgrade_minor_version=False")
        return problems
    version = get(props, "version")
    with in_passing():  # the name only words the message
        name = chart_name(props)
    what = f"chart {name!r}" if isinstance(name, str) else "the chart"
    if version is MISSING or version == "":
        return [
            f"{what} has no version: an unpinned chart upgrades on any deploy; pin version (see components/defaults.py)"
        ]
    if _not_exact(props, version):
        return [
            f"{what} has version {version!r}, which is not one exact version: Helm installs the newest match on any "
            "deploy; pin an exact version like 1.8.0 (see components/defaults.py)"
        ]
    return []


def _not_exact(props: Any, version: Any) -> bool:
    """A known version that is not one exact version (one with a placeholder in it is not known yet)."""
    if isinstance(version, str) and sample(version) != version:
        unchecked(props, "version")
        return False
    if version is UNKNOWN:
        return False
    return not (isinstance(version, str) and PINNED_VERSION_RE.fullmatch(version))


# --- the Anyscale operator -------------------------------------------------------------------


def is_operator_extension(props: Any) -> bool:
    kind = get(props, "extensionType")
    return isinstance(kind, str) and kind.lower() == OPERATOR_EXTENSION_TYPE


def operator_settings(resource_type: str, props: Any) -> Any:
    """The operator's chart keys, flat and dotted: the AKS extension's configuration
    settings (both kinds), or the Helm release's values, with raw values (placeholders
    kept). UNKNOWN where not known yet, None when the resource is not the operator."""
    if type_is(resource_type, EXTENSION):
        if not is_operator_extension(props):
            return None
        settings = FlatSettings()
        for key in ("configurationSettings", "configurationProtectedSettings"):
            with in_passing():  # noted below where it matters
                part = get(props, key)
            if is_map(part):
                for k in keys(part):
                    settings.put(k, raw(part, k), part, k)
            elif part is UNKNOWN and key == "configurationSettings":
                unchecked(props, key)
                return UNKNOWN
            # protected settings are often a secret as a whole: keys unseen, nothing to check
        return settings
    if type_is(resource_type, *HELM_RELEASES) and chart_name(props) == OPERATOR_CHART:
        values = get(props, "values")
        if values is UNKNOWN:
            return UNKNOWN
        return flatten(values) if is_map(values) else FlatSettings()
    return None


def control_plane_problems(settings: Any, url: str) -> list[str]:
    if settings is None or settings is UNKNOWN:
        return []
    value = setting(settings, "global.controlPlaneURL")
    if (value is not MISSING and is_unknown(value)) or value == url:
        return []
    if value is MISSING:
        return [
            f"global.controlPlaneURL is not set: the chart's default points at another control plane; set it to {url}"
        ]
    if isinstance(value, str) and value.rstrip("/") == url:
        return [f"global.controlPlaneURL is {value!r}: drop the trailing slash, use exactly {url}"]
    return [
        f"global.controlPlaneURL is {value!r}: the operator would talk to the wrong control plane; use exactly {url}"
    ]


def chart_key_problems(settings: Any, extra_allowed: list[str]) -> list[str]:
    if settings is None or settings is UNKNOWN:
        return []
    allowed = TEMPLATE_KEYS | set(extra_allowed)
    problems = []
    unread = []
    for key in sorted(settings):
        if key in FORBIDDEN_KEYS:
            problems.append(f"sets {key}: {FORBIDDEN_KEYS[key]}; remove it")
        elif listed_or_under(key, allowed):
            continue
        elif is_unknown(settings[key]) and holds_listed(key, allowed):
            unchecked(settings, key)  # an unknown map above listed keys (`global` not known yet) may hold others
        else:
            unread.append(key)
    if unread:
        problems.append(
            f"sets {', '.join(unread)}, which the anyscale-operator chart does not read: Helm silently "
            "ignores unknown keys (no values schema); fix the spelling or remove them (see policy/rules/chart_keys.py)"
        )
    return problems
