"""The CRDs ClusterAddons applies as resources of their own, pinned to the charts' versions."""

from __future__ import annotations

from typing import Any

import pulumi

# CRDs as resources of their own, pinned to the chart's version (platform.md 9.4): Helm
# installs a chart's `crds/` once and never upgrades them. Applied server-side by the
# cluster's provider (the ray.io CRDs are about 1 MB, too big for client-side apply).
# Envoy Gateway publishes its CRDs (Gateway API experimental channel, as gateway-helm's
# crds/, and its own) as a chart of templates; KubeRay's are files of the chart's
# crds/ directory in the repository at the release tag (the same four in 1.6.2 and 1.7.0),
# which ship with the program (components/shipped.py): handed to the ConfigGroup as text,
# not as URLs, so that nothing is downloaded at deploy time.
GATEWAY_CRDS_CHART = "oci://docker.io/envoyproxy/gateway-crds-helm"
GATEWAY_CRDS_VALUES = {
    "crds": {"gatewayAPI": {"enabled": True, "channel": "experimental"}, "envoyGateway": {"enabled": True}}
}
CRD_TYPE = "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition"


def take_over_crd(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult | None:
    """Each CRD the component applies: force the server-side apply (Helm created these
    CRDs on earlier installs and owns their fields), and keep it on delete, as Helm does:
    deleting a CRD deletes every object of its kind."""
    current = args.props.get("metadata")
    if args.type_ != CRD_TYPE or not isinstance(current, dict):
        return None
    metadata: dict[str, Any] = dict(current)
    metadata["annotations"] = {**(metadata.get("annotations") or {}), "pulumi.com/patchForce": "true"}
    opts = pulumi.ResourceOptions.merge(args.opts, pulumi.ResourceOptions(retain_on_delete=True))
    return pulumi.ResourceTransformResult({**args.props, "metadata": metadata}, opts)
