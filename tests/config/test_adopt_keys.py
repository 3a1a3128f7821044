"""The `adopt` keys (config/adopt.py, adopt_rules.py): each ID's shape and type, and every
difference from what an import would find that the stack can know offline."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from config import SpecError, load_spec
from config.adopt import parse_arm_id
from tests.adopt_stack import CLOUD_ADOPT, PROVIDERS, RESOURCE_ADOPT, adopted_values


def config(values: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    values = values or adopted_values()
    return values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"]


def problems(cloud: Any, resources: Any) -> list[str]:
    with pytest.raises(SpecError) as caught:
        load_spec(cloud, resources)
    return [str(p) for p in caught.value.problems]


def test_the_adopted_stack_is_valid_and_names_come_from_the_ids() -> None:
    spec = load_spec(*config())
    adopt = spec.resources[0].adopt
    assert adopt.name_of("cluster") == "aks-portal"
    assert adopt.name_of("storageAccount") == "stportal01"
    assert adopt.name_of("container") == "ray"
    assert adopt.name_of("identity") == "id-portal-operator"
    assert adopt.name_of("operatorExtension") == "anyscale-operator"
    assert spec.cloud.adopt.cloud == CLOUD_ADOPT["cloud"]


def test_parse_arm_id_reads_every_scope() -> None:
    parsed = parse_arm_id(RESOURCE_ADOPT["operatorExtension"])
    assert parsed is not None
    assert parsed.subscription == "00000000-0000-0000-0000-0000000000a1"
    assert parsed.resource_group == "rg-ml-platform-dev"
    assert parsed.kind == (
        "Microsoft.ContainerService/managedClusters/providers/Microsoft.KubernetesConfiguration/extensions"
    )
    assert parsed.names() == ["aks-portal", "anyscale-operator"]
    assert parse_arm_id("/subscriptions/not-a-guid/resourceGroups/rg") is None
    assert parse_arm_id(f"{PROVIDERS}/Microsoft.Storage/storageAccounts") is None  # a type without a name
    assert parse_arm_id(f"{PROVIDERS}/Microsoft.Storage/storageAccounts/a\n") is None


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (
            "cluster",
            f"{PROVIDERS}/Microsoft.Storage/storageAccounts/stportal01",
            "resources[0].adopt.cluster (default): '{v}' is a Microsoft.Storage/storageAccounts ID, not the ID of an "
            "AKS cluster (Microsoft.ContainerService/managedClusters); copy it with "
            "`az aks show -g <group> -n <name> --query id`",
        ),
        (
            "identity",
            "id-portal-operator",
            "resources[0].adopt.identity (default): 'id-portal-operator' is not an Azure resource ID "
            "(/subscriptions/<subscription GUID>/resourceGroups/<group>/providers/Microsoft.ManagedIdentity/"
            "userAssignedIdentities/<name>); copy it with `az identity show -g <group> -n <name> --query id`",
        ),
        (
            "registration",
            f"{PROVIDERS}/Anyscale.Platform/clouds/ml-platform-dev",
            "resources[0].adopt.registration (default): '{v}' is a Anyscale.Platform/clouds ID, not the ID of a "
            "cloud-resource registration (Anyscale.Platform/clouds/cloudResources); copy it with "
            "`az resource list -g <group> --resource-type Anyscale.Platform/clouds/cloudResources --query [].id`",
        ),
    ],
)
def test_an_id_of_the_wrong_shape_or_type_is_refused(key: str, value: str, message: str) -> None:
    cloud, resources = config()
    resources[0]["adopt"][key] = value
    assert problems(cloud, resources) == [message.replace("{v}", value)]


def test_the_id_must_name_the_stacks_group_cloud_and_resource() -> None:
    values = adopted_values()
    cloud, resources = config(values)
    cloud["adopt"]["cloud"] = f"{PROVIDERS}/Anyscale.Platform/clouds/ml-platform-portal"
    other = "/subscriptions/00000000-0000-0000-0000-0000000000b2/resourceGroups/rg-other/providers"
    resources[0]["adopt"]["identity"] = f"{other}/Microsoft.ManagedIdentity/userAssignedIdentities/id-x"
    resources[0]["adopt"]["registration"] = (
        f"{PROVIDERS}/Anyscale.Platform/clouds/ml-platform-dev/cloudResources/primary"
    )
    assert problems(cloud, resources) == [
        "cloud.adopt.cloud: names the cloud 'ml-platform-portal', but cloud.name is 'ml-platform-dev': the record's "
        "name is part of its ID and never changes; set cloud.name to 'ml-platform-portal'",
        "resources[0].adopt.identity (default): names resource group 'rg-other', but the program keeps the cloud in "
        "cloud.resourceGroup 'rg-ml-platform-dev' and imports it there, so the import would fail; set "
        "cloud.resourceGroup to the group the existing cloud is in",
        "resources[0].adopt.identity (default): is in subscription 00000000-0000-0000-0000-0000000000b2, but "
        "cloud.adopt.resourceGroup is in 00000000-0000-0000-0000-0000000000a1: the program deploys to one "
        "subscription",
        "resources[0].adopt.registration (default): names the cloud resource 'primary', but this resource is named "
        "'default': the name is part of its ID and never changes; set resources[0].name to 'primary'",
    ]


def test_each_immutable_property_that_differs_is_named() -> None:
    cloud, resources = config()
    existing = resources[0]["adopt"]["registrationProperties"]
    existing.update(
        region="westus2",
        cloudStorageBucketName="abfss://anyscale@stportal01.dfs.core.windows.net",
        cloudStorageBucketRegion="westus2",
    )
    never = (
        "the platform never changes a registration's properties (platform.md 1.2), so the import fails, or once "
        "imported `pulumi up` deletes and re-creates it; change the stack to match"
    )
    assert problems(cloud, resources) == [
        "resources[0].adopt.registrationProperties.region (default): the existing registration has region "
        f"'westus2', but the stack sends 'eastus2': {never}",
        "resources[0].adopt.registrationProperties.cloudStorageBucketName (default): the existing registration has "
        "cloudStorageBucketName 'abfss://anyscale@stportal01.dfs.core.windows.net', but the stack sends "
        f"'abfss://ray@stportal01.dfs.core.windows.net': {never}",
        "resources[0].adopt.registrationProperties.cloudStorageBucketRegion (default): the existing registration "
        f"has cloudStorageBucketRegion 'westus2', but the stack sends 'eastus2': {never}",
    ]


def test_an_adoption_that_would_replace_the_registration_is_refused() -> None:
    """Without the existing identity and bucket the program makes new ones, whose principal
    ID and name the registration would then carry: a replacement, whatever Azure holds."""
    cloud, resources = config()
    for key in ("identity", "storageAccount", "container"):
        del resources[0]["adopt"][key]
    del cloud["adopt"]["cloud"]
    found = problems(cloud, resources)
    assert [p.split(":")[0] for p in found] == ["resources[0].adopt.registration (default)"] * 3
    assert "adopt it too (cloud.adopt.cloud)" in found[0]
    assert "name the existing bucket (adopt.storageAccount)" in found[1]
    assert "adopt the identity (adopt.identity)" in found[2]


def test_azure_only_keys_and_dependencies() -> None:
    values = copy.deepcopy(adopted_values())
    cloud, resources = config(values)
    del cloud["adopt"]["resourceGroup"]
    resources.append(
        {
            "name": "aws-usw2",
            "provider": "AWS",
            "region": "us-west-2",
            "adopt": {"cluster": f"{PROVIDERS}/Microsoft.ContainerService/managedClusters/aks-portal"},
        }
    )
    assert problems(cloud, resources) == [
        "cloud.adopt.resourceGroup: an existing cloud's resource group exists too: adopt it as well, or the program "
        "tries to create it",
        "resources[1].adopt.cluster (aws-usw2): only an Azure (AKS) resource adopts a cluster; this AWS resource adopts "
        "its registration only",
    ]
    # A key's dependency is the field's own check, reported before the rules across the stack.
    del resources[0]["adopt"]["cluster"]
    assert problems(cloud, resources) == [
        "resources[0].adopt (default): an extension lives on its cluster: adopt the cluster (`cluster`) too"
    ]
