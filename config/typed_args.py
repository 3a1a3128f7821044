"""The component's typed arguments (components/args.py), generated from the spec's models,
so that the stack config's shape is written once: `AnyscaleCloudArgs` and one TypedDict per
object of the config, with each field's description as its docstring (the component
package's schema takes its descriptions from them).

`make generate` writes it (scripts/generate.py); `make test` fails while it is stale.

The source is the stack file's JSON Schema (config/schema.py), read from the models. Keys
are the models' Python field names: the provider host maps them to the camelCase schema
names, which are the stack file's keys. A cloud resource is one of four models, told apart
by `provider`; its TypedDict is their union, field by field (an object field that differs
by provider, such as `cluster`, becomes one TypedDict with every provider's keys), and the
spec decides at construction which keys a provider takes, with the same messages as
`preflight validate`.

Every field is a plain value except the secrets (config/secrets.py) and the values that only
reach a resource property (the spec's `Deferrable` fields, marked in its JSON Schema), which
are `pulumi.Input[...]`: the structure decides which resources are declared and is checked by
the spec before any is, so it must be known when the program runs; a secret is only passed
through, and a Deferrable value is checked once known (config/deferred.py).
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field
from typing import Any

from pydantic.alias_generators import to_camel, to_snake

from config.reference import shown
from config.schema import NAMESPACE, schema
from config.types import INPUT_MARK, SECRET_JSON_SCHEMA

DEFAULT_FILE = "components/args.py"
COMMAND = "make generate"
RESOURCE_MODELS = ("AzureResource", "AwsResource", "GcpResource", "GenericResource")
SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
# The TypedDict of an object field is named after the field (`cluster` -> ClusterConfig,
# `nodePools` -> NodePoolConfig); these fields' names would mislead or collide.
TYPE_NAMES = {
    ("CloudResourceConfig", "addons"): "AddonsConfig",
    ("CloudConfig", "adopt"): "CloudAdoptConfig",
    ("CloudResourceConfig", "adopt"): "CloudResourceAdoptConfig",
    ("AddonsConfig", "kuberay"): "KubeRayConfig",
    ("ResourceSecretsConfig", "storage"): "StorageSecretsConfig",
    ("StorageSecretsConfig", "credentials"): "CredentialsSecretsConfig",
}


class SchemaShapeError(Exception):
    """A schema form the generator does not know: extend it rather than guess."""


@dataclass
class Field:
    name: str  # the Python key (snake_case)
    annotation: str
    required: bool
    doc: str
    # A closed set (a pydantic Literal, or one `provider` per model): its values, which the
    # component package's schema serves as an enum type (components/package_schema.py).
    choices: tuple[str, ...] = ()


@dataclass
class TypedDictDef:
    name: str
    doc: str
    fields: dict[str, Field] = field(default_factory=dict)


class Generator:
    def __init__(self, document: dict[str, Any]) -> None:
        self.defs: dict[str, Any] = document["$defs"]
        self.config: dict[str, Any] = document["properties"]["config"]["properties"]
        self.types: dict[str, TypedDictDef] = {}
        self.order: list[str] = []
        # Which schema objects each generated name stands for: one name, one shape.
        self.sources: dict[str, tuple[str, ...]] = {}

    # --- naming ---------------------------------------------------------------------------

    def type_name(self, owner: str, key: str, item: bool = False) -> str:
        """`owner.key`'s TypedDict; `item`: of the items of a list (`nodePools` -> NodePoolConfig)."""
        if (owner, key) in TYPE_NAMES:
            return TYPE_NAMES[(owner, key)]
        base = key
        if item:
            base = re.sub(r"ies$", "y", key) if key.endswith("ies") else re.sub(r"(?<!s)s$", "", key)
        return base[0].upper() + base[1:] + "Config"

    # --- types ----------------------------------------------------------------------------

    def define(self, name: str, objects: list[tuple[str, dict[str, Any]]], doc: str) -> str:
        """The TypedDict `name` for the union of `objects` ((label, object schema) pairs);
        the label names the provider where they differ."""
        source = tuple(sorted({label_key(label, obj) for label, obj in objects}))
        if name in self.sources:
            if self.sources[name] != source:
                raise SchemaShapeError(
                    f"{name} would stand for {self.sources[name]} and {source}: add a TYPE_NAMES entry"
                )
            return name
        self.sources[name] = source
        typed = TypedDictDef(name, doc)
        self.types[name] = typed
        keys: list[str] = []
        for _, obj in objects:
            for key in obj.get("properties", {}):
                if key not in keys:
                    keys.append(key)
        for key in keys:
            holders = [(label, obj) for label, obj in objects if key in obj.get("properties", {})]
            props = [(label, obj["properties"][key]) for label, obj in holders]
            # Required only where every model has it, and requires it.
            required = len(holders) == len(objects) and all(key in obj.get("required", []) for _, obj in holders)
            annotation = self.annotation(name, key, props)
            docs = self.field_doc(key, props, len(objects))
            py = python_key(key)
            typed.fields[py] = Field(py, annotation, required, docs, closed_set([prop for _, prop in props]))
        self.order.append(name)
        return name

    def annotation(self, owner: str, key: str, props: list[tuple[str, dict[str, Any]]]) -> str:
        shapes = [(label, unwrap_null(prop)) for label, prop in props]
        if all(is_secret(shape) for _, shape in shapes):
            return "pulumi.Input[str]"
        refs = [(label, self.resolve(shape)) for label, shape in shapes]
        if any(obj is not None for _, obj in refs) and not all(obj is not None for _, obj in refs):
            # An object for one provider, a scalar for another (`cluster.network`: AKS's
            # network settings, GKE's VPC name): one key, no one type. The spec checks it.
            return "Any"
        if all(obj is not None for _, obj in refs):
            objects = [(label, obj) for label, obj in refs if obj is not None]
            doc = first_doc([obj for _, obj in objects])
            return self.define(self.type_name(owner, key), objects, doc)
        items = [(label, self.resolve(unwrap_null(shape["items"]))) for label, shape in shapes if "items" in shape]
        if len(items) == len(shapes) and all(obj is not None for _, obj in items):
            objects = [(label, obj) for label, obj in items if obj is not None]
            name = self.type_name(owner, key, item=True)
            return f"Sequence[{self.define(name, objects, first_doc([obj for _, obj in objects]))}]"
        kinds = {self.kind(owner, key, shape) for _, shape in shapes}
        return kinds.pop() if len(kinds) == 1 else "Any"

    def resolve(self, shape: dict[str, Any]) -> dict[str, Any] | None:
        """The object schema behind a `$ref` (or inline object with properties), else None."""
        if "$ref" in shape:
            target: dict[str, Any] = self.defs[shape["$ref"].rsplit("/", 1)[1]]
            return target
        if shape.get("type") == "object" and "properties" in shape:
            return shape
        return None

    def kind(self, owner: str, key: str, shape: dict[str, Any]) -> str:
        if shape.get(INPUT_MARK):
            # A value that only flows into a resource property (config.types.Deferrable).
            return f"pulumi.Input[{self.kind(owner, key, {k: v for k, v in shape.items() if k != INPUT_MARK})}]"
        if "enum" in shape or "const" in shape:
            return "str"
        kind = shape.get("type")
        if isinstance(kind, str) and kind in SCALARS:
            return SCALARS[kind]
        if kind == "array":
            items = unwrap_null(shape["items"])
            obj = self.resolve(items)
            if obj is not None:
                return f"Sequence[{self.define(self.type_name(owner, key, item=True), [('', obj)], first_doc([obj]))}]"
            return f"Sequence[{self.kind(owner, key, items)}]"
        if kind == "object" and isinstance(shape.get("additionalProperties"), dict):
            return f"Mapping[str, {self.kind(owner, key, shape['additionalProperties'])}]"
        if kind == "object" and shape.get("additionalProperties", True) is True and "properties" not in shape:
            return "Mapping[str, Any]"  # free-form (a chart's values)
        raise SchemaShapeError(f"{owner}.{key}: unknown schema form {sorted(shape)}")

    def field_doc(self, key: str, props: list[tuple[str, dict[str, Any]]], models: int) -> str:
        texts: list[tuple[str, str]] = []
        for label, prop in props:
            text = describe(prop)
            if text and all(text != t for _, t in texts):
                texts.append((label, text))
        if not texts:
            return self.fallback_doc([prop for _, prop in props])
        if len(texts) == 1:
            text = texts[0][1]
            only = [label for label, _ in props if label]
            if only and len(props) < models:
                return f"{', '.join(only)} only: {text}"
            return text
        return "; ".join(f"{label}: {text}" if label else text for label, text in texts)

    def fallback_doc(self, props: list[dict[str, Any]]) -> str:
        """For a field the models leave undescribed: its choices (`provider`, one per model),
        its object's description, or that it is a secret."""
        shapes = [unwrap_null(prop) for prop in props]
        consts = [shape["const"] for shape in shapes if "const" in shape]
        if consts and len(consts) == len(shapes):
            return "one of " + ", ".join(f"`{c}`" for c in consts)
        if all(is_secret(shape) for shape in shapes):
            return "a Pulumi secret (an Output may be given)"
        objects = [obj for obj in (self.resolve(shape) for shape in shapes) if obj is not None]
        return first_doc(objects)

    # --- the whole ------------------------------------------------------------------------

    def run(self) -> str:
        cloud = self.resolve(self.config[f"{NAMESPACE}:cloud"])
        assert cloud is not None
        self.define("CloudConfig", [("", cloud)], first_doc([cloud]))
        resources = []
        for model in RESOURCE_MODELS:
            obj = self.defs[model]
            provider = obj["properties"]["provider"]["const"]
            resources.append((provider, obj))
        self.define(
            "CloudResourceConfig",
            resources,
            "One cloud resource (an entry of `anyscale-cloud:resources`); `provider` says which of "
            "the keys apply (each is marked with its providers).",
        )
        secrets = self.config[f"{NAMESPACE}:secrets"]
        self.define(
            "ResourceSecretsConfig",
            [("", secrets["additionalProperties"])],
            "A cloud resource's secrets, given by its name instead of inside its entry.",
        )
        return self.render(secrets.get("description", ""))

    def render(self, secrets_doc: str) -> str:
        out = [HEADER]
        for name in self.order:  # a type before the types that use it
            out.append(render_typed_dict(self.types[name]))
        top = TypedDictDef(
            "AnyscaleCloudArgs",
            "The arguments of `AnyscaleCloud`: the stack config's `anyscale-cloud:cloud`, "
            "`anyscale-cloud:resources` and `anyscale-cloud:secrets`, with the same keys "
            "(snake_case here, camelCase in the schema and the stack file).",
        )
        top.fields["cloud"] = Field("cloud", "CloudConfig", True, "The cloud: its ARM record and where it lives.")
        top.fields["resources"] = Field(
            "resources",
            "Sequence[CloudResourceConfig]",
            True,
            "The cloud resources, in registration order: the AKS primary first.",
        )
        top.fields["secrets"] = Field("secrets", "Mapping[str, ResourceSecretsConfig]", False, secrets_doc)
        out.append(render_typed_dict(top))
        return "\n\n\n".join(out).rstrip() + "\n"


HEADER = f'''"""Generated from config/ by `{COMMAND}`: do not edit.

The typed arguments of `AnyscaleCloud` (components/cloud.py): the stack config's shape as
TypedDicts. Plain values, except the secrets and the values that only reach a resource
property (`pulumi.Input[...]`), which may be Pulumi Outputs. The docstring under each key is
its description in the component package's schema.
"""

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

import pulumi'''


def label_key(label: str, obj: dict[str, Any]) -> str:
    return label + ":" + ",".join(obj.get("properties", {}))


def python_key(key: str) -> str:
    py = to_snake(key)
    if keyword.iskeyword(py) or not py.isidentifier():
        raise SchemaShapeError(f"{key}: {py!r} is not a Python identifier")
    return py


def unwrap_null(prop: dict[str, Any]) -> dict[str, Any]:
    """`anyOf: [X, {type: null}]` -> X, keeping the outer description."""
    options = prop.get("anyOf")
    if isinstance(options, list):
        rest = [o for o in options if o != {"type": "null"}]
        if len(rest) == 1 and len(rest) < len(options):
            return {**rest[0], **{k: v for k, v in prop.items() if k != "anyOf"}}
    return prop


def closed_set(props: list[dict[str, Any]]) -> tuple[str, ...]:
    """The values of a field (or of its list's items) that takes only the listed strings,
    in the models' order; () when any model leaves it open."""
    values: list[str] = []
    for prop in props:
        shape = unwrap_null(prop)
        if shape.get("type") == "array" and isinstance(shape.get("items"), dict):
            shape = unwrap_null(shape["items"])
        listed = (
            shape["enum"] if isinstance(shape.get("enum"), list) else [shape["const"]] if "const" in shape else None
        )
        if not listed or not all(isinstance(v, str) for v in listed):
            return ()
        values += [v for v in listed if v not in values]
    return tuple(values)


def is_secret(shape: dict[str, Any]) -> bool:
    return bool(shape.get("anyOf") == SECRET_JSON_SCHEMA["anyOf"])


# The manual, for the links in descriptions (the configuration reference links its sibling
# pages; in a generated SDK's docs only an absolute link works). The pack names the same
# repository (policy/pack.py REPOSITORY; tests/components/test_cloud_args.py keeps them equal).
DOCS = "https://github.com/anyscale/anyscale-cloud/blob/main/docs/"
PAGE_LINK = re.compile(r"\]\(([a-z-]+\.md(?:#[^)\s]*)?)\)")


# What a stack file's reader is told and a component user is not: the repository's files
# (the component user reads no repository) and stack-file commands (a program passes values,
# it runs no `pulumi config set`). (pattern, replacement), applied in order; a test asserts no
# description of the served schema names a repository path or a command.
FOR_COMPONENT_USERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r":? ?`pulumi config set [^`]*`"), ""),
    (re.compile(r" \(see [a-z_]+(?:/[a-z_]+)+\.py\)"), ""),
    (re.compile(r" \([a-z_]+(?:/[a-z_]+)+\.py\)"), ""),
    (re.compile(r"; [a-z_]+(?:/[a-z_]+)+\.py\)"), ")"),
    (re.compile(r"\([a-z_]+(?:/[a-z_]+)+\.py; "), "("),
    (re.compile(r"\([a-z_]+(?:/[a-z_]+)+\.py, "), "("),
    (re.compile(r", [a-z_]+(?:/[a-z_]+)+\.py\)"), ")"),
    (re.compile(r" (?:listed )?in config/data/instance_types\.py"), " in the program's instance-type table"),
    (re.compile(r" not in config/data/instance_types\.py"), " not in the program's instance-type table"),
    (re.compile(r" per platform\.md [0-9.]+"), ""),
)


def for_component_users(text: str) -> str:
    text = re.sub(r"\s+", " ", text)  # a class docstring's line breaks
    for pattern, replacement in FOR_COMPONENT_USERS:
        text = pattern.sub(replacement, text)
    return text


def describe(prop: dict[str, Any]) -> str:
    text = PAGE_LINK.sub(lambda m: f"]({DOCS}{m.group(1)})", str(prop.get("description") or "").strip())
    text = for_component_users(text)
    shape = unwrap_null(prop)
    choices = shape.get("enum")
    if isinstance(choices, list) and choices and not all(f"`{c}`" in text for c in choices):
        listed = ", ".join(f"`{c}`" for c in choices)
        text = f"{text} (one of {listed})" if text else f"one of {listed}"
    # The default as the config reference (docs/configuration.md) states it.
    default = prop.get("doc_default") or (None if prop.get("default") in (None, [], {}) else shown(prop["default"]))
    if default and "default" not in text.lower():
        text = f"{text}. Default: {default}" if text else f"Default: {default}"
    return text


def first_doc(objects: list[dict[str, Any]]) -> str:
    for obj in objects:
        text = for_component_users(str(obj.get("description") or "").strip())
        if text:
            return text
    return ""


def render_typed_dict(typed: TypedDictDef) -> str:
    lines = [f"class {typed.name}(TypedDict):"]
    if typed.doc:
        lines.append(f"    {docstring(typed.doc)}")
    for item in typed.fields.values():
        annotation = item.annotation if item.required else f"NotRequired[{item.annotation}]"
        if len(lines) > 1:
            lines.append("")
        lines.append(f"    {item.name}: {annotation}")
        if item.doc:
            lines.append(f"    {docstring(item.doc)}")
    return "\n".join(lines)


def docstring(text: str) -> str:
    """A one-line docstring literal (the formatter keeps long lines of text as they are)."""
    text = re.sub(r"\s+", " ", text).strip()
    return '"""' + text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').rstrip('"') + '"""'


def render() -> str:
    return Generator(schema(marks=True)).run()


def closed_sets() -> dict[tuple[str, str], tuple[str, ...]]:
    """(TypedDict, schema key) -> the values of each closed-set field, from the same models
    as components/args.py (the package's enum types)."""
    generator = Generator(schema(marks=True))
    generator.run()
    return {
        (typed.name, to_camel(item.name)): item.choices
        for typed in generator.types.values()
        for item in typed.fields.values()
        if item.choices
    }
