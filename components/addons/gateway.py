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


# At least two Envoy replicas, spread over zones and nodes, and a PodDisruptionBudget: a
# node drain (an upgrade, a scale-down) then never takes the only proxy away, and with
# `externalTrafficPolicy: Local` (Envoy Gateway's default, which keeps client addresses)
# more than one zone's load-balancer targets are healthy.
PROXY_REPLICAS = 2
PROXY_MIN_AVAILABLE = 1
ZONE_KEY = "topology.kubernetes.io/zone"
HOST_KEY = "kubernetes.io/hostname"


def proxy_pod_labels() -> dict[str, str]:
    """The labels Envoy Gateway puts on the proxy pods of our Gateway."""
    return {
        "gateway.envoyproxy.io/owning-gateway-name": defaults.GATEWAY_NAME,
        "gateway.envoyproxy.io/owning-gateway-namespace": defaults.OPERATOR_NAMESPACE,
    }


def envoy_proxy_spec(service_annotations: dict[str, str]) -> dict[str, Any]:
    """The EnvoyProxy's spec (gateway.envoyproxy.io/v1alpha1, CRD of gateway-helm v1.7.0)."""
    # ScheduleAnyway: the add-ons run on the system pool, which may be one node in one
    # zone; the spread is a preference there, and the PDB keeps one proxy up regardless.
    spread = [
        {
            "maxSkew": 1,
            "topologyKey": key,
            "whenUnsatisfiable": "ScheduleAnyway",
            "labelSelector": {"matchLabels": proxy_pod_labels()},
        }
        for key in (ZONE_KEY, HOST_KEY)
    ]
    return {
        "provider": {
            "type": "Kubernetes",
            "kubernetes": {
                "envoyDeployment": {"replicas": PROXY_REPLICAS, "pod": {"topologySpreadConstraints": spread}},
                "envoyPDB": {"minAvailable": PROXY_MIN_AVAILABLE},
                "envoyService": {"type": "LoadBalancer", "annotations": service_annotations},
            },
        }
    }


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
