"""AWS (EKS) cloud resources: `EksTarget` and the builders it calls."""

from components.aws.resource import EksTarget

__all__ = ["EksTarget"]
