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
import re
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel
from pydantic_core import InitErrorDetails, PydanticCustomError

from components import defaults
from components import instance_types
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
from policy.rules.platform import PROVIDERS
from policy.rules.chart_keys import CHART_VERSION, FORBIDDEN_KEYS, TEMPLATE_KEYS

AKS_POOL_RE = re.compile(r"^[a-z][a-z0-9]{0,11}$")
# Instance types of every provider: Standard_D16s_v5, m6i.4xlarge, e2-standard-4.
INSTANCE_TYPE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"


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
    bucket: str | None = Field(None, description="existing bucket URI, no sub-path")
    endpoint: str | None = Field(None, validate_default=True, description="bare https origin")
    region: str | None = Field(None, description="defaults to the resource's region")
    retain_on_delete: bool = Field(
        True, description="keep the bucket when it is removed from the stack (it holds logs and snapshots)"
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

    access_key_id: SecretValue
    secret_access_key: SecretValue
    # `path` for most S3-compatible stores (MinIO): https://<endpoint>/<bucket>/<key>.
    addressing_style: Literal["path", "virtual"] | None = None
    signature_version: Literal["s3v4", "s3"] | None = None


class GenericStorage(StorageSpec):
    provider: ClassVar[str] = "Generic"
    bucket: str = Field(description="the existing bucket's URI: we cannot create it on a Generic cluster")
    credentials: S3Credentials | None = None

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
    type: str = Field(min_length=1)
    # Defaults to what the instance type carries (1 for GPUs attached on GCP N1).
    count: int | None = Field(None, ge=1, le=16)


class ShapeSpec(Strict):
    """A node's capacity as the cloud sells it, for instance types not in
    components/instance_types.py. The operator's instance type is sized from it."""

    cpu: int = Field(ge=1, le=1024, description="vCPUs")
    memory_gb: float = Field(gt=0, le=32768, description="memory in GiB")
    gpus: int = Field(0, ge=0, le=16)


class NodePoolSpec(Strict):
    """A worker pool. Tainted per platform.md 7 so that only Anyscale workloads land on it."""

    name: str = Field(pattern=r"^[a-z][a-z0-9-]{0,39}$")
    instance_type: str = Field(pattern=INSTANCE_TYPE_PATTERN)
    min_count: int = Field(0, ge=0, le=1000)
    max_count: int = Field(10, ge=1, le=1000)
    capacity_type: Literal["ON_DEMAND", "SPOT"] = "ON_DEMAND"
    gpu: GpuSpec | None = None
    shape: ShapeSpec | None = None
    # Root disk; the cluster fills in the provider's default (defaults.DISK_SIZE_GB).
    disk_size_gb: int | None = Field(None, ge=30, le=16384)

    @model_validator(mode="after")
    def _bounds(self) -> NodePoolSpec:
        if self.min_count > self.max_count:
            raise fail("pool", "minCount ({lo}) must not exceed maxCount ({hi})", lo=self.min_count, hi=self.max_count)
        return self


class AksNodePool(NodePoolSpec):
    name: str

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
    min_count: int = Field(1, ge=1, le=100)
    max_count: int = Field(3, ge=1, le=100)

    @model_validator(mode="after")
    def _bounds(self) -> SystemPoolSpec:
        if self.min_count > self.max_count:
            raise fail("pool", "minCount ({lo}) must not exceed maxCount ({hi})", lo=self.min_count, hi=self.max_count)
        return self


def default_pools(provider: str, pool_cls: type[NodePoolSpec]) -> list[NodePoolSpec]:
    cpu, disk = defaults.CPU_INSTANCE_TYPE[provider], defaults.DISK_SIZE_GB[provider]
    return [
        pool_cls(name="cpu", instance_type=cpu, min_count=0, max_count=10, disk_size_gb=disk),
        pool_cls(name="cpuspot", instance_type=cpu, min_count=0, max_count=10, capacity_type="SPOT", disk_size_gb=disk),
    ]


class ClusterSpec(Strict):
    provider: ClassVar[str]
    kubernetes_version: str = Field(defaults.KUBERNETES_VERSION, pattern=r"^1\.[0-9]{2}(\.[0-9]+)?$")

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
        return [(("gpu", "type"), f"{gpu.type} is not a GPU type the operator chart maps on {provider}{carries}; use one of {', '.join(offered)}")]
    if pool.shape is not None:
        return _check_shape(pool, pool.shape)
    if machine is None:
        known = sorted(instance_types.INSTANCE_TYPES[provider])
        close = difflib.get_close_matches(pool.instance_type, known, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        return [(("instanceType",), f"'{pool.instance_type}' is not a known {provider} instance type (components/instance_types.py); {hint}"
                 "or give the node's size as `shape: {cpu, memoryGb, gpus}`")]
    it = pool.instance_type
    if machine.gpu_type is not None:
        if gpu is None:
            return [(("gpu",), f"{it} carries {machine.gpus} x {machine.gpu_type}: add `gpu: {{type: {machine.gpu_type}}}` so the pool is labelled and tainted for GPU pods")]
        if gpu.type != machine.gpu_type:
            return [(("gpu", "type"), f"{it} carries {machine.gpu_type}, not {gpu.type}")]
        if gpu.count not in (None, machine.gpus):
            return [(("gpu", "count"), f"{it} carries {machine.gpus} GPUs, not {gpu.count}; omit `count` or set it to {machine.gpus}")]
        gpu.count = machine.gpus
    elif gpu is not None and gpu.type in machine.attachable:
        allowed = machine.attachable[gpu.type]
        gpu.count = gpu.count or allowed[0]
        if gpu.count not in allowed:
            return [(("gpu", "count"), f"{it} takes {', '.join(map(str, allowed))} attached {gpu.type} GPUs, not {gpu.count}")]
    elif gpu is not None:
        takes = f"takes attached {', '.join(machine.attachable)} only" if machine.attachable else "has no GPUs"
        examples = [n for n, m in instance_types.INSTANCE_TYPES[provider].items() if m.gpu_type == gpu.type or gpu.type in m.attachable]
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


class AksClusterSpec(ClusterSpec):
    provider: ClassVar[str] = "Azure"
    system_pool: SystemPoolSpec = Field(
        default_factory=lambda: SystemPoolSpec(instance_type=defaults.SYSTEM_INSTANCE_TYPE["Azure"])
    )
    node_pools: list[AksNodePool] = Field(default_factory=lambda: default_pools("Azure", AksNodePool))
    # Local accounts give a static admin credential; off is safer but needs Entra RBAC set up.
    disable_local_accounts: bool = False
    sku_tier: Literal["Free", "Standard", "Premium"] = "Standard"


class EksClusterSpec(ClusterSpec):
    provider: ClassVar[str] = "AWS"
    system_pool: SystemPoolSpec = Field(
        default_factory=lambda: SystemPoolSpec(instance_type=defaults.SYSTEM_INSTANCE_TYPE["AWS"])
    )
    node_pools: list[NodePoolSpec] = Field(default_factory=lambda: default_pools("AWS", NodePoolSpec))
    vpc_cidr: str = Field("10.0.0.0/16", pattern=r"^([0-9]{1,3}\.){3}[0-9]{1,3}/(1[6-9]|2[0-4])$")
    availability_zones: int = Field(2, ge=2, le=4)

    @field_validator("vpc_cidr")
    @classmethod
    def _network(cls, value: str) -> str:
        # The pattern admits 999.1.2.3/16 and 10.0.0.1/16; only a real parse says it is a network.
        try:
            ipaddress.IPv4Network(value, strict=True)
        except ValueError as error:
            raise fail("cidr", "'{v}' is not an IPv4 network ({e}); e.g. 10.0.0.0/16", v=value, e=str(error)) from None
        return value


class GkeNodePool(NodePoolSpec):
    # The pool's zones (GKE nodeLocations), all in the resource's region; by default the
    # pool spans the cluster's zones. GPU pools: only zones that offer the GPU type
    # (README: GKE: GPU zones), or the pool fails to scale there.
    zones: list[str] | None = Field(None, min_length=1)

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
        default_factory=lambda: SystemPoolSpec(instance_type=defaults.SYSTEM_INSTANCE_TYPE["GCP"])
    )
    node_pools: list[GkeNodePool] = Field(default_factory=lambda: default_pools("GCP", GkeNodePool))
    release_channel: Literal["RAPID", "REGULAR", "STABLE"] = "REGULAR"
    network: str | None = Field(None, pattern=GKE_NETWORK_REF, description="an existing VPC")
    subnetwork: str | None = Field(None, pattern=GKE_NETWORK_REF, description="its subnet in the region")
    pods_range_name: str | None = Field(None, pattern=GKE_NETWORK_NAME)
    services_range_name: str | None = Field(None, pattern=GKE_NETWORK_NAME)
    # The ranges of a created network; with an existing one, optional: only for the
    # peering check (`peeredWith`).
    node_cidr: str | None = None
    pod_cidr: str | None = None
    service_cidr: str | None = None

    @field_validator("node_cidr", "pod_cidr", "service_cidr")
    @classmethod
    def _cidr(cls, value: str | None) -> str | None:
        return check_cidr(value)

    @model_validator(mode="after")
    def _network(self) -> GkeClusterSpec:
        existing = {"subnetwork": self.subnetwork, "podsRangeName": self.pods_range_name, "servicesRangeName": self.services_range_name}
        if self.network is None:
            given = [k for k, v in existing.items() if v is not None]
            if given:
                raise fail("network", "{k} only go with an existing `network`: set it too, or remove them", k=", ".join(given))
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
        ranges = {k: v for k, v in (("nodeCidr", self.node_cidr), ("podCidr", self.pod_cidr), ("serviceCidr", self.service_cidr)) if v}
        for (a, x), (b, y) in itertools.combinations(ranges.items(), 2):
            if ipaddress.ip_network(x).overlaps(ipaddress.ip_network(y)):
                raise fail("cidr", "{a} {x} overlaps {b} {y}: nodes, pods and services need distinct ranges", a=a, x=x, b=b, y=y)
        return self


# --- in-cluster add-ons ------------------------------------------------------------------


class ChartSpec(Strict):
    # One exact release: a range (`>=1.0`, `~1.2`, `*`) or `latest` would change what
    # runs without a change in review.
    version: str = Field(pattern=r"^v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")


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
        elif dotted in TEMPLATE_KEYS:
            problems += _leaf_problems(value, here, _helm_path(here), out)
        elif any(k.startswith(dotted + ".") for k in TEMPLATE_KEYS):
            if isinstance(value, dict) and not is_secure(value):
                problems += _values_problems(value, here, out)
            else:
                below = sorted({k[len(dotted) + 1 :].split(".")[0] for k in TEMPLATE_KEYS if k.startswith(dotted + ".")})
                problems.append((here, f"is a mapping in the chart (keys {', '.join(below)}), not a single value"))
        else:
            close = difflib.get_close_matches(dotted, sorted(TEMPLATE_KEYS), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            problems.append(
                (here, f"{dotted} is not a key the anyscale-operator {CHART_VERSION} chart reads (Helm would ignore it){hint}")
            )
    return problems


def _helm_path(parts: tuple[str, ...]) -> str:
    return ".".join(p.replace(".", "\\.") for p in parts)


def _leaf_problems(value: Any, path: tuple[str, ...], helm: str, out: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
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
        return [(path, "an empty or null value cannot be passed (the AKS extension takes flat keys); leave the key out")]
    else:
        out[helm] = value
    return []


class OperatorChartSpec(ChartSpec):
    # Extra chart values, nested as in values.yaml; each key checked against the keys the
    # chart's templates read. After validation: flat Helm paths -> value (or Secret).
    values: dict[str, Any] = Field(default_factory=dict)

    @field_validator("values", mode="before")
    @classmethod
    def _values(cls, values: Any) -> dict[str, Any]:
        flat: dict[str, Any] = {}
        problems = _values_problems(values, (), flat)
        if problems:
            raise ValidationError.from_exception_data(
                cls.__name__,
                [InitErrorDetails(type=PydanticCustomError("values", m), loc=where, input=None) for where, m in problems],
            )
        return flat


class AddonsSpec(Strict):
    """Pinned versions of what runs inside every cluster."""

    envoy_gateway: ChartSpec = Field(default_factory=lambda: ChartSpec(version=defaults.ENVOY_GATEWAY_VERSION))
    kuberay: ChartSpec = Field(default_factory=lambda: ChartSpec(version=defaults.KUBERAY_VERSION))
    anyscale_operator: OperatorChartSpec = Field(
        default_factory=lambda: OperatorChartSpec(version=defaults.ANYSCALE_OPERATOR_VERSION)
    )
    nvidia_device_plugin: ChartSpec = Field(
        default_factory=lambda: ChartSpec(version=defaults.NVIDIA_DEVICE_PLUGIN_VERSION)
    )


# --- cloud resources ----------------------------------------------------------------------


class ResourceSpec(Strict):
    """One cloud resource: a Kubernetes cluster registered with the cloud."""

    provider_name: ClassVar[str]
    name: Name
    provider: str
    region: str
    addons: AddonsSpec = Field(default_factory=AddonsSpec)
    # Names of other cloud resources whose networks are peered with this one's: their
    # address ranges must not overlap (network_cidrs).
    peered_with: list[str] = Field(default_factory=list)

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
        storage: StorageSpec = getattr(self, "storage")
        if storage.region is None:
            storage.region = self.region  # platform default: the bucket is where compute is
        return self


class AzureResource(ResourceSpec):
    provider_name: ClassVar[str] = "Azure"
    provider: Literal["Azure"]
    storage: AzureStorage = Field(default_factory=AzureStorage)
    cluster: AksClusterSpec = Field(default_factory=AksClusterSpec)


class AwsResource(ResourceSpec):
    provider_name: ClassVar[str] = "AWS"
    provider: Literal["AWS"]
    storage: AwsStorage = Field(default_factory=AwsStorage)
    cluster: EksClusterSpec = Field(default_factory=EksClusterSpec)


class GcpResource(ResourceSpec):
    provider_name: ClassVar[str] = "GCP"
    provider: Literal["GCP"]
    project: str = Field(
        pattern=r"^[a-z][a-z0-9-]{4,28}[a-z0-9]$",
        description="the GCP project id the cluster and bucket live in",
    )
    storage: GcpStorage = Field(default_factory=GcpStorage)
    cluster: GkeClusterSpec = Field(default_factory=GkeClusterSpec)
    # Enable the project's APIs the resource uses (GCP_APIS); off: they must be enabled already.
    enable_apis: bool = False

    @model_validator(mode="after")
    def _zones(self) -> GcpResource:
        zone = re.compile(re.escape(self.region) + r"-[a-z]")
        problems = [
            _detail(("cluster", "nodePools", k, "zones", z), "zone", f"'{name}' is not a zone of {self.region}: use {self.region}-a, -b, ...")
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
    kubeconfig: SecretValue
    cli_token: SecretValue
    storage: GenericStorage
    # How the cluster's load balancers report their address: most give an IP, some
    # (like AWS') a DNS name. The operator is configured with one or the other.
    gateway_address: Literal["ip", "hostname"] = "ip"


def _provider_tag(value: Any) -> str | None:
    raw = value.get("provider") if isinstance(value, dict) else getattr(value, "provider", None)
    provider = normalize_provider(raw)
    return provider if provider in PROVIDERS else None


AnyResource = Annotated[
    Union[
        Annotated[AzureResource, Tag("Azure")],
        Annotated[AwsResource, Tag("AWS")],
        Annotated[GcpResource, Tag("GCP")],
        Annotated[GenericResource, Tag("Generic")],
    ],
    Discriminator(
        _provider_tag,
        custom_error_type="provider",
        custom_error_message="provider must be one of Azure, AWS, GCP, Generic",
    ),
]


# --- the cloud and the whole stack ----------------------------------------------------------


class CloudSpec(Strict):
    """The Anyscale cloud: its ARM record and where it lives."""

    name: Name
    location: str = Field(description="Azure region holding the ARM records")
    resource_group: str = Field(pattern=r"^[-\w._()]{0,89}[-\w_()]$", description="created if missing")
    api_version: str = Field(defaults.API_VERSION, pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(-preview)?$")
    protect: bool = Field(True, description="protect registrations, clusters and storage from deletion")
    registry_sku: Literal["Basic", "Standard", "Premium"] = "Premium"
    tags: dict[str, str] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return check_name(value)

    @field_validator("location")
    @classmethod
    def _location(cls, value: str) -> str:
        return check_region(value, "Azure")


class StackSpec(Strict):
    cloud: CloudSpec
    resources: list[AnyResource]

    @model_validator(mode="wrap")
    @classmethod
    def _stack_rules(cls, data: Any, handler: Any) -> StackSpec:
        """Rules across resources, checked on the raw input so that they are reported
        together with every per-field problem rather than only once those are fixed."""
        problems = list(_order_and_uniqueness(data.get("resources") if isinstance(data, dict) else None))
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
        if problems:
            raise ValidationError.from_exception_data(cls.__name__, problems)
        return spec


def _order_and_uniqueness(resources: Any) -> list[InitErrorDetails]:
    """platform.md 1.2: the first resource is `default` on Azure; names are unique."""
    if not isinstance(resources, list):
        return []  # the field validation reports the wrong type
    if not resources:
        return [_detail(("resources",), "resources", "at least one cloud resource is required: the primary `default` on Azure")]
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
        first = seen.setdefault(name.lower(), index)
        if first != index:
            other = resources[first]["name"]
            case = "" if other == name else f" ('{other}': Azure resource names ignore case)"
            problems.append(
                _detail(
                    ("resources", index, "name"),
                    "unique",
                    f"'{name}' is already the name of resources[{first}]{case}; names must be unique "
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


# Read defensively: the AKS network's fields (cluster.network) may be absent or renamed.
AKS_CIDR_FIELDS = ("address_space", "address_prefixes", "node_subnet_cidr", "subnet_cidr", "node_cidr", "pod_cidr", "service_cidr")


def _aks_cidrs(resource: Any) -> dict[str, str]:
    network = getattr(resource.cluster, "network", None)
    found = _cidrs_of(network, "cluster.network", AKS_CIDR_FIELDS) if isinstance(network, BaseModel) else {}
    return found | _cidrs_of(resource.cluster, "cluster", ("pod_cidr", "service_cidr"))


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
            for (here, mine), (there, theirs) in itertools.product(network_cidrs(resource).items(), network_cidrs(other).items()):
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
            type=PydanticCustomError(e["type"], e["msg"]),
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
    early = [Problem(_path(list(loc)), _resource_name(list(loc), resources), message) for loc, message in raw_problems(raw)]
    try:
        spec = StackSpec.model_validate(raw)
    except ValidationError as error:
        later = [p for p in _problems(error, resources) if not any(_within(p.path, e.path) for e in early)]
        raise SpecError(sorted(early + later, key=_problem_order)) from None
    if early:
        raise SpecError(early)
    return spec


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
        problems.append(Problem(_path(loc), _resource_name(loc, resources), _message(item)))
    return problems


def _config_order(item: dict[str, Any]) -> tuple[int, int]:
    """Report in the order of the file: the cloud first, then resource by resource."""
    loc = item["loc"]
    index = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else -1
    return (0 if loc and loc[0] == "cloud" else 1, index)


def _message(item: dict[str, Any]) -> str:
    kind, msg = item["type"], item["msg"]
    if kind == "extra_forbidden":
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
