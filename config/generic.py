"""Generic: a cluster the user brings (no cluster spec: a kubeconfig, a CLI token for the
operator, an existing bucket), and the Generic resource itself."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from config.resources import ResourceSpec
from config.storage import GenericStorage
from config.types import SecretValue


class GenericResource(ResourceSpec):
    provider_name: ClassVar[str] = "Generic"
    provider: Literal["Generic"]
    kubeconfig: SecretValue = Field(
        description="a Pulumi secret: `pulumi config set --secret --path 'anyscale-cloud:resources[3].kubeconfig' "
        '"$(cat kubeconfig)"`'
    )
    cli_token: SecretValue = Field(
        description="a Pulumi secret: the Anyscale CLI token the operator authenticates with"
    )
    storage: GenericStorage = Field(description="the cluster's existing bucket: required on Generic")
    # How the cluster's load balancers report their address: most give an IP, some
    # (like AWS') a DNS name. The operator is configured with one or the other.
    gateway_address: Literal["ip", "hostname"] = Field(
        "ip",
        description="how your cluster's load balancers report their address; the operator gets "
        "`networking.gateway.ip` or `.hostname`",
    )
