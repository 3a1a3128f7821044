"""The inputs whose change makes a provider replace a resource, from the providers' own rules:
pulumi-azure-native's replacement rules, and the ForceNew fields of the Terraform providers
pulumi-aws and pulumi-gcp bridge (TERRAFORM_FORCE_NEW, in preflight/replacements_terraform.py:
each row with its upstream file, line and commit, and whether that commit is established as
the upstream of our pinned SDK; none is yet, see there).

A change the provider cannot make in place is a replacement whatever the program's
`replaceOnChanges` says; `preflight diff` must show it as one (and, on a fixed-name cluster,
refuse it with the way through: preflight/disruption.py), never as an update.

Source, pulumi-azure-native: provider/pkg/gen/replacement.go, `forceNewMap` (the properties
that force a replacement per module and resource, on top of the API's `x-ms-mutability:
create` properties), read at commit 1b7112af33c62b247daed1028686bf279f4d5e69 on 2026-12-02.
The program pins pulumi-azure-native 3.29.0 (requirements.in); that the commit read is the
one 3.29.0 was built from is not confirmed here: the ContainerService rows match the issue
that reported them (networkProfile's sub-properties, pulumi-azure-native#4756). The names
there are property names wherever they occur in the resource; the rows below place them at
the paths the program's inputs have them.
"""

from __future__ import annotations

from typing import Final

from preflight.replacements_terraform import TERRAFORM_FORCE_NEW, ForceNew

__all__ = ["PROVIDER_REPLACES", "TERRAFORM_FORCE_NEW", "ForceNew"]

# (type glob, input paths): every row whose glob matches the normalized type applies.
PROVIDER_REPLACES: Final[list[tuple[str, tuple[str, ...]]]] = [
    (
        # forceNewMap["ContainerService"]["ManagedCluster"]
        "azure-native:containerservice:ManagedCluster",
        (
            "diskEncryptionSetID",
            "dnsPrefix",
            "fqdnSubdomain",
            "linuxProfile",
            "location",
            "nodeResourceGroup",
            "windowsProfile",
            "networkProfile.serviceCidr",
            "networkProfile.serviceCidrs",
            "networkProfile.dnsServiceIP",
            "networkProfile.networkMode",
            "networkProfile.networkPlugin",
            "networkProfile.networkPluginMode",
            "networkProfile.podCidr",
            "networkProfile.networkDataplane",
            "networkProfile.networkPolicy",
            "networkProfile.outboundType",
            "agentPoolProfiles[*].networkProfile.nodePublicIPTags",
        ),
    ),
    # forceNewMap["ContainerService"]["AgentPool"]
    ("azure-native:containerservice:AgentPool", ("gpuInstanceProfile", "vmSize", "networkProfile.nodePublicIPTags")),
    # forceNewMap["Storage"]["StorageAccount"]
    ("azure-native:storage:StorageAccount", ("isHnsEnabled", "location")),
    # forceNewMap["Network"]
    ("azure-native:network:VirtualNetwork", ("location",)),
    ("azure-native:network:PublicIPAddress", ("location", "publicIPAddressVersion", "publicIPPrefix", "sku")),
    ("azure-native:network:PrivateEndpoint", ("subnet",)),
    # forceNewMap["Authorization"]["RoleAssignment"]
    ("azure-native:authorization:RoleAssignment", ("principalId", "scope")),
]

# The Terraform providers' ForceNew fields, verified or not: a row not yet verified is still
# the best reading there is, and showing a replacement that turns out an update is the safe
# error (the reviewer looks), where the reverse hides a cluster's loss.
PROVIDER_REPLACES.extend((row.type, (row.path,)) for row in TERRAFORM_FORCE_NEW)
