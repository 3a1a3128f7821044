"""The component package's schema as other languages read it: the SDK's schema, inferred
from `AnyscaleCloudArgs` (components/args.py), with what its inference cannot say.

- `secret: true` on every secret input (the places `cloud_args.holds_secret` names) and on the
  secret outputs, so that a generated SDK keeps them secret from the program's first line.
- Closed sets (a pydantic `Literal` in the spec, or `provider`) as enum types, from the same
  models as the typed arguments (`config.typed_args.closed_sets`): one source of the values.
- The package's own names in each language, instead of the SDK's defaults (`@pulumi/...`,
  `pulumi_...`, `github.com/pulumi/...`, namespace `Pulumi`, `com.pulumi`), which would read
  as packages Pulumi publishes (docs/component.md, "Names in each language").

`plain` (which inputs take Outputs) is the SDK's own reading of the annotations: a field typed
`pulumi.Input[...]` in components/args.py is not plain.
"""

from __future__ import annotations

import re
from typing import Any

from components.cloud_args import holds_secret
from config.typed_args import closed_sets

TYPES = "#/types/"
# The outputs that are secrets: each cloud resource's kubeconfig (components/cloud.py).
SECRET_OUTPUTS = ("kubeconfigs",)

# The package's names per language. The package is `anyscale-cloud` (its type tokens are
# `anyscale-cloud:index:<Component>`); each SDK is generated on the consumer's machine by
# `pulumi package add` and published nowhere, so each name says whose package it is and
# claims no registry's namespace: the npm scope is the package's own name, the Go module path
# is where the repository lives (as the package source names it), Java's base package follows
# Maven's convention for a project hosted at github.com/anyscale (`io.github.anyscale`).
LANGUAGE: dict[str, dict[str, Any]] = {
    "nodejs": {"packageName": "@anyscale-cloud/anyscale-cloud", "respectSchemaVersion": True},
    "python": {"packageName": "anyscale_cloud", "respectSchemaVersion": True},
    "go": {
        "importBasePath": "github.com/anyscale/anyscale-cloud/sdk/go/anyscalecloud",
        "respectSchemaVersion": True,
    },
    "csharp": {"rootNamespace": "AnyscaleCloud", "respectSchemaVersion": True},
    # Java's codegen has no `respectSchemaVersion` (the metaschema's javaLanguageSpec), which
    # the SDK's default block sets for every language.
    "java": {"basePackage": "io.github.anyscale"},
}


def enum_name(owner: str, key: str, taken: dict[str, tuple[str, ...]], values: tuple[str, ...]) -> str:
    """`capacityType` -> `CapacityType`; prefixed with its type (`ClusterSkuTier`) when that
    name already stands for other values."""
    name = key[:1].upper() + key[1:]
    if name in taken and taken[name] != values:
        name = re.sub(r"Config$", "", owner) + name
    return name


def _enum_type(values: tuple[str, ...], description: str) -> dict[str, Any]:
    return {"type": "string", "description": description, "enum": [{"value": value} for value in values]}


def _mark_secrets(schema: dict[str, Any], prop: dict[str, Any], loc: tuple[Any, ...]) -> None:
    """Walk the inputs from `prop` at config location `loc`, marking each secret."""
    if holds_secret(loc) and "$ref" not in prop:
        prop["secret"] = True
        return
    ref = prop.get("$ref", "")
    if ref.startswith(TYPES):
        name = ref.removeprefix(TYPES)
        typed = schema["types"][name]
        for key, child in typed.get("properties", {}).items():
            _mark_secrets(schema, child, (*loc, key))
    elif prop.get("type") == "array":
        _mark_secrets(schema, prop["items"], (*loc, 0))
    elif isinstance(prop.get("additionalProperties"), dict) and "$ref" in prop["additionalProperties"]:
        # A map of names (`secrets`: resource name -> its secrets); free-form values (chart
        # values) are walked too, and hold no named field to mark.
        _mark_secrets(schema, prop["additionalProperties"], (*loc, "<name>"))


def for_languages(schema: dict[str, Any], token: str) -> dict[str, Any]:
    """`schema` (the SDK's, parsed) with secrets, enum types and the package's names."""
    schema["language"] = LANGUAGE
    resource = schema["resources"][token]
    inputs = resource["inputProperties"]
    for key, loc in (("cloud", ("cloud",)), ("resources", ("resources",)), ("secrets", ("secrets",))):
        if key in inputs:
            _mark_secrets(schema, inputs[key], loc)
    for key in SECRET_OUTPUTS:
        resource["properties"][key]["secret"] = True

    prefix = token.rsplit(":", 1)[0] + ":"
    enums: dict[str, tuple[str, ...]] = {}
    for (owner, key), values in closed_sets().items():
        typed = schema["types"].get(prefix + owner)
        if typed is None or key not in typed.get("properties", {}):
            continue
        prop = typed["properties"][key]
        name = enum_name(owner, key, enums, values)
        enums[name] = values
        ref = {"$ref": f"{TYPES}{prefix}{name}"}
        target = prop["items"] if prop.get("type") == "array" else prop
        target.pop("type", None)
        target.update(ref)
        schema["types"][prefix + name] = _enum_type(values, f"The values of `{key}`.")
    return schema
