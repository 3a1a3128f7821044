"""The JSON Schema of a stack file (stacks/Pulumi.<stack>.yaml), generated from the spec's
models, so that an editor checks a stack file as it is typed (the `yaml-language-server`
modeline at the top of each shipped stack names it) and `make test` checks every stack
against it.

`make generate` writes it (scripts/generate.py); `make test` fails while it is stale.

The schema holds the structure (keys, types, choices, patterns, lengths, ranges), with each
field's description for the editor's hover; the rules across fields and resources (name
collisions, regions per provider, the primary) stay with `preflight validate`.
"""

from __future__ import annotations

import json
from typing import Any

from config.secrets import REQUIRED_GENERIC, SECRET_PATHS
from config.stack import StackSpec
from config.types import INPUT_MARK, SECRET_JSON_SCHEMA

DEFAULT_FILE = "stacks/stack.schema.json"
COMMAND = "make generate"
NAMESPACE = "anyscale-cloud"
# Keys of a schema object whose values are maps of names to schemas, not schemas.
NAME_MAPS = ("properties", "$defs", "patternProperties")


def _without_titles(node: Any, marks: bool = False) -> Any:
    """pydantic titles each field after its Python name ("Resourcegroup"); the editor shows
    the description instead, so they go. So does the mark of a field that may be a Pulumi
    Output (config.types.Deferrable), which a stack file cannot hold, unless `marks`."""
    if isinstance(node, list):
        return [_without_titles(item, marks) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if (key == "title" and isinstance(value, str)) or (key == INPUT_MARK and not marks):
            continue
        if key in NAME_MAPS and isinstance(value, dict):
            out[key] = {name: _without_titles(child, marks) for name, child in value.items()}
        else:
            out[key] = _without_titles(value, marks)
    return out


def _by_provider(items: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A resource is one of four models, told apart by `provider`. As a `oneOf`, a typo in
    one resource is reported as "matches none of the four"; dispatched on `provider`, it
    is reported at its own key, and an editor completes the right provider's keys."""
    branches = []
    for choice in items["oneOf"]:
        ref = choice["$ref"]
        provider = defs[ref.rsplit("/", 1)[1]]["properties"]["provider"]["const"]
        condition = {"properties": {"provider": {"const": provider}}, "required": ["provider"]}
        branches.append({"if": condition, "then": {"$ref": ref}})
    providers = [b["if"]["properties"]["provider"]["const"] for b in branches]
    return {
        "type": "object",
        "properties": {"provider": {"enum": providers}},
        "required": ["provider"],
        "allOf": branches,
    }


def _secrets_map() -> dict[str, Any]:
    """`anyscale-cloud:secrets`: per resource name, the secrets of config/secrets.py."""
    entry: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
    for path in SECRET_PATHS:
        node = entry
        for depth, key in enumerate(path[:-1], start=1):
            node = node["properties"].setdefault(
                key,
                {
                    "description": f"the secrets under the resource's `{'.'.join(path[:depth])}`",
                    "type": "object",
                    "properties": {},
                    "additionalProperties": False,
                },
            )
        node["properties"][path[-1]] = SECRET_JSON_SCHEMA
    return {
        "description": "each cloud resource's secrets by its name, instead of inside `anyscale-cloud:resources` "
        "(so that a Pulumi ESC environment can supply them); a secret is given in one of the two places only",
        "type": "object",
        "additionalProperties": entry,
    }


def schema(marks: bool = False) -> dict[str, Any]:
    """The stack file: the keys the Pulumi CLI writes at the top, and `config`, whose two
    project keys are the spec's models. Other namespaces' keys (providers, `pulumi:`) are
    the CLI's business; an unknown `anyscale-cloud:` key, like a misspelt key anywhere in
    the models, fails. `marks`: keep the mark of the fields that may be Pulumi Outputs (for
    the component's typed arguments, config/typed_args.py)."""
    models = StackSpec.model_json_schema(by_alias=True, mode="validation")
    defs = models.pop("$defs")
    project = models["properties"]
    project["resources"]["items"] = _by_provider(project["resources"]["items"], defs)
    # A Generic resource's secrets may come from `anyscale-cloud:secrets` or an imported
    # environment instead: required after the merge (preflight validate), not inline.
    generic = defs["GenericResource"]
    generic["required"] = [key for key in generic["required"] if (key,) not in REQUIRED_GENERIC]
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Pulumi stack file of the {NAMESPACE} project",
        "description": f"Generated from config/ by `{COMMAND}`: do not edit.",
        "type": "object",
        "properties": {
            "config": {
                "type": "object",
                "properties": {
                    f"{NAMESPACE}:cloud": project["cloud"],
                    f"{NAMESPACE}:resources": project["resources"],
                    f"{NAMESPACE}:secrets": _secrets_map(),
                },
                "required": [f"{NAMESPACE}:cloud", f"{NAMESPACE}:resources"],
                # `<namespace>:<name>`, as the CLI requires; of the project's namespace only
                # its own keys (the others are providers' and the CLI's business).
                "propertyNames": {
                    "anyOf": [
                        {"enum": [f"{NAMESPACE}:cloud", f"{NAMESPACE}:resources", f"{NAMESPACE}:secrets"]},
                        {"pattern": f"^(?!{NAMESPACE}:)[^:]+:[^:]+$"},
                    ]
                },
            },
            # Written by `pulumi stack init` and `pulumi config`: the stack's secrets provider.
            "encryptionsalt": {"type": "string"},
            "secretsprovider": {"type": "string"},
            "encryptedkey": {"type": "string"},
            # Pulumi ESC environments imported into the stack's config.
            "environment": {
                "anyOf": [
                    {"type": "array", "items": {"type": "string", "minLength": 1}},
                    {
                        "type": "object",
                        "properties": {"imports": {"type": "array", "items": {"type": "string", "minLength": 1}}},
                    },
                ]
            },
        },
        "required": ["config"],
        "additionalProperties": False,
        "$defs": defs,
    }
    cleaned: dict[str, Any] = _without_titles(document, marks)
    return cleaned


def render() -> str:
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"
