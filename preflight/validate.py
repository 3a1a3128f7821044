"""`python -m preflight validate <stack file>`: check a stack's config against the spec."""

from __future__ import annotations

import sys
from datetime import date
from typing import Any

from config import Problem, SpecError, StackSpec, advisories, clear_secret_advisories, load_spec
from config.currency import TodayError, parse_day, today
from config.secrets import merge_secrets, missing_required
from preflight.escape import printable
from preflight.stackfile import StackFile, StackFileError, read_stack_file

# Stands in for a secret an imported environment supplies: opaque, like any `secure:`.
FROM_ENVIRONMENT = {"secure": "[from an imported environment]"}


def unseen_secrets(stack: StackFile) -> tuple[Any, list[str]]:
    """The stack's secrets map with each required secret the file lacks filled in, when the
    stack imports ESC environments (which may supply them as `anyscale-cloud:secrets`),
    and one note per value preflight cannot see offline."""
    secrets = stack.project_value("secrets")
    if not stack.environments:
        return secrets, []
    names = ", ".join(stack.environments)
    notes = [
        f"environment: imports {names}: Pulumi ESC merges their values into the config at deploy time; "
        "preflight reads only this file"
    ]
    merged, problems = merge_secrets(stack.project_value("resources"), secrets)
    if problems or not isinstance(secrets, dict | None):
        return secrets, notes  # the spec reports the map's own problems
    filled: dict[Any, Any] = dict(secrets or {})
    for i, name, path in missing_required(merged):
        key = ".".join(path)
        notes.append(
            f"resources[{i}].{key} ({name}): not in this file; expected from {names} as "
            f"anyscale-cloud:secrets.{name}.{key}, which cannot be seen offline"
        )
        entry = filled.setdefault(name, {})
        if isinstance(entry, dict):
            filled[name] = {**entry, key: FROM_ENVIRONMENT}
    return filled, notes


USAGE = "usage: python -m preflight validate [--deploying] [--today YYYY-MM-DD] stacks/Pulumi.<stack>.yaml"


def validate_stack(stack: StackFile, day: date | None = None, deploying: bool = False) -> StackSpec:
    """The spec of a stack file, or SpecError with every problem (unknown keys included).
    `deploying`: as `pulumi up` judges it (config/load.py), a Kubernetes minor refused only
    because its support ended on a past day is an advisory, not a problem."""
    unknown = [
        Problem(
            key,
            None,
            "unknown config key of this project; the keys are anyscale-cloud:cloud, anyscale-cloud:resources "
            "and anyscale-cloud:secrets",
        )
        for key in stack.unknown_project_keys()
    ]
    try:
        spec = load_spec(
            stack.project_value("cloud"),
            stack.project_value("resources"),
            unseen_secrets(stack)[0],
            today=day,
            deploying=deploying,
        )
    except SpecError as error:
        raise SpecError(unknown + error.problems) from None
    if unknown:
        raise SpecError(unknown)
    return spec


def summary(spec: StackSpec) -> str:
    kinds = ", ".join(f"{r.name} ({r.provider}, {r.region})" for r in spec.resources)
    return f"cloud {spec.cloud.name} in {spec.cloud.location}: {len(spec.resources)} cloud resource(s): {kinds}"


def main(argv: list[str]) -> int:
    # `--deploying`: the check a deploy runs right before `pulumi up` (deploy.yml), which must
    # not fail on a date where `pulumi up` itself would only warn; pull requests run without it.
    deploying = "--deploying" in argv
    argv = [arg for arg in argv if arg != "--deploying"]
    # The day versions are judged on (config/currency.py): --today, else ANYSCALE_CLOUD_TODAY,
    # else today's date in UTC.
    try:
        if len(argv) == 3 and argv[0] == "--today":
            day, argv = parse_day(argv[1], "--today"), argv[2:]
        else:
            day = today()
    except TodayError as error:
        print(f"error: {printable(str(error))}", file=sys.stderr)
        return 2
    if len(argv) != 1 or argv[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        stack = read_stack_file(argv[0])
    except StackFileError as error:
        print(f"error: {printable(str(error))}", file=sys.stderr)
        return 2
    for note in unseen_secrets(stack)[1]:
        print(f"note: {printable(note)}", file=sys.stderr)
    try:
        spec = validate_stack(stack, day, deploying)
    except SpecError as error:
        # One line per problem, as docs/troubleshooting.md documents it: the config path
        # (and the resource's name) first; the file is named once, in the count line.
        for problem in error.problems:
            print(problem)
        print(f"{len(error.problems)} problem(s) found in {printable(str(stack.path))}", file=sys.stderr)
        return 1
    # Advisories do not fail the check: stdout keeps its one-line summary, each warning
    # is one line on stderr, config path first, like a problem.
    warnings = clear_secret_advisories(
        stack.project_value("cloud"), stack.project_value("resources"), stack.project_value("secrets")
    )
    for advisory in warnings + advisories(spec, day, deploying=deploying):
        print(f"warning: {advisory}", file=sys.stderr)
    print(f"ok: {summary(spec)}")
    return 0
