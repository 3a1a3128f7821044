"""The config reference (docs/configuration.md), generated from the spec's models.

Every key of `anyscale-cloud:cloud` and `anyscale-cloud:resources` becomes a row: its
camelCase path, its default (the model's own default value, per provider where they
differ) and its rule. The rule is what the field's metadata enforces (choices, pattern,
lengths, ranges) followed by the field's `description`, which the spec writes from its
own constants; so a limit is stated once, where it is checked.

`make generate` rewrites the tables (scripts/generate.py), which sit between BEGIN and END;
`make test` fails while they differ from what this module renders.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from config.aks import AzureResource
from config.eks import AwsResource
from config.generic import GenericResource
from config.gke import GcpResource
from config.stack import MAX_RESOURCES, CloudSpec

DEFAULT_FILE = "docs/configuration.md"
COMMAND = "make generate"
BEGIN = f"<!-- config-reference:begin (generated: {COMMAND}) -->"
END = "<!-- config-reference:end -->"

PROVIDERS = ("Azure", "AWS", "GCP", "Generic")
RESOURCE_MODELS: dict[str, type[BaseModel]] = {
    "Azure": AzureResource,
    "AWS": AwsResource,
    "GCP": GcpResource,
    "Generic": GenericResource,
}
# Top-level keys of a resource in reading order: identity first, add-ons last.
RESOURCE_ORDER = (
    "name",
    "provider",
    "region",
    "project",
    "kubeconfig",
    "cliToken",
    "gatewayAddress",
    "enableApis",
    "peeredWith",
    "storage",
    "cluster",
    "addons",
)
REQUIRED = object()
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Row:
    key: str
    default: str
    rule: str


# --- one model's rows ---------------------------------------------------------------------


def extra(field: FieldInfo) -> dict[str, Any]:
    return field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}


def documented(model: type[BaseModel], name: str) -> FieldInfo:
    """The field's FieldInfo, with the description of the nearest base class that has
    one: a subclass that narrows a field's type (`provider: Literal["Azure"]`) keeps
    its base's words."""
    field = model.model_fields[name]
    if field.description:
        return field
    for base in model.__mro__[1:]:
        fields = getattr(base, "__pydantic_fields__", {})
        if name in fields and fields[name].description:
            merged = FieldInfo.merge_field_infos(field, description=fields[name].description)
            merged.json_schema_extra = field.json_schema_extra or fields[name].json_schema_extra
            return merged
    return field


def unwrapped(annotation: Any) -> tuple[Any, list[Any]]:
    """X from `X | None`, `Annotated[X, ...]`, and the metadata of the Annotated layers
    (the constraints an optional field's type carries: `Annotated[list[str], MinLen(1)] | None`)."""
    metadata: list[Any] = []
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            metadata += get_args(annotation)[1:]
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            args = [a for a in get_args(annotation) if a is not type(None)]
            if len(args) != 1:
                return annotation, metadata
            annotation = args[0]
        else:
            return annotation, metadata


def unwrap(annotation: Any) -> Any:
    """X from `X | None`, `Annotated[X, ...]`."""
    return unwrapped(annotation)[0]


def model_of(annotation: Any) -> type[BaseModel] | None:
    inner = unwrap(annotation)
    return inner if isinstance(inner, type) and issubclass(inner, BaseModel) else None


def list_item(annotation: Any) -> Any:
    inner = unwrap(annotation)
    return unwrap(get_args(inner)[0]) if get_origin(inner) is list else None


def code(value: Any) -> str:
    return f"`{value}`"


def choices(values: tuple[Any, ...]) -> str:
    shown = [code(v) for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def constraints(field: FieldInfo) -> list[str]:
    """What the field's own metadata enforces, in words."""
    parts: list[str] = []
    inner = unwrap(field.annotation)
    item = list_item(field.annotation)
    if get_origin(inner) is Literal:
        parts.append(choices(get_args(inner)))
    if item is not None and get_origin(item) is Literal:
        parts.append("each " + choices(get_args(item)))
    low: Any = None
    high: Any = None
    low_open = False
    min_len = max_len = None
    for meta in [*field.metadata, *unwrapped(field.annotation)[1]]:
        pattern = getattr(meta, "pattern", None)
        if isinstance(pattern, str):
            parts.append(code(pattern))
        if isinstance(meta, annotated_types.Ge):
            low = meta.ge
        elif isinstance(meta, annotated_types.Gt):
            low, low_open = meta.gt, True
        elif isinstance(meta, annotated_types.Le):
            high = meta.le
        elif isinstance(meta, annotated_types.MinLen):
            min_len = meta.min_length
        elif isinstance(meta, annotated_types.MaxLen):
            max_len = meta.max_length
    if low is not None or high is not None:
        if low_open:
            parts.append(f"greater than {low}" + (f", at most {high}" if high is not None else ""))
        elif low is not None and high is not None:
            parts.append(f"{low}-{high}")
        else:
            parts.append(f"at least {low}" if low is not None else f"at most {high}")
    unit = "entries" if item is not None or get_origin(inner) in (list, dict) else "characters"
    if min_len is not None and max_len is not None:
        parts.append(f"{min_len}-{max_len} {unit}")
    elif max_len is not None:
        parts.append(f"at most {max_len} {unit}")
    elif min_len is not None and min_len > 1:
        parts.append(f"at least {min_len} {unit}")
    elif min_len == 1 and unit == "entries":
        parts.append("not empty when given")
    return parts


def rule_of(field: FieldInfo) -> str:
    parts = [] if extra(field).get("doc_only") else constraints(field)
    if field.description:
        parts.append(field.description)
    return "; ".join(parts)


def shown(value: Any) -> str:
    """A default as the stack file would spell it."""
    if value is REQUIRED:
        return "required"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return code(str(value).lower())
    if isinstance(value, BaseModel):
        name = getattr(value, "name", None)
        return code(name) if isinstance(name, str) else "see below"
    if isinstance(value, list):
        if value and all(isinstance(v, BaseModel) for v in value):
            return ", ".join(shown(v) for v in value)
        return code("[" + ", ".join(str(v) for v in value) + "]")
    if isinstance(value, dict):
        return code("{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}")
    return code(value)


def default_of(field: FieldInfo, instance: BaseModel | None, name: str) -> Any:
    """The value a stack file gets when it leaves the key out: read from the enclosing
    default object when there is one (it holds per-provider and validator-filled values)."""
    if instance is not None:
        return getattr(instance, name)
    if field.is_required():
        return REQUIRED
    return field.get_default(call_default_factory=True)


def rows(model: type[BaseModel], prefix: str = "", instance: BaseModel | None = None) -> Iterator[Row]:
    """Every key of `model`, depth first; nested objects give their own keys' rows (and a
    row of their own when they have a description)."""
    for name in model.model_fields:
        field = documented(model, name)
        key = prefix + (field.alias or name)
        value = default_of(field, instance, name)
        default = extra(field).get("doc_default") or shown(value)
        nested = model_of(field.annotation)
        item = model_of(list_item(field.annotation)) if list_item(field.annotation) is not None else None
        if nested is not None:
            if field.description:
                yield Row(key, default, rule_of(field))
            yield from rows(nested, key + ".", value if isinstance(value, BaseModel) else None)
        elif item is not None:
            yield Row(key, default, rule_of(field))
            yield from rows(item, key + "[].", None)
        else:
            yield Row(key, default, rule_of(field))


# --- the resources table: one row per key, per provider where they differ ------------------


def top(key: str) -> str:
    return key.split(".")[0].split("[")[0]


def merged_keys(by_provider: dict[str, dict[str, Row]]) -> list[str]:
    """Every provider's keys in one order: a key another provider lacks goes after the
    last key of its parent object (GKE's `cluster.nodePools[].zones` after the pools'
    other keys), and the top-level keys follow RESOURCE_ORDER."""
    keys: list[str] = []
    for provider in PROVIDERS:
        for key in by_provider[provider]:
            if key in keys:
                continue
            parent = key.rsplit(".", 1)[0] if "." in key else None
            after = [i for i, k in enumerate(keys) if parent and (k == parent or k.startswith(parent + "."))]
            below = [i for i, k in enumerate(keys) if k.startswith((key + ".", key + "["))]
            keys.insert(below[0] if below else after[-1] + 1 if after else len(keys), key)
    order = {k: i for i, k in enumerate(RESOURCE_ORDER)}
    return sorted(keys, key=lambda k: order.get(top(k), len(order)))  # stable: keeps the order within a key


def resource_rows() -> list[Row]:
    """One row per key; several where providers differ in the rule. A key is marked with
    its providers where they are fewer than those of its top-level key (`cluster` is not
    on Generic: its keys are not marked for that)."""
    by_provider = {p: {r.key: r for r in rows(model)} for p, model in RESOURCE_MODELS.items()}
    out = []
    for key in merged_keys(by_provider):
        having = [p for p in PROVIDERS if key in by_provider[p]]
        nested = key != top(key)
        top_having = [p for p in PROVIDERS if not nested or any(top(k) == top(key) for k in by_provider[p])]
        groups: dict[str, list[str]] = {}
        for provider in having:
            groups.setdefault(by_provider[provider][key].rule, []).append(provider)
        for rule, providers in groups.items():
            defaults = {p: by_provider[p][key].default for p in providers}
            if len(set(defaults.values())) == 1:
                default = defaults[providers[0]]
            else:
                default = "; ".join(f"{p} {d}" for p, d in defaults.items())
            label = code(key) + ("" if providers == top_having else f" ({', '.join(providers)})")
            out.append(Row(label, default, rule))
    return out


def cloud_rows() -> list[Row]:
    return [Row(code(r.key), r.default, r.rule) for r in rows(CloudSpec)]


def table(found: list[Row]) -> list[str]:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    return ["| key | default | rule |", "|---|---|---|"] + [
        f"| {cell(r.key)} | {cell(r.default)} | {cell(r.rule)} |" for r in found
    ]


def render() -> str:
    """The generated block, markers included."""
    lines = [
        BEGIN,
        "",
        "### `anyscale-cloud:cloud`",
        "",
        *table(cloud_rows()),
        "",
        f"### `anyscale-cloud:resources` (a list of 1-{MAX_RESOURCES}, in registration order)",
        "",
        "A key marked with providers exists only on those providers' resources (any other is an unknown key "
        "there); a key with several rows has a rule per provider.",
        "",
        *table(resource_rows()),
        "",
        END,
    ]
    return "\n".join(lines)


# --- the file ---------------------------------------------------------------------------------


def replaced(text: str) -> str:
    """`text` with the block between the markers regenerated."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the markers {BEGIN!r} and {END!r} are missing")
    return text[:start] + render() + text[end + len(END) :]
