"""Azure (AKS) cloud resources: `AksTarget` and the builders it calls."""

from components.azure.resource import AksTarget

__all__ = ["AksTarget"]
