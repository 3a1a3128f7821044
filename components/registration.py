"""CloudResourceRegistration: the `Anyscale.Platform/clouds/cloudResources` ARM record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi
from pulumi_azure_native import resources

from components.sdk_internals import unknown
from components.target import Target
from policy.rules.platform import REGISTRATION_REPLACING_PATHS

NAMESPACE = "Anyscale.Platform"


@dataclass(frozen=True)
class CloudRecord:
    """The `Anyscale.Platform/clouds` record every registration is a child of."""

    name: str
    resource_group_name: pulumi.Input[str]
    location: str  # the ARM location of the records, not where compute runs
    api_version: str
    azure_provider: pulumi.ProviderResource
    resource: pulumi.Resource
    protect: bool


def registration_properties(target: Target) -> dict[str, Any]:
    """Exactly the properties of the ARM type (platform.md 1.1); nothing else exists."""
    return {
        "provider": target.provider,
        "computeStack": "K8S",
        "region": target.region,
        "cloudStorageBucketName": target.bucket_uri,
        # Required by the type; "" where it does not apply (the platform says leave it empty).
        "cloudStorageBucketEndpoint": target.bucket_endpoint,
        "cloudStorageBucketRegion": target.bucket_region,
        **(
            {"anyscaleOperatorIamIdentity": target.registration_identity}
            if target.registration_identity is not None
            else {}
        ),
    }


def cloud_resource_id(name: str, properties: dict[str, Any] | None) -> pulumi.Output[str] | str:
    """`properties.cloudResourceId`, which only the platform assigns.

    `properties` is untyped: during a preview of a create (or of a replacement) the
    engine hands back the input map itself, which has no `cloudResourceId`. That
    absence means "not known yet", never a value (platform.md 9.1). After a real
    create, an absent or empty ID is the platform's fault and must stop the update
    before the operator and the gateway are configured with nothing."""
    value = (properties or {}).get("cloudResourceId")
    if isinstance(value, str) and value:
        return value
    if pulumi.runtime.is_dry_run():
        return unknown()
    raise pulumi.RunError(
        f"cloud resource {name!r}: the platform returned no properties.cloudResourceId after the "
        "registration was created; check the resource in the Azure portal (Anyscale.Platform/clouds/"
        "cloudResources) and run `pulumi refresh` before the next `pulumi up`"
    )


class CloudResourceRegistration(pulumi.ComponentResource):
    """Registers one cluster with the cloud. The platform fixes the name, location, parent
    cloud and every property, and names are unique: a change of one of those is a delete
    followed by a create. Anything else (the API version) is an update."""

    cloud_resource_id: pulumi.Output[str]
    resource_id: pulumi.Output[str]

    def __init__(
        self,
        name: str,
        cloud: CloudRecord,
        target: Target,
        previous: pulumi.Resource | None,
        opts: pulumi.ResourceOptions | None = None,
        waits_for: list[pulumi.Resource] | None = None,
        import_id: str | None = None,
    ):
        """`previous` is the registration before this one: the platform creates them one
        at a time. Besides it, the registration waits only for its own target. `import_id`:
        an existing registration's ID, imported instead of created (config/adopt.py)."""
        super().__init__("anyscale-cloud:index:CloudResourceRegistration", name, None, opts)
        depends_on = [cloud.resource, *target.ready, *(waits_for or [])]
        if previous is not None:
            depends_on.append(previous)
        self.resource = resources.Resource(
            f"{name}-registration",
            resource_provider_namespace=NAMESPACE,
            parent_resource_path=f"clouds/{cloud.name}",
            resource_type="cloudResources",
            resource_name_=name,
            api_version=cloud.api_version,
            resource_group_name=cloud.resource_group_name,
            location=cloud.location,
            properties=registration_properties(target),
            opts=pulumi.ResourceOptions(
                parent=self,
                provider=cloud.azure_provider,
                depends_on=depends_on,
                replace_on_changes=list(REGISTRATION_REPLACING_PATHS),
                delete_before_replace=True,
                protect=cloud.protect,
                import_=import_id,
            ),
        )
        self.cloud_resource_id = self.resource.properties.apply(lambda props: cloud_resource_id(name, props))
        self.resource_id = self.resource.id
        self.register_outputs({"cloud_resource_id": self.cloud_resource_id, "resource_id": self.resource_id})
