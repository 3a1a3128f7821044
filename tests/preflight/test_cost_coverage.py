"""Every resource type a shipped stack creates is either priced (policy/rules/cost.py
PRICED) or listed with the reason it adds nothing to an hourly figure (prices.NOT_BILLED),
and the default stack (dev) leaves nothing out. Read from the golden plans: no program run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from config.data import prices
from preflight import pricing
from preflight.pack_import import pack_module

GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "golden"


def types_of(plan: str) -> set[str]:
    document = json.loads((GOLDEN / plan).read_text(encoding="utf-8"))
    return {resource["type"] for resource in document["resources"]}


@pytest.mark.parametrize("plan", ["plan-dev.json", "plan-example.json", "plan-gpu.json"])
def test_every_type_is_priced_or_says_why_it_is_not(plan: str) -> None:
    priced = set(pack_module("rules.cost").PRICED)
    assert types_of(plan) - priced - set(prices.NOT_BILLED) == set()


def test_no_type_is_both_priced_and_free() -> None:
    assert set(pack_module("rules.cost").PRICED) & set(prices.NOT_BILLED) == set()


def test_the_dev_stack_prices_every_item() -> None:
    plan = json.loads((GOLDEN / "plan-dev.json").read_text(encoding="utf-8"))
    groups = pricing.groups_of(plan)
    assert [g.not_priced for g in groups] == [[], []]
    labels = [line.label for g in groups for line in g.lines]
    assert "container registry (Premium)" in labels and "gateway load balancer" in labels
    # $1.667 a day for a Premium registry; $0.025 an hour for a Standard load balancer's first five rules.
    assert prices.REGISTRY_HOURLY["Premium"] == 0.0695
    assert prices.LOAD_BALANCER_HOURLY["Azure"]["eastus2"] == 0.025
