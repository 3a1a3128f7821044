"""`preflight diff` on hostile plan pairs: secrets followed into and out of containers, the
cloud record's deletion and replacement disruptive, non-finite numbers refused as a
malformed plan, and linear work however the plans are shaped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preflight import changes as changes_module
from preflight.changes import diff_plans
from preflight.diff import render_changes, render_markdown
from preflight.planfile import Graph, PlanError, validate
from tests.cli import preflight_in_process
from tests.text import text

RANDOM = "random:index/randomString:RandomString"
COMPONENT = "anyscale-cloud:index:CloudResource"
CLEAR = "clear-text-DO-NOT-SHOW"


def record(name: str, inputs: dict[str, Any], kind: str = RANDOM, parent: str | None = None) -> dict[str, Any]:
    return {
        "urn": f"urn:pulumi:s::anyscale-cloud::{kind}::{name}",
        "type": kind,
        "name": name,
        "parent": parent,
        "custom": kind != COMPONENT,
        "inputs": inputs,
    }


def plan(*resources: dict[str, Any]) -> dict[str, Any]:
    return {"project": "anyscale-cloud", "stack": "s", "resources": list(resources)}


def rendered(base: dict[str, Any], head: dict[str, Any]) -> str:
    found = diff_plans(base, head)
    return render_changes(found, False) + render_markdown(found) + json.dumps([c.__dict__ for c in found], default=str)


# --- secrets across containers ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "note"),
    [
        ({"inner": {"token": "[secret]"}}, CLEAR, "was secret, now in clear text"),
        ({"inner": ["[secret]"]}, {"inner": CLEAR}, "was secret, now in clear text"),
        (CLEAR, {"inner": {"token": "[secret]"}}, "now secret"),
        ([CLEAR], [{"x": "[secret]"}, "a"], "now secret"),
    ],
)
def test_a_secret_is_followed_into_and_out_of_containers(old: Any, new: Any, note: str) -> None:
    base, head = plan(record("r", {"keeper": old})), plan(record("r", {"keeper": new}))
    assert CLEAR not in rendered(base, head)
    (change,) = diff_plans(base, head)
    props = [(p.old, p.new, p.note) for p in change.properties if p.note]
    assert props and all(p == ("[secret]", "[secret]", note) for p in props), change.properties


@given(
    st.recursive(
        st.just("[secret]") | text(max_size=3),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text(max_size=2), inner, max_size=3),
        max_leaves=6,
    )
)
def test_a_clear_value_beside_any_secret_shape_is_never_shown(old: Any) -> None:
    base, head = plan(record("r", {"v": {"held": old}})), plan(record("r", {"v": CLEAR}))
    text = rendered(base, head)
    if "[secret]" in json.dumps(old):
        assert CLEAR not in text


# --- the cloud record ----------------------------------------------------------------------------

CLOUD_RECORD = {
    "resourceProviderNamespace": "Anyscale.Platform",
    "resourceType": "clouds",
    "resourceName": "ml-platform",
    "resourceGroupName": "rg",
    "location": "eastus2",
    "apiVersion": "2026-02-01-preview",
}
ARM = "azure-native:resources:Resource"


def test_deleting_the_cloud_record_is_disruptive_with_why() -> None:
    (change,) = diff_plans(plan(record("cloud", CLOUD_RECORD, ARM)), plan())
    assert change.action == "delete"
    assert change.disruptive
    assert change.reasons == [
        "Deleting the cloud record 'ml-platform' removes the Anyscale cloud, and every cloud resource registered "
        "under it (Anyscale.Platform/clouds/ml-platform/cloudResources) is deleted with it.",
        "Azure refuses the delete (HTTP 409) while clusters run on any of its cloud resources; once it succeeds, "
        "services, jobs and workspaces on the cloud stop, and each cloud resource must be registered again.",
    ]


def test_replacing_the_cloud_record_is_disruptive_with_why() -> None:
    moved = {**CLOUD_RECORD, "location": "westus3"}
    (change,) = diff_plans(plan(record("cloud", CLOUD_RECORD, ARM)), plan(record("cloud", moved, ARM)))
    assert change.action == "replace"
    assert change.disruptive
    assert change.reasons[0].startswith(
        "Replacing the cloud record 'ml-platform' deletes it, then creates it again: its ID changes, and every "
        "cloud resource registered under it"
    )


# --- non-finite numbers ----------------------------------------------------------------------------


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf"), 10**400, -(10**309)])
def test_a_non_finite_input_is_a_malformed_plan(number: float) -> None:
    with pytest.raises(PlanError) as caught:
        validate(plan(record("r", {"length": 8, "nested": [{"n": number}]})))
    assert str(caught.value) == (
        "not a plan: resources[0] (r): `inputs.nested[0].n` is not a finite number (NaN, infinity, or past a "
        "double's range); a plan holds the engine's numbers only"
    )


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e999", "1" + "0" * 400])
def test_diff_refuses_a_plan_file_with_nan(tmp_path: Path, text: str) -> None:
    """NaN, infinity and integers past a double's range, in the JSON text itself."""
    good = tmp_path / "base.json"
    good.write_text(json.dumps(plan(record("r", {"length": 8}))))
    bad = tmp_path / "head.json"
    bad.write_text(json.dumps(plan(record("r", {"length": 8}))).replace('"length": 8', f'"length": {text}'))
    result = preflight_in_process("diff", str(good), str(bad))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"error: {bad} is not a plan: resources[0] (r): `inputs.length` is not a finite number (NaN, infinity, or "
        "past a double's range); a plan holds the engine's numbers only"
    ]


# --- linear work ------------------------------------------------------------------------------------


def test_a_replacement_chain_compares_each_resource_at_most_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    count = 300

    def side(first: int) -> dict[str, Any]:
        chain = [record("r0", {"length": first})]
        chain += [record(f"r{i}", {"keeper": f"${{r{i - 1}.result}}"}) for i in range(1, count)]
        return plan(*chain)

    calls = 0
    real = changes_module.compare

    def counted(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        return real(*args)

    monkeypatch.setattr(changes_module, "compare", counted)
    found = diff_plans(side(8), side(9))
    assert [c.action for c in found] == ["replace"] * count  # the whole chain, as before
    assert calls <= 2 * count  # quadratic work would be count * (count + 1) / 2


class CountingDict(dict[str, Any]):
    lookups = 0

    def __contains__(self, key: object) -> bool:
        CountingDict.lookups += 1
        return super().__contains__(key)


def test_a_deep_parent_chain_is_walked_once() -> None:
    count = 2000
    resources = [record("top", {}, COMPONENT)]
    for i in range(count):
        resources.append(record(f"r{i}", {}, parent=resources[-1]["urn"]))
    graph = Graph(resources)
    graph.by_urn = CountingDict(graph.by_urn)
    CountingDict.lookups = 0
    owners = {graph.cloud_resource_of(r)["urn"] for r in reversed(resources)}  # deepest first: the worst order
    assert owners == {resources[0]["urn"]}
    assert CountingDict.lookups <= 3 * count  # quadratic: about count * count / 2


@pytest.mark.parametrize("command", [["cost", "--plan"], ["policy", "--plan"]])
def test_cost_and_policy_refuse_a_number_past_a_doubles_range_in_one_line(tmp_path: Path, command: list[str]) -> None:
    bad = tmp_path / "plan.json"
    bad.write_text(json.dumps(plan(record("r", {"scalingConfig": {"maxSize": 10**400}}))))
    result = preflight_in_process(*command, str(bad))
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.splitlines()) == 1 and "past a double's range" in result.stderr
    assert "Traceback" not in result.stderr
