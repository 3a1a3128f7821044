"""Adopting what exists, under the mock runtime: each `adopt` ID reaches exactly its resource
as Pulumi's `import` option, the adopted resources keep their names, and an imported
registration is never replaced (tests/adopt_stack.py is the stack)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from preflight.changes import diff_plans
from preflight.imports import import_problems
from preflight.planfile import PLACEHOLDER_RE, validate
from preflight.runtime import Plan
from preflight.tree import render_summary, render_tree
from tests.adopt_stack import CLOUD_ADOPT, RESOURCE_ADOPT, adopted_plan


@pytest.fixture(scope="module")
def plan() -> Plan:
    return adopted_plan()


def test_each_id_reaches_its_resource_and_no_other(plan: Plan) -> None:
    imported = {r["name"]: r["options"]["import"] for r in plan.resources if "import" in r["options"]}
    assert imported == {
        "ml-platform-dev-rg": CLOUD_ADOPT["resourceGroup"],
        "ml-platform-dev-registry": CLOUD_ADOPT["registry"],
        "ml-platform-dev-cloud": CLOUD_ADOPT["cloud"],
        "default-registration": RESOURCE_ADOPT["registration"],
        "default-aks": RESOURCE_ADOPT["cluster"],
        "default-storage": RESOURCE_ADOPT["storageAccount"],
        "default-container": RESOURCE_ADOPT["container"],
        "default-operator-identity": RESOURCE_ADOPT["identity"],
        "default-operator-extension": RESOURCE_ADOPT["operatorExtension"],
    }
    assert validate(plan.to_json())  # the plan model takes options.import


def test_adopted_resources_keep_the_names_of_their_ids(plan: Plan) -> None:
    inputs = {r["name"]: r["inputs"] for r in plan.resources}
    assert inputs["ml-platform-dev-registry"]["registryName"] == "acrportal01"
    assert inputs["default-aks"]["resourceName"] == "aks-portal"
    assert inputs["default-storage"]["accountName"] == "stportal01"
    assert inputs["default-container"]["containerName"] == "ray"
    assert inputs["default-operator-identity"]["resourceName"] == "id-portal-operator"
    assert inputs["default-operator-extension"]["extensionName"] == "anyscale-operator"
    assert inputs["default-operator-extension"]["clusterName"] == "aks-portal"
    # The random suffixes of new registry and storage account names are not made at all.
    assert not [r["name"] for r in plan.resources if r["name"].endswith(("registry-suffix", "storage-suffix"))]
    assert all(import_problems(r) == [] for r in plan.resources)


def test_the_imported_registration_is_never_replaced(plan: Plan) -> None:
    registration = plan.named("default-registration")
    properties = registration["inputs"]["properties"]
    existing = RESOURCE_ADOPT["registrationProperties"]
    assert isinstance(existing, dict)
    # Every property known offline is the existing registration's own...
    for key in ("provider", "computeStack", "region", "cloudStorageBucketName", "cloudStorageBucketEndpoint"):
        assert properties[key] == existing[key], key
    assert properties["cloudStorageBucketRegion"] == existing["cloudStorageBucketRegion"]
    # ...and the one known only after the deploy reads the adopted identity, not a new one.
    imported = {r["name"] for r in plan.resources if "import" in r["options"]}
    read = {body.split(".")[0] for value in properties.values() for body in PLACEHOLDER_RE.findall(str(value))}
    assert read == {"default-operator-identity"} <= imported
    # The platform's rule still holds for a later change: delete first, on any property.
    assert registration["options"]["deleteBeforeReplace"] is True
    assert "properties.region" in registration["options"]["replaceOnChanges"]
    # Reviewed against an empty stack (a first `pulumi up`): imports, never a replace.
    empty = {"project": "anyscale-cloud", "stack": "dev", "resources": []}
    changes = {c.name: c for c in diff_plans(empty, plan.to_json())}
    assert changes["default-registration"].action == "import"
    assert not changes["default-registration"].disruptive
    assert {c.name for c in changes.values() if c.action == "import"} == imported
    assert "replace" not in {c.action for c in changes.values()}
    # Once imported, the same stack again: nothing changes.
    again = diff_plans(plan.to_json(), plan.to_json())
    assert {c.action for c in again} == {"same"}


def test_diff_says_when_a_plan_contradicts_its_import(plan: Plan) -> None:
    head: dict[str, Any] = copy.deepcopy(plan.to_json())
    for record in head["resources"]:
        if record["name"] == "default-registration":
            record["inputs"]["resourceName"] = "primary"
        if record["name"] == "default-aks":
            record["options"]["import"] = RESOURCE_ADOPT["identity"]
    empty = {"project": "anyscale-cloud", "stack": "dev", "resources": []}
    changes = {c.name: c for c in diff_plans(empty, head)}
    assert changes["default-registration"].disruptive
    assert changes["default-registration"].reasons == [
        "imports 'default', but is declared as 'primary': the import fails"
    ]
    assert changes["default-aks"].reasons == [
        "imports a Microsoft.ManagedIdentity/userAssignedIdentities ID into a Microsoft.ContainerService/managedClusters"
    ]


def test_plan_shows_what_is_imported(plan: Plan) -> None:
    document = plan.to_json()
    tree = render_tree(document, width=200)
    assert f"import: {RESOURCE_ADOPT['registration']}" in tree
    summary = render_summary(document, width=400)
    assert (
        "imported, not created (9): default-aks, default-container, default-operator-extension, "
        "default-operator-identity, default-registration, default-storage, ml-platform-dev-cloud, "
        "ml-platform-dev-registry, ml-platform-dev-rg"
    ) in summary
