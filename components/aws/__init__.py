"""AWS (EKS) cloud resources: `EksCluster` and the builders it calls."""

from components.aws.resource import EksCluster

__all__ = ["EksCluster"]
