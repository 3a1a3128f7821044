"""One test per platform rule (platform.md 1.1, 1.2): the path and the message."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from config import Secret, SpecError, load_spec
from tests.conftest import stack_values
from tests.example_spec import standalone

EXAMPLE = standalone(copy.deepcopy(stack_values("example")))


def config() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return copy.deepcopy(EXAMPLE["anyscale-cloud:cloud"]), copy.deepcopy(EXAMPLE["anyscale-cloud:resources"])


def problems(cloud: Any, resources: Any) -> list[str]:
    with pytest.raises(SpecError) as caught:
        load_spec(cloud, resources)
    return [str(p) for p in caught.value.problems]


def only_problem(cloud: Any, resources: Any) -> str:
    found = problems(cloud, resources)
    assert len(found) == 1, found
    return found[0]


def test_example_and_defaults() -> None:
    spec = load_spec(*config())
    assert [r.name for r in spec.resources] == ["default", "aws-usw2", "gcp-usc1", "onprem"]
    assert spec.cloud.api_version == "2026-09-01"
    assert spec.cloud.protect is False
    primary = spec.resources[0]
    assert primary.storage.region == "eastus2"  # storage.region defaults to region
    assert primary.addons.envoy_gateway.version == "v1.7.0"
    assert primary.addons.anyscale_operator.version == "1.8.0"


def test_minimal_resource_gets_sensible_defaults() -> None:
    cloud, _ = config()
    spec = load_spec(cloud, [{"name": "default", "provider": "Azure", "region": "eastus2"}])
    cluster = spec.resources[0].cluster
    assert cluster.kubernetes_version == "1.36"  # the AKS default chosen on 2026-12-01
    assert cluster.support_plan == "KubernetesOfficial"
    assert cluster.system_pool.instance_type == "Standard_D4s_v5"
    assert [(p.name, p.instance_type, p.capacity_type, p.min_count, p.max_count) for p in cluster.node_pools] == [
        ("cpu", "Standard_D16s_v5", "ON_DEMAND", 0, 10),
        ("cpuspot", "Standard_D16s_v5", "SPOT", 0, 10),
    ]


def test_protect_defaults_on() -> None:
    cloud, resources = config()
    del cloud["protect"]
    assert load_spec(cloud, resources).cloud.protect is True


def test_at_least_one_resource() -> None:
    cloud, _ = config()
    assert only_problem(cloud, []) == (
        "resources: at least one cloud resource is required: the primary `default` on Azure"
    )


def test_first_resource_named_default() -> None:
    cloud, resources = config()
    resources[0]["name"] = "primary"
    assert only_problem(cloud, resources).startswith(
        "resources[0].name (primary): the first cloud resource is the primary and must be named 'default'"
    )


def test_first_resource_on_azure() -> None:
    cloud, resources = config()
    resources[0], resources[1] = resources[1], resources[0]
    resources[0]["name"], resources[1]["name"] = "default", "aws-usw2"
    found = problems(cloud, resources)
    assert found[0] == (
        "resources[0].provider (default): the first cloud resource must have provider Azure (AKS): the platform "
        "refuses 'The first cloud resource on cloud <id> must have provider AZURE'"
    )


@pytest.mark.parametrize("name", ["has space", "dot.name", "ünï", "a/b"])
def test_resource_name_pattern(name: str) -> None:
    cloud, resources = config()
    resources[1]["name"] = name
    assert only_problem(cloud, resources) == (
        f"resources[1].name ({name}): '{name}' may contain only letters, digits, '-' and '_' (^[a-zA-Z0-9_-]+$)"
    )


def test_resource_name_length() -> None:
    # The Generic resource: no cloud name is derived from it (AWS's IAM roles would cap it).
    cloud, resources = config()
    resources[3]["name"] = "a" * 257
    assert (
        only_problem(cloud, resources)
        == "resources[3].name (" + "a" * 257 + "): must be at most 256 characters (it has 257)"
    )
    resources[3]["name"] = "a" * 256
    load_spec(cloud, resources)


def test_cloud_name_pattern() -> None:
    cloud, resources = config()
    cloud["name"] = "ml platform"
    assert only_problem(cloud, resources) == (
        "cloud.name: 'ml platform' may contain only letters, digits, '-' and '_' (^[a-zA-Z0-9_-]+$)"
    )


def test_names_unique() -> None:
    cloud, resources = config()
    resources[2]["name"] = "aws-usw2"
    assert only_problem(cloud, resources) == (
        "resources[2].name (aws-usw2): 'aws-usw2' is already the name of resources[1]; names must be unique "
        "within the cloud (the platform answers HTTP 409)"
    )


@pytest.mark.parametrize("spelling", ["aws", "Aws", "AWS", "aWs"])
def test_provider_any_casing_normalized(spelling: str) -> None:
    cloud, resources = config()
    resources[1]["provider"] = spelling
    assert load_spec(cloud, resources).resources[1].provider == "AWS"


def test_provider_unknown() -> None:
    cloud, resources = config()
    resources[1]["provider"] = "Amazon"
    assert only_problem(cloud, resources) == (
        "resources[1].provider (aws-usw2): provider must be one of Azure, AWS, GCP, Generic (got 'Amazon')"
    )


@pytest.mark.parametrize(
    ("path", "meant"),
    [
        (("cloud", "locaton"), "location"),
        (("res", "regoin"), "region"),
        (("storage", "bukcet"), "bucket"),
        (("cluster", "nodepools"), "nodePools"),
        (("addons", "kuberay2"), "kuberay"),
    ],
)
def test_unknown_keys_are_errors(path: tuple[str, str], meant: str) -> None:
    cloud, resources = config()
    where, key = path
    if where == "cloud":
        cloud[key] = "x"
        expected = f"cloud.{key}"
    elif where == "res":
        resources[1][key] = "x"
        expected = f"resources[1].{key} (aws-usw2)"
    else:
        resources[0].setdefault(where, {})[key] = "x"
        expected = f"resources[0].{where}.{key} (default)"
    assert only_problem(cloud, resources) == (
        f"{expected}: unknown key: did you mean `{meant}`? (see the config reference in docs/configuration.md)"
    )


def test_an_unknown_key_near_no_allowed_one_gets_no_guess() -> None:
    cloud, resources = config()
    cloud["zzzqqq"] = "x"
    assert only_problem(cloud, resources) == (
        "cloud.zzzqqq: unknown key (check the spelling; see the config reference in docs/configuration.md)"
    )


def test_region_pattern_never_case_converted() -> None:
    cloud, resources = config()
    resources[1]["region"] = "US-West-2"
    assert only_problem(cloud, resources) == (
        "resources[1].region (aws-usw2): 'US-West-2' must be lowercase letters and digits in dash-separated groups "
        "(^[a-z0-9]+(-[a-z0-9]+)*$) (did you mean 'us-west-2'? casing is never converted)"
    )


def test_region_length() -> None:
    cloud, resources = config()
    resources[3]["region"] = "a" * 36
    assert only_problem(cloud, resources) == "resources[3].region (onprem): must be at most 35 characters (it has 36)"


@pytest.mark.parametrize(
    ("index", "region", "provider", "hint"),
    [
        (0, "eastus22", "Azure", "eastus2"),
        (1, "us-west-9", "AWS", "us-west-2"),
        (2, "us-central9", "GCP", "us-central1"),
    ],
)
def test_region_known_for_provider(index: int, region: str, provider: str, hint: str) -> None:
    cloud, resources = config()
    resources[index]["region"] = region
    name = resources[index]["name"]
    assert only_problem(cloud, resources) == (
        f"resources[{index}].region ({name}): '{region}' is not a known {provider} region "
        f"(see config/data/regions.py); did you mean '{hint}'?"
    )


def test_region_of_another_provider_is_rejected() -> None:
    cloud, resources = config()
    resources[1]["region"] = "eastus2"  # an Azure region on an AWS resource
    assert "'eastus2' is not a known AWS region" in only_problem(cloud, resources)


def test_generic_region_is_free_form() -> None:
    cloud, resources = config()
    resources[3]["region"] = "my-neocloud-dc-42"
    assert load_spec(cloud, resources).resources[3].region == "my-neocloud-dc-42"


def test_storage_region_rules_and_default() -> None:
    cloud, resources = config()
    resources[1]["storage"] = {"region": "us-east-1"}
    spec = load_spec(cloud, resources)
    assert spec.resources[1].storage.region == "us-east-1"
    assert spec.resources[2].storage.region == "us-central1"
    resources[1]["storage"] = {"region": "US-EAST-1"}
    assert only_problem(cloud, resources).startswith(
        "resources[1].storage.region (aws-usw2): 'US-EAST-1' must be lowercase"
    )
    resources[1]["storage"] = {"region": "mars-north-1"}
    assert "resources[1].storage.region (aws-usw2): 'mars-north-1' is not a known AWS region" in only_problem(
        cloud, resources
    )


@pytest.mark.parametrize(
    ("index", "bucket", "form"),
    [
        (0, "s3://data", "abfss://<container>@<account>.dfs.core.windows.net or azure://<container>"),
        (1, "gs://data", "s3://<bucket>"),
        (2, "s3://data", "gs://<bucket>"),
        (3, "data", "<scheme>://<bucket>"),
    ],
)
def test_bucket_scheme_matches_provider(index: int, bucket: str, form: str) -> None:
    cloud, resources = config()
    resources[index].setdefault("storage", {})["bucket"] = bucket
    if index == 0:
        resources[0]["storage"]["endpoint"] = "https://acct.blob.core.windows.net"
    message = only_problem(cloud, resources)
    assert message.startswith(f"resources[{index}].storage.bucket (")
    assert message.endswith(f"; use {form}")


@pytest.mark.parametrize(
    ("index", "bucket"),
    [
        (1, "s3://b/prefix"),
        (2, "gs://bucket/a/b"),
        (3, "s3://ray-data/sub"),
        (0, "abfss://c@acct.dfs.core.windows.net/path"),
    ],
)
def test_bucket_without_sub_path(index: int, bucket: str) -> None:
    cloud, resources = config()
    resources[index].setdefault("storage", {})["bucket"] = bucket
    if index == 0:
        resources[0]["storage"]["endpoint"] = "https://acct.blob.core.windows.net"
    assert f"'{bucket}' has a sub-path; the platform takes the bucket itself only" in only_problem(cloud, resources)


@pytest.mark.parametrize("bucket", ["abfss://data@acct123.dfs.core.windows.net", "azure://data"])
def test_existing_azure_bucket_forms(bucket: str) -> None:
    cloud, resources = config()
    resources[0]["storage"] = {"bucket": bucket, "endpoint": "https://acct123.blob.core.windows.net"}
    assert load_spec(cloud, resources).resources[0].storage.bucket == bucket


def test_generic_requires_bucket() -> None:
    cloud, resources = config()
    del resources[3]["storage"]
    assert only_problem(cloud, resources) == "resources[3].storage (onprem): is required"


def test_existing_azure_bucket_requires_endpoint() -> None:
    cloud, resources = config()
    resources[0]["storage"] = {"bucket": "azure://data"}
    assert only_problem(cloud, resources).startswith(
        "resources[0].storage.endpoint (default): is required with an existing Azure bucket"
    )


def test_endpoint_trailing_slash_says_why() -> None:
    cloud, resources = config()
    resources[0]["storage"] = {"bucket": "azure://data", "endpoint": "https://acct.blob.core.windows.net/"}
    assert only_problem(cloud, resources) == (
        "resources[0].storage.endpoint (default): 'https://acct.blob.core.windows.net/' ends with '/': a trailing "
        "slash silently breaks log delivery; use the bare origin 'https://acct.blob.core.windows.net'"
    )


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://acct.blob.core.windows.net",
        "https://acct.blob.core.windows.net/logs",
        "acct.blob.core.windows.net",
        "https://h?x=1",
    ],
)
def test_endpoint_bare_https_origin(endpoint: str) -> None:
    cloud, resources = config()
    resources[3]["storage"]["endpoint"] = endpoint
    assert only_problem(cloud, resources) == (
        f"resources[3].storage.endpoint (onprem): '{endpoint}' must be a bare https://<host> origin, "
        "with no path, query or trailing slash"
    )


def test_endpoint_optional_elsewhere() -> None:
    cloud, resources = config()
    del resources[3]["storage"]["endpoint"]
    assert load_spec(cloud, resources).resources[3].storage.endpoint is None


@pytest.mark.parametrize("key", ["kubeconfig", "cliToken"])
def test_generic_needs_secrets(key: str) -> None:
    cloud, resources = config()
    del resources[3][key]
    assert only_problem(cloud, resources) == f"resources[3].{key} (onprem): is required"


def test_secure_values_are_opaque_and_never_printed() -> None:
    cloud, resources = config()
    spec = load_spec(cloud, resources)
    token = spec.resources[3].cli_token
    assert isinstance(token, Secret) and token.encrypted
    assert "example-ciphertext" not in repr(spec)
    resources[3]["cliToken"] = "plain-token-value"
    spec = load_spec(cloud, resources)
    assert spec.resources[3].cli_token.value == "plain-token-value"
    assert "plain-token-value" not in repr(spec) + str(spec)


def test_empty_secret_rejected() -> None:
    cloud, resources = config()
    resources[3]["cliToken"] = ""
    assert only_problem(cloud, resources).startswith(
        "resources[3].cliToken (onprem): must be a non-empty Pulumi secret"
    )


def test_gcp_needs_project() -> None:
    cloud, resources = config()
    del resources[2]["project"]
    assert only_problem(cloud, resources) == "resources[2].project (gcp-usc1): is required"


@pytest.mark.parametrize("key", ["name", "location", "resourceGroup"])
def test_cloud_required_keys(key: str) -> None:
    cloud, resources = config()
    del cloud[key]
    assert only_problem(cloud, resources) == f"cloud.{key}: is required"


def test_cloud_location_known_azure_region() -> None:
    cloud, resources = config()
    cloud["location"] = "us-west-2"
    assert only_problem(cloud, resources).startswith("cloud.location: 'us-west-2' is not a known Azure region")


def test_api_version_default_and_override() -> None:
    cloud, resources = config()
    del cloud["apiVersion"]
    assert load_spec(cloud, resources).cloud.api_version == "2026-09-01"
    cloud["apiVersion"] = "2026-02-01-preview"
    assert load_spec(cloud, resources).cloud.api_version == "2026-02-01-preview"


def test_aks_pool_name_limit() -> None:
    cloud, resources = config()
    resources[0]["cluster"]["nodePools"][0]["name"] = "gpupoolnumber1"
    assert only_problem(cloud, resources) == (
        "resources[0].cluster.nodePools[0].name (default): 'gpupoolnumber1' is not a valid AKS node pool name: "
        "at most 12 characters, lowercase letters and digits, starting with a letter"
    )


def test_pool_bounds() -> None:
    cloud, resources = config()
    resources[0]["cluster"]["nodePools"][0].update(minCount=5, maxCount=2)
    assert (
        only_problem(cloud, resources)
        == "resources[0].cluster.nodePools[0] (default): minCount (5) must not exceed maxCount (2)"
    )


def test_missing_config_keys() -> None:
    found = problems(None, None)
    assert found == [
        "cloud: is required: set `anyscale-cloud:cloud` in the stack file",
        "resources: is required: set `anyscale-cloud:resources` in the stack file",
    ]


def test_all_problems_reported_at_once() -> None:
    cloud, resources = config()
    cloud["location"] = "nowhere"
    resources[0]["name"] = "first"
    resources[1]["region"] = "US-WEST-2"
    resources[2]["storage"] = {"bucket": "gs://b/p"}
    resources[3]["typo"] = 1
    found = problems(cloud, resources)
    paths = [line.split(":")[0].split(" ")[0] for line in found]
    assert paths == [
        "cloud.location",
        "resources[0].name",
        "resources[1].region",
        "resources[2].storage.bucket",
        "resources[3].typo",
    ]


@pytest.mark.parametrize("bad", [42, "text", {"a": 1}, [1, 2]])
def test_wrong_types_never_raise_anything_but_spec_error(bad: Any) -> None:
    cloud, resources = config()
    with pytest.raises(SpecError):
        load_spec(bad, resources)
    with pytest.raises(SpecError):
        load_spec(cloud, bad if not isinstance(bad, list) else [bad])


def test_system_pool_name_is_reserved() -> None:
    cloud, resources = config()
    resources[0]["cluster"]["nodePools"][0]["name"] = "system"
    assert only_problem(cloud, resources) == (
        "resources[0].cluster.nodePools (default): 'system' is the system pool's name; give the worker pool another name"
    )


def test_pool_names_unique() -> None:
    cloud, resources = config()
    resources[0]["cluster"]["nodePools"][1]["name"] = "cpu"
    assert only_problem(cloud, resources) == (
        "resources[0].cluster.nodePools (default): node pool names must be unique (repeated: cpu)"
    )


@pytest.mark.parametrize(
    ("index", "gpu", "instance_type", "provider", "offered"),
    [
        (
            2,
            "A10",
            "g2-standard-8",
            "GCP",
            "; g2-standard-8 carries L4; use one of T4, L4, A100-40G, A100-80G, H100, H100-MEGA, RTX-PRO-6000",
        ),
        (
            0,
            "A10G",
            "Standard_NV36ads_A10_v5",
            "Azure",
            "; Standard_NV36ads_A10_v5 carries A10; use one of T4, A10, A100, H100",
        ),
    ],
)
def test_gpu_type_offered_by_provider(index: int, gpu: str, instance_type: str, provider: str, offered: str) -> None:
    """GPU types are the operator chart's accelerator names on the provider (1.8.0)."""
    cloud, resources = config()
    resources[index]["cluster"] = {"nodePools": [{"name": "gpu", "instanceType": instance_type, "gpu": {"type": gpu}}]}
    name = resources[index]["name"]
    assert only_problem(cloud, resources) == (
        f"resources[{index}].cluster.nodePools[0].gpu.type ({name}): {gpu} is not a GPU type the operator chart maps on {provider}{offered}"
    )
