"""The one model of a recorded plan (`python -m preflight plan --json`): how to read and
check one, how its values are spelled, what its resources are, and how they depend on
each other. tree, diff, rollout and policy all read plans through this module, so they
agree on what a "cluster", a "registration" or an unknown value is; they only render.

A plan is kept as the plain JSON document (dicts and lists), as the renderers and the
tests pass it around:

    {"project": ..., "stack": ..., "resources": [{"urn", "type", "name", "parent",
     "custom", "dependsOn", "provider", "inputs", "options": {..., "deletedWith"}}]}
"""

from __future__ import annotations

import functools
import math
import os
import re
import sys
from collections.abc import Iterator
from fnmatch import fnmatchcase
from typing import Any, TextIO, cast

from preflight import inputs
from preflight.escape import printable_document

Resource = dict[str, Any]
Plan = dict[str, Any]

CLOUD_TYPE = "anyscale-cloud:index:AnyscaleCloud"
CLOUD_RESOURCE_TYPE = "anyscale-cloud:index:CloudResource"
STACK_TYPE = "pulumi:pulumi:Stack"
PLATFORM_NAMESPACE = "Anyscale.Platform"

# --------------------------------------------------------------------------------
# Values: how a plan spells what it cannot show

SECRET = "[secret]"  # a secret value, redacted
# A value no one knows before the deploy. Two spellings: a placeholder names the output
# it stands for (`${<logical name>.<property>}`, what the mock cloud answers); the
# first-preview mode writes the engine's bare unknown.
UNKNOWN = "<unknown>"
PLACEHOLDER_RE = re.compile(r"\$\{([^}]*)\}")


def placeholder(name: str, path: str) -> str:
    """The value standing for output `path` of the resource named `name`."""
    return "${" + f"{name}.{path}" + "}"


def is_unknown(value: Any) -> bool:
    """The whole value is not known yet (a placeholder alone, or the engine's unknown)."""
    return isinstance(value, str) and (value == UNKNOWN or PLACEHOLDER_RE.fullmatch(value) is not None)


def holds_unknown(value: Any) -> bool:
    """The value is, or contains, something not known yet (`https://${acct.name}.blob...`)."""
    return isinstance(value, str) and (value == UNKNOWN or PLACEHOLDER_RE.search(value) is not None)


def references_any(text: str, names: set[str]) -> bool:
    """Does `text` hold a placeholder for an output of one of the resources `names`?

    Logical names may contain dots, so every dotted prefix is tried.
    """
    for body in PLACEHOLDER_RE.findall(text):
        parts = body.split(".")
        if any(".".join(parts[:k]) in names for k in range(1, len(parts) + 1)):
            return True
    return False


# --------------------------------------------------------------------------------
# Reading and checking a plan file


class PlanError(inputs.InputError):
    """A file that cannot be used as a plan (every preflight command exits 2)."""


# Each field of a plan record and the JSON types it may hold (None: absent or null).
_STR_OR_NULL = (str, type(None))
_FIELDS: dict[str, tuple[type, ...]] = {
    "parent": _STR_OR_NULL,
    "provider": _STR_OR_NULL,
    "custom": (bool, type(None)),
    "inputs": (dict, type(None)),
    "options": (dict, type(None)),
    "dependsOn": (list, type(None)),
}
_OPTION_FIELDS: dict[str, tuple[type, ...]] = {
    "protect": (bool, type(None)),
    "deleteBeforeReplace": (bool, type(None)),
    "retainOnDelete": (bool, type(None)),
    "deletedWith": _STR_OR_NULL,
    "replaceOnChanges": (list, type(None)),
    "ignoreChanges": (list, type(None)),
    "additionalSecretOutputs": (list, type(None)),
    "import": _STR_OR_NULL,  # the existing resource's ID, imported instead of created (config/adopt.py)
}
_STRING_LISTS = ("dependsOn", "replaceOnChanges", "ignoreChanges", "additionalSecretOutputs")
_KIND = {dict: "an object", list: "a list", str: "a string", bool: "true or false"}


def _kind(types: tuple[type, ...]) -> str:
    return " or ".join(_KIND[t] for t in types if t is not type(None)) + " (or null)"


def plan_problem(plan: Any) -> str | None:
    """Why `plan` is not a plan (None when it is): the shape every reader relies on,
    down to the type of each field, so that no reader meets a value it cannot use."""
    if not isinstance(plan, dict) or not isinstance(plan.get("resources"), list):
        return 'expected an object with a "resources" list (python -m preflight plan --json FILE)'
    for key in ("project", "stack"):
        if not isinstance(plan.get(key, ""), str):
            return f"`{key}` must be a string"
    if not isinstance(plan.get("outputs", {}), dict):
        return "`outputs` must be an object"
    seen: set[str] = set()
    for i, resource in enumerate(plan["resources"]):
        if (
            not isinstance(resource, dict)
            or not all(isinstance(resource.get(k), str) for k in ("urn", "type"))
            or not isinstance(resource.get("name", ""), str)
        ):
            return f"resources[{i}] is not a plan record: it needs a string `urn` and `type` (and `name`)"
        if resource["urn"] in seen:
            return f"resources[{i}] repeats URN {resource['urn']}"
        seen.add(resource["urn"])
        where = f"resources[{i}] ({resource_name(resource)})"
        for key, types in _FIELDS.items():
            if not isinstance(resource.get(key), types):
                return f"{where}: `{key}` must be {_kind(types)}"
        options = resource.get("options") or {}
        for key, types in _OPTION_FIELDS.items():
            if not isinstance(options.get(key), types):
                return f"{where}: `options.{key}` must be {_kind(types)}"
        for key in _STRING_LISTS:
            values = resource.get(key) if key == "dependsOn" else options.get(key)
            if values and not all(isinstance(v, str) for v in values):
                return f"{where}: every entry of `{key}` must be a string"
        odd = non_finite_path(resource.get("inputs"), "inputs")
        if odd:
            # NaN never equals itself (every diff would show a change) and JSON has no such number.
            return f"{where}: `{odd}` is not a finite number (NaN, infinity, or past a double's range); a plan holds the engine's numbers only"
    odd = non_finite_path(plan.get("outputs"), "outputs")
    if odd:
        return f"`{odd}` is not a finite number (NaN, infinity, or past a double's range); a plan holds the engine's numbers only"
    return None


def non_finite_path(value: Any, path: str) -> str | None:
    """The path of the first NaN, infinity or integer beyond a double's range in `value`
    (the engine's numbers are doubles: an integer past about 1.8e308 cannot come from it, and
    every figure computed from it would overflow), walked without recursion."""
    todo: list[tuple[Any, str]] = [(value, path)]
    while todo:
        item, where = todo.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return where
        if isinstance(item, int) and not isinstance(item, bool) and abs(item) > sys.float_info.max:
            return where
        if isinstance(item, dict):
            todo.extend((v, f"{where}.{k}") for k, v in item.items())
        elif isinstance(item, list):
            todo.extend((v, f"{where}[{i}]") for i, v in enumerate(item))
    return None


def validate(plan: Any) -> Plan:
    """`plan`, checked; PlanError("not a plan: ...") otherwise."""
    problem = plan_problem(plan)
    if problem:
        raise PlanError(f"not a plan: {problem}")
    return cast(Plan, plan)


def read_json(path: str) -> Any:
    """A JSON file (a plan, a policy config) through the input gate (preflight/inputs.py:
    regular files only, size and depth caps, no duplicate keys); PlanError with its
    one-line reason otherwise."""
    try:
        document = inputs.read_json(path)
    except inputs.InputError as error:
        raise PlanError(str(error)) from None
    # Everything a renderer shows comes from here: control characters end escaped.
    return printable_document(document)


def read(path: str) -> Plan:
    """A plan file, read and checked."""
    plan = read_json(path)
    problem = plan_problem(plan)
    if problem:
        raise PlanError(f"{path} is not a plan: {problem}")
    return cast(Plan, plan)


# --------------------------------------------------------------------------------
# Resources and their types


def plan_resources(plan: Plan) -> list[Resource]:
    return [r for r in plan.get("resources") or [] if isinstance(r, dict)]


def index_by_urn(resources: list[Resource]) -> dict[str, Resource]:
    return {str(r.get("urn")): r for r in resources}


def resource_name(resource: Resource) -> str:
    # The URN always ends with "::<name>", so it is the fallback for a missing name.
    return str(resource.get("name") or str(resource.get("urn", "")).rsplit("::", 1)[-1])


@functools.lru_cache(maxsize=4096)  # a plan has few types and many resources
def normalize_type(token: str) -> str:
    """`aws:s3/bucketV2:BucketV2` -> `aws:s3:BucketV2`; other tokens unchanged.

    The engine records full tokens (`pkg:module/fileName:TypeName`) while people
    write the short form; both must classify the same. Kubernetes puts the API
    version in that slot (`core/v1`), which is part of the type and is kept.
    """
    parts = token.split(":")
    if len(parts) != 3 or "/" not in parts[1]:
        return token
    package, module, name = parts
    base, _, rest = module.partition("/")
    same_file = rest[:1].lower() + rest[1:] == name[:1].lower() + name[1:]
    azure_api_version = package == "azure-native" and re.fullmatch(r"v\d{8}\w*", rest) is not None
    if same_file or azure_api_version:
        return f"{package}:{base}:{name}"
    return token


def type_matches(resource: Resource, *patterns: str) -> bool:
    """True when the resource's (normalized) type matches one of the glob patterns."""
    return _type_matches(normalize_type(str(resource.get("type", ""))), patterns)


@functools.lru_cache(maxsize=4096)
def _type_matches(token: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(token, pattern) for pattern in patterns)


def is_component(resource: Resource) -> bool:
    return resource.get("custom") is False or resource.get("type") == STACK_TYPE


def is_provider(resource: Resource) -> bool:
    return str(resource.get("type", "")).startswith("pulumi:providers:")


def registration_kind(resource: Resource) -> str | None:
    """ "cloudResource" for a cloud-resource registration, "cloud" for the cloud record."""
    if normalize_type(str(resource.get("type", ""))) != "azure-native:resources:Resource":
        return None
    inputs = resource.get("inputs") or {}
    if str(inputs.get("resourceProviderNamespace", "")).lower() != PLATFORM_NAMESPACE.lower():
        return None
    leaf = str(inputs.get("resourceType", "")).rsplit("/", 1)[-1].lower()
    return {"cloudresources": "cloudResource", "clouds": "cloud"}.get(leaf)


def import_id(resource: Resource) -> str | None:
    """The ID of the existing resource the program imports instead of creating, if any."""
    value = (resource.get("options") or {}).get("import")
    return value if isinstance(value, str) and value else None


def is_registration(resource: Resource) -> bool:
    return registration_kind(resource) == "cloudResource"


CLUSTER_PATTERNS = ("azure-native:containerservice:ManagedCluster", "aws:eks:Cluster", "gcp:container:Cluster")
# What holds a cloud resource's data, by what a reviewer calls it.
BUCKET_KINDS = {
    "azure-native:storage:StorageAccount": "storage account",
    "azure-native:storage:BlobContainer": "blob container",
    "aws:s3:Bucket": "bucket",
    "aws:s3:BucketV2": "bucket",
    "gcp:storage:Bucket": "bucket",
}


def is_cluster(resource: Resource) -> bool:
    return type_matches(resource, *CLUSTER_PATTERNS)


def bucket_kind(resource: Resource) -> str | None:
    """ "bucket", "storage account", ... for what holds data; None for anything else."""
    return next((label for pattern, label in BUCKET_KINDS.items() if type_matches(resource, pattern)), None)


def short_type(resource: Resource) -> str:
    """A compact, still unambiguous label: `azure:ManagedCluster`, `aws:eks:Cluster`, `k8s:Gateway`."""
    kind = registration_kind(resource)
    if kind:
        return f"anyscale:{kind}"
    token = normalize_type(str(resource.get("type", "")))
    parts = token.split(":")
    if len(parts) != 3:
        return token
    package, module, name = parts
    if package == "pulumi" and module == "providers":
        return f"provider:{name}"
    if package == "azure-native":
        return f"azure:{name}"  # Azure type names are distinctive on their own
    if package == "kubernetes":
        return f"helm:{name}" if module.startswith("helm.sh") else f"k8s:{name}"
    if module == "index":
        return f"{package}:{name}"
    return token


# --------------------------------------------------------------------------------
# The graph: parents, dependencies, providers, deletedWith


def provider_ref_urn(ref: str) -> str:
    """A provider reference is `<urn>::<id>`; the URN itself contains "::"."""
    return ref.rsplit("::", 1)[0]


class Graph:
    """The links between a plan's resources, indexed once. Links to a URN the plan does
    not hold (a hand-edited or partial plan) are left out; parent chains are guarded
    against cycles."""

    def __init__(self, resources: list[Resource]) -> None:
        self.resources = resources
        self.by_urn = index_by_urn(resources)
        self._children: dict[str, list[Resource]] = {}
        for resource in resources:
            if resource.get("parent"):
                self._children.setdefault(str(resource["parent"]), []).append(resource)
        self._descendants: dict[str, set[str]] = {}
        self._owners: dict[str, str | None] = {}  # URN -> its nearest CloudResource's URN

    @classmethod
    def of(cls, plan: Plan) -> Graph:
        return cls(plan_resources(plan))

    def get(self, urn: Any) -> Resource | None:
        return self.by_urn.get(urn) if isinstance(urn, str) else None

    def parent(self, resource: Resource) -> Resource | None:
        return self.get(resource.get("parent"))

    def children(self, urn: str) -> list[Resource]:
        """Direct children, in registration order."""
        return self._children.get(urn, [])

    def ancestors(self, resource: Resource) -> Iterator[Resource]:
        """Parents, nearest first."""
        seen: set[str] = set()
        parent = resource.get("parent")
        while parent and parent in self.by_urn and parent not in seen:
            seen.add(parent)
            yield self.by_urn[parent]
            parent = self.by_urn[parent].get("parent")

    def descendants(self, urn: str) -> set[str]:
        """Every URN below `urn` in the parent tree."""
        if urn not in self._descendants:
            found: set[str] = set()
            todo = [urn]
            while todo:
                for child in self._children.get(todo.pop(), []):
                    child_urn = str(child.get("urn"))
                    if child_urn not in found:
                        found.add(child_urn)
                        todo.append(child_urn)
            self._descendants[urn] = found
        return self._descendants[urn]

    def depends_on(self, resource: Resource) -> list[str]:
        """The URNs of `dependsOn` (explicit, and those of its inputs) held by the plan."""
        return [u for u in resource.get("dependsOn") or [] if u in self.by_urn]

    def provider(self, resource: Resource) -> Resource | None:
        """The explicit provider the resource is created with."""
        ref = resource.get("provider")
        if not ref:
            return None
        return self.by_urn.get(str(ref)) or self.by_urn.get(provider_ref_urn(str(ref)))

    def deleted_with(self, resource: Resource) -> Resource | None:
        """The resource whose deletion takes this one with it (no delete call of its own)."""
        return self.get((resource.get("options") or {}).get("deletedWith"))

    def cloud_resource_of(self, resource: Resource) -> Resource | None:
        """The nearest CloudResource component at or above this resource, if any. Each
        answer is kept for every resource on the way up, so a whole plan costs linear time
        however deep its parent chains are."""
        if resource.get("type") == CLOUD_RESOURCE_TYPE:
            return resource
        urn = resource.get("urn")
        if isinstance(urn, str) and urn in self._owners:
            return self.get(self._owners[urn])
        on_the_way: list[str] = [urn] if isinstance(urn, str) and self.by_urn.get(urn) is resource else []
        seen: set[str] = set()
        found: str | None = None
        parent = resource.get("parent")
        while isinstance(parent, str) and parent in self.by_urn and parent not in seen:
            seen.add(parent)
            if parent in self._owners:
                found = self._owners[parent]
                break
            if self.by_urn[parent].get("type") == CLOUD_RESOURCE_TYPE:
                found = parent
                break
            on_the_way.append(parent)
            parent = self.by_urn[parent].get("parent")
        for passed in on_the_way:
            self._owners[passed] = found
        return self.get(found)

    def registration_of(self, cloud_resource: Resource) -> Resource | None:
        """The cloud-resource registration inside a CloudResource component."""
        return next(
            (r for r in self.resources if is_registration(r) and self.cloud_resource_of(r) is cloud_resource), None
        )

    def group_name(self, resource: Resource) -> str:
        """The cloud resource a resource belongs to, or "cloud" for the cloud's own."""
        owner = self.cloud_resource_of(resource)
        return resource_name(owner) if owner else "cloud"


# --------------------------------------------------------------------------------
# Terminal output, the same rule for every command


def use_color(stream: TextIO | None = None) -> bool:
    """Colour only on a terminal, and never with NO_COLOR set to anything non-empty
    (https://no-color.org)."""
    stream = stream or sys.stdout
    return stream.isatty() and not os.environ.get("NO_COLOR")
