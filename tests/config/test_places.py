"""Places that do not exist (config/data/zones.py): a zone of the right form that its region
does not have, and a GCP project ID with a string Google reserves; the unusual but real ones
(us-central1-f, europe-west1-d, a region whose zones are not listed) still accepted."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.conftest import stack_values
from tests.example_spec import spec_problems

EXAMPLE = stack_values("example")


def gcp(region: str | None = None, zones: list[str] | None = None, project: str | None = None) -> list[str]:
    """The spec's problems with the example's GCP resource changed."""
    cloud = copy.deepcopy(EXAMPLE["anyscale-cloud:cloud"])
    resources: list[dict[str, Any]] = copy.deepcopy(EXAMPLE["anyscale-cloud:resources"])
    resource = resources[2]
    if region is not None:
        resource["region"] = region
    if project is not None:
        resource["project"] = project
    if zones is not None:
        resource["cluster"] = {"nodePools": [{"name": "cpu", "instanceType": "n2-standard-16", "zones": zones}]}
    return spec_problems(cloud, resources)


@pytest.mark.parametrize(
    ("region", "zone", "letters"),
    [
        ("us-central1", "us-central1-d", "a, b, c, f"),  # the form, but us-central1 has no d
        ("us-east1", "us-east1-a", "b, c, d"),  # us-east1 starts at b
        ("europe-west1", "europe-west1-a", "b, c, d"),
        ("asia-east1", "asia-east1-z", "a, b, c"),
    ],
)
def test_a_zone_the_region_does_not_have_is_refused(region: str, zone: str, letters: str) -> None:
    named = ", ".join(f"{region}-{letter}" for letter in letters.split(", "))
    assert gcp(region, [zone]) == [
        f"resources[2].cluster.nodePools[0].zones[0] (gcp-usc1): '{zone}' is not a zone of {region}: use {named}"
    ]


@pytest.mark.parametrize(
    ("region", "zones"),
    [
        ("us-central1", ["us-central1-f", "us-central1-a"]),
        ("us-east1", ["us-east1-d"]),
        ("europe-west1", ["europe-west1-b", "europe-west1-d"]),
        ("asia-southeast3", ["asia-southeast3-e"]),  # zones not listed: the form only
    ],
)
def test_real_zones_are_accepted(region: str, zones: list[str]) -> None:
    assert gcp(region, zones) == []


@pytest.mark.parametrize(
    ("project", "words"),
    [
        ("my-google-proj", "'google'"),
        ("ssl-terminator", "'ssl'"),
        ("null-project", "'null'"),
        ("team-undefined1", "'undefined'"),
        ("googlessl-x", "'google' and 'ssl'"),
    ],
)
def test_a_project_id_with_a_restricted_string_is_refused(project: str, words: str) -> None:
    assert gcp(project=project) == [
        f"resources[2].project (gcp-usc1): '{project}' contains {words}, which Google does not allow in a project "
        "ID (google, null, undefined, ssl): use the ID of an existing project"
    ]


@pytest.mark.parametrize("project", ["goog-le-ml", "my-gcp-project", "nul-l-abc", "s-s-l-xyz"])
def test_project_ids_near_the_restricted_strings_are_accepted(project: str) -> None:
    assert gcp(project=project) == []
