"""What changed between two recorded plans: each resource's action (create, delete,
update, replace or same, matched by URN), its changed inputs as property paths, and why a
change is disruptive. preflight/diff.py is the command that renders it (its docstring
states what an offline comparison cannot see)."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from policy.rules.platform import REGISTRATION_REPLACING_PATHS
from preflight.disruption import bucket_name_input, disruption_reasons, same_name_bucket_reason, version_reasons
from preflight.imports import import_problems
from preflight.planfile import (
    PLACEHOLDER_RE,
    SECRET,
    Graph,
    Plan,
    Resource,
    import_id,
    is_registration,
    normalize_type,
    provider_ref_urn,
    references_any,
    resource_name,
    short_type,
    type_matches,
)
from preflight.refusals import refused_updates, system_pool_notes
from preflight.replacements import PROVIDER_REPLACES
from preflight.scaling import scaling_risks

# display order; "same" is not shown. "import": a resource new to the plan that the program
# adopts (options.import, config/adopt.py) rather than creates.
ACTIONS = ("import", "create", "update", "replace", "delete")
SYMBOLS = {"import": "=>", "create": "+", "update": "~", "replace": "+-", "delete": "-", "same": "="}

# Inputs whose change always replaces the resource, whatever replaceOnChanges says:
# they are its identity (part of the ARM ID, the Kubernetes name, the cloud's name
# for it), so the provider cannot update them in place. Not exhaustive: the inputs
# this program sets. Every row whose glob matches the normalized type applies.
IDENTITY_PATHS: list[tuple[str, tuple[str, ...]]] = [
    ("azure-native:*", ("location", "resourceGroupName", "resourceName")),
    ("azure-native:resources:Resource", ("resourceProviderNamespace", "resourceType", "parentResourcePath")),
    ("azure-native:storage:*", ("accountName", "containerName")),
    ("azure-native:containerservice:AgentPool", ("agentPoolName",)),
    ("azure-native:containerservice:MaintenanceConfiguration", ("configName",)),
    ("azure-native:containerregistry:Registry", ("registryName",)),
    ("azure-native:managedidentity:FederatedIdentityCredential", ("federatedIdentityCredentialResourceName",)),
    (
        "azure-native:kubernetesconfiguration:Extension",
        ("extensionName", "clusterName", "clusterRp", "clusterResourceName"),
    ),
    # ARM refuses to update a role assignment; a new principal or role is a new one.
    ("azure-native:authorization:RoleAssignment", ("scope", "roleAssignmentName", "principalId", "roleDefinitionId")),
    ("kubernetes:helm.sh/*:Release", ("name", "namespace")),
    ("kubernetes:*", ("metadata.name", "metadata.namespace")),
    # pulumi-aws 7 (terraform-provider-aws v6) gives every regional resource a `region`
    # argument whose change forces replacement (website/docs/guides/enhanced-region-support,
    # "How region works"): the program sets it on the bucket and its settings.
    ("aws:*", ("region",)),
    ("aws:eks:*", ("name", "clusterName", "nodeGroupName")),
    ("aws:s3:*", ("bucket",)),
    ("aws:iam:Role", ("name",)),
    ("gcp:container:*", ("name", "location", "project", "cluster")),
    ("gcp:storage:Bucket", ("name", "location", "project")),
    ("gcp:serviceaccount:Account", ("accountId", "project")),
    ("random:*", ("*",)),  # every input of a random resource is a keeper
]


class _Missing:
    """An input absent on one side; distinct from an explicit null."""

    def __repr__(self) -> str:
        return "<absent>"


MISSING: Any = _Missing()


@dataclass
class PropertyChange:
    path: str
    old: Any  # None when absent (see kind); "[secret]" when either side is secret
    new: Any
    kind: str  # "changed", "added", "removed", or "computed" (known only after apply)
    forces_replacement: bool = False
    note: str = ""


@dataclass
class Change:
    urn: str
    type: str
    name: str
    action: str  # import, create, delete, update, replace, same
    disruptive: bool = False
    reasons: list[str] = field(default_factory=list)
    properties: list[PropertyChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # option and provider changes, ignored paths
    cloud_resource: str | None = None
    hidden_secrets: int = 0  # secret inputs in both plans: a change there cannot be seen
    label: str = ""  # short type, for display


# --------------------------------------------------------------------------------
# Property paths, in Pulumi's syntax: a.b, a[0], a["key.with.dots"], * wildcards

PathPart = str | int
SIMPLE_KEY = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*")
WILDCARD = "*"


def format_path(parts: list[PathPart]) -> str:
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif SIMPLE_KEY.fullmatch(part):
            text += f".{part}" if text else part
        else:
            text += f"[{json.dumps(part)}]"
    return text


def parse_path(text: str) -> list[PathPart]:
    """The inverse of format_path, plus `*` and `[*]`; a malformed path is one key."""
    parts: list[PathPart] = []
    i = 0
    try:
        while i < len(text):
            if text[i] == ".":
                i += 1
            elif text[i] == "[" and text[i + 1 : i + 2] == '"':
                key, end = json.JSONDecoder().raw_decode(text, i + 1)
                if text[end] != "]":
                    raise ValueError(text)
                parts.append(key)
                i = end + 1
            elif text[i] == "[":
                end = text.index("]", i)
                inner = text[i + 1 : end]
                parts.append(int(inner) if inner.isdigit() else inner)
                i = end + 1
            else:
                match = re.compile(r"[^.\[]+").match(text, i)
                assert match is not None
                parts.append(match.group())
                i = match.end()
    except (ValueError, IndexError):
        return [text]
    return parts


def covers(pattern: list[PathPart], path: list[PathPart], upward: bool) -> bool:
    """Does `pattern` name `path` or an ancestor of it?

    With `upward`, a change of an ancestor of the pattern counts too: when a whole
    object is added, removed or retyped, what the pattern names changed with it.
    """
    if not pattern or (not upward and len(pattern) > len(path)):
        return False
    return all(p in (WILDCARD, q) for p, q in zip(pattern, path, strict=False))


def covered_by_any(patterns: list[str], path: list[PathPart], upward: bool) -> bool:
    return any(covers(parse_path(p), path, upward) for p in patterns if isinstance(p, str))


def identity_patterns(resource: Resource) -> list[str]:
    return list(_identity_patterns(normalize_type(str(resource.get("type", "")))))


@functools.lru_cache(maxsize=4096)  # per type: a plan has few types and many resources
def _identity_patterns(token: str) -> tuple[str, ...]:
    """The identity paths and the provider's own replacing inputs (preflight/replacements.py)."""
    rows = [*IDENTITY_PATHS, *PROVIDER_REPLACES]
    return tuple(path for pattern, paths in rows if fnmatchcase(token, pattern) for path in paths)


# --------------------------------------------------------------------------------
# Comparing inputs


def same_value(old: Any, new: Any) -> bool:
    if old is MISSING or new is MISSING:
        return old is new
    # JSON true == 1 in Python; a bool turning into a number is a change.
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new) and old == new
    return bool(old == new)


@dataclass
class InputDiff:
    """Leaf-level differences between two input trees."""

    renewed: set[str]  # logical names of resources replaced: their outputs change
    found: list[tuple[list[PathPart], Any, Any, bool]] = field(default_factory=list)
    hidden_secrets: int = 0

    def walk(self, old: Any, new: Any, path: list[PathPart]) -> None:
        if isinstance(old, dict) and isinstance(new, dict):
            for key in list(old) + [k for k in new if k not in old]:
                self.walk(old.get(key, MISSING), new.get(key, MISSING), path + [key])
        elif isinstance(old, list) and isinstance(new, list):
            for i in range(max(len(old), len(new))):
                self.walk(old[i] if i < len(old) else MISSING, new[i] if i < len(new) else MISSING, path + [i])
        elif not same_value(old, new):
            self.found.append((path, old, new, False))
        elif new == SECRET:
            self.hidden_secrets += 1
        elif isinstance(new, str) and references_any(new, self.renewed):
            self.found.append((path, old, new, True))


def holds_secret(value: Any) -> bool:
    """Is `value` a redacted secret, or a container with one anywhere inside?"""
    todo = [value]
    while todo:
        item = todo.pop()
        if item == SECRET and isinstance(item, str):
            return True
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False


def redacted(path: list[PathPart], old: Any, new: Any, computed: bool, forces: bool) -> PropertyChange:
    kind = "computed" if computed else "added" if old is MISSING else "removed" if new is MISSING else "changed"
    note = ""
    if computed:
        note = "known after apply: it reads an output of a replaced resource"
    elif holds_secret(old) or holds_secret(new):
        # Redact both sides, whole: a value that used to be secret (or held one, at any
        # depth) is sensitive even if the new plan sends it in clear, and the diff is
        # often posted publicly.
        if holds_secret(old) and new is not MISSING and not holds_secret(new):
            note = "was secret, now in clear text"
        elif holds_secret(new) and old is not MISSING and not holds_secret(old):
            note = "now secret"
        old = SECRET if old is not MISSING else MISSING
        new = SECRET if new is not MISSING else MISSING
    return PropertyChange(
        path=format_path(path),
        old=None if old is MISSING else old,
        new=None if new is MISSING else new,
        kind=kind,
        forces_replacement=forces,
        note=note,
    )


def merged_options(base: Resource | None, head: Resource | None) -> dict[str, Any]:
    """HEAD's options, each falling back to BASE's."""
    return {**((base or {}).get("options") or {}), **((head or {}).get("options") or {})}


def option_notes(base: Resource, head: Resource) -> list[str]:
    old, new = base.get("options") or {}, head.get("options") or {}
    notes = [
        f"option {key}: {json.dumps(old.get(key))} -> {json.dumps(new.get(key))}"
        for key in list(old) + [k for k in new if k not in old]
        if old.get(key) != new.get(key)
    ]
    old_provider = provider_ref_urn(str(base.get("provider") or ""))
    new_provider = provider_ref_urn(str(head.get("provider") or ""))
    if old_provider != new_provider:
        notes.append(f"provider: {old_provider or 'default'} -> {new_provider or 'default'} (may replace)")
    return notes


def compare(base: Resource, head: Resource, renewed: set[str]) -> Change:
    """A resource present in both plans: same, update or replace."""
    diff = InputDiff(renewed)
    diff.walk(base.get("inputs") or {}, head.get("inputs") or {}, [])
    options = merged_options(base, head)
    ignored = [p for p in options.get("ignoreChanges") or [] if isinstance(p, str)]
    replacing = list(options.get("replaceOnChanges") or []) + identity_patterns(head)
    if is_registration(head):
        # The paths the platform fixes replace whatever the plan's options say: a head plan
        # that dropped replaceOnChanges must not turn a delete-and-create into an "update".
        replacing += REGISTRATION_REPLACING_PATHS
    change = new_change(head, "same")
    change.notes = option_notes(base, head)
    change.hidden_secrets = diff.hidden_secrets
    for path, old, new, computed in diff.found:
        if covered_by_any(ignored, path, upward=False):
            change.notes.append(f"ignored (ignoreChanges): {format_path(path)}")
            continue
        forces = covered_by_any(replacing, path, upward=True)
        change.properties.append(redacted(path, old, new, computed, forces))
    if change.properties:
        change.action = "replace" if any(p.forces_replacement for p in change.properties) else "update"
    change.notes += scaling_notes(head, change, ignored)
    return change


def scaling_notes(head: Resource, change: Change, ignored: list[str]) -> list[str]:
    """An AKS pool's `count` is ignored (the autoscaler owns it), so an update sends the
    count held in the state: the creation count unless a refresh read the current one, and
    one outside new bounds is refused."""
    if change.action != "update" or "count" not in ignored:
        return []
    if not type_matches(head, "azure-native:containerservice:AgentPool"):
        return []
    if not any(p.path in ("minCount", "maxCount") for p in change.properties):
        return []
    return [
        "the update re-sends the pool's count from the state (ignoreChanges: count), the creation count unless a "
        "refresh read the autoscaler's: run `pulumi up --refresh` so that AKS gets the current one"
    ]


def all_inputs(resource: Resource, added: bool) -> list[PropertyChange]:
    """Every top-level input of a created (or deleted) resource."""
    diff = InputDiff(set())
    empty: dict[str, Any] = {}
    inputs = resource.get("inputs") or {}
    diff.walk(empty if added else inputs, inputs if added else empty, [])
    return [redacted(path, old, new, False, False) for path, old, new, _ in diff.found]


def new_change(resource: Resource, action: str) -> Change:
    return Change(
        urn=str(resource["urn"]),
        type=str(resource["type"]),
        name=resource_name(resource),
        action=action,
        label=short_type(resource),
    )


# --------------------------------------------------------------------------------
# The diff


def _change_of(urn: str, base_graph: Graph, head_graph: Graph, renewed: set[str]) -> Change:
    """The change of the resource `urn` of HEAD (a create when BASE does not have it)."""
    resource = head_graph.by_urn[urn]
    base_resource = base_graph.by_urn.get(urn)
    risks: list[str] = []
    if base_resource is not None:
        change = compare(base_resource, resource, renewed)
        options = merged_options(base_resource, resource)
        risks = scaling_risks(base_resource, resource) if change.action == "update" else []
    else:
        adopted = import_id(resource)
        change, options = new_change(resource, "import" if adopted else "create"), merged_options(None, resource)
        change.properties = all_inputs(resource, added=True)
        if adopted:
            change.notes.append(f"imported from {adopted}: the import fails where Azure holds other values")
    owner = head_graph.cloud_resource_of(resource)
    change.cloud_resource = resource_name(owner) if owner else None
    change.reasons = disruption_reasons(resource, change.action, options, change.cloud_resource, base_resource) + risks
    # An import the plan's own inputs contradict (preflight/imports.py); checked on every
    # resource carrying an import ID, since `pulumi up` re-reads it until it succeeds once.
    change.reasons += import_problems(resource) if change.action in ("import", "create") else []
    if change.action == "update":
        change.reasons += version_reasons(base_resource, resource)
    # What the cloud refuses or never receives, whatever the provider plans.
    change.reasons += refused_updates(base_resource, resource, change.action)
    if change.action == "replace":
        renamed = any(p.path == bucket_name_input(resource) for p in change.properties)
        change.reasons += same_name_bucket_reason(resource, options, base_resource, renamed)
    if change.action != "same":
        change.notes += system_pool_notes(base_resource, resource)
    change.disruptive = bool(change.reasons)
    return change


def _deletion(resource: Resource, base_graph: Graph) -> Change:
    change = new_change(resource, "delete")
    change.properties = all_inputs(resource, added=False)
    owner = base_graph.cloud_resource_of(resource)
    change.cloud_resource = resource_name(owner) if owner else None
    # A deletion follows the options recorded with the old resource.
    change.reasons = disruption_reasons(resource, "delete", merged_options(None, resource), change.cloud_resource)
    change.disruptive = bool(change.reasons)
    return change


def referenced_names(value: Any) -> set[str]:
    """Every logical name a placeholder in `value` could name (each dotted prefix of its
    body, as references_any tries them), walked without recursion."""
    names: set[str] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, str) and "${" in item:
            for body in PLACEHOLDER_RE.findall(item):
                parts = body.split(".")
                names.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
    return names


def renewed_names(changes: list[Change]) -> set[str]:
    """Logical names whose outputs will differ: replaced, or deleted and created anew."""
    created = {c.name for c in changes if c.action == "create"}
    deleted = {c.name for c in changes if c.action == "delete"}
    return {c.name for c in changes if c.action == "replace"} | (created & deleted)


def diff_plans(base: Plan, head: Plan) -> list[Change]:
    """Every resource of both plans with its action, in HEAD's order, deletions last.

    A replacement changes the outputs other resources read, which may replace those
    in turn (a new random suffix -> a new storage account name -> a new bucket). Only
    the resources that read a newly renewed name are compared again, each time one of
    the names they read is renewed, so a chain of N replacements costs linear time
    rather than N whole comparisons.
    """
    base_graph, head_graph = Graph.of(base), Graph.of(head)
    order = list(head_graph.by_urn)
    changes: dict[str, Change] = {urn: _change_of(urn, base_graph, head_graph, set()) for urn in order}
    deletions = [_deletion(r, base_graph) for urn, r in base_graph.by_urn.items() if urn not in head_graph.by_urn]
    # Which resources (in both plans: only a comparison reads `renewed`) read which name.
    readers: dict[str, list[str]] = {}
    for urn in order:
        if urn in base_graph.by_urn:
            for name in referenced_names(head_graph.by_urn[urn].get("inputs")):
                readers.setdefault(name, []).append(urn)
    renewed: set[str] = set()
    fresh = renewed_names([*changes.values(), *deletions])
    while fresh:
        renewed |= fresh
        affected = dict.fromkeys(urn for name in fresh for urn in readers.get(name, ()))
        fresh = set()
        for urn in affected:
            change = _change_of(urn, base_graph, head_graph, renewed)
            changes[urn] = change
            if change.action == "replace" and change.name not in renewed:
                fresh.add(change.name)
    return [*changes.values(), *deletions]
