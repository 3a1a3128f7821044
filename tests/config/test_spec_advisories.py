"""Exact values and messages of the spec (config/): the Azure availability advisories, the order and uniqueness of the
resources, peering, regions and the provider tag. Each asserts what a user sees, with the
expected text as a literal.

Equivalent (not killable):
- `_order_and_uniqueness` 11 12 39 40 67 68 111 112, `_peering_problems` 32 33 64 65,
  `check_name` 7 8, `check_region` 7 8 38 39: they rename an error's type; `load_spec` reads
  a type only to spot `provider`, `missing`, `extra_forbidden`, `string_pattern_mismatch` and
  `value_error*`, and a Problem carries the path and message only.
- `_peering_problems` 38 (`k <= i`): k == i only when the name is the resource's own, which
  the branch above has already reported.
- `_peering_problems` 48 50 51 53 55 56 (`strict` of ip_network): every range that reaches
  `network_cidrs` was validated with `IPv4Network(strict=True)` (no host bits), and None is
  as falsy as False.
- `_provider_tag` 17 (`or True`): pydantic reports a tag outside the union with the same
  custom `provider` error as None (checked: 'AZUR', 5, [1], {'a': 1}, True, None).
- `check_region` 20 22 (`n`): get_close_matches puts the best match first; only close[0] is used.
- `default_pools` 9 10 24 25: the dropped `min_count=0` / `max_count=10` are NodePoolSpec's
  defaults, which AksNodePool and GkeNodePool keep.
- `load_spec` 31 34 (`by_alias` None or omitted): pydantic then uses the config's
  validate_by_alias, True by default.
- `NodePoolSpec.node_size` 5 (`count or 1`): a validated pool with a `gpu` always has a
  count of at least 1 (check_machine fills it in), and the default pools have no `gpu`.
"""

from __future__ import annotations

import copy
import warnings

from config import advisories, load_spec
from tests.example_spec import AKS_NETWORK_10_10, example_cloud, example_resources, problems

UNAVAILABLE = (
    "is not a region where Anyscale on Azure is available (Microsoft Learn 'Anyscale on Azure supported "
    "regions', 2026-07-23 (config/data/azure_availability.py): australiaeast, eastus, eastus2, northeurope, "
    "southcentralus, southeastasia, swedencentral, uksouth, westcentralus, westeurope, westus2, westus3); "
    "the platform may refuse it: request the region from Anyscale support, or use a listed one"
)


def azure_stack(location: str, primary: str, second: str, second_storage: str) -> list[str]:
    """The advisories of an Azure primary, an AWS resource and a second Azure resource."""
    cloud = example_cloud()
    cloud["location"] = location
    resources = [
        {"name": "default", "provider": "Azure", "region": primary},
        {"name": "aws", "provider": "AWS", "region": "us-west-2"},
        {"name": "second", "provider": "Azure", "region": second, "storage": {"region": second_storage}},
    ]
    return [str(p) for p in advisories(load_spec(cloud, resources))]


# --- advisories: Azure regions outside the availability list -------------------------------


def test_unlisted_azure_regions_are_advised_by_path_and_the_aws_region_is_not() -> None:
    # The cloud's location, an Azure resource's region and a storage region of its own, in file order.
    assert azure_stack("westus", "francecentral", "eastus2", "japaneast") == [
        f"cloud.location: 'westus' {UNAVAILABLE}",
        f"resources[0].region (default): 'francecentral' {UNAVAILABLE}",
        f"resources[2].storage.region (second): 'japaneast' {UNAVAILABLE}",
    ]


def test_an_unlisted_region_after_an_aws_resource_is_advised() -> None:
    # The AWS resource is skipped, not the end of the list; a storage region equal to the region is not repeated.
    assert azure_stack("eastus2", "eastus2", "francecentral", "francecentral") == [
        f"resources[2].region (second): 'francecentral' {UNAVAILABLE}"
    ]


def test_listed_regions_give_no_advisory() -> None:
    # Every Azure place in the list: nothing to report.
    assert azure_stack("westeurope", "swedencentral", "eastus2", "uksouth") == []


# --- the order and uniqueness of the resources ---------------------------------------------


def test_a_resource_without_a_name_does_not_end_the_uniqueness_check() -> None:
    # The names after it are still compared (ignoring case).
    resources = example_resources()
    del resources[1]["name"]
    resources[3]["name"] = "GCP-usc1"
    assert problems(resources) == [
        "resources[1].name: is required",
        "resources[3].name (GCP-usc1): 'GCP-usc1' is already the name of resources[2] ('gcp-usc1': Azure resource "
        "names ignore case); names must be unique within the cloud (the platform answers HTTP 409)",
    ]


def test_names_differing_in_more_than_case_are_not_duplicates() -> None:
    # 'ß' is its own lower case, not 'ss': only the name rule is broken, no duplicate is reported.
    resources = example_resources()
    resources[2]["name"] = "straße"
    resources[3]["name"] = "strasse"
    assert problems(resources) == [
        "resources[2].name (straße): 'straße' may contain only letters, digits, '-' and '_' (^[a-zA-Z0-9_-]+$)"
    ]


# --- peering ---------------------------------------------------------------------------------


def test_a_pair_reported_at_the_other_side_does_not_skip_the_next_peer() -> None:
    # gcp-usc1's first peer (aws-usw2) is reported from aws-usw2's side; its second still is compared.
    resources = example_resources()
    resources[0]["cluster"]["network"] = copy.deepcopy(AKS_NETWORK_10_10)
    resources[1]["peeredWith"] = ["gcp-usc1"]
    resources[2]["peeredWith"] = ["aws-usw2", "default"]
    resources[2]["cluster"] = {"nodeCidr": "10.10.16.0/20"}
    assert problems(resources) == [
        "resources[2].peeredWith[1] (gcp-usc1): cluster.nodeCidr 10.10.16.0/20 overlaps default's "
        "cluster.network.addressSpace 10.10.0.0/16: peered networks need distinct address ranges; change one of them"
    ]


# --- regions ---------------------------------------------------------------------------------


def test_an_unknown_region_with_no_close_match_gets_no_hint() -> None:
    # Nothing resembles it: the message ends after the pointer to config/data/regions.py.
    resources = example_resources()
    resources[1]["region"] = "qqqqqq"
    assert problems(resources) == [
        "resources[1].region (aws-usw2): 'qqqqqq' is not a known AWS region (see config/data/regions.py)"
    ]


# --- the provider tag ----------------------------------------------------------------------


def test_the_loaded_spec_serializes_without_warnings() -> None:
    # Serializing reads each resource's provider from the model: pydantic finds its tag, no fallback warning.
    spec = load_spec(example_cloud(), example_resources())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dumped = spec.model_dump(by_alias=True)
    assert [str(w.message) for w in caught] == []
    assert [r["provider"] for r in dumped["resources"]] == ["Azure", "AWS", "GCP", "Generic"]
