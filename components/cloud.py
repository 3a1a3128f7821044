"""AnyscaleCloud: the cloud's ARM record, its registry, and the ordered cloud resources.

Also the component package's one component (provider/): its type annotations are its
schema, so this module does not use `from __future__ import annotations` (the provider
host reads the annotations as types, not strings).
"""

import typing
from typing import NotRequired, TypedDict

import pulumi
import pulumi_random as random
from pulumi_azure_native import Provider as AzureProvider
from pulumi_azure_native import containerregistry, resources

from components.args import AnyscaleCloudArgs
from components.cloud_args import check_deferred, known, to_config
from components.cloud_resource import CloudResource
from components.kuberay.multikueue import Member, install_multikueue
from components.registration import CloudRecord
from components.target import CloudContext, Target
from config import SpecError, StackSpec, advisories, load_spec
from config.adopt import parse_arm_id
from config.currency import TodayError, today
from config.names import REGISTRY_SUFFIX, registry_name


class CloudResourceOutputs(TypedDict):
    """One cloud resource as runbooks and other stacks read it. Keys are camelCase, as the
    schema and the stack's exports name them (a map's values keep their keys as given).
    Each value is an Output of its own, so that a preview shows the known ones while others
    (the platform's IDs) are not known yet."""

    provider: pulumi.Output[str]
    """`Azure`, `AWS`, `GCP` or `Generic`"""
    region: pulumi.Output[str]
    """the resource's region (Generic: its routing label)"""
    cloudResourceId: pulumi.Output[str]
    """the platform's ID of the resource (the registration's read-only `cloudResourceId`)"""
    bucketUri: pulumi.Output[str]
    """the object storage the platform uses (abfss://, s3:// or gs://)"""
    bucketEndpoint: pulumi.Output[str]
    """the bucket's endpoint where the platform needs one (Azure: the Blob endpoint), else empty"""
    gatewayAddress: pulumi.Output[str]
    """the Envoy Gateway's load balancer address (an IP, or on AWS a hostname), once assigned"""
    clusterName: NotRequired[pulumi.Output[str]]
    """the Kubernetes cluster's name (not for Generic: the cluster is yours)"""
    clusterId: NotRequired[pulumi.Output[str]]
    """the cluster's ID: the AKS ARM ID, the EKS ARN, the GKE `projects/<p>/locations/<l>/clusters/<c>`"""
    oidcIssuer: NotRequired[pulumi.Output[str]]
    """the cluster's OIDC issuer URL, which its service account tokens name"""
    operatorPrincipalId: NotRequired[pulumi.Output[str]]
    """Azure: the operator's managed identity principal (object) ID, as registered"""
    operatorClientId: NotRequired[pulumi.Output[str]]
    """Azure: the operator's managed identity client ID, as the operator uses it"""
    operatorRoleArn: NotRequired[pulumi.Output[str]]
    """AWS: the operator's IAM role ARN"""
    operatorServiceAccountEmail: NotRequired[pulumi.Output[str]]
    """GCP: the operator's service account email"""


def retains_storage(spec: StackSpec) -> bool:
    """Whether a storage account we create in the cloud's group is kept on delete."""
    return any(
        r.provider == "Azure" and r.storage.bucket is None and r.storage.retain_on_delete for r in spec.resources
    )


def validated(args: AnyscaleCloudArgs) -> StackSpec:
    """The spec of `args`, or a RunError (no traceback) listing every problem with its
    config path, the same as `preflight validate`, before any resource is declared."""
    try:
        cloud, cloud_resources, secrets = to_config(args)
        # The day Kubernetes versions are judged on: ANYSCALE_CLOUD_TODAY, else today (UTC).
        day = today()
        # A minor whose support ended since is a warning here, never a failed deploy.
        spec = load_spec(cloud, cloud_resources, secrets, today=day, deploying=True)
    except TodayError as error:
        raise pulumi.RunError(str(error)) from None
    except SpecError as error:
        raise pulumi.RunError(f"invalid stack config ({len(error.problems)} problem(s)):\n{error}") from None
    # The values given as Outputs get their fields' rules when they are known.
    check_deferred(spec)
    # Advisories (a minor in paid extended support or near its end, an Azure region outside
    # the preview's list) warn; they never stop a deployment.
    for advisory in advisories(spec, day, deploying=True):
        pulumi.log.warn(str(advisory))
    return spec


def resource_outputs(target: Target, resource: CloudResource) -> CloudResourceOutputs:
    identity: dict[str, pulumi.Input[str] | None] = {}
    if target.provider == "Azure":
        identity = {
            "operatorPrincipalId": target.registration_identity,
            "operatorClientId": target.operator_identity,
        }
    elif target.provider == "AWS":
        identity = {"operatorRoleArn": target.operator_identity}
    elif target.provider == "GCP":
        identity = {"operatorServiceAccountEmail": target.operator_identity}
    values: dict[str, pulumi.Input[str] | None] = {
        "provider": target.provider,
        "region": target.region,
        "cloudResourceId": resource.cloud_resource_id,
        "bucketUri": resource.bucket_uri,
        "bucketEndpoint": resource.bucket_endpoint,
        "gatewayAddress": resource.gateway_address,
        "clusterName": target.cluster_name,
        "clusterId": target.cluster_id,
        "oidcIssuer": target.oidc_issuer,
        **identity,
    }
    present = {key: pulumi.Output.from_input(value) for key, value in values.items() if value is not None}
    return typing.cast(CloudResourceOutputs, present)


class AnyscaleCloud(pulumi.ComponentResource):
    """An Anyscale cloud on Azure: the resource group, the registry for managed image
    builds, the `Anyscale.Platform/clouds` record, and its cloud resources (the AKS primary
    first, then EKS, GKE or your own clusters), each with its cluster, bucket, operator
    identity, Envoy Gateway, KubeRay and the Anyscale operator, registered as an
    `Anyscale.Platform/clouds/cloudResources` record.

    Clusters, buckets and identities of all resources are built in parallel; only the
    registrations are chained, each waiting for the one before it. The arguments are
    checked before any resource is declared, with the messages of `preflight validate`."""

    cloud_id: pulumi.Output[str]
    """the `Anyscale.Platform/clouds` record's ARM ID"""
    console_url: pulumi.Output[str]
    """the cloud's console sign-in URL (the clouds record's read-only `ssoUrl`)"""
    provisioning_state: pulumi.Output[str]
    """the clouds record's `provisioningState` (`Succeeded` once the platform has it)"""
    registry_id: pulumi.Output[str]
    """the container registry's ARM ID (managed image builds)"""
    resource_group_name: pulumi.Output[str]
    """the resource group holding the cloud's ARM records"""
    cloud_resources: dict[str, CloudResourceOutputs]
    """each cloud resource by its name: IDs, cluster, bucket, operator identity, gateway"""
    kubeconfigs: dict[str, pulumi.Output[str]]
    """each cloud resource's kubeconfig by its name (each a secret)"""

    def _multikueue(self, spec: StackSpec) -> None:
        """addons.kuberay.multiKueueWorkers on the primary (the spec checks the names)."""
        primary = spec.resources[0]
        if not primary.addons.kuberay.multi_kueue_workers:
            return
        specs = {r.name: r for r in spec.resources}

        def member(name: str) -> Member:
            built, kuberay = self._resources[name], specs[name].addons.kuberay
            assert built.addons.kueue is not None and kuberay.queue_quota is not None  # kueue on each, by the spec
            return Member(name, built.addons.in_cluster, built.addons.kueue, built.kubeconfig, kuberay.queue_quota)

        install_multikueue(member(primary.name), [member(w) for w in primary.addons.kuberay.multi_kueue_workers])

    def __init__(self, name: str, args: AnyscaleCloudArgs, opts: pulumi.ResourceOptions | None = None):
        spec = validated(args)
        cloud = spec.cloud
        super().__init__("anyscale-cloud:index:AnyscaleCloud", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        azure = AzureProvider(f"{cloud.name}-azure", location=cloud.location, opts=child)
        rand = random.Provider(f"{cloud.name}-random", opts=child)
        on_azure = pulumi.ResourceOptions(parent=self, provider=azure)
        guarded = pulumi.ResourceOptions.merge(on_azure, pulumi.ResourceOptions(protect=cloud.protect))

        group = resources.ResourceGroup(
            f"{cloud.name}-rg",
            resource_group_name=known(cloud.resource_group),
            location=cloud.location,
            tags=cloud.tags,
            # Deleting a group deletes everything in it, retained or not (platform.md
            # 9.4): a retained storage account lives here, so the group stays too.
            opts=pulumi.ResourceOptions.merge(
                guarded,
                pulumi.ResourceOptions(retain_on_delete=retains_storage(spec), import_=cloud.adopt.resource_group),
            ),
        )
        registry = containerregistry.Registry(
            f"{cloud.name}-registry",
            registry_name=self._registry_name(spec, rand),
            resource_group_name=group.name,
            location=cloud.location,
            sku={"name": cloud.registry_sku},
            admin_user_enabled=False,  # pulls and pushes use Entra identities only
            anonymous_pull_enabled=False,
            tags=cloud.tags,
            opts=pulumi.ResourceOptions.merge(guarded, pulumi.ResourceOptions(import_=cloud.adopt.registry)),
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
            opts=pulumi.ResourceOptions.merge(guarded, pulumi.ResourceOptions(import_=cloud.adopt.cloud)),
        )
        record_info = CloudRecord(
            cloud.name, group.name, cloud.location, cloud.api_version, azure, record, cloud.protect
        )

        self._resources: dict[str, CloudResource] = {}
        previous: pulumi.Resource | None = None
        for index, resource in enumerate(spec.resources):
            ctx = CloudContext(
                cloud.name, group.name, azure, rand, registry.id, cloud.tags, cloud.protect, is_primary=index == 0
            )
            built = CloudResource(resource, ctx, record_info, previous, child)
            self._resources[resource.name] = built
            previous = built.registration.resource
        self._multikueue(spec)
        self.cloud_id = record.id
        # Read-only properties the platform fills in on the record (platform.md).
        self.console_url = record.properties.apply(lambda p: (p or {}).get("ssoUrl"))
        self.provisioning_state = record.properties.apply(lambda p: (p or {}).get("provisioningState"))
        self.registry_id = registry.id
        self.resource_group_name = group.name
        self.cloud_resources = {n: resource_outputs(r.target, r) for n, r in self._resources.items()}
        # Each already a secret (Target.kubeconfig); tests/components/test_safety.py checks the exports.
        self.kubeconfigs = {n: r.kubeconfig for n, r in self._resources.items()}
        self.register_outputs(
            {
                "cloud_id": self.cloud_id,
                "console_url": self.console_url,
                "provisioning_state": self.provisioning_state,
                "registry_id": self.registry_id,
                "resource_group_name": self.resource_group_name,
                "cloud_resources": self.cloud_resources,
                "kubeconfigs": self.kubeconfigs,
            }
        )

    def _registry_name(self, spec: StackSpec, rand: random.Provider) -> pulumi.Input[str]:
        """An adopted registry keeps its name (its ID's). Otherwise registry names are global
        and letters and digits only: Pulumi's autoname (`<name>-<suffix>`) is never valid, so
        the name is explicit, with a random suffix."""
        cloud = spec.cloud
        adopted = parse_arm_id(cloud.adopt.registry) if cloud.adopt.registry else None
        if adopted is not None:
            return adopted.name
        suffix = random.RandomString(
            f"{cloud.name}-registry-suffix",
            length=REGISTRY_SUFFIX,
            special=False,
            upper=False,
            opts=pulumi.ResourceOptions(parent=self, provider=rand),
        )
        return suffix.result.apply(lambda s: registry_name(cloud.name, s))
