"""Reading IAM-style policy documents: AWS policies (JSON strings with `Statement`) and
GCP IAM policies (`policyData`, JSON with `bindings`).

A document may hold plan placeholders inside its strings (`${role.arn}`): it still
parses, and the statements around them can be checked. A document that is not known
yet, or does not parse because a placeholder stands for part of its structure, is
UNKNOWN: never a violation by itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rules.values import MISSING, TEMPLATE_RE, UNKNOWN, get, is_list, is_map, is_unknown, unchecked


def document(props: Any, *path: str) -> Any:
    """The parsed document at `path`: a dict, UNKNOWN, MISSING, or None when it is not JSON."""
    value = get(props, *path)
    if value in (UNKNOWN, MISSING):
        return value
    if is_map(value):
        return value
    if not isinstance(value, str):
        return None
    try:
        parsed = json.loads(value)
    except ValueError:
        if not TEMPLATE_RE.search(value):
            return None
        unchecked(props, *path)  # a placeholder stands for part of its structure
        return UNKNOWN
    return parsed if is_map(parsed) else None


def listed(value: Any) -> list[Any]:
    """A policy field that is one value or a list of them, as a list."""
    if value in (MISSING, None):
        return []
    if is_list(value):
        return list(value)
    return [value]


def statements(doc: Any) -> list[Any]:
    """The statements of an AWS policy document (one or a list), maps only."""
    if not is_map(doc):
        return []
    return [s for s in listed(doc.get("Statement", MISSING)) if is_map(s)]


def allows(statement: Mapping[str, object]) -> bool:
    return statement.get("Effect") == "Allow"


def public_principal(principal: Any) -> bool:
    """`"*"`, or `{"AWS": "*"}` (any kind of principal listing "*")."""
    if principal == "*":
        return True
    if is_map(principal):
        return any(item == "*" for value in principal.values() for item in listed(value))
    return False


def actions(statement: Any) -> list[str]:
    return [a for a in listed(statement.get("Action", MISSING)) if isinstance(a, str) and not is_unknown(a)]


def bindings(doc: Any) -> list[tuple[Any, list[Any]]]:
    """(role, members) of a GCP IAM policy document."""
    if not is_map(doc):
        return []
    found = []
    for binding in listed(doc.get("bindings", MISSING)):
        if is_map(binding):
            found.append((binding.get("role"), listed(binding.get("members", MISSING))))
    return found
