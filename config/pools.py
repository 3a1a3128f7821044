"""Node pools: the system pool and the worker pools every created cluster has, their
GPUs and sizes, and the cluster fields the three providers share.

Two defaults depend on more than a field: a pool's `diskSizeGb` (per provider) and its
`gpu.count` (what the instance type carries). The checks here use them as they will be;
config/load.py fills them in once the stack is valid (`disk_size`, `gpu_count`).
"""

from __future__ import annotations

import difflib
import re
from typing import Any, ClassVar, Final, Literal, TypeVar

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from config.data import instance_types
from config.data.accelerators import GPU_TYPES
from config.data.kubernetes import DEFAULT_MINOR
from config.doc import one_of, per_provider, shown_default
from config.types import KUBERNETES_VERSION_PATTERN, Strict, Unique, fail

# Worker pool names on every provider (AKS narrows it: config.types.AksPoolName).
POOL_NAME_PATTERN = r"^[a-z][a-z0-9-]{0,39}$"
# Instance types of every provider: Standard_D16s_v5, m6i.4xlarge, e2-standard-4.
INSTANCE_TYPE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"

# Per provider: system pool instance type and the default CPU instance type.
SYSTEM_INSTANCE_TYPE: Final[dict[str, str]] = {
    "Azure": "Standard_D4s_v5",
    "AWS": "m6i.xlarge",
    "GCP": "e2-standard-4",
}
CPU_INSTANCE_TYPE: Final[dict[str, str]] = {
    "Azure": "Standard_D16s_v5",
    "AWS": "m6i.4xlarge",
    "GCP": "n2-standard-16",
}
# Root disk of worker nodes (GiB): Ray images are several GB, plus /tmp/ray and object
# spilling. The reference modules use 500 GiB gp3 on EKS and 500 GB pd-ssd on GKE
# (platform.md 9.2); EKS would otherwise give 20 GiB, GKE 100 GB pd-balanced. On EKS the
# size goes to the node group's `disk_size` (the volume type is the EKS AMI's root
# volume, gp3 on AL2023; a launch template would pin it, not done yet). AKS keeps
# its own default (128 GB managed, or ephemeral where the VM's cache fits) unless set.
DISK_SIZE_GB: Final[dict[str, int | None]] = {"Azure": None, "AWS": 500, "GCP": 500}
GKE_DISK_TYPE: Final = "pd-ssd"
AKS_MAX_DISK_GB = 2048  # the AKS API's osDiskSizeGB maximum (containerservice AgentPool)

POOL_NAME_UNIQUE = "unique within the cluster, not `system` (the system pool's name)"
SYSTEM_POOL_RULE = (
    "the system pool (autoscaling); given only the counts, it keeps the provider's instance type: "
    + per_provider(SYSTEM_INSTANCE_TYPE)
    + ". A new `instanceType` is not applied on AKS and replaces the EKS node group, deleting it first "
    "(see [Edit node pools](operations.md#edit-node-pools))"
)
NODE_POOLS_RULE = (
    "the worker pools, tainted for Anyscale workloads. Default: an on-demand `cpu` and a spot `cpuspot` pool, "
    "0-10 nodes of " + per_provider(CPU_INSTANCE_TYPE) + ". Changing a pool's `gpu` or `capacityType` "
    "replaces it, deleting the old one first; so does its `instanceType` or `diskSizeGb` on AKS and EKS (GKE changes "
    "them in place, recreating the nodes). See [Edit node pools](operations.md#edit-node-pools)"
)


def attachable_counts() -> str:  # pragma: no mutate block
    """`GCP T4: 1, 2 or 4`: the attached-GPU counts of config/data/instance_types.py."""
    counts: dict[tuple[str, str], set[int]] = {}
    for provider, machines in instance_types.INSTANCE_TYPES.items():
        for machine in machines.values():
            for gpu, allowed in machine.attachable.items():
                counts.setdefault((provider, gpu), set()).update(allowed)
    return "; ".join(f"{p} {g} {one_of(sorted(c)).replace('`', '')}" for (p, g), c in sorted(counts.items()))


def check_counts(min_count: int, max_count: int) -> None:
    if min_count > max_count:
        raise fail("pool", "minCount ({lo}) must not exceed maxCount ({hi})", lo=min_count, hi=max_count)


class GpuSpec(Strict):
    # One of the operator chart's accelerator names on the resource's provider
    # (config/data/accelerators.py); checked against the instance type by the cluster.
    type: str = Field(
        min_length=1,
        description="the operator chart's accelerator name on the provider ([GPU pools](what-it-creates.md#gpu-pools-instance-types-and-disks)): "
        + "; ".join(f"{p} `{' '.join(types)}`" for p, types in GPU_TYPES.items())
        + "; it must be what the instance type carries",
    )
    # Left out: what the instance type carries (the fewest it takes where GPUs are attached).
    count: int | None = Field(
        None,
        ge=1,
        le=16,
        description="must equal what the instance type carries; types with attached GPUs take "
        + attachable_counts()
        + " (default: the fewest the type takes)",
        json_schema_extra=shown_default("the instance type's"),
    )


class ShapeSpec(Strict):
    """A node's capacity as the cloud sells it, for instance types not in
    config/data/instance_types.py. The operator's instance type is sized from it."""

    cpu: int = Field(ge=1, le=1024, description="vCPUs")
    memory_gb: float = Field(gt=0, le=32768, description="memory in GiB")
    gpus: int = Field(0, ge=0, le=16, description="must equal `gpu.count`; more than 0 needs `gpu`")


class NodePoolSpec(Strict):
    """A worker pool. Tainted per platform.md 7 so that only Anyscale workloads land on it."""

    name: str = Field(pattern=POOL_NAME_PATTERN, description=POOL_NAME_UNIQUE)
    instance_type: str = Field(
        pattern=INSTANCE_TYPE_PATTERN,
        description="a type listed in config/data/instance_types.py for the provider ("
        + ", ".join(f"{len(types)} {p}" for p, types in instance_types.INSTANCE_TYPES.items())
        + "), or any with `shape`",
    )
    min_count: int = Field(0, ge=0, le=1000, description="at most `maxCount`")
    max_count: int = Field(10, ge=1, le=1000)
    capacity_type: Literal["ON_DEMAND", "SPOT"] = Field(
        "ON_DEMAND", description="tainted `node.anyscale.com/capacity-type=<value>:NoSchedule`"
    )
    gpu: GpuSpec | None = Field(
        None, description="`{type, count}`: required on a GPU instance type, and must match what it carries"
    )
    shape: ShapeSpec | None = Field(
        None,
        description="the node's size as sold, for an instance type not in config/data/instance_types.py; the "
        "operator's instance type is sized from it",
        json_schema_extra=shown_default("from the table"),
    )

    def node_size(self, provider: str) -> tuple[int, float, int]:
        """vCPUs, GiB and GPUs of the pool's nodes as sold: its `shape`, else the
        instance-type table (the spec rejects a pool with neither)."""
        gpus = gpu_count(provider, self) or 0
        if self.shape is not None:
            return self.shape.cpu, self.shape.memory_gb, gpus
        machine = instance_types.machine(provider, self.instance_type)
        assert machine is not None, self.instance_type
        return machine.vcpu, machine.memory_gib, gpus

    # Root disk; left out, the provider's default (DISK_SIZE_GB), filled in by config/load.py.
    disk_size_gb: int | None = Field(
        None,
        ge=30,
        le=16384,
        description=f"root disk in GiB: EKS `disk_size`, GKE `{GKE_DISK_TYPE}` `disk_size_gb`, AKS `osDiskSizeGB` "
        f"(at most {AKS_MAX_DISK_GB} on AKS)",
        json_schema_extra=shown_default(
            per_provider(DISK_SIZE_GB)
            + "; "
            + "; ".join(f"{p}: the platform's" for p, d in DISK_SIZE_GB.items() if d is None)
        ),
    )

    @model_validator(mode="after")
    def _bounds(self) -> NodePoolSpec:
        check_counts(self.min_count, self.max_count)
        return self


class SystemPoolSpec(Strict):
    provider: ClassVar[str] = ""
    instance_type: str = Field(pattern=INSTANCE_TYPE_PATTERN)
    min_count: int = Field(1, ge=1, le=100, description="at most `maxCount`")
    max_count: int = Field(3, ge=1, le=100)

    @field_validator("instance_type")
    @classmethod
    def _known_instance_type(cls, value: str) -> str:
        """The system pool has no `shape` to fall back on: its type must be one the table knows,
        and a CPU type (the system pool runs no GPU workloads)."""
        known = instance_types.INSTANCE_TYPES.get(cls.provider)
        if known is None:
            return value
        machine = known.get(value)
        if machine is None:
            close = difflib.get_close_matches(value, sorted(known), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise fail(
                "instance_type",
                "'{v}' is not a known {p} instance type (config/data/instance_types.py){h}",
                v=value,
                p=cls.provider,
                h=hint,
            )
        if machine.gpu_type is not None:
            raise fail(
                "instance_type",
                "'{v}' carries {g}: the system pool runs cluster services only; use a CPU instance type",
                v=value,
                g=machine.gpu_type,
            )
        return value

    @model_validator(mode="after")
    def _bounds(self) -> SystemPoolSpec:
        check_counts(self.min_count, self.max_count)
        return self


# The system pool per provider: given only the counts, it keeps the provider's instance type.
class AksSystemPool(SystemPoolSpec):
    provider: ClassVar[str] = "Azure"
    instance_type: str = Field(SYSTEM_INSTANCE_TYPE["Azure"], pattern=INSTANCE_TYPE_PATTERN)


class EksSystemPool(SystemPoolSpec):
    provider: ClassVar[str] = "AWS"
    instance_type: str = Field(SYSTEM_INSTANCE_TYPE["AWS"], pattern=INSTANCE_TYPE_PATTERN)


class GkeSystemPool(SystemPoolSpec):
    provider: ClassVar[str] = "GCP"
    instance_type: str = Field(SYSTEM_INSTANCE_TYPE["GCP"], pattern=INSTANCE_TYPE_PATTERN)


PoolT = TypeVar("PoolT", bound="NodePoolSpec")


def default_pools(provider: str, pool_cls: type[PoolT]) -> list[PoolT]:
    cpu = CPU_INSTANCE_TYPE[provider]
    return [
        pool_cls(name="cpu", instance_type=cpu, min_count=0, max_count=10),
        pool_cls(name="cpuspot", instance_type=cpu, min_count=0, max_count=10, capacity_type="SPOT"),
    ]


# Each cluster's `nodePools`: Annotated[list[<its pool>], UNIQUE_POOL_NAMES].
UNIQUE_POOL_NAMES = Unique("pool", "node pool names must be unique (repeated: {d})", key=lambda pool: pool.name)


VERSION_RULE = (
    "a minor the provider creates on the day of the check (config/data/kubernetes.py; a refusal lists them); "
    "move it one minor at a time ([Upgrades](operations.md#upgrades))"
)


def kubernetes_version_field(provider: str, rule: str = "") -> Any:
    """`kubernetesVersion`, defaulting to the provider's minor from the calendar."""
    return Field(
        DEFAULT_MINOR[provider], pattern=KUBERNETES_VERSION_PATTERN, description=VERSION_RULE + (rule and f"; {rule}")
    )


class ClusterSpec(Strict):
    provider: ClassVar[str]
    # Each provider's spec overrides it with its own default (kubernetes_version_field).
    kubernetes_version: str = Field(pattern=KUBERNETES_VERSION_PATTERN)

    @field_validator("node_pools", check_fields=False)
    @classmethod
    def _pools(cls, pools: list[NodePoolSpec]) -> list[NodePoolSpec]:
        if "system" in [pool.name for pool in pools]:
            raise fail("pool", "'system' is the system pool's name; give the worker pool another name")
        problems = [
            InitErrorDetails(type=PydanticCustomError("pool", message), loc=(index, *where), input=None)
            for index, pool in enumerate(pools)
            for where, message in check_machine(cls.provider, pool)
        ]
        if problems:
            raise ValidationError.from_exception_data(cls.__name__, problems)
        return pools


def disk_size(provider: str, pool: NodePoolSpec) -> int | None:
    """The pool's root disk: as given, else the provider's default (None: the platform's)."""
    return pool.disk_size_gb if pool.disk_size_gb is not None else DISK_SIZE_GB[provider]


def gpu_count(provider: str, pool: NodePoolSpec) -> int | None:
    """The pool's GPUs per node: as given, else what its node carries (the shape's, the
    instance type's, or the fewest attached GPUs the type takes); None without `gpu`.
    For a pool check_machine accepts."""
    gpu = pool.gpu
    if gpu is None:
        return None
    if pool.shape is not None:
        return gpu.count or pool.shape.gpus
    machine = instance_types.machine(provider, pool.instance_type)
    if machine is None:
        return gpu.count
    if machine.gpu_type is not None:
        return machine.gpus
    allowed = machine.attachable.get(gpu.type)
    return gpu.count or (allowed[0] if allowed else None)


def check_machine(provider: str, pool: NodePoolSpec) -> list[tuple[tuple[str, ...], str]]:
    """The pool's GPU against what its instance type carries.
    Returns (path inside the pool, message) per problem."""
    gpu, offered = pool.gpu, GPU_TYPES[provider]
    machine = instance_types.machine(provider, pool.instance_type)
    if gpu is not None and gpu.type not in offered:
        carries = f"; {pool.instance_type} carries {machine.gpu_type}" if machine and machine.gpu_type else ""
        return [
            (
                ("gpu", "type"),
                f"{gpu.type} is not a GPU type the operator chart maps on {provider}{carries}; use one of {', '.join(offered)}",
            )
        ]
    if pool.shape is not None:
        return _check_shape(provider, pool)
    if machine is None:
        known = sorted(instance_types.INSTANCE_TYPES[provider])
        close = difflib.get_close_matches(pool.instance_type, known, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        return [
            (
                ("instanceType",),
                f"'{pool.instance_type}' is not a known {provider} instance type (config/data/instance_types.py); {hint}"
                "or give the node's size as `shape: {cpu, memoryGb, gpus}`",
            )
        ]
    it = pool.instance_type
    if machine.gpu_type is not None:
        if gpu is None:
            return [
                (
                    ("gpu",),
                    f"{it} carries {machine.gpus} x {machine.gpu_type}: add `gpu: {{type: {machine.gpu_type}}}` so the pool is labelled and tainted for GPU pods",
                )
            ]
        if gpu.type != machine.gpu_type:
            return [(("gpu", "type"), f"{it} carries {machine.gpu_type}, not {gpu.type}")]
        if gpu.count not in (None, machine.gpus):
            return [
                (
                    ("gpu", "count"),
                    f"{it} carries {machine.gpus} GPUs, not {gpu.count}; omit `count` or set it to {machine.gpus}",
                )
            ]
    elif gpu is not None and gpu.type in machine.attachable:
        allowed = machine.attachable[gpu.type]
        count = gpu_count(provider, pool)
        if count not in allowed:
            return [
                (
                    ("gpu", "count"),
                    f"{it} takes {', '.join(map(str, allowed))} attached {gpu.type} GPUs, not {count}",
                )
            ]
    elif gpu is not None:
        takes = f"takes attached {', '.join(machine.attachable)} only" if machine.attachable else "has no GPUs"
        examples = [
            n
            for n, m in instance_types.INSTANCE_TYPES[provider].items()
            if m.gpu_type == gpu.type or gpu.type in m.attachable
        ]
        hint = f"; for {gpu.type} use e.g. {examples[0]}" if examples else ""
        return [(("gpu", "type"), f"{it} {takes}, not {gpu.type}{hint}")]
    return []


# How each cloud spells its machine types, for a type given with `shape` (not in the table):
# Azure VM sizes are `Standard_...` ("Azure virtual machine sizes naming
# conventions"), EC2 instance types `<family>.<size>` ("Amazon EC2 instance type naming
# conventions"), Compute Engine machine types `<series>-<type>[-<vcpus>...]` ("Machine families
# resource and comparison guide"); read 2026-12-02.
MACHINE_TYPE_FORMS: Final = {
    # ARM reads VM sizes case-insensitively; AKS takes no Basic_ size for a node pool.
    "Azure": (re.compile(r"Standard_[A-Za-z0-9_-]+", re.IGNORECASE), "Standard_<size>, e.g. Standard_D16s_v5"),
    # Sizes may carry a suffix: r7iz.metal-16xl.
    "AWS": (re.compile(r"[a-z][a-z0-9-]*\.[a-z0-9]+(-[a-z0-9]+)*"), "<family>.<size>, e.g. m6i.4xlarge"),
    "GCP": (re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)+"), "<series>-<type>-<vcpus>, e.g. n2-standard-16"),
}


def _foreign_type(provider: str, instance_type: str) -> str | None:
    """Why a type given with `shape` cannot be the provider's: another cloud's known type, or
    not the provider's spelling of one (the cloud would refuse it at create)."""
    for other in instance_types.INSTANCE_TYPES:
        if other != provider and instance_types.machine(other, instance_type) is not None:
            return f"'{instance_type}' is {_a(other)} machine type, not {_a(provider)} one"
    form = MACHINE_TYPE_FORMS.get(provider)
    if form is not None and not form[0].fullmatch(instance_type):
        return f"'{instance_type}' is not spelt as {_a(provider)} machine type ({form[1]})"
    return None


def _a(provider: str) -> str:
    """`an Azure`, `an AWS`, `a GCP`: the article as the provider's name is read aloud."""
    return f"an {provider}" if provider in ("Azure", "AWS") else f"a {provider}"


def _check_shape(provider: str, pool: NodePoolSpec) -> list[tuple[tuple[str, ...], str]]:
    shape, gpu = pool.shape, pool.gpu
    assert shape is not None
    foreign = _foreign_type(provider, pool.instance_type)
    if foreign is not None:
        return [(("instanceType",), foreign)]
    if gpu is None:
        return [(("gpu",), f"the shape has {shape.gpus} GPUs: add `gpu: {{type: ...}}`")] if shape.gpus else []
    if not shape.gpus:
        return [(("shape", "gpus"), "is 0 but the pool has a `gpu`: give the node's GPU count")]
    count = gpu_count(provider, pool)
    if shape.gpus != count:
        return [(("shape", "gpus"), f"is {shape.gpus} but the pool's gpu.count is {count}; they must agree")]
    return []
