"""A readable tree of a recorded plan, grouped by cloud resource, and its summary.

Only rendering: what a resource is and how resources hang together comes from the
plan model (planfile.py), which diff, rollout and policy read too.
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from typing import Any

from policy.rules.platform import AZURE_ROLES, REGISTRATION_PROPERTIES
from preflight.planfile import (
    CLOUD_RESOURCE_TYPE,
    CLOUD_TYPE,
    SECRET,
    STACK_TYPE,
    Graph,
    Plan,
    Resource,
    holds_unknown,
    import_id,
    is_component,
    is_provider,
    plan_resources,
    registration_kind,
    resource_name,
    short_type,
    type_matches,
)

# --------------------------------------------------------------------------------
# Key values shown under each resource

# Role definition IDs are shown by name (AZURE_ROLES: the built-in roles, the same in
# every tenant); unknown IDs are shown as they are.
STORAGE_PATTERNS = ("azure-native:storage:*", "aws:s3:*", "gcp:storage:*")
ROLE_PATTERNS = (
    "azure-native:authorization:RoleAssignment",
    "gcp:*:IAMMember",
    "gcp:*:IAMBinding",
    "aws:iam:RolePolicy",
    "aws:iam:RolePolicyAttachment",
)
STORAGE_NAME_KEYS = ("accountName", "containerName", "bucket", "name", "location", "kind")
# The inputs a reviewer looks for first, per type (dotted paths through objects);
# the types not listed get a few scalar inputs, name-like ones first.
KEY_INPUTS: list[tuple[str, tuple[str, ...]]] = [
    (
        "azure-native:containerservice:ManagedCluster",
        (
            "resourceName",
            "kubernetesVersion",
            "location",
            "sku.tier",
            "oidcIssuerProfile.enabled",
            "securityProfile.workloadIdentity.enabled",
        ),
    ),
    (
        "azure-native:containerservice:AgentPool",
        ("agentPoolName", "mode", "vmSize", "minCount", "maxCount", "scaleSetPriority", "nodeTaints"),
    ),
    (
        "azure-native:containerservice:MaintenanceConfiguration",
        (
            "configName",
            "maintenanceWindow.schedule.weekly.dayOfWeek",
            "maintenanceWindow.startTime",
            "maintenanceWindow.durationHours",
            "maintenanceWindow.utcOffset",
        ),
    ),
    ("azure-native:managedidentity:FederatedIdentityCredential", ("issuer", "subject", "audiences")),
    ("azure-native:managedidentity:UserAssignedIdentity", ("resourceName", "location")),
    ("azure-native:containerregistry:Registry", ("registryName", "sku.name", "location")),
    ("azure-native:resources:ResourceGroup", ("resourceGroupName", "location")),
    ("aws:eks:Cluster", ("name", "version", "roleArn")),
    (
        "aws:eks:NodeGroup",
        ("nodeGroupName", "instanceTypes", "capacityType", "scalingConfig.minSize", "scalingConfig.maxSize"),
    ),
    ("aws:iam:Role", ("name", "assumeRolePolicy")),
    ("gcp:container:Cluster", ("name", "location", "minMasterVersion", "workloadIdentityConfig.workloadPool")),
    (
        "gcp:container:NodePool",
        ("name", "nodeConfig.machineType", "nodeConfig.spot", "autoscaling.minNodeCount", "autoscaling.maxNodeCount"),
    ),
    ("gcp:serviceaccount:Account", ("accountId", "project")),
]
REGISTRATION_ORDER = REGISTRATION_PROPERTIES  # platform.md 1.1
GENERIC_PREFERRED = ("name", "version", "location", "region", "size", "count", "sku", "type", "namespace")
GENERIC_LIMIT = 4
# A Kubernetes object's type already says apiVersion and kind; the resource group is
# the same everywhere and shown in the cloud's header.
GENERIC_SKIPPED = {"apiVersion", "kind", "resourceGroupName"}


def scalar_text(value: Any) -> str:
    """How a value reads in the tree: strings bare, so `${...}`, `<unknown>` and `[secret]`
    show as they are."""
    if isinstance(value, str):
        return value if value else '""'  # an empty string is a deliberate value (e.g. an endpoint)
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return ", ".join(scalar_text(v) for v in value) or "[]"
    return json.dumps(value, separators=(",", ":"))


def get_path(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def find_key_values(data: Any, keys: set[str]) -> list[Any]:
    """Every value stored under one of `keys`, at any depth (lists flattened)."""
    found: list[Any] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in keys:
                found.extend(value if isinstance(value, list) else [value])
            else:
                found.extend(find_key_values(value, keys))
    elif isinstance(data, list):
        for item in data:
            found.extend(find_key_values(item, keys))
    return found


# The inputs every platform record (the cloud, its cloud resources) has, the same across the
# cloud; every other input is shown, so that a misspelt or stray key reaches the reviewer.
RECORD_ROUTINE_INPUTS = frozenset(
    {"resourceGroupName", "resourceProviderNamespace", "resourceType", "parentResourcePath", "properties"}
)


def other_inputs(inputs: dict[str, Any], shown: tuple[str, ...]) -> list[tuple[str, str]]:
    return [
        (key, scalar_text(value))
        for key, value in inputs.items()
        if key not in RECORD_ROUTINE_INPUTS and key not in shown
    ]


def registration_details(resource: Resource, graph: Graph) -> list[tuple[str, str]]:
    inputs = resource.get("inputs") or {}
    rows = [("name", scalar_text(inputs.get("resourceName", resource_name(resource))))]
    properties = inputs.get("properties")
    if isinstance(properties, dict):
        # the order of platform.md, whatever order the plan's JSON has; every key shown
        ordered = [k for k in REGISTRATION_ORDER if k in properties] + [
            k for k in properties if k not in REGISTRATION_ORDER
        ]
        rows += [(key, scalar_text(properties[key])) for key in ordered]
    elif properties is not None:
        rows.append(("properties", scalar_text(properties)))
    rows += other_inputs(inputs, ("resourceName", "apiVersion", "location"))
    # Registrations are chained on purpose (platform.md 1.2); show the link.
    previous = [
        resource_name(graph.by_urn[u])
        for u in graph.depends_on(resource)
        if registration_kind(graph.by_urn[u]) == "cloudResource"
    ]
    if previous:
        rows.append(("after", ", ".join(previous)))
    return rows


def cloud_record_details(resource: Resource) -> list[tuple[str, str]]:
    inputs = resource.get("inputs") or {}
    shown = ("resourceName", "location", "apiVersion")
    rows = [(key, scalar_text(inputs[key])) for key in shown if key in inputs]
    properties = inputs.get("properties")
    if isinstance(properties, dict):
        rows += [(key, scalar_text(value)) for key, value in properties.items()]
    elif properties is not None:
        rows.append(("properties", scalar_text(properties)))
    return rows + other_inputs(inputs, shown)


def wired_leaves(data: Any, path: str) -> list[tuple[str, str]]:
    """Leaves holding a value not known yet (a cloud-only output) or a secret: the wiring
    worth seeing."""
    if isinstance(data, dict):
        return [row for key, value in data.items() for row in wired_leaves(value, f"{path}.{key}")]
    if isinstance(data, list):
        return [row for i, value in enumerate(data) for row in wired_leaves(value, f"{path}[{i}]")]
    text = scalar_text(data)
    return [(path, text)] if holds_unknown(data) or SECRET in text else []


def helm_details(inputs: dict[str, Any]) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = [
        (key, scalar_text(inputs[key])) for key in ("chart", "version", "name", "namespace") if key in inputs
    ]
    repo = get_path(inputs, "repositoryOpts", "repo")
    if repo is not None:
        rows.append(("repo", scalar_text(repo)))
    return rows + wired_leaves(inputs.get("values"), "values")


def gateway_details(inputs: dict[str, Any]) -> list[tuple[str, str]]:
    spec = inputs.get("spec") or {}
    rows = [("class", scalar_text(spec["gatewayClassName"]))] if "gatewayClassName" in spec else []
    for listener in spec.get("listeners") or []:
        if not isinstance(listener, dict):
            continue
        name = f"listener {scalar_text(listener.get('name', '?'))}"
        text = f"{listener.get('protocol', '?')} :{listener.get('port', '?')}"
        if listener.get("hostname"):
            text += f" {scalar_text(listener['hostname'])}"
        rows.append((name, text))
        secrets = [scalar_text(s) for s in find_key_values(listener.get("tls"), {"name"})]
        if secrets:
            rows.append((f"{name} secret", ", ".join(secrets)))
    return rows


def extension_details(inputs: dict[str, Any]) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = [
        (key, scalar_text(inputs[key])) for key in ("extensionType", "releaseTrain", "version") if key in inputs
    ]
    settings = inputs.get("configurationSettings")
    if isinstance(settings, dict):
        rows += [(key, scalar_text(settings[key])) for key in sorted(settings)]
    protected = inputs.get("configurationProtectedSettings")
    if isinstance(protected, dict):
        rows += [(f"{key} (protected)", scalar_text(value)) for key, value in protected.items()]
    elif protected is not None:
        rows.append(("protected settings", scalar_text(protected)))
    return rows


def role_details(inputs: dict[str, Any]) -> list[tuple[str, str]]:
    role = inputs.get("roleDefinitionId", inputs.get("role"))
    rows: list[tuple[str, str]] = []
    if role is not None:
        text = scalar_text(role)
        name = AZURE_ROLES.get(text.rsplit("/", 1)[-1].lower())
        rows.append(("role", name or text))
    principal = inputs.get("principalId", inputs.get("member"))
    if principal is not None:
        kind = f" ({inputs['principalType']})" if "principalType" in inputs else ""
        rows.append(("principal", scalar_text(principal) + kind))
    rows += [(key, scalar_text(inputs[key])) for key in ("scope", "policyArn") if key in inputs]
    return rows


def storage_details(inputs: dict[str, Any]) -> list[tuple[str, str]]:
    rows = [
        (key, scalar_text(inputs[key]))
        for key in STORAGE_NAME_KEYS
        if key in inputs and not isinstance(inputs[key], (dict, list))
    ]
    origins = find_key_values(inputs, {"allowedOrigins", "origins"})
    if origins:
        rows.append(("CORS origins", ", ".join(dict.fromkeys(scalar_text(o) for o in origins))))
    return rows


def key_input_details(resource: Resource, inputs: dict[str, Any]) -> list[tuple[str, str]]:
    paths = [path for pattern, paths in KEY_INPUTS if type_matches(resource, pattern) for path in paths]
    values = [(path, get_path(inputs, *path.split("."))) for path in paths]
    return [(path, scalar_text(value)) for path, value in values if value is not None]


def generic_details(inputs: dict[str, Any]) -> list[tuple[str, str]]:
    """A few scalar inputs (top level and one level down), name-like ones first."""
    leaves: list[tuple[str, str]] = []
    for key, value in inputs.items():
        if key in GENERIC_SKIPPED:
            continue
        if isinstance(value, dict):
            leaves += [(f"{key}.{k}", scalar_text(v)) for k, v in value.items() if not isinstance(v, (dict, list))]
        elif not isinstance(value, list):
            leaves.append((key, scalar_text(value)))
    preferred = [row for row in leaves if any(word in row[0].lower() for word in GENERIC_PREFERRED)]
    others = [row for row in leaves if row not in preferred]
    return (preferred + others)[:GENERIC_LIMIT]


def details(resource: Resource, graph: Graph) -> list[tuple[str, str]]:
    inputs = resource.get("inputs") or {}
    kind = registration_kind(resource)
    if kind == "cloudResource":
        return registration_details(resource, graph)
    if kind == "cloud":
        return cloud_record_details(resource)
    if type_matches(resource, "kubernetes:helm.sh/*:Release"):
        return helm_details(inputs)
    if type_matches(resource, "kubernetes:gateway.networking.k8s.io/*:Gateway"):
        return gateway_details(inputs)
    if type_matches(resource, "azure-native:kubernetesconfiguration:Extension"):
        return extension_details(inputs)
    if type_matches(resource, *ROLE_PATTERNS):
        return role_details(inputs)
    if type_matches(resource, *STORAGE_PATTERNS):
        return storage_details(inputs)
    return key_input_details(resource, inputs) or generic_details(inputs)


# --------------------------------------------------------------------------------
# Layout: every line is a list of (text, style) segments, clipped to the width
# before colour is added, so ANSI codes never count against the width.

Segment = tuple[str, str]
Line = list[Segment]

STYLES = {"header": "1", "group": "1;36", "type": "36", "name": "1", "key": "2", "muted": "2"}
MAX_VALUE_LINES = 4  # a long value (a policy document, say) is cut after this many lines
TYPE_COLUMN_MAX = 30


def clip(line: Line, width: int) -> Line:
    """Cut a line to `width` visible characters, marking the cut with "..."."""
    if sum(len(text) for text, _ in line) <= width:
        return line
    room = max(width - 3, 0)
    clipped: Line = []
    for text, style in line:
        piece = text[:room]
        room -= len(piece)
        if piece:
            clipped.append((piece, style))
        if room == 0:
            break
    clipped.append(("..."[: min(3, width)], "muted"))
    return clipped


def paint(line: Line, color: bool) -> str:
    if not color:
        return "".join(text for text, _ in line).rstrip()
    parts = [f"\x1b[{STYLES[style]}m{text}\x1b[0m" if style and text.strip() else text for text, style in line]
    return "".join(parts).rstrip()


def wrap_value(indent: int, key: str, value: str, width: int) -> list[Line]:
    """`key: value` on one line when it fits; otherwise the value wrapped below the key.

    Wrapping beside a long key would leave a sliver of a column on narrow terminals
    and chop every reference into pieces; below the key it gets the whole width.
    """
    prefix = " " * indent
    label = f"{key}: "
    if indent + len(label) + len(value) <= width:
        return [[(prefix, ""), (label, "key"), (value, "")]]
    wrap_width = max(width - indent - 2, 1)
    chunks = textwrap.wrap(value, width=wrap_width, break_long_words=True, break_on_hyphens=False) or [""]
    if len(chunks) > MAX_VALUE_LINES:
        chunks = chunks[:MAX_VALUE_LINES]
        chunks[-1] = chunks[-1][: max(wrap_width - 3, 0)] + "..."
    return [[(prefix, ""), (label.rstrip(), "key")]] + [[(prefix + "  ", ""), (chunk, "")] for chunk in chunks]


def entry_line(indent: int, resource: Resource, type_column: int) -> Line:
    label = short_type(resource)
    return [(" " * indent, ""), (label.ljust(type_column), "type"), (" ", ""), (resource_name(resource), "name")]


def resource_lines(resource: Resource, indent: int, ctx: TreeContext) -> list[Line]:
    entry = entry_line(indent, resource, ctx.type_column)
    if sum(len(text) for text, _ in entry) > ctx.width:
        # Too narrow for type and name side by side: the name (what a reviewer looks
        # for) goes on a line of its own rather than being cut.
        entry = entry[:2]
        entry[1] = (entry[1][0].rstrip(), "type")
        lines = [entry, [(" " * (indent + 2), ""), (resource_name(resource), "name")]]
    else:
        lines = [entry]
    adopted = import_id(resource)
    if adopted:
        # Adopted (config/adopt.py): `pulumi up` imports this ID instead of creating it.
        lines += wrap_value(indent + 4, "import", adopted, ctx.width)
    for key, value in details(resource, ctx.graph):
        lines += wrap_value(indent + 4, key, value, ctx.width)
    return lines


class TreeContext:
    """What every level of the recursive layout needs; built once per render."""

    def __init__(self, resources: list[Resource], width: int) -> None:
        self.resources = resources
        self.graph = Graph(resources)
        self.width = width
        longest = max((len(short_type(r)) for r in resources if not is_component(r)), default=0)
        self.type_column = min(longest, TYPE_COLUMN_MAX, max(width // 2 - 4, 8))


def subtree_lines(urn: str, indent: int, ctx: TreeContext) -> list[Line]:
    """Children of `urn` in registration order; components become headings."""
    lines: list[Line] = []
    for child in ctx.graph.children(urn):
        if is_component(child):
            component = str(child.get("type", "")).rsplit(":", 1)[-1]
            lines.append([(" " * indent, ""), (component, "group"), (" ", ""), (resource_name(child), "name")])
            lines += subtree_lines(str(child.get("urn")), indent + 2, ctx)
        else:
            lines += resource_lines(child, indent, ctx)
            lines += subtree_lines(str(child.get("urn")), indent + 2, ctx)
    return lines


def cloud_header(ctx: TreeContext) -> Line:
    cloud = next((r for r in ctx.resources if r.get("type") == CLOUD_TYPE), None)
    record = next((r for r in ctx.resources if registration_kind(r) == "cloud"), None)
    inputs = (record or {}).get("inputs") or {}
    name = resource_name(cloud) if cloud else scalar_text(inputs.get("resourceName", "(unnamed)"))
    facts = [scalar_text(inputs[k]) for k in ("location", "resourceGroupName") if k in inputs]
    suffix = f"  ({', '.join(facts)})" if facts else ""
    return [("cloud ", "header"), (name, "header"), (suffix, "muted")]


def cloud_resource_header(number: int, cloud_resource: Resource, ctx: TreeContext) -> Line:
    registration = ctx.graph.registration_of(cloud_resource)
    properties = get_path(registration or {}, "inputs", "properties") or {}
    facts = [scalar_text(properties[k]) for k in ("provider", "region") if k in properties]
    if registration is None:
        facts.append("no registration")
    if number == 1:
        facts.append("primary")
    suffix = f"  ({', '.join(facts)})" if facts else ""
    return [(f"[{number}] ", "header"), (resource_name(cloud_resource), "header"), (suffix, "muted")]


def render_tree(plan: Plan, width: int = 100, color: bool = False) -> str:
    """The plan as a tree: the cloud's own resources, then one group per cloud resource."""
    resources = plan_resources(plan)
    ctx = TreeContext(resources, width)
    title = f"{plan.get('project', '?')} / {plan.get('stack', '?')}"
    lines: list[Line] = [[(title, "muted")], [], cloud_header(ctx)]
    for resource in resources:
        if not is_component(resource) and ctx.graph.cloud_resource_of(resource) is None:
            lines += resource_lines(resource, 2, ctx)
    cloud_resources = [r for r in resources if r.get("type") == CLOUD_RESOURCE_TYPE]
    for number, cloud_resource in enumerate(cloud_resources, start=1):
        lines += [[], cloud_resource_header(number, cloud_resource, ctx)]
        lines += subtree_lines(str(cloud_resource.get("urn")), 2, ctx)
    return "\n".join(paint(clip(line, width), color) for line in lines) + "\n"


def render_summary(plan: Plan, width: int = 100) -> str:
    """Counts: totals, per cloud resource, per (short) type."""
    resources = [r for r in plan_resources(plan) if r.get("type") != STACK_TYPE]
    graph = Graph(resources)
    custom = [r for r in resources if not is_component(r)]
    providers = sum(1 for r in custom if is_provider(r))
    lines = [
        f"{len(resources)} resources: {len(custom)} custom ({providers} providers), "
        f"{len(resources) - len(custom)} components"
    ]
    groups = Counter(graph.group_name(r) for r in custom)
    per_group = ", ".join(f"{name} {count}" for name, count in groups.items())
    lines += textwrap.wrap(f"by cloud resource: {per_group}", width=max(width, 20), subsequent_indent="  ")
    # By name: the order resources register in varies from run to run (the SDK's event loop),
    # and a summary that reorders itself would show as a change in every review.
    imported = sorted(resource_name(r) for r in custom if import_id(r))
    if imported:
        text = f"imported, not created ({len(imported)}): {', '.join(imported)}"
        lines += textwrap.wrap(text, width=max(width, 20), subsequent_indent="  ")
    lines.append("by type:")
    types = Counter(short_type(r) for r in custom)
    for label, count in sorted(types.items(), key=lambda item: (-item[1], item[0])):
        lines.append(f"  {count:>3}  {label}")
    return "\n".join(lines) + "\n"
