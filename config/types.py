"""The building blocks of every spec model: the strict base, secrets, and one annotated
type per check that several fields share (names, IPv4 networks, lists without repeats,
exact versions, AKS pool names), so that each check and its message are written once."""

from __future__ import annotations

import difflib
import ipaddress
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    WithJsonSchema,
    WrapValidator,
)
from pydantic.alias_generators import to_camel
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, InitErrorDetails, PydanticCustomError, core_schema

from config.data import networks
from config.data.regions import KNOWN_REGIONS
from config.names import RULES as NAME_RULES

# The platform's rules live in the policy pack (policy/rules/platform.py: pure checks,
# standard library only), so that the pack, which the Pulumi CLI uploads and runs
# without the rest of the repository, carries them too. The pack imports them as
# `rules.platform` (its own folder is on sys.path there); the project, run from its
# root, imports the same file as `policy.rules.platform` (policy/ is a package for
# that). Two module objects of one file: plain constants and functions, so that is
# harmless. Only this pure module is imported from outside the pack.
from policy.rules import platform


def fail(kind: str, message: str, **ctx: Any) -> PydanticCustomError:
    """A rule violation; `message` is what the user reads, so it says how to fix it."""
    return PydanticCustomError(kind, message, ctx or None)


def detail(loc: tuple[Any, ...], kind: str, message: str) -> InitErrorDetails:
    """A problem at `loc` for ValidationError.from_exception_data (several at once)."""
    return InitErrorDetails(type=PydanticCustomError(kind, message), loc=loc, input=None)


class Strict(BaseModel):
    """Every config object: camelCase keys, unknown keys rejected (typos must not pass)."""

    model_config = ConfigDict(
        extra="forbid", alias_generator=to_camel, populate_by_name=True, validate_assignment=False, strict=True
    )


# --- secrets ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Secret:
    """A Pulumi secret from config. `value` is the plaintext at deploy time; offline
    (preflight on a stack file) it is the `{secure: ...}` ciphertext, opaque to us; given to
    the component as a Pulumi Output, that Output (components/cloud_args.py), which the
    resources take as it is."""

    value: Any
    encrypted: bool = False

    def __repr__(self) -> str:  # never print the value, not even in a traceback
        return "Secret([secret])"

    def __deepcopy__(self, memo: dict[int, Any]) -> Secret:
        # Immutable, and its value may be a Pulumi Output, which refuses to be copied: a
        # deep copy of the config (config/secrets.py) shares it.
        return self

    __str__ = __repr__


def to_secret(value: Any) -> Secret:
    if isinstance(value, Secret):
        return value
    if isinstance(value, dict) and set(value) == {"secure"} and isinstance(value["secure"], str):
        if not value["secure"].strip():
            # Pulumi would fail to decrypt it at `pulumi up`; say so now.
            raise fail(
                "secret",
                "is an empty `secure:` value: set the secret with `pulumi config set --secret --path '<path>'`",
            )
        return Secret(value["secure"], encrypted=True)
    if isinstance(value, str) and value.strip():
        return Secret(value)
    raise fail(
        "secret",
        "must be a non-empty Pulumi secret: set it with `pulumi config set --secret --path '<path>'`",
    )


# What the stack file holds (the JSON Schema, config/schema.py): `{secure: <ciphertext>}` as
# the CLI writes it, or a plain string (the decrypted value the CLI hands the program).
SECRET_JSON_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {
            "type": "object",
            "properties": {"secure": {"type": "string", "minLength": 1}},
            "required": ["secure"],
            "additionalProperties": False,
        },
        {"type": "string", "pattern": "\\S"},
    ]
}
SecretValue = Annotated[Secret, BeforeValidator(to_secret), WithJsonSchema(SECRET_JSON_SCHEMA)]


# --- values known only at deploy time -------------------------------------------------------


class Deferred:
    """A value the component was given as a Pulumi Output (another resource's ID, a stack
    reference): known only when the engine resolves it. Only a field typed `Deferrable[...]`
    takes one: a value that only flows into a resource property, never one that decides which
    resources exist or builds their names. The models accept it unseen; the component checks
    the value with the field's own rule once it is known (`config.deferred`), and hands the
    resources `checked`, that value after its check."""

    __slots__ = ("checked", "value")

    def __init__(self, value: Any) -> None:
        self.value = value  # opaque here: a Pulumi Output
        self.checked: Any = value  # set by the component: the value, checked when known

    def __repr__(self) -> str:
        return "Deferred([known at deploy time])"

    def __deepcopy__(self, memo: dict[int, Any]) -> Deferred:
        return self  # an Output refuses to be copied; the config's deep copy shares it


# The key that marks a Deferrable field in the spec's JSON Schema, for the typed arguments'
# generator (config/typed_args.py: `pulumi.Input[...]`); the stack file's schema drops it.
INPUT_MARK = "x-pulumi-input"


def _pass_deferred(value: Any, handler: Any) -> Any:
    return value if isinstance(value, Deferred) else handler(value)


class _InputMark:
    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        generated = handler(schema)
        generated[INPUT_MARK] = True
        return generated


T = TypeVar("T")
if TYPE_CHECKING:
    # What the code sees: the value, or the Output it will be.
    Deferrable = Union[T, Deferred]  # noqa: UP007 (a generic alias needs Union)
else:

    class Deferrable:
        """`Deferrable[X]`: X, or a Deferred, which passes unchecked (X's own constraints
        go inside X, `Deferrable[Annotated[str, StringConstraints(...)]]`)."""

        def __class_getitem__(cls, item: Any) -> Any:
            return Annotated[item, WrapValidator(_pass_deferred), _InputMark()]


# --- names and regions (platform.md 1.1) ---------------------------------------------------


def check_name(value: str) -> str:
    problem = platform.name_problem(value)
    if problem:
        raise fail("name", problem)
    return value


# A cloud's or a cloud resource's name.
Name = Annotated[str, Field(min_length=1), AfterValidator(check_name)]


def check_region(value: str, provider: str) -> str:
    """The platform's region rule: pattern, length, and a known region of the provider."""
    problem = platform.region_problem(value)
    if problem:
        raise fail("region", problem)
    known = KNOWN_REGIONS.get(provider)
    if known is not None and value not in known:
        close = difflib.get_close_matches(value, sorted(known), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise fail(
            "region",
            "'{v}' is not a known {p} region (see config/data/regions.py){h}",
            v=value,
            p=provider,
            h=hint,
        )
    return value


def normalize_provider(value: Any) -> Any:
    """Accept any casing of a provider name and return the platform's spelling."""
    return platform.provider_spelling(value) or value


def check_aks_pool_name(value: str) -> str:
    rule = NAME_RULES["aks_pool"]
    if not rule.allows(value):
        raise fail("pool", "'{v}' is not a valid {w}: {f}", v=value, w=rule.what, f=rule.form)
    return value


# The one AKS pool-name rule: config/names.py's, which the cloud enforces.
AksPoolName = Annotated[str, AfterValidator(check_aks_pool_name)]


# --- networks ------------------------------------------------------------------------------


# CIDR notation only: Python's ipaddress also reads a bare address as a /32 and a netmask or
# hostmask (10.0.0.0/255.255.0.0), which the clouds' APIs do not take.
CIDR_FORM = re.compile(r"[0-9]{1,3}(\.[0-9]{1,3}){3}/[0-9]{1,2}")


@dataclass(frozen=True)
class IPv4Cidr:
    """An IPv4 network in CIDR notation (host bits zero), or a list of them checked in order;
    `example` is the network the message suggests. Used as `Annotated[str, IPv4Cidr(...)]`.
    Never inside a range that routes nowhere (config/data/networks.py NON_ROUTABLE), nor
    inside `reserved`; at most as large as a /`largest` (a service range: /12)."""

    example: str
    reserved: tuple[networks.Reserved, ...] = ()
    largest: int | None = None
    # The smallest network taken, and whose rule it is (GKE's Service range: a /27).
    smallest: tuple[int, str] | None = None
    # Sources allowed to reach something (API server ranges): only a range wholly inside one
    # that routes nowhere is refused; 0.0.0.0/0 or 128.0.0.0/1 mean "the internet".
    allow_list: bool = False

    def check(self, value: Any) -> Any:
        for network in value if isinstance(value, list) else [value]:
            self._one(network)
        return value

    def _one(self, network: Any) -> None:
        try:
            if not isinstance(network, str) or not CIDR_FORM.fullmatch(network):
                raise ValueError("write it as address/prefix length, e.g. 10.0.0.0/16")
            parsed = ipaddress.IPv4Network(network, strict=True)
        except ValueError as error:
            raise fail(
                "cidr", "'{v}' is not an IPv4 network ({e}); e.g. {x}", v=network, e=str(error), x=self.example
            ) from None
        for block in (*networks.NON_ROUTABLE, *self.reserved):
            other = ipaddress.IPv4Network(block.network)
            if parsed.subnet_of(other) if self.allow_list else parsed.overlaps(other):
                raise fail(
                    "cidr",
                    "'{v}' "
                    + ("is inside" if self.allow_list else "overlaps")
                    + " {b}, {w} ({s}): use a range such as {x}",
                    v=network,
                    b=block.network,
                    w=block.what,
                    s=block.source,
                    x=self.example,
                )
        if self.largest is not None and parsed.prefixlen < self.largest:
            raise fail(
                "cidr",
                "'{v}' is larger than a /{n}, the largest service range Kubernetes takes: use a /{n} or smaller",
                v=network,
                n=self.largest,
            )
        if self.smallest is not None and parsed.prefixlen > self.smallest[0]:
            raise fail(
                "cidr",
                "'{v}' is smaller than a /{n}, the smallest {w}: use a /{n} or larger, e.g. {x}",
                v=network,
                n=self.smallest[0],
                w=self.smallest[1],
                x=self.example,
            )

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))


# --- lists ---------------------------------------------------------------------------------


def first_overlap(ranges: list[tuple[str, str]]) -> tuple[str, str, str, str] | None:
    """(name, network, other name, other network) of the first two named networks that
    overlap, in the order given; None when they are disjoint."""
    for (a, x), (b, y) in itertools.combinations(ranges, 2):
        if ipaddress.ip_network(x).overlaps(ipaddress.ip_network(y)):
            return a, x, b, y
    return None


def repeated(values: list[Any]) -> list[Any]:
    """The values that appear more than once, sorted."""
    return sorted({v for v in values if values.count(v) > 1})


@dataclass(frozen=True)
class Unique:
    """A list without repeats (of `key` of each item); `message` names them as {d}.
    Used as `Annotated[list[...], Unique(...)]`."""

    kind: str
    message: str
    key: Callable[[Any], Any] | None = None

    def check(self, items: list[Any]) -> list[Any]:
        twice = repeated([self.key(i) if self.key else i for i in items])
        if twice:
            raise fail(self.kind, self.message, d=", ".join(map(str, twice)))
        return items

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))


# --- versions ------------------------------------------------------------------------------

# One exact release: a range (`>=1.0`, `~1.2`, `*`) or `latest` would change what runs
# without a change in review.
# Parts of up to 9 digits: a longer one is no real release, and past 4300 digits int() itself
# fails (release_of), which would reach the user as an interpreter message.
EXACT_VERSION = r"^v?[0-9]{1,9}\.[0-9]{1,9}\.[0-9]{1,9}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"
ExactVersion = Annotated[str, Field(pattern=EXACT_VERSION)]
# A cluster's Kubernetes version: a minor (1.33) or a patch of it (1.33.2).
KUBERNETES_VERSION_PATTERN = r"^1\.[0-9]{2}(\.[0-9]+)?$"


def release_of(version: str) -> tuple[int, int, int]:
    """(major, minor, patch) of an exact version; a pre-release counts as its release."""
    major, minor, patch = re.split(r"[-+]", version.lstrip("v"), maxsplit=1)[0].split(".")
    return int(major), int(minor), int(patch)


def minor_of(version: str) -> str:
    """`1.33` of a Kubernetes version `1.33` or `1.33.2`."""
    return ".".join(version.split(".")[:2])
