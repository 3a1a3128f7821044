"""ClusterAddons: what runs inside every cluster, whatever its provider (component.py),
and the pieces it is built from: the CRDs it applies (crds.py), the Gateway API objects
(gateway.py) and the Anyscale operator's settings (operator.py)."""

from components.addons.component import AddonsArgs, ClusterAddons

__all__ = ["AddonsArgs", "ClusterAddons"]
