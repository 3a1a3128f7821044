"""The hourly cost of a plan, per cloud resource, at idle and at maximum, from the list
prices of `rules/prices.py`.

At idle: control planes, every node pool at its minimum (the autoscaler's floor; system
pools at their minimum, which is their size by default), NAT gateways, the gateway's
load balancer and the registry. At maximum: the same with every pool at its maximum.
Spot pools are priced at the on-demand price (prices.SPOT_DISCOUNT). Not counted:
egress and data processed, disks beyond what the instance price includes, public IPs,
support plans, the platform's own fees. Whatever has no price, or a count not known
before the deploy, is listed as not priced and left out of the sums, never guessed.

The same arithmetic serves `preflight cost`, `preflight diff` and the pack's budget
policy; each hands it plain records (`Record`), whatever it read them from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules import prices
from rules.registration import is_registration
from rules.values import MISSING, UNKNOWN, elements, get, in_passing, type_is

CLOUD_RESOURCE = "anyscale-cloud:index:CloudResource"
MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
AGENT_POOL = "azure-native:containerservice:AgentPool"
REGISTRY = "azure-native:containerregistry:Registry"
EKS_CLUSTER = "aws:eks/cluster:Cluster"
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
NAT_GATEWAY = "aws:ec2/natGateway:NatGateway"
GKE_CLUSTER = "gcp:container/cluster:Cluster"
NODE_POOL = "gcp:container/nodePool:NodePool"
GATEWAY = "kubernetes:gateway.networking.k8s.io/v1:Gateway"
CLOUD_GROUP = "cloud"
# The types `record_lines` prices (the others bring no line: their region is not read).
PRICED = (
    MANAGED_CLUSTER,
    AGENT_POOL,
    EKS_CLUSTER,
    NODE_GROUP,
    NAT_GATEWAY,
    GKE_CLUSTER,
    NODE_POOL,
    GATEWAY,
    REGISTRY,
)


@dataclass(frozen=True)
class Record:
    """One resource as the estimate needs it: where it sits and what it was given."""

    urn: str
    type: str
    name: str
    props: Mapping[str, Any]
    parent: str | None = None


@dataclass(frozen=True)
class Line:
    """One priced item: idle and maximum $/hour, or None and the reason it is not priced."""

    label: str
    idle: float | None
    maximum: float | None
    missing: str | None = None


@dataclass
class Group:
    """A cloud resource (or "cloud", the cloud's own resources) and its lines."""

    name: str
    provider: str | None = None
    region: str | None = None
    lines: list[Line] = field(default_factory=list)

    @property
    def idle(self) -> float:
        return round(sum(line.idle for line in self.lines if line.idle is not None), 4)

    @property
    def maximum(self) -> float:
        return round(sum(line.maximum for line in self.lines if line.maximum is not None), 4)

    @property
    def not_priced(self) -> list[str]:
        return [f"{line.label}: {line.missing}" for line in self.lines if line.missing]


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _pool_line(label: str, provider: str, region: str, instance_type: Any, low: Any, high: Any, spot: bool) -> Line:
    low, high = _count(low), _count(high)
    kind = " spot" if spot else ""
    if not isinstance(instance_type, str):
        return Line(f"{label}{kind}", None, None, "instance type not known before the deploy")
    text = f"{label}{kind}: {low if low is not None else '?'}-{high if high is not None else '?'} x {instance_type}"
    price = prices.instance_price(provider, region, instance_type)
    if price is None:
        return Line(text, None, None, f"{instance_type} in {region} not priced")
    if low is None or high is None:
        return Line(text, None, None, "node count not known before the deploy")
    unit = price * (1 - prices.SPOT_DISCOUNT) if spot else price
    return Line(text, round(unit * low, 4), round(unit * high, 4))


def _fixed(label: str, price: float | None, missing: str) -> Line:
    return Line(label, price, price) if price is not None else Line(label, None, None, missing)


def _aks_pool(label: str, pool: Any, region: str) -> Line:
    autoscale = get(pool, "enableAutoScaling") is True
    if autoscale:
        low, high = get(pool, "minCount"), get(pool, "maxCount")
    else:
        low = high = get(pool, "count")
    spot = get(pool, "scaleSetPriority") == "Spot"
    return _pool_line(label, "Azure", region, get(pool, "vmSize"), low, high, spot)


def record_lines(record: Record, provider: str, region: str) -> list[Line]:
    """The priced items one resource brings (none for most resources: those not in PRICED)."""
    props, kind = record.props, record.type
    if not type_is(kind, *PRICED):
        return []
    if type_is(kind, MANAGED_CLUSTER):
        tier = get(props, "sku", "tier")
        tier = "Free" if tier is MISSING else tier
        lines = [
            _fixed(
                f"AKS control plane ({tier})",
                prices.AKS_CONTROL_PLANE_HOURLY.get(tier) if isinstance(tier, str) else None,
                f"tier {tier} not priced",
            )
        ]
        for pool in elements(get(props, "agentPoolProfiles")):
            with in_passing():  # the name only labels the line
                name = get(pool, "name")
            lines.append(_aks_pool(f"pool {name}", pool, region))
        return lines
    if type_is(kind, AGENT_POOL):
        return [_aks_pool(f"pool {record.name}", props, region)]
    if type_is(kind, EKS_CLUSTER):
        return [_fixed("EKS control plane", prices.EKS_CONTROL_PLANE_HOURLY, "not priced")]
    if type_is(kind, NODE_GROUP):
        types = get(props, "instanceTypes")
        first = get(types, 0) if types not in (MISSING, UNKNOWN) else UNKNOWN
        spot = get(props, "capacityType") == "SPOT"
        scaling = get(props, "scalingConfig")
        return [
            _pool_line(
                f"node group {record.name}",
                "AWS",
                region,
                first,
                get(scaling, "minSize"),
                get(scaling, "maxSize"),
                spot,
            )
        ]
    if type_is(kind, NAT_GATEWAY):
        price = prices.NAT_GATEWAY_HOURLY.get(provider, {}).get(region)
        return [_fixed("NAT gateway", price, f"NAT gateway in {region} not priced")]
    if type_is(kind, GKE_CLUSTER):
        lines = [_fixed("GKE control plane", prices.GKE_CONTROL_PLANE_HOURLY, "not priced")]
        if get(props, "removeDefaultNodePool") is not True:
            lines.append(Line("default node pool", None, None, "kept default node pool not priced"))
        return lines
    if type_is(kind, NODE_POOL):
        return [_gke_pool(record, region)]
    if type_is(kind, GATEWAY):
        if provider == "Generic":
            return [Line("gateway load balancer", None, None, "bring-your-own cluster: its own infrastructure")]
        price = prices.LOAD_BALANCER_HOURLY.get(provider, {}).get(region)
        return [_fixed("gateway load balancer", price, f"{provider} load balancer in {region} not priced")]
    if type_is(kind, REGISTRY):
        sku = get(props, "sku", "name")
        return [
            _fixed(
                f"container registry ({sku})",
                prices.REGISTRY_HOURLY.get(sku) if isinstance(sku, str) else None,
                f"registry SKU {sku} not priced",
            )
        ]
    return []


def _gke_pool(record: Record, region: str) -> Line:
    props = record.props
    scaling = get(props, "autoscaling")
    if scaling in (MISSING, UNKNOWN):
        low = high = get(props, "nodeCount")
    else:
        low, high = get(scaling, "totalMinNodeCount"), get(scaling, "totalMaxNodeCount")
    spot = get(props, "nodeConfig", "spot") is True
    line = _pool_line(
        f"node pool {record.name}", "GCP", region, get(props, "nodeConfig", "machineType"), low, high, spot
    )
    if elements(get(props, "nodeConfig", "guestAccelerators")) and line.missing is None:
        return Line(line.label, None, None, "attached GPUs not priced")
    return line


def _group_of(record: Record, by_urn: Mapping[str, Record]) -> Record | None:
    seen: set[str] = set()
    current: Record | None = record
    while current is not None and current.urn not in seen:
        if current.type == CLOUD_RESOURCE:
            return current
        seen.add(current.urn)
        current = by_urn.get(current.parent) if current.parent else None
    return None


def estimate(records: Iterable[Record]) -> list[Group]:
    """Every cloud resource's lines, in plan order, the cloud's own group first."""
    records = list(records)
    by_urn = {r.urn: r for r in records}
    owner = {r.urn: _group_of(r, by_urn) for r in records}
    groups: dict[str, Group] = {CLOUD_GROUP: Group(CLOUD_GROUP)}
    for record in records:
        if record.type == CLOUD_RESOURCE:
            groups.setdefault(record.urn, Group(record.name))
        elif is_registration(record.type, record.props) and owner[record.urn] is not None:
            group = groups.setdefault(owner[record.urn].urn, Group(owner[record.urn].name))  # type: ignore[union-attr]
            provider, region = get(record.props, "properties", "provider"), get(record.props, "properties", "region")
            group.provider = provider if isinstance(provider, str) else None
            group.region = region if isinstance(region, str) else None
    for record in records:
        if not type_is(record.type, *PRICED):
            continue
        parent = owner[record.urn]
        group = groups[parent.urn] if parent is not None and parent.urn in groups else groups[CLOUD_GROUP]
        region = group.region
        if group.name == CLOUD_GROUP:
            location = get(record.props, "location")
            region = location if isinstance(location, str) else None
        if region is None:
            lines = [Line(line.label, None, None, "region not known") for line in record_lines(record, "", "")]
        else:
            lines = record_lines(record, group.provider or "", region)
        group.lines.extend(lines)
    return [g for g in groups.values() if g.name != CLOUD_GROUP or g.lines]


def totals(groups: Iterable[Group]) -> tuple[float, float, int]:
    """Idle and maximum $/hour over every group, and how many items are not priced."""
    groups = list(groups)
    return (
        round(sum(g.idle for g in groups), 4),
        round(sum(g.maximum for g in groups), 4),
        sum(len(g.not_priced) for g in groups),
    )
