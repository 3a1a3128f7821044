"""Day-2 changes the cloud refuses or never receives (preflight/refusals.py), through the
program's own plans: the dev stack as deployed, then one edited stack recorded under the
mock runtime as the engine runs it, diffed. One extra program run covers every case (each
edit touches a different input); the pairs that need a different base edit the plan."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from preflight.changes import Change, diff_plans
from tests.conftest import stack_values
from tests.plans import recorded

GROUP = "00000000-0000-0000-0000-0000000000aa"
Plan = dict[str, Any]


def change_of(changes: list[Change], name: str) -> Change:
    return next(c for c in changes if c.name == name)


@pytest.fixture(scope="module")
def base() -> Plan:
    return recorded("dev", stack_values("dev")).to_json()


@pytest.fixture(scope="module")
def head() -> Plan:
    """The dev stack with a private API server, Entra ID and local accounts off, a bigger
    system pool with more nodes, one minor up, and its storage in another region."""
    values = stack_values("dev")
    resource = values["anyscale-cloud:resources"][0]
    resource["cluster"] = {
        "apiServer": {"private": True},
        "disableLocalAccounts": True,
        "adminGroupObjectIds": [GROUP],
        "systemPool": {"instanceType": "Standard_D8s_v5", "maxCount": 5},
        "kubernetesVersion": "1.37",
    }
    resource["storage"] = {"region": "westus2"}
    return recorded("dev", values).to_json()


@pytest.fixture(scope="module")
def changes(base: Plan, head: Plan) -> list[Change]:
    return diff_plans(base, head)


def refused(change: Change) -> list[str]:
    return [r for r in change.reasons if r.startswith("REFUSED")]


def test_public_to_private_is_refused_with_the_way(changes: list[Change]) -> None:
    cluster = change_of(changes, "default-aks")
    # The provider updates in place; AKS rejects it.
    assert cluster.action == "update" and cluster.disruptive
    assert any(p.path == "apiServerAccessProfile" and p.kind == "added" for p in cluster.properties)
    assert (
        "REFUSED: AKS chooses a public or a private API server when it creates the cluster (private link); it "
        "refuses to make an existing one private, and the provider plans an update, which fails. Revert "
        "cluster.apiServer.private; to change it, add a cloud resource under a new name with the API server you "
        "want, move the workloads there, then remove this one."
    ) in cluster.reasons


def test_entra_id_and_local_accounts_off_at_once_is_two_steps(changes: list[Change], base: Plan) -> None:
    cluster = change_of(changes, "default-aks")
    assert any(r.startswith("REFUSED: Entra ID and local accounts off in one change") for r in cluster.reasons)
    assert any(
        "Two steps: first add adminGroupObjectIds with disableLocalAccounts: false" in r for r in refused(cluster)
    )
    # The second step alone (Entra ID already on) is not refused.
    step_one = copy.deepcopy(base)
    aks = next(r for r in step_one["resources"] if r["name"] == "default-aks")
    aks["inputs"]["aadProfile"] = {"managed": True, "enableAzureRBAC": True, "adminGroupObjectIDs": [GROUP]}
    step_two = copy.deepcopy(step_one)
    next(r for r in step_two["resources"] if r["name"] == "default-aks")["inputs"]["disableLocalAccounts"] = True
    assert refused(change_of(diff_plans(step_one, step_two), "default-aks")) == []
    # Turning Entra ID off again is refused: AKS keeps managed Entra ID once on.
    assert any(
        "cannot be turned off once on" in r for r in refused(change_of(diff_plans(step_one, base), "default-aks"))
    )


def test_a_system_pool_edit_is_refused_not_silently_dropped(changes: list[Change]) -> None:
    cluster = change_of(changes, "default-aks")
    assert "ignored (ignoreChanges): agentPoolProfiles[0].vmSize" in cluster.notes
    pool_refusals = [r for r in refused(cluster) if "cluster.systemPool" in r]
    assert [r.split(" never reaches AKS")[0] for r in pool_refusals] == [
        'REFUSED: cluster.systemPool.instanceType "Standard_D4s_v5" -> "Standard_D8s_v5"',
        "REFUSED: cluster.systemPool.maxCount 3 -> 5",
    ]


def test_a_minor_upgrade_names_the_system_pool_step(changes: list[Change]) -> None:
    cluster = change_of(changes, "default-aks")
    assert "ignored (ignoreChanges): agentPoolProfiles[0].orchestratorVersion" in cluster.notes
    assert any(
        note.startswith('the system pool stays at its version ("1.36")')
        and "az aks nodepool upgrade -g rg-ml-platform-dev --cluster-name aks-ml-platform-dev-default --name system "
        "--kubernetes-version 1.37"
        in note
        for note in cluster.notes
    )


def test_a_storage_region_change_is_refused_not_a_colliding_create(changes: list[Change]) -> None:
    account = change_of(changes, "default-storage")
    # location replaces the account (pulumi-azure-native forceNewMap["Storage"]); its name,
    # from a random suffix that did not change, stays: the create would collide.
    assert account.action == "replace"
    assert [p.path for p in account.properties if p.forces_replacement] == ["location"]
    assert any(
        r.startswith(
            "REFUSED: the replacement keeps the storage account's name \"asmlplatformdevdef${default-storage-suffix"
            '.result}", which is global'
        )
        for r in account.reasons
    )


def test_a_new_suffix_is_a_new_name_not_a_collision(base: Plan) -> None:
    """A replaced random suffix gives the account a new name: replaced, not refused."""
    head = copy.deepcopy(base)
    suffix = next(r for r in head["resources"] if r["name"] == "default-storage-suffix")
    suffix["inputs"]["length"] = 7  # every input of a random resource is a keeper
    for r in head["resources"]:
        if r["name"] == "default-storage":
            r["inputs"]["location"] = "westus2"
    account = change_of(diff_plans(base, head), "default-storage")
    assert account.action == "replace"
    assert refused(account) == []
