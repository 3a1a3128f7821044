"""Typical creation times per resource type, for the rollout estimate.

Where the numbers come from: typical provisioning times as commonly observed and
as the providers' docs describe them ("an AKS cluster takes about ten minutes").
They are ESTIMATES, not measurements of this program: real times vary with region,
API load, node count and image pulls. Edit them freely; only their relative sizes
matter much for finding the critical path.
"""

from __future__ import annotations

from preflight.planfile import Resource, is_component, registration_kind, type_matches

# (glob over the normalized type token, seconds). The first matching row wins, so
# specific rows come before the broad ones.
DURATIONS: list[tuple[str, int]] = [
    ("pulumi:*", 0),  # the stack and providers: no cloud call
    ("random:*", 0),  # computed locally
    ("azure-native:containerservice:ManagedCluster", 600),  # AKS cluster
    ("azure-native:containerservice:AgentPool", 240),  # AKS node pool
    ("azure-native:containerservice:MaintenanceConfiguration", 10),  # AKS planned maintenance window
    ("azure-native:kubernetesconfiguration:Extension", 300),  # AKS cluster extension (operator)
    ("aws:eks:Cluster", 600),
    ("aws:eks:NodeGroup", 300),
    ("gcp:container:Cluster", 420),
    ("gcp:container:NodePool", 240),
    ("kubernetes:helm.sh/*:Release", 90),  # install and wait for readiness
    ("kubernetes:*", 5),  # a plain Kubernetes object
    ("azure-native:storage:StorageAccount", 30),
    ("azure-native:authorization:RoleAssignment", 20),
]

REGISTRATION_SECONDS = 60  # Anyscale.Platform/clouds/cloudResources
CLOUD_RECORD_SECONDS = 60  # Anyscale.Platform/clouds
COMPONENT_SECONDS = 0  # components only group their children
DEFAULT_SECONDS = 10  # anything not listed above


def seconds_for(resource: Resource) -> int:
    """Estimated creation time of one plan resource, in seconds."""
    if is_component(resource):
        return COMPONENT_SECONDS
    # Both Anyscale records are the generic `azure-native:resources:Resource`; only
    # their inputs tell them apart from each other and from other generic resources.
    kind = registration_kind(resource)
    if kind == "cloudResource":
        return REGISTRATION_SECONDS
    if kind == "cloud":
        return CLOUD_RECORD_SECONDS
    for pattern, seconds in DURATIONS:
        if type_matches(resource, pattern):
            return seconds
    return DEFAULT_SECONDS
