"""How the program talks to a cluster: exec kubeconfigs and the Kubernetes provider."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import yaml


def exec_kubeconfig(name: str, server: str, ca_data: str, exec_: dict[str, Any]) -> str:
    """A kubeconfig with no static credential: `exec_` fetches a token at each use."""
    user = {"exec": {"apiVersion": "client.authentication.k8s.io/v1beta1", **exec_}}
    return json.dumps(
        {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": name, "cluster": {"server": server, "certificate-authority-data": ca_data}}],
            "contexts": [{"name": name, "context": {"cluster": name, "user": name}}],
            "current-context": name,
            "users": [{"name": name, "user": user}],
        },
        indent=2,
    )


def kubernetes_provider(
    name: str,
    kubeconfig: pulumi.Input[str],
    parent: pulumi.Resource,
    depends_on: Sequence[pulumi.Resource] = (),
    identify: bool = True,
) -> k8s.Provider:
    """The cluster's explicit provider: `<resource>-k8s`, server-side apply, secret kubeconfig.

    `clusterIdentifier` (`identify`: the clusters the program creates) is the API server's
    URL: without it the provider is replaced (and with it every object it manages, CRDs and
    so every Ray object included) whenever any field of the kubeconfig's cluster entry
    changes, a CA rotated by `az aks rotate-certs` too. AKS, EKS and GKE give a new cluster a
    new endpoint, so a replaced cluster still replaces the provider. Not for a Generic
    cluster: a rebuilt cluster behind the same address (a VIP, a proxy, a tunnel) must
    replace the provider, and its new CA is the only sign of it."""
    config = pulumi.Output.secret(kubeconfig)
    return k8s.Provider(
        f"{name}-k8s",
        kubeconfig=config,
        cluster_identifier=config.apply(api_server) if identify else None,
        enable_server_side_apply=True,
        opts=pulumi.ResourceOptions(parent=parent, depends_on=list(depends_on)),
    )


def api_server(kubeconfig: str) -> str | None:
    """The server URL of a kubeconfig's current context (YAML or JSON); None when it names
    none, and the provider reports the kubeconfig itself (the old replacement rule applies)."""
    try:
        config = yaml.safe_load(kubeconfig)
    except yaml.YAMLError:
        return None
    if not isinstance(config, dict):
        return None
    contexts = {c.get("name"): c.get("context") or {} for c in config.get("contexts") or [] if isinstance(c, dict)}
    clusters = {c.get("name"): c.get("cluster") for c in config.get("clusters") or [] if isinstance(c, dict)}
    context = contexts.get(config.get("current-context"))
    cluster = clusters.get(context.get("cluster")) if isinstance(context, dict) else None
    if cluster is None and len(clusters) == 1:
        cluster = next(iter(clusters.values()))
    server = cluster.get("server") if isinstance(cluster, dict) else None
    return str(server) if server else None
