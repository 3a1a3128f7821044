"""Address ranges no cluster network may use, and the largest service range, per source.

Each entry: the range, why, and where it is written down. Read 2026-12-02.
- IANA IPv4 Special-Purpose Address Registry (RFC 6890 and its updates): "this network"
  0.0.0.0/8, loopback 127.0.0.0/8, link-local 169.254.0.0/16, multicast 224.0.0.0/4 (RFC 5771),
  reserved 240.0.0.0/4 and the limited broadcast 255.255.255.255/32 route nowhere.
- Azure Virtual Network FAQ ("What address ranges can I use in my VNets?",
  learn.microsoft.com/azure/virtual-network/virtual-networks-faq): a VNet cannot use
  224.0.0.0/4, 255.255.255.255/32, 127.0.0.0/8, 169.254.0.0/16 and 168.63.129.16/32 (the
  platform's DNS and health endpoint).
- AKS networking concepts (learn.microsoft.com/azure/aks/concepts-network-ip-address-planning,
  "Plan IP addressing for your cluster"): AKS does not support 169.254.0.0/16, 172.30.0.0/16,
  172.31.0.0/16 or 192.0.2.0/24 for the pod, service or cluster network ranges. Marked
  `verified=False`: taken from the page as remembered, not re-read here; a range AKS does not
  reserve after all costs a user a different range, never a broken cluster.
- kube-apiserver (`--service-cluster-ip-range`, k8s.io/kubernetes cmd/kube-apiserver
  servicecidr validation): an IPv4 service range may be at most /12 (2^20 addresses); AKS
  passes serviceCidr to it. Amazon EKS's serviceIpv4Cidr says the same ("between /24 and /12").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Reserved:
    network: str
    what: str
    source: str
    verified: bool = True


NON_ROUTABLE: Final[tuple[Reserved, ...]] = (
    Reserved("0.0.0.0/8", "'this network' (RFC 6890)", "IANA special-purpose registry"),
    Reserved("127.0.0.0/8", "loopback", "IANA special-purpose registry"),
    Reserved("169.254.0.0/16", "link-local", "IANA special-purpose registry"),
    Reserved("224.0.0.0/4", "multicast", "IANA special-purpose registry"),
    Reserved("240.0.0.0/4", "reserved (class E)", "IANA special-purpose registry"),
)
AZURE_RESERVED: Final[tuple[Reserved, ...]] = (
    Reserved("168.63.129.16/32", "Azure's platform DNS and health endpoint", "Azure Virtual Network FAQ"),
)
AKS_RESERVED: Final[tuple[Reserved, ...]] = (
    Reserved("172.30.0.0/16", "reserved by AKS", "AKS IP address planning", verified=False),
    Reserved("172.31.0.0/16", "reserved by AKS", "AKS IP address planning", verified=False),
    Reserved("192.0.2.0/24", "reserved by AKS", "AKS IP address planning", verified=False),
)
# The largest IPv4 service range kube-apiserver takes: a prefix of at least this.
LARGEST_SERVICE_PREFIX: Final = 12
