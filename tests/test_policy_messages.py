"""The policy pack's problem messages, pinned word for word over a systematic set of faults.

What a platform engineer reads when a merge is blocked is the message: it names the
resource's key and says how to fix it. The other policy tests check that a violation is
found and that its message holds the fix's key words; this one pins the whole text, and
which policies fire at all, over a systematic set of faults:

- the resource policies, over every record of the multicloud plan (the dev stack's real
  plan plus the AWS, GCP and Generic fixtures of tests/fixtures/policy/), each record
  changed one input or option at a time: a boolean flipped, a string emptied or extended,
  a number set to 0 and -1, a list or map emptied, a key deleted;
- the stack policies, over the plan with one record deleted, or its dependencies cleared,
  at a time;
- both, over each planted violation of test_policy.py (one per mandatory policy: the
  faults above do not reach a policy document's statements or a node pool's type).

Each fault that makes any policy report is a line in tests/fixtures/policy/messages.json
with every message reported for it, under its record's name (one test per record, so a
mutant of one rule is run only against the records that reach it); a fault missing from
the file must report nothing.
When a message or a rule changes on purpose, regenerate the file and review its diff:

    venv/bin/python -m tests.test_policy_messages
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pulumi_policy import StackValidationPolicy

from preflight import policy as runner
from preflight.policy import UNKNOWN
from preflight.runtime import Plan, run_program
from tests.test_policy import PLANTED
from tests.test_policy import multicloud as multicloud_plan

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "policy"
GOLDEN = FIXTURES / "messages.json"
PACK = runner.load_pack()
POLICY_LEVELS = {p.name: p.enforcement_level.value for p in PACK.ALL_POLICIES}


def label(record: dict[str, Any]) -> str:
    """A record's section: its type and name (names repeat across types: four `default`s)."""
    return f"{record['type']}::{record['name']}"


def multicloud(dev_plan: Plan) -> list[dict[str, Any]]:
    return multicloud_plan(dev_plan)["resources"]


def faults(value: Any) -> list[Any]:
    """The wrong values tried in place of `value`: each a user's or a provider's slip, plus the
    engine's unknown (a value a first preview does not know yet) and a value of the wrong type."""
    tried: list[Any] = [UNKNOWN] if value != UNKNOWN else []
    if isinstance(value, bool):
        return [*tried, not value, "true" if value else "false"]
    if isinstance(value, int | float):
        return [*tried, 0, -1, str(value)]
    if isinstance(value, str):
        return [*tried, "", value + "x", 0] + (["*"] if value != "*" else [])  # "*": IAM's favourite slip
    if isinstance(value, list | dict):
        return [*tried, "x"] + ([type(value)()] if value else [])
    return [*tried, "x"]


def variants(value: Any, label: str = "") -> Iterator[tuple[str, Any]]:
    """(where and what, the changed copy of `value`) for each one-value fault inside `value`:
    each value inside it replaced by each of its faults, each key deleted, and the same inside a
    string that holds a JSON document (an IAM policy, a trust policy). `value` is not changed."""
    if isinstance(value, dict):
        for key, inner in value.items():
            for where, new in variants(inner, f"{label}.{key}"):
                yield where, {**value, key: new}
            yield f"{label}.{key} deleted", {k: v for k, v in value.items() if k != key}
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            for where, new in variants(inner, f"{label}.{index}"):
                yield where, [*value[:index], new, *value[index + 1 :]]
    elif isinstance(value, str) and value[:1] in ("{", "["):
        try:
            document = json.loads(value)
        except ValueError:
            document = None
        if isinstance(document, dict | list):
            for where, new in variants(document, f"{label}(json)"):
                yield where, json.dumps(new)
    if label:
        for new in faults(value):
            yield f"{label} = {json.dumps(new)}", new


def resource_messages(record: dict[str, Any]) -> list[str]:
    args = runner.resource_args(record)
    found: list[str] = []
    for policy in PACK.ALL_POLICIES:
        if not isinstance(policy, StackValidationPolicy):
            policy.validate(args, lambda message, urn=None, name=policy.name: found.append(f"{name}: {message}"))
    return found


def stack_messages(records: list[dict[str, Any]]) -> list[str]:
    args = runner.stack_args(records)
    found: list[str] = []
    for policy in PACK.ALL_POLICIES:
        if isinstance(policy, StackValidationPolicy):
            policy.validate(
                args, lambda message, urn=None, name=policy.name: found.append(f"{name}: {urn or '-'}: {message}")
            )
    return found


def record_faults(record: dict[str, Any]) -> dict[str, list[str]]:
    """Each one-value fault of `record` that makes a resource policy report -> the messages."""
    reported: dict[str, list[str]] = {}
    for section in ("inputs", "options"):
        for where, new in variants(record[section]):
            if messages := resource_messages({**record, section: new}):
                reported[f"{section}{where}"] = messages
    return reported


def stack_faults(records: list[dict[str, Any]]) -> dict[str, list[str]]:
    reported = {"the plan as it is": [m for r in records for m in resource_messages(r)] + stack_messages(records)}
    for index, record in enumerate(records):
        if messages := stack_messages(records[:index] + records[index + 1 :]):
            reported[f"{label(record)} removed from the plan"] = messages
        if record["dependsOn"]:
            loose = copy.deepcopy(records)
            loose[index]["dependsOn"] = []
            if messages := stack_messages(loose):
                reported[f"{label(record)} dependsOn = []"] = messages
    return reported


def planted_faults(records: list[dict[str, Any]]) -> dict[str, list[str]]:
    reported: dict[str, list[str]] = {}
    for policy, _, name, edit, _, fix in PLANTED:
        planted = copy.deepcopy(records)
        if edit is None:
            planted = [r for r in planted if r["name"] != name]
        else:
            edit(next(r for r in planted if r["name"] == name))
        changed = [] if edit is None else resource_messages(next(r for r in planted if r["name"] == name))
        reported[f"{policy}: {name}: {fix}"] = changed + stack_messages(planted)
    return reported


STACK, PLANTED_SECTION = "(stack faults)", "(planted violations)"


def section(name: str, records: list[dict[str, Any]]) -> dict[str, list[str]]:
    if name == STACK:
        return stack_faults(records)
    if name == PLANTED_SECTION:
        return planted_faults(records)
    return record_faults(next(r for r in records if label(r) == name))


def catalogue(dev_plan: Plan) -> dict[str, dict[str, list[str]]]:
    """Section (a record's name, the stack faults, the planted violations) -> fault -> messages
    (faults that report nothing left out)."""
    records = multicloud(dev_plan)
    return {name: section(name, records) for name in [label(r) for r in records] + [STACK, PLANTED_SECTION]}


# The sections, known before the plan is made (one test each: a mutant of one rule is run
# only against the records that reach it): the dev stack's golden plan (test_golden_plans
# proves the program still makes it) and the fixtures.
SECTIONS = [
    label(r)
    for document in [
        ROOT / "tests" / "fixtures" / "golden" / "plan-dev.json",
        *(FIXTURES / f"{n}.json" for n in ("aws", "gcp", "generic")),
    ]
    for r in json.loads(document.read_text(encoding="utf-8"))["resources"]
] + [STACK, PLANTED_SECTION]


def test_the_plan_as_it_is_breaks_no_mandatory_policy(dev_plan):
    records = multicloud(dev_plan)
    messages = [m for r in records for m in resource_messages(r)] + stack_messages(records)
    # The dev stack keeps local accounts, a public API server and no network policy: advisory.
    fired = [m.split(":", 1)[0] for m in messages]
    assert fired == ["aks-local-accounts", "aks-public-api-server", "aks-network-policy"]
    assert {POLICY_LEVELS[name] for name in fired} == {"advisory"}


def test_the_sections_are_the_plans_records(dev_plan):
    assert sorted(SECTIONS) == sorted([label(r) for r in multicloud(dev_plan)] + [STACK, PLANTED_SECTION])
    assert len(set(SECTIONS)) == len(SECTIONS)  # one section per record: none hides another


def test_each_planted_violation_has_its_own_key():
    assert len({f"{policy}: {name}: {fix}" for policy, _, name, _, _, fix in PLANTED}) == len(PLANTED)


@pytest.mark.parametrize("name", SECTIONS)
def test_every_message_is_the_recorded_one(dev_plan, name):
    expected = json.loads(GOLDEN.read_text(encoding="utf-8")).get(name, {})
    actual = section(name, multicloud(dev_plan))
    changed_faults = sorted(k for k in expected.keys() | actual.keys() if expected.get(k) != actual.get(k))
    assert not changed_faults, (
        f"{name}: {len(changed_faults)} fault(s) report other messages than recorded, e.g. "
        + json.dumps({k: {"recorded": expected.get(k), "now": actual.get(k)} for k in changed_faults[:3]}, indent=1)
        + "\nIf intended: venv/bin/python -m tests.test_policy_messages, then review the diff."
    )


# Policies no fault here makes report, each for a reason of the catalogue's inputs, not of
# the policy: the dev plan and the fixtures hold no EKS cluster (eks-access-entries,
# eks-public-endpoint) and no GKE cluster (gke-default-network), which test_eks_access_network
# and test_gke_generic check against the example stack's plan; and no one-value fault makes
# skuTier "Free" (aks-sku-tier, test_policy). All four are advisory.
NOT_REACHED = {"aks-sku-tier", "eks-access-entries", "eks-public-endpoint", "gke-default-network"}


def test_the_catalogue_reaches_every_policy_but_the_listed_advisory_ones():
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    fired = {m.split(":", 1)[0] for faults in expected.values() for messages in faults.values() for m in messages}
    assert {p.name for p in PACK.ALL_POLICIES} - fired == NOT_REACHED
    assert all(POLICY_LEVELS[name] == "advisory" for name in NOT_REACHED)


if __name__ == "__main__":
    from tests.conftest import stack_values

    plan = run_program("dev", stack_values("dev"))
    result = {name: faults for name, faults in catalogue(plan).items() if faults}
    GOLDEN.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    count = sum(len(faults) for faults in result.values())
    print(f"{GOLDEN.relative_to(ROOT)}: {count} faults in {len(result)} sections", file=sys.stderr)
