"""Between `AnyscaleCloudArgs` (components/args.py, snake_case keys) and the stack config
(camelCase keys), which the spec reads; and the one place a Pulumi Output is taken or refused.

An Output is taken in two kinds of places, both typed `pulumi.Input[...]` in the typed
arguments: a secret (turned into a `Secret`, passed through secret end to end), and a value
that only flows into a resource property, a field the spec types `Deferrable[...]` (a
resource group's name, subnet and VPC IDs, Entra group object IDs, a GCP project ID...),
turned into a `Deferred`: the spec validates everything else before any resource is
declared, and `check_deferred` gives each such value the field's own rules once it is known
(a broken one fails the deployment with the spec's message, no traceback). Anywhere else an
Output is refused, naming its path: those values decide which resources exist and what they
are named.

The keys are converted field by field, following the TypedDicts' own annotations: a map
of names (tags, labels, chart values) keeps its keys. A key that is not a field is passed
on as it is, so that the spec reports it at its path, with the same message as
`preflight validate` (a stack file's snake_case `resource_group` stays unknown: it is never
turned into `resourceGroup`, even beside a `resourceGroup`).

Three ways in: `from_config` (the stack program: the stack file's camelCase values),
`from_inputs` (the component package: the inputs as the engine sent them, where every
number is a double), and a Python caller's own `AnyscaleCloudArgs`. All three reach the
spec through `to_config`.
"""

import asyncio
import collections.abc
import functools
import inspect
import operator
import types
import typing
from typing import Any, NotRequired, Required, get_args, get_origin

import pulumi

from components.args import AnyscaleCloudArgs
from config import Problem, Secret, SpecError, StackSpec
from config.deferred import DeferredField, check_known, deferred_fields, takes_output
from config.load import config_path
from config.raw import OPERATOR_VALUES
from config.secrets import SECRET_PATHS
from config.types import Deferrable, Deferred

OUTPUTS_TAKEN = (
    "only secrets may be (kubeconfig, cliToken, the storage.credentials keys, a value under "
    "addons.anyscaleOperator.values, a secret under secrets.<name>), and the values that only "
    "reach a resource property (those the schema marks as Inputs)"
)


class Verbatim(str):
    """A config key that is not the camelCase of a field: passed to the spec unchanged. Never
    equal to a plain key, so that `resource_group` beside `resourceGroup` stays a key of its
    own (which the spec refuses) instead of replacing the other one's value."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Verbatim) and str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(("verbatim", str(self)))


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


class _Converter:
    def __init__(self, to_config: bool, wire: bool = False) -> None:
        self.to_config = to_config
        # The provider protocol has one number type: a whole double where the field is an
        # integer is that integer (1.5 stays 1.5, which the spec refuses).
        self.wire = wire
        self.problems: list[Problem] = []

    def convert(self, value: Any, annotation: Any, loc: tuple[Any, ...]) -> Any:
        annotation = _unwrap(annotation)
        origin = get_origin(annotation)
        # The typed arguments promise `Sequence` and `Mapping`: a tuple of resources or a
        # read-only mapping of tags is as good as a list or a dict, and becomes one here.
        if typing.is_typeddict(annotation) and isinstance(value, collections.abc.Mapping):
            return self.object(dict(value), annotation, loc)
        if origin in (collections.abc.Sequence, list) and _is_sequence(value):
            (item,) = get_args(annotation)
            return [self.convert(child, item, (*loc, index)) for index, child in enumerate(value)]
        if origin in (collections.abc.Mapping, dict) and isinstance(value, collections.abc.Mapping):
            _, item = get_args(annotation)
            return {key: self.convert(child, item, (*loc, key)) for key, child in value.items()}
        if self.wire and annotation is int and isinstance(value, float) and value.is_integer():
            return int(value)
        if self.wire and annotation is Any:
            return _whole(value)
        if self.to_config and annotation is Any:
            return _plain(value)
        return value

    def object(self, value: dict[Any, Any], typed: Any, loc: tuple[Any, ...]) -> dict[Any, Any]:
        fields = _fields(typed)
        names = {camel(py): py for py in fields}
        out: dict[Any, Any] = {}
        for key, child in value.items():
            if isinstance(key, Verbatim) or not isinstance(key, str):
                target, converted = (str(key) if self.to_config else key), child
            elif self.to_config and key in fields:
                target, converted = camel(key), self.convert(child, fields[key], (*loc, camel(key)))
            elif not self.to_config and key in names:
                target, converted = names[key], self.convert(child, fields[names[key]], (*loc, key))
            else:
                target, converted = (key if self.to_config else Verbatim(key)), child
            if target in out:
                # A Python caller gave both spellings (`resource_group`, `resourceGroup`).
                self.problems.append(
                    Problem(config_path([*loc, str(target)]), None, "is given twice (once in snake_case): keep one")
                )
            out[target] = converted
        return out


def _is_sequence(value: Any) -> bool:
    """A list or another sequence of items (a tuple), not a string or bytes."""
    return isinstance(value, collections.abc.Sequence) and not isinstance(value, (str, bytes, bytearray))


def _plain(value: Any) -> Any:
    """A free-form value (chart values, `cluster.network`) with every mapping a dict and every
    sequence a list, as the spec reads them; Outputs and scalars as they are."""
    if isinstance(value, collections.abc.Mapping):
        return {key: _plain(child) for key, child in value.items()}
    if _is_sequence(value):
        return [_plain(child) for child in value]
    return value


def _whole(value: Any) -> Any:
    """A free-form value from the wire (chart values, `cluster.network`) with each whole double
    an integer, as the same value in a stack file would be: `replicas: 2` must reach the
    chart as 2, not 2.0."""
    if isinstance(value, dict):
        return {key: _whole(child) for key, child in value.items()}
    if isinstance(value, list):
        return [_whole(child) for child in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _args(values: dict[str, Any], wire: bool) -> AnyscaleCloudArgs:
    fields = _fields(AnyscaleCloudArgs)
    converter = _Converter(to_config=False, wire=wire)
    args: dict[Any, Any] = {}
    for key, value in values.items():
        if value is None:
            continue
        if key in fields:
            args[key] = converter.convert(value, fields[key], (key,))
        else:
            args[Verbatim(key)] = value  # to_config reports it
    return typing.cast(AnyscaleCloudArgs, args)


def from_config(cloud: Any, resources: Any, secrets: Any) -> AnyscaleCloudArgs:
    """The stack config's three values as `AnyscaleCloudArgs` (what the stack program passes)."""
    return _args({"cloud": cloud, "resources": resources, "secrets": secrets}, wire=False)


def from_inputs(inputs: Any) -> AnyscaleCloudArgs:
    """The component's inputs as the engine sends them (schema names, numbers as doubles)
    as `AnyscaleCloudArgs`, every key kept: the spec, not the schema, judges them."""
    if not isinstance(inputs, dict):
        return typing.cast(AnyscaleCloudArgs, inputs)  # to_config refuses it
    return _args(inputs, wire=True)


def to_config(args: AnyscaleCloudArgs) -> tuple[Any, Any, Any]:
    """(cloud, resources, secrets) as the stack file has them, each Output at a place that
    holds a secret turned into a `Secret`; SpecError (each problem with its path) when an
    Output is anywhere else, a key is given twice, or `args` is not a map."""
    if not isinstance(args, dict):
        raise SpecError([Problem("args", None, "must be a map of `cloud`, `resources` and `secrets`")])
    fields = _fields(AnyscaleCloudArgs)
    given: dict[Any, Any] = dict(args)
    converter = _Converter(to_config=True)
    try:
        converted = {key: converter.convert(given[key], fields[key], (key,)) for key in fields if key in given}
        problems = [
            Problem(str(key), None, "is not an argument of AnyscaleCloud") for key in given if key not in fields
        ]
        problems += converter.problems
        held = {key: _hold_secrets(value, (key,), problems) for key, value in converted.items()}
    except RecursionError:
        raise SpecError(
            [Problem("args", None, "nest too deeply: a config is a few levels of maps and lists")]
        ) from None
    if problems:
        raise SpecError(problems)
    return held.get("cloud"), held.get("resources"), held.get("secrets")


def is_deferred(value: Any) -> bool:
    """A value only known when the engine resolves it: an Output, an awaitable, an unknown."""
    return isinstance(value, (pulumi.Output, pulumi.output.Unknown)) or inspect.isawaitable(value)


def holds_secret(loc: tuple[Any, ...]) -> bool:
    """A config location that holds a secret: one of a resource's secrets or a leaf of its
    operator chart's values (config/raw.py), or the same secret under `secrets.<name>`
    (config/secrets.py)."""
    if len(loc) >= 3 and loc[0] == "resources" and isinstance(loc[1], int):
        path = tuple(loc[2:])
        # Under `addons.anyscaleOperator.values`, any leaf may be a secret (config/raw.py).
        return path in SECRET_PATHS or (len(path) > 3 and path[:3] in OPERATOR_VALUES)
    if len(loc) >= 3 and loc[0] == "secrets":
        return tuple(loc[2:]) in SECRET_PATHS
    return False


def _hold_secrets(value: Any, loc: tuple[Any, ...], problems: list[Problem]) -> Any:
    if is_deferred(value):
        if holds_secret(loc):
            # Passed through to the resources that use it, secret end to end; the spec sees
            # that it is given, and its content is the engine's.
            return Secret(value)
        if takes_output(loc):
            # Only flows into a resource property: the spec checks the rest now, this value
            # when it is known (check_deferred).
            return Deferred(value)
        problems.append(
            Problem(
                config_path(list(loc)),
                None,
                f"is a Pulumi Output: {OUTPUTS_TAKEN}; this value decides which resources are declared "
                "and is checked before any is, so pass it as a plain value",
            )
        )
        return None
    if isinstance(value, dict):
        return {key: _hold_secrets(child, (*loc, key), problems) for key, child in value.items()}
    if isinstance(value, list):
        return [_hold_secrets(child, (*loc, index), problems) for index, child in enumerate(value)]
    return value


def known(value: Deferrable[str]) -> pulumi.Input[str]:
    """A `Deferrable` value as a resource takes it: the value, or its Output checked when
    known (`check_deferred`)."""
    return typing.cast(pulumi.Input[str], value.checked) if isinstance(value, Deferred) else value


def known_all(values: list[Deferrable[str]]) -> list[pulumi.Input[str]]:
    return [known(value) for value in values]


def check_deferred(spec: StackSpec) -> None:
    """Give each value of `spec` known only at deploy time the rules of its field, applied
    when the engine resolves it: the resources take `Deferred.checked`, which fails with the
    spec's message (a RunError: the engine shows it without a traceback) when a rule breaks.
    The values of one field are checked together (two subnet IDs against each other)."""
    for field in deferred_fields(spec):
        values = [pulumi.Output.from_input(deferred.value) for _, deferred in field.deferred]
        # Whether any of them is a secret: its value then never appears in the message.
        secret = pulumi.Output.all(*(_secrecy(v) for v in values)).apply(any)
        checked = pulumi.Output.all(secret, *values).apply(functools.partial(_checked_with, field))
        for position, (_, deferred) in enumerate(field.deferred):
            deferred.checked = checked.apply(operator.itemgetter(position))


def _secrecy(value: pulumi.Output[Any]) -> pulumi.Output[bool]:
    """Whether `value` is a secret, as an Output."""

    async def secret() -> bool:
        return await value.is_secret()

    return pulumi.Output.from_input(asyncio.ensure_future(secret()))


def _checked_with(field: DeferredField, resolved: list[Any]) -> list[Any]:
    return _checked(field, resolved[1:], bool(resolved[0]))


def _checked(field: DeferredField, known: Any, secret: bool = False) -> list[Any]:
    try:
        return check_known(field, list(known))
    except SpecError as error:
        text = str(error)
        if secret:
            # A secret Output that breaks a rule: the rule is named, its value is not.
            for value in sorted((str(v) for v in known if v), key=len, reverse=True):
                text = text.replace(value, "[secret]")
        raise pulumi.RunError(f"invalid stack config ({len(error.problems)} problem(s)):\n{text}") from None
