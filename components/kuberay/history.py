"""KubeRay's History Server (alpha in 1.7.0): a Deployment and Service reading the Ray
clusters' events and logs from the cloud resource's bucket, under a prefix of its own, after
Ray clusters are gone. After ray-project/kuberay v1.7.0 historyserver/config (historyserver-
gcs.yaml, service_account.yaml); KubeRay has no chart for it. The collector is a sidecar the
operator adds (gate RayClusterHistoryServer) to RayClusters that ask for it
(`spec.historyServerOptions.collectorOptions`, docs/what-it-creates.md shows the block)."""

from __future__ import annotations

from typing import Any, Final

import pulumi
import pulumi_kubernetes as k8s

from components.target import HistoryIdentity

NAMESPACE: Final = "ray-history"
# (namespace, name) of the Kubernetes service accounts bound to the History Server's cloud
# identity: the server's, and the one Ray pods in `default` run as for their collectors.
SERVICE_ACCOUNTS: Final = {"server": (NAMESPACE, "historyserver"), "collector": ("default", "ray-history")}
PREFIX: Final = "ray-history"  # inside the bucket: apart from what the platform writes
PORT: Final = 30080  # the Service's port in KubeRay's manifests; the server listens on 8080
# Pushed by KubeRay's release workflow on the tag (.github/workflows/image-release.yaml,
# job release_historyserver_collector_image); entrypoint /usr/local/bin/historyserver.
IMAGE: Final = "quay.io/kuberay/historyserver:v1.7.0"
COLLECTOR_IMAGE: Final = "quay.io/kuberay/collector:v1.7.0"
# The storage backend per provider (cmd/historyserver/main.go: --storage-backend, or
# STORAGE_BACKEND; historyserver/pkg/storage/<backend>/config.go reads the rest).
BACKENDS: Final = {"GCP": "gcs", "Azure": "azureblob", "AWS": "s3"}
# `authentication: token`: the server reads each RayCluster's token Secret (named after the
# cluster, or authOptions.secretName) to proxy a live cluster's dashboard
# (pkg/historyserver/clientmanager.go GetAuthTokenForRayCluster; config/
# service_account_auth_token_mode.yaml grants `get` on secrets where the clusters run).
TOKEN_MODE_FLAG: Final = "--use-auth-token-mode=true"
TOKEN_NAMESPACES: Final = ("default",)  # where the collectors' service account is


def storage_env(provider: str, variables: dict[str, pulumi.Input[str]]) -> list[dict[str, Any]]:
    """The variables the server and the collectors read (cmd/*/main.go, storage/*/config.go)."""
    return [
        {"name": "STORAGE_BACKEND", "value": BACKENDS[provider]},
        *({"name": name, "value": value} for name, value in variables.items()),
        {"name": "STORAGE_ROOT_DIR", "value": PREFIX},
    ]


def install_history_server(
    name: str, provider: str, identity: HistoryIdentity, token_mode: bool, opts: pulumi.ResourceOptions
) -> k8s.apps.v1.Deployment:
    """`opts`: ClusterAddons' in-cluster options (the KubeRay operator among their dependencies);
    `token_mode`: addons.kuberay.authentication is `token`."""

    def after(*resources: pulumi.Resource) -> pulumi.ResourceOptions:
        return pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(depends_on=list(resources)))

    namespace = k8s.core.v1.Namespace(f"{name}-history-namespace", metadata={"name": NAMESPACE}, opts=opts)
    accounts = [
        k8s.core.v1.ServiceAccount(
            f"{name}-history-{key}-account",
            metadata={"name": account, "namespace": ns, "annotations": identity.service_account_annotations},
            opts=after(namespace, *identity.ready),
        )
        for key, (ns, account) in SERVICE_ACCOUNTS.items()
    ]
    server_ns, server_account = SERVICE_ACCOUNTS["server"]
    # It lists RayClusters to tell live sessions from dead ones (service_account.yaml).
    role = k8s.rbac.v1.ClusterRole(
        f"{name}-history-role",
        metadata={"name": "ray-history-server"},
        rules=[{"apiGroups": ["ray.io"], "resources": ["rayclusters"], "verbs": ["get", "list"]}],
        opts=opts,
    )
    k8s.rbac.v1.ClusterRoleBinding(
        f"{name}-history-role-binding",
        metadata={"name": "ray-history-server"},
        role_ref={"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "ray-history-server"},
        subjects=[{"kind": "ServiceAccount", "name": server_account, "namespace": server_ns}],
        opts=after(role, *accounts),
    )
    if token_mode:
        for ns in TOKEN_NAMESPACES:
            reader = k8s.rbac.v1.Role(
                f"{name}-history-token-reader-{ns}",
                metadata={"name": "ray-history-token-reader", "namespace": ns},
                rules=[{"apiGroups": [""], "resources": ["secrets"], "verbs": ["get"]}],
                opts=opts,
            )
            k8s.rbac.v1.RoleBinding(
                f"{name}-history-token-reader-binding-{ns}",
                metadata={"name": "ray-history-token-reader", "namespace": ns},
                role_ref={"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "ray-history-token-reader"},
                subjects=[{"kind": "ServiceAccount", "name": server_account, "namespace": server_ns}],
                opts=after(reader, *accounts),
            )
    labels = {"app.kubernetes.io/name": "ray-history-server"}
    container = {
        "name": "historyserver",
        "image": IMAGE,
        "env": storage_env(provider, identity.storage_variables),
        "ports": [{"name": "http", "containerPort": 8080}],
        # The manifests' sizing: the session cache is soft-bounded at 8 GiB.
        "args": ["--session-cache-max-memory=8Gi", *([TOKEN_MODE_FLAG] if token_mode else [])],
        "resources": {"requests": {"cpu": "500m", "memory": "2Gi"}, "limits": {"memory": "12Gi"}},
    }
    deployment = k8s.apps.v1.Deployment(
        f"{name}-history-server",
        metadata={"name": "ray-history-server", "namespace": NAMESPACE},
        spec={
            "replicas": 1,
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": {**labels, **identity.pod_labels}},
                "spec": {"serviceAccountName": server_account, "containers": [container]},
            },
        },
        opts=after(*accounts),
    )
    k8s.core.v1.Service(
        f"{name}-history-service",
        metadata={"name": "ray-history-server", "namespace": NAMESPACE},
        spec={
            # Inside the cluster only: open it with kubectl port-forward (docs/operations.md). The
            # resource's Gateway faces the internet and the server has no login of its own.
            "type": "ClusterIP",
            "selector": labels,
            "ports": [{"name": "http", "port": PORT, "targetPort": "http", "protocol": "TCP"}],
        },
        opts=after(namespace),
    )
    return deployment
