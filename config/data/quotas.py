"""Published limits across a whole cluster, per provider, with their sources. Read 2026-12-02.

- AKS: "Quotas, virtual machine size restrictions, and region availability in AKS"
  (learn.microsoft.com/azure/aks/quotas-skus-regions): at most 100 node pools per cluster, and
  5,000 nodes per cluster across its pools (Virtual Machine Scale Sets with a Standard load
  balancer, the only kind this program makes). Neither is raised by a support request.
- EKS: "Amazon EKS service quotas" (docs.aws.amazon.com/eks/latest/userguide/service-quotas.html):
  public endpoint access CIDR ranges per cluster, 40, not adjustable.
Unverified: both pages as remembered, not re-read here (the library's search did not return
them); a limit set too low refuses a valid stack with its number named, so check the page
before raising or lowering one.
"""

from __future__ import annotations

from typing import Final

AKS_MAX_NODE_POOLS: Final = 100  # the system pool counts
AKS_MAX_NODES: Final = 5_000
EKS_MAX_PUBLIC_ACCESS_CIDRS: Final = 40
