"""A resource's secrets by name: `anyscale-cloud:secrets` maps a cloud resource's name to
its secrets, as an alternative to writing them inside `anyscale-cloud:resources`.

Secrets inside the list move when the list is reordered, and a Pulumi ESC environment,
whose merge replaces whole arrays, cannot supply one element's secret; keyed by name they
can come from an environment's `pulumiConfig`. Each secret is given in one place only.
The map is put into the resources before validation, so every rule and message is the
spec's own.
"""

from __future__ import annotations

import copy
from typing import Any

KEY = "anyscale-cloud:secrets"
# The secrets of a cloud resource, as paths inside it (Generic: kubeconfig, cliToken; any
# S3-compatible bucket: its keys).
SECRET_PATHS: tuple[tuple[str, ...], ...] = (
    ("kubeconfig",),
    ("cliToken",),
    ("storage", "credentials", "accessKeyId"),
    ("storage", "credentials", "secretAccessKey"),
)
# The secrets a Generic resource must have, wherever they come from.
REQUIRED_GENERIC: tuple[tuple[str, ...], ...] = (("kubeconfig",), ("cliToken",))
LISTED = ", ".join(".".join(p) for p in SECRET_PATHS)


def _leaves(value: Any, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """(path, value) of every secret under `value`; a `{secure: ...}` map is one value."""
    if isinstance(value, dict) and value and set(value) != {"secure"}:
        return [leaf for key, child in value.items() for leaf in _leaves(child, (*prefix, str(key)))]
    return [(prefix, value)]


def _get(node: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _put(node: dict[str, Any], path: tuple[str, ...], value: Any) -> bool:
    """Set `path` in `node`, creating the maps on the way; False when a value on the way is
    not a map (the spec then reports that value)."""
    for key in path[:-1]:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            return False
        node = child
    node[path[-1]] = value
    return True


def merge_secrets(resources: Any, secrets: Any) -> tuple[Any, list[tuple[str, str | None, str]]]:
    """`resources` with the map's secrets put in place (a copy; the input is untouched),
    and the problems of the map as (config path, resource name, message)."""
    if secrets is None or not isinstance(resources, list):
        return resources, []
    if not isinstance(secrets, dict):
        return resources, [("secrets", None, "must be a map of cloud resource names to their secrets")]
    merged = copy.deepcopy(resources)
    index: dict[str, int] = {}
    for i, resource in enumerate(merged):
        if isinstance(resource, dict) and isinstance(resource.get("name"), str):
            index.setdefault(resource["name"], i)
    problems: list[tuple[str, str | None, str]] = []
    for name, given in secrets.items():
        where = f"secrets.{name}"
        if name not in index:
            names = ", ".join(index) or "none"
            problems.append((where, None, f"no cloud resource is named {name!r} (the names are: {names})"))
            continue
        if not isinstance(given, dict) or set(given) == {"secure"}:
            problems.append((where, str(name), f"must be a map of the resource's secrets ({LISTED})"))
            continue
        i = index[name]
        for path, value in _leaves(given):
            at = f"{where}.{'.'.join(path)}"
            if path not in SECRET_PATHS:
                problems.append((at, str(name), f"is not a secret of a cloud resource; the secrets are {LISTED}"))
            elif _get(resources[i], path) is not None:
                problems.append(
                    (
                        at,
                        str(name),
                        f"is also given inline at resources[{i}].{'.'.join(path)}: keep one of the two "
                        "(this map lets a Pulumi ESC environment supply it)",
                    )
                )
            else:
                _put(merged[i], path, value)
    return merged, problems


def missing_required(resources: Any) -> list[tuple[int, str, tuple[str, ...]]]:
    """(index, name, path) of each secret a Generic resource lacks, after the merge."""
    if not isinstance(resources, list):
        return []
    return [
        (i, str(r.get("name")), path)
        for i, r in enumerate(resources)
        if isinstance(r, dict) and r.get("provider") == "Generic"
        for path in REQUIRED_GENERIC
        if _get(r, path) is None
    ]
