"""The stack spec: pydantic models of `anyscale-cloud:cloud` and `anyscale-cloud:resources`.

This module is the ONE place where the platform's rules (platform.md 1.1 and 1.2) are
enforced. `__main__.py` and `preflight validate` both go through `load_spec`, so a bad
config is rejected before a single resource is declared, with every problem reported
at once and each one naming its config path.
"""

from __future__ import annotations

import difflib
import ipaddress
import itertools
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    ModelWrapValidatorHandler,
    Tag,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError

from components import azure_availability, defaults, instance_types
from components.names import RULES as NAME_RULES
from components.names import check_names
from components.raw_config import is_secure, printable, raw_problems
from components.regions import KNOWN_REGIONS

# The platform's rules live in the policy pack (policy/rules/platform.py: pure checks,
# standard library only), so that the pack, which the Pulumi CLI uploads and runs
# without the rest of the repository, carries them too. The pack imports them as
# `rules.platform` (its own folder is on sys.path there); the project, run from its
# root, imports the same file as `policy.rules.platform` (policy/ is a package for
# that). Two module objects of one file: plain constants and functions, so that is
# harmless. Only this pure module is imported from outside the pack.
from policy.rules import platform
from policy.rules.chart_keys import CHART_VERSION, FORBIDDEN_KEYS, TEMPLATE_KEYS
from policy.rules.platform import PROVIDERS

AKS_POOL_RE = re.compile(r"^[a-z][a-z0-9]{0,11}$")
# Worker pool names on every provider (AKS narrows it: AKS_POOL_RE).
POOL_NAME_PATTERN = r"^[a-z][a-z0-9-]{0,39}$"
# Instance types of every provider: Standard_D16s_v5, m6i.4xlarge, e2-standard-4.
INSTANCE_TYPE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"

# --- the config reference ----------------------------------------------------------------
# README.md's config reference is generated from these models (components/config_reference.py):
# a field's `description` is its rule in words, written from the constants the validators
# use, and `doc_default`/`doc_only` (json_schema_extra) adjust how a row is shown.
# These helpers run only while this module is imported (class bodies), before mutmut can
# switch a mutant on, so `make mutate` could never test them: `# pragma: no mutate block`.
# tests/test_config_reference.py checks the text they write, in the README.


def shown_default(text: str) -> Any:  # pragma: no mutate block
    """The default as the reference states it, where the model's own value would mislead
    (filled in by a validator, or empty meaning "the platform's")."""
    return {"doc_default": text}


def per_provider(values: dict[str, Any]) -> str:  # pragma: no mutate block
    return "; ".join(f"{p} `{v}`" for p, v in values.items() if v is not None)


def one_of(values: Any) -> str:  # pragma: no mutate block
    shown = [f"`{v}`" for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def attachable_counts() -> str:  # pragma: no mutate block
    """`GCP T4: 1, 2 or 4`: the attached-GPU counts of components/instance_types.py."""
    counts: dict[tuple[str, str], set[int]] = {}
    for provider, machines in instance_types.INSTANCE_TYPES.items():
        for machine in machines.values():
            for gpu, allowed in machine.attachable.items():
                counts.setdefault((provider, gpu), set()).update(allowed)
    return "; ".join(f"{p} {g} {one_of(sorted(c)).replace('`', '')}" for (p, g), c in sorted(counts.items()))


NAME_RULE = f"`{platform.NAME_RE.pattern}`, at most {platform.MAX_NAME} characters"
REGION_RULE = f"`{platform.REGION_RE.pattern}`, at most {platform.MAX_REGION} characters, never case-converted"
POOL_NAME_UNIQUE = "unique within the cluster, not `system` (the system pool's name)"
POOL_NAME_RULE = POOL_NAME_UNIQUE
AKS_MAX_DISK_GB = 2048  # the AKS API's osDiskSizeGB maximum (containerservice AgentPool)
SYSTEM_POOL_RULE = (
    "the system pool (autoscaling); given only the counts, it keeps the provider's instance type: "
    + per_provider(defaults.SYSTEM_INSTANCE_TYPE)
    + ". A new `instanceType` is not applied on AKS and replaces the EKS node group, deleting it first "
    "(see [Edit node pools](#edit-node-pools))"
)
NODE_POOLS_RULE = (
    "the worker pools, tainted for Anyscale workloads. Default: an on-demand `cpu` and a spot `cpuspot` pool, "
    "0-10 nodes of " + per_provider(defaults.CPU_INSTANCE_TYPE) + ". Changing a pool's `gpu` or `capacityType` "
    "replaces it, deleting the old one first; so does its `instanceType` or `diskSizeGb` on AKS and EKS (GKE changes "
    "them in place, recreating the nodes). See [Edit node pools](#edit-node-pools)"
)
CLUSTER_RULE = "the cluster the program creates (a Generic resource brings its own: `kubeconfig`)"
PREVIEW_REGIONS_NOTE = (
    "outside the regions where Anyscale on Azure is available (preview; components/azure_availability.py): "
    "a warning, not an error"
)


def fail(kind: str, message: str, **ctx: Any) -> PydanticCustomError:
    """A rule violation; `message` is what the user reads, so it says how to fix it."""
    return PydanticCustomError(kind, message, ctx or None)


# --- secrets ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Secret:
    """A Pulumi secret from config. `value` is the plaintext at deploy time; offline
    (preflight on a stack file) it is the `{secure: ...}` ciphertext, opaque to us."""

    value: str
    encrypted: bool = False

    def __repr__(self) -> str:  # never print the value, not even in a traceback
        return "Secret([secret])"

    __str__ = __repr__


def _to_secret(value: Any) -> Secret:
    if isinstance(value, Secret):
        return value
    if isinstance(value, dict) and set(value) == {"secure"} and isinstance(value["secure"], str):
        return Secret(value["secure"], encrypted=True)
    if isinstance(value, str) and value.strip():
        return Secret(value)
    raise fail(
        "secret",
        "must be a non-empty Pulumi secret: set it with `pulumi config set --secret --path '<path>'`",
    )


SecretValue = Annotated[Secret, BeforeValidator(_to_secret)]


# --- shared building blocks -------------------------------------------------------------


class Strict(BaseModel):
    """Every config object: camelCase keys, unknown keys rejected (typos must not pass)."""

    model_config = ConfigDict(
        extra="forbid", alias_generator=to_camel, populate_by_name=True, validate_assignment=False
    )


def check_name(value: str) -> str:
    problem = platform.name_problem(value)
    if problem:
        raise fail("name", problem)
    return value


Name = Annotated[str, Field(min_length=1)]


def check_region(value: str, provider: str) -> str:
    """The platform's region rule: pattern, length, and a known region of the provider."""
    problem = platform.region_problem(value)
    if problem:
        raise fail("region", problem)
    known = KNOWN_REGIONS.get(provider)
    if known is not None and value not in known:
        close = difflib.get_close_matches(value, sorted(known), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise fail(
            "region",
            "'{v}' is not a known {p} region (see components/regions.py){h}",
            v=value,
            p=provider,
            h=hint,
        )
    return value


def normalize_provider(value: Any) -> Any:
    """Accept any casing of a provider name and return the platform's spelling."""
    return platform.provider_spelling(value) or value


# --- storage ----------------------------------------------------------------------------


class StorageSpec(Strict):
    """The cloud resource's bucket. Without `bucket`, the program creates one."""

    provider: ClassVar[str] = "Generic"
    bucket: str | None = Field(
        None,
        description="an existing bucket to use instead of creating one (unset: the program creates it): "
        + "; ".join(f"{p} `{platform.BUCKET_FORMS[p]}`" for p in ("Azure", "AWS", "GCP"))
        + "; never a sub-path (`s3://b/prefix` is rejected)",
        json_schema_extra=shown_default("created"),
    )
    endpoint: str | None = Field(
        None,
        validate_default=True,
        description="a bare `https://<host>` origin: no path, no trailing slash (a trailing slash silently breaks "
        "log delivery); unset: sent empty. **Required** with an existing Azure bucket (its blob endpoint "
        "`https://<account>.blob.core.windows.net`); elsewhere only for S3-compatible storage at a custom endpoint. "
        "Only with `storage.bucket`: for a bucket the program creates it sets the endpoint itself, and an "
        "`endpoint` alone is an error",
    )
    region: str | None = Field(
        None,
        description=f"where the bucket lives; same rules as `region`. Azure: {PREVIEW_REGIONS_NOTE}",
        json_schema_extra=shown_default("`region`"),
    )
    retain_on_delete: bool = Field(
        True,
        description="keep the bucket when it is removed from the stack (it holds logs and workspace snapshots). "
        "On Azure the storage account lives in `cloud.resourceGroup`, so that group is then kept too",
    )

    @field_validator("bucket")
    @classmethod
    def _bucket(cls, value: str | None) -> str | None:
        if value is None:
            return value
        problem = platform.bucket_problem(value, cls.provider)
        if problem:
            raise fail("bucket", problem)
        return value

    @field_validator("endpoint")
    @classmethod
    def _endpoint(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            if cls.provider == "Azure" and info.data.get("bucket"):
                raise fail(
                    "endpoint",
                    "is required with an existing Azure bucket: the storage account's blob "
                    "endpoint, e.g. https://<account>.blob.core.windows.net (no trailing slash)",
                )
            return value
        problem = platform.endpoint_problem(value)
        if problem:
            raise fail("endpoint", problem)
        if "bucket" in info.data and info.data["bucket"] is None:
            # Silently ignored before: the program sets the endpoint of the bucket it creates.
            raise fail(
                "endpoint",
                "goes with an existing bucket (storage.bucket): the program creates this resource's "
                "bucket and sets its endpoint itself; remove endpoint, or set bucket too",
            )
        return value

    @field_validator("region")
    @classmethod
    def _region(cls, value: str | None) -> str | None:
        return None if value is None else check_region(value, cls.provider)


class AzureStorage(StorageSpec):
    provider: ClassVar[str] = "Azure"


class AwsStorage(StorageSpec):
    provider: ClassVar[str] = "AWS"


class GcpStorage(StorageSpec):
    provider: ClassVar[str] = "GCP"


class S3Credentials(Strict):
    """Keys for an S3-compatible bucket (MinIO, Ceph, ...): the operator chart writes them
    to a Secret mounted into the operator and the Ray pods (`credentialMount.aws`)."""

    access_key_id: SecretValue = Field(description="a Pulumi secret")
    secret_access_key: SecretValue = Field(description="a Pulumi secret")
    # `path` for most S3-compatible stores (MinIO): https://<endpoint>/<bucket>/<key>.
    addressing_style: Literal["path", "virtual"] | None = Field(
        None, description="`path` for most S3-compatible stores (MinIO); unset: the client's default"
    )
    signature_version: Literal["s3v4", "s3"] | None = Field(None, description="unset: the client's default")


class GenericStorage(StorageSpec):
    provider: ClassVar[str] = "Generic"
    bucket: str = Field(
        description=f"the existing bucket: any `{platform.BUCKET_FORMS['Generic']}`, never a sub-path "
        "(the program creates no bucket for a Generic cluster)"
    )
    credentials: S3Credentials | None = Field(
        None,
        description="keys for an `s3://` bucket (MinIO, Ceph), as Pulumi secrets; need `storage.region` set "
        "explicitly (the region the S3 client signs for; MinIO's default is `us-east-1`). See "
        "[Generic](#generic-resources-bring-your-own-cluster-componentsgenericpy)",
    )

    @model_validator(mode="after")
    def _credentials(self) -> GenericStorage:
        if self.credentials is None:
            return self
        if not self.bucket.startswith("s3://"):
            raise fail(
                "credentials",
                "credentials are for S3-compatible buckets (s3://...), not {b}; remove them or use an s3:// bucket",
                b=self.bucket.split("://", 1)[0] + "://",
            )
        if self.region is None:
            # The resource's region is a free-form routing label on Generic: the S3 client
            # would sign its requests for a region the bucket is not in.
            raise fail(
                "credentials",
                "set storage.region to the bucket's real region (the S3 client signs requests for it; "
                "MinIO's default is us-east-1)",
            )
        return self


# --- clusters -----------------------------------------------------------------------------


class GpuSpec(Strict):
    # One of the operator chart's accelerator names on the resource's provider
    # (defaults.GPU_NODE_SELECTORS); checked against the instance type by the cluster.
    type: str = Field(
        min_length=1,
        description="the operator chart's accelerator name on the provider ([GPU pools](#gpu-pools-instance-types-and-disks)): "
        + "; ".join(f"{p} `{' '.join(types)}`" for p, types in defaults.GPU_TYPES.items())
        + "; it must be what the instance type carries",
    )
    # Defaults to what the instance type carries (1 for GPUs attached on GCP N1).
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
    components/instance_types.py. The operator's instance type is sized from it."""

    cpu: int = Field(ge=1, le=1024, description="vCPUs")
    memory_gb: float = Field(gt=0, le=32768, description="memory in GiB")
    gpus: int = Field(0, ge=0, le=16, description="must equal `gpu.count`; more than 0 needs `gpu`")


class NodePoolSpec(Strict):
    """A worker pool. Tainted per platform.md 7 so that only Anyscale workloads land on it."""

    name: str = Field(pattern=POOL_NAME_PATTERN, description=POOL_NAME_RULE)
    instance_type: str = Field(
        pattern=INSTANCE_TYPE_PATTERN,
        description="a type listed in components/instance_types.py for the provider ("
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
        description="the node's size as sold, for an instance type not in components/instance_types.py; the "
        "operator's instance type is sized from it",
        json_schema_extra=shown_default("from the table"),
    )

    def node_size(self, provider: str) -> tuple[int, float, int]:
        """vCPUs, GiB and GPUs of the pool's nodes as sold: its `shape`, else the
        instance-type table (the spec rejects a pool with neither)."""
        gpus = (self.gpu.count or 0) if self.gpu is not None else 0
        if self.shape is not None:
            return self.shape.cpu, self.shape.memory_gb, gpus
        machine = instance_types.machine(provider, self.instance_type)
        assert machine is not None, self.instance_type
        return machine.vcpu, machine.memory_gib, gpus

    # Root disk; the cluster fills in the provider's default (defaults.DISK_SIZE_GB).
    disk_size_gb: int | None = Field(
        None,
        ge=30,
        le=16384,
        description=f"root disk in GiB: EKS `disk_size`, GKE `{defaults.GKE_DISK_TYPE}` `disk_size_gb`, AKS `osDiskSizeGB` "
        f"(at most {AKS_MAX_DISK_GB} on AKS)",
        json_schema_extra=shown_default(
            per_provider(defaults.DISK_SIZE_GB)
            + "; "
            + "; ".join(f"{p}: the platform's" for p, d in defaults.DISK_SIZE_GB.items() if d is None)
        ),
    )

    @model_validator(mode="after")
    def _bounds(self) -> NodePoolSpec:
        if self.min_count > self.max_count:
            raise fail("pool", "minCount ({lo}) must not exceed maxCount ({hi})", lo=self.min_count, hi=self.max_count)
        return self


class AksNodePool(NodePoolSpec):
    name: str = Field(description=f"`{AKS_POOL_RE.pattern}`: {NAME_RULES['aks_pool'].form}; {POOL_NAME_UNIQUE}")

    @field_validator("disk_size_gb")
    @classmethod
    def _aks_disk(cls, value: int | None) -> int | None:
        # The AKS API's osDiskSizeGB: 0-2048 (containerservice AgentPool); EKS/GKE go higher.
        if value is not None and value > AKS_MAX_DISK_GB:
            raise fail(
                "disk", "{v} GiB is more than AKS allows for a node's OS disk ({max})", v=value, max=AKS_MAX_DISK_GB
            )
        return value

    @field_validator("name")
    @classmethod
    def _aks_name(cls, value: str) -> str:
        if not AKS_POOL_RE.fullmatch(value):
            raise fail(
                "pool",
                "'{v}' is not a valid AKS node pool name: at most 12 characters, lowercase "
                "letters and digits, starting with a letter",
                v=value,
            )
        return value


class SystemPoolSpec(Strict):
    instance_type: str = Field(pattern=INSTANCE_TYPE_PATTERN)
    min_count: int = Field(1, ge=1, le=100, description="at most `maxCount`")
    max_count: int = Field(3, ge=1, le=100)

    @model_validator(mode="after")
    def _bounds(self) -> SystemPoolSpec:
        if self.min_count > self.max_count:
            raise fail("pool", "minCount ({lo}) must not exceed maxCount ({hi})", lo=self.min_count, hi=self.max_count)
        return self


PoolT = TypeVar("PoolT", bound="NodePoolSpec")


def default_pools(provider: str, pool_cls: type[PoolT]) -> list[PoolT]:
    cpu, disk = defaults.CPU_INSTANCE_TYPE[provider], defaults.DISK_SIZE_GB[provider]
    return [
        pool_cls(name="cpu", instance_type=cpu, min_count=0, max_count=10, disk_size_gb=disk),
        pool_cls(name="cpuspot", instance_type=cpu, min_count=0, max_count=10, capacity_type="SPOT", disk_size_gb=disk),
    ]


class ClusterSpec(Strict):
    provider: ClassVar[str]
    kubernetes_version: str = Field(
        defaults.KUBERNETES_VERSION,
        pattern=r"^1\.[0-9]{2}(\.[0-9]+)?$",
        description="AWS: a minor with a pinned Cluster Autoscaler release ("
        + ", ".join(defaults.CLUSTER_AUTOSCALER_RELEASES)
        + ", components/defaults.py)",
    )

    @model_validator(mode="before")
    @classmethod
    def _system_pool_instance_type(cls, data: Any) -> Any:
        """`systemPool: {maxCount: 5}` keeps the provider's documented instance type."""
        if isinstance(data, dict):
            system = data.get("systemPool")
            if isinstance(system, dict) and "instanceType" not in system and "instance_type" not in system:
                data = {**data, "systemPool": {**system, "instanceType": defaults.SYSTEM_INSTANCE_TYPE[cls.provider]}}
        return data

    @field_validator("node_pools", check_fields=False)
    @classmethod
    def _pools(cls, pools: list[NodePoolSpec]) -> list[NodePoolSpec]:
        names = [pool.name for pool in pools]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise fail("pool", "node pool names must be unique (repeated: {d})", d=", ".join(duplicates))
        if "system" in names:
            raise fail("pool", "'system' is the system pool's name; give the worker pool another name")
        problems = [
            InitErrorDetails(type=PydanticCustomError("pool", message), loc=(index, *where), input=None)
            for index, pool in enumerate(pools)
            for where, message in check_machine(cls.provider, pool)
        ]
        if problems:
            raise ValidationError.from_exception_data(cls.__name__, problems)
        for pool in pools:
            if pool.disk_size_gb is None:
                pool.disk_size_gb = defaults.DISK_SIZE_GB[cls.provider]
        return pools


def check_machine(provider: str, pool: NodePoolSpec) -> list[tuple[tuple[str, ...], str]]:
    """The pool's GPU against what its instance type carries; fills in `gpu.count`.
    Returns (path inside the pool, message) per problem."""
    gpu, offered = pool.gpu, defaults.GPU_TYPES[provider]
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
        return _check_shape(pool, pool.shape)
    if machine is None:
        known = sorted(instance_types.INSTANCE_TYPES[provider])
        close = difflib.get_close_matches(pool.instance_type, known, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        return [
            (
                ("instanceType",),
                f"'{pool.instance_type}' is not a known {provider} instance type (components/instance_types.py); {hint}"
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
        gpu.count = machine.gpus
    elif gpu is not None and gpu.type in machine.attachable:
        allowed = machine.attachable[gpu.type]
        gpu.count = gpu.count or allowed[0]
        if gpu.count not in allowed:
            return [
                (
                    ("gpu", "count"),
                    f"{it} takes {', '.join(map(str, allowed))} attached {gpu.type} GPUs, not {gpu.count}",
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


def _check_shape(pool: NodePoolSpec, shape: ShapeSpec) -> list[tuple[tuple[str, ...], str]]:
    gpu = pool.gpu
    if gpu is None:
        return [(("gpu",), f"the shape has {shape.gpus} GPUs: add `gpu: {{type: ...}}`")] if shape.gpus else []
    if not shape.gpus:
        return [(("shape", "gpus"), "is 0 but the pool has a `gpu`: give the node's GPU count")]
    gpu.count = gpu.count or shape.gpus
    if shape.gpus != gpu.count:
        return [(("shape", "gpus"), f"is {shape.gpus} but the pool's gpu.count is {gpu.count}; they must agree")]
    return []


# --- AKS access and networks (issues #14, #18) ------------------------------------------

GUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# The ARM ID of a subnet; ARM treats the fixed segments' case as insignificant.
AKS_SUBNET_ID_RE = re.compile(
    r"/subscriptions/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"/resourceGroups/[-\w._()]{0,89}[-\w_()]"
    r"/providers/Microsoft\.Network/virtualNetworks/[A-Za-z0-9][-\w.]{0,62}[\w]"
    r"/subnets/[A-Za-z0-9]([-\w.]{0,78}[\w])?",
    re.IGNORECASE,
)
SUBNET_ID_FORM = "/subscriptions/<subscription GUID>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>"
# kubelogin login modes that need no person at a browser (platform.md 9.4).
KUBELOGIN_MODES = ("azurecli", "workloadidentity", "spn")
# What each data plane can enforce (AKS: Cilium policies need the Cilium data plane, and
# the Cilium data plane enforces only its own).
NETWORK_POLICIES = {"azure": ("azure", "calico"), "cilium": ("cilium",)}
# The VNet and node subnet the program creates when no existing subnet is given.
AKS_ADDRESS_SPACE = "10.224.0.0/12"
AKS_NODE_SUBNET = "10.224.0.0/16"


def ipv4_network(value: str, example: str) -> str:
    try:
        ipaddress.IPv4Network(value, strict=True)
    except ValueError as error:
        raise fail("cidr", "'{v}' is not an IPv4 network ({e}); e.g. {x}", v=value, e=str(error), x=example) from None
    return value


class ApiServerSpec(Strict):
    """Who can reach the cluster's API server."""

    # Private: the API server has a private IP in the node network; whatever runs
    # `pulumi up` (and kubectl) must then be inside or peered to that network.
    private: bool = Field(
        False,
        description="`true`: the API server has a private address only; `pulumi up` must run inside or peered to "
        "the network",
    )
    # Public API server: only these source ranges (the program's own runner included).
    authorized_ip_ranges: list[str] = Field(
        default_factory=list,
        max_length=200,
        description="IPv4 CIDRs allowed to reach the public API server (include where `pulumi up` runs); not with "
        "`private: true`",
    )

    @field_validator("authorized_ip_ranges")
    @classmethod
    def _ranges(cls, ranges: list[str]) -> list[str]:
        for value in ranges:
            ipv4_network(value, "203.0.113.0/24 or 203.0.113.7/32")
        return ranges

    @model_validator(mode="after")
    def _private_or_ranges(self) -> ApiServerSpec:
        if self.private and self.authorized_ip_ranges:
            raise fail(
                "apiServer",
                "authorizedIpRanges apply to a public API server only (AKS rejects them on a private cluster): "
                "remove them, or set private: false",
            )
        return self


class AksNetworkSpec(Strict):
    """The nodes' network: a VNet the program creates, or a subnet that exists already.
    Pods use Azure CNI overlay addresses (podCidr), never the subnet's."""

    address_space: str | None = Field(
        None,
        description="the VNet the program creates (IPv4 CIDR); not with `existingSubnetId`",
        json_schema_extra=shown_default(f"`{AKS_ADDRESS_SPACE}`"),
    )
    node_subnet: str | None = Field(
        None,
        description="the node subnet, inside `addressSpace`",
        json_schema_extra=shown_default(f"`{AKS_NODE_SUBNET}`"),
    )
    existing_subnet_id: str | None = Field(
        None, description=f"an existing subnet's ARM ID, `{SUBNET_ID_FORM}`; not with `addressSpace`/`nodeSubnet`"
    )
    pod_cidr: str = Field(
        "10.244.0.0/16",
        description="the pods' overlay addresses; pod, service and VNet ranges must not overlap",
    )
    service_cidr: str = Field("10.0.0.0/16", description="the services' addresses")
    dns_service_ip: str = Field(
        "10.0.0.10", description="inside `serviceCidr`, not its network, first or broadcast address"
    )
    dataplane: Literal["azure", "cilium"] = "azure"
    network_policy: str | None = Field(
        None,
        validate_default=True,
        description="the network policy engine, one the data plane runs: "
        + "; ".join(f"{d}: {one_of(engines)}" for d, engines in NETWORK_POLICIES.items()),
        json_schema_extra=shown_default(", ".join(f"`{e[0]}` on {d}" for d, e in NETWORK_POLICIES.items())),
    )

    @field_validator("address_space", "node_subnet", "pod_cidr", "service_cidr")
    @classmethod
    def _cidr(cls, value: str | None) -> str | None:
        return None if value is None else ipv4_network(value, "10.224.0.0/16")

    @field_validator("existing_subnet_id")
    @classmethod
    def _subnet_id(cls, value: str | None) -> str | None:
        if value is not None and not AKS_SUBNET_ID_RE.fullmatch(value):
            raise fail("subnet", "'{v}' is not a subnet's ARM ID: use the form {f}", v=value, f=SUBNET_ID_FORM)
        return value

    @field_validator("dns_service_ip")
    @classmethod
    def _dns_ip(cls, value: str) -> str:
        try:
            ipaddress.IPv4Address(value)
        except ValueError:
            raise fail("ip", "'{v}' is not an IPv4 address; e.g. 10.0.0.10", v=value) from None
        return value

    @field_validator("network_policy")
    @classmethod
    def _policy(cls, value: str | None, info: ValidationInfo) -> str | None:
        dataplane = info.data.get("dataplane")
        if dataplane is None:
            return value  # reported on dataplane
        supported = NETWORK_POLICIES[dataplane]
        if value is None:
            return supported[0]
        if value not in supported:
            raise fail(
                "networkPolicy",
                "'{v}' is not a network policy engine the {d} data plane runs: use {s}",
                v=value,
                d=dataplane,
                s=" or ".join(supported) + (" (or dataplane: cilium for cilium)" if dataplane == "azure" else ""),
            )
        return value

    @model_validator(mode="after")
    def _ranges(self) -> AksNetworkSpec:
        existing = self.existing_subnet_id is not None
        if existing and (self.address_space or self.node_subnet):
            raise fail(
                "network",
                "give either existingSubnetId or addressSpace/nodeSubnet (a VNet the program creates), not both",
            )
        if not existing:
            self.address_space = self.address_space or AKS_ADDRESS_SPACE
            self.node_subnet = self.node_subnet or AKS_NODE_SUBNET
        ranges: list[tuple[str, str | None]] = [("podCidr", self.pod_cidr), ("serviceCidr", self.service_cidr)]
        if not existing:
            vnet, subnet = ipaddress.IPv4Network(self.address_space), ipaddress.IPv4Network(self.node_subnet)
            if not subnet.subnet_of(vnet):
                raise fail(
                    "network", "nodeSubnet {s} is not inside addressSpace {v}", s=self.node_subnet, v=self.address_space
                )
            ranges.append(("addressSpace", self.address_space))
        for i, (name, value) in enumerate(ranges):
            for other, other_value in ranges[i + 1 :]:
                if ipaddress.IPv4Network(value).overlaps(ipaddress.IPv4Network(other_value)):
                    raise fail(
                        "network",
                        "{a} {x} overlaps {b} {y}: pod, service and node (VNet) ranges must not overlap; pick disjoint ranges",
                        a=name,
                        x=value,
                        b=other,
                        y=other_value,
                    )
        service, dns = ipaddress.IPv4Network(self.service_cidr), ipaddress.IPv4Address(self.dns_service_ip)
        if dns not in service:
            raise fail(
                "network", "dnsServiceIp {d} is not inside serviceCidr {s}", d=self.dns_service_ip, s=self.service_cidr
            )
        if dns in (service.network_address, service.network_address + 1, service.broadcast_address):
            raise fail(
                "network",
                "dnsServiceIp {d} is a reserved address of serviceCidr {s} (its network, first or broadcast address; "
                "the first goes to the `kubernetes` service): use e.g. {e}",
                d=self.dns_service_ip,
                s=self.service_cidr,
                e=str(service.network_address + 10),
            )
        return self

    @property
    def created(self) -> bool:
        return self.existing_subnet_id is None


class AksClusterSpec(ClusterSpec):
    provider: ClassVar[str] = "Azure"
    system_pool: SystemPoolSpec = Field(
        default_factory=lambda: SystemPoolSpec(instance_type=defaults.SYSTEM_INSTANCE_TYPE["Azure"]),
        description=SYSTEM_POOL_RULE,
    )
    node_pools: list[AksNodePool] = Field(
        default_factory=lambda: default_pools("Azure", AksNodePool), description=NODE_POOLS_RULE
    )
    # Local accounts give a static admin credential; off means Entra ID only (managed Entra
    # integration with Azure RBAC, and admin groups: platform.md 9.4).
    disable_local_accounts: bool = Field(
        False,
        description="`true`: Entra ID only (managed Entra integration with Azure RBAC); requires "
        "`adminGroupObjectIds`; the kubeconfig is a non-interactive kubelogin exec config",
    )
    # Entra ID groups whose members are cluster admins (object IDs); required without local accounts.
    admin_group_object_ids: list[str] = Field(
        default_factory=list,
        max_length=10,
        description="object IDs (GUIDs) of the Entra ID groups whose members are cluster admins; required with "
        "`disableLocalAccounts: true`; with local accounts on, enables Entra ID for people while the program "
        "keeps the admin credential",
    )
    # How the Entra ID kubeconfig's kubelogin gets a token: never interactively (CI has no browser).
    kubelogin_mode: str = Field(
        "azurecli",
        description=one_of(KUBELOGIN_MODES)
        + " (never `devicecode`/`interactive`: they wait for a browser); only with `disableLocalAccounts: true`",
    )
    sku_tier: Literal["Free", "Standard", "Premium"] = Field("Standard", description="the AKS pricing tier")
    # The nodes' network; without it AKS manages one (Azure CNI overlay, no network policy).
    network: AksNetworkSpec | None = Field(
        None,
        description="the nodes' network, see [AKS networks](#aks-networks-clusternetwork): a VNet the program "
        "creates (`addressSpace`, `nodeSubnet`) or `existingSubnetId`; unset: AKS manages one (Azure CNI overlay, "
        "no network policy)",
        json_schema_extra=shown_default("none (AKS-managed VNet)"),
    )
    api_server: ApiServerSpec | None = Field(
        None, description="who can reach the API server", json_schema_extra=shown_default("public")
    )

    @field_validator("admin_group_object_ids")
    @classmethod
    def _admin_groups(cls, groups: list[str]) -> list[str]:
        bad = [g for g in groups if not GUID_RE.fullmatch(g)]
        if bad:
            raise fail(
                "guid",
                "must be Entra ID group object IDs (GUIDs like 00000000-0000-0000-0000-000000000000), not {b}",
                b=", ".join(repr(g) for g in bad),
            )
        return groups

    @model_validator(mode="after")
    def _entra_admins(self) -> AksClusterSpec:
        if self.disable_local_accounts and not self.admin_group_object_ids:
            raise fail(
                "entra",
                "adminGroupObjectIds is required with disableLocalAccounts: true: without local accounts only Entra ID "
                "admins reach the cluster; list the object IDs of the Entra ID groups to make cluster admins "
                "(`az ad group show --group <name> --query id`), or set disableLocalAccounts: false",
            )
        return self

    @field_validator("kubelogin_mode")
    @classmethod
    def _kubelogin_mode(cls, value: str, info: ValidationInfo) -> str:
        if value not in KUBELOGIN_MODES:
            why = (
                " waits for a person at a browser, which hangs a CI `pulumi up`;"
                if value in ("devicecode", "interactive")
                else ""
            )
            raise fail(
                "kubelogin",
                "'{v}'{w} use one of {m}",
                v=value,
                w=why or " is not a non-interactive kubelogin login mode:",
                m=", ".join(KUBELOGIN_MODES),
            )
        if not info.data.get("disable_local_accounts"):
            raise fail(
                "kubelogin",
                "has no effect while local accounts are enabled (the kubeconfig is the cluster's admin credential): "
                "remove it, or set disableLocalAccounts: true",
            )
        return value


# --- EKS: access, API endpoint, network ---------------------------------------------------

# IAM roles (a path is allowed: arn:aws:iam::111122223333:role/dev/apps/ci) and users, in
# the `aws` partition (every region in components/regions.py is in it). The account may
# be another than the cluster's: EKS accepts that for STANDARD access entries.
IAM_PRINCIPAL_RE = re.compile(r"^arn:aws:iam::[0-9]{12}:(role|user)/([\w+=,.@-]+/)*[\w+=,.@-]{1,128}$")
STS_SESSION_RE = re.compile(r"^arn:aws:sts::[0-9]{12}:assumed-role/([\w+=,.@-]+)/")
NAMESPACE_RE = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
# EC2 IDs: 8 hex digits (older resources) or 17 (current).
VPC_ID_RE = re.compile(r"^vpc-([0-9a-f]{8}|[0-9a-f]{17})$")
EKS_SUBNET_ID_RE = re.compile(r"^subnet-([0-9a-f]{8}|[0-9a-f]{17})$")


class AccessEntrySpec(Strict):
    """One IAM principal (a person's role, the CI role) with one EKS access policy."""

    principal_arn: str = Field(
        description=f"an IAM role (with its path) or user ARN, `{IAM_PRINCIPAL_RE.pattern}`; not an STS "
        "assumed-role session ARN; one entry per principal"
    )
    # The EKS access policies named like the Kubernetes user-facing roles they mirror.
    policy: Literal["cluster-admin", "admin", "edit", "view"] = Field(description="the EKS access policy of that name")
    # Absent: the whole cluster; else only these namespaces.
    namespaces: list[str] | None = Field(
        None,
        min_length=1,
        description=f"Kubernetes namespaces (`{NAMESPACE_RE.pattern}`), each once: the policy applies there only",
        json_schema_extra=shown_default("the whole cluster"),
    )

    @field_validator("principal_arn")
    @classmethod
    def _principal(cls, value: str) -> str:
        session = STS_SESSION_RE.match(value)
        if session:
            raise fail(
                "arn",
                "'{v}' is an STS session, which EKS does not accept in an access entry (it is a new "
                "principal each session): use the role's IAM ARN, arn:aws:iam::<account>:role/{r} "
                "(with its path, if any)",
                v=value,
                r=session.group(1),
            )
        if not IAM_PRINCIPAL_RE.fullmatch(value):
            raise fail(
                "arn",
                "'{v}' is not an IAM role or user ARN: use arn:aws:iam::<12-digit account>:role/<name> "
                "(a path is allowed) or arn:aws:iam::<12-digit account>:user/<name>",
                v=value,
            )
        return value

    @field_validator("namespaces")
    @classmethod
    def _namespaces(cls, value: list[str] | None) -> list[str] | None:
        for namespace in value or []:
            if not NAMESPACE_RE.fullmatch(namespace):
                raise fail(
                    "namespace",
                    "'{v}' is not a Kubernetes namespace name: lowercase letters, digits and '-', at most 63",
                    v=namespace,
                )
        repeated = sorted({n for n in value or [] if (value or []).count(n) > 1})
        if repeated:
            raise fail("namespace", "namespaces are listed twice: {d}", d=", ".join(repeated))
        return value


class EksSubnetIds(Strict):
    """Subnets of an existing VPC: nodes (and the API server's network interfaces) in
    `private`, internet-facing load balancers in `public`."""

    public: list[str] = Field(
        default_factory=list,
        description=f"subnet IDs (`{EKS_SUBNET_ID_RE.pattern}`) for internet-facing load balancers",
    )
    private: list[str] = Field(
        description=f"subnet IDs (`{EKS_SUBNET_ID_RE.pattern}`) for the nodes and the API server: at least two, "
        "in two availability zones; no ID listed twice (or in both lists)"
    )

    @field_validator("public", "private")
    @classmethod
    def _ids(cls, value: list[str]) -> list[str]:
        wrong = [v for v in value if not EKS_SUBNET_ID_RE.fullmatch(v)]
        if wrong:
            raise fail(
                "subnet",
                "{w} not a subnet ID: subnet- and 8 or 17 hex digits, e.g. subnet-0a1b2c3d4e5f67890",
                w=", ".join(repr(v) for v in wrong) + (" is" if len(wrong) == 1 else " are"),
            )
        return value

    @field_validator("private")
    @classmethod
    def _two_zones(cls, value: list[str]) -> list[str]:
        # The zones of a subnet are not known offline: two distinct IDs is what we can
        # check; EKS itself rejects subnets that are not in two zones.
        if len(set(value)) < 2:
            raise fail(
                "subnet",
                "needs at least two private subnets, in different availability zones: EKS requires "
                "two zones for the cluster and the node groups",
            )
        return value

    @model_validator(mode="after")
    def _distinct(self) -> EksSubnetIds:
        ids = self.private + self.public
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise fail("subnet", "subnets are listed twice (or as both public and private): {d}", d=", ".join(repeated))
        return self


class EksClusterSpec(ClusterSpec):
    provider: ClassVar[str] = "AWS"
    system_pool: SystemPoolSpec = Field(
        default_factory=lambda: SystemPoolSpec(instance_type=defaults.SYSTEM_INSTANCE_TYPE["AWS"]),
        description=SYSTEM_POOL_RULE,
    )
    node_pools: list[NodePoolSpec] = Field(
        default_factory=lambda: default_pools("AWS", NodePoolSpec), description=NODE_POOLS_RULE
    )
    # The VPC the program creates...
    vpc_cidr: str = Field(
        "10.0.0.0/16",
        pattern=r"^([0-9]{1,3}\.){3}[0-9]{1,3}/(1[6-9]|2[0-4])$",
        description="the IPv4 network (/16 to /24) of the VPC the program creates; not with `vpcId`",
    )
    availability_zones: int = Field(2, ge=2, le=4, description="zones of the VPC the program creates; not with `vpcId`")
    # ...or an existing one (both keys, or neither).
    vpc_id: str | None = Field(
        None,
        description=f"an existing VPC, `{VPC_ID_RE.pattern}`; requires `subnetIds` ([EKS networking](#eks-networking))",
        json_schema_extra=shown_default("none (a VPC is created)"),
    )
    subnet_ids: EksSubnetIds | None = Field(None, description="the existing VPC's subnets; requires `vpcId`")
    # Who besides the creating identity may use the cluster.
    access_entries: list[AccessEntrySpec] = Field(
        default_factory=list, description="who besides the identity that creates the cluster may use it"
    )
    # The API server's endpoints. EKS's default for the public one is 0.0.0.0/0.
    endpoint_public_access: bool = Field(
        True, description="the API server's public endpoint; `false` needs `pulumi up` to run inside the VPC"
    )
    endpoint_private_access: bool = Field(
        True,
        description="the private endpoint (nodes reach the API inside the VPC); at least one of the two must be on",
    )
    endpoint_public_access_cidrs: list[str] | None = Field(
        None,
        min_length=1,
        description="IPv4 networks allowed to reach the public endpoint; requires `endpointPublicAccess` and "
        "`endpointPrivateAccess`; include the addresses `pulumi up` and `kubectl` run from",
        json_schema_extra=shown_default("none (EKS: `0.0.0.0/0`)"),
    )

    @field_validator("kubernetes_version")
    @classmethod
    def _autoscaler_release(cls, value: str) -> str:
        minor = ".".join(value.split(".")[:2])
        if minor not in defaults.CLUSTER_AUTOSCALER_RELEASES:
            known = ", ".join(defaults.CLUSTER_AUTOSCALER_RELEASES)
            raise fail(
                "version",
                "Kubernetes {m} has no Cluster Autoscaler release pinned for EKS (its minor must match the "
                "cluster's; components/defaults.py CLUSTER_AUTOSCALER_RELEASES); use one of {k}",
                m=minor,
                k=known,
            )
        return value

    @field_validator("vpc_cidr")
    @classmethod
    def _network(cls, value: str) -> str:
        # The pattern admits 999.1.2.3/16 and 10.0.0.1/16; only a real parse says it is a network.
        try:
            ipaddress.IPv4Network(value, strict=True)
        except ValueError as error:
            raise fail("cidr", "'{v}' is not an IPv4 network ({e}); e.g. 10.0.0.0/16", v=value, e=str(error)) from None
        return value

    @field_validator("vpc_id")
    @classmethod
    def _vpc_id(cls, value: str | None) -> str | None:
        if value is not None and not VPC_ID_RE.fullmatch(value):
            raise fail("vpc", "'{v}' is not a VPC ID: vpc- and 8 or 17 hex digits, e.g. vpc-0a1b2c3d4e5f67890", v=value)
        return value

    @field_validator("access_entries")
    @classmethod
    def _one_entry_per_principal(cls, entries: list[AccessEntrySpec]) -> list[AccessEntrySpec]:
        arns = [e.principal_arn for e in entries]
        repeated = sorted({a for a in arns if arns.count(a) > 1})
        if repeated:
            raise fail(
                "arn",
                "{d} is listed twice: EKS takes one access entry per principal; give it one policy here",
                d=", ".join(repeated),
            )
        return entries

    @field_validator("endpoint_public_access_cidrs")
    @classmethod
    def _cidrs(cls, value: list[str] | None) -> list[str] | None:
        for cidr in value or []:
            try:
                ipaddress.IPv4Network(cidr, strict=True)
            except ValueError as error:
                raise fail(
                    "cidr", "'{v}' is not an IPv4 network ({e}); e.g. 203.0.113.0/24", v=cidr, e=str(error)
                ) from None
        return value

    @model_validator(mode="after")
    def _network_choice(self) -> EksClusterSpec:
        if (self.vpc_id is None) != (self.subnet_ids is None):
            raise fail("vpc", "vpcId and subnetIds go together: give both to use an existing VPC, or neither")
        created = {"vpcCidr": "vpc_cidr", "availabilityZones": "availability_zones"}
        if self.vpc_id is not None:
            given = [key for key, field in created.items() if field in self.model_fields_set]
            if given:
                raise fail(
                    "vpc",
                    "{g} describe{s} the VPC the program creates: remove {it} when using vpcId and subnetIds",
                    g=" and ".join(given),
                    s="" if len(given) > 1 else "s",
                    it="them" if len(given) > 1 else "it",
                )
        return self

    @model_validator(mode="after")
    def _endpoints(self) -> EksClusterSpec:
        if not self.endpoint_public_access and not self.endpoint_private_access:
            raise fail(
                "endpoint",
                "endpointPublicAccess and endpointPrivateAccess are both false: the API server would be unreachable",
            )
        if self.endpoint_public_access_cidrs is not None and not self.endpoint_public_access:
            raise fail(
                "endpoint", "endpointPublicAccessCidrs is set but endpointPublicAccess is false: remove one of them"
            )
        if self.endpoint_public_access_cidrs is not None and not self.endpoint_private_access:
            raise fail(
                "endpoint",
                "endpointPublicAccessCidrs needs endpointPrivateAccess: true, or the nodes, which would reach the "
                "API server from their egress address (the NAT gateway's, not known before deploy), cannot join",
            )
        return self

    @property
    def minor(self) -> str:
        """What EKS takes as the version: major.minor."""
        return ".".join(self.kubernetes_version.split(".")[:2])


class GkeNodePool(NodePoolSpec):
    # The pool's zones (GKE nodeLocations), all in the resource's region; by default the
    # pool spans the cluster's zones. GPU pools: only zones that offer the GPU type
    # (README: GKE: GPU zones), or the pool fails to scale there.
    name: str = Field(pattern=POOL_NAME_PATTERN, description=f"{NAME_RULES['gke_pool'].form}; {POOL_NAME_UNIQUE}")
    zones: list[str] | None = Field(
        None,
        min_length=1,
        description="the pool's zones (nodeLocations), each `<region>-<letter>`, each once. GPU pools: zones that "
        "offer the GPU",
        json_schema_extra=shown_default("the cluster's"),
    )

    @field_validator("zones")
    @classmethod
    def _unique_zones(cls, zones: list[str] | None) -> list[str] | None:
        if zones is not None and len(set(zones)) != len(zones):
            raise fail("zone", "zones must be unique")
        return zones


# GKE address ranges when the program creates the network: RFC 1918, apart from the EKS
# default VPC (10.0.0.0/16) and the AKS overlay defaults (10.244.0.0/16, 10.0.0.0/16),
# so that the defaults can be peered. Pods /14: GKE's default for 110 pods per node.
GKE_NODE_CIDR = "10.10.0.0/20"
GKE_POD_CIDR = "10.12.0.0/14"
GKE_SERVICE_CIDR = "10.16.0.0/20"
GKE_NETWORK_NAME = r"^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$"
GKE_RANGE_RULE = (
    "an IPv4 network not overlapping the other two: a range of the network the program creates; with an "
    "existing `network` optional, only for the `peeredWith` check"
)
# An existing network or subnet by name or by path (projects/<p>/global/networks/<n>).
GKE_NETWORK_REF = r"^(projects/[a-z][a-z0-9-]{4,28}[a-z0-9]/(global|regions/[a-z0-9-]+)/(networks|subnetworks)/)?[a-z]([-a-z0-9]{0,61}[a-z0-9])?$"


def check_cidr(value: str | None) -> str | None:
    if value is None:
        return value
    try:
        ipaddress.IPv4Network(value, strict=True)
    except ValueError as error:
        raise fail("cidr", "'{v}' is not an IPv4 network ({e}); e.g. 10.0.0.0/16", v=value, e=str(error)) from None
    return value


class GkeClusterSpec(ClusterSpec):
    """Without `network`, the program creates a VPC, a subnet (nodes) with secondary ranges
    (pods, services) and a firewall rule; with it, the cluster joins that subnet."""

    provider: ClassVar[str] = "GCP"
    system_pool: SystemPoolSpec = Field(
        default_factory=lambda: SystemPoolSpec(instance_type=defaults.SYSTEM_INSTANCE_TYPE["GCP"]),
        description=SYSTEM_POOL_RULE,
    )
    node_pools: list[GkeNodePool] = Field(
        default_factory=lambda: default_pools("GCP", GkeNodePool), description=NODE_POOLS_RULE
    )
    release_channel: Literal["RAPID", "REGULAR", "STABLE"] = "REGULAR"
    network: str | None = Field(
        None,
        pattern=GKE_NETWORK_REF,
        description="an existing VPC (name or `projects/<p>/global/networks/<n>`); then `subnetwork`, "
        "`podsRangeName` and `servicesRangeName` are required. Unset: the program creates the VPC, subnet and "
        "firewall rule ([GKE networking](#gcp-resources-gke-componentsgcp))",
        json_schema_extra=shown_default("created"),
    )
    subnetwork: str | None = Field(
        None, pattern=GKE_NETWORK_REF, description="the existing subnet in the resource's region; only with `network`"
    )
    pods_range_name: str | None = Field(
        None, pattern=GKE_NETWORK_NAME, description="its secondary range for pods; only with `network`"
    )
    services_range_name: str | None = Field(
        None, pattern=GKE_NETWORK_NAME, description="its secondary range for services; only with `network`"
    )
    # The ranges of a created network; with an existing one, optional: only for the
    # peering check (`peeredWith`).
    node_cidr: str | None = Field(None, description=GKE_RANGE_RULE)
    pod_cidr: str | None = Field(None, description=GKE_RANGE_RULE)
    service_cidr: str | None = Field(None, description=GKE_RANGE_RULE)

    @field_validator("node_cidr", "pod_cidr", "service_cidr")
    @classmethod
    def _cidr(cls, value: str | None) -> str | None:
        return check_cidr(value)

    @model_validator(mode="after")
    def _network(self) -> GkeClusterSpec:
        existing = {
            "subnetwork": self.subnetwork,
            "podsRangeName": self.pods_range_name,
            "servicesRangeName": self.services_range_name,
        }
        if self.network is None:
            given = [k for k, v in existing.items() if v is not None]
            if given:
                raise fail(
                    "network", "{k} only go with an existing `network`: set it too, or remove them", k=", ".join(given)
                )
            self.node_cidr = self.node_cidr or GKE_NODE_CIDR
            self.pod_cidr = self.pod_cidr or GKE_POD_CIDR
            self.service_cidr = self.service_cidr or GKE_SERVICE_CIDR
        else:
            missing = [k for k, v in existing.items() if v is None]
            if missing:
                raise fail(
                    "network",
                    "an existing network needs {m}: the subnet in the resource's region and the names of its "
                    "secondary ranges for pods and services (a VPC-native cluster)",
                    m=", ".join(missing),
                )
        ranges = {
            k: v
            for k, v in (("nodeCidr", self.node_cidr), ("podCidr", self.pod_cidr), ("serviceCidr", self.service_cidr))
            if v
        }
        for (a, x), (b, y) in itertools.combinations(ranges.items(), 2):
            if ipaddress.ip_network(x).overlaps(ipaddress.ip_network(y)):
                raise fail(
                    "cidr",
                    "{a} {x} overlaps {b} {y}: nodes, pods and services need distinct ranges",
                    a=a,
                    x=x,
                    b=b,
                    y=y,
                )
        return self


# --- in-cluster add-ons ------------------------------------------------------------------


# One exact release: a range (`>=1.0`, `~1.2`, `*`) or `latest` would change what runs
# without a change in review.
# Parts of up to 9 digits: a longer one is no real release, and past 4300 digits int() itself
# fails (release_of), which would reach the user as an interpreter message.
EXACT_VERSION = r"^v?[0-9]{1,9}\.[0-9]{1,9}\.[0-9]{1,9}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"


class ChartSpec(Strict):
    version: str = Field(pattern=EXACT_VERSION, description="one exact chart version (no range, `*` or `latest`)")


def release_of(version: str) -> tuple[int, int, int]:
    """(major, minor, patch) of an exact version; a pre-release counts as its release."""
    major, minor, patch = re.split(r"[-+]", version.lstrip("v"), maxsplit=1)[0].split(".")
    return int(major), int(minor), int(patch)


# The first KubeRay release with each option (its batch scheduler plugin, the
# `authOptions` fields of the RayCluster CRD, the feature gate), from the kuberay tags.
KUBERAY_SINCE: dict[str, tuple[tuple[int, int, int], str]] = {
    "yunikorn": ((1, 2, 2), "the YuniKorn batch scheduler"),
    "scheduler-plugins": ((1, 4, 0), "the scheduler-plugins batch scheduler"),
    "kai": ((1, 5, 0), "the KAI batch scheduler"),
    "token": ((1, 5, 1), "authOptions.mode: token"),
    "kubernetes-rbac": ((1, 6, 0), "authOptions.enableK8sTokenAuth"),
}
# Chart versions whose `featureGates` list we know: setting one gate replaces the whole
# list, so networkPolicy is wired only where we can repeat the chart's defaults.
KUBERAY_NETWORK_POLICY_CHARTS = ("1.7.0",)
# The Kubernetes minor of the pinned scheduler-plugins chart (components/kuberay/charts.py).
SCHEDULER_PLUGINS_KUBERNETES = "1.33"


def kuberay_since(*options: str) -> str:  # pragma: no mutate block
    """`option` (KubeRay >= x.y.z), ... for the reference."""
    return ", ".join(f"`{o}` needs KubeRay >= {'.'.join(map(str, KUBERAY_SINCE[o][0]))}" for o in options)


def _kuberay_since(option: str, version: str) -> None:
    first, what = KUBERAY_SINCE[option]
    if release_of(version) < first:
        raise fail(
            "kuberay",
            "{w} needs KubeRay {f} or later (addons.kuberay.version is {v}); raise addons.kuberay.version",
            w=what,
            f=".".join(map(str, first)),
            v=version,
        )


class KubeRayMetricsSpec(Strict):
    """Prometheus Operator objects for the operator and the Ray pods."""

    enabled: bool = Field(False, description="Prometheus Operator objects for the operator and the Ray pods")
    install_prometheus: bool = Field(
        False, description="install kube-prometheus-stack (pinned) in `monitoring`; needs `enabled`"
    )

    @model_validator(mode="after")
    def _needs_enabled(self) -> KubeRayMetricsSpec:
        if self.install_prometheus and not self.enabled:
            raise fail(
                "kuberay",
                "installPrometheus without enabled: set metrics.enabled: true (or drop installPrometheus)",
                at="installPrometheus",
            )
        return self


def _metrics_shorthand(value: Any) -> Any:
    return {"enabled": value} if isinstance(value, bool) else value


class QueueQuotaSpec(Strict):
    """The Kueue ClusterQueue's nominal quota, when the pools cannot size it."""

    cpu: int = Field(ge=1, le=1_000_000, description="vCPUs")
    memory_gi: int = Field(ge=1, le=100_000_000, description="GiB")
    gpu: int = Field(0, ge=0, le=100_000, description="nvidia.com/gpu")


class KubeRaySpec(Strict):
    """The KubeRay operator and what it works with (README: KubeRay options)."""

    version: str = Field(
        defaults.KUBERAY_VERSION, pattern=EXACT_VERSION, description="the KubeRay operator chart, one exact version"
    )
    batch_scheduler: Literal["none", "volcano", "yunikorn", "kueue", "scheduler-plugins", "kai"] = Field(
        "none",
        description=kuberay_since("yunikorn", "scheduler-plugins", "kai")
        + f"; `scheduler-plugins` needs Kubernetes {SCHEDULER_PLUGINS_KUBERNETES}; `kai` not with `smokeTest`",
    )
    history_server: bool = Field(False, description="`true` is refused (no released History Server to install)")
    metrics: Annotated[KubeRayMetricsSpec, BeforeValidator(_metrics_shorthand)] = Field(
        default_factory=KubeRayMetricsSpec,
        description="`true` is short for `{enabled: true}`",
        json_schema_extra=shown_default("off"),
    )
    authentication: Literal["none", "token", "kubernetes-rbac"] = Field(
        "none", description=kuberay_since("token", "kubernetes-rbac")
    )
    network_policy: bool = Field(
        False,
        description=f"needs `version` {one_of(KUBERAY_NETWORK_POLICY_CHARTS)}; Generic only (the clusters this "
        "program builds enforce no NetworkPolicy)",
    )
    smoke_test: bool = Field(False, description="run a small RayJob that `pulumi up` waits on")
    # Kueue only: filled from the worker pools when not given (ResourceSpec._kueue_quota).
    queue_quota: QueueQuotaSpec | None = Field(
        None,
        description="Kueue only: the ClusterQueue's quota; default: the worker pools' size at `maxCount`; "
        "required on Generic",
        json_schema_extra=shown_default("from the pools"),
    )

    @field_validator("batch_scheduler", "authentication")
    @classmethod
    def _supported_by_version(cls, value: str, info: ValidationInfo) -> str:
        """A scheduler or an authentication mode the pinned KubeRay version knows."""
        if value in KUBERAY_SINCE and "version" in info.data:
            _kuberay_since(value, info.data["version"])
        return value

    @field_validator("history_server")
    @classmethod
    def _history(cls, value: bool) -> bool:
        if value:
            raise fail(
                "kuberay",
                "is not supported: the KubeRay History Server (kuberay/historyserver) is alpha behind the "
                "RayClusterHistoryServer feature gate of 1.7.0, with no released chart or image (its manifests "
                "use an image you build from source), so there is nothing pinned to install; leave it false",
            )
        return value

    @field_validator("network_policy")
    @classmethod
    def _network_policy(cls, value: bool, info: ValidationInfo) -> bool:
        version = info.data.get("version")
        if value and version is not None and version.lstrip("v") not in KUBERAY_NETWORK_POLICY_CHARTS:
            raise fail(
                "kuberay",
                "needs the RayClusterNetworkPolicy feature gate, which KubeRay has from 1.7.0 and this program "
                'wires for chart {c} (addons.kuberay.version is {v}); set addons.kuberay.version: "1.7.0"',
                c=", ".join(KUBERAY_NETWORK_POLICY_CHARTS),
                v=version,
            )
        return value

    @field_validator("smoke_test")
    @classmethod
    def _smoke(cls, value: bool, info: ValidationInfo) -> bool:
        if value and info.data.get("batch_scheduler") == "kai":
            raise fail(
                "kuberay",
                "cannot run with batchScheduler kai: KubeRay leaves Ray pods pending until their RayJob carries a "
                "kai.scheduler/queue label of an existing KAI Queue, and this program creates no KAI queues; "
                "turn smokeTest off or use another batchScheduler",
            )
        return value

    @model_validator(mode="after")
    def _quota_for_kueue(self) -> KubeRaySpec:
        if self.queue_quota is not None and self.batch_scheduler != "kueue":
            raise fail(
                "kuberay",
                "queueQuota sizes the Kueue ClusterQueue: set batchScheduler: kueue or drop queueQuota",
                at="queueQuota",
            )
        return self


# Chart keys the program sets itself, each with the reason a user value cannot replace it
# (a key listed here refuses the keys under it too).
SAME_ACCOUNT = "the cloud identity (Workload Identity, IRSA) is bound to the service account anyscale-operator"
OWNED_KEYS: dict[str, str] = {
    "global.cloudDeploymentId": "the program sets it to the cloud resource's ID from its registration",
    "global.cloudProvider": "it follows the resource's provider",
    "global.controlPlaneURL": "the program sets it to exactly the Azure control plane",
    "global.auth": "the operator's identity is the one the program creates (the CLI token on Generic: `cliToken`)",
    "global.aws.region": "it is the resource's region (on Generic: storage.region)",
    "global.gcp.projectId": "it is the resource's `project`",
    "global.azure.extension": "the AKS extension sets it",
    "networking.gateway": "the program installs the gateway and configures the operator with its address",
    "operator.serviceAccount.name": SAME_ACCOUNT,
    "workloads.serviceAccount.name": SAME_ACCOUNT,
    "credentialMount.aws.createSecret": "set storage.credentials (Generic) instead: the program keeps the keys secret",
}


def _values_problems(node: Any, path: tuple[str, ...], out: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """Walk `addons.anyscaleOperator.values` down to the chart's keys. Returns (path,
    message) per problem; fills `out` with flat Helm paths (`a.b\\.c[0]`) -> value."""
    problems: list[tuple[tuple[str, ...], str]] = []
    if not isinstance(node, dict) or is_secure(node):
        return [(path, "must be a mapping of chart values, e.g. {operator: {replicas: 2}}")]
    for key, value in node.items():
        here = (*path, str(key))
        dotted = ".".join(here)
        if not isinstance(key, str) or not key or "." in key:
            problems.append((here, "a chart key is a non-empty name without dots: nest the parts as a mapping"))
            continue
        owned = next((o for o in OWNED_KEYS if dotted == o or dotted.startswith(o + ".")), None)
        if owned is not None:
            problems.append((here, f"{owned} is set by the program and cannot be overridden: {OWNED_KEYS[owned]}"))
        elif dotted in FORBIDDEN_KEYS:
            problems.append((here, f"{dotted}: {FORBIDDEN_KEYS[dotted]}; remove it"))
        elif dotted == "operator.annotations" and (
            not isinstance(value, dict) or is_secure(value) or defaults.OPERATOR_ROLL_ANNOTATION in value
        ):
            # Merged with the program's own annotation: a mapping in clear, without that key.
            problems.append(
                (
                    here,
                    "must be a mapping of pod annotations in clear, without "
                    f"'{defaults.OPERATOR_ROLL_ANNOTATION}' (the program's: it rolls the operator when a secret changes)",
                )
            )
        elif dotted in TEMPLATE_KEYS:
            problems += _leaf_problems(value, here, _helm_path(here), out)
        elif any(k.startswith(dotted + ".") for k in TEMPLATE_KEYS):
            if isinstance(value, dict) and not is_secure(value):
                problems += _values_problems(value, here, out)
            else:
                below = sorted(
                    {k[len(dotted) + 1 :].split(".")[0] for k in TEMPLATE_KEYS if k.startswith(dotted + ".")}
                )
                problems.append((here, f"is a mapping in the chart (keys {', '.join(below)}), not a single value"))
        else:
            close = difflib.get_close_matches(dotted, sorted(TEMPLATE_KEYS), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            problems.append(
                (
                    here,
                    f"{dotted} is not a key the anyscale-operator {CHART_VERSION} chart reads (Helm would ignore it){hint}",
                )
            )
    return problems


def _helm_path(parts: tuple[str, ...]) -> str:
    return ".".join(p.replace(".", "\\.") for p in parts)


def _leaf_problems(
    value: Any, path: tuple[str, ...], helm: str, out: dict[str, Any]
) -> list[tuple[tuple[str, ...], str]]:
    """A value under a chart key, any shape: flattened to Helm `--set` paths (the AKS
    extension takes only those), a `{secure: ...}` becoming a Secret."""
    if is_secure(value):
        out[helm] = _to_secret(value)
    elif isinstance(value, dict) and value:
        problems = []
        for key, child in value.items():
            if not isinstance(key, str) or not key:
                problems.append(((*path, str(key)), "a key must be a non-empty string"))
            else:
                problems += _leaf_problems(child, (*path, key), helm + "." + key.replace(".", "\\."), out)
        return problems
    elif isinstance(value, list) and value:
        return [p for i, child in enumerate(value) for p in _leaf_problems(child, (*path, str(i)), f"{helm}[{i}]", out)]
    elif isinstance(value, (dict, list)) or value is None:
        return [
            (path, "an empty or null value cannot be passed (the AKS extension takes flat keys); leave the key out")
        ]
    else:
        out[helm] = value
    return []


class OperatorChartSpec(ChartSpec):
    # Extra chart values, nested as in values.yaml; each key checked against the keys the
    # chart's templates read. After validation: flat Helm paths -> value (or Secret).
    values: dict[str, Any] = Field(
        default_factory=dict,
        description="extra operator chart values, nested; keys checked against the chart's "
        f"(policy/rules/chart_keys.py, chart {CHART_VERSION}), the program's own refused, `{{secure: ...}}` allowed "
        "([In every cluster](#in-every-cluster-componentsaddonspy-the-same-for-every-provider))",
    )

    @field_validator("values", mode="before")
    @classmethod
    def _values(cls, values: Any) -> dict[str, Any]:
        flat: dict[str, Any] = {}
        problems = _values_problems(values, (), flat)
        if problems:
            raise ValidationError.from_exception_data(
                cls.__name__,
                [
                    InitErrorDetails(type=PydanticCustomError("values", m), loc=where, input=None)
                    for where, m in problems
                ],
            )
        return flat


class AddonsSpec(Strict):
    """Pinned versions of what runs inside every cluster."""

    @model_validator(mode="before")
    @classmethod
    def _default_versions(cls, data: Any) -> Any:
        """A chart given without `version` (e.g. only the operator's `values`) keeps the
        pinned default, as the reference documents, instead of failing as required."""
        if not isinstance(data, dict):
            return data
        pinned = {
            "envoyGateway": defaults.ENVOY_GATEWAY_VERSION,
            "anyscaleOperator": defaults.ANYSCALE_OPERATOR_VERSION,
            "nvidiaDevicePlugin": defaults.NVIDIA_DEVICE_PLUGIN_VERSION,
        }
        given = {k: v for k, v in data.items() if k in pinned and isinstance(v, dict) and "version" not in v}
        return {**data, **{k: {**v, "version": pinned[k]} for k, v in given.items()}} if given else data

    envoy_gateway: ChartSpec = Field(
        default_factory=lambda: ChartSpec(version=defaults.ENVOY_GATEWAY_VERSION),
        description="Envoy Gateway (chart `gateway-helm`) and its CRDs",
    )
    kuberay: KubeRaySpec = Field(
        default_factory=KubeRaySpec,
        description="the KubeRay operator and its options ([KubeRay options](#kuberay-options-addonskuberay-componentskuberay))",
    )
    anyscale_operator: OperatorChartSpec = Field(
        default_factory=lambda: OperatorChartSpec(version=defaults.ANYSCALE_OPERATOR_VERSION),
        description="the Anyscale operator: the Helm chart, on AKS the cluster extension of that version",
    )
    nvidia_device_plugin: ChartSpec = Field(
        default_factory=lambda: ChartSpec(version=defaults.NVIDIA_DEVICE_PLUGIN_VERSION),
        description="installed on AKS and EKS clusters with GPU pools (GKE brings its own; not on Generic)",
    )


# --- cloud resources ----------------------------------------------------------------------


class ResourceSpec(Strict):
    """One cloud resource: a Kubernetes cluster registered with the cloud."""

    provider_name: ClassVar[str]
    name: Name = Field(
        description=f"{NAME_RULE}; unique within the cloud, ignoring case; the first resource is the primary and "
        "must be named `default`"
    )
    provider: str = Field(
        description=f"{one_of(PROVIDERS)} (any casing is accepted and normalized); the first must be `Azure`",
        json_schema_extra={"doc_only": True},
    )
    region: str = Field(
        description=f"{REGION_RULE}; Azure, AWS, GCP: a known region of the provider (components/regions.py); "
        f"Generic: a free-form routing label. Azure: {PREVIEW_REGIONS_NOTE}"
    )
    addons: AddonsSpec = Field(default_factory=AddonsSpec)
    if TYPE_CHECKING:
        # Declared by each provider's subclass with its own storage type; here for the checker only.
        storage: StorageSpec
    # Names of other cloud resources whose networks are peered with this one's: their
    # address ranges must not overlap (network_cidrs).
    peered_with: list[str] = Field(
        default_factory=list,
        description="names of other resources of the stack whose networks are peered with this one's: their "
        "address ranges must not overlap (checked: EKS `vpcCidr`, GKE node/pod/service ranges, AKS network ranges "
        "where set; Generic and existing networks without ranges are not checked)",
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return check_name(value)

    @field_validator("provider", mode="before")
    @classmethod
    def _provider(cls, value: Any) -> Any:
        return normalize_provider(value)

    @field_validator("region")
    @classmethod
    def _region(cls, value: str) -> str:
        return check_region(value, cls.provider_name)

    @model_validator(mode="after")
    def _storage_region(self) -> ResourceSpec:
        storage: StorageSpec = self.storage
        if storage.region is None:
            storage.region = self.region  # platform default: the bucket is where compute is
        return self

    @property
    def bucket_region(self) -> str:
        """Where the bucket is: the storage region, which defaults to the resource's."""
        return self.storage.region or self.region

    @model_validator(mode="after")
    def _scheduler_plugins_matches_the_cluster(self) -> ResourceSpec:
        # scheduler-plugins ships a kube-scheduler of one Kubernetes minor (chart 0.33.x:
        # 1.33), and a scheduler must not be newer than the API server nor a minor behind.
        cluster = getattr(self, "cluster", None)
        if self.addons.kuberay.batch_scheduler == "scheduler-plugins" and cluster is not None:
            minor = ".".join(cluster.kubernetes_version.split(".")[:2])
            if minor != SCHEDULER_PLUGINS_KUBERNETES:
                raise fail(
                    "kuberay",
                    "scheduler-plugins is pinned to its release for Kubernetes {k} (its kube-scheduler must match "
                    "the cluster's minor), but the cluster runs {m}; use Kubernetes {k} or another batchScheduler",
                    k=SCHEDULER_PLUGINS_KUBERNETES,
                    m=minor,
                    at="addons.kuberay.batchScheduler",
                )
        return self

    @model_validator(mode="after")
    def _network_policy_enforced(self) -> ResourceSpec:
        if self.addons.kuberay.network_policy and getattr(self, "cluster", None) is not None:
            raise fail(
                "kuberay",
                "the {p} cluster this program builds enforces no NetworkPolicy (no network policy engine is "
                "enabled on it), so the policies KubeRay would create would be inert; use it on a Generic "
                "cluster that enforces NetworkPolicy",
                p=self.provider_name,
                at="addons.kuberay.networkPolicy",
            )
        return self

    @model_validator(mode="after")
    def _kueue_quota(self) -> ResourceSpec:
        """Kueue admits Ray jobs against a ClusterQueue's quota: by default the sum of the
        worker pools at their maxCount (the system pool runs no Ray pods: it is untainted
        but the pools' taints are what Ray pods tolerate)."""
        kuberay = self.addons.kuberay
        if kuberay.batch_scheduler != "kueue" or kuberay.queue_quota is not None:
            return self
        cluster = getattr(self, "cluster", None)
        if cluster is None:
            raise fail(
                "kuberay",
                "a Generic cluster's pools are unknown to this program: set addons.kuberay.queueQuota "
                "(cpu, memoryGi, gpu) to size the Kueue ClusterQueue",
                at="addons.kuberay.queueQuota",
            )
        # Sizes as sold (the spec has already rejected pools whose size is unknown).
        sizes = [(p.node_size(self.provider_name), p.max_count) for p in cluster.node_pools]
        totals = {
            "cpu": max(1, sum(cpu * count for (cpu, _, _), count in sizes)),
            "memory_gi": max(1, math.floor(sum(memory * count for (_, memory, _), count in sizes))),
            "gpu": sum(gpus * count for (_, _, gpus), count in sizes),
        }
        try:
            kuberay.queue_quota = QueueQuotaSpec(**totals)
        except ValidationError:
            # Raised here, pydantic would report the quota's own field (`resources[i].cpu`),
            # a path that is not in the stack file.
            raise fail(
                "kuberay",
                "the worker pools at their maxCount add up to {c} vCPUs, {m} GiB and {g} GPUs, more than a "
                "Kueue quota this program sets (1,000,000 vCPUs, 100,000,000 GiB, 100,000 GPUs): lower the "
                "pools' maxCount or set addons.kuberay.queueQuota",
                c=totals["cpu"],
                m=totals["memory_gi"],
                g=totals["gpu"],
                at="addons.kuberay.queueQuota",
            ) from None
        return self


class AzureResource(ResourceSpec):
    provider_name: ClassVar[str] = "Azure"
    provider: Literal["Azure"]
    storage: AzureStorage = Field(default_factory=AzureStorage)
    cluster: AksClusterSpec = Field(default_factory=AksClusterSpec, description=CLUSTER_RULE)


class AwsResource(ResourceSpec):
    provider_name: ClassVar[str] = "AWS"
    provider: Literal["AWS"]
    storage: AwsStorage = Field(default_factory=AwsStorage)
    cluster: EksClusterSpec = Field(default_factory=EksClusterSpec, description=CLUSTER_RULE)


class GcpResource(ResourceSpec):
    provider_name: ClassVar[str] = "GCP"
    provider: Literal["GCP"]
    project: str = Field(
        pattern=r"^[a-z][a-z0-9-]{4,28}[a-z0-9]$",
        description="the GCP project ID the cluster and bucket live in",
    )
    storage: GcpStorage = Field(default_factory=GcpStorage)
    cluster: GkeClusterSpec = Field(default_factory=GkeClusterSpec, description=CLUSTER_RULE)
    # Enable the project's APIs the resource uses (GCP_APIS); off: they must be enabled already.
    enable_apis: bool = Field(
        False,
        description="enable the project APIs the resource uses (never disabled on destroy); `false`: they must be "
        "enabled already",
    )

    @model_validator(mode="after")
    def _zones(self) -> GcpResource:
        zone = re.compile(re.escape(self.region) + r"-[a-z]")
        problems = [
            _detail(
                ("cluster", "nodePools", k, "zones", z),
                "zone",
                f"'{name}' is not a zone of {self.region}: use {self.region}-a, -b, ...",
            )
            for k, pool in enumerate(self.cluster.node_pools)
            for z, name in enumerate(pool.zones or [])
            if not zone.fullmatch(name)
        ]
        if problems:
            raise ValidationError.from_exception_data(type(self).__name__, problems)
        return self


class GenericResource(ResourceSpec):
    provider_name: ClassVar[str] = "Generic"
    provider: Literal["Generic"]
    kubeconfig: SecretValue = Field(
        description="a Pulumi secret: `pulumi config set --secret --path 'anyscale-cloud:resources[3].kubeconfig' "
        '"$(cat kubeconfig)"`'
    )
    cli_token: SecretValue = Field(
        description="a Pulumi secret: the Anyscale CLI token the operator authenticates with"
    )
    storage: GenericStorage = Field(description="the cluster's existing bucket: required on Generic")
    # How the cluster's load balancers report their address: most give an IP, some
    # (like AWS') a DNS name. The operator is configured with one or the other.
    gateway_address: Literal["ip", "hostname"] = Field(
        "ip",
        description="how your cluster's load balancers report their address; the operator gets "
        "`networking.gateway.ip` or `.hostname`",
    )


def _provider_tag(value: Any) -> str | None:
    raw = value.get("provider") if isinstance(value, dict) else getattr(value, "provider", None)
    provider = normalize_provider(raw)
    return provider if provider in PROVIDERS else None


AnyResource = Annotated[
    Annotated[AzureResource, Tag("Azure")]
    | Annotated[AwsResource, Tag("AWS")]
    | Annotated[GcpResource, Tag("GCP")]
    | Annotated[GenericResource, Tag("Generic")],
    Discriminator(
        _provider_tag,
        custom_error_type="provider",
        custom_error_message="provider must be one of Azure, AWS, GCP, Generic",
    ),
]


# --- the cloud and the whole stack ----------------------------------------------------------


class CloudSpec(Strict):
    """The Anyscale cloud: its ARM record and where it lives."""

    name: Name = Field(description=f"{NAME_RULE}: the ARM name of the cloud")
    location: str = Field(
        description="the Azure region holding the ARM records (not where compute runs): a known Azure region "
        f"(components/regions.py), never case-converted; {PREVIEW_REGIONS_NOTE}"
    )
    resource_group: str = Field(
        pattern=r"^[-\w._()]{0,89}[-\w_()]$", description="the Azure resource group, created by the program"
    )
    api_version: str = Field(
        defaults.API_VERSION,
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(-preview)?$",
        description="the `Anyscale.Platform` API version (older templates use `2026-02-01-preview`)",
    )
    protect: bool = Field(
        True,
        description="protect the resource group, registry, cloud record, registrations, clusters and storage "
        "from deletion",
    )
    registry_sku: Literal["Basic", "Standard", "Premium"] = Field(
        "Premium", description="the container registry for managed image builds"
    )
    tags: dict[str, str] = Field(default_factory=dict, description="tags on the Azure resources")

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return check_name(value)

    @field_validator("location")
    @classmethod
    def _location(cls, value: str) -> str:
        return check_region(value, "Azure")


# The platform sets no limit; this program does, so that a stack file from a pull request
# cannot keep CI planning for hours (a plan grows about linearly, ~1 s per resource).
MAX_RESOURCES = 100


class StackSpec(Strict):
    cloud: CloudSpec
    resources: list[AnyResource] = Field(max_length=MAX_RESOURCES)

    @model_validator(mode="wrap")
    @classmethod
    def _stack_rules(cls, data: Any, handler: ModelWrapValidatorHandler[StackSpec]) -> StackSpec:
        """Rules across resources, checked on the raw input so that they are reported
        together with every per-field problem rather than only once those are fixed."""
        problems = list(_order_and_uniqueness(data.get("resources") if isinstance(data, dict) else None))
        spec: StackSpec | None = None
        try:
            spec = handler(data)
        except ValidationError as error:
            if not problems:
                raise
            problems = problems + _as_details(error)
            spec = None
        if spec is not None:
            # Derived names, checked once every field is valid (platform.md 9.3).
            problems += [_detail(loc, "name", message) for loc, message in check_names(spec)]
            problems += _peering_problems(spec)
        if problems or spec is None:  # spec is None only when the handler raised
            raise ValidationError.from_exception_data(cls.__name__, problems)
        return spec


def _order_and_uniqueness(resources: Any) -> list[InitErrorDetails]:
    """platform.md 1.2: the first resource is `default` on Azure; names are unique."""
    if not isinstance(resources, list):
        return []  # the field validation reports the wrong type
    if not resources:
        return [
            _detail(
                ("resources",), "resources", "at least one cloud resource is required: the primary `default` on Azure"
            )
        ]
    problems = []
    first = resources[0] if isinstance(resources[0], dict) else {}
    if first.get("name") != "default":
        problems.append(
            _detail(
                ("resources", 0, "name"),
                "primary",
                f"the first cloud resource is the primary and must be named 'default' (got {first.get('name')!r}); "
                "put the AKS primary first",
            )
        )
    if normalize_provider(first.get("provider")) != "Azure":
        problems.append(
            _detail(
                ("resources", 0, "provider"),
                "primary",
                "the first cloud resource must have provider Azure (AKS): the platform refuses "
                "'The first cloud resource on cloud <id> must have provider AZURE'",
            )
        )
    seen: dict[str, int] = {}
    for index, item in enumerate(resources):
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str):
            continue
        # ARM resource names ignore case: `Default` is the same record as `default`.
        first_index = seen.setdefault(name.lower(), index)
        if first_index != index:
            other = resources[first_index]["name"]
            case = "" if other == name else f" ('{other}': Azure resource names ignore case)"
            problems.append(
                _detail(
                    ("resources", index, "name"),
                    "unique",
                    f"'{name}' is already the name of resources[{first_index}]{case}; names must be unique "
                    "within the cloud (the platform answers HTTP 409)",
                )
            )
    return problems


# --- networks across resources ------------------------------------------------------------


def _cidrs_of(model: Any, at: str, names: tuple[str, ...]) -> dict[str, str]:
    """The fields of `model` among `names` (snake_case) that hold IPv4/IPv6 networks, by
    their config path; lists give one entry per element. Missing fields are skipped."""
    found: dict[str, str] = {}
    for name in names:
        value = getattr(model, name, None)
        values = value if isinstance(value, list) else [value]
        for i, item in enumerate(values):
            if isinstance(item, str):
                try:
                    ipaddress.ip_network(item, strict=False)
                except ValueError:
                    continue
                found[f"{at}.{to_camel(name)}" + (f"[{i}]" if isinstance(value, list) else "")] = item
    return found


def _gke_cidrs(resource: Any) -> dict[str, str]:
    return _cidrs_of(resource.cluster, "cluster", ("node_cidr", "pod_cidr", "service_cidr"))


def _eks_cidrs(resource: Any) -> dict[str, str]:
    cluster = resource.cluster
    if getattr(cluster, "vpc_id", None):  # an existing VPC: vpcCidr is not its range
        return _cidrs_of(cluster, "cluster", ("vpc_cidrs",))
    return _cidrs_of(cluster, "cluster", ("vpc_cidr",))


# The AKS network's ranges (cluster.network). The node subnet is inside addressSpace (a rule
# of its own), so addressSpace stands for both; the pod range (Azure CNI Overlay, which both
# data planes use here) and the service range must not overlap a peered network either
# (Microsoft Learn, "Azure CNI Overlay" IP planning). Without cluster.network, or with
# existingSubnetId, the VNet's own range is not known here and is not compared.
AKS_CIDR_FIELDS = ("address_space", "pod_cidr", "service_cidr")


def _aks_cidrs(resource: Any) -> dict[str, str]:
    network = getattr(resource.cluster, "network", None)
    return _cidrs_of(network, "cluster.network", AKS_CIDR_FIELDS) if isinstance(network, BaseModel) else {}


CIDR_READERS = {"GCP": _gke_cidrs, "AWS": _eks_cidrs, "Azure": _aks_cidrs}


def network_cidrs(resource: ResourceSpec) -> dict[str, str]:
    """Config path inside the resource -> CIDR, for the address ranges its network uses
    (empty where unknown: a Generic cluster, an existing network given without ranges)."""
    reader = CIDR_READERS.get(resource.provider_name)
    return reader(resource) if reader else {}


def _peering_problems(spec: StackSpec) -> list[InitErrorDetails]:
    """`peeredWith`: the names exist, and peered networks use distinct address ranges."""
    index = {r.name: i for i, r in enumerate(spec.resources)}
    problems = []
    for i, resource in enumerate(spec.resources):
        for j, other_name in enumerate(resource.peered_with):
            loc = ("resources", i, "peeredWith", j)
            k = index.get(other_name)
            if other_name == resource.name or k is None:
                why = "is this resource itself" if k == i else "is not the name of a cloud resource of this stack"
                problems.append(_detail(loc, "peering", f"'{other_name}' {why}"))
                continue
            other = spec.resources[k]
            if resource.name in other.peered_with and k < i:
                continue  # reported at the other side's entry
            for (here, mine), (there, theirs) in itertools.product(
                network_cidrs(resource).items(), network_cidrs(other).items()
            ):
                if ipaddress.ip_network(mine, strict=False).overlaps(ipaddress.ip_network(theirs, strict=False)):
                    problems.append(
                        _detail(
                            loc,
                            "peering",
                            f"{here} {mine} overlaps {other_name}'s {there} {theirs}: peered networks need distinct "
                            "address ranges; change one of them",
                        )
                    )
    return problems


def _detail(loc: tuple[Any, ...], kind: str, message: str) -> InitErrorDetails:
    return InitErrorDetails(type=PydanticCustomError(kind, message), loc=loc, input=None)


def _as_details(error: ValidationError) -> list[InitErrorDetails]:
    return [
        InitErrorDetails(
            # ctx too: _message reads it (the pattern a value must match).
            type=PydanticCustomError(e["type"], e["msg"], e.get("ctx")),
            loc=tuple(e["loc"]),
            input=e.get("input"),
        )
        for e in error.errors()
    ]


# --- loading and reporting -----------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    path: str  # e.g. resources[2].storage.endpoint
    resource: str | None  # the resource's name, when the problem is inside one
    message: str

    def __str__(self) -> str:
        where = f"{self.path} ({self.resource})" if self.resource else self.path
        # Values from the file are quoted in paths and messages: never print them raw.
        return printable(f"{where}: {self.message}")


class SpecError(Exception):
    """The config breaks one or more rules; `problems` lists them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


CONFIG_KEYS = {"cloud": "anyscale-cloud:cloud", "resources": "anyscale-cloud:resources"}


def load_spec(cloud: Any, resources: Any) -> StackSpec:
    """Validate the two config values; raise SpecError listing every problem."""
    raw = {"cloud": cloud, "resources": resources}
    missing = [
        Problem(key, None, f"is required: set `{CONFIG_KEYS[key]}` in the stack file")
        for key, value in raw.items()
        if value is None
    ]
    if missing:
        raise SpecError(missing)
    # Document-wide rules first; the models' own message for the same value would only
    # repeat it (or echo a secret back).
    early = [
        Problem(_path(list(loc)), _resource_name(list(loc), resources), message) for loc, message in raw_problems(raw)
    ]
    try:
        # camelCase only, as documented: the Python field names (resource_group) are for
        # the code, not the stack file.
        spec = StackSpec.model_validate(raw, by_alias=True, by_name=False)
    except ValidationError as error:
        later = [p for p in _problems(error, resources) if not any(_within(p.path, e.path) for e in early)]
        raise SpecError(sorted(early + later, key=_problem_order)) from None
    if early:
        raise SpecError(early)
    return spec


def advisories(spec: StackSpec) -> list[Problem]:
    """Warnings that do not stop a deployment: an Azure region outside the list of regions
    where Anyscale on Azure is available (components/azure_availability.py; nothing when
    that list is None). `preflight validate` prints them and exits 0; `pulumi up` logs them."""
    available = azure_availability.AVAILABLE_REGIONS
    if available is None:
        return []
    places: list[tuple[str, str | None, str]] = [("cloud.location", None, spec.cloud.location)]
    for index, resource in enumerate(spec.resources):
        if resource.provider_name != "Azure":
            continue
        places.append((f"resources[{index}].region", resource.name, resource.region))
        if resource.storage.region not in (None, resource.region):
            places.append((f"resources[{index}].storage.region", resource.name, resource.storage.region))
    return [
        Problem(
            path,
            name,
            f"'{region}' is not a region where Anyscale on Azure is available ({azure_availability.SOURCE}: "
            f"{', '.join(sorted(available))}); the platform may refuse it: request the region from Anyscale "
            "support, or use a listed one",
        )
        for path, name, region in places
        if region not in available
    ]


def _within(path: str, outer: str) -> bool:
    return path == outer or path.startswith((outer + ".", outer + "["))


def _problem_order(problem: Problem) -> tuple[int, int]:
    """File order: the cloud first, then resource by resource (a stable sort keeps the rest)."""
    if problem.path.startswith("resources["):
        return (1, int(problem.path[len("resources[") :].split("]", 1)[0]))
    return (0, -1) if problem.path.startswith("cloud") else (1, -1)


_TAGS = set(PROVIDERS)


def _problems(error: ValidationError, resources: Any) -> list[Problem]:
    problems = []
    for item in sorted(error.errors(include_url=False), key=_config_order):
        loc = list(item["loc"])
        # Drop the union tag pydantic inserts after the list index (resources.2.AWS.region).
        if len(loc) > 2 and loc[0] == "resources" and loc[2] in _TAGS:
            del loc[2]
        # A model-level rule with a field name in its type points at that field.
        if item["type"] == "provider":
            loc.append("provider")
        # A model-level rule that names the field it is about (ctx "at", dotted).
        at = (item.get("ctx") or {}).get("at")
        if isinstance(at, str):
            loc.extend(at.split("."))
        problems.append(Problem(_path(loc), _resource_name(loc, resources), _message(item)))
    return problems


def _config_order(item: ErrorDetails) -> tuple[int, int]:
    """Report in the order of the file: the cloud first, then resource by resource."""
    loc = item["loc"]
    index = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else -1
    return (0 if loc and loc[0] == "cloud" else 1, index)


def _message(item: ErrorDetails) -> str:
    kind, msg = item["type"], item["msg"]
    if kind == "extra_forbidden":
        key = item["loc"][-1] if item["loc"] else ""
        if isinstance(key, str) and "_" in key and to_camel(key) != key:
            return f"unknown key: the stack config is camelCase, write `{to_camel(key)}`"
        return "unknown key (check the spelling; see the config reference in README.md)"
    if kind == "missing":
        return "is required"
    if kind == "provider":
        got = item.get("input", {}).get("provider") if isinstance(item.get("input"), dict) else None
        return f"{msg} (got {got!r})"
    if kind == "string_pattern_mismatch":
        return f"{item.get('input')!r} does not have the required form {item['ctx']['pattern']}"
    if kind.startswith("value_error"):
        return msg.removeprefix("Value error, ")
    return msg


def _path(loc: list[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _resource_name(loc: list[Any], resources: Any) -> str | None:
    if len(loc) >= 2 and loc[0] == "resources" and isinstance(loc[1], int) and isinstance(resources, list):
        item = resources[loc[1]] if loc[1] < len(resources) else None
        name = item.get("name") if isinstance(item, dict) else None
        return name if isinstance(name, str) else None
    return None
