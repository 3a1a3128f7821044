"""What a plan's imports (`options.import`, from the stack's `adopt` keys) would find, as
far as a plan tells offline: the ID's type, resource group and name against the inputs
the resource is imported with. An import whose inputs differ from what Azure holds fails
("inputs to import do not match the existing resource"); for a registration, whose
properties never change, a different name or parent is another record altogether."""

from __future__ import annotations

from config.adopt import parse_arm_id
from preflight.planfile import Resource, holds_unknown, import_id, normalize_type, registration_kind

# Per resource type: the ARM type its ID names, and the inputs holding each name along the
# ID (the last is the resource's own; an extension's first is its cluster's).
NAME_INPUTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "azure-native:resources:ResourceGroup": ("", ()),
    "azure-native:containerregistry:Registry": ("Microsoft.ContainerRegistry/registries", ("registryName",)),
    "azure-native:containerservice:ManagedCluster": ("Microsoft.ContainerService/managedClusters", ("resourceName",)),
    "azure-native:storage:StorageAccount": ("Microsoft.Storage/storageAccounts", ("accountName",)),
    "azure-native:storage:BlobContainer": (
        "Microsoft.Storage/storageAccounts/blobServices/containers",
        ("accountName", "", "containerName"),
    ),
    "azure-native:managedidentity:UserAssignedIdentity": (
        "Microsoft.ManagedIdentity/userAssignedIdentities",
        ("resourceName",),
    ),
    "azure-native:kubernetesconfiguration:Extension": (
        "Microsoft.ContainerService/managedClusters/providers/Microsoft.KubernetesConfiguration/extensions",
        ("clusterName", "extensionName"),
    ),
}


def _expected(resource: Resource) -> tuple[str, list[str | None]] | None:
    """The ARM type and the names along the ID the resource's inputs make, if known."""
    inputs = resource.get("inputs") or {}
    kind = registration_kind(resource)
    if kind == "cloud":
        return "Anyscale.Platform/clouds", [inputs.get("resourceName")]
    if kind == "cloudResource":
        parent = str(inputs.get("parentResourcePath", ""))
        cloud = parent.split("/", 1)[1] if parent.startswith("clouds/") else None
        return "Anyscale.Platform/clouds/cloudResources", [cloud, inputs.get("resourceName")]
    row = NAME_INPUTS.get(normalize_type(str(resource.get("type", ""))))
    if row is None:
        return None
    arm_type, keys = row
    if not keys:  # a resource group: its name is the ID's group
        return arm_type, []
    return arm_type, [inputs.get(k) if k else "default" for k in keys]


def import_problems(resource: Resource) -> list[str]:
    """Why importing this resource's ID would fail or replace it; [] when nothing offline says so."""
    value = import_id(resource)
    if value is None:
        return []
    parsed = parse_arm_id(value)
    if parsed is None:
        return [f"imports '{value}', which is not an Azure resource ID: the import fails"]
    expected = _expected(resource)
    if expected is None:
        return []
    arm_type, names = expected
    problems = []
    if parsed.kind.lower() != arm_type.lower():
        problems.append(f"imports a {parsed.kind or 'resource group'} ID into a {arm_type or 'resource group'}")
        return problems
    inputs = resource.get("inputs") or {}
    group = inputs.get("resourceGroupName")
    if isinstance(group, str) and not holds_unknown(group) and group != parsed.resource_group:
        problems.append(
            f"imports from resource group '{parsed.resource_group}', but is declared in '{group}': the import fails"
        )
    for ours, theirs in zip(names, parsed.names(), strict=False):
        if isinstance(ours, str) and not holds_unknown(ours) and ours != theirs:
            problems.append(f"imports '{theirs}', but is declared as '{ours}': the import fails")
    return problems
