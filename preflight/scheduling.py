"""The scheduling view: which operator instance types can land on which node pools.

Computed from a plan (the JSON `preflight plan --json` writes), per cloud resource:
- pools from the AgentPool / NodeGroup / NodePool resources (and the AKS system pool in
  the ManagedCluster), as policy/rules/plan_records.py reads them: their labels, plus the
  labels the cloud adds itself (instance type, spot, GKE accelerator), their taints, and
  their nodes' size (config/data/instance_types.py, less the reserve of
  components/operator_shapes.py);
- instance types from the operator's values (Helm release) or the AKS extension's
  configurationSettings, plus the chart's defaults unless they are turned off;
- a Ray pod of each instance type as the operator chart (1.8.0) patches it: the
  instance type's nodeSelector and tolerations, the accelerator's node selector and
  GPU toleration, and the market-type patches for ON_DEMAND and SPOT.

Flags GPU pools that no instance type targets (dead capacity the autoscaler never
scales up) and instance types that fit on no pool (they stay Pending).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from components import defaults
from components.addons.operator import nest
from components.operator_shapes import INSTANCE_TYPE_LABEL, reserved_cpu, reserved_memory_gib
from config.data import instance_types
from config.data.accelerators import GPU_NODE_SELECTORS, GPU_SELECTOR_KEY
from policy.rules.plan_records import (
    CLOUD_RESOURCE,
    EXTENSION,
    HELM_RELEASE,
    NodePool,
    Record,
    Taint,
    cloud_resources,
    node_pools,
)
from preflight.planfile import resource_name

CAPACITY_TAINT = "node.anyscale.com/capacity-type"
ACCELERATOR_TAINT = "node.anyscale.com/accelerator-type"
AZURE_SPOT = "kubernetes.azure.com/scalesetpriority"
EKS_CAPACITY = "eks.amazonaws.com/capacityType"
GKE_SPOT = "cloud.google.com/gke-spot"
GKE_ACCELERATOR = "cloud.google.com/gke-accelerator"
MARKETS = ("ON_DEMAND", "SPOT")
PROVIDERS = {"azure": "Azure", "aws": "AWS", "gcp": "GCP", "generic": "Generic"}
# The chart's own `workloads.instanceTypes.defaults` (anyscale-operator 1.8.0 values.yaml).
CHART_DEFAULTS: dict[str, dict[str, Any]] = {
    "2CPU-8GB": {"resources": {"CPU": 2, "memory": "8Gi"}},
    "4CPU-16GB": {"resources": {"CPU": 4, "memory": "16Gi"}},
    "8CPU-32GB": {"resources": {"CPU": 8, "memory": "32Gi"}},
    "8CPU-32GB-1xT4": {"resources": {"CPU": 8, "GPU": 1, "memory": "32Gi", "accelerators": ["T4"]}},
}


@dataclass
class Pool:
    """A node pool as the scheduler sees its nodes: the labels and taints it declares plus
    those the cloud adds itself, and their size."""

    name: str
    instance_type: str
    labels: dict[str, str]
    taints: list[Taint]
    gpus: int
    # Allocatable for pods (vCPU, GiB) or None when the instance type is not in the table.
    room: tuple[float, float] | None

    @property
    def is_gpu(self) -> bool:
        return self.gpus > 0


@dataclass
class InstanceType:
    name: str
    cpu: float
    memory_gib: float
    gpus: int
    accelerator: str | None
    node_selector: dict[str, str]
    tolerations: list[dict[str, Any]]
    chart_default: bool = False


@dataclass
class Placement:
    """Where one instance type can land, per market type, and why not elsewhere."""

    instance_type: InstanceType
    pools: dict[str, list[str]] = field(default_factory=dict)  # market -> pool names

    @property
    def fits_nowhere(self) -> bool:
        return not any(self.pools.values())


@dataclass
class ResourceView:
    name: str
    provider: str
    pools: list[Pool]
    placements: list[Placement]
    untargeted_gpu_pools: list[str]
    unplaced: list[str]


# --- reading the plan ---------------------------------------------------------------------


def _size(provider: str, instance_type: str) -> tuple[tuple[float, float] | None, int]:
    machine = instance_types.machine(provider, instance_type)
    if machine is None:
        return None, 0
    room = (machine.vcpu - reserved_cpu(machine.vcpu), machine.memory_gib - reserved_memory_gib(machine.memory_gib))
    return room, machine.gpus


def _pool(pool: NodePool) -> Pool:
    """The plan's pool (policy/rules/plan_records.py), with the labels the cloud adds itself."""
    instance_type = pool.instance_type if pool.instance_type is not None else "?"
    room, gpus = _size(pool.provider, instance_type)
    labels = {**pool.labels, INSTANCE_TYPE_LABEL: instance_type}
    if pool.provider == "Azure" and pool.spot:
        labels[AZURE_SPOT] = "spot"  # AKS labels (and taints) spot nodes itself
    elif pool.provider == "AWS" and pool.capacity_type is not None:
        labels[EKS_CAPACITY] = pool.capacity_type
    elif pool.provider == "GCP":
        if pool.spot:
            labels[GKE_SPOT] = "true"
        for accelerator in pool.accelerators:
            if accelerator.type is not None:
                labels[GKE_ACCELERATOR] = accelerator.type  # GKE labels the nodes itself
            gpus = accelerator.count if accelerator.count is not None else gpus
        return Pool(pool.name, instance_type, labels, list(pool.taints), gpus, room)
    return Pool(
        pool.name, instance_type, labels, list(pool.taints), int(labels.get("nvidia.com/gpu.count", gpus)), room
    )


def _operator_values(resource: dict[str, Any]) -> dict[str, Any] | None:
    inputs, kind = resource.get("inputs") or {}, resource["type"]
    if kind == EXTENSION and inputs.get("extensionType") == defaults.AKS_EXTENSION_TYPE:
        return nest(inputs.get("configurationSettings") or {})
    if kind == HELM_RELEASE and inputs.get("chart") == "anyscale-operator":
        values = inputs.get("values")
        return values if isinstance(values, dict) else {}
    return None


def _quantity_gib(text: Any) -> float:
    text = str(text)
    units = {"Ki": 2**-20, "Mi": 2**-10, "Gi": 1, "Ti": 2**10, "G": 1e9 / 2**30, "M": 1e6 / 2**30}
    for unit, factor in units.items():
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    return float(text) / 2**30


def _cpu(text: Any) -> float:
    text = str(text)
    return float(text[:-1]) / 1000 if text.endswith("m") else float(text)


def _spelt(resources: dict[str, Any]) -> dict[str, Any]:
    """Resources as text: the AKS extension's settings are strings ("2"), Helm's values not."""
    return {k: [str(i) for i in v] if isinstance(v, list) else str(v) for k, v in resources.items()}


def _instance_types(values: dict[str, Any]) -> list[InstanceType]:
    config = (values.get("workloads") or {}).get("instanceTypes") or {}
    enable_defaults = str(config.get("enableDefaults", True)).lower() != "false"
    merged = {**(CHART_DEFAULTS if enable_defaults else {}), **(config.get("additional") or {})}
    found = []
    for name, item in merged.items():
        resources = item.get("resources") or {}
        accelerators = resources.get("accelerators") or []
        found.append(
            InstanceType(
                name,
                _cpu(resources.get("CPU", 0)),
                _quantity_gib(resources.get("memory", "0")),
                int(resources.get("GPU", 0) or 0),
                accelerators[0] if accelerators else None,
                dict(item.get("nodeSelector") or {}),
                [t for t in item.get("tolerations") or [] if t],
                # The chart's shape, from its defaults or given again as the chart writes it.
                chart_default=name in CHART_DEFAULTS and _spelt(resources) == _spelt(CHART_DEFAULTS[name]["resources"]),
            )
        )
    return found


# --- the chart's pod patches, and matching -----------------------------------------------------


def pod_for(
    instance_type: InstanceType, provider: str, market: str
) -> tuple[dict[str, str], list[dict[str, Any]], list[tuple[str, str, set[str]]]]:
    """Node selector, tolerations and required node affinity (key, operator, values) of a
    Ray pod of this instance type and market, as the chart's patches (1.8.0) build them."""
    selector = dict(instance_type.node_selector)
    tolerations = [*instance_type.tolerations, {"key": CAPACITY_TAINT, "value": "ON_DEMAND", "effect": "NoSchedule"}]
    tolerations.append({"key": CAPACITY_TAINT, "value": market, "effect": "NoSchedule"})
    affinity: list[tuple[str, str, set[str]]] = []
    if instance_type.accelerator is not None:
        mapping = GPU_NODE_SELECTORS.get(provider, {})
        if instance_type.accelerator in mapping:
            selector[GPU_SELECTOR_KEY[provider]] = mapping[instance_type.accelerator]
        tolerations.append({"key": ACCELERATOR_TAINT, "value": "GPU", "effect": "NoSchedule"})
    elif provider == "AWS":
        # The chart keeps CPU pods off GPU nodes on AWS.
        affinity.append(("nvidia.com/gpu.count", "DoesNotExist", set()))
    if instance_type.gpus and provider == "GCP":
        # GKE's ExtendedResourceToleration admission adds this to pods requesting GPUs.
        tolerations.append({"key": "nvidia.com/gpu", "operator": "Exists"})
    if provider == "AWS":
        selector[EKS_CAPACITY] = market
    elif provider == "GCP":
        if market == "SPOT":
            selector[GKE_SPOT] = "true"
        else:
            affinity.append((GKE_SPOT, "NotIn", {"true"}))
    elif provider == "Azure":
        if market == "SPOT":
            affinity.append((AZURE_SPOT, "In", {"spot"}))
            tolerations.append({"key": AZURE_SPOT, "value": "spot", "effect": "NoSchedule"})
        else:
            affinity.append((AZURE_SPOT, "NotIn", {"spot"}))
    return selector, tolerations, affinity


def tolerates(tolerations: list[dict[str, Any]], taint: Taint) -> bool:
    for t in tolerations:
        if t.get("effect") not in (None, "", taint.effect):
            continue
        if t.get("operator") == "Exists" and t.get("key") in (None, "", taint.key):
            return True
        if t.get("key") == taint.key and str(t.get("value", "")) == taint.value:
            return True
    return False


def why_not(instance_type: InstanceType, pool: Pool, provider: str, market: str) -> str | None:
    """None when a pod of this instance type and market can run on the pool's nodes."""
    selector, tolerations, affinity = pod_for(instance_type, provider, market)
    for key, value in selector.items():
        if pool.labels.get(key) != value:
            return f"selector {key}={value}"
    for key, operator, values in affinity:
        label = pool.labels.get(key)
        if (
            (operator == "DoesNotExist" and label is not None)
            or (operator == "NotIn" and label in values)
            or (operator == "In" and label not in values)
        ):
            return f"affinity {key} {operator}"
    for taint in pool.taints:
        if taint.effect in ("NoSchedule", "NoExecute") and not tolerates(tolerations, taint):
            return f"taint {taint.key}={taint.value}"
    if instance_type.gpus > pool.gpus:
        return "GPUs"
    if pool.room is not None and (instance_type.cpu > pool.room[0] or instance_type.memory_gib > pool.room[1]):
        return "size"
    return None


# --- the view ------------------------------------------------------------------------------------


def scheduling(plan: dict[str, Any]) -> list[ResourceView]:
    resources = plan.get("resources") or []
    records = [Record.from_plan(r) for r in resources]
    order = [r for r in resources if r["type"] == CLOUD_RESOURCE]
    pools: dict[str, list[Pool]] = {r["urn"]: [] for r in order}
    for pool in node_pools(records):
        if pool.cloud_resource in pools:
            pools[pool.cloud_resource].append(_pool(pool))
    owners = cloud_resources(records)
    values: dict[str, dict[str, Any]] = {}
    for resource, record in zip(resources, records, strict=True):
        owner = owners[record.urn]
        if owner is None or owner.urn not in pools:
            continue
        operator = _operator_values(resource)
        if operator is not None:
            values[owner.urn] = operator
    views = []
    for owner in order:
        operator = values.get(owner["urn"])
        if operator is None:
            continue
        provider = _provider(operator) or "Generic"
        views.append(_view(resource_name(owner), provider, pools[owner["urn"]], _instance_types(operator)))
    return views


def _provider(values: dict[str, Any] | None) -> str | None:
    cloud = ((values or {}).get("global") or {}).get("cloudProvider")
    return PROVIDERS.get(str(cloud).lower()) if cloud else None


def _view(name: str, provider: str, pools: list[Pool], types: list[InstanceType]) -> ResourceView:
    placements = []
    for instance_type in types:
        placement = Placement(instance_type)
        for market in MARKETS:
            placement.pools[market] = [p.name for p in pools if why_not(instance_type, p, provider, market) is None]
        placements.append(placement)
    targeted = {pool for p in placements if p.instance_type.gpus for pools_ in p.pools.values() for pool in pools_}
    untargeted = [p.name for p in pools if p.is_gpu and p.name not in targeted]
    unplaced = [p.instance_type.name for p in placements if p.fits_nowhere] if pools else []
    return ResourceView(name, provider, pools, placements, untargeted, unplaced)


def render_scheduling(plan: dict[str, Any], width: int = 100) -> str:
    lines = ["Scheduling: operator instance types -> node pools (per market type)"]
    for view in scheduling(plan):
        lines.append(f"  {view.name} ({view.provider})")
        if not view.pools:
            lines.append("    no node pools in this plan (the cluster is not ours): not checked")
            continue
        column = max(len(p.instance_type.name) for p in view.placements) + 2
        for placement in view.placements:
            it = placement.instance_type
            where = "   ".join(
                f"{m.lower().replace('_', '-')}: {', '.join(p) or '-'}" for m, p in placement.pools.items()
            )
            note = " (chart default)" if it.chart_default else ""
            lines.append(f"    {it.name:<{column}}{where}{note}")
        for pool in view.pools:
            if pool.room is None:
                lines.append(
                    f"    ? {pool.name}: {pool.instance_type} is not in config/data/instance_types.py; fit not checked"
                )
        for untargeted in view.untargeted_gpu_pools:
            lines.append(f"    ! GPU pool {untargeted} is targeted by no instance type: it never scales up")
        for name in view.unplaced:
            lines.append(f"    ! {name} fits on no pool: its pods would stay Pending")
    return "\n".join(line if len(line) <= width else line[: width - 3] + "..." for line in lines)
