"""The Gateway API objects of every cluster: the EnvoyProxy, GatewayClass and Gateway
(custom objects whose `status` is read), and the Gateway's listeners (platform.md 5)."""

from __future__ import annotations

from typing import Any

import pulumi

from components import defaults
from components.sdk_internals import kubernetes_plugin_version

GATEWAY_API = "gateway.networking.k8s.io/v1"
ENVOY_API = "gateway.envoyproxy.io/v1alpha1"


class KubernetesObject(pulumi.CustomResource):
    """A custom object whose `status` we read (CustomResource exposes only its inputs)."""

    status: pulumi.Output[Any]

    def __init__(
        self,
        name: str,
        api_version: str,
        kind: str,
        metadata: dict[str, Any],
        spec: dict[str, Any],
        opts: pulumi.ResourceOptions,
    ):
        props = {"apiVersion": api_version, "kind": kind, "metadata": metadata, "spec": spec, "status": None}
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(version=kubernetes_plugin_version()))
        super().__init__(f"kubernetes:{api_version}:{kind}", name, props, opts)


def certificate_secret_names(cloud_resource_id: str) -> dict[str, str]:
    """The TLS Secrets the operator creates, named after the ID with `_` -> `-`."""
    slug = cloud_resource_id.replace("_", "-")
    return {"https": f"anyscale-{slug}-certificate", "https-session": f"anyscale-svc-{slug}-certificate"}


def gateway_listeners(cloud_resource_id: str) -> list[dict[str, Any]]:
    secrets = certificate_secret_names(cloud_resource_id)
    listeners: list[dict[str, Any]] = [{"name": "http", "port": 80, "protocol": "HTTP"}]
    for name, hostname in defaults.GATEWAY_HOSTS.items():
        listeners.append(
            {
                "name": name,
                "port": 443,
                "protocol": "HTTPS",
                "hostname": hostname,
                "tls": {"mode": "Terminate", "certificateRefs": [{"kind": "Secret", "name": secrets[name]}]},
                "allowedRoutes": {"namespaces": {"from": "All"}},
            }
        )
    return listeners
