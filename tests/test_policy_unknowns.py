"""A value a preview does not know yet is never a violation by itself.

A real `pulumi preview` can hand a policy an unknown as None (or as the SDK's sentinels,
which `tests/test_policy.py` covers). Every resource policy of the pack is run over each
record of the recorded plans with one property at a time, at every depth, replaced by
None: it may find no more than it found on the record as recorded. The stack policies
get the same treatment for every top-level and second-level property."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pulumi_policy import EnforcementLevel, ResourceValidationPolicy, StackValidationPolicy

from preflight import policy as runner
from preflight.planfile import Graph
from preflight.runtime import run_program
from preflight.stackfile import read_stack_file
from tests.conftest import stack_values

PACK = runner.load_pack()
RESOURCE_POLICIES = [p for p in PACK.ALL_POLICIES if isinstance(p, ResourceValidationPolicy)]
STACK_POLICIES = [p for p in PACK.ALL_POLICIES if isinstance(p, StackValidationPolicy)]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@functools.cache
def recorded(name: str) -> list[dict[str, Any]]:
    """A stack's plan, recorded in registration order (example, and the golden gpu stack),
    or a hand-made policy fixture (aws, gcp, generic)."""
    if name == "example":
        return run_program(name, stack_values(name)).to_json()["resources"]  # type: ignore[no-any-return]
    if name == "gpu":
        values = read_stack_file(FIXTURES / "golden" / "Pulumi.gpu.yaml").config
        return run_program(name, values).to_json()["resources"]  # type: ignore[no-any-return]
    resources: list[dict[str, Any]] = json.loads((FIXTURES / "policy" / f"{name}.json").read_text())["resources"]
    return resources


def paths(node: Any, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every property path of a value: maps and lists themselves, and their leaves."""
    items: list[tuple[str | int, Any]] = []
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    for key, child in items:
        yield (*prefix, key)
        yield from paths(child, (*prefix, key))


def with_none(record: dict[str, Any], path: tuple[str | int, ...]) -> dict[str, Any]:
    changed = copy.deepcopy(record)
    node = changed["inputs"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = None
    return changed


def messages(record: dict[str, Any], graph: Graph) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for policy in RESOURCE_POLICIES:
        args = runner.resource_args(record, graph, runner.policy_settings(policy.name, {}))
        for violation in runner.run(
            policy, EnforcementLevel.MANDATORY, functools.partial(policy.validate, args), record["urn"]
        ):
            found.add((policy.name, violation.message))
    return found


@pytest.mark.parametrize("plan", ["example", "gpu", "aws", "gcp", "generic"])
def test_none_where_a_value_was_is_never_a_new_violation(plan: str) -> None:
    records = copy.deepcopy(recorded(plan))
    graph = Graph(records)
    new: list[tuple[str, tuple[str | int, ...], tuple[str, str]]] = []
    checked = 0
    for record in records:
        before = messages(record, graph)
        for path in paths(record["inputs"]):
            for finding in messages(with_none(record, path), graph) - before:
                new.append((record["name"], path, finding))
            checked += 1
    assert checked > 50  # every property, at every depth
    assert new == [], "\n".join(map(repr, new))


def stack_findings(records: list[dict[str, Any]]) -> set[tuple[str, str | None, str]]:
    found: set[tuple[str, str | None, str]] = set()
    args = runner.stack_args(records)
    for policy in STACK_POLICIES:
        for violation in runner.run(policy, EnforcementLevel.MANDATORY, functools.partial(policy.validate, args), None):
            found.add((policy.name, violation.urn, violation.message))
    return found


def test_none_where_a_value_was_is_never_a_new_stack_violation() -> None:
    records = copy.deepcopy(recorded("example"))
    before = stack_findings(records)
    assert not [f for f in before if f[0] == "registration-order"]  # the chain as recorded is right
    new = []
    for index, record in enumerate(records):
        for path in paths(record["inputs"]):
            if len(path) > 2:
                continue
            changed = [*records[:index], with_none(record, path), *records[index + 1 :]]
            new += [(record["name"], path, finding) for finding in stack_findings(changed) - before]
    assert new == [], "\n".join(map(repr, new))
