"""Risky scaling changes of EKS managed node groups, named in `preflight diff`.

The program sends a node group's bounds (`minSize`, `maxSize`) and leaves its current size
(`desiredSize`) to the Cluster Autoscaler (ignoreChanges). On an update the provider sends
all three, the size taken from the state, which the project's `refresh: always` (Pulumi.yaml)
makes the live size first. EKS refuses the whole update, and changes nothing, when the live
size is outside the new bounds (docs/what-it-creates.md, "EKS node-group scaling"): a raised
minimum above it, a lowered maximum below it. Neither can be known offline, so both are named.
"""

from __future__ import annotations

from typing import Any

from preflight.planfile import Resource, resource_name, type_matches


def _bounds(resource: Resource) -> tuple[Any, Any]:
    scaling = (resource.get("inputs") or {}).get("scalingConfig") or {}
    return scaling.get("minSize"), scaling.get("maxSize")


def _numbers(*values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def scaling_risks(base: Resource, head: Resource) -> list[str]:
    """Why an update of a node group's bounds may be refused by EKS (empty when it cannot)."""
    if not type_matches(head, "aws:eks:NodeGroup"):
        return []
    (old_min, old_max), (new_min, new_max) = _bounds(base), _bounds(head)
    group = str((head.get("inputs") or {}).get("nodeGroupName") or resource_name(head))
    risks = []
    if _numbers(old_min, new_min) and new_min > old_min:
        risks.append(
            f"Node group '{group}': minCount {old_min} -> {new_min}. EKS refuses the update (and changes nothing) "
            f"while the group runs fewer than {new_min} nodes; if it does, first scale it up: aws eks "
            f"update-nodegroup-config --nodegroup-name {group} --scaling-config desiredSize={new_min}"
        )
    if _numbers(old_max, new_max) and new_max < old_max:
        risks.append(
            f"Node group '{group}': maxCount {old_max} -> {new_max}. EKS refuses the update (and changes nothing) "
            f"while the group runs more than {new_max} nodes; let the autoscaler scale it down first (idle nodes "
            "go after about 10 minutes), or drain the surplus nodes yourself."
        )
    return risks
