"""Workload Identity's member name and the exec kubeconfig for GKE (the names the
cloud checks live in config/names.py)."""

from __future__ import annotations

from components import defaults
from components.kube import exec_kubeconfig

AUTH_PLUGIN = "gke-gcloud-auth-plugin"
AUTH_PLUGIN_HINT = (
    "Install gke-gcloud-auth-plugin (`gcloud components install gke-gcloud-auth-plugin`): "
    "https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl#install_plugin"
)


def workload_identity_member(
    project: str, namespace: str = defaults.OPERATOR_NAMESPACE, name: str = defaults.OPERATOR_SERVICE_ACCOUNT
) -> str:
    """A Kubernetes service account (the operator's by default), as Workload Identity names it."""
    return f"serviceAccount:{project}.svc.id.goog[{namespace}/{name}]"


def kubeconfig(name: str, endpoint: str, ca_certificate: str) -> str:
    """An exec kubeconfig: no static credential, a token from gcloud at each use."""
    exec_ = {"command": AUTH_PLUGIN, "installHint": AUTH_PLUGIN_HINT, "provideClusterInfo": True}
    return exec_kubeconfig(name, f"https://{endpoint}", ca_certificate, exec_)
