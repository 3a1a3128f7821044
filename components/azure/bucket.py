"""The ADLS Gen2 bucket with the console's CORS rule and the operator's data-plane role,
or the existing bucket named in the spec."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pulumi
import pulumi_random as random
from pulumi_azure_native import storage

from components import defaults
from components.azure.identity import Grants
from components.azure.network import NodeNetwork
from components.cloud_args import known
from config import AzureResource
from config.names import STORAGE_ACCOUNT_SUFFIX, storage_account_name

CONTAINER_NAME = "anyscale"


@dataclass(frozen=True)
class Bucket:
    uri: pulumi.Output[str]
    endpoint: pulumi.Output[str]
    resources: list[pulumi.Resource] = field(default_factory=list)  # what the registration waits for
    container_id: pulumi.Output[str] | None = None  # ARM ID of a container we created


def build_bucket(
    grants: Grants, spec: AzureResource, operator: pulumi.Input[str], nodes: NodeNetwork | None = None
) -> Bucket:
    if spec.storage.bucket is not None:
        # Existing bucket: its CORS rule and data-plane role are the owner's to set.
        return Bucket(
            pulumi.Output.from_input(known(spec.storage.bucket)), pulumi.Output.from_input(spec.storage.endpoint or "")
        )
    scope, ctx = grants.scope, grants.scope.ctx
    kept = scope.guarded(retain_on_delete=spec.storage.retain_on_delete)
    account = storage.StorageAccount(
        f"{spec.name}-storage",
        account_name=account_name(grants, spec),
        resource_group_name=ctx.resource_group_name,
        location=spec.storage.region,
        kind="StorageV2",
        sku={"name": "Standard_LRS"},
        is_hns_enabled=True,  # ADLS Gen2, for abfss://
        enable_https_traffic_only=True,
        minimum_tls_version="TLS1_2",
        allow_blob_public_access=False,
        allow_shared_key_access=False,
        default_to_o_auth_authentication=True,
        **network_rules(spec, nodes),
        tags=ctx.tags,
        opts=pulumi.ResourceOptions.merge(kept, pulumi.ResourceOptions(import_=spec.adopt.storage_account)),
    )
    container = storage.BlobContainer(
        f"{spec.name}-container",
        container_name=spec.adopt.name_of("container") or CONTAINER_NAME,
        account_name=account.name,
        resource_group_name=ctx.resource_group_name,
        public_access=storage.PublicAccess.NONE,
        opts=pulumi.ResourceOptions.merge(kept, pulumi.ResourceOptions(import_=spec.adopt.container)),
    )
    cors = storage.BlobServiceProperties(
        f"{spec.name}-blob-cors",
        blob_services_name="default",
        account_name=account.name,
        resource_group_name=ctx.resource_group_name,
        cors={
            "cors_rules": [
                {
                    "allowed_origins": [defaults.CONSOLE_ORIGIN],
                    "allowed_methods": defaults.CORS_METHODS,
                    "allowed_headers": defaults.CORS_ALLOWED_HEADERS,
                    "exposed_headers": ["*"],
                    "max_age_in_seconds": defaults.CORS_MAX_AGE_SECONDS,
                }
            ]
        },
        opts=scope.opts(),
    )
    data_access = grants.grant(
        f"{spec.name}-operator-storage", operator, defaults.ROLE_STORAGE_BLOB_DATA_CONTRIBUTOR, account.id
    )
    return Bucket(
        uri=pulumi.Output.concat("abfss://", container.name, "@", account.name, ".dfs.core.windows.net"),
        # The blob endpoint ends with "/", which silently breaks log delivery.
        endpoint=account.primary_endpoints.apply(lambda e: e.blob.rstrip("/")),
        resources=[account, container, cors, data_access],
        container_id=container.id,
    )


def account_name(grants: Grants, spec: AzureResource) -> pulumi.Input[str]:
    """An adopted account keeps its name (the ID's); a new one gets a random suffix, since
    storage account names are global."""
    adopted = spec.adopt.name_of("storageAccount")
    if adopted:
        return adopted
    scope, cloud_name = grants.scope, grants.scope.ctx.cloud_name
    suffix = random.RandomString(
        f"{spec.name}-storage-suffix", length=STORAGE_ACCOUNT_SUFFIX, special=False, upper=False, opts=scope.random()
    )
    return suffix.result.apply(lambda s: storage_account_name(cloud_name, spec.name, s))


def network_rules(spec: AzureResource, nodes: NodeNetwork | None) -> dict[str, Any]:
    """Admit the node subnet the program created (it carries the Microsoft.Storage service
    endpoint, which covers accounts in the VNet's region). The default action stays Allow:
    the console reads the bucket from each user's browser, from addresses no rule can list
    (docs/what-it-creates.md, AKS networks). An existing subnet's endpoints are its owner's: no rule."""
    if nodes is None or not nodes.created or spec.storage.region != spec.region:
        return {}
    return {
        "network_rule_set": {
            "default_action": "Allow",
            "bypass": "AzureServices",
            "virtual_network_rules": [{"virtual_network_resource_id": nodes.subnet_id, "action": "Allow"}],
        }
    }
