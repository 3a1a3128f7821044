"""The inputs whose change makes a provider replace a resource, from the providers' own rules:
pulumi-azure-native's replacement rules, and the ForceNew fields of the Terraform providers
pulumi-aws and pulumi-gcp bridge (TERRAFORM_FORCE_NEW, each row with its upstream file, line
and commit).

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

from dataclasses import dataclass
from typing import Final

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


@dataclass(frozen=True)
class ForceNew:
    """One ForceNew field of a bridged Terraform provider's schema, at the input path Pulumi
    gives it (snake_case to camelCase; a block of at most one item is an object)."""

    type: str  # the normalized Pulumi type token
    path: str
    source: str  # upstream file:line (the field's key) at `commit`
    commit: str


# terraform-provider-google-beta, the provider pulumi-gcp bridges. Read at tag v7.45.0
# (commit 3dc173a397749158369ea839a2890d89f8c9c370, the `upstream` submodule of the newest
# pulumi-gcp snapshot stored here) on 2026-12-02. The program pins pulumi-gcp 10.2.0, whose
# upstream tag is not in that snapshot: the rows are the fields' ForceNew at v7.45.0, which
# the lead must confirm against 10.2.0's upstream before trusting a row that changed since.
GOOGLE = "3dc173a397749158369ea839a2890d89f8c9c370"
GKE_CLUSTER = "google-beta/services/container/resource_container_cluster.go"
GKE_POOL = "google-beta/services/container/resource_container_node_pool.go"
GKE_NODE_CONFIG = "google-beta/services/container/node_config.go"
GCS_BUCKET = "google-beta/services/storage/resource_storage_bucket.go"
GCP_ACCOUNT = "google-beta/services/resourcemanager/resource_google_service_account.go"

# terraform-provider-aws, the provider pulumi-aws bridges. pulumi-aws 7.51.1 bridges a v6
# release; its snapshot (932 MB) is over what can be fetched here, so each file was read as
# the public code index stores it, at the commit named, on 2026-12-02, and its lines counted
# in that text. The EKS cluster file is of the v6 era (aws-sdk-go-v2, `meta any`); the node
# group and S3 bucket files are older, and these fields' ForceNew has not changed since.
EKS_CLUSTER = "internal/service/eks/cluster.go"
EKS_NODE_GROUP = "internal/service/eks/node_group.go"
S3_BUCKET = "internal/service/s3/bucket.go"
AWS_CLUSTER_COMMIT = "00555dc5b38f92abbfa230badea0ed0754cea81e"
AWS_NODE_GROUP_COMMIT = "012e0a32f0686212f447447fd3d81c3d0ce256ad"
AWS_BUCKET_COMMIT = "0070bcd12c952f14c5434a6f351ef7b6fa791226"

TERRAFORM_FORCE_NEW: Final[tuple[ForceNew, ...]] = (
    # GKE cluster: its name, place and network are chosen at creation.
    ForceNew("gcp:container:Cluster", "name", f"{GKE_CLUSTER}:295", GOOGLE),
    ForceNew("gcp:container:Cluster", "location", f"{GKE_CLUSTER}:328", GOOGLE),
    ForceNew("gcp:container:Cluster", "initialNodeCount", f"{GKE_CLUSTER}:1232", GOOGLE),
    ForceNew("gcp:container:Cluster", "network", f"{GKE_CLUSTER}:1812", GOOGLE),
    ForceNew("gcp:container:Cluster", "project", f"{GKE_CLUSTER}:2018", GOOGLE),
    ForceNew("gcp:container:Cluster", "subnetwork", f"{GKE_CLUSTER}:2026", GOOGLE),
    ForceNew("gcp:container:Cluster", "ipAllocationPolicy", f"{GKE_CLUSTER}:2059", GOOGLE),
    ForceNew("gcp:container:Cluster", "ipAllocationPolicy.clusterSecondaryRangeName", f"{GKE_CLUSTER}:2091", GOOGLE),
    ForceNew("gcp:container:Cluster", "ipAllocationPolicy.servicesSecondaryRangeName", f"{GKE_CLUSTER}:2100", GOOGLE),
    ForceNew("gcp:container:Cluster", "networkingMode", f"{GKE_CLUSTER}:2230", GOOGLE),
    # GKE node pool, and the node config its nodes are made from.
    ForceNew("gcp:container:NodePool", "project", f"{GKE_POOL}:239", GOOGLE),
    ForceNew("gcp:container:NodePool", "cluster", f"{GKE_POOL}:246", GOOGLE),
    ForceNew("gcp:container:NodePool", "location", f"{GKE_POOL}:252", GOOGLE),
    ForceNew("gcp:container:NodePool", "initialNodeCount", f"{GKE_POOL}:480", GOOGLE),
    ForceNew("gcp:container:NodePool", "name", f"{GKE_POOL}:527", GOOGLE),
    ForceNew("gcp:container:NodePool", "nodeConfig.guestAccelerators", f"{GKE_NODE_CONFIG}:316", GOOGLE),
    ForceNew("gcp:container:NodePool", "nodeConfig.oauthScopes", f"{GKE_NODE_CONFIG}:579", GOOGLE),
    ForceNew("gcp:container:NodePool", "nodeConfig.spot", f"{GKE_NODE_CONFIG}:635", GOOGLE),
    ForceNew("gcp:container:NodePool", "nodeConfig.serviceAccount", f"{GKE_NODE_CONFIG}:643", GOOGLE),
    # GCS bucket and service accounts.
    ForceNew("gcp:storage:Bucket", "name", f"{GCS_BUCKET}:132", GOOGLE),
    ForceNew("gcp:storage:Bucket", "location", f"{GCS_BUCKET}:193", GOOGLE),
    ForceNew("gcp:storage:Bucket", "project", f"{GCS_BUCKET}:203", GOOGLE),
    ForceNew("gcp:serviceaccount:Account", "accountId", f"{GCP_ACCOUNT}:90", GOOGLE),
    ForceNew("gcp:serviceaccount:Account", "project", f"{GCP_ACCOUNT}:114", GOOGLE),
    # EKS cluster: the admin bootstrap, the service range and the cluster role are fixed.
    ForceNew(
        "aws:eks:Cluster",
        "accessConfig.bootstrapClusterCreatorAdminPermissions",
        f"{EKS_CLUSTER}:107",
        AWS_CLUSTER_COMMIT,
    ),
    ForceNew("aws:eks:Cluster", "bootstrapSelfManagedAddons", f"{EKS_CLUSTER}:120", AWS_CLUSTER_COMMIT),
    ForceNew("aws:eks:Cluster", "kubernetesNetworkConfig.ipFamily", f"{EKS_CLUSTER}:257", AWS_CLUSTER_COMMIT),
    ForceNew("aws:eks:Cluster", "kubernetesNetworkConfig.serviceIpv4Cidr", f"{EKS_CLUSTER}:264", AWS_CLUSTER_COMMIT),
    ForceNew("aws:eks:Cluster", "name", f"{EKS_CLUSTER}:281", AWS_CLUSTER_COMMIT),
    ForceNew("aws:eks:Cluster", "roleArn", f"{EKS_CLUSTER}:385", AWS_CLUSTER_COMMIT),
    # EKS managed node group: everything its launch template is made from.
    ForceNew("aws:eks:NodeGroup", "amiType", f"{EKS_NODE_GROUP}:57", AWS_NODE_GROUP_COMMIT),
    ForceNew("aws:eks:NodeGroup", "capacityType", f"{EKS_NODE_GROUP}:68", AWS_NODE_GROUP_COMMIT),
    ForceNew("aws:eks:NodeGroup", "clusterName", f"{EKS_NODE_GROUP}:75", AWS_NODE_GROUP_COMMIT),
    ForceNew("aws:eks:NodeGroup", "diskSize", f"{EKS_NODE_GROUP}:81", AWS_NODE_GROUP_COMMIT),
    ForceNew("aws:eks:NodeGroup", "instanceTypes", f"{EKS_NODE_GROUP}:91", AWS_NODE_GROUP_COMMIT),
    ForceNew("aws:eks:NodeGroup", "nodeGroupName", f"{EKS_NODE_GROUP}:133", AWS_NODE_GROUP_COMMIT),
    ForceNew("aws:eks:NodeGroup", "nodeRoleArn", f"{EKS_NODE_GROUP}:164", AWS_NODE_GROUP_COMMIT),
    ForceNew("aws:eks:NodeGroup", "subnetIds", f"{EKS_NODE_GROUP}:248", AWS_NODE_GROUP_COMMIT),
    # S3 bucket (pulumi-aws 7's Bucket, and the BucketV2 older plans record).
    ForceNew("aws:s3:Bucket", "bucket", f"{S3_BUCKET}:46", AWS_BUCKET_COMMIT),
    ForceNew("aws:s3:Bucket", "bucketPrefix", f"{S3_BUCKET}:54", AWS_BUCKET_COMMIT),
    ForceNew("aws:s3:BucketV2", "bucket", f"{S3_BUCKET}:46", AWS_BUCKET_COMMIT),
    ForceNew("aws:s3:BucketV2", "bucketPrefix", f"{S3_BUCKET}:54", AWS_BUCKET_COMMIT),
)

PROVIDER_REPLACES.extend((row.type, (row.path,)) for row in TERRAFORM_FORCE_NEW)
