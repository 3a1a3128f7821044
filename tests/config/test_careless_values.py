"""Hostile and careless values in the stack config: each
is rejected at its path with a message that says what to do, never echoed raw."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from config import load_spec
from tests.conftest import stack_values
from tests.example_spec import spec_problems, standalone
from tests.text import text

EXAMPLE = standalone(copy.deepcopy(stack_values("example")))
SECRET_TEXT = "v1:DO-NOT-ECHO-ciphertext"


def problems(mutate: Callable[[dict[str, Any], list[dict[str, Any]]], None]) -> list[str]:
    cloud = copy.deepcopy(EXAMPLE["anyscale-cloud:cloud"])
    resources = copy.deepcopy(EXAMPLE["anyscale-cloud:resources"])
    mutate(cloud, resources)
    return spec_problems(cloud, resources)


@pytest.mark.parametrize(
    ("where", "mutate"),
    [
        ("resources[1].name (aws-usw2\\n)", lambda c, r: r[1].__setitem__("name", "aws-usw2\n")),
        ("resources[1].region (aws-usw2)", lambda c, r: r[1].__setitem__("region", "us-west-2\n")),
        ("resources[2].storage.bucket (gcp-usc1)", lambda c, r: r[2].__setitem__("storage", {"bucket": "gs://b\n"})),
        (
            "resources[3].storage.endpoint (onprem)",
            lambda c, r: r[3]["storage"].__setitem__("endpoint", "https://minio.example.com\n"),
        ),
        (
            "resources[0].cluster.nodePools[0].name (default)",
            lambda c, r: r[0]["cluster"]["nodePools"][0].__setitem__("name", "cpu\n"),
        ),
        ("cloud.name", lambda c, r: c.__setitem__("name", "ml-platform\n")),
    ],
)
def test_a_trailing_newline_is_rejected_everywhere(where: str, mutate: Callable[..., None]) -> None:
    assert problems(mutate) == [f"{where}: contains the control or format character U+000A; remove it"]


def test_escape_sequences_are_never_printed_raw() -> None:
    found = problems(lambda c, r: c.__setitem__("tags", {"team": "\x1b[2J\x1b[31mowned"}))
    assert found == ["cloud.tags.team: contains the control or format character U+001B; remove it"]
    found = problems(lambda c, r: r[1].__setitem__("name", "aws\u202eevil"))
    assert found == ["resources[1].name (aws\\u202eevil): contains the control or format character U+202E; remove it"]
    assert all("\x1b" not in p and "\u202e" not in p for p in found)


@pytest.mark.parametrize(
    ("where", "mutate"),
    [
        ("cloud.tags.owner", lambda c, r: c.__setitem__("tags", {"owner": {"secure": SECRET_TEXT}})),
        ("resources[1].name", lambda c, r: r[1].__setitem__("name", {"secure": SECRET_TEXT})),
        ("resources[1].provider (aws-usw2)", lambda c, r: r[1].__setitem__("provider", {"secure": SECRET_TEXT})),
        ("resources[2].project (gcp-usc1)", lambda c, r: r[2].__setitem__("project", {"secure": SECRET_TEXT})),
        # Secrets are accepted under addons.anyscaleOperator.values only, not next to it.
        (
            "resources[2].addons.anyscaleOperator.version (gcp-usc1)",
            lambda c, r: r[2].__setitem__("addons", {"anyscaleOperator": {"version": {"secure": SECRET_TEXT}}}),
        ),
        (
            "resources[3].storage.credentials.addressingStyle (onprem)",
            lambda c, r: r[3]["storage"].update(
                region="us-east-1",
                credentials={
                    "accessKeyId": "minio",
                    "secretAccessKey": "k",
                    "addressingStyle": {"secure": SECRET_TEXT},
                },
            ),
        ),
    ],
)
def test_a_secret_outside_a_secret_slot_is_rejected_and_never_echoed(where: str, mutate: Callable[..., None]) -> None:
    found = problems(mutate)
    assert "DO-NOT-ECHO" not in "".join(found)
    assert found == [
        f"{where}: a secret ({{secure: ...}}) is not accepted here: only kubeconfig, cliToken, storage.credentials keys "
        "and addons.anyscaleOperator.values are secrets; set this value in clear"
    ]


def test_secrets_in_their_slots_are_never_inspected() -> None:
    # A kubeconfig is multi-line text: control characters belong there.
    assert problems(lambda c, r: r[3].__setitem__("kubeconfig", "apiVersion: v1\nkind: Config\n")) == []


def test_names_of_only_dashes_and_underscores_are_rejected() -> None:
    assert problems(lambda c, r: r[1].__setitem__("name", "-_-")) == [
        "resources[1].name (-_-): '-_-' must contain at least one letter or digit (names of only '-' and '_' make no valid cloud names)"
    ]


def test_a_vpc_cidr_that_is_no_network_is_rejected() -> None:
    assert problems(lambda c, r: r[1].__setitem__("cluster", {"vpcCidr": "10.0.0.1/16"})) == [
        "resources[1].cluster.vpcCidr (aws-usw2): '10.0.0.1/16' is not an IPv4 network (10.0.0.1/16 has host bits set); e.g. 10.0.0.0/16"
    ]
    assert problems(lambda c, r: r[1].__setitem__("cluster", {"vpcCidr": "999.0.0.0/16"})) == [
        "resources[1].cluster.vpcCidr (aws-usw2): '999.0.0.0/16' is not an IPv4 network (Octet 999 (> 255) not permitted in '999.0.0.0'); e.g. 10.0.0.0/16"
    ]


def test_the_system_pool_bounds_and_instance_type_are_checked() -> None:
    assert problems(
        lambda c, r: r[1].__setitem__(
            "cluster", {"systemPool": {"instanceType": "m6i.xlarge", "minCount": 3, "maxCount": 1}}
        )
    ) == ["resources[1].cluster.systemPool (aws-usw2): minCount (3) must not exceed maxCount (1)"]
    assert problems(lambda c, r: r[1].__setitem__("cluster", {"systemPool": {"instanceType": " "}})) == [
        "resources[1].cluster.systemPool.instanceType (aws-usw2): ' ' does not have the required form ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
    ]


@pytest.mark.parametrize("version", ["", " ", "*", ">=1.0.0", "~1.2", "latest", "1.6"])
def test_chart_versions_must_be_exact_releases(version: str) -> None:
    found = problems(lambda c, r: r[1].__setitem__("addons", {"kuberay": {"version": version}}))
    assert len(found) == 1 and found[0].startswith("resources[1].addons.kuberay.version (aws-usw2): "), found


@pytest.mark.parametrize("version", ["1.6.2", "v1.7.0"])
def test_exact_chart_versions_pass(version: str) -> None:
    assert problems(lambda c, r: r[1].__setitem__("addons", {"kuberay": {"version": version}})) == []


@pytest.mark.parametrize("version", ["1.8.0-rc.1", "1.7.1"])
def test_a_kuberay_version_whose_crds_do_not_ship_is_refused(version: str) -> None:
    # Its CRDs and dashboards would have to be downloaded at deploy time (components/shipped.py).
    assert problems(lambda c, r: r[1].__setitem__("addons", {"kuberay": {"version": version}})) == [
        f"resources[1].addons.kuberay.version (aws-usw2): the KubeRay CRDs and dashboards ship with this program "
        f"for 1.6.2, 1.7.0 only (version is {version}): nothing is downloaded at deploy time; use one of those versions"
    ]


CONTROL = st.characters(categories=["Cc", "Cf"])


@given(text=text(min_size=1, max_size=10), control=CONTROL, slot=st.sampled_from(["name", "region", "project"]))
def test_no_control_character_passes_in_any_slot(text: str, control: str, slot: str) -> None:
    value = text + control
    found = problems(lambda c, r: r[2].__setitem__(slot, value))
    assert found, f"{value!r} in resources[2].{slot} passed"
    assert control not in "".join(found)  # escaped wherever the value is quoted


def test_snake_case_keys_are_rejected_with_the_camel_case_spelling() -> None:
    def snake(cloud: dict[str, Any], resources: list[dict[str, Any]]) -> None:
        cloud["resource_group"] = cloud.pop("resourceGroup")
        resources[0]["cluster"]["node_pools"] = resources[0]["cluster"].pop("nodePools")

    assert problems(snake) == [
        "cloud.resourceGroup: is required",
        "cloud.resource_group: unknown key: the stack config is camelCase, write `resourceGroup`",
        "resources[0].cluster.node_pools (default): unknown key: the stack config is camelCase, write `nodePools`",
    ]


def test_a_stack_holds_at_most_100_cloud_resources() -> None:
    generic = {
        "provider": "Generic",
        "region": "dc1",
        "kubeconfig": {"secure": "k"},
        "cliToken": {"secure": "t"},
        "storage": {"bucket": "s3://data"},
    }
    found = problems(lambda c, r: r.extend({**generic, "name": f"g{i}"} for i in range(97)))
    assert found == ["resources: List should have at most 100 items after validation, not 101"]


def test_a_system_pool_with_only_counts_keeps_the_default_instance_type() -> None:
    cloud = copy.deepcopy(EXAMPLE["anyscale-cloud:cloud"])
    resources = copy.deepcopy(EXAMPLE["anyscale-cloud:resources"])
    resources[0]["cluster"]["systemPool"] = {"maxCount": 5}
    resources[1]["cluster"] = {"systemPool": {"minCount": 2, "maxCount": 4}}
    spec = load_spec(cloud, resources)
    assert (spec.resources[0].cluster.system_pool.instance_type, spec.resources[0].cluster.system_pool.max_count) == (
        "Standard_D4s_v5",
        5,
    )
    assert spec.resources[1].cluster.system_pool.instance_type == "m6i.xlarge"


def test_an_endpoint_without_a_bucket_is_not_silently_ignored() -> None:
    assert problems(lambda c, r: r[0].__setitem__("storage", {"endpoint": "https://mylogs.blob.core.windows.net"})) == [
        "resources[0].storage.endpoint (default): goes with an existing bucket (storage.bucket): the program creates "
        "this resource's bucket and sets its endpoint itself; remove endpoint, or set bucket too"
    ]
