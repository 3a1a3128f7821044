"""`python -m preflight policy --stack <stack> | --plan FILE [--config FILE]`: run the
policy pack (policy/) over a recorded plan, offline.

Each plan record is handed to the policies the way the engine hands a resource to a
pack: a `ResourceValidationArgs` per resource with its camelCase inputs behind the SDK's
unknown-checking proxy, then one `StackValidationArgs` with every resource, its parent
and its dependencies. Violations are printed grouped by resource; the exit code is 1
on any mandatory violation, 0 otherwise, 2 when the plan or stack file is unusable.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import importlib
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from pulumi_policy import (
    EnforcementLevel,
    PolicyProviderResource,
    PolicyResource,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)

from components.sdk_internals import UNKNOWN_STRING_VALUE, NotApplicableError, UnknownValueError, unknown_checking_proxy
from preflight.plan import RECORD_ERRORS, report_record_error
from preflight.plan import record as record_stack
from preflight.planfile import UNKNOWN, Graph, PlanError, read, read_json, resource_name, validate

ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = ROOT / "policy"
LEVELS = {level.value: level for level in EnforcementLevel}


@dataclass(frozen=True)
class Violation:
    policy: str
    level: str  # "mandatory" or "advisory"
    message: str
    urn: str | None  # None: the stack as a whole
    name: str | None = None
    type: str | None = None

    @property
    def mandatory(self) -> bool:
        return self.level == EnforcementLevel.MANDATORY.value


def pack_module(name: str) -> ModuleType:
    """A module of the pack, imported the way the CLI runs the pack: with its folder on
    sys.path (`policies`, `rules.options`)."""
    if str(POLICY_DIR) not in sys.path:
        sys.path.insert(0, str(POLICY_DIR))
    return importlib.import_module(name)


def load_pack() -> ModuleType:
    """policy/policies.py: ALL_POLICIES, PACK_NAME, DEFAULT_LEVEL."""
    return pack_module("policies")


# --- plan records -> what the engine would hand over -------------------------------------


def engine_value(value: Any) -> Any:
    """A plan value as the engine sends it: the plan's `<unknown>` is the engine's unknown.
    Placeholders (`${name.property}`) stay strings: the policies treat them as unknown."""
    if value == UNKNOWN:
        return UNKNOWN_STRING_VALUE
    if isinstance(value, dict):
        return {k: engine_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [engine_value(v) for v in value]
    return value


def props_of(record: dict[str, Any]) -> Any:
    return unknown_checking_proxy(engine_value(record.get("inputs") or {}))


def options_of(record: dict[str, Any]) -> Any:
    opts = record.get("options") or {}
    return pack_module("rules.options").PlanResourceOptions(
        protect=bool(opts.get("protect", False)),
        ignore_changes=list(opts.get("ignoreChanges") or []),
        delete_before_replace=bool(opts.get("deleteBeforeReplace", False)),
        additional_secret_outputs=list(opts.get("additionalSecretOutputs") or []),
        parent=record.get("parent"),
        replace_on_changes=list(opts.get("replaceOnChanges") or []),
        retain_on_delete=bool(opts.get("retainOnDelete", False)),
        deleted_with=opts.get("deletedWith"),
    )


def provider_of(record: dict[str, Any], graph: Graph) -> PolicyProviderResource | None:
    provider = graph.provider(record)
    if provider is None:
        return None
    return PolicyProviderResource(provider["type"], props_of(provider), provider["urn"], resource_name(provider))


def resource_args(
    record: dict[str, Any], graph: Graph | None = None, config: dict[str, Any] | None = None
) -> ResourceValidationArgs:
    """What a resource policy gets for this record under `pulumi preview`."""
    return ResourceValidationArgs(
        record["type"],
        props_of(record),
        record["urn"],
        resource_name(record),
        options_of(record),
        provider_of(record, graph or Graph([])),
        config,
    )


def stack_args(records: list[dict[str, Any]], config: dict[str, Any] | None = None) -> StackValidationArgs:
    """What a stack policy gets: every resource, with parent and dependencies resolved."""
    graph = Graph(records)
    resources = {
        r["urn"]: PolicyResource(
            r["type"], props_of(r), r["urn"], resource_name(r), options_of(r), provider_of(r, graph), None, [], {}
        )
        for r in records
    }
    for record in records:
        resource = resources[record["urn"]]
        resource.parent = resources.get(record.get("parent") or "")
        resource.dependencies = [resources[u] for u in graph.depends_on(record)]
    return StackValidationArgs(list(resources.values()), config)


# --- running the policies ----------------------------------------------------------------------


def check_plan(plan: dict[str, Any], config: dict[str, Any] | None = None) -> list[Violation]:
    """Every violation of every enabled policy over the plan (`config`: the same JSON as
    `pulumi preview --policy-pack-config`). Raises PlanError when `plan` is not a plan."""
    records = validate(plan)["resources"]
    pack = load_pack()
    graph = Graph(records)
    violations: list[Violation] = []
    for policy in pack.ALL_POLICIES:
        level = level_of(policy, pack.DEFAULT_LEVEL, config or {})
        if level is EnforcementLevel.DISABLED:
            continue
        policy_config = policy_settings(policy.name, config or {})
        if isinstance(policy, ResourceValidationPolicy):
            for record in records:
                args = resource_args(record, graph, policy_config)
                violations += run(policy, level, functools.partial(policy.validate, args), record["urn"])
        elif isinstance(policy, StackValidationPolicy):
            stack = stack_args(records, policy_config)
            violations += run(policy, level, functools.partial(policy.validate, stack), None)
    return [_named(v, graph) for v in violations]


def run(
    policy: Any, level: EnforcementLevel, call: Callable[[Callable[..., None]], Any], urn: str | None
) -> list[Violation]:
    """One validation, reported like the engine does, unknowns and not-applicable included."""
    found: list[Violation] = []
    shown = EnforcementLevel.MANDATORY if level is EnforcementLevel.REMEDIATE else level

    def report(message: str, at: str | None = None) -> None:
        found.append(Violation(policy.name, shown.value, message or policy.description, at or urn))

    try:
        result = call(report)
        if inspect.isawaitable(result):
            asyncio.run(_wait(result))
    except UnknownValueError as error:
        found.append(
            Violation(policy.name, EnforcementLevel.ADVISORY.value, f"can't run during preview: {error.message}", urn)
        )
    except NotApplicableError:
        pass
    return found


async def _wait(result: Any) -> None:
    await result


def level_of(policy: Any, pack_default: EnforcementLevel, config: dict[str, Any]) -> EnforcementLevel:
    """--policy-pack-config: `"name": "advisory"` or `"name": {"enforcementLevel": ...}`;
    `"all"` sets every policy's level."""
    for key in (policy.name, "all"):
        entry = config.get(key)
        named = entry.get("enforcementLevel") if isinstance(entry, dict) else entry
        if isinstance(named, str) and named in LEVELS:
            return LEVELS[named]
    return policy.enforcement_level or pack_default


def policy_settings(name: str, config: dict[str, Any]) -> dict[str, Any] | None:
    entry = config.get(name)
    if not isinstance(entry, dict):
        return None
    settings = {k: v for k, v in entry.items() if k != "enforcementLevel"}
    return settings or None


def _named(violation: Violation, graph: Graph) -> Violation:
    record = graph.get(violation.urn)
    if record is None:
        return violation
    return Violation(
        violation.policy, violation.level, violation.message, violation.urn, resource_name(record), record["type"]
    )


# --- the command ----------------------------------------------------------------------------------


def render(violations: list[Violation], plan: dict[str, Any]) -> str:
    """Violations grouped by resource, in plan order (the stack's own last)."""
    order = {r["urn"]: i for i, r in enumerate(plan["resources"])}
    groups: dict[str | None, list[Violation]] = {}
    for v in sorted(violations, key=lambda v: (order.get(v.urn or "", len(order)), v.level != "mandatory", v.policy)):
        groups.setdefault(v.urn, []).append(v)
    lines = []
    for urn, found in groups.items():
        first = found[0]
        lines.append(f"{first.name} ({first.type})" if urn and first.name else (urn or "stack"))
        for v in found:
            lines.append(f"  [{v.level}] {v.policy}: {v.message}")
        lines.append("")
    mandatory = sum(v.mandatory for v in violations)
    advisory = len(violations) - mandatory
    lines.append(
        f"{mandatory} mandatory, {advisory} advisory violation(s) in {len(groups)} resource(s) "
        f"of {len(plan['resources'])} ({plan.get('stack', '?')})"
    )
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m preflight policy", description=__doc__.split("\n\n")[0])
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--stack", help="record stacks/Pulumi.<stack>.yaml and check it")
    source.add_argument("--plan", metavar="FILE", help="check a plan written by `preflight plan --json`")
    p.add_argument("--config", metavar="FILE", help="policy config, as for `pulumi preview --policy-pack-config`")
    return p


def load_plan(args: argparse.Namespace) -> dict[str, Any]:
    if args.plan:
        return read(args.plan)
    return record_stack(args.stack).to_json()  # runs the program under mocks


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        config = read_json(args.config) if args.config else {}
        if not isinstance(config, dict):
            raise PlanError(f"policy config {args.config} must be a JSON object of policy names")
        plan = load_plan(args)
        violations = check_plan(plan, config)
    except PlanError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except RECORD_ERRORS as error:
        return report_record_error(error)
    print(render(violations, plan))
    return 1 if any(v.mandatory for v in violations) else 0
