"""preflight.tree: the plan as a tree grouped by cloud resource, and its summary."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from preflight.planfile import normalize_type, short_type
from preflight.tree import render_summary, render_tree

FIXTURE = Path(__file__).parents[1] / "fixtures" / "plans" / "two_resources.json"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture()
def plan() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text())


def custom_names(plan: dict[str, Any]) -> list[str]:
    return [r["name"] for r in plan["resources"] if r["custom"]]


def expected_group(name: str) -> str:
    # The fixture names every resource after its cloud resource; the cloud's own
    # resources have other names. An oracle independent of the code under test.
    for prefix in ("aws-usw2", "default"):
        if name.startswith(prefix + "-"):
            return prefix
    return "cloud"


def group_of_each_line(text: str) -> list[tuple[str, str]]:
    """(group, line) for every line, the group being the last header seen."""
    group, out = "", []
    for line in text.splitlines():
        if line.startswith("cloud "):
            group = "cloud"
        elif line.startswith("[1] default"):
            group = "default"
        elif line.startswith("[2] aws-usw2"):
            group = "aws-usw2"
        out.append((group, line))
    return out


@pytest.mark.parametrize("width", [60, 160])
def test_every_custom_resource_is_listed_once_in_its_group(plan: dict[str, Any], width: int) -> None:
    lines = group_of_each_line(render_tree(plan, width=width, color=False))
    for name in custom_names(plan):
        # an entry line is "<type> <name>"; a value line starts with "key:"
        entries = [
            (group, line)
            for group, line in lines
            if len(line.split()) == 2 and line.split()[1] == name and not line.split()[0].endswith(":")
        ]
        assert len(entries) == 1, f"{name}: {entries}"
        assert entries[0][0] == expected_group(name), name


def test_groups_follow_registration_order(plan: dict[str, Any]) -> None:
    text = render_tree(plan, width=100, color=False)
    cloud, first, second = text.index("cloud ml-platform"), text.index("[1] default"), text.index("[2] aws-usw2")
    assert cloud < first < second


def test_headers_name_provider_and_region(plan: dict[str, Any]) -> None:
    text = render_tree(plan, width=100, color=False)
    assert "[1] default  (Azure, eastus2, primary)" in text
    assert "[2] aws-usw2  (AWS, us-west-2)" in text


@pytest.mark.parametrize("width", [30, 60, 80, 160])
@pytest.mark.parametrize("color", [False, True])
def test_no_line_is_wider_than_the_terminal(plan: dict[str, Any], width: int, color: bool) -> None:
    for line in render_tree(plan, width=width, color=color).splitlines():
        assert len(ANSI.sub("", line)) <= width, line


def test_color_only_when_asked(plan: dict[str, Any]) -> None:
    assert not ANSI.search(render_tree(plan, width=100, color=False))
    assert ANSI.search(render_tree(plan, width=100, color=True))


def test_registration_shows_all_its_properties(plan: dict[str, Any]) -> None:
    text = render_tree(plan, width=160, color=False)
    registration = next(r for r in plan["resources"] if r["name"] == "aws-usw2-registration")
    for key, value in registration["inputs"]["properties"].items():
        shown = value if value else '""'
        assert f"{key}: {shown}" in text
    assert "after: default-registration" in text  # the serialized chain is visible


def test_references_and_secrets_are_shown_as_they_are(plan: dict[str, Any]) -> None:
    text = render_tree(plan, width=160, color=False)
    assert "anyscaleOperatorIamIdentity: ${default-operator.principalId}" in text
    assert "global.auth.iamIdentity: ${default-operator.clientId}" in text
    assert "global.auth.anyscaleCliToken (protected): [secret]" in text
    assert "kubeconfig: [secret]" in text


def test_first_preview_unknowns_are_shown_as_they_are(plan: dict[str, Any]) -> None:
    """A first preview writes the engine's unknown as "<unknown>": it is wiring, like a
    placeholder, and is shown untouched."""
    release = next(r for r in plan["resources"] if r["name"] == "aws-usw2-anyscale-operator")
    release["inputs"]["values"]["global"]["auth"]["iamIdentity"] = "<unknown>"
    release["inputs"]["values"]["global"]["cloudDeploymentId"] = "<unknown>"
    text = render_tree(plan, width=160, color=False)
    assert "values.global.auth.iamIdentity: <unknown>" in text
    assert "values.global.cloudDeploymentId: <unknown>" in text
    assert "values.global.cloudProvider" not in text  # known values are not wiring


def test_key_values_per_kind(plan: dict[str, Any]) -> None:
    text = render_tree(plan, width=160, color=False)
    # role assignment: role by name, and the principal
    assert "role: Storage Blob Data Contributor" in text
    assert "principal: ${default-operator.principalId} (ServicePrincipal)" in text
    # buckets: name and CORS origins, on every provider
    assert "bucket: anyscale-aws-usw2-ml-platform" in text
    assert text.count("CORS origins: https://console.azure.anyscale.com") == 2
    # Helm: chart and version
    assert "chart: anyscale-operator" in text and "version: 1.8.0" in text
    # Gateway: listener hostnames and certificate secret names
    assert "listener https: HTTPS :443 *.i.azure.anyscaleuserdata.com" in text
    assert "anyscale-svc-${aws-usw2-registration.properties.cloudResourceId}-certificate" in text
    # extension: type and settings
    assert "extensionType: Anyscale.AKS.Operator" in text
    assert "global.controlPlaneURL: https://console.azure.anyscale.com" in text
    # Kubernetes objects: their name, not the apiVersion/kind their type already says
    assert "metadata.name: anyscale-operator" in text and "kind: Namespace" not in text


def test_long_values_wrap_and_are_cut(plan: dict[str, Any]) -> None:
    role = next(r for r in plan["resources"] if r["name"] == "aws-usw2-cluster-role")
    role["inputs"]["assumeRolePolicy"] = "x" * 2000
    text = render_tree(plan, width=60, color=False)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "assumeRolePolicy:")
    wrapped = lines[start + 1 : start + 5]
    assert all(set(line.strip()) <= {"x", "."} for line in wrapped)
    assert wrapped[-1].endswith("...")
    assert "x" not in lines[start + 5]  # cut after a few lines, not 2000 characters


def test_resources_outside_any_cloud_resource_form_the_cloud_group(plan: dict[str, Any]) -> None:
    lines = group_of_each_line(render_tree(plan, width=100, color=False))
    assert any(g == "cloud" and line.split() == ["anyscale:cloud", "cloud"] for g, line in lines)
    assert any(g == "cloud" and line.strip().startswith("provider:azure-native") for g, line in lines)


def test_summary_counts_by_type(plan: dict[str, Any]) -> None:
    text = render_summary(plan)
    assert text.splitlines()[0] == "45 resources: 36 custom (4 providers), 9 components"
    assert "by cloud resource: cloud 4, default 18, aws-usw2 14" in text
    assert re.search(r"^\s+4  helm:Release$", text, re.M)
    assert re.search(r"^\s+2  anyscale:cloudResource$", text, re.M)
    assert re.search(r"^\s+1  aws:eks:Cluster$", text, re.M)


@pytest.mark.parametrize(
    ("token", "normalized"),
    [
        ("aws:eks/cluster:Cluster", "aws:eks:Cluster"),
        ("aws:s3/bucketV2:BucketV2", "aws:s3:BucketV2"),
        ("random:index/randomString:RandomString", "random:index:RandomString"),
        ("azure-native:containerservice/v20240801:ManagedCluster", "azure-native:containerservice:ManagedCluster"),
        ("kubernetes:core/v1:Namespace", "kubernetes:core/v1:Namespace"),  # the API version stays
        ("kubernetes:helm.sh/v3:Release", "kubernetes:helm.sh/v3:Release"),
        ("pulumi:providers:kubernetes", "pulumi:providers:kubernetes"),
    ],
)
def test_normalize_type(token: str, normalized: str) -> None:
    assert normalize_type(token) == normalized


def test_short_type_tells_the_anyscale_records_apart(plan: dict[str, Any]) -> None:
    by_name = {r["name"]: r for r in plan["resources"]}
    assert short_type(by_name["cloud"]) == "anyscale:cloud"
    assert short_type(by_name["default-registration"]) == "anyscale:cloudResource"
    assert short_type(by_name["aws-usw2-eks"]) == "aws:eks:Cluster"
    assert short_type(by_name["default-envoy-gateway"]) == "helm:Release"


def test_every_role_the_program_grants_is_shown_by_name(example_plan: Any) -> None:
    """Built-in role GUIDs (the same in every tenant) read as names; none is left as a GUID."""
    text = render_tree(example_plan.to_json(), width=200, color=False)
    roles = set(re.findall(r"^\s+role: (.*)$", text, re.M))
    assert {"AcrPull", "AcrPush", "Container Registry Tasks Contributor", "Storage Blob Data Contributor"} <= roles
    assert "roleDefinitions" not in text


def test_platform_records_show_every_key_a_reviewer_could_miss(plan: dict[str, Any]) -> None:
    # A misspelt registration property, or a stray input beside `properties`, reaches the
    # platform (or breaks the create); the tree must show it, not only the keys it knows.
    for resource in plan["resources"]:
        if resource["type"] != "azure-native:resources:Resource":
            continue
        resource["inputs"].setdefault("properties", {})["cloudStorageBucketNmae"] = "typo-" + resource["name"]
        resource["inputs"]["apiVerison"] = "stray-" + resource["name"]
    text = render_tree(plan, width=200)
    records = [r["name"] for r in plan["resources"] if r["type"] == "azure-native:resources:Resource"]
    assert len(records) >= 3  # the cloud and two cloud resources
    for name in records:
        assert f"cloudStorageBucketNmae: typo-{name}" in text, name
        assert f"apiVerison: stray-{name}" in text, name
