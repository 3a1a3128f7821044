"""GCP (GKE) cloud resources: `GkeTarget` and the builders it calls."""

from components.gcp.resource import GkeTarget

__all__ = ["GkeTarget"]
