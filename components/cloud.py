"""AnyscaleCloud: the cloud's ARM record, its registry, and the ordered cloud resources."""

from __future__ import annotations

import pulumi
import pulumi_random as random
from pulumi_azure_native import Provider as AzureProvider
from pulumi_azure_native import containerregistry, resources

from components.cloud_resource import CloudResource
from components.names import REGISTRY_SUFFIX, registry_name
from components.registration import CloudRecord
from components.target import CloudContext
from spec import StackSpec


def retains_storage(spec: StackSpec) -> bool:
    """Whether a storage account we create in the cloud's group is kept on delete."""
    return any(
        r.provider == "Azure" and r.storage.bucket is None and r.storage.retain_on_delete for r in spec.resources
    )


class AnyscaleCloud(pulumi.ComponentResource):
    """The resource group, the registry for managed image builds, the
    `Anyscale.Platform/clouds` record, and its cloud resources, primary first.

    Clusters, buckets and identities of all resources are built in parallel; only the
    registrations are chained, each waiting for the one before it."""

    cloud_id: pulumi.Output[str]
    registry_id: pulumi.Output[str]
    resources: dict[str, CloudResource]

    def __init__(self, spec: StackSpec, opts: pulumi.ResourceOptions | None = None):
        cloud = spec.cloud
        super().__init__("anyscale-cloud:index:AnyscaleCloud", cloud.name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        azure = AzureProvider(f"{cloud.name}-azure", location=cloud.location, opts=child)
        rand = random.Provider(f"{cloud.name}-random", opts=child)
        on_azure = pulumi.ResourceOptions(parent=self, provider=azure)
        guarded = pulumi.ResourceOptions.merge(on_azure, pulumi.ResourceOptions(protect=cloud.protect))

        group = resources.ResourceGroup(
            f"{cloud.name}-rg",
            resource_group_name=cloud.resource_group,
            location=cloud.location,
            tags=cloud.tags,
            # Deleting a group deletes everything in it, retained or not (platform.md
            # 9.4): a retained storage account lives here, so the group stays too.
            opts=pulumi.ResourceOptions.merge(guarded, pulumi.ResourceOptions(retain_on_delete=retains_storage(spec))),
        )
        # Registry names are global and letters and digits only: Pulumi's autoname
        # (`<name>-<suffix>`) is never valid, so the name is explicit, with a random suffix.
        suffix = random.RandomString(
            f"{cloud.name}-registry-suffix",
            length=REGISTRY_SUFFIX,
            special=False,
            upper=False,
            opts=pulumi.ResourceOptions(parent=self, provider=rand),
        )
        registry = containerregistry.Registry(
            f"{cloud.name}-registry",
            registry_name=suffix.result.apply(lambda s: registry_name(cloud.name, s)),
            resource_group_name=group.name,
            location=cloud.location,
            sku={"name": cloud.registry_sku},
            admin_user_enabled=False,  # pulls and pushes use Entra identities only
            anonymous_pull_enabled=False,
            tags=cloud.tags,
            opts=guarded,
        )
        record = resources.Resource(
            f"{cloud.name}-cloud",
            resource_provider_namespace="Anyscale.Platform",
            parent_resource_path="",
            resource_type="clouds",
            resource_name_=cloud.name,
            api_version=cloud.api_version,
            resource_group_name=group.name,
            location=cloud.location,
            properties={"acrResourceId": registry.id},
            tags=cloud.tags,
            opts=guarded,
        )
        record_info = CloudRecord(
            cloud.name, group.name, cloud.location, cloud.api_version, azure, record, cloud.protect
        )

        self.resources = {}
        previous: pulumi.Resource | None = None
        for index, resource in enumerate(spec.resources):
            ctx = CloudContext(
                cloud.name, group.name, azure, rand, registry.id, cloud.tags, cloud.protect, is_primary=index == 0
            )
            built = CloudResource(resource, ctx, record_info, previous, child)
            self.resources[resource.name] = built
            previous = built.registration.resource
        self.cloud_id = record.id
        self.registry_id = registry.id
        self.register_outputs({"cloud_id": self.cloud_id, "registry_id": self.registry_id})
