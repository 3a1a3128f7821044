"""The adopted stack the adoption tests share: the dev stack with every key of `adopt` set to
a portal-made cloud's IDs (tests/config/test_adopt_keys.py checks the spec on it,
tests/components/test_adopt_plan.py records its plan once, tests/preflight/test_mermaid.py draws it)."""

from __future__ import annotations

import copy
from typing import Any

from preflight.runtime import Plan
from tests.conftest import stack_values
from tests.plans import recorded

SUBSCRIPTION = "/subscriptions/00000000-0000-0000-0000-0000000000a1"
GROUP = f"{SUBSCRIPTION}/resourceGroups/rg-ml-platform-dev"
PROVIDERS = f"{GROUP}/providers"
CLOUD_ADOPT = {
    "resourceGroup": GROUP,
    "registry": f"{PROVIDERS}/Microsoft.ContainerRegistry/registries/acrportal01",
    "cloud": f"{PROVIDERS}/Anyscale.Platform/clouds/ml-platform-dev",
}
RESOURCE_ADOPT = {
    "registration": f"{PROVIDERS}/Anyscale.Platform/clouds/ml-platform-dev/cloudResources/default",
    "cluster": f"{PROVIDERS}/Microsoft.ContainerService/managedClusters/aks-portal",
    "storageAccount": f"{PROVIDERS}/Microsoft.Storage/storageAccounts/stportal01",
    "container": f"{PROVIDERS}/Microsoft.Storage/storageAccounts/stportal01/blobServices/default/containers/ray",
    "identity": f"{PROVIDERS}/Microsoft.ManagedIdentity/userAssignedIdentities/id-portal-operator",
    "operatorExtension": f"{PROVIDERS}/Microsoft.ContainerService/managedClusters/aks-portal/providers/"
    "Microsoft.KubernetesConfiguration/extensions/anyscale-operator",
    # As `az resource show --ids <registration> --query properties` prints them.
    "registrationProperties": {
        "provider": "Azure",
        "computeStack": "K8S",
        "region": "eastus2",
        "cloudStorageBucketName": "abfss://ray@stportal01.dfs.core.windows.net",
        "cloudStorageBucketEndpoint": "https://stportal01.blob.core.windows.net",
        "cloudStorageBucketRegion": "eastus2",
        "anyscaleOperatorIamIdentity": "11111111-2222-3333-4444-555555555555",
        "cloudResourceId": "cldrsrc_abc123",
    },
}


def adopted_values() -> dict[str, Any]:
    """The dev stack's config with the adoption keys (a fresh copy each call)."""
    values = stack_values("dev")
    values["anyscale-cloud:cloud"]["adopt"] = copy.deepcopy(CLOUD_ADOPT)
    values["anyscale-cloud:resources"][0]["adopt"] = copy.deepcopy(RESOURCE_ADOPT)
    return values


def adopted_plan() -> Plan:
    """Its plan, recorded once per test run (tests/plans.py)."""
    return recorded("dev", adopted_values())
