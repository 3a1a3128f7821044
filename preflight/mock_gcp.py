"""Mock-cloud answers specific to gcp resources (see preflight/outputs.py).

Only the values our code reads (components/gcp.py), in the shape the real cloud
returns them; everything only GCP knows stays a `${<logical name>.<property>}`
placeholder.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from preflight.planfile import placeholder


def _cluster(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    # The kubeconfig is built from these: `endpoint` is a bare IP address (no scheme),
    # `clusterCaCertificate` base64-encoded PEM, both known only once GKE created the cluster.
    return {
        "name": inputs.get("name", placeholder(name, "name")),
        "endpoint": placeholder(name, "endpoint"),
        "masterAuth": {
            "clusterCaCertificate": placeholder(name, "masterAuth.clusterCaCertificate"),
            "clientCertificate": "",
            "clientKey": "",
            "clientCertificateConfig": {"issueClientCertificate": False},
        },
    }


def _service_account(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    # `name` is the full resource name (what IAM bindings on the account take);
    # `member` is the IAM principal string of the email.
    email = placeholder(name, "email")
    project = inputs.get("project", placeholder(name, "project"))
    return {
        "email": email,
        "name": f"projects/{project}/serviceAccounts/{email}",
        "member": f"serviceAccount:{email}",
        "uniqueId": placeholder(name, "uniqueId"),
    }


def _bucket(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    bucket = inputs.get("name", placeholder(name, "name"))
    return {"name": bucket, "url": f"gs://{bucket}", "selfLink": placeholder(name, "selfLink")}


OVERRIDES: dict[str, Callable[[str, dict[str, Any]], dict[str, Any]]] = {
    "gcp:container/cluster:Cluster": _cluster,
    "gcp:serviceaccount/account:Account": _service_account,
    "gcp:storage/bucket:Bucket": _bucket,
}
# components/gcp.py calls no GCP invokes.
INVOKES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {}
