"""The Anyscale operator's settings: the chart keys the program sets, the user's extra
values, and the Helm `--set` paths both take (the AKS extension takes only those)."""

from __future__ import annotations

import re
from typing import Any

import pulumi

from components import defaults
from components.addons.gateway import GATEWAY_API
from components.target import Target
from config import Secret


def operator_settings(
    target: Target, cloud_resource_id: pulumi.Input[str], gateway_address: pulumi.Input[str]
) -> dict[str, Any]:
    """The chart keys we set (flat, dotted). Every key must be one the chart's templates
    read (shared/reference): Helm silently ignores anything else."""
    settings: dict[str, Any] = {
        "global.cloudDeploymentId": cloud_resource_id,
        "global.cloudProvider": target.provider.lower(),
        "global.controlPlaneURL": defaults.CONSOLE_ORIGIN,
        "networking.gateway.enabled": True,
        "networking.gateway.name": defaults.GATEWAY_NAME,
        "networking.gateway.namespace": defaults.OPERATOR_NAMESPACE,
        "networking.gateway.apiVersion": GATEWAY_API,
        f"networking.gateway.{target.gateway_address_kind}": gateway_address,
        "operator.serviceAccount.name": defaults.OPERATOR_SERVICE_ACCOUNT,
        # Ray pods run as their own account (ClusterAddons creates it, annotated with the
        # workloads' cloud identity), not the operator's: the chart binds the operator's to a
        # Role over secrets, pods and configmaps (templates/role_binding.yaml, _rbac_rules.tpl).
        "workloads.serviceAccount.name": defaults.WORKLOAD_SERVICE_ACCOUNT,
    }
    if target.operator_identity is not None:
        settings["global.auth.iamIdentity"] = target.operator_identity
    settings.update(target.operator_settings)
    return settings


def operator_values(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, pulumi.Output[str]]]:
    """`addons.anyscaleOperator.values` (flat Helm paths, checked by the spec) split into
    clear settings and secret ones (`{secure: ...}` in the stack file)."""
    clear = {k: v for k, v in values.items() if not isinstance(v, Secret)}
    secret = {k: pulumi.Output.secret(v.value) for k, v in values.items() if isinstance(v, Secret)}
    return clear, secret


PATH_PART = re.compile(r"((?:[^.\\[]|\\.)+)((?:\[[0-9]+\])*)")


def path_parts(key: str) -> list[str | int]:
    """A Helm `--set` path -> its parts: `a.b\\.c[0].d` -> ["a", "b.c", 0, "d"]."""
    parts: list[str | int] = []
    for match in PATH_PART.finditer(key):
        parts.append(match.group(1).replace("\\.", "."))
        parts += [int(i) for i in re.findall(r"\[([0-9]+)\]", match.group(2))]
    return parts


def nest(flat: dict[str, Any]) -> dict[str, Any]:
    """{"a.b": 1, "a.c[0]": 2} -> {"a": {"b": 1, "c": [2]}}: Helm values from the flat
    chart keys (Helm `--set` paths, as the AKS extension takes them)."""
    tree: dict[str, Any] = {}
    for key, value in flat.items():
        node: Any = tree
        *parents, leaf = path_parts(key)
        for part, child in zip(parents, [*parents[1:], leaf], strict=True):
            empty: Any = [] if isinstance(child, int) else {}
            if isinstance(part, int):
                node.extend(empty for _ in range(part + 1 - len(node)))
                node[part] = node[part] or empty
                node = node[part]
            else:
                node = node.setdefault(part, empty)
        if isinstance(leaf, int):
            node.extend(None for _ in range(leaf + 1 - len(node)))
        node[leaf] = value
    return tree


def as_extension_setting(value: Any) -> Any:
    """Extension settings are strings; booleans become "true"/"false", numbers digits."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return value
