"""Addresses a node subnet must hold, per provider: what each cloud keeps of a subnet, how many
extra nodes an upgrade adds, and what the pods take. Read 2026-12-02.

Reserved per subnet.
- Azure: 5 addresses of every subnet (the network address, the default gateway, two for Azure
  DNS, the broadcast address): Azure Virtual Network FAQ, "Are there any restrictions on
  using IP addresses within these subnets?" (learn.microsoft.com/azure/virtual-network/
  virtual-networks-faq).
- AWS: 5 addresses of every subnet (the first four and the last): Amazon VPC User Guide,
  "Subnet CIDR blocks" (docs.aws.amazon.com/vpc/latest/userguide/subnet-sizing.html).
- GCP: 4 addresses of every primary range (network, default gateway, second-to-last,
  broadcast): VPC documentation, "Reserved IP addresses in IPv4 subnet ranges"
  (cloud.google.com/vpc/docs/subnets#unusable-ip-addresses-in-every-subnet). GKE's own table
  of node ranges agrees: a /29 primary range holds 4 nodes, a /24 252.

Pods.
- AKS: this program runs Azure CNI overlay on every AKS cluster (components/azure/cluster.py):
  pods take podCidr addresses, never the node subnet's; each node takes one subnet address
  ("Azure CNI Overlay networking", learn.microsoft.com/azure/aks/concepts-network-azure-cni-overlay).
- EKS: the Amazon VPC CNI gives every pod a VPC address of the node's subnet. A node runs at
  most ENIs x (addresses per ENI - 1) + 2 pods (awslabs/amazon-eks-ami nodeadm/internal/kubelet/
  eni_max_pods.go, calculateStandardMaxPods, commit 81fec2e895854f599974fe4d3d72f61c0a9aaffa), two
  of them on the host network (aws-node, kube-proxy); to run them the VPC CNI attaches every
  ENI, so a full node takes ENIs x addresses per ENI of its subnet (its own address, one per
  pod, and each further ENI's primary address). ENIs and addresses per ENI per instance type: that
  commit's nodeadm/internal/kubelet/instance-info.jsonl (line numbers below). p3 types are not
  in that file: their pools, like any type not listed (a pool with `shape`), are counted by
  their nodes only (docs/troubleshooting.md says so).
- GKE: a Standard cluster without a max-pods setting (this program sets none) runs 110 pods
  per node and gives each node a /24 of the pods' range (256 addresses): "Configure maximum
  Pods per node" (cloud.google.com/kubernetes-engine/docs/how-to/flexible-pod-cidr).

Upgrade headroom (nodes beside a pool's maxCount while it is upgraded; every pool may be
upgraded at once, e.g. by a Kubernetes minor bump, so each pool's is counted).
- AKS: a pool without upgradeSettings (this program sets none) surges by AKS's default,
  10% of its nodes for pools made with recent API versions and one node before; the larger is
  counted, at least one: "Upgrade options for AKS clusters", "Customize node surge upgrade"
  (learn.microsoft.com/azure/aks/upgrade-aks-cluster). Unverified: remembered, not re-read.
- EKS: a managed node group's update raises its Auto Scaling group by the larger of twice its
  availability zones and its maxUnavailable (1 by default): "Understand each phase of node
  updates" (docs.aws.amazon.com/eks/latest/userguide/managed-node-update-behavior.html).
  Unverified: remembered, not re-read.
- GKE: surge upgrades with maxSurge 1 per pool by default: "Surge upgrades"
  (cloud.google.com/kubernetes-engine/docs/concepts/node-pool-upgrade-strategies).

GKE's Service range. A services secondary range is at least a /27 (32 Services; the
program's add-ons and GKE's own take about a dozen): "VPC-native clusters", "Service IP
address range" (cloud.google.com/kubernetes-engine/docs/concepts/alias-ips). Unverified:
remembered, not re-read; a larger bound costs the user a larger range, never a broken cluster.
"""

from __future__ import annotations

from typing import Final

RESERVED_PER_SUBNET: Final[dict[str, int]] = {"Azure": 5, "AWS": 5, "GCP": 4}

# EC2 instance type -> (ENIs, IPv4 addresses per ENI), amazon-eks-ami instance-info.jsonl.
EC2_ENIS: Final[dict[str, tuple[int, int]]] = {
    "g4dn.12xlarge": (8, 30),  # line 359
    "g4dn.16xlarge": (4, 15),  # line 360
    "g4dn.2xlarge": (3, 10),  # line 361
    "g4dn.4xlarge": (3, 10),  # line 362
    "g4dn.8xlarge": (4, 15),  # line 363
    "g4dn.metal": (15, 50),  # line 364
    "g4dn.xlarge": (3, 10),  # line 365
    "g5.12xlarge": (15, 50),  # line 366
    "g5.16xlarge": (8, 30),  # line 367
    "g5.24xlarge": (15, 50),  # line 368
    "g5.2xlarge": (4, 15),  # line 369
    "g5.48xlarge": (7, 50),  # line 370
    "g5.4xlarge": (8, 30),  # line 371
    "g5.8xlarge": (8, 30),  # line 372
    "g5.xlarge": (4, 15),  # line 373
    "g6.12xlarge": (8, 30),  # line 380
    "g6.16xlarge": (15, 50),  # line 381
    "g6.24xlarge": (15, 50),  # line 382
    "g6.2xlarge": (4, 15),  # line 383
    "g6.48xlarge": (15, 50),  # line 384
    "g6.4xlarge": (8, 30),  # line 385
    "g6.8xlarge": (8, 30),  # line 386
    "g6.xlarge": (4, 15),  # line 387
    "g6e.12xlarge": (10, 30),  # line 388
    "g6e.16xlarge": (15, 50),  # line 389
    "g6e.24xlarge": (10, 50),  # line 390
    "g6e.2xlarge": (4, 15),  # line 391
    "g6e.48xlarge": (10, 50),  # line 392
    "g6e.4xlarge": (8, 30),  # line 393
    "g6e.8xlarge": (8, 30),  # line 394
    "g6e.xlarge": (4, 15),  # line 395
    "m6i.12xlarge": (8, 30),  # line 633
    "m6i.16xlarge": (15, 50),  # line 634
    "m6i.24xlarge": (15, 50),  # line 635
    "m6i.2xlarge": (4, 15),  # line 636
    "m6i.4xlarge": (8, 30),  # line 638
    "m6i.8xlarge": (8, 30),  # line 639
    "m6i.large": (3, 10),  # line 640
    "m6i.xlarge": (4, 15),  # line 642
    "p4d.24xlarge": (15, 50),  # line 913
    "p4de.24xlarge": (15, 50),  # line 914
    "p5.48xlarge": (2, 50),  # line 915
}

GKE_POD_ADDRESSES_PER_NODE: Final = 256  # a /24 per node at 110 pods per node
GKE_SURGE_PER_POOL: Final = 1
AKS_SURGE_FRACTION: Final = 0.10
EKS_SURGE_PER_ZONE: Final = 2
GKE_SMALLEST_SERVICE_PREFIX: Final = 27
