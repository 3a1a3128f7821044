"""Mermaid diagrams of a plan, of a diff and of the rollout's critical path, for GitHub
(which renders ```mermaid blocks in comments and markdown files).

Every value from a plan reaches a diagram through `text`, and nothing else of a plan does:
node IDs are generated (`n0`, `g0`, `t0`), never made from names, and a label's every
character outside a small safe set is written as Mermaid's numeric entity (`#35;` for
`#`), so a hostile name cannot close its quotes, start a keyword, an edge, a click or a
comment, nor become HTML. The tests check the output with the real Mermaid parser
(tests/mermaid/).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from preflight.escape import printable
from preflight.planfile import (
    CLOUD_RESOURCE_TYPE,
    PLACEHOLDER_RE,
    Graph,
    Plan,
    Resource,
    bucket_kind,
    holds_unknown,
    import_id,
    is_cluster,
    is_component,
    is_registration,
    registration_kind,
    resource_name,
    short_type,
    type_matches,
)

_UNSAFE = re.compile(r"[^A-Za-z0-9 _.,/=+-]")
LABEL_LIMIT = 80  # characters of a value shown in a label (before escaping)


def text(value: object, limit: int = LABEL_LIMIT) -> str:
    """A value as label text that stays text: the safe characters as they are, every other
    one (quotes, `#`, `%`, `:`, `;`, brackets, backticks, `<`, `>`, `&`, pipes, anything not
    ASCII) as `#<code point>;`, which Mermaid shows as the character itself."""
    shown = printable(str(value))
    if len(shown) > limit:
        shown = shown[: limit - 3] + "..."
    return _UNSAFE.sub(lambda m: f"#{ord(m.group())};", shown)


def fenced(diagram: str) -> str:
    """A diagram as a markdown block GitHub renders. The diagram never holds a backtick
    (`text` escapes them), so three are enough."""
    return f"```mermaid\n{diagram}```\n"


# --------------------------------------------------------------------------------
# The cloud: each cloud resource with its parts, and the registration chain

# Colours of GitHub's own palette (Primer), readable in light and dark themes.
CLASSES = {
    "import": "fill:#ddf4ff,stroke:#0969da,stroke-width:2px,stroke-dasharray:5 3,color:#0a3069",
    "create": "fill:#dafbe1,stroke:#1a7f37,color:#0d3d1b",
    "update": "fill:#fff8c5,stroke:#9a6700,color:#4d2d00",
    "replace": "fill:#fbefff,stroke:#8250df,stroke-width:2px,color:#3e1f79",
    "delete": "fill:#ffebe9,stroke:#cf222e,stroke-dasharray:4 2,color:#82071e",
    "disruptive": "fill:#ff8182,stroke:#a40e26,stroke-width:4px,color:#000000",
}
POOL_PATTERNS = ("azure-native:containerservice:AgentPool", "aws:eks:NodeGroup", "gcp:container:NodePool")
GATEWAY_PATTERNS = ("kubernetes:gateway.networking.k8s.io/*:Gateway",)
OPERATOR_EXTENSION = "azure-native:kubernetesconfiguration:Extension"
# A resource's own name first: an AKS pool also names its cluster (`resourceName`).
NAME_INPUTS = (
    "agentPoolName",
    "nodeGroupName",
    "extensionName",
    "resourceName",
    "accountName",
    "registryName",
    "accountId",
    "bucket",
    "name",
)


def physical_name(resource: Resource) -> str:
    """The name the cloud knows the resource by, when the plan knows it; else its logical name."""
    inputs = resource.get("inputs") or {}
    keys = ("resourceGroupName",) if type_matches(resource, "azure-native:resources:ResourceGroup") else NAME_INPUTS
    for key in keys:
        value = inputs.get(key)
        if isinstance(value, str) and value and not holds_unknown(value):
            return value
    return resource_name(resource)


def is_operator(resource: Resource) -> bool:
    if type_matches(resource, OPERATOR_EXTENSION):
        return True
    chart = (resource.get("inputs") or {}).get("chart")
    return type_matches(resource, "kubernetes:helm.sh/*:Release") and chart == "anyscale-operator"


def role_of(resource: Resource) -> str | None:
    """What part of a cloud resource a plan resource is, for the picture (None: not drawn)."""
    if is_registration(resource):
        return "registration"
    if is_cluster(resource):
        return "cluster"
    if type_matches(resource, *POOL_PATTERNS):
        return "pool"
    if bucket_kind(resource) in ("storage account", "bucket"):
        return "bucket"
    if type_matches(resource, *GATEWAY_PATTERNS):
        return "gateway"
    if is_operator(resource):
        return "operator"
    return None


def _identity_names(registration: Resource | None) -> set[str]:
    """The logical names the registration's operator identity reads (`${<name>.principalId}`)."""
    value = ((registration or {}).get("inputs") or {}).get("properties", {}).get("anyscaleOperatorIamIdentity")
    return {body.split(".")[0] for body in PLACEHOLDER_RE.findall(value)} if isinstance(value, str) else set()


@dataclass
class _Ids:
    """Generated node IDs, in drawing order."""

    count: int = 0

    def next(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"


def _node(node_id: str, label: str, resource: Resource | None, shape: str = "rect") -> str:
    opening, closing = {"rect": ("[", "]"), "db": ("[(", ")]"), "hex": ("{{", "}}"), "round": ("(", ")")}[shape]
    adopted = import_id(resource) if resource else None
    suffix = " #183; imported" if adopted else ""
    line = f'{node_id}{opening}"{label}{suffix}"{closing}'
    return line + (":::import" if adopted else "")


def _classes(names: Iterable[str]) -> list[str]:
    return [f"  classDef {name} {CLASSES[name]}" for name in names]


# Mermaid refuses a flowchart of more than 500 edges (its `maxEdges` default, mermaid 11): a
# larger cloud is drawn one node per cloud resource, with the registration chain.
EDGE_LIMIT = 500


def _edges(diagram: str) -> int:
    return sum(1 for line in diagram.splitlines() if any(arrow in line for arrow in (" --- ", " --> ", " ==>")))


def cloud_diagram(plan: Plan) -> str:
    """The cloud in full (`_full_cloud_diagram`), or, past Mermaid's edge limit, one node per
    cloud resource in the order of its registration chain."""
    full = _full_cloud_diagram(plan)
    if _edges(full) <= EDGE_LIMIT:
        return full
    graph = Graph.of(plan)
    lines = ["flowchart TB", '  cloud{{"Anyscale cloud"}}']
    previous = "cloud"
    for number, cloud_resource in enumerate(chain_order(graph), start=1):
        members = [r for r in graph.resources if graph.cloud_resource_of(r) is cloud_resource]
        pools = sum(1 for r in members if role_of(r) == "pool")
        node = f"r{number}"
        lines.append(f'  {node}["{number}. {text(resource_name(cloud_resource))}: {pools} pools"]')
        lines.append(f'  {previous} ==>|"{number}"| {node}')
        previous = node
    return "\n".join(lines) + "\n"


def _full_cloud_diagram(plan: Plan) -> str:
    """flowchart: the cloud record (with its group and registry), then one box per cloud
    resource with its cluster, pools, bucket, operator identity, gateway and operator, and
    the registration chain in list order (the platform takes them one at a time)."""
    graph = Graph.of(plan)
    ids = _Ids()
    lines = ["flowchart TB"]
    record = next((r for r in graph.resources if registration_kind(r) == "cloud"), None)
    cloud_id = "cloud"
    cloud_label = f"Anyscale cloud {text(physical_name(record))}" if record else "Anyscale cloud"
    lines.append("  " + _node(cloud_id, cloud_label, record, "hex"))
    for resource in graph.resources:
        if graph.cloud_resource_of(resource) is None and type_matches(
            resource, "azure-native:resources:ResourceGroup", "azure-native:containerregistry:Registry"
        ):
            node = ids.next("n")
            lines.append("  " + _node(node, f"{text(short_type(resource))} {text(physical_name(resource))}", resource))
            lines.append(f"  {node} --- {cloud_id}")
    previous = cloud_id
    for number, cloud_resource in enumerate(chain_order(graph), start=1):
        previous = _cloud_resource(lines, ids, graph, cloud_resource, number, previous)
    lines += _classes(["import"])
    return "\n".join(lines) + "\n"


def chain_order(graph: Graph) -> list[Resource]:
    """The cloud resources in the order of their registration chain (each registration
    depends on the one before it), whatever order the plan lists them in; the ones outside
    the chain after, in plan order."""
    cloud_resources = [r for r in graph.resources if r.get("type") == CLOUD_RESOURCE_TYPE]
    registrations = {id(r): graph.registration_of(r) for r in cloud_resources}
    by_registration = {str(reg.get("urn")): r for r in cloud_resources if (reg := registrations[id(r)])}
    after: dict[str, Resource] = {}  # a registration's URN -> the cloud resource registered next
    for resource in cloud_resources:
        registration = registrations[id(resource)]
        for dep in (registration or {}).get("dependsOn") or []:
            if dep in by_registration and by_registration[dep] is not resource:
                after.setdefault(dep, resource)
    followers = {id(r) for r in after.values()}
    order: list[Resource] = []
    seen: set[int] = set()
    for start in cloud_resources:
        current: Resource | None = start
        if id(start) in followers:
            continue
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            order.append(current)
            registration = registrations[id(current)]
            current = after.get(str(registration.get("urn"))) if registration else None
    return order + [r for r in cloud_resources if id(r) not in seen]


def _cloud_resource(
    lines: list[str], ids: _Ids, graph: Graph, cloud_resource: Resource, number: int, previous: str
) -> str:
    """Draw one cloud resource; return its registration's node (the next link of the chain)."""
    registration = graph.registration_of(cloud_resource)
    properties = ((registration or {}).get("inputs") or {}).get("properties") or {}
    facts = ", ".join(text(properties[k]) for k in ("provider", "region") if isinstance(properties.get(k), str))
    group = ids.next("g")
    title = f"{number}. {text(resource_name(cloud_resource))}" + (f" #40;{facts}#41;" if facts else "")
    lines.append(f'  subgraph {group}["{title}"]')
    identities = _identity_names(registration)
    members = [r for r in graph.resources if not is_component(r) and graph.cloud_resource_of(r) is cloud_resource]
    nodes: dict[str, list[str]] = {}
    for resource in members:
        role = "identity" if resource_name(resource) in identities else role_of(resource)
        if role is None:
            continue
        node = ids.next("n")
        shape = {"bucket": "db", "registration": "hex", "pool": "round"}.get(role, "rect")
        label = f"{role}: {text(physical_name(resource))}"
        lines.append("    " + _node(node, label, resource, shape))
        nodes.setdefault(role, []).append(node)
    bucket = properties.get("cloudStorageBucketName")
    if "bucket" not in nodes and isinstance(bucket, str) and not holds_unknown(bucket):
        node = ids.next("n")  # an existing bucket the stack names: no resource of its own
        lines.append(f'    {node}[("bucket: {text(bucket)} #40;existing#41;")]')
        nodes["bucket"] = [node]
    lines.append("  end")
    for cluster in nodes.get("cluster", []):
        lines += [f"  {cluster} --- {pool}" for pool in nodes.get("pool", [])]
    registrations = nodes.get("registration", [])
    for node in registrations:
        for role in ("cluster", "bucket", "identity"):
            lines += [f"  {part} --> {node}" for part in nodes.get(role, [])]
        lines += [f"  {node} --> {operator}" for operator in nodes.get("operator", [])]
    for gateway in nodes.get("gateway", []):
        lines += [f"  {gateway} --> {operator}" for operator in nodes.get("operator", [])]
    if not registrations:
        return previous
    # The chain: each registration waits for the one before (the first for the cloud record).
    lines.append(f'  {previous} ==>|"{number}"| {registrations[0]}')
    return registrations[0]


# --------------------------------------------------------------------------------
# The rollout estimate: its critical path as a Gantt chart


def gantt_diagram(plan: Plan) -> str:
    """gantt: the critical path of a first `pulumi up` (preflight/rollout.py), one bar per
    timed step, one section per cloud resource it belongs to, on an axis of time since the
    start (the dates are seconds from 0; only the differences mean anything)."""
    from preflight.rollout import estimate, format_seconds

    est = estimate(plan)
    graph = Graph.of(plan)
    hours = est.critical_seconds >= 3600
    lines = [
        "gantt",
        f"  title {text('Rollout critical path: ' + format_seconds(est.critical_seconds) + ' (typical durations, estimates only)', 120)}",
        "  dateFormat X",
        # The axis is a clock from 0: minutes and seconds, or hours and minutes past an hour.
        f"  axisFormat {'%H:%M' if hours else '%M:%S'}",
    ]
    section = None
    for number, step in enumerate(s for s in est.critical_path if s.seconds > 0):
        resource = graph.by_urn.get(step.urn)
        group = graph.group_name(resource) if resource else "cloud"
        if group != section:
            section = group
            lines.append(f"  section {_leading(text(group))}")
        name = _leading(text(f"{step.name} ({step.type})"))
        lines.append(f"  {name} :t{number}, {step.finish - step.seconds}, {step.seconds}s")
    return "\n".join(lines) + "\n"


def _leading(label: str) -> str:
    """A Gantt line's text is not quoted: its first character as an entity, so that no name
    reads as a keyword there (`section`, `title`, `excludes`, `click`...)."""
    if not label or label.startswith("#"):
        return label
    return f"#{ord(label[0])};{label[1:]}"
