"""Which input values each policy read: the watch behind the sweeps that change one input
value at a time (tests/policy/test_policy_unknowns.py, test_policy_messages.py) and re-run,
for each change, only the policies that read what changed.

The policies are pure functions of what they are handed. A policy that never read a value ran
the same as it would have with anything else in its place (every step of its run got the same
answer), so it cannot report anything else when only that value changes: a sweep compares what
the policies that read it report, and keeps what the others reported as recorded.

How a read is seen: the SDK's proxy wraps a record's inputs whole, up front, so every map and
list in them is a proxy object of its own, built once. `Watch.add` turns each into a watching
subclass of the read-only proxy `preflight policy` shares between the policies of a run (a
policy can write into none of them), which notes, while `Watch.reading` is on:
- a value read: its map's or list's `__getitem__` with that key. `get`, `in`, `items`,
  `values`, `==`, a list's iteration and `index` all read through it (the Mapping and
  Sequence mixins), and so does the pack's own walk (policy/rules/values.py);
- a map's keys or a list's length read (`__iter__`, `__len__`, a list index out of range, a
  slice): what deleting a key changes;
- the whole map or list taken around those (its target, `vars`, copy, deepcopy, pickle): every
  value and key directly in it (a map or list below it is a watched proxy in turn).
A read of a proxy the watch was not given (a copy of one) counts as a read of everything.
The resource options a policy gets are an object: `Watch.add_attributes` notes each attribute
read of it (its `vars`, copy or pickle: all of them).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from components.sdk_internals import DictProxy, UnknownValueError, read_only_unknown_checking_proxy

Path = tuple[str | int, ...]

_READ_ONLY_MAP: type = type(read_only_unknown_checking_proxy({}))
_LIST: type = type(read_only_unknown_checking_proxy({"list": []})["list"])
_SHAPE = object()  # the keys of a map, the length of a list
_WHOLE = object()  # the map or list itself, around its proxy's reads
# What reaches a proxy's contents without its Mapping or Sequence methods.
_INDIRECT = frozenset(
    {
        "_DictProxy__target",
        "_ListProxy__target",
        "__dict__",
        "__reduce__",
        "__reduce_ex__",
        "__getstate__",
        "__copy__",
        "__deepcopy__",
    }
)


class _Log:
    """The reads of the run being watched, as (id of the proxy, key or _SHAPE or _WHOLE);
    `quiet` while a proxy's own method runs (its way to its target is no read of the whole)."""

    entries: list[tuple[int, Any]] | None = None
    quiet = 0


def _note(node: object, what: Any) -> None:
    if _Log.entries is not None and not _Log.quiet:
        _Log.entries.append((id(node), what))


def _quietly(read: Any, *args: Any) -> Any:
    """A proxy's own method, run quiet: its way to its target is no read of the whole."""
    _Log.quiet += 1
    try:
        return read(*args)
    finally:
        _Log.quiet -= 1


def _watching_proxy(name: str, proxy: type, keys: bool) -> type:
    """`proxy` (one class, so that a proxy's class can be swapped for it), noting a value read
    (`__getitem__`), its length read (`__len__`) and, for a map (`keys`), its keys read
    (`__iter__`): a list's iteration is the Sequence mixin's, one `__getitem__` per item.
    `name`: the module-level name it is bound to, where pickle finds it."""

    class Watched(proxy):  # type: ignore[misc,valid-type]
        def __getattribute__(self, name: str) -> Any:
            if name in _INDIRECT:
                _note(self, _WHOLE)
            return super().__getattribute__(name)

        def __getitem__(self, key: Any) -> Any:
            _note(self, _WHOLE if key == "__target" else key)
            return _quietly(super().__getitem__, key)

        def __len__(self) -> int:
            _note(self, _SHAPE)
            return _quietly(super().__len__)  # type: ignore[no-any-return]

        if keys:

            def __iter__(self) -> Iterator[Any]:
                _note(self, _SHAPE)
                return _quietly(super().__iter__)  # type: ignore[no-any-return]

    Watched.__name__ = Watched.__qualname__ = name
    return Watched


_WatchedMap = _watching_proxy("_WatchedMap", _READ_ONLY_MAP, keys=True)
_WatchedList = _watching_proxy("_WatchedList", _LIST, keys=False)


@functools.cache
def _watching(cls: type) -> type:
    """`cls`, noting each attribute read of its instances."""

    class Watched(cls):  # type: ignore[misc]
        def __getattribute__(self, name: str) -> Any:
            _note(self, _WHOLE if name in _INDIRECT else name)
            return super().__getattribute__(name)

    return Watched


@dataclass
class Reads:
    """What one run read: the paths of the values (`values`), of the maps and lists whose keys
    or length (`shapes`) or whole contents (`wholes`) it read; `everything` when it read a
    proxy the watch does not know."""

    values: set[Path] = field(default_factory=set)
    shapes: set[Path] = field(default_factory=set)
    wholes: set[Path] = field(default_factory=set)
    everything: bool = False

    def sees(self, path: Path, deleted: bool = False) -> bool:
        """Whether the run could have gone otherwise with the value at `path` changed (its key
        deleted, when `deleted`)."""
        parent = path[:-1]
        return self.everything or path in self.values or parent in self.wholes or (deleted and parent in self.shapes)

    def __bool__(self) -> bool:
        return self.everything or bool(self.values or self.shapes or self.wholes)


class Watch:
    """The proxies of one or more records' inputs, each map and list by its path (and objects
    whose attributes are watched)."""

    def __init__(self) -> None:
        # id -> (the proxy or object, kept alive so that its id stays its own; its path; what it
        # is: None for a map, a list's length, an object's own class)
        self._nodes: dict[int, tuple[Any, Path, int | type | None]] = {}

    def add(self, props: Any, prefix: Path = ()) -> None:
        """Watch every map and list of `props` (the SDK's proxy of a record's inputs), each
        noted at its path after `prefix`."""
        todo: list[tuple[Any, Path]] = [(props, prefix)]
        while todo:
            node, path = todo.pop()
            is_map, is_list = isinstance(node, DictProxy), isinstance(node, _LIST)  # (not narrowed: Any)
            if not (is_map or is_list):
                continue
            keys: list[Any] = list(node) if is_map else list(range(len(node)))
            self._nodes[id(node)] = (node, path, None if is_map else len(keys))
            for key in keys:
                try:
                    todo.append((node[key], (*path, key)))
                except UnknownValueError:
                    continue  # an engine unknown: a leaf
            node.__class__ = _WatchedMap if is_map else _WatchedList

    def add_attributes(self, obj: Any, prefix: Path) -> None:
        """Watch the attributes read of `obj`, each noted at (*prefix, its name)."""
        cls: type = type(obj)
        self._nodes[id(obj)] = (obj, prefix, cls)
        obj.__class__ = _watching(cls)

    def stop(self) -> None:
        """The proxies as `preflight policy` shares them again (read-only, not watched), the
        objects as they were: what reads them from now on runs without the watch's cost."""
        for node, _, kind in self._nodes.values():
            node.__class__ = _READ_ONLY_MAP if kind is None else _LIST if isinstance(kind, int) else kind
        self._nodes.clear()

    @contextmanager
    def reading(self) -> Iterator[Reads]:
        """The reads of the watched proxies while the block runs (filled in when it ends)."""
        reads = Reads()
        entries: list[tuple[int, Any]] = []
        outer, _Log.entries = _Log.entries, entries
        try:
            yield reads
        finally:
            _Log.entries = outer
            for node_id, what in entries:
                self._resolve(node_id, what, reads)

    def _resolve(self, node_id: int, what: Any, reads: Reads) -> None:
        known = self._nodes.get(node_id)
        if known is None:
            reads.everything = True
            return
        _, path, length = known
        if what is _WHOLE:
            reads.wholes.add(path)
        elif what is _SHAPE:
            reads.shapes.add(path)
        elif length is None or isinstance(length, type):  # a map's key, an object's attribute
            reads.values.add((*path, what))
        elif isinstance(what, int) and -length <= what < length:
            reads.values.add((*path, what % length))
        elif isinstance(what, slice):
            reads.shapes.add(path)
            reads.values.update((*path, index) for index in range(*what.indices(length)))
        else:  # out of range: what the list's length decides
            reads.shapes.add(path)
