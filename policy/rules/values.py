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

A check skips what it cannot decide, but not in silence. While pack.py runs a check
(`reading`), every property `get`, `elements`, `strings` or `setting` answers UNKNOWN for
is noted, with its path from the resource; when the check is done, `Reads.raise_if_any`
raises the SDK's UnknownValueError naming them, which the engine (and `preflight policy`)
shows as an advisory next to the violations already reported. Reads that decide nothing
(a name for a message) go in `in_passing()`; a check that decided anyway (one known
good rule among unknown ones) drops what it noted since a `mark()` with `forget`. Reading
a placeholder on purpose (`reference`, `raw`) notes nothing.
"""

from __future__ import annotations

import contextvars
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeGuard

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


def is_map(value: Any) -> TypeGuard[Mapping[Any, Any]]:
    return isinstance(value, Mapping)


def is_list(value: Any) -> TypeGuard[Sequence[Any]]:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def get(node: Any, *path: str | int) -> Any:
    """The value at `path`, UNKNOWN if it (or anything on the way) is not known, MISSING
    if it is not set. An unknown is noted (see `reading`) at the property where it was met."""
    value, depth = _walk(node, path)
    if depth is None:
        return value
    if depth:  # depth 0: `node` itself is unknown, noted where it was read
        _note(node, path[:depth])
    return UNKNOWN


def reference(node: Any, *path: str | int) -> str | None:
    """The text of a value that holds a plan placeholder (`${<name>.<property>}`): it names
    the output feeding it, which a few checks read. None for anything else."""
    value = raw(node, *path)
    if isinstance(value, str) and TEMPLATE_RE.search(value):
        return value
    return None


def raw(node: Any, *path: str | int) -> Any:
    """Like `get`, but the value comes back as it is: a placeholder string stays a string
    (an engine unknown is UNKNOWN or its sentinel: test with `is_unknown`). Notes nothing:
    the caller judges the value."""
    value, depth = _walk(node, path)
    return value if depth is None or depth == len(path) else UNKNOWN


def _walk(node: Any, path: Sequence[str | int]) -> tuple[Any, int | None]:
    """The value at `path` as it is, and where it is not known, how many of the keys lead
    to the unknown value met (None: known, or not set)."""
    depth = 0
    try:
        for depth, key in enumerate(path):
            if is_unknown(node):
                return UNKNOWN, depth
            if isinstance(key, int):
                if not is_list(node) or not -len(node) <= key < len(node):
                    return MISSING, None
            elif not is_map(node) or key not in node:
                return MISSING, None
            node = node[key]
    except UnknownValueError:
        return UNKNOWN, depth + 1
    return node, (len(path) if is_unknown(node) else None)


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


def strings(node: Any) -> list[Any] | Any:
    """A list of strings (UNKNOWN entries kept), or UNKNOWN when the list itself is (the
    `| Any`: UNKNOWN is typed Any, like the property values it stands in for)."""
    if is_unknown(node):
        return UNKNOWN
    return [item if is_unknown(item) else str(item) for item in elements(node)]


class FlatSettings(dict[str, Any]):
    """Flat chart settings (dotted key -> raw value), each key remembering the map and the
    key it was read from, so that an unknown setting is noted at its property's path."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: dict[str, tuple[Any, str | int]] = {}

    def put(self, key: str, value: Any, node: Any, source: str | int) -> None:
        self[key] = value
        self.sources[key] = (node, source)


def flatten(node: Any, prefix: str = "", into: FlatSettings | None = None) -> FlatSettings:
    """{"a": {"b": 1}} -> {"a.b": 1}: the dotted keys of a Helm values tree, with raw leaf
    values. A map that is unknown or empty is kept as a leaf under its own key."""
    out = FlatSettings() if into is None else into
    if not is_map(node):
        return out
    for key in node:
        child = raw(node, key)
        dotted = f"{prefix}.{key}" if prefix else str(key)
        if is_map(child) and child:
            flatten(child, dotted, out)
        else:
            out.put(dotted, child, node, key)
    return out


def setting(settings: Mapping[str, Any], key: str) -> Any:
    """A dotted key of flat chart settings (`flatten`'s output): its raw value, MISSING if
    it is not set, UNKNOWN if a map above it is not known yet (`global` unknown: nothing
    under it can be said to be missing). A value not known (placeholders included) is noted."""
    parts = key.split(".")
    for n in range(1, len(parts)):
        above = ".".join(parts[:n])
        if above in settings and is_unknown(settings[above]):
            _note(settings, (above,))
            return UNKNOWN
    value = settings.get(key, MISSING)
    if value is not MISSING and is_unknown(value):
        _note(settings, (key,))
    return value


def type_is(resource_type: str, *tokens: str) -> bool:
    """Match a type token, ignoring the API-version module suffix of azure-native
    (`azure-native:storage/v20240101:StorageAccount` is a StorageAccount too)."""
    package, _, rest = resource_type.partition(":")
    module, _, name = rest.partition(":")
    if package == "azure-native":
        module = module.split("/")[0]
    return f"{package}:{module}:{name}" in tokens


# --- what a check could not decide ------------------------------------------------------------

Root = tuple[str | None, Any]  # (the resource's name, None for the one a resource check is about; its props)
Keys = tuple[str | int, ...]  # the keys from a map or list down to a value


class UncheckedError(UnknownValueError):
    """The SDK's UnknownValueError (the engine turns it into a "can't run ... during preview"
    advisory), naming every property a check could not decide."""

    def __init__(self, paths: list[str]) -> None:
        super().__init__(UNKNOWN_STRING_VALUE, [])
        shown = paths if len(paths) <= MOST_NAMED else [*paths[:MOST_NAMED], f"and {len(paths) - MOST_NAMED} more"]
        self.paths = paths
        self.message = f"could not check {', '.join(shown)}: unknown until apply; checked again on pulumi up"

    def __str__(self) -> str:
        return self.message


MOST_NAMED = 8  # paths named in one advisory; the rest counted


class Reads:
    """The properties one run of a check read as unknown: (where the read started, the
    keys from there to the unknown value), resolved to paths only when reported."""

    def __init__(self, roots: Callable[[], Iterable[Root]]) -> None:
        self._roots = roots
        self.noted: list[tuple[Any, Keys]] = []
        self.quiet = 0

    def paths(self) -> list[str]:
        """`a.b[0].c` (a stack check: `<resource name>.a.b`), each once, sorted."""
        wanted = {id(node) for node, _ in (_origin(n, k) for n, k in self.noted) if is_map(node) or is_list(node)}
        located = _locations(self._roots(), wanted)
        found = {_resolve(node, keys, located) for node, keys in self.noted}
        return [_spelled(name, keys) for name, keys in sorted(found, key=_order)]

    def raise_if_any(self) -> None:
        if self.noted:
            raise UncheckedError(self.paths())


_READS: contextvars.ContextVar[Reads | None] = contextvars.ContextVar("policy_unknown_reads", default=None)


@contextmanager
def reading(roots: Callable[[], Iterable[Root]]) -> Iterator[Reads]:
    """Note what the check run inside reads as unknown. `roots`: the props of the resources
    it sees. An UnknownValueError escaping the check (a read around `get`) is noted too."""
    reads = Reads(roots)
    token = _READS.set(reads)
    try:
        yield reads
    except UncheckedError:
        raise
    except UnknownValueError as error:
        reads.noted.append((None, tuple(error.props)))
    finally:
        _READS.reset(token)


@contextmanager
def in_passing() -> Iterator[None]:
    """Reads that decide nothing (a name for a message, a fallback): not noted."""
    reads = _READS.get()
    if reads is not None:
        reads.quiet += 1
    try:
        yield
    finally:
        if reads is not None:
            reads.quiet -= 1


def mark() -> int:
    """Where the notes stand, for `forget`."""
    reads = _READS.get()
    return len(reads.noted) if reads is not None else 0


def forget(since: int) -> None:
    """Drop what was noted since `mark()`: the check decided without those values."""
    reads = _READS.get()
    if reads is not None:
        del reads.noted[since:]


def unchecked(node: Any, *path: str | int) -> None:
    """Note that the check could not decide the value at `path` (one it judged unknown itself,
    e.g. a version with a placeholder inside)."""
    _note(node, path)


def _note(node: Any, path: Sequence[str | int]) -> None:
    reads = _READS.get()
    if reads is not None and not reads.quiet:
        reads.noted.append((node, tuple(path)))


def _locations(roots: Iterable[Root], wanted: set[int]) -> dict[int, tuple[Any, str | None, Keys]]:
    """id -> (node, resource name, path) for the maps and lists under the roots, met in one
    walk that ends once every one whose id is `wanted` is met (a stack check's unknowns are
    in a few resources: the rest of the stack is not walked for them).

    This relies on the SDK's proxy handing out the same child object on every access
    (it wraps the whole tree once, up front); tests/components/test_sdk_internals.py checks it."""
    located: dict[int, tuple[Any, str | None, Keys]] = {}
    missing = set(wanted)
    todo: list[tuple[Any, str | None, Keys]] = [(props, name, ()) for name, props in roots] if missing else []
    while todo:
        node, name, path = todo.pop()
        if id(node) in located or not (is_map(node) or is_list(node)):
            continue
        located[id(node)] = (node, name, path)
        missing.discard(id(node))
        if not missing:
            break
        for key in list(node) if is_map(node) else range(len(node)):
            try:
                todo.append((node[key], name, (*path, key)))
            except UnknownValueError:
                continue
    return located


def _origin(node: Any, keys: Keys) -> tuple[Any, Keys]:
    """Where the value `keys` below `node` was read: a flat chart setting's is below the map
    it was read from."""
    while isinstance(node, FlatSettings) and keys and keys[0] in node.sources:
        source, key = node.sources[str(keys[0])]
        node, keys = source, (key, *keys[1:])
    return node, keys


def _resolve(node: Any, keys: Keys, located: dict[int, tuple[Any, str | None, Keys]]) -> tuple[str | None, Keys]:
    """(resource name, path from its props) of the value `keys` below `node`."""
    node, keys = _origin(node, keys)
    found = located.get(id(node))
    if found is not None and found[0] is node:
        return found[1], (*found[2], *keys)
    return None, keys  # not under the props (an escaped error's path is already whole)


def _spelled(name: str | None, keys: Keys) -> str:
    text = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")
    return f"{name}.{text}" if name is not None else text


def _order(found: tuple[str | None, Keys]) -> tuple[str, tuple[tuple[int, str, int], ...]]:
    name, keys = found
    return name or "", tuple((1, "", k) if isinstance(k, int) else (0, k, 0) for k in keys)
