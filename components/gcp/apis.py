"""The project's APIs the resource uses, enabled on request (`enableApis: true`).

Never disabled on destroy: other workloads of the project may use them, and disabling
`compute` would take every VM of the project with it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_gcp as gcp

from components.cloud_args import known
from components.scope import Scope
from config import GcpResource

# GKE, its VMs and network, service accounts and their IAM, signBlob, GCS, and Cloud Resource
# Manager: the project-level IAM grants (gcp.projects.IAMMember, components/gcp/identity.py)
# read and write the project's IAM policy through it (projects.getIamPolicy/setIamPolicy).
GCP_APIS = {
    "cloudresourcemanager": "cloudresourcemanager.googleapis.com",
    "container": "container.googleapis.com",
    "compute": "compute.googleapis.com",
    "iam": "iam.googleapis.com",
    "iamcredentials": "iamcredentials.googleapis.com",
    "storage": "storage.googleapis.com",
}


def build_apis(scope: Scope, spec: GcpResource) -> list[gcp.projects.Service]:
    if not spec.enable_apis:
        return []
    return [
        gcp.projects.Service(
            f"{spec.name}-api-{key}",
            project=known(spec.project),
            service=service,
            disable_on_destroy=False,
            opts=scope.opts(),
        )
        for key, service in GCP_APIS.items()
    ]


@dataclass(frozen=True)
class AfterApis(Scope):
    """A scope whose every resource waits for the enabled APIs (a call to a disabled API
    fails with SERVICE_DISABLED)."""

    apis: tuple[gcp.projects.Service, ...] = ()

    def opts(self, **extra: Any) -> pulumi.ResourceOptions:
        if self.apis:
            extra["depends_on"] = [*self.apis, *(extra.get("depends_on") or [])]
        return super().opts(**extra)
