"""How long a first `pulumi up` of a plan takes: one at a time vs. in parallel.

The engine creates a resource as soon as everything it depends on exists, so the
wall-clock time of a fresh rollout is the longest chain of dependencies (the
critical path), weighted by the typical durations in durations.py.

Edges, following Pulumi's semantics:
- `dependsOn` (explicit and implicit through inputs);
- the provider a resource uses (a Kubernetes provider waits for its cluster);
- depending on a component means depending on all of its descendants;
- a custom parent (rare) is waited for, but a component parent is not: a child
  does not wait for its component, which takes no time itself.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from preflight.durations import seconds_for
from preflight.planfile import Graph, Plan, Resource, is_component, resource_name, short_type


@dataclass(frozen=True)
class Step:
    urn: str
    name: str
    type: str
    seconds: int
    finish: int  # seconds after the start of the rollout


@dataclass(frozen=True)
class Estimate:
    critical_seconds: int
    serial_seconds: int
    critical_path: list[Step]
    finish: dict[str, int]  # per URN, when it is done in the parallel rollout
    resource_count: int  # custom resources (providers included)

    @property
    def speedup(self) -> float:
        return self.serial_seconds / self.critical_seconds if self.critical_seconds else 1.0


def dependencies(resource: Resource, graph: Graph) -> set[str]:
    """What a resource waits for before it is created (the edges above)."""
    urn = str(resource.get("urn"))
    own_ancestors = {str(a.get("urn")) for a in graph.ancestors(resource)}
    deps: set[str] = set()
    for dep in graph.depends_on(resource):  # one not in this plan: nothing to wait for
        deps.add(dep)
        # Waiting for all descendants of a component we are inside would mean
        # waiting for ourselves; then only the component itself counts.
        if is_component(graph.by_urn[dep]) and dep not in own_ancestors:
            deps |= graph.descendants(dep)
    provider = graph.provider(resource)
    if provider is not None:
        deps.add(str(provider.get("urn")))
    parent = graph.parent(resource)
    if parent is not None and not is_component(parent):
        deps.add(str(parent.get("urn")))
    deps.discard(urn)
    return deps


def topological_order(urns: list[str], deps: dict[str, set[str]]) -> list[str]:
    """Kahn's algorithm, ties broken by registration order; ValueError on a cycle."""
    position = {urn: i for i, urn in enumerate(urns)}
    waiting = {urn: len(deps[urn]) for urn in urns}
    dependents: dict[str, list[str]] = {urn: [] for urn in urns}
    for urn in urns:
        for dep in deps[urn]:
            dependents[dep].append(urn)
    ready = [(position[u], u) for u in urns if waiting[u] == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        _, urn = heapq.heappop(ready)
        order.append(urn)
        for dependent in dependents[urn]:
            waiting[dependent] -= 1
            if waiting[dependent] == 0:
                heapq.heappush(ready, (position[dependent], dependent))
    if len(order) != len(urns):
        stuck = sorted((u for u in urns if waiting[u] > 0), key=position.__getitem__)
        raise ValueError(f"dependency cycle among: {', '.join(stuck[:5])}")
    return order


def estimate(plan: Plan) -> Estimate:
    """Critical path and serial total of creating every resource of the plan."""
    graph = Graph.of(plan)
    resources, by_urn = graph.resources, graph.by_urn
    urns = list(by_urn)
    deps = {urn: dependencies(by_urn[urn], graph) for urn in urns}
    seconds = {urn: seconds_for(by_urn[urn]) for urn in urns}
    position = {urn: i for i, urn in enumerate(urns)}

    finish: dict[str, int] = {}
    via: dict[str, str | None] = {}
    for urn in topological_order(urns, deps):
        # The latest-finishing dependency is what this resource waits for; on a tie
        # the earliest registered one, so the answer is stable.
        latest = min(deps[urn], key=lambda d: (-finish[d], position[d]), default=None)
        via[urn] = latest
        finish[urn] = (finish[latest] if latest else 0) + seconds[urn]

    path: list[Step] = []
    current = min(urns, key=lambda u: (-finish[u], position[u]), default=None)
    while current is not None:
        resource = by_urn[current]
        path.append(Step(current, resource_name(resource), short_type(resource), seconds[current], finish[current]))
        current = via[current]
    path.reverse()
    return Estimate(
        critical_seconds=max(finish.values(), default=0),
        serial_seconds=sum(seconds.values()),
        critical_path=path,
        finish=finish,
        resource_count=sum(1 for r in resources if not is_component(r)),
    )


def format_seconds(total: int) -> str:
    hours, rest = divmod(int(total), 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m {seconds:02d}s"
    if minutes:
        return f"{minutes}m {seconds:02d}s"
    return f"{seconds}s"


def fit(line: str, width: int) -> str:
    return line if len(line) <= width else line[: max(width - 3, 0)] + "..."[: min(3, width)]


def render_estimate(est: Estimate, width: int = 100) -> str:
    """Serial vs parallel totals, the speed-up, and the steps of the critical path."""
    timed = [step for step in est.critical_path if step.seconds > 0]
    lines = [
        "Rollout estimate (typical durations; estimates only)",
        f"  one at a time: {format_seconds(est.serial_seconds):>11}  ({est.resource_count} resources)",
        f"  in parallel:   {format_seconds(est.critical_seconds):>11}  (critical path)",
        f"  speed-up:      {est.speedup:>10.1f}x",
        f"Critical path ({len(timed)} timed steps):",
    ]
    for step in timed:
        finish, took = format_seconds(step.finish), format_seconds(step.seconds)
        lines.append(f"  {finish:>11}  +{took:<8} {step.name}  ({step.type})")
    instant = len(est.critical_path) - len(timed)
    if instant:
        lines.append(f"  (+{instant} steps that take no time: components, providers, ...)")
    return "\n".join(fit(line, width) for line in lines) + "\n"
