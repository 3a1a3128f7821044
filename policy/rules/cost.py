"""The hourly cost of a plan, per cloud resource, at idle and at maximum, from the list
prices of `rules/prices.py`.

At idle: control planes, every node pool at its minimum (the autoscaler's floor; system
pools at their minimum, which is their size by default), NAT gateways and their public
IPv4 addresses, the gateway's load balancer and the registry. At maximum: the same with every pool at its maximum.
Spot pools are priced at the on-demand price (prices.SPOT_DISCOUNT). Not counted:
egress and data processed, disks beyond what the instance price includes, the public IPs
a cluster makes for itself, support plans, the platform's own fees. Whatever has no price, or a count not known
before the deploy, is listed as not priced and left out of the sums, never guessed. Every
other resource type a shipped stack creates is in `prices.NOT_BILLED`, with the reason it
adds nothing to an hourly figure.

The same arithmetic serves `preflight cost`, `preflight diff` and the pack's budget
policy; each hands it plain records (rules/plan_records.py `Record`), whatever it read them
from, and the node pools are read out of them by plan_records.py's reader.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rules import prices
from rules.plan_records import (
    AGENT_POOL,
    CLOUD_RESOURCE,
    EKS_CLUSTER,
    ELASTIC_IP,
    GATEWAY,
    GKE_CLUSTER,
    MANAGED_CLUSTER,
    NAT_GATEWAY,
    NODE_GROUP,
    NODE_POOL,
    REGISTRY,
    NodePool,
    Record,
    cloud_resources,
    pools_of,
)
from rules.registration import is_registration
from rules.values import MISSING, get, type_is

CLOUD_GROUP = "cloud"
# The types `record_lines` prices (the others bring no line: their region is not read).
PRICED = (
    MANAGED_CLUSTER,
    AGENT_POOL,
    EKS_CLUSTER,
    NODE_GROUP,
    NAT_GATEWAY,
    ELASTIC_IP,
    GKE_CLUSTER,
    NODE_POOL,
    GATEWAY,
    REGISTRY,
)


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


def _pool_line(pool: NodePool, region: str) -> Line:
    """A node pool at its minimum (idle) and its maximum."""
    label = {"Azure": "pool", "AWS": "node group", "GCP": "node pool"}[pool.provider]
    label = f"{label} {pool.resource}{' spot' if pool.spot else ''}"
    low, high, instance_type = pool.min_count, pool.max_count, pool.instance_type
    if instance_type is None:
        return Line(label, None, None, "instance type not known before the deploy")
    text = f"{label}: {low if low is not None else '?'}-{high if high is not None else '?'} x {instance_type}"
    price = prices.instance_price(pool.provider, region, instance_type)
    if price is None:
        return Line(text, None, None, f"{instance_type} in {region} not priced")
    if low is None or high is None:
        return Line(text, None, None, "node count not known before the deploy")
    if pool.accelerators:
        return Line(text, None, None, "attached GPUs not priced")
    unit = price * (1 - prices.SPOT_DISCOUNT) if pool.spot else price
    return Line(text, round(unit * low, 4), round(unit * high, 4))


def _fixed(label: str, price: float | None, missing: str) -> Line:
    return Line(label, price, price) if price is not None else Line(label, None, None, missing)


def record_lines(record: Record, provider: str, region: str) -> list[Line]:
    """The priced items one resource brings (none for most resources: those not in PRICED)."""
    props, kind = record.props, record.type
    if not type_is(kind, *PRICED):
        return []
    if type_is(kind, MANAGED_CLUSTER):
        tier = get(props, "sku", "tier")
        tier = "Free" if tier is MISSING else tier
        control_plane = _fixed(
            f"AKS control plane ({tier})",
            prices.AKS_CONTROL_PLANE_HOURLY.get(tier) if isinstance(tier, str) else None,
            f"tier {tier} not priced",
        )
        return [control_plane, *(_pool_line(pool, region) for pool in pools_of(record))]
    if type_is(kind, AGENT_POOL, NODE_GROUP, NODE_POOL):
        return [_pool_line(pool, region) for pool in pools_of(record)]
    if type_is(kind, EKS_CLUSTER):
        return [_fixed("EKS control plane", prices.EKS_CONTROL_PLANE_HOURLY, "not priced")]
    if type_is(kind, NAT_GATEWAY):
        price = prices.NAT_GATEWAY_HOURLY.get(provider, {}).get(region)
        return [_fixed("NAT gateway", price, f"NAT gateway in {region} not priced")]
    if type_is(kind, ELASTIC_IP):
        price = prices.PUBLIC_IPV4_HOURLY.get(provider)
        return [_fixed("public IPv4 address", price, f"{provider} public IPv4 address not priced")]
    if type_is(kind, GKE_CLUSTER):
        lines = [_fixed("GKE control plane", prices.GKE_CONTROL_PLANE_HOURLY, "not priced")]
        if get(props, "removeDefaultNodePool") is not True:
            lines.append(Line("default node pool", None, None, "kept default node pool not priced"))
        return lines
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


def estimate(records: Iterable[Record]) -> list[Group]:
    """Every cloud resource's lines (groups in plan order, the cloud's own first; lines by kind,
    then name)."""
    records = list(records)
    owner = cloud_resources(records)
    groups: dict[str, Group] = {CLOUD_GROUP: Group(CLOUD_GROUP)}
    for record in records:
        cloud_resource = owner[record.urn]
        if record.type == CLOUD_RESOURCE:
            groups.setdefault(record.urn, Group(record.name))
        elif is_registration(record.type, record.props) and cloud_resource is not None:
            group = groups.setdefault(cloud_resource.urn, Group(cloud_resource.name))
            provider, region = get(record.props, "properties", "provider"), get(record.props, "properties", "region")
            group.provider = provider if isinstance(provider, str) else None
            group.region = region if isinstance(region, str) else None
    # Within a cloud resource by kind (as PRICED lists them), then by name: the order resources
    # register in varies from run to run, and a report that reorders itself reads as a change.
    priced = sorted(
        (r for r in records if type_is(r.type, *PRICED)),
        key=lambda r: (next(i for i, kind in enumerate(PRICED) if type_is(r.type, kind)), r.name),
    )
    for record in priced:
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
