"""Reading properties the way the engine hands them to a policy, unknown values included.

A value may not be known yet:
- in a real `pulumi preview`, as one of the engine's unknown sentinels, which the SDK's
  proxy turns into `UnknownValueError` on access (the whole policy would then be
  skipped with a "can't run during preview" note, so we catch it per value), or as None;
- in a preflight plan, as a string made of a `${<name>.<property>}` placeholder.

`get` answers UNKNOWN for all of these, and MISSING for a property that is not set.
A string that is only partly a placeholder (`https://acct${suffix}.blob...`) is known
around the placeholder: `sample` stands in a plain token for each placeholder so that
the known parts can still be checked (a trailing slash, a sub-path, a scheme).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pulumi_policy.proxy import (
    UNKNOWN_ARCHIVE_VALUE,
    UNKNOWN_ARRAY_VALUE,
    UNKNOWN_ASSET_VALUE,
    UNKNOWN_BOOLEAN_VALUE,
    UNKNOWN_NUMBER_VALUE,
    UNKNOWN_OBJECT_VALUE,
    UNKNOWN_STRING_VALUE,
    UnknownValueError,
)

SENTINELS = frozenset(
    {
        UNKNOWN_BOOLEAN_VALUE,
        UNKNOWN_NUMBER_VALUE,
        UNKNOWN_STRING_VALUE,
        UNKNOWN_ARRAY_VALUE,
        UNKNOWN_ASSET_VALUE,
        UNKNOWN_ARCHIVE_VALUE,
        UNKNOWN_OBJECT_VALUE,
        "<unknown>",  # how a preflight plan spells the engine's unknown
    }
)
TEMPLATE_RE = re.compile(r"\$\{[^}]*\}")
# Lowercase letters and digits: valid inside a host, bucket, account or region name.
PLACEHOLDER = "x0"


class _Marker:
    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return self._name


UNKNOWN: Any = _Marker("UNKNOWN")
MISSING: Any = _Marker("MISSING")


def is_unknown(value: Any) -> bool:
    if value is None or value is UNKNOWN:
        return True
    return isinstance(value, str) and (value in SENTINELS or TEMPLATE_RE.fullmatch(value) is not None)


def is_map(value: Any) -> bool:
    return isinstance(value, Mapping)


def is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def get(node: Any, *path: str | int) -> Any:
    """The value at `path`, UNKNOWN if it (or anything on the way) is not known, MISSING
    if it is not set."""
    value = raw(node, *path)
    return UNKNOWN if is_unknown(value) else value


def reference(node: Any, *path: str | int) -> str | None:
    """The text of a value that holds a plan placeholder (`${<name>.<property>}`): it names
    the output feeding it, which a few checks read. None for anything else."""
    value = raw(node, *path)
    if isinstance(value, str) and TEMPLATE_RE.search(value):
        return value
    return None


def raw(node: Any, *path: str | int) -> Any:
    """Like `get`, but the value comes back as it is: a placeholder string stays a string
    (an engine unknown is UNKNOWN or its sentinel: test with `is_unknown`)."""
    try:
        for key in path:
            if is_unknown(node):
                return UNKNOWN
            if isinstance(key, int):
                if not is_list(node) or not -len(node) <= key < len(node):
                    return MISSING
            elif not is_map(node) or key not in node:
                return MISSING
            node = node[key]
    except UnknownValueError:
        return UNKNOWN
    return node


def elements(node: Any) -> list[Any]:
    """The items of a list, each one UNKNOWN where not known ([] for anything else)."""
    if not is_list(node):
        return []
    return [get(node, index) for index in range(len(node))]


def keys(node: Any) -> list[str]:
    return list(node) if is_map(node) else []


def sample(value: str) -> str:
    """The string with a plain token for each placeholder: only its known parts can fail
    a check afterwards."""
    return TEMPLATE_RE.sub(PLACEHOLDER, value)


def could_be(value: str, candidates: Sequence[str]) -> bool:
    """Could `value`, once its placeholders are known, equal one of `candidates`? Its known
    parts must appear in order and a placeholder may stand for any text: an origin
    `http://${x}` or `https://${x}.example.com` can never be the console's, and is judged
    by those parts rather than skipped."""
    pieces = TEMPLATE_RE.split(value)
    pattern = re.compile(".*".join(re.escape(piece) for piece in pieces), re.DOTALL)
    return any(pattern.fullmatch(candidate) for candidate in candidates)


def strings(node: Any) -> list[Any]:
    """A list of strings (UNKNOWN entries kept), or UNKNOWN when the list itself is."""
    if is_unknown(node):
        return UNKNOWN
    return [item if is_unknown(item) else str(item) for item in elements(node)]


def flatten(node: Any, prefix: str = "") -> dict[str, Any]:
    """{"a": {"b": 1}} -> {"a.b": 1}: the dotted keys of a Helm values tree, with raw leaf
    values. A map that is unknown or empty is kept as a leaf under its own key."""
    if not is_map(node) or not node:
        return {prefix: node} if prefix else {}
    out: dict[str, Any] = {}
    for key in node:
        child = raw(node, key)
        out.update(flatten(child, f"{prefix}.{key}" if prefix else str(key)))
    return out


def setting(settings: Mapping[str, Any], key: str) -> Any:
    """A dotted key of flat chart settings (`flatten`'s output): its raw value, MISSING if
    it is not set, UNKNOWN if a map above it is not known yet (`global` unknown: nothing
    under it can be said to be missing)."""
    parts = key.split(".")
    for n in range(1, len(parts)):
        above = ".".join(parts[:n])
        if above in settings and is_unknown(settings[above]):
            return UNKNOWN
    return settings.get(key, MISSING)


def type_is(resource_type: str, *tokens: str) -> bool:
    """Match a type token, ignoring the API-version module suffix of azure-native
    (`azure-native:storage/v20240101:StorageAccount` is a StorageAccount too)."""
    package, _, rest = resource_type.partition(":")
    module, _, name = rest.partition(":")
    if package == "azure-native":
        module = module.split("/")[0]
    return f"{package}:{module}:{name}" in tokens
