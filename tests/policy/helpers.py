"""What the policy tests share: the multicloud plan (the dev stack's recorded plan plus the
AWS, GCP and Generic records of tests/fixtures/policy/), ways to change one record of it,
ways to run one policy over a record or a whole plan, and the shape of a policy's case
(`PolicyCase`): its settings' defaults, a record that breaks it under them and the setting
that allows that record, and the violations planted in whole plans. Each subject's test
module (test_records, test_access, test_clusters, test_cost_budget) holds one case per policy
of its catalog module; tests/policy/cases.py gathers them."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from pulumi_policy import PolicyCustomTimeouts, PolicyResourceOptions, ResourceValidationArgs
from pulumi_policy.proxy import UnknownValueError

from preflight import policy as runner
from preflight.runtime import Plan

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "policy"
CLOUDS = ("aws", "gcp", "generic")  # the fixtures' cloud resources, appended to the dev plan in this order
PACK = runner.load_pack()
POLICIES = {p.name: p for p in PACK.ALL_POLICIES}
CONSOLE = "https://console.azure.anyscale.com"
OWNER = "8e3af657-a8ff-443c-a75c-2fe8c4bcb635"  # the Owner built-in role's GUID

Record = dict[str, Any]
Edit = Callable[[Record], Any]


# --- the plans --------------------------------------------------------------------------------------


def fixture_records(name: str) -> list[Record]:
    return json.loads((FIXTURES / f"{name}.json").read_text())["resources"]  # type: ignore[no-any-return]


# The names of the fixtures' records: a violation planted in one of them needs the multicloud plan.
FIXTURE_NAMES = frozenset(r["name"] for cloud in CLOUDS for r in fixture_records(cloud))


def multicloud(dev_plan: Plan) -> dict[str, Any]:
    """The dev plan (real, recorded) plus hand-made AWS, GCP and Generic cloud resources."""
    plan = copy.deepcopy(dev_plan.to_json())
    for name in CLOUDS:
        plan["resources"] += fixture_records(name)
    return plan


def record(plan: dict[str, Any], name: str) -> Record:
    return next(r for r in plan["resources"] if r["name"] == name)


def edited(plan: dict[str, Any], name: str, edit: Edit) -> dict[str, Any]:
    """A copy of `plan` with one record changed by `edit`."""
    plan = copy.deepcopy(plan)
    edit(record(plan, name))
    return plan


def without(plan: dict[str, Any], name: str) -> dict[str, Any]:
    plan = copy.deepcopy(plan)
    plan["resources"] = [r for r in plan["resources"] if r["name"] != name]
    return plan


# --- running a policy ------------------------------------------------------------------------------


def reports(policy: Any, args: Any) -> tuple[list[tuple[str | None, str]], str | None]:
    """The violations (urn, message) `policy` reports for `args`, and the message of the
    UnknownValueError naming what it could not check (None when it checked everything),
    which the engine shows as an advisory: tests/policy/test_policy_unknowns.py tests those."""
    found: list[tuple[str | None, str]] = []
    try:
        policy.validate(args, lambda message, urn=None: found.append((urn, message)))
    except UnknownValueError as error:
        return found, error.message
    return found, None


def violations(policy: Any, args: Any) -> list[str]:
    return [message for _, message in reports(policy, args)[0]]


def validate(policy: str, rec: Record, config: dict[str, Any] | None = None) -> list[str]:
    """The violations `policy` reports for one plan record, through its validate function."""
    args = runner.resource_args(rec, config=config)
    assert isinstance(args, ResourceValidationArgs)
    return violations(POLICIES[policy], args)


def validate_stack(policy: str, plan: dict[str, Any]) -> list[tuple[str | None, str]]:
    return reports(POLICIES[policy], runner.stack_args(plan["resources"]))[0]


def one(messages: list[str], *fragments: str) -> None:
    assert len(messages) == 1, messages
    for fragment in fragments:
        assert fragment in messages[0], messages[0]


def real_engine_options(delete_before_replace: bool | None) -> PolicyResourceOptions:
    """Options as the engine passes them: no replaceOnChanges, retainOnDelete, dependsOn."""
    return PolicyResourceOptions(False, [], delete_before_replace, [], PolicyCustomTimeouts(0, 0, 0), [], None)


# --- changing a record --------------------------------------------------------------------------------


def props(rec: Record) -> dict[str, Any]:
    """A registration's properties."""
    return rec["inputs"]["properties"]  # type: ignore[no-any-return]


def retyped(rec: Record, kind: str, inputs: dict[str, Any]) -> Record:
    """A real record turned into another resource type (one our program does not create)."""
    rec = copy.deepcopy(rec)
    name = rec["name"]
    rec.update(type=kind, inputs=inputs, urn=rec["urn"].rsplit("$", 1)[0] + f"${kind}::{name}")
    return rec


def doc(*statements: dict[str, Any]) -> str:
    """An IAM policy document holding `statements`."""
    return json.dumps({"Version": "2012-10-17", "Statement": list(statements)})


def set_setting(rec: Record, key: str, value: Any) -> None:
    """Set an operator setting: a key of the AKS extension's flat map, a path of a Helm release's values."""
    if "configurationSettings" in rec["inputs"]:
        rec["inputs"]["configurationSettings"][key] = value
        return
    node = rec["inputs"]["values"]
    *parents, leaf = key.split(".")
    for part in parents:
        node = node.setdefault(part, {})
    node[leaf] = value


def set_at(path: tuple[str | int, ...], value: Any) -> Edit:
    """An edit setting the value at `path` in a record."""

    def edit(rec: Record) -> None:
        node: Any = rec
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


def drop_at(path: tuple[str | int, ...]) -> Edit:
    """An edit deleting the key at `path` in a record."""

    def edit(rec: Record) -> None:
        node: Any = rec
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return edit


def retype(kind: str, inputs: dict[str, Any]) -> Edit:
    """An edit turning a record into another resource type (see `retyped`)."""

    def edit(rec: Record) -> None:
        rec.update(retyped(rec, kind, inputs))

    return edit


def undepend(rec: Record) -> None:
    """A registration no longer waiting for the primary ('default')."""
    rec["dependsOn"] = [u for u in rec["dependsOn"] if not u.endswith("::default-registration")]


# --- a policy's case ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plant:
    """A violation planted in a whole plan, which `preflight policy` must fail on: `record`
    changed by `edit` (None removes it), and the output naming `resource` (the record itself
    unless given) with `fix` in its line. A record of the fixtures is planted in the
    multicloud plan, one of the dev stack in the dev plan alone."""

    record: str
    edit: Edit | None
    fix: str
    resource: str | None = None


class Planted(NamedTuple):
    """A plant with its policy, in the order tests/policy/test_policy_messages.py unpacks:
    (policy, multicloud?, record, edit or None, resource named in the output, the fix)."""

    policy: str
    multicloud: bool
    record: str
    edit: Edit | None
    resource: str
    fix: str


@dataclass(frozen=True)
class PolicyCase:
    """One policy's row: everything a new policy needs in one place.

    config_default: every setting's default as documented, by the platform (docs/platform.md) or,
    for the project's own like the budget, docs/policies.md: literals, not the pack's constants,
    so a changed default fails here; None for a policy without settings.
    violate: a record of the multicloud plan that breaks the policy under its defaults only
    (what each default forbids); allow: the settings under which that record is allowed, or
    refused: a fragment of the config problem when the settings' schema refuses `allow`.
    planted: violations in whole plans; every mandatory policy has at least one."""

    policy: str
    config_default: dict[str, Any] | None = None
    violate: Callable[[dict[str, Any]], Record] | None = None
    allow: dict[str, Any] | None = None
    refused: str | None = None
    planted: tuple[Plant, ...] = ()

    def plants(self) -> list[Planted]:
        """The planted violations with their policy, each in the plan its record is in."""
        return [
            Planted(self.policy, p.record in FIXTURE_NAMES, p.record, p.edit, p.resource or p.record, p.fix)
            for p in self.planted
        ]


def changed(plan: dict[str, Any], name: str, edit: Edit) -> Record:
    """A copy of one record of `plan`, changed by `edit` (for a case's `violate`)."""
    rec = copy.deepcopy(record(plan, name))
    edit(rec)
    return rec
