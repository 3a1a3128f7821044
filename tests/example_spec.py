"""The example stack's config as test input (fresh copies each call), and what `load_spec`
reports for a variant of it: tests of the spec's details start from these."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from config import SpecError, load_spec
from tests.conftest import stack_values

# An AKS network of its own in 10.10.0.0/16 (services in 10.20.0.0/16), for the peering rules.
AKS_NETWORK_10_10: dict[str, str] = {
    "addressSpace": "10.10.0.0/16",
    "nodeSubnet": "10.10.1.0/24",
    "serviceCidr": "10.20.0.0/16",
    "dnsServiceIp": "10.20.0.10",
}


def standalone(values: dict[str, Any]) -> dict[str, Any]:
    """Stack values without the primary's `multiKueueWorkers` (in place, and returned): it names
    other resources of the example, which tests of the spec's details rename, drop or rewrite;
    tests/components/test_multikueue.py tests it."""
    resources = values.get("anyscale-cloud:resources") or []
    if resources:
        resources[0].get("addons", {}).get("kuberay", {}).pop("multiKueueWorkers", None)
    return values


def onprem_and_minio() -> dict[str, Any]:
    """The example's primary and onprem, and `minio`: a copy of onprem on an existing Secret.
    One stack (so one recording) for the tests of both Generic resources."""
    values = standalone(stack_values("example"))
    resources = values["anyscale-cloud:resources"]
    resources[:] = [r for r in resources if r["name"] in ("default", "onprem")]
    storage = {"bucket": "s3://ray-data", "endpoint": "https://minio.dc1.example.com", "existingSecret": "minio-keys"}
    resources.append({**copy.deepcopy(resources[1]), "name": "minio", "storage": storage})
    return values


def entra_only_pair(group: str) -> dict[str, Any]:
    """The dev stack with its primary Entra-only (admin group `group`, the default kubelogin
    mode) and `spn` beside it, Entra-only with kubeloginMode: spn. One stack (so one
    recording) for the tests of both credentials."""
    values = stack_values("dev")
    values["anyscale-cloud:resources"][0]["cluster"] = {"disableLocalAccounts": True, "adminGroupObjectIds": [group]}
    values["anyscale-cloud:resources"].append(
        {
            "name": "spn",
            "provider": "Azure",
            "region": "eastus2",
            "cluster": {"disableLocalAccounts": True, "adminGroupObjectIds": [group], "kubeloginMode": "spn"},
        }
    )
    return values


def example_cloud() -> dict[str, Any]:
    return copy.deepcopy(stack_values("example")["anyscale-cloud:cloud"])


def example_resources() -> list[dict[str, Any]]:
    return standalone(copy.deepcopy(stack_values("example")))["anyscale-cloud:resources"]


def spec_error(cloud: Any, resources: Any) -> SpecError:
    """The SpecError `load_spec` raises (the test fails when it raises none)."""
    with pytest.raises(SpecError) as caught:
        load_spec(cloud, resources)
    return caught.value


def spec_problems(cloud: Any, resources: Any) -> list[str]:
    """Each problem `load_spec` reports, as the user reads it; [] when the stack loads."""
    try:
        load_spec(cloud, resources)
    except SpecError as error:
        return [str(p) for p in error.problems]
    return []


def problems(resources: Any, cloud: Any = None) -> list[str]:
    """Each problem as the user reads it, in order; the example's cloud unless one is given."""
    return [str(p) for p in spec_error(example_cloud() if cloud is None else cloud, resources).problems]


MANAGED = ["ray-a", "ray-b"]  # the managed namespaces of variants_values
SENTINELS = {"kubeconfig": "SENTINEL-KUBECONFIG-7f3a9c", "cliToken": "SENTINEL-CLITOKEN-51be02"}


def with_sentinels(values: dict[str, Any]) -> dict[str, Any]:
    """Plant known values in every secret input (as the CLI hands them over, decrypted)."""
    for resource in values["anyscale-cloud:resources"]:
        for key, sentinel in SENTINELS.items():
            if key in resource:
                resource[key] = f"{sentinel}-{resource['name']}"
    return values


def variants_values() -> dict[str, Any]:
    """The example with protection left to its default (on), `onprem` on a hostname gateway
    address, sentinels in every secret input, and two managed namespaces on every resource
    (`ray-a` also a Kueue queue namespace of the primary): the plans of the tests of
    tests/components/test_safety.py and test_managed_namespaces.py, none of which asserts on
    what another changed, made in one run."""
    values = with_sentinels(stack_values("example"))
    del values["anyscale-cloud:cloud"]["protect"]
    onprem = next(r for r in values["anyscale-cloud:resources"] if r["name"] == "onprem")
    onprem["gatewayAddress"] = "hostname"
    for resource in values["anyscale-cloud:resources"]:
        resource.setdefault("addons", {})["anyscaleOperator"] = {
            "values": {"workloads": {"managedNamespaces": MANAGED, "enableCrossNamespaceResourceManagement": True}}
        }
    values["anyscale-cloud:resources"][0]["addons"]["kuberay"]["queueNamespaces"] = ["ray-a"]
    return values
