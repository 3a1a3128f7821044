"""`preflight policy` builds each record's engine view once per run and skips a policy made
for other types; the engine builds a view per policy and calls every policy. Both must give
the same violations: checked here against a run done the engine's way, on plans where every
policy of the pack has something to find."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from pulumi_policy import ResourceValidationPolicy, StackValidationPolicy

from preflight import policy as runner
from preflight.planfile import Graph
from preflight.runtime import Plan
from tests.policy.helpers import multicloud

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "policy"


def the_engines_way(plan: dict[str, Any]) -> list[runner.Violation]:
    """Every policy on every record, each with views of its own (pulumi_policy's Analyze)."""
    pack = runner.load_pack()
    records = plan["resources"]
    graph = Graph(records)
    found: list[runner.Violation] = []
    for policy in pack.ALL_POLICIES:
        level = runner.level_of(policy, pack.DEFAULT_LEVEL, {})
        if isinstance(policy, ResourceValidationPolicy):
            for record in records:
                args = runner.resource_args(record, graph, runner.policy_settings(policy.name, {}))
                found += runner.run(policy, level, functools.partial(policy.validate, args), record["urn"])
        elif isinstance(policy, StackValidationPolicy):
            args = runner.stack_args(records, runner.policy_settings(policy.name, {}))
            found += runner.run(policy, level, functools.partial(policy.validate, args), None)
    return found


def plans(dev_plan: Plan) -> dict[str, dict[str, Any]]:
    out = {"multicloud": multicloud(dev_plan)}
    for name in ("aws", "gcp", "generic"):
        out[name] = json.loads((FIXTURES / f"{name}.json").read_text())
    return out


def test_shared_views_and_skipped_types_change_no_finding(dev_plan: Plan) -> None:
    for name, plan in plans(dev_plan).items():
        engine = sorted((v.policy, v.level, v.message, v.urn or "") for v in the_engines_way(copy.deepcopy(plan)))
        ours = sorted((v.policy, v.level, v.message, v.urn or "") for v in runner.check_plan(copy.deepcopy(plan)))
        # check_plan names the resource in its violations; compare what both decided.
        assert [e[:3] for e in engine] == [o[:3] for o in ours], name
        assert engine, f"{name}: no finding at all, so nothing was compared"


def test_a_policy_that_writes_into_the_shared_inputs_is_stopped() -> None:
    record = {"type": "x:y:Z", "urn": "urn:pulumi:s::p::x:y:Z::a", "name": "a", "inputs": {"a": {"b": [{"c": 1}]}}}
    props, _, _ = runner.Views(Graph([record])).of(record)
    with pytest.raises(TypeError, match="policies read them, never write"):
        props["a"]["b"][0]["c"] = 2
    with pytest.raises(TypeError, match="policies read them, never write"):
        props["new"] = 1
    with pytest.raises(TypeError):  # the SDK's way to the map behind the proxy is read-only too
        props["a"]["__target"]["b"] = []
    assert props["a"]["b"][0]["c"] == 1


def test_a_policy_made_for_other_types_is_skipped_and_one_for_all_is_not() -> None:
    pack = runner.load_pack()
    policies = {p.name: p for p in pack.ALL_POLICIES}
    applies = runner.pack_module("pack").applies
    assert applies(policies["aks-rbac"], "azure-native:containerservice:ManagedCluster")
    assert applies(policies["aks-rbac"], "azure-native:containerservice/v20240801:ManagedCluster")
    assert not applies(policies["aks-rbac"], "aws:eks/cluster:Cluster")
    assert applies(policies["secrets-not-in-clear"], "aws:eks/cluster:Cluster")  # made for every type
