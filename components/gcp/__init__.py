"""GCP (GKE) cloud resources: `GkeCluster` and the builders it calls."""

from components.gcp.resource import GkeCluster

__all__ = ["GkeCluster"]
