"""GCP naming rules and the exec kubeconfig for GKE."""
from __future__ import annotations

import re

from components import defaults
from components.kube import exec_kubeconfig

AUTH_PLUGIN = "gke-gcloud-auth-plugin"
AUTH_PLUGIN_HINT = (
    "Install gke-gcloud-auth-plugin (`gcloud components install gke-gcloud-auth-plugin`): "
    "https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl#install_plugin"
)


def gcp_name(*parts: str, limit: int) -> str:
    """Lowercase letters, digits and single '-', no '-' at either end, at most `limit`."""
    joined = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")
    return joined[:limit].rstrip("-")


def cluster_name(cloud: str, resource: str) -> str:
    return gcp_name("gke", cloud, resource, limit=40)  # GKE: 40 characters, starts with a letter


def account_id(cloud: str, resource: str) -> str:
    return gcp_name("anyscale", cloud, resource, limit=30)  # 6-30 characters, starts with a letter


def bucket_name(cloud: str, resource: str, suffix: str) -> str:
    """Bucket names are global (3-63 characters): ours carry a random suffix."""
    stem = gcp_name(cloud, resource, limit=62 - len(suffix)) or "anyscale"
    return f"{stem}-{suffix}"


def workload_identity_member(project: str) -> str:
    """The operator's Kubernetes service account, as Workload Identity names it."""
    return (
        f"serviceAccount:{project}.svc.id.goog"
        f"[{defaults.OPERATOR_NAMESPACE}/{defaults.OPERATOR_SERVICE_ACCOUNT}]"
    )


def kubeconfig(name: str, endpoint: str, ca_certificate: str) -> str:
    """An exec kubeconfig: no static credential, a token from gcloud at each use."""
    exec_ = {"command": AUTH_PLUGIN, "installHint": AUTH_PLUGIN_HINT, "provideClusterInfo": True}
    return exec_kubeconfig(name, f"https://{endpoint}", ca_certificate, exec_)
