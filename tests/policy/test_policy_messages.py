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
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from pulumi_policy import EnforcementLevel, StackValidationPolicy

from components.sdk_internals import read_only_unknown_checking_proxy
from preflight import policy as runner
from preflight.pack_import import pack_module
from preflight.policy import UNKNOWN
from preflight.runtime import Plan
from tests.plans import recorded
from tests.policy.cases import PLANTED
from tests.policy.helpers import multicloud as multicloud_plan
from tests.policy.watch import Reads, Watch

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


# A fault's place: the path of the value it changes, and whether it deletes that value's key.
Place = tuple[tuple[str | int, ...], bool]


def variants(value: Any, label: str = "", path: tuple[str | int, ...] = ()) -> Iterator[tuple[str, Any, Place]]:
    """(where and what, the changed copy of `value`, the place of the change) for each one-value
    fault inside `value`: each value inside it replaced by each of its faults, each key deleted,
    and the same inside a string that holds a JSON document (an IAM policy, a trust policy: the
    string is the value changed). `value` is not changed."""
    if isinstance(value, dict):
        for key, inner in value.items():
            for where, new, place in variants(inner, f"{label}.{key}", (*path, key)):
                yield where, {**value, key: new}, place
            yield f"{label}.{key} deleted", {k: v for k, v in value.items() if k != key}, ((*path, key), True)
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            for where, new, place in variants(inner, f"{label}.{index}", (*path, index)):
                yield where, [*value[:index], new, *value[index + 1 :]], place
    elif isinstance(value, str) and value[:1] in ("{", "["):
        try:
            document = json.loads(value)
        except ValueError:
            document = None
        if isinstance(document, dict | list):
            for where, new, _ in variants(document, f"{label}(json)"):
                yield where, json.dumps(new), (path, False)
    if label:
        for new in faults(value):
            yield f"{label} = {json.dumps(new)}", new, (path, False)


def resource_policies(record: dict[str, Any]) -> list[Any]:
    # One made for other types reports nothing (tests/preflight/test_policy_views.py).
    return [p for p in PACK.ALL_POLICIES if not isinstance(p, StackValidationPolicy) and APPLIES(p, record["type"])]


def reports_of(
    record: dict[str, Any], policies: list[Any], reads: dict[str, Reads] | None = None
) -> dict[str, list[Report]]:
    """What each of `policies` reports for `record`, the advisory naming what it could not
    check included (as `preflight policy` words it); with `reads`, what each read of the
    record's inputs too (tests/policy/watch.py)."""
    if not policies:
        return {}
    args = runner.resource_args(record)
    watch = Watch()
    if reads is not None:
        watch.add(args.props, ("inputs",))
        watch.add_attributes(args.opts, ("options",))
    found: dict[str, list[Report]] = {}
    for policy in policies:
        with watch.reading() as reads_of:
            run = runner.run(policy, policy.enforcement_level, functools.partial(policy.validate, args), None)
        found[policy.name] = [(policy.name, v.message, "") for v in run]
        if reads is not None:
            reads[policy.name] = reads_of
    watch.stop()
    return found


def resource_reports(record: dict[str, Any]) -> list[Report]:
    """What the resource policies report for `record`."""
    return [report for found in reports_of(record, resource_policies(record)).values() for report in found]


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


def plain(value: Any) -> Any:
    """An object's attributes as plain values, to compare (PolicyCustomTimeouts has no ==)."""
    return {k: plain(v) for k, v in vars(value).items()} if hasattr(value, "__dict__") else value


def changed_options(record: dict[str, Any], options: dict[str, Any]) -> list[tuple[str, ...]]:
    """The paths (("options", attribute)) of the options a policy gets that differ when the
    record's options are `options` (preflight policy's options_of: a key it does not read
    changes none)."""
    before, after = plain(runner.options_of(record)), plain(runner.options_of({**record, "options": options}))
    return [("options", name) for name in sorted(before.keys() | after.keys()) if before.get(name) != after.get(name)]


def record_faults(record: dict[str, Any]) -> list[Entry]:
    """Each one-value fault of `record` that changes what the resource policies report. A fault
    is run by the policies that read what it changes on the record as recorded (a value of the
    inputs, an attribute of the options: tests/policy/watch.py); the others report as they did."""
    policies = resource_policies(record)
    reads: dict[str, Reads] = {}
    recorded = reports_of(record, policies, reads)
    before = [report for found in recorded.values() for report in found]
    entries: list[Entry] = []
    for section in ("inputs", "options"):
        for where, new, (path, deleted) in variants(record[section]):
            if section == "inputs":
                readers = [p for p in policies if reads[p.name].sees(("inputs", *path), deleted)]
            else:
                changed = changed_options(record, new)
                readers = [p for p in policies if any(reads[p.name].sees(option) for option in changed)]
            after = {**recorded, **reports_of({**record, section: new}, readers)}
            entries += changes(f"{section}{where}", before, [report for found in after.values() for report in found])
    return entries


def as_recorded(records: list[dict[str, Any]]) -> list[Entry]:
    entries = [(p, m, label(r)) for r in records for p, m, _ in resource_reports(r)]
    return entries + [(p, m, f"stack {target}") for p, m, target in stack_reports(records)]


@contextmanager
def built_once(records: list[dict[str, Any]]) -> Iterator[None]:
    """While on, the engine views (props and options) of `records` are built once for all the
    plans made of them (one record removed or changed: the others are the same objects), not
    once per plan. The props are read-only, as `preflight policy` shares them: no policy run
    can change what a later one reads. (The records stay alive meanwhile, so an id is theirs.)"""
    props = {id(r): read_only_unknown_checking_proxy(runner.engine_value(r.get("inputs") or {})) for r in records}
    options = {id(r): runner.options_of(r) for r in records}
    props_of, options_of = runner.props_of, runner.options_of
    with (
        mock.patch.object(runner, "props_of", lambda r: props[id(r)] if id(r) in props else props_of(r)),
        mock.patch.object(runner, "options_of", lambda r: options[id(r)] if id(r) in options else options_of(r)),
    ):
        yield


def stack_faults(records: list[dict[str, Any]]) -> list[Entry]:
    before = stack_reports(records)
    entries: list[Entry] = []
    with built_once(records):
        for index, record in enumerate(records):
            removed = stack_reports(records[:index] + records[index + 1 :])
            entries += changes(f"{label(record)} removed from the plan", before, removed)
            if record["dependsOn"]:
                loose = [*records[:index], {**record, "dependsOn": []}, *records[index + 1 :]]
                entries += changes(f"{label(record)} dependsOn = []", before, stack_reports(loose))
    return entries


def planted_faults(records: list[dict[str, Any]]) -> list[Entry]:
    """Each planted violation: what its record's resource policies and the stack policies
    report beyond the plan as recorded."""
    stack_before = stack_reports(records)
    entries: list[Entry] = []
    with built_once(records):
        for policy, _, name, edit, _, fix in PLANTED:
            if edit is None:
                before, after = stack_before, stack_reports([r for r in records if r["name"] != name])
            else:
                # An edit changes the one record it is given: a copy of it, the others as they are.
                original = next(r for r in records if r["name"] == name)
                changed = copy.deepcopy(original)
                edit(changed)
                planted = [changed if r is original else r for r in records]
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


@functools.cache
def golden() -> dict[str, Any]:
    """The golden, read once for the module's tests (which only read it)."""
    return json.loads(GOLDEN.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def records(plan: dict[str, Any]) -> list[dict[str, Any]]:
    """The multicloud plan's records, made once for the module: every section only reads them
    (each fault is made on a copy), so each test gets them as recorded."""
    return plan["resources"]  # type: ignore[no-any-return]


def test_the_plan_as_it_is_breaks_no_mandatory_policy(records):
    """What it does report (the dev stack keeps local accounts, a public API server and no
    network policy: advisory; the values a policy could not check yet, named in an advisory) is
    the golden's "(as recorded)" section."""
    fired = {policy for policy, message, _ in as_recorded(records) if not message.startswith(UNCHECKED)}
    assert [name for name in fired if POLICY_LEVELS[name] is not EnforcementLevel.ADVISORY] == []


def test_the_sections_are_the_plans_records(records):
    labels = [label(r) for r in records]
    assert sorted(SECTIONS) == sorted([*labels, AS_RECORDED, STACK, PLANTED_SECTION])
    assert len(set(SECTIONS)) == len(SECTIONS)  # one section per record: none hides another


def test_each_planted_violation_has_its_own_key():
    assert len({f"{policy}: {name}: {fix}" for policy, _, name, _, _, fix in PLANTED}) == len(PLANTED)


@pytest.mark.parametrize("name", SECTIONS)
def test_every_message_is_the_recorded_one(records, name):
    expected = golden_entries(golden(), name)
    actual = sorted(section(name, records))
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
