"""Azure (AKS) cloud resources: `AksCluster` and the builders it calls."""

from components.azure.resource import AksCluster

__all__ = ["AksCluster"]
