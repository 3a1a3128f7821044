"""How a policy of the anyscale-cloud pack is declared: `policy(...)`, the one
constructor behind every entry of `policies.ALL_POLICIES`.

A declaration carries everything about its policy in one place: the name (also the
anchor of its section in docs/policies.md, which `python -m policy.reference` writes
from the pack), what it checks, its enforcement level and severity, how to fix a
violation, its settings (JSON schema properties, each with a default and a
description) and the check itself. The engine shows the description, severity,
remediation steps and URL with every violation (Pulumi Cloud too).

A check is a plain function over what the engine hands the policy and the policy's
settings (the schema's defaults, overridden by `--policy-pack-config`):
- a resource check `(args, settings) -> messages`, run for every resource or, with
  `on=`, only for resources of those types (azure-native API-version modules included);
- a stack check `(args, settings) -> (urn, message) pairs`, run once over the stack.

A value a preview does not know yet is never a violation, nor skipped in silence: the
properties a check read as unknown (rules/values.py notes them) are named, once the check
has reported its violations, in an UnknownValueError, which the engine shows as the
advisory "can't run policy ... during preview: could not check <paths>: ...". A stack
check's paths start with the resource's name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pulumi_policy import (
    EnforcementLevel,
    PolicyConfigSchema,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    Severity,
    StackValidationArgs,
    StackValidationPolicy,
)
from rules.values import reading, type_is

# Where each policy's section is read: DOCS_URL#<policy name>.
REPOSITORY = "https://github.com/anyscale/anyscale-cloud"
DOCS_URL = f"{REPOSITORY}/blob/main/docs/policies.md"

MANDATORY = EnforcementLevel.MANDATORY
ADVISORY = EnforcementLevel.ADVISORY
LOW, MEDIUM, HIGH, CRITICAL = Severity.LOW, Severity.MEDIUM, Severity.HIGH, Severity.CRITICAL

# A policy name is its docs anchor as GitHub makes it from a heading: lowercase words and hyphens.
NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

Settings = dict[str, Any]
ResourceCheck = Callable[[ResourceValidationArgs, Settings], Iterable[str]]
StackCheck = Callable[[StackValidationArgs, Settings], Iterable[tuple[str | None, str]]]
Policy = ResourceValidationPolicy | StackValidationPolicy


def url_of(name: str) -> str:
    return f"{DOCS_URL}#{name}"


def settings_of(
    args: ResourceValidationArgs | StackValidationArgs, schema: Mapping[str, Mapping[str, Any]]
) -> Settings:
    """The policy's settings: its schema's defaults, overridden by the given config."""
    config = {name: spec["default"] for name, spec in schema.items()}
    config.update(dict(args.get_config() or {}))
    return config


def policy(
    name: str,
    description: str,
    *,
    level: EnforcementLevel,
    severity: Severity,
    remediation: str,
    check: ResourceCheck | None = None,
    on: tuple[str, ...] = (),
    stack_check: StackCheck | None = None,
    settings: Mapping[str, Mapping[str, Any]] | None = None,
) -> Policy:
    """One policy of the pack: a resource policy with `check` (and `on`), a stack
    policy with `stack_check`."""
    if not NAME_RE.fullmatch(name):
        raise ValueError(f"policy name {name!r}: lowercase words joined by '-' (it is the docs anchor)")
    if (check is None) == (stack_check is None):
        raise ValueError(f"policy {name}: give exactly one of check= and stack_check=")
    if on and check is None:
        raise ValueError(f"policy {name}: on= filters resources, a stack check sees them all")
    if level not in (MANDATORY, ADVISORY):
        raise ValueError(f"policy {name}: the pack's own levels are mandatory or advisory (config may change them)")
    if not description.strip() or not remediation.strip():
        raise ValueError(f"policy {name}: a description and remediation steps are required")
    schema = {key: dict(spec) for key, spec in (settings or {}).items()}
    for key, spec in schema.items():
        if "default" not in spec or not spec.get("description"):
            raise ValueError(f"policy {name}: setting {key} needs a default and a description")
    common: dict[str, Any] = {
        "name": name,
        "description": description,
        "enforcement_level": level,
        "config_schema": PolicyConfigSchema(properties=schema) if schema else None,
        "severity": severity,
        "remediation_steps": remediation,
        "url": url_of(name),
    }
    if check is not None:
        made = ResourceValidationPolicy(validate=_resource_validate(check, on, schema), **common)
        setattr(made, TYPES_ATTRIBUTE, on)  # an attribute the SDK's class does not declare
        return made
    assert stack_check is not None
    return StackValidationPolicy(validate=_stack_validate(stack_check, schema), **common)


TYPES_ATTRIBUTE = "_anyscale_resource_types"  # a resource policy's `on`, kept on the policy itself


def applies(policy: Any, resource_type: str) -> bool:
    """Whether a resource policy of this pack can report anything for a resource of this
    type: one made `on` other types returns before it reads anything else, so a runner may
    skip it (`preflight policy` does; the engine calls it and gets nothing)."""
    on: tuple[str, ...] = getattr(policy, TYPES_ATTRIBUTE, ())
    return not on or type_is(resource_type, *on)


def _resource_validate(
    check: ResourceCheck, on: tuple[str, ...], schema: Mapping[str, Mapping[str, Any]]
) -> Callable[[ResourceValidationArgs, ReportViolation], None]:
    def validate(args: ResourceValidationArgs, report: ReportViolation) -> None:
        if on and not type_is(args.resource_type, *on):
            return
        with reading(lambda: [(None, args.props)]) as reads:
            for message in check(args, settings_of(args, schema)):
                report(message, None)
        reads.raise_if_any()

    return validate


def _stack_validate(
    check: StackCheck, schema: Mapping[str, Mapping[str, Any]]
) -> Callable[[StackValidationArgs, ReportViolation], None]:
    def validate(args: StackValidationArgs, report: ReportViolation) -> None:
        with reading(lambda: [(r.name, r.props) for r in args.resources]) as reads:
            for urn, message in check(args, settings_of(args, schema)):
                report(message, urn)
        reads.raise_if_any()

    return validate


def array_of_strings(default: list[str], description: str, enum: list[str] | None = None) -> dict[str, Any]:
    """A setting that is a list of strings (optionally from `enum`)."""
    items: dict[str, Any] = {"type": "string", **({"enum": enum} if enum else {})}
    return {"type": "array", "items": items, "default": default, "description": description}


def stack_resources(args: StackValidationArgs) -> list[Any]:
    return list(args.resources)
