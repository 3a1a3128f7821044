"""Every field that names an instance type is checked against the instance-type table (the
system pools too, which have no `shape` to fall back on), and the API version is a real
date and one of the platform's versions."""

from __future__ import annotations

import pytest

from config import load_spec
from tests.example_spec import example_cloud, example_resources, problems


@pytest.mark.parametrize(
    ("index", "typo", "message"),
    [
        (0, "Standard_D4s_v9", "'Standard_D4s_v9' is not a known Azure instance type (config/data/instance_types.py)"),
        (1, "m9.xlarge", "'m9.xlarge' is not a known AWS instance type (config/data/instance_types.py)"),
        (2, "e2-standard-999", "'e2-standard-999' is not a known GCP instance type (config/data/instance_types.py)"),
    ],
)
def test_a_system_pool_of_an_unknown_instance_type_is_refused(index: int, typo: str, message: str) -> None:
    resources = example_resources()
    resources[index].setdefault("cluster", {})["systemPool"] = {"instanceType": typo}
    (found,) = problems(resources)
    name = resources[index]["name"]
    assert found.startswith(f"resources[{index}].cluster.systemPool.instanceType ({name}): {message}")


def test_a_system_pool_of_a_gpu_instance_type_is_refused() -> None:
    resources = example_resources()
    resources[1].setdefault("cluster", {})["systemPool"] = {"instanceType": "g5.xlarge"}
    assert problems(resources) == [
        "resources[1].cluster.systemPool.instanceType (aws-usw2): 'g5.xlarge' carries A10G: the system pool runs "
        "cluster services only; use a CPU instance type"
    ]


def test_a_known_system_pool_type_is_accepted() -> None:
    resources = example_resources()
    resources[0].setdefault("cluster", {})["systemPool"] = {"instanceType": "Standard_D8s_v5"}
    load_spec(example_cloud(), resources)


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("2026-13-01", "'2026-13-01' is not a real date (YYYY-MM-DD, optionally -preview)"),
        ("2026-02-30-preview", "'2026-02-30-preview' is not a real date (YYYY-MM-DD, optionally -preview)"),
        (
            "2025-01-01",
            "'2025-01-01' is not an Anyscale.Platform API version; the versions are 2026-02-01-preview, 2026-09-01 "
            "(config/data/versions.py)",
        ),
    ],
)
def test_the_api_version_is_a_real_date_and_a_platform_version(version: str, message: str) -> None:
    cloud = example_cloud()
    cloud["apiVersion"] = version
    assert problems(example_resources(), cloud) == [f"cloud.apiVersion: {message}"]


@pytest.mark.parametrize("version", ["2026-09-01", "2026-02-01-preview"])
def test_the_platforms_api_versions_are_accepted(version: str) -> None:
    cloud = example_cloud()
    cloud["apiVersion"] = version
    assert load_spec(cloud, example_resources()).cloud.api_version == version
