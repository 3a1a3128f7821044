"""CloudResource: one cloud resource's provider target, its registration, and its add-ons."""

from __future__ import annotations

import pulumi

from components.addons import AddonsArgs, ClusterAddons
from components.kuberay.flavors import pool_flavors
from components.registration import CloudRecord, CloudResourceRegistration
from components.target import CloudContext, TargetBuilder
from config import ResourceSpec


def builder(provider: str) -> type[TargetBuilder]:
    """The provider's component class. Imported here, not at the top: a stack with AKS
    only does not pay for loading the AWS and GCP SDKs."""
    if provider == "Azure":
        from components.azure import AksTarget

        return AksTarget
    if provider == "AWS":
        from components.aws import EksTarget

        return EksTarget
    if provider == "GCP":
        from components.gcp import GkeTarget

        return GkeTarget
    from components.generic import GenericTarget

    return GenericTarget


class CloudResource(pulumi.ComponentResource):
    """One cloud resource: its provider target, its registration, and its add-ons."""

    cloud_resource_id: pulumi.Output[str]
    bucket_uri: pulumi.Output[str]
    bucket_endpoint: pulumi.Output[str]
    gateway_address: pulumi.Output[str]
    kubeconfig: pulumi.Output[str]

    def __init__(
        self,
        spec: ResourceSpec,
        ctx: CloudContext,
        cloud: CloudRecord,
        previous: pulumi.Resource | None,
        opts: pulumi.ResourceOptions | None = None,
    ):
        super().__init__("anyscale-cloud:index:CloudResource", spec.name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        target = builder(spec.provider)(spec, ctx, child).target
        self.addons = ClusterAddons(spec.name, target, child)
        # Generic: the registration waits for the operator's namespace, so a destroy
        # deletes the registration while the operator still runs (see ClusterAddons).
        operator_home = [self.addons.namespace] if target.cluster is None else []
        self.registration = CloudResourceRegistration(
            spec.name, cloud, target, previous, child, operator_home, import_id=spec.adopt.registration
        )
        self.addons.install(
            AddonsArgs(
                target,
                self.registration.cloud_resource_id,
                spec.addons,
                self.registration.resource,
                flavors=pool_flavors(spec),
            )
        )
        self.target = target
        self.cloud_resource_id = self.registration.cloud_resource_id
        self.bucket_uri = pulumi.Output.from_input(target.bucket_uri)
        self.bucket_endpoint = pulumi.Output.from_input(target.bucket_endpoint)
        self.gateway_address = self.addons.gateway_address
        self.kubeconfig = target.kubeconfig
        self.register_outputs(
            {
                "cloud_resource_id": self.cloud_resource_id,
                "bucket_uri": self.bucket_uri,
                "bucket_endpoint": self.bucket_endpoint,
                "gateway_address": self.gateway_address,
                "kubeconfig": self.kubeconfig,
            }
        )
