"""Tests written for mutants of components/spec.py that `make mutate` found alive (README,
"Mutation testing"): each asserts what a user sees, with the expected text as a literal."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from components.spec import Secret, SpecError, load_spec
from tests.conftest import stack_values


def problems(resources: list[dict[str, Any]]) -> list[str]:
    cloud = stack_values("example")["anyscale-cloud:cloud"]
    with pytest.raises(SpecError) as caught:
        load_spec(cloud, resources)
    return [str(p) for p in caught.value.problems]


def example_resources() -> list[dict[str, Any]]:
    return copy.deepcopy(stack_values("example")["anyscale-cloud:resources"])


def test_secret_never_prints_its_value() -> None:
    # The value reaches neither repr() (tracebacks, logs) nor str() (f-strings).
    secret = Secret("hunter2-plaintext")
    assert repr(secret) == "Secret([secret])"
    assert str(secret) == "Secret([secret])"
    assert f"{secret}" == "Secret([secret])"
    assert secret.value == "hunter2-plaintext"


# A cross-resource rule (the primary must be named `default`) together with a per-field
# problem: the stack rule re-raises pydantic's own errors with its own, and the message of
# the per-field problem still quotes the value the user wrote (it needs the error's input
# and, for a pattern, its context: without them this was a KeyError traceback).


def test_pattern_problem_next_to_a_stack_rule_quotes_the_value_and_the_form() -> None:
    resources = example_resources()
    resources[0]["name"] = "main"
    resources[0]["cluster"]["kubernetesVersion"] = "2.x"
    assert problems(resources) == [
        "resources[0].name (main): the first cloud resource is the primary and must be named 'default' "
        "(got 'main'); put the AKS primary first",
        "resources[0].cluster.kubernetesVersion (main): '2.x' does not have the required form ^1\\.[0-9]{2}(\\.[0-9]+)?$",
    ]


def test_provider_problem_next_to_a_stack_rule_quotes_what_was_written() -> None:
    resources = example_resources()
    resources[0]["name"] = "main"
    resources[0]["provider"] = "AZUR"
    assert (
        problems(resources)[-1]
        == "resources[0].provider (main): provider must be one of Azure, AWS, GCP, Generic (got 'AZUR')"
    )
