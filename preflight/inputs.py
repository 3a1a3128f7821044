"""The one gate every preflight command reads its files through.

Stack files (YAML) and plans (JSON) come from pull requests, so they are hostile input:
only regular files are read (not /dev/zero, not a named pipe that never ends), up to a
size cap; documents deeper than a cap or that expand past a node budget (YAML alias
bombs) are refused; duplicate mapping keys are an error, as Pulumi itself makes them.
Every refusal is an `InputError` with one line of text; callers turn it into exit 2."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any, ClassVar

import yaml

from config.raw import printable
from preflight.yaml_schema import Ambiguous, resolve_plain, resolve_tagged

MAX_BYTES = 2 * 1024 * 1024  # stack files are a few KB; plans of 500 resources ~1.5 MB
MAX_DEPTH = 64  # deeper than any stack file or plan nests
MAX_NODES = 200_000  # after alias expansion

# libyaml when the wheel has it (about 20x faster on large files), else pure Python.
_YAML_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class InputError(Exception):
    """The file cannot be read as a document we accept (exit code 2). Its text is one
    printable line: a file name or a parser message with a newline or an escape sequence
    is shown escaped."""

    def __init__(self, message: str) -> None:
        super().__init__(printable(message))


def read_text(path: str | Path, max_bytes: int = MAX_BYTES) -> str:
    """The text of a regular file of at most `max_bytes`, or InputError."""
    path = Path(path)
    try:
        info = os.stat(path)
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"cannot read {path}: it is a directory")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"cannot read {path}: not a regular file (a device, pipe or socket)")
    if info.st_size > max_bytes:
        raise InputError(f"cannot read {path}: {info.st_size} bytes, more than the {max_bytes} allowed")
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > max_bytes:  # grew while we read it
        raise InputError(f"cannot read {path}: more than the {max_bytes} bytes allowed")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"cannot read {path}: not UTF-8 text") from None


# The tag this loader gives every plain scalar; its constructor resolves it as the Pulumi CLI
# does (preflight/yaml_schema.py). Not a tag a file can name usefully: spelled out, it resolves
# the same way.
PLAIN_TAG = "tag:anyscale-cloud,2026:plain"


class YamlInt(int):
    """An integer read from a plain scalar, with its spelling in the file (`yaml_text`): a
    message can then say what YAML read ("YAML read 1.30 as the number 1.3"). Equal to,
    and serialised as, the plain int."""

    yaml_text: str


class YamlFloat(float):
    """A float read from a plain scalar, with its spelling in the file (see YamlInt)."""

    yaml_text: str


# Written back out (a test or a tool re-dumping a stack file), they are plain numbers.
for _dumper in {
    yaml.SafeDumper,
    yaml.Dumper,
    getattr(yaml, "CSafeDumper", yaml.SafeDumper),
    getattr(yaml, "CDumper", yaml.Dumper),
}:
    _dumper.add_representer(YamlInt, yaml.representer.SafeRepresenter.represent_int)
    _dumper.add_representer(YamlFloat, yaml.representer.SafeRepresenter.represent_float)


def _spelt(value: Any, text: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    spelt: YamlInt | YamlFloat = YamlInt(value) if isinstance(value, int) else YamlFloat(value)
    spelt.yaml_text = text
    return spelt


class _StrictLoader(_YAML_BASE):  # type: ignore[misc]
    """Safe loading of JSON-shaped data only, and a duplicate key is an error instead of
    'the last one wins'. Plain scalars are resolved as the Pulumi CLI resolves them (YAML
    1.2 booleans and nulls, go-yaml's numbers; forms that two readers could read
    differently refused); `!!binary`, `!!set`, `!!omap`, `!!pairs` and `!!timestamp` are
    refused."""

    # PyYAML's YAML 1.1 resolvers replaced: every plain scalar gets PLAIN_TAG, except the
    # merge key `<<` (go-yaml merges too).
    yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, Any]]]] = {}

    def _refuse(self, node: yaml.Node) -> Any:
        mark = node.start_mark
        raise InputError(
            f"the tag {node.tag} at line {mark.line + 1} is not a JSON value; quote the value or use a list or mapping"
        )

    def _plain(self, node: yaml.ScalarNode) -> Any:
        try:
            text = self.construct_scalar(node)
            return _spelt(resolve_plain(text), text)
        except Ambiguous as error:
            mark = node.start_mark
            raise InputError(f"line {mark.line + 1}, column {mark.column + 1}: {error}") from None

    def _tagged(self, node: yaml.ScalarNode) -> Any:
        if not isinstance(node, yaml.ScalarNode):
            return self._refuse(node)
        try:
            return resolve_tagged(node.tag, self.construct_scalar(node))
        except Ambiguous as error:
            mark = node.start_mark
            raise InputError(f"line {mark.line + 1}, column {mark.column + 1}: {error}") from None

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # `<<: *anchor`: overriding merged keys is what merges are for
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:  # an unhashable key: the base class reports it
                break
            if duplicate:
                mark = key_node.start_mark
                raise InputError(f"duplicate key {key!r} at line {mark.line + 1}, column {mark.column + 1}")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]


_StrictLoader.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^<<$"), ["<"])
_StrictLoader.add_implicit_resolver(PLAIN_TAG, re.compile(r"^.*$", re.DOTALL), None)
_StrictLoader.add_constructor(PLAIN_TAG, _StrictLoader._plain)
for _tag in ("binary", "set", "omap", "pairs", "timestamp"):
    _StrictLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _StrictLoader._refuse)
for _tag in ("int", "float", "bool", "null"):
    _StrictLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _StrictLoader._tagged)


def _check_shape(text: str) -> None:
    """Depth from the event stream (flat, no recursion), then the expanded size."""
    depth = 0
    anchors: dict[str, int] = {}
    open_frames: list[tuple[str | None, int]] = []  # (anchor, nodes counted when it opened)
    nodes = 0
    for event in yaml.parse(text, Loader=_YAML_BASE):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                raise InputError(f"nested deeper than {MAX_DEPTH} levels at line {mark.line + 1}")
            nodes += 1
            open_frames.append((event.anchor, nodes))
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
            anchor, start = open_frames.pop()
            if anchor:
                anchors[anchor] = nodes - start + 1
        elif isinstance(event, yaml.ScalarEvent):
            nodes += 1
            if event.anchor:
                anchors[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            nodes += anchors.get(event.anchor, 1)  # an alias costs what it expands to
        if nodes > MAX_NODES:
            raise InputError(f"expands to more than {MAX_NODES} values (aliases included)")


def load_yaml(text: str, source: str) -> Any:
    """A YAML document through the gate, or InputError naming `source`."""
    try:
        _check_shape(text)
        return yaml.load(text, Loader=_StrictLoader)
    except InputError as error:
        raise InputError(f"{source}: {error}") from None
    except yaml.reader.ReaderError as error:  # a character YAML does not allow, anywhere
        raise InputError(
            f"{source} is not valid YAML (character {error.position + 1}): the character "
            f"U+{error.character if isinstance(error.character, int) else ord(error.character):04X} "
            "is not allowed in YAML; remove it"
        ) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise InputError(f"{source} is not valid YAML{where}: {getattr(error, 'problem', None) or error}") from None
    except ValueError as error:  # e.g. an integer of more digits than Python converts
        raise InputError(f"{source}: a value cannot be read: {error}") from None


def _json_depth(value: Any) -> int:
    """Nesting depth without recursion (json.loads itself recurses, but in C, with a cap)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, level + 1) for child in children)
    return deepest


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputError(f"duplicate key {key!r}")
        out[key] = value
    return out


def load_json(text: str, source: str) -> Any:
    """A JSON document through the gate, or InputError naming `source`."""
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates)
    except InputError as error:
        raise InputError(f"{source}: {error}") from None
    except RecursionError:
        raise InputError(f"{source}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as error:
        raise InputError(f"{source} is not valid JSON: {error}") from None
    if _json_depth(value) > MAX_DEPTH:
        raise InputError(f"{source}: nested deeper than {MAX_DEPTH} levels")
    return value


def read_yaml(path: str | Path) -> Any:
    return load_yaml(read_text(path), str(path))


def read_json(path: str | Path) -> Any:
    return load_json(read_text(path), str(path))
