"""The policy pack's problem messages, each pinned word for word once, over a systematic
set of faults.

What a platform engineer reads when a merge is blocked is the message: it names the
resource's key and says how to fix it. The other policy tests check that a violation is
found and that its message holds the fix's key words; this one pins every whole text,
and which faults make it appear (or go away), over:

- the resource policies, over every record of the multicloud plan (the dev stack's real
  plan plus the AWS, GCP and Generic fixtures of tests/fixtures/policy/), each record
  changed one input or option at a time: a boolean flipped, a string emptied or extended,
  a number set to 0 and -1, a list or map emptied, a key deleted, a value made unknown (which
  adds the advisory naming what a policy could not check);
- the stack policies, over the plan with one record deleted, or its dependencies cleared,
  at a time;
- both, over each planted violation of the policies' rows (tests/policy/test_<subject>.py) (one per mandatory policy: the
  faults above do not reach a policy document's statements or a node pool's type).

tests/fixtures/policy/messages.json maps policy -> message -> section -> the faults that
add the message to what the section's record reports as recorded (a fault that takes a
message away is listed as "<fault> (no longer reported)"). A stack policy's fault names
the resource the message is reported against (`@ <name>`). Section "(as recorded)" holds
what every record and the stack report unchanged. A fault missing from the file changes
nothing. When a message or a rule changes on purpose, regenerate the file and review its
diff:

    make generate
"""

from __future__ import annotations

import copy
import functools
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pulumi_policy import EnforcementLevel, StackValidationPolicy

from preflight import policy as runner
from preflight.pack_import import pack_module
from preflight.policy import UNKNOWN
from preflight.runtime import Plan
from tests.plans import recorded
from tests.policy.cases import PLANTED
from tests.policy.helpers import multicloud as multicloud_plan

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "policy"
GOLDEN = FIXTURES / "messages.json"
REGENERATE = "make generate"
APPLIES = pack_module("pack").applies
PACK = runner.load_pack()
POLICY_LEVELS = {p.name: p.enforcement_level for p in PACK.ALL_POLICIES}

# (policy, message, what it is reported against: "" for the resource itself, "@ <name>" for a stack policy)
Report = tuple[str, str, str]
# (policy, message, fault): one line of the golden
Entry = tuple[str, str, str]


def label(record: dict[str, Any]) -> str:
    """A record's section: its type and name (names repeat across types: four `default`s)."""
    return f"{record['type']}::{record['name']}"


def multicloud(dev_plan: Plan) -> list[dict[str, Any]]:
    return multicloud_plan(dev_plan)["resources"]  # type: ignore[no-any-return]


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


def resource_reports(record: dict[str, Any]) -> list[Report]:
    """What the resource policies report for `record`, the advisory naming what they could
    not check included (as `preflight policy` words it)."""
    args = runner.resource_args(record)
    found: list[Report] = []
    for policy in PACK.ALL_POLICIES:
        # One made for other types reports nothing (tests/preflight/test_policy_views.py).
        if not isinstance(policy, StackValidationPolicy) and APPLIES(policy, record["type"]):
            run = runner.run(policy, policy.enforcement_level, functools.partial(policy.validate, args), None)
            found += [(policy.name, v.message, "") for v in run]
    return found


def stack_reports(records: list[dict[str, Any]]) -> list[Report]:
    args = runner.stack_args(records)
    names = {r["urn"]: r["name"] for r in records}
    found: list[Report] = []
    for policy in PACK.ALL_POLICIES:
        if isinstance(policy, StackValidationPolicy):
            run = runner.run(policy, policy.enforcement_level, functools.partial(policy.validate, args), None)
            found += [(policy.name, v.message, f"@ {names.get(v.urn, v.urn) if v.urn else 'stack'}") for v in run]
    return found


def changes(fault: str, before: list[Report], after: list[Report]) -> list[Entry]:
    """What `fault` turns `before` into: the reports it adds, and those it takes away."""
    entries = []
    for reports, suffix in (
        (Counter(after) - Counter(before), ""),
        (Counter(before) - Counter(after), " (no longer reported)"),
    ):
        for (policy, message, target), count in reports.items():
            entries += [(policy, message, " ".join(filter(None, (fault, target))) + suffix)] * count
    return entries


def record_faults(record: dict[str, Any]) -> list[Entry]:
    """Each one-value fault of `record` that changes what the resource policies report."""
    before = resource_reports(record)
    entries: list[Entry] = []
    for section in ("inputs", "options"):
        for where, new in variants(record[section]):
            entries += changes(f"{section}{where}", before, resource_reports({**record, section: new}))
    return entries


def as_recorded(records: list[dict[str, Any]]) -> list[Entry]:
    entries = [(p, m, label(r)) for r in records for p, m, _ in resource_reports(r)]
    return entries + [(p, m, f"stack {target}") for p, m, target in stack_reports(records)]


def stack_faults(records: list[dict[str, Any]]) -> list[Entry]:
    before = stack_reports(records)
    entries: list[Entry] = []
    for index, record in enumerate(records):
        removed = stack_reports(records[:index] + records[index + 1 :])
        entries += changes(f"{label(record)} removed from the plan", before, removed)
        if record["dependsOn"]:
            loose = copy.deepcopy(records)
            loose[index]["dependsOn"] = []
            entries += changes(f"{label(record)} dependsOn = []", before, stack_reports(loose))
    return entries


def planted_faults(records: list[dict[str, Any]]) -> list[Entry]:
    """Each planted violation: what its record's resource policies and the stack policies
    report beyond the plan as recorded."""
    stack_before = stack_reports(records)
    entries: list[Entry] = []
    for policy, _, name, edit, _, fix in PLANTED:
        planted = copy.deepcopy(records)
        if edit is None:
            planted = [r for r in planted if r["name"] != name]
            before, after = stack_before, stack_reports(planted)
        else:
            changed = next(r for r in planted if r["name"] == name)
            edit(changed)
            original = next(r for r in records if r["name"] == name)
            before = resource_reports(original) + stack_before
            after = resource_reports(changed) + stack_reports(planted)
        entries += changes(f"{policy}: {name}: {fix}", before, after)
    return entries


AS_RECORDED, STACK, PLANTED_SECTION = "(as recorded)", "(stack faults)", "(planted violations)"
UNCHECKED = "can't run during preview: "  # the advisory naming what a policy could not check


def section(name: str, records: list[dict[str, Any]]) -> list[Entry]:
    if name == AS_RECORDED:
        return as_recorded(records)
    if name == STACK:
        return stack_faults(records)
    if name == PLANTED_SECTION:
        return planted_faults(records)
    return record_faults(next(r for r in records if label(r) == name))


def golden_entries(golden: dict[str, Any], name: str) -> list[Entry]:
    return sorted(
        (policy, message, fault)
        for policy, messages in golden.items()
        for message, sections in messages.items()
        for fault in sections.get(name, [])
    )


def catalogue(dev_plan: Plan) -> dict[str, dict[str, dict[str, list[str]]]]:
    """policy -> message -> section -> faults, over every section."""
    records = multicloud(dev_plan)
    result: dict[str, dict[str, dict[str, list[str]]]] = {}
    for name in SECTIONS:
        for policy, message, fault in section(name, records):
            result.setdefault(policy, {}).setdefault(message, {}).setdefault(name, []).append(fault)
    for messages in result.values():
        for sections in messages.values():
            for faults_of in sections.values():
                faults_of.sort()
    return result


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
] + [AS_RECORDED, STACK, PLANTED_SECTION]


def golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_the_plan_as_it_is_breaks_no_mandatory_policy(dev_plan):
    """What it does report (the dev stack keeps local accounts, a public API server and no
    network policy: advisory; the values a policy could not check yet, named in an advisory) is
    the golden's "(as recorded)" section."""
    fired = {policy for policy, message, _ in as_recorded(multicloud(dev_plan)) if not message.startswith(UNCHECKED)}
    assert [name for name in fired if POLICY_LEVELS[name] is not EnforcementLevel.ADVISORY] == []


def test_the_sections_are_the_plans_records(dev_plan):
    records = [label(r) for r in multicloud(dev_plan)]
    assert sorted(SECTIONS) == sorted([*records, AS_RECORDED, STACK, PLANTED_SECTION])
    assert len(set(SECTIONS)) == len(SECTIONS)  # one section per record: none hides another


def test_each_planted_violation_has_its_own_key():
    assert len({f"{policy}: {name}: {fix}" for policy, _, name, _, _, fix in PLANTED}) == len(PLANTED)


@pytest.mark.parametrize("name", SECTIONS)
def test_every_message_is_the_recorded_one(dev_plan, name):
    expected = golden_entries(golden(), name)
    actual = sorted(section(name, multicloud(dev_plan)))
    missing = [e for e in expected if e not in actual]
    new = [e for e in actual if e not in expected]
    assert not missing and not new, (
        f"{name}: {len(new)} report(s) not recorded, {len(missing)} recorded but not reported, e.g. "
        + json.dumps({"now": new[:3], "recorded": missing[:3]}, indent=1)
        + f"\nIf intended: {REGENERATE}, then review the diff."
    )


def test_the_golden_names_only_the_packs_policies_and_sections():
    recorded = golden()
    assert set(recorded) <= set(POLICY_LEVELS), f"policies no longer in the pack: {REGENERATE}"
    sections = {s for messages in recorded.values() for by_section in messages.values() for s in by_section}
    assert sections <= set(SECTIONS), f"sections no longer in the catalogue: {REGENERATE}"


def test_the_catalogue_reaches_every_mandatory_policy():
    """Through the planted violations at least; an advisory policy may stay out of reach."""
    recorded = golden()
    unreached = [n for n, level in POLICY_LEVELS.items() if level is EnforcementLevel.MANDATORY and n not in recorded]
    assert not unreached, (
        f"no fault makes {', '.join(unreached)} report: add a Plant to its PolicyCase row in tests/policy/test_<subject>.py, "
        f"then {REGENERATE}"
    )


def render_catalogue() -> str:
    """The golden's text, from the dev stack's plan recorded afresh (`make generate` writes it)."""
    from tests.conftest import stack_values

    return json.dumps(catalogue(recorded("dev", stack_values("dev"))), indent=1, sort_keys=True) + "\n"
