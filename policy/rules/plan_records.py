"""Plan records: the resource type tokens, and the one reader of the node pools they declare.

A record is one resource as a plan (`preflight plan --json`) or the engine (a stack policy's
`PolicyResource`) has it: URN, type, name, inputs, parent. `node_pools` reads the node pools
out of a list of records, whatever the cloud: an AKS cluster's inline pools
(agentPoolProfiles) and AgentPools, EKS node groups, GKE node pools. It serves the
scheduling view (preflight/scheduling.py), the cost figures (rules/cost.py, behind
`preflight cost` and the cost-budget policy) and any policy that needs a pool.

The reader reads the way every check of the pack does (rules/values.py): a value not known
yet is None, never a guess. The values that decide what a pool costs (its instance type,
counts, market and attached GPUs) are noted when they are not known, so that a check run on
the pools (the budget) says what it could not decide; the rest (names, labels, taints) is
read in passing.

Importable two ways: as `rules.plan_records` by the pack (policy/ on sys.path), and as
`policy.rules.plan_records` by the project; hence the relative import of values.py, which
resolves under either name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # only a type here: `preflight diff` and `cost` start without the policy SDK
    from pulumi_policy import PolicyResource

from .values import MISSING, UNKNOWN, elements, get, in_passing, is_map, type_is

# --- resource type tokens -------------------------------------------------------------------
# As the engine records them (`pkg:module/file:Type`); match with values.type_is, which also
# takes azure-native's API-version modules (`azure-native:containerservice/v20240801:AgentPool`).

CLOUD_RESOURCE = "anyscale-cloud:index:CloudResource"
# A registration is a generic ARM resource (rules/registration.py tells which ones are).
GENERIC_RESOURCE = "azure-native:resources:Resource"
MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
AGENT_POOL = "azure-native:containerservice:AgentPool"
EXTENSION = "azure-native:kubernetesconfiguration:Extension"
REGISTRY = "azure-native:containerregistry:Registry"
EKS_CLUSTER = "aws:eks/cluster:Cluster"
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
NAT_GATEWAY = "aws:ec2/natGateway:NatGateway"
ELASTIC_IP = "aws:ec2/eip:Eip"
BUCKET_POLICY = "aws:s3/bucketPolicy:BucketPolicy"
GKE_CLUSTER = "gcp:container/cluster:Cluster"
NODE_POOL = "gcp:container/nodePool:NodePool"
GCS_BUCKET = "gcp:storage/bucket:Bucket"
HELM_RELEASE = "kubernetes:helm.sh/v3:Release"
HELM_CHART = "kubernetes:helm.sh/v4:Chart"
GATEWAY = "kubernetes:gateway.networking.k8s.io/v1:Gateway"
# The types that declare node pools (a ManagedCluster its inline agentPoolProfiles).
POOL_TYPES = (MANAGED_CLUSTER, AGENT_POOL, NODE_GROUP, NODE_POOL)

# EKS and GKE spell taint effects as an enum; Kubernetes (and AKS's nodeTaints) as below.
TAINT_EFFECTS = {"NO_SCHEDULE": "NoSchedule", "NO_EXECUTE": "NoExecute", "PREFER_NO_SCHEDULE": "PreferNoSchedule"}
ON_DEMAND, SPOT = "ON_DEMAND", "SPOT"


# --- records ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """One resource: where it sits and what it was given."""

    urn: str
    type: str
    name: str
    props: Mapping[str, Any]
    parent: str | None = None

    @classmethod
    def from_plan(cls, resource: Mapping[str, Any]) -> Record:
        """A resource of a plan written by `preflight plan --json` (its inputs are the props)."""
        parent = resource.get("parent")
        return cls(
            urn=str(resource.get("urn")),
            type=str(resource.get("type")),
            name=str(resource.get("name") or ""),
            props=resource.get("inputs") or {},
            parent=parent if isinstance(parent, str) else None,
        )

    @classmethod
    def from_engine(cls, resource: PolicyResource) -> Record:
        """A resource as the engine hands it to a stack policy."""
        return cls(
            urn=resource.urn,
            type=resource.resource_type,
            name=resource.name,
            props=resource.props,
            parent=resource.parent.urn if resource.parent is not None else None,
        )


def cloud_resources(records: Sequence[Record]) -> dict[str, Record | None]:
    """Each record's URN -> the nearest CloudResource component at or above it in the parent
    tree (itself, for one), None for a resource of the cloud's own (or of no cloud resource).
    Each answer is kept for every record on the way up, so a plan costs linear time however
    deep its parent chains are (a walk per record was quadratic: minutes on a deep chain)."""
    by_urn = {r.urn: r for r in records}
    owners: dict[str, Record | None] = {}
    for record in records:
        passed: list[str] = []
        seen: set[str] = set()
        found: Record | None = None
        current: Record | None = record
        while current is not None and current.urn not in seen:
            if current.urn in owners:
                found = owners[current.urn]
                break
            if current.type == CLOUD_RESOURCE:
                found = current
                break
            seen.add(current.urn)
            passed.append(current.urn)
            current = by_urn.get(current.parent) if current.parent else None
        for urn in passed:
            owners[urn] = found
        owners.setdefault(record.urn, found)
    return {r.urn: owners[r.urn] for r in records}


# --- node pools -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Taint:
    key: str
    value: str
    effect: str  # as Kubernetes spells it: NoSchedule, NoExecute, PreferNoSchedule


@dataclass(frozen=True)
class Accelerator:
    """A GPU attached to a GKE pool's nodes (nodeConfig.guestAccelerators); None: not known yet."""

    type: str | None
    count: int | None


@dataclass(frozen=True)
class NodePool:
    """One node pool as its record declares it (nothing the cloud adds itself)."""

    provider: str  # "Azure", "AWS" or "GCP"
    urn: str  # the record declaring it: for a pool inline in an AKS cluster, the cluster
    # What the plan calls it: its resource's name (default-pool-cpu); an inline pool's own name.
    resource: str
    name: str  # the pool's name in the cloud (cpu, system); "?" when not known
    cloud_resource: str | None  # the URN of the CloudResource it belongs to
    instance_type: str | None  # the VM size / instance type / machine type (EKS: the first listed)
    min_count: int | None  # nodes at the autoscaler's floor (the fixed count without autoscaling)
    max_count: int | None
    # ON_DEMAND, SPOT, or another EKS capacityType as declared (CAPACITY_BLOCK); None: not known yet.
    capacity_type: str | None
    inline: bool = False  # an AKS cluster's agentPoolProfiles entry
    labels: dict[str, str] = field(default_factory=dict)  # node labels declared (known values only)
    taints: tuple[Taint, ...] = ()
    accelerators: tuple[Accelerator, ...] = ()  # GKE only

    @property
    def spot(self) -> bool:
        return self.capacity_type == SPOT


def node_pools(records: Iterable[Record]) -> list[NodePool]:
    """Every node pool the records declare, in their order (an AKS cluster's inline pools at
    the cluster's place)."""
    records = list(records)
    owners = cloud_resources(records)
    found: list[NodePool] = []
    for record in records:
        owner = owners[record.urn]
        found += pools_of(record, owner.urn if owner is not None else None)
    return found


def pools_of(record: Record, cloud_resource: str | None = None) -> list[NodePool]:
    """The node pools one record declares (none for most records: those not in POOL_TYPES)."""
    props, kind = record.props, record.type
    if not type_is(kind, *POOL_TYPES):
        return []
    if type_is(kind, MANAGED_CLUSTER):
        pools = []
        for profile in elements(get(props, "agentPoolProfiles")):
            with in_passing():  # the name only names the pool
                name = _text(get(profile, "name")) or "?"
            pools.append(_aks_pool(record, cloud_resource, profile, name, name, inline=True))
        return pools
    if type_is(kind, AGENT_POOL):
        with in_passing():
            name = _text(get(props, "agentPoolName")) or record.name or "?"
        return [_aks_pool(record, cloud_resource, props, record.name, name, inline=False)]
    if type_is(kind, NODE_GROUP):
        return [_eks_pool(record, cloud_resource)]
    return [_gke_pool(record, cloud_resource)]


def _aks_pool(
    record: Record, cloud_resource: str | None, pool: Any, resource: str, name: str, *, inline: bool
) -> NodePool:
    if get(pool, "enableAutoScaling") is True:
        low, high = get(pool, "minCount"), get(pool, "maxCount")
    else:
        low = high = get(pool, "count")
    priority = get(pool, "scaleSetPriority")
    instance_type = get(pool, "vmSize")
    with in_passing():
        labels = _labels(get(pool, "nodeLabels"))
        taints = tuple(t for t in (_aks_taint(e) for e in elements(get(pool, "nodeTaints"))) if t is not None)
    return NodePool(
        provider="Azure",
        urn=record.urn,
        resource=resource,
        name=name,
        cloud_resource=cloud_resource,
        instance_type=_text(instance_type),
        min_count=_count(low),
        max_count=_count(high),
        capacity_type=None if priority is UNKNOWN else SPOT if priority == "Spot" else ON_DEMAND,
        inline=inline,
        labels=labels,
        taints=taints,
    )


def _eks_pool(record: Record, cloud_resource: str | None) -> NodePool:
    props = record.props
    types = get(props, "instanceTypes")
    first = get(types, 0) if types not in (MISSING, UNKNOWN) else UNKNOWN
    capacity = get(props, "capacityType")
    scaling = get(props, "scalingConfig")
    low, high = get(scaling, "minSize"), get(scaling, "maxSize")
    with in_passing():
        name = _text(get(props, "nodeGroupName")) or record.name
        labels = _labels(get(props, "labels"))
        taints = _enum_taints(get(props, "taints"))
    return NodePool(
        provider="AWS",
        urn=record.urn,
        resource=record.name,
        name=name or "?",
        cloud_resource=cloud_resource,
        instance_type=_text(first),
        min_count=_count(low),
        max_count=_count(high),
        capacity_type=None if capacity is UNKNOWN else _text(capacity) or ON_DEMAND,
        labels=labels,
        taints=taints,
    )


def _gke_pool(record: Record, cloud_resource: str | None) -> NodePool:
    props = record.props
    scaling = get(props, "autoscaling")
    if scaling in (MISSING, UNKNOWN):
        low = high = get(props, "nodeCount")
    else:
        low, high = get(scaling, "totalMinNodeCount"), get(scaling, "totalMaxNodeCount")
    spot = get(props, "nodeConfig", "spot")
    instance_type = get(props, "nodeConfig", "machineType")
    attached = elements(get(props, "nodeConfig", "guestAccelerators"))
    with in_passing():
        name = _text(get(props, "name")) or record.name
        labels = _labels(get(props, "nodeConfig", "labels"))
        taints = _enum_taints(get(props, "nodeConfig", "taints"))
        accelerators = tuple(_accelerator(a) for a in attached)
    return NodePool(
        provider="GCP",
        urn=record.urn,
        resource=record.name,
        name=name or "?",
        cloud_resource=cloud_resource,
        instance_type=_text(instance_type),
        min_count=_count(low),
        max_count=_count(high),
        capacity_type=None if spot is UNKNOWN else SPOT if spot is True else ON_DEMAND,
        labels=labels,
        taints=taints,
        accelerators=accelerators,
    )


# --- values -----------------------------------------------------------------------------------


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _count(value: Any) -> int | None:
    """A node count: a whole number of nodes, None for anything else (not known yet)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _labels(node: Any) -> dict[str, str]:
    """A map of node labels; a label whose value is not known yet is left out."""
    if not is_map(node):
        return {}
    labels = {}
    for key in node:
        value = get(node, key)
        if isinstance(value, (str, int, float)):
            labels[str(key)] = str(value)
    return labels


def _aks_taint(text: Any) -> Taint | None:
    """AKS's `key=value:Effect`."""
    if not isinstance(text, str):
        return None
    key_value, _, effect = text.partition(":")
    key, _, value = key_value.partition("=")
    return Taint(key, value, effect)


def _enum_taints(node: Any) -> tuple[Taint, ...]:
    """EKS's and GKE's `{key, value, effect: NO_SCHEDULE}` maps."""
    taints = []
    for item in elements(node):
        key, value, effect = get(item, "key"), get(item, "value"), get(item, "effect")
        if isinstance(key, str) and isinstance(effect, str):
            text = value if isinstance(value, str) else ""
            taints.append(Taint(key, text, TAINT_EFFECTS.get(effect, effect)))
    return tuple(taints)


def _accelerator(item: Any) -> Accelerator:
    count = get(item, "count")
    return Accelerator(_text(get(item, "type")), 1 if count is MISSING else _count(count))
