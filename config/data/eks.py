"""EKS facts: availability zones per region, and the managed add-ons per Kubernetes minor.

Zones. The regular (not Local or Wavelength) zones a new account sees in each region of
config/data/regions.py, from the AWS "Availability Zones" page
(https://docs.aws.amazon.com/global-infrastructure/latest/regions/aws-availability-zones.html),
read 2026-12-01. Older accounts may see a zone more (us-west-1, ap-northeast-1 each have a
zone closed to new accounts); the smaller count is kept, so a stack valid here deploys in
any account. The program also checks the zones the account reports at deploy time.

Add-ons. The five that terraform-aws-eks and the Anyscale reference modules install as EKS
managed add-ons. A version string pins that add-on for that minor; `None` takes EKS's own
default version for the cluster's minor (DescribeAddonVersions, `defaultVersion`), which
the program reads at deploy time with `aws.eks.get_addon_version` (most_recent=false): the
version AWS validated for that minor, moving with a Kubernetes minor bump. Pins, sources:
kube-proxy, "Manage kube-proxy in Amazon EKS clusters", table "kube-proxy versions"
(https://docs.aws.amazon.com/eks/latest/userguide/managing-kube-proxy.html), read 2026-12-01.
"""

from typing import Final

# Regions with a count other than three.
_NOT_THREE: Final[dict[str, int]] = {
    "us-east-1": 6,
    "us-west-1": 2,  # a third zone exists, closed to new accounts
    "us-west-2": 4,
    "ap-northeast-2": 4,
}


def aws_zone_count(region: str) -> int:
    """Regular availability zones of a known AWS region (three unless listed)."""
    return _NOT_THREE.get(region, 3)


# The add-on names as EKS spells them (aws.eks.Addon `addon_name`).
VPC_CNI: Final = "vpc-cni"
KUBE_PROXY: Final = "kube-proxy"
POD_IDENTITY_AGENT: Final = "eks-pod-identity-agent"
COREDNS: Final = "coredns"
EBS_CSI_DRIVER: Final = "aws-ebs-csi-driver"
EKS_ADDONS: Final = (VPC_CNI, KUBE_PROXY, POD_IDENTITY_AGENT, COREDNS, EBS_CSI_DRIVER)

EKS_ADDON_VERSIONS: Final[dict[str, dict[str, str | None]]] = {
    "1.32": dict.fromkeys(EKS_ADDONS),
    "1.33": {
        VPC_CNI: None,
        KUBE_PROXY: "v1.33.5-eksbuild.2",
        POD_IDENTITY_AGENT: None,
        COREDNS: None,
        EBS_CSI_DRIVER: None,
    },
    "1.34": {
        VPC_CNI: None,
        KUBE_PROXY: "v1.34.1-eksbuild.2",
        POD_IDENTITY_AGENT: None,
        COREDNS: None,
        EBS_CSI_DRIVER: None,
    },
    "1.35": dict.fromkeys(EKS_ADDONS),
    "1.36": dict.fromkeys(EKS_ADDONS),
}
