"""Between `AnyscaleCloudArgs` (components/args.py, snake_case keys) and the stack config
(camelCase keys), which the spec reads; and the one place a Pulumi Output may be in it.

The keys are converted field by field, following the TypedDicts' own annotations: a map
of names (tags, labels, chart values) keeps its keys. A key that is not a field is passed
on as it is, so that the spec reports it at its path, with the same message as
`preflight validate` (a stack file's snake_case `resource_group` stays unknown: it is never
turned into `resourceGroup`).
"""

import collections.abc
import inspect
import types
import typing
from typing import Any, NotRequired, Required, get_args, get_origin

import pulumi

from components.args import AnyscaleCloudArgs
from spec import Problem, Secret, SpecError
from spec.load import config_path
from spec.raw import may_be_secret
from spec.secrets import SECRET_PATHS

CONFIG_KEYS = {"cloud": "cloud", "resources": "resources", "secrets": "secrets"}


class Verbatim(str):
    """A config key that is not the camelCase of a field: passed to the spec unchanged."""

    __slots__ = ()


def _unwrap(annotation: Any) -> Any:
    """The TypedDict, Sequence or Mapping inside NotRequired/Required/Input wrappers."""
    while True:
        origin = get_origin(annotation)
        if origin in (NotRequired, Required):
            annotation = get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            plain = [a for a in get_args(annotation) if not _is_wrapper(a)]
            annotation = plain[0] if len(plain) == 1 else Any
        else:
            return annotation


def _is_wrapper(annotation: Any) -> bool:
    origin = get_origin(annotation)
    return (
        annotation is type(None) or origin in (collections.abc.Awaitable, pulumi.Output) or annotation is pulumi.Output
    )


def _fields(typed: Any) -> dict[str, Any]:
    # The evaluated annotations (get_type_hints would try to resolve pulumi.Input's "Output[T]").
    return dict(typed.__annotations__) if typing.is_typeddict(typed) else {}


def camel(key: str) -> str:
    """The schema's name of a field (the provider host's rule: `resource_group` -> `resourceGroup`)."""
    first, *rest = key.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def _convert(value: Any, annotation: Any, to_config: bool) -> Any:
    annotation = _unwrap(annotation)
    origin = get_origin(annotation)
    if typing.is_typeddict(annotation) and isinstance(value, dict):
        fields = _fields(annotation)
        names = {camel(py): py for py in fields}
        out: dict[str, Any] = {}
        for key, child in value.items():
            if isinstance(key, Verbatim) or not isinstance(key, str):
                out[str(key) if to_config else key] = child
            elif to_config and key in fields:
                out[camel(key)] = _convert(child, fields[key], to_config)
            elif not to_config and key in names:
                out[names[key]] = _convert(child, fields[names[key]], to_config)
            else:
                out[key if to_config else Verbatim(key)] = child
        return out
    if origin in (collections.abc.Sequence, list) and isinstance(value, list):
        (item,) = get_args(annotation)
        return [_convert(child, item, to_config) for child in value]
    if origin in (collections.abc.Mapping, dict) and isinstance(value, dict):
        _, item = get_args(annotation)
        return {key: _convert(child, item, to_config) for key, child in value.items()}
    return value


def from_config(cloud: Any, resources: Any, secrets: Any) -> AnyscaleCloudArgs:
    """The stack config's three values as `AnyscaleCloudArgs` (what the stack program passes)."""
    fields = _fields(AnyscaleCloudArgs)
    args: dict[str, Any] = {}
    for key, value in (("cloud", cloud), ("resources", resources), ("secrets", secrets)):
        if value is not None:
            args[key] = _convert(value, fields[key], to_config=False)
    return typing.cast(AnyscaleCloudArgs, args)


def to_config(args: AnyscaleCloudArgs) -> tuple[Any, Any, Any]:
    """(cloud, resources, secrets) as the stack file has them, each Output at a place that
    holds a secret turned into a `Secret`; SpecError (each problem with its path) when an
    Output is anywhere else, or when `args` is not a map."""
    if not isinstance(args, dict):
        raise SpecError([Problem("args", None, "must be a map of `cloud`, `resources` and `secrets`")])
    fields = _fields(AnyscaleCloudArgs)
    given: dict[str, Any] = dict(args)
    converted = {key: _convert(given[key], fields[key], to_config=True) for key in fields if key in given}
    problems = [Problem(key, None, "is not an argument of AnyscaleCloud") for key in given if key not in fields]
    held = {key: _hold_secrets(value, (key,), problems) for key, value in converted.items()}
    if problems:
        raise SpecError(problems)
    return held.get("cloud"), held.get("resources"), held.get("secrets")


def is_deferred(value: Any) -> bool:
    """A value only known when the engine resolves it: an Output, an awaitable, an unknown."""
    return isinstance(value, (pulumi.Output, pulumi.output.Unknown)) or inspect.isawaitable(value)


def holds_secret(loc: tuple[Any, ...]) -> bool:
    """A config location that holds a secret: a resource's secrets and its operator chart's
    values (spec/raw.py), or an entry of `secrets` (spec/secrets.py)."""
    if loc and loc[0] == "secrets":
        return tuple(loc[2:]) in SECRET_PATHS
    return may_be_secret(loc)


def _hold_secrets(value: Any, loc: tuple[Any, ...], problems: list[Problem]) -> Any:
    if is_deferred(value):
        if holds_secret(loc):
            # Passed through to the resources that use it, secret end to end; the spec sees
            # that it is given, and its content is the engine's.
            return Secret(value)
        problems.append(
            Problem(
                config_path(list(loc)),
                None,
                "is a Pulumi Output: only secrets (kubeconfig, cliToken, storage.credentials keys, "
                "addons.anyscaleOperator.values) may be; this value decides which resources are declared "
                "and is checked before any is, so pass it as a plain value",
            )
        )
        return None
    if isinstance(value, dict):
        return {key: _hold_secrets(child, (*loc, key), problems) for key, child in value.items()}
    if isinstance(value, list):
        return [_hold_secrets(child, (*loc, index), problems) for index, child in enumerate(value)]
    return value
