"""Why a change is disruptive: the reasons `preflight diff` gives for replacing or deleting
the platform's records, a cluster or a bucket, and for a control-plane version change the
clouds refuse."""

from __future__ import annotations

import json
import re
from typing import Any

from preflight.planfile import (
    Resource,
    bucket_kind,
    is_cluster,
    is_registration,
    registration_kind,
    resource_name,
    type_matches,
)

PRIMARY = "default"


def registration_reasons(resource: Resource, action: str, owner: str | None) -> list[str]:
    name = str((resource.get("inputs") or {}).get("resourceName") or owner or resource_name(resource))
    reasons = []
    if action == "replace":
        reasons.append(
            f"The platform fixes a cloud resource's name, location, cloud and properties: '{name}' is deleted, "
            "then created again under the same name."
        )
    reasons += [
        f"Azure refuses to delete '{name}' (HTTP 409) while it has running clusters: terminate its workloads first.",
        f"Workspaces that ran on '{name}' lose their snapshot (stored in its bucket).",
    ]
    if name == PRIMARY:
        reasons.append(f"Services run only on the primary '{PRIMARY}': they are down until it is back.")
        if action == "delete":
            reasons.append(
                f"'{PRIMARY}' is the primary: it must stay first and Azure-backed; "
                "it cannot be recreated while other cloud resources exist."
            )
    else:
        reasons.append(
            f"Services are not affected (they run only on the primary '{PRIMARY}'); jobs that may "
            "fall back to other cloud resources move there, workspaces cannot."
        )
    return reasons


# The input holding a bucket's global name (a storage account's, an S3 or GCS bucket's).
BUCKET_NAME_INPUTS = {
    "azure-native:storage:StorageAccount": "accountName",
    "aws:s3:Bucket": "bucket",
    "aws:s3:BucketV2": "bucket",
    "gcp:storage:Bucket": "name",
}


def bucket_name_input(resource: Resource) -> str | None:
    return next((k for pattern, k in BUCKET_NAME_INPUTS.items() if type_matches(resource, pattern)), None)


def bucket_name(resource: Resource) -> Any:
    key = bucket_name_input(resource)
    return (resource.get("inputs") or {}).get(key) if key else None


def same_name_bucket_reason(
    resource: Resource, options: dict[str, Any], base: Resource | None, renamed: bool
) -> list[str]:
    """A replaced bucket that keeps its global name: the create collides with the old one
    (still there: replacements create first, and retainOnDelete keeps it even when deleted).
    `renamed`: the name input changed, or reads a replaced resource (a new random suffix)."""
    name = bucket_name(resource)
    if base is None or name is None or renamed or bucket_name(base) != name:
        return []
    if options.get("deleteBeforeReplace") and not options.get("retainOnDelete"):
        return []
    kind = bucket_kind(resource) or "bucket"
    return [
        f"REFUSED: the replacement keeps the {kind}'s name {json.dumps(name)}, which is global: the cloud refuses "
        f"to create it while the old {kind} exists ('already exists', 'already taken'), and "
        + ("retainOnDelete keeps the old one. " if options.get("retainOnDelete") else "replacements create first. ")
        + "Revert the change (a storage region is chosen once); to move the data, create a bucket in the new "
        "region, copy the data (azcopy, aws s3 sync, gcloud storage rsync), then name it in storage.bucket (an "
        "existing bucket), or add a cloud resource under a new name, whose bucket gets a new name."
    ]


def bucket_reasons(resource: Resource, action: str, options: dict[str, Any]) -> list[str]:
    kind = bucket_kind(resource) or "bucket"
    if options.get("retainOnDelete"):
        return [
            f"retainOnDelete is set: the old {kind}'s logs and workspace snapshots are kept, but orphaned "
            "(no longer managed, and no longer read by its cloud resource)."
        ]
    verb = "Replacing" if action == "replace" else "Deleting"
    return [f"{verb} the {kind} loses the logs and workspace snapshots stored in it."]


def cloud_record_reasons(resource: Resource, action: str) -> list[str]:
    name = str((resource.get("inputs") or {}).get("resourceName") or resource_name(resource))
    first = (
        f"Replacing the cloud record '{name}' deletes it, then creates it again: its ID changes"
        if action == "replace"
        else f"Deleting the cloud record '{name}' removes the Anyscale cloud"
    )
    return [
        f"{first}, and every cloud resource registered under it (Anyscale.Platform/clouds/{name}/cloudResources) "
        "is deleted with it.",
        "Azure refuses the delete (HTTP 409) while clusters run on any of its cloud resources; once it succeeds, "
        "services, jobs and workspaces on the cloud stop, and each cloud resource must be registered again.",
    ]


# Where each cluster type holds its Kubernetes version (AKS, EKS, GKE's minimum).
VERSION_INPUT = {
    "azure-native:containerservice:ManagedCluster": "kubernetesVersion",
    "aws:eks/cluster:Cluster": "version",
    "gcp:container/cluster:Cluster": "minMasterVersion",
}
MINOR = re.compile(r"1\.([0-9]+)(\.[0-9]+)?")


def version_reasons(base: Resource | None, head: Resource) -> list[str]:
    """A control-plane version change the clouds refuse: more than one minor up, or down."""
    key = VERSION_INPUT.get(str(head.get("type")))
    if base is None or key is None:
        return []
    old, new = ((r.get("inputs") or {}).get(key) for r in (base, head))
    old_minor, new_minor = (MINOR.fullmatch(v) if isinstance(v, str) else None for v in (old, new))
    if old_minor is None or new_minor is None:
        return []
    step = int(new_minor.group(1)) - int(old_minor.group(1))
    if step > 1:
        return [
            f"Blocked: the control plane would move from Kubernetes {old} to {new}, {step} minors at once; AKS, EKS "
            f"and GKE upgrade one minor at a time and refuse the jump. Go to 1.{int(old_minor.group(1)) + 1} first, "
            "apply, then take the next minor."
        ]
    if step < 0:
        return [
            f"Blocked: the control plane would move from Kubernetes {old} down to {new}; the clouds do not "
            "downgrade a cluster's minor (only a new cluster can run the older one)."
        ]
    return []


# The input holding a cluster's physical name, which a replacement keeps.
CLUSTER_NAME_INPUTS = {
    "azure-native:containerservice:ManagedCluster": "resourceName",
    "aws:eks:Cluster": "name",
    "gcp:container:Cluster": "name",
}


def cluster_name(resource: Resource) -> Any:
    key = next((k for pattern, k in CLUSTER_NAME_INPUTS.items() if type_matches(resource, pattern)), "name")
    return (resource.get("inputs") or {}).get(key)


def fixed_name_reason(name: Any) -> str:
    """Clusters are replaced create-first and keep their name, so the create collides with
    the cluster it replaces. The program never replaces them delete-first: that would turn
    one changed input into the loss of every workload, add-on and load balancer in them."""
    return (
        f"REFUSED: the replacement keeps the name {json.dumps(name)}, and the cloud refuses to create it while "
        "the old cluster exists ('already exists'); with cloud.protect on, the engine refuses it at preview. "
        "Revert the change, or add a cloud resource under a new name, move the workloads there, then remove "
        "this one."
    )


def disruption_reasons(
    resource: Resource, action: str, options: dict[str, Any], owner: str | None, base: Resource | None = None
) -> list[str]:
    if action not in ("replace", "delete"):
        return []
    if registration_kind(resource) == "cloud":
        return cloud_record_reasons(resource, action)
    if is_registration(resource):
        return registration_reasons(resource, action, owner)
    if is_cluster(resource):
        verb = "Replacing" if action == "replace" else "Deleting"
        reasons = [
            f"{verb} the cluster destroys its running workloads and everything in it "
            "(operators, gateway, Ray clusters)."
        ]
        name = cluster_name(resource)
        if action == "replace" and not options.get("deleteBeforeReplace") and base and cluster_name(base) == name:
            reasons.append(fixed_name_reason(name))
        return reasons
    if bucket_kind(resource):
        return bucket_reasons(resource, action, options)
    return []
