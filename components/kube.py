"""How the program talks to a cluster: exec kubeconfigs and the Kubernetes provider."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pulumi
import pulumi_kubernetes as k8s


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
    name: str, kubeconfig: pulumi.Input[str], parent: pulumi.Resource, depends_on: Sequence[pulumi.Resource] = ()
) -> k8s.Provider:
    """The cluster's explicit provider: `<resource>-k8s`, server-side apply, secret kubeconfig."""
    return k8s.Provider(
        f"{name}-k8s",
        kubeconfig=pulumi.Output.secret(kubeconfig),
        enable_server_side_apply=True,
        opts=pulumi.ResourceOptions(parent=parent, depends_on=list(depends_on)),
    )
