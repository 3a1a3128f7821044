"""`python -m preflight policy --stack <stack> | --plan FILE [--config FILE]`: run the
policy pack (policy/) over a recorded plan, offline.

Each plan record is handed to the policies the way the engine hands a resource to a
pack: a `ResourceValidationArgs` per resource with its camelCase inputs behind the SDK's
unknown-checking proxy, then one `StackValidationArgs` with every resource, its parent
and its dependencies. Violations are printed grouped by resource; the exit code is 1
on any mandatory violation, 0 otherwise, 2 when the plan, stack or config file is
unusable.

The config (the JSON of `pulumi preview --policy-pack-config`) is checked first, the way
the engine checks it and a little stricter: each key a policy of the pack (or `all`),
each value an enforcement level or an object of that policy's settings, each setting
valid against the policy's config schema (jsonschema) and known to it: a misspelt
setting or policy name would otherwise leave the default in force without a word.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import functools
import inspect
import json
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from jsonschema import Draft7Validator, ValidationError  # type: ignore[import-untyped]
from pulumi_policy import (
    EnforcementLevel,
    PolicyProviderResource,
    PolicyResource,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)

from components.sdk_internals import (
    UNKNOWN_STRING_VALUE,
    NotApplicableError,
    UnknownValueError,
    read_only_unknown_checking_proxy,
    unknown_checking_proxy,
)
from preflight import inputs
from preflight.escape import printable, printable_document
from preflight.pack_import import pack_module
from preflight.plan import RECORD_ERRORS, report_record_error
from preflight.plan import record as record_stack
from preflight.planfile import UNKNOWN, Graph, PlanError, read, resource_name, validate

LEVELS = {level.value: level for level in EnforcementLevel}
LEVEL_NAMES = ", ".join(LEVELS)  # advisory, mandatory, remediate, disabled
ALL = "all"  # the config key that sets every policy's level


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


class Views:
    """Each record's inputs behind the SDK's proxy, built once for a whole run of the pack
    instead of once per policy (the cost of a run over a large plan was mostly building these),
    and the provider's. The proxy refuses writes at every depth, so no policy can change what
    the next one reads, as none could where the engine hands each policy its own copy; the
    options and the provider's record are built per policy, as the engine does (they are cheap)."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self._props: dict[int, Any] = {}

    def _inputs(self, record: dict[str, Any]) -> Any:
        key = id(record)
        if key not in self._props:
            self._props[key] = read_only_unknown_checking_proxy(engine_value(record.get("inputs") or {}))
        return self._props[key]

    def of(self, record: dict[str, Any]) -> tuple[Any, Any, PolicyProviderResource | None]:
        provider = self.graph.provider(record)
        return (
            self._inputs(record),
            options_of(record),
            None
            if provider is None
            else PolicyProviderResource(
                provider["type"], self._inputs(provider), provider["urn"], resource_name(provider)
            ),
        )


def resource_args(
    record: dict[str, Any],
    graph: Graph | None = None,
    config: dict[str, Any] | None = None,
    views: Views | None = None,
) -> ResourceValidationArgs:
    """What a resource policy gets for this record under `pulumi preview` (`views`: shared
    with the other policies of the run, instead of built for this one)."""
    props, options, provider = (
        views.of(record)
        if views is not None
        else (props_of(record), options_of(record), provider_of(record, graph or Graph([])))
    )
    return ResourceValidationArgs(
        record["type"], props, record["urn"], resource_name(record), options, provider, config
    )


def stack_args(
    records: list[dict[str, Any]], config: dict[str, Any] | None = None, views: Views | None = None
) -> StackValidationArgs:
    """What a stack policy gets: every resource, with parent and dependencies resolved."""
    graph = views.graph if views is not None else Graph(records)

    def view(r: dict[str, Any]) -> tuple[Any, Any, PolicyProviderResource | None]:
        return views.of(r) if views is not None else (props_of(r), options_of(r), provider_of(r, graph))

    resources = {}
    for r in records:
        props, options, provider = view(r)
        resources[r["urn"]] = PolicyResource(
            r["type"], props, r["urn"], resource_name(r), options, provider, None, [], {}
        )
    for record in records:
        resource = resources[record["urn"]]
        resource.parent = resources.get(record.get("parent") or "")
        resource.dependencies = [resources[u] for u in graph.depends_on(record)]
    return StackValidationArgs(list(resources.values()), config)


# --- running the policies ----------------------------------------------------------------------


def check_plan(plan: dict[str, Any], config: dict[str, Any] | None = None) -> list[Violation]:
    """Every violation of every enabled policy over the plan (`config`: the same JSON as
    `pulumi preview --policy-pack-config`). Raises PlanError when `plan` is not a plan or
    `config` not a config of this pack."""
    records = validate(plan)["resources"]
    pack = load_pack()
    check_config(config or {}, "policy config")
    graph = Graph(records)
    views = Views(graph)
    applies = pack_module("pack").applies
    violations: list[Violation] = []
    for policy in pack.ALL_POLICIES:
        level = level_of(policy, pack.DEFAULT_LEVEL, config or {})
        if level is EnforcementLevel.DISABLED:
            continue
        policy_config = policy_settings(policy.name, config or {})
        if isinstance(policy, ResourceValidationPolicy):
            for record in records:
                # A policy made for other types returns before it reads anything (policy/pack.py).
                if not applies(policy, record["type"]):
                    continue
                args = resource_args(record, graph, policy_config, views)
                violations += run(policy, level, functools.partial(policy.validate, args), record["urn"])
        elif isinstance(policy, StackValidationPolicy):
            stack = stack_args(records, policy_config, views)
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
    `"all"` sets every policy's level, a policy's own entry wins over it."""
    for key in (policy.name, ALL):
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


# --- the policy config ------------------------------------------------------------------------------


class ConfigError(PlanError):
    """A policy config the engine would refuse (or that would set nothing): exit 2."""


def check_config(config: Any, source: str) -> None:
    """ConfigError with one line (the first problem, and how many more) unless `config` is
    a valid config of this pack."""
    problems = config_problems(config, load_pack().ALL_POLICIES)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ConfigError(f"{source}: {problems[0]}{more}")


def config_problems(config: Any, policies: list[Any]) -> list[str]:
    """One line per problem of a policy config, in the file's order."""
    if not isinstance(config, dict):
        return [f"a policy config is a JSON object of policy names, got {shown(config)}"]
    by_name = {p.name: p for p in policies}
    problems: list[str] = []
    for name, entry in config.items():
        if name == ALL or name in by_name:
            problems += entry_problems(name, entry, by_name.get(name))
        else:
            problems.append(f"no policy {shown(name)} in the pack{did_you_mean(name, by_name)}")
    return problems


def entry_problems(name: str, entry: Any, policy: Any) -> list[str]:
    """A policy's entry: a level, or an object of an optional `enforcementLevel` and settings."""
    if isinstance(entry, str):
        return [] if entry in LEVELS else [f"policy {name}: {shown(entry)} is not an enforcement level ({LEVEL_NAMES})"]
    if not isinstance(entry, dict):
        return [
            f"policy {name}: must be an enforcement level ({LEVEL_NAMES}) or an object of settings, got {shown(entry)}"
        ]
    problems = []
    if "enforcementLevel" in entry and not (
        isinstance(entry["enforcementLevel"], str) and entry["enforcementLevel"] in LEVELS
    ):
        problems.append(
            f"policy {name}: enforcementLevel must be one of {LEVEL_NAMES}, got {shown(entry['enforcementLevel'])}"
        )
    settings = {key: value for key, value in entry.items() if key != "enforcementLevel"}
    schema = dict(policy.config_schema.properties) if policy is not None and policy.config_schema else {}
    for key in settings:
        if key not in schema:
            problems.append(unknown_setting(name, key, schema))
    out_of_range = [
        f"policy {name}, setting {where(path)}: a number out of range ({shown(value)}), which the engine cannot read"
        for path, value in non_finite(settings)
    ]
    if out_of_range:
        return problems + out_of_range
    validator = Draft7Validator({"type": "object", "properties": schema})
    errors = sorted(validator.iter_errors(settings), key=lambda e: [str(p) for p in e.absolute_path])
    problems += [f"policy {name}, setting {where(list(e.absolute_path))}: {expectation(e)}" for e in errors]
    return problems


def unknown_setting(name: str, key: str, schema: dict[str, Any]) -> str:
    if name == ALL:
        return f"{ALL} sets every policy's enforcementLevel and has no setting {shown(key)}"
    if not schema:
        return f"policy {name} has no settings (only enforcementLevel), not {shown(key)}"
    hint = did_you_mean(key, schema) or f" (its settings: {', '.join(schema)})"
    return f"policy {name} has no setting {shown(key)}{hint}"


def did_you_mean(name: str, known: Any) -> str:
    close = difflib.get_close_matches(name[:200], list(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def non_finite(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], float]]:
    """Numbers the engine cannot read (1e999, NaN): Python's JSON reader takes them, Go's does not."""
    if isinstance(value, float) and not math.isfinite(value):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from non_finite(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from non_finite(item, (*path, index))


TYPE_WORDS = {
    "array": "an array",
    "object": "an object",
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "true or false",
    "null": "null",
}


def expectation(error: ValidationError) -> str:
    """What the schema wanted, and what the config has instead."""
    got = f"got {shown(error.instance)}"
    if error.validator == "type":
        wanted = [error.validator_value] if isinstance(error.validator_value, str) else list(error.validator_value)
        return f"must be {' or '.join(TYPE_WORDS.get(str(t), str(t)) for t in wanted)}, {got}"
    if error.validator == "enum":
        return f"must be one of {', '.join(shown(v) for v in error.validator_value)}, {got}"
    if "propertyNames" in error.schema_path:
        # The key itself is wrong (forbiddenRoles is keyed by role definition GUID).
        described = error.schema.get("description") or f"match {shown(error.validator_value)}"
        return f"the key {shown(error.instance)} is not {described}"
    return f"breaks its schema's {error.validator} ({shown(error.validator_value)}), {got}"


def where(path: list[Any] | tuple[Any, ...]) -> str:
    """`disallowedTiers[0]`, `forbiddenRoles["<guid>"]`: the setting and where inside it."""
    if not path:
        return "(all)"
    head, *rest = path
    return printable(str(head))[:80] + "".join(f"[{p}]" if isinstance(p, int) else f"[{shown(p)}]" for p in rest)


def shown(value: Any, limit: int = 60) -> str:
    """A config value in an error line: JSON, escaped, at most `limit` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    text = printable(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_config(path: str) -> Any:
    """The config file as the engine reads it (an empty file is no config), through the input gate."""
    try:
        text = inputs.read_text(path)
        return inputs.load_json(text, path) if text.strip() else {}
    except inputs.InputError as error:
        raise PlanError(str(error)) from None


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
        config = read_config(args.config) if args.config else {}
        check_config(config, args.config or "policy config")
        plan = load_plan(args)
        # Settings reach the messages (an origin, a key): escaped like every value of a plan.
        violations = check_plan(plan, printable_document(config))
    except PlanError as error:
        print(f"error: {printable(str(error))}", file=sys.stderr)
        return 2
    except RECORD_ERRORS as error:
        return report_record_error(error)
    print(render(violations, plan))
    return 1 if any(v.mandatory for v in violations) else 0
