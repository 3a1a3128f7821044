"""The ForceNew fields of the Terraform providers pulumi-gcp and pulumi-aws bridge, for the
inputs the program sets (preflight/replacements.py adds them to the provider's replace rules).

Each row names the Pulumi type, the input path Pulumi gives the field (snake_case becomes
camelCase; a block of at most one item becomes an object, a list keeps its plural Pulumi
name: `guest_accelerator` is `guestAccelerators`), the upstream file:line of the field's key
and the commit it was read at, and whether that commit is established as the one our pinned
SDK was built from (`verified`). NO ROW IS VERIFIED: the upstream commit behind neither pin
could be read here (below, per provider).

How a nested ForceNew counts (terraform-plugin-sdk v2, which both providers' resources below
use): ForceNew on a block (a list or set of objects) forces a replacement only when the block
is added or removed (its item count changes); a field inside the block forces one when that
field changes, whether or not the block itself is ForceNew, unless a CustomizeDiff clears it.
So a row is a leaf field, not its block, unless every field of the block is ForceNew (then
the block row is exact). preflight/changes.py treats a change of an ancestor of a row's path
(the whole block added or removed) as forcing too, which covers the block's own ForceNew.

Read on 2026-12-02.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class ForceNew:
    """One ForceNew field of a bridged Terraform provider's schema, at its Pulumi input path."""

    type: str  # the normalized Pulumi type token
    path: str
    source: str  # upstream file:line (the field's key) at `commit`
    commit: str
    verified: bool  # is `commit` established as the upstream of our pinned SDK?


# --------------------------------------------------------------------------------
# pulumi-gcp 10.2.0 (requirements.in) bridges hashicorp/terraform-provider-google-beta v8.x.
#
# What was established: pulumi-gcp's docs/version-10-update.md says "Version 10.0.0 tracks
# the upstream terraform-provider-google-beta v8.0.0 release" (code index, pulumi/pulumi-gcp
# at commit 6e063ee34c2fc5bedee2dac5f9ef6a714bcdee17; a later revision, 0e82cc52ca8e3830795c
# 7eea723a71080ba6eeec, says v8.5.0), and PyPI lists 10.2.0 pre-releases built 2026-10-07 to
# 2026-10-13. Which v8 tag 10.2.0's `upstream` submodule points at was NOT found: the
# pulumi-gcp snapshot stored here ends 2026-08-21 at v9.35.0 (upstream v7.45.0, 3dc173a3),
# and the google-beta snapshot ends the same day, before any v8 tag.
#
# What was read: google-beta's FEATURE-BRANCH-major-release-8.0.0 at its newest commit,
# 526c796ae0b989c66edc516454f8be806958c5c2 (2026-08-20), the branch v8.0.0 is cut from; its
# changes match the v10 guide (logging/monitoring `enable_components` become sets, a node
# pool's `name_prefix` up to 31 characters). Every row below has the same ForceNew at v7.45.0
# (3dc173a397749158369ea839a2890d89f8c9c370): nothing this table covers changed between them.
# A v8 minor release after the branch may still have changed a row: unverified.
GOOGLE_V8_BRANCH: Final = "526c796ae0b989c66edc516454f8be806958c5c2"
GKE_CLUSTER = "google-beta/services/container/resource_container_cluster.go"
GKE_POOL = "google-beta/services/container/resource_container_node_pool.go"
# schemaNodeConfig(): both the cluster's `node_config` (resource_container_cluster.go:1848)
# and the pool's (resource_container_node_pool.go:551) are this schema, so its ForceNew
# fields replace a cluster too: the program sets the cluster's oauth scopes and service
# account (the default pool's, removed after creation, yet still in the cluster's inputs).
GKE_NODE_CONFIG = "google-beta/services/container/node_config.go"
GCS_BUCKET = "google-beta/services/storage/resource_storage_bucket.go"
GCP_ACCOUNT = "google-beta/services/resourcemanager/resource_google_service_account.go"


def _google(type_: str, path: str, source: str) -> ForceNew:
    return ForceNew(type_, path, source, GOOGLE_V8_BRANCH, verified=False)


GOOGLE_ROWS: Final[tuple[ForceNew, ...]] = (
    # GKE cluster: its name, place and network are chosen at creation.
    _google("gcp:container:Cluster", "name", f"{GKE_CLUSTER}:295"),
    _google("gcp:container:Cluster", "location", f"{GKE_CLUSTER}:328"),
    _google("gcp:container:Cluster", "initialNodeCount", f"{GKE_CLUSTER}:1232"),
    _google("gcp:container:Cluster", "network", f"{GKE_CLUSTER}:1814"),
    _google("gcp:container:Cluster", "project", f"{GKE_CLUSTER}:2020"),
    _google("gcp:container:Cluster", "subnetwork", f"{GKE_CLUSTER}:2028"),
    # ip_allocation_policy (:2061) is ForceNew as a block, so adding or removing it replaces;
    # of its fields only the two range names are ForceNew (`stack_type`, :2111, is not), so
    # the rows are the leaves, not the block.
    _google("gcp:container:Cluster", "ipAllocationPolicy.clusterSecondaryRangeName", f"{GKE_CLUSTER}:2093"),
    _google("gcp:container:Cluster", "ipAllocationPolicy.servicesSecondaryRangeName", f"{GKE_CLUSTER}:2102"),
    _google("gcp:container:Cluster", "networkingMode", f"{GKE_CLUSTER}:2232"),
    _google("gcp:container:Cluster", "nodeConfig.oauthScopes", f"{GKE_NODE_CONFIG}:579"),
    _google("gcp:container:Cluster", "nodeConfig.serviceAccount", f"{GKE_NODE_CONFIG}:643"),
    # GKE node pool, and the node config its nodes are made from (machine type, disk size and
    # type, labels, taints and workload metadata are updated in place: not ForceNew).
    _google("gcp:container:NodePool", "project", f"{GKE_POOL}:239"),
    _google("gcp:container:NodePool", "cluster", f"{GKE_POOL}:246"),
    _google("gcp:container:NodePool", "location", f"{GKE_POOL}:252"),
    _google("gcp:container:NodePool", "initialNodeCount", f"{GKE_POOL}:480"),
    _google("gcp:container:NodePool", "name", f"{GKE_POOL}:527"),
    # guest_accelerator (:316) and every field in it (count :324, type :330,
    # gpu_driver_installation_config :337 and its gpu_driver_version :346, ...) are ForceNew:
    # the block row is exact.
    _google("gcp:container:NodePool", "nodeConfig.guestAccelerators", f"{GKE_NODE_CONFIG}:316"),
    _google("gcp:container:NodePool", "nodeConfig.oauthScopes", f"{GKE_NODE_CONFIG}:579"),
    _google("gcp:container:NodePool", "nodeConfig.spot", f"{GKE_NODE_CONFIG}:635"),
    _google("gcp:container:NodePool", "nodeConfig.serviceAccount", f"{GKE_NODE_CONFIG}:643"),
    # GCS bucket and service accounts.
    _google("gcp:storage:Bucket", "name", f"{GCS_BUCKET}:132"),
    _google("gcp:storage:Bucket", "location", f"{GCS_BUCKET}:193"),
    _google("gcp:storage:Bucket", "project", f"{GCS_BUCKET}:203"),
    _google("gcp:serviceaccount:Account", "accountId", f"{GCP_ACCOUNT}:90"),
    _google("gcp:serviceaccount:Account", "project", f"{GCP_ACCOUNT}:114"),
)

# --------------------------------------------------------------------------------
# pulumi-aws 7.51.1 (requirements.in) bridges hashicorp/terraform-provider-aws v6.x.
#
# What was established: pulumi-aws 7.x bridges terraform-provider-aws v6 (pulumi-aws#5665,
# "Upgrade terraform-provider-aws to v6 major version", v6.3.0), and pulumi-aws v7.37.0
# (released 2026-07-15) carried v6.54.0 (its release notes), so 7.51.1 carries a v6 release
# no older than v6.54.0. The exact tag was NOT found: pulumi-aws (731 MB) and
# terraform-provider-aws (932 MB) are over the 500 MB a snapshot may have here, the
# `upstream` submodule commit is in neither's files (provider/go.mod replaces the module
# with ../upstream), and the code index stores terraform-provider-aws files without their tags.
#
# What was read: each file as the code index stores it at the commit named, its lines counted
# in that text (re-counted for this revision at cluster.go:107, node_group.go:57 and
# bucket.go:46/54; the other lines as first recorded). The EKS cluster
# and node group files are of the v6 era (aws-sdk-go-v2, `names.Attr*` keys); the S3 bucket
# file is older (aws-sdk-go v1, a v4-era file), kept because `bucket` and `bucket_prefix` have
# been ForceNew in every release since. None of these is known to be the file at the tag
# 7.51.1 was built from: unverified. A v6 change since (a field made updatable, or a new
# ForceNew field the program sets) would not show here.
EKS_CLUSTER = "internal/service/eks/cluster.go"
EKS_NODE_GROUP = "internal/service/eks/node_group.go"
S3_BUCKET = "internal/service/s3/bucket.go"
AWS_CLUSTER_COMMIT: Final = "00555dc5b38f92abbfa230badea0ed0754cea81e"
AWS_NODE_GROUP_COMMIT: Final = "012e0a32f0686212f447447fd3d81c3d0ce256ad"
AWS_BUCKET_COMMIT: Final = "0070bcd12c952f14c5434a6f351ef7b6fa791226"


def _aws(type_: str, path: str, source: str, commit: str) -> ForceNew:
    return ForceNew(type_, path, source, commit, verified=False)


AWS_ROWS: Final[tuple[ForceNew, ...]] = (
    # EKS cluster: the admin bootstrap, the service range and the cluster role are fixed
    # (vpc_config's subnets and endpoint access are updated in place: not ForceNew).
    _aws(
        "aws:eks:Cluster",
        "accessConfig.bootstrapClusterCreatorAdminPermissions",
        f"{EKS_CLUSTER}:107",
        AWS_CLUSTER_COMMIT,
    ),
    _aws("aws:eks:Cluster", "bootstrapSelfManagedAddons", f"{EKS_CLUSTER}:120", AWS_CLUSTER_COMMIT),
    _aws("aws:eks:Cluster", "kubernetesNetworkConfig.ipFamily", f"{EKS_CLUSTER}:257", AWS_CLUSTER_COMMIT),
    _aws("aws:eks:Cluster", "kubernetesNetworkConfig.serviceIpv4Cidr", f"{EKS_CLUSTER}:264", AWS_CLUSTER_COMMIT),
    _aws("aws:eks:Cluster", "name", f"{EKS_CLUSTER}:281", AWS_CLUSTER_COMMIT),
    _aws("aws:eks:Cluster", "roleArn", f"{EKS_CLUSTER}:385", AWS_CLUSTER_COMMIT),
    # EKS managed node group: everything its launch template is made from (scaling, labels,
    # taints and version are updated in place).
    _aws("aws:eks:NodeGroup", "amiType", f"{EKS_NODE_GROUP}:57", AWS_NODE_GROUP_COMMIT),
    _aws("aws:eks:NodeGroup", "capacityType", f"{EKS_NODE_GROUP}:68", AWS_NODE_GROUP_COMMIT),
    _aws("aws:eks:NodeGroup", "clusterName", f"{EKS_NODE_GROUP}:75", AWS_NODE_GROUP_COMMIT),
    _aws("aws:eks:NodeGroup", "diskSize", f"{EKS_NODE_GROUP}:81", AWS_NODE_GROUP_COMMIT),
    _aws("aws:eks:NodeGroup", "instanceTypes", f"{EKS_NODE_GROUP}:91", AWS_NODE_GROUP_COMMIT),
    _aws("aws:eks:NodeGroup", "nodeGroupName", f"{EKS_NODE_GROUP}:133", AWS_NODE_GROUP_COMMIT),
    _aws("aws:eks:NodeGroup", "nodeRoleArn", f"{EKS_NODE_GROUP}:164", AWS_NODE_GROUP_COMMIT),
    _aws("aws:eks:NodeGroup", "subnetIds", f"{EKS_NODE_GROUP}:248", AWS_NODE_GROUP_COMMIT),
    # S3 bucket (pulumi-aws 7's Bucket, and the BucketV2 older plans record).
    _aws("aws:s3:Bucket", "bucket", f"{S3_BUCKET}:46", AWS_BUCKET_COMMIT),
    _aws("aws:s3:Bucket", "bucketPrefix", f"{S3_BUCKET}:54", AWS_BUCKET_COMMIT),
    _aws("aws:s3:BucketV2", "bucket", f"{S3_BUCKET}:46", AWS_BUCKET_COMMIT),
    _aws("aws:s3:BucketV2", "bucketPrefix", f"{S3_BUCKET}:54", AWS_BUCKET_COMMIT),
)

TERRAFORM_FORCE_NEW: Final[tuple[ForceNew, ...]] = GOOGLE_ROWS + AWS_ROWS
