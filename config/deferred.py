"""Values known only at deploy time (`config.types.Deferred`): where they are in a validated
spec, and their check once known.

A field typed `Deferrable[...]` takes a value the component was given as a Pulumi Output;
at validation it passes unseen, every other rule of the spec applied as usual. When the
engine resolves it, `check_known` applies the field's own rules to the value (its type and
constraints, the field's validators and its model's rules, and the document-wide rules of
config/raw.py) and reports a broken one as `load_spec` would: SpecError, with the config path
and the same message. No Pulumi import: the component does the waiting
(components/cloud_args.py).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.alias_generators import to_camel

from config.load import Problem, SpecError, _message, config_path
from config.raw import raw_problems
from config.schema import schema
from config.stack import StackSpec
from config.types import INPUT_MARK, Deferred

ANY = "*"  # a list index or a map key in a path of input_paths()


def _is_key(part: Any) -> bool:
    return isinstance(part, int) or (isinstance(part, str) and part.isidentifier())


def _key(part: Any) -> Any:
    return to_camel(part) if isinstance(part, str) else part


@functools.cache
def input_paths() -> frozenset[tuple[str, ...]]:
    """The config paths of the Deferrable fields, from the spec's JSON Schema (each marked
    there by config.types.Deferrable): one source, the models."""
    document = schema(marks=True)
    defs = document["$defs"]
    found: set[tuple[str, ...]] = set()

    def walk(node: Any, path: tuple[str, ...], seen: frozenset[str]) -> None:
        if not isinstance(node, dict):
            return
        if node.get(INPUT_MARK):
            found.add(path)
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and ref not in seen:
            walk(defs[ref.rsplit("/", 1)[1]], path, seen | {ref})
        for key in ("anyOf", "oneOf", "allOf"):
            for option in node.get(key, []):
                walk(option, path, seen)
        if isinstance(node.get("then"), dict):
            walk(node["then"], path, seen)
        for key, child in (node.get("properties") or {}).items():
            walk(child, (*path, key), seen)
        if isinstance(node.get("items"), dict):
            walk(node["items"], (*path, ANY), seen)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], (*path, ANY), seen)

    config = document["properties"]["config"]["properties"]
    walk(config["anyscale-cloud:cloud"], ("cloud",), frozenset())
    walk(config["anyscale-cloud:resources"], ("resources",), frozenset())
    return frozenset(found)


def takes_output(loc: tuple[Any, ...]) -> bool:
    """A config location of a Deferrable field (or an item of one): a value there may be
    given as a Pulumi Output."""
    return tuple(ANY if isinstance(part, int) else part for part in loc) in input_paths()


@dataclass(frozen=True)
class DeferredField:
    """A field of a model holding Deferred values: the field itself, or items of its list."""

    loc: tuple[Any, ...]  # the model's config path (`resources`, 2, `cluster`)
    resource: str | None  # the cloud resource's name, for the message
    owner: BaseModel
    name: str  # the field's Python name
    alias: str  # its config key
    deferred: tuple[tuple[int | None, Deferred], ...]  # (index in the list or None, value)


def deferred_fields(spec: StackSpec) -> list[DeferredField]:
    """Every field of `spec` holding a Deferred value, in the config's order."""
    found = list(_walk(spec.cloud, ("cloud",), None))
    for index, resource in enumerate(spec.resources):
        found += _walk(resource, ("resources", index), resource.name)
    return found


def _walk(model: BaseModel, loc: tuple[Any, ...], resource: str | None) -> Iterator[DeferredField]:
    for name, info in type(model).model_fields.items():
        value = getattr(model, name)
        alias = info.alias or name
        if isinstance(value, Deferred):
            yield DeferredField(loc, resource, model, name, alias, ((None, value),))
        elif isinstance(value, BaseModel):
            yield from _walk(value, (*loc, alias), resource)
        elif isinstance(value, list):
            items = tuple((i, item) for i, item in enumerate(value) if isinstance(item, Deferred))
            if items:
                yield DeferredField(loc, resource, model, name, alias, items)
            for i, item in enumerate(value):
                if isinstance(item, BaseModel):
                    yield from _walk(item, (*loc, alias, i), resource)


def check_known(field: DeferredField, known: list[Any]) -> list[Any]:
    """`known`: the resolved value of each of `field.deferred`, in order. Returns them when
    the field's rules hold with them in place; SpecError otherwise."""
    current = getattr(field.owner, field.name)
    places = [
        (*field.loc, field.alias) if index is None else (*field.loc, field.alias, index) for index, _ in field.deferred
    ]
    if isinstance(current, list):
        value: Any = list(current)
        for (index, _), item in zip(field.deferred, known, strict=True):
            value[index] = item
    else:
        value = known[0]
    problems = [
        Problem(config_path(list(where)), field.resource, message)
        for place, item in zip(places, known, strict=True)
        for where, message in raw_problems(item, place)
    ]
    if not problems:
        copy = field.owner.model_copy()
        try:
            # The model's own validation of one field: its type, its validators and the
            # model's rules (`vpcId` with `subnetIds`...), as at load.
            type(field.owner).__pydantic_validator__.validate_assignment(copy, field.name, value)
        except ValidationError as error:
            for item in error.errors(include_url=False):
                # A field's own error is at the field (and item); a model rule's at the model,
                # or at the field it names (ctx "at"), as load_spec reports them.
                # Its keys as the config spells them; pydantic's tags of a validator
                # (`function-wrap[...]`) are no keys.
                where = [*field.loc, *(_key(part) for part in item["loc"] if _is_key(part))]
                at = (item.get("ctx") or {}).get("at")
                if len(where) == len(field.loc) and isinstance(at, str):
                    where.extend(at.split("."))
                problems.append(Problem(config_path(where), field.resource, _message(item)))
    if problems:
        raise SpecError(problems)
    return known
