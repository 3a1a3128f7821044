"""The whole stack: the cloud (`anyscale-cloud:cloud`), the ordered resources, and the
rules across them: the primary first, unique names, peered networks (config/peering.py),
and the names derived from the config (config/names.py), each checked against the
cloud's limits and for collisions before a resource is declared (platform.md 9.3)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    Discriminator,
    Field,
    ModelWrapValidatorHandler,
    StringConstraints,
    Tag,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from config.adopt import CloudAdoptSpec
from config.adopt_rules import adoption_problems
from config.aks import AzureResource
from config.data.versions import API_VERSION, API_VERSIONS
from config.doc import NAME_RULE, PREVIEW_REGIONS_NOTE
from config.eks import AwsResource
from config.generic import GenericResource
from config.gke import GcpResource
from config.multikueue import multikueue_problems
from config.names import (
    GCS_SUFFIX,
    REGISTRY_SUFFIX,
    RULES,
    S3_SUFFIX,
    STORAGE_ACCOUNT_SUFFIX,
    SYSTEM_POOL,
    aks_cluster_name,
    aks_dns_prefix,
    aws_role_logical_names,
    azure_identity_name,
    azure_vnet_name,
    azure_workload_identity_name,
    eks_cluster_name,
    gcp_account_id,
    gcp_workload_account_id,
    gcs_bucket_name,
    gke_cluster_name,
    gke_network_name,
    gke_node_account_id,
    iam_role_autoname,
    node_group_logical_name,
    pool_logical_name,
    registry_name,
    s3_bucket_name,
    storage_account_name,
)
from config.peering import peering_problems
from config.tags import tag_problems
from config.types import Deferrable, Deferred, Name, Strict, check_region, detail, fail, normalize_provider
from policy.rules.platform import PROVIDERS


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


class CloudSpec(Strict):
    """The Anyscale cloud: its ARM record and where it lives."""

    name: Name = Field(description=f"{NAME_RULE}: the ARM name of the cloud")
    location: str = Field(
        description="the Azure region holding the ARM records (not where compute runs): a known Azure region "
        f"(config/data/regions.py), never case-converted; {PREVIEW_REGIONS_NOTE}"
    )
    # Only the resource group's name: it may be another resource's output.
    resource_group: Deferrable[Annotated[str, StringConstraints(pattern=r"^[-\w._()]{0,89}[-\w_()]$")]] = Field(
        description="the Azure resource group, created by the program (or adopted: `adopt.resourceGroup`)"
    )
    api_version: str = Field(
        API_VERSION,
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
    adopt: CloudAdoptSpec = Field(
        default_factory=CloudAdoptSpec,
        description="an existing cloud's records to import instead of creating them (docs/adopting.md)",
    )

    @field_validator("location")
    @classmethod
    def _location(cls, value: str) -> str:
        return check_region(value, "Azure")

    @field_validator("api_version")
    @classmethod
    def _api_version(cls, value: str) -> str:
        try:
            datetime.date.fromisoformat(value[:10])
        except ValueError:
            raise fail("api_version", "'{v}' is not a real date (YYYY-MM-DD, optionally -preview)", v=value) from None
        if value not in API_VERSIONS:
            raise fail(
                "api_version",
                "'{v}' is not an Anyscale.Platform API version; the versions are {k} (config/data/versions.py)",
                v=value,
                k=", ".join(API_VERSIONS),
            )
        return value


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
            problems += [detail(loc, "name", message) for loc, message in check_names(spec)]
            problems += peering_problems(spec.resources)
            problems += [detail(loc, "adopt", message) for loc, message in adoption_problems(spec)]
            problems += multikueue_problems(spec.resources)
            aws = any(r.provider_name == "AWS" for r in spec.resources)
            problems += [
                detail(("cloud", "tags") + ((key,) if key is not None else ()), "tags", message)
                for key, message in tag_problems(spec.cloud.tags, aws)
            ]
        if problems or spec is None:  # spec is None only when the handler raised
            raise ValidationError.from_exception_data(cls.__name__, problems)
        return spec


def _order_and_uniqueness(resources: Any) -> list[InitErrorDetails]:
    """platform.md 1.2: the first resource is `default` on Azure; names are unique."""
    if not isinstance(resources, list):
        return []  # the field validation reports the wrong type
    if not resources:
        return [
            detail(
                ("resources",), "resources", "at least one cloud resource is required: the primary `default` on Azure"
            )
        ]
    problems = []
    first = resources[0] if isinstance(resources[0], dict) else {}
    if first.get("name") != "default":
        problems.append(
            detail(
                ("resources", 0, "name"),
                "primary",
                f"the first cloud resource is the primary and must be named 'default' (got {first.get('name')!r}); "
                "put the AKS primary first",
            )
        )
    if normalize_provider(first.get("provider")) != "Azure":
        problems.append(
            detail(
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
                detail(
                    ("resources", index, "name"),
                    "unique",
                    f"'{name}' is already the name of resources[{first_index}]{case}; names must be unique "
                    "within the cloud (the platform answers HTTP 409)",
                )
            )
    return problems


def _as_details(error: ValidationError) -> list[InitErrorDetails]:
    return [
        InitErrorDetails(
            # ctx too: load._message reads it (the pattern a value must match).
            type=PydanticCustomError(e["type"], e["msg"], e.get("ctx")),
            loc=tuple(e["loc"]),
            input=e.get("input"),
        )
        for e in error.errors()
    ]


# --- derived names ---------------------------------------------------------------------------

Loc = tuple[Any, ...]


@dataclass(frozen=True)
class Use:
    """One derived name: where it must be unique, and the config path it comes from."""

    space: tuple[str, ...]  # the cloud's uniqueness scope (or the Pulumi type), e.g. ("aks", rg)
    what: str
    name: str
    loc: Loc
    case_insensitive: bool = False


def _uses(spec: StackSpec) -> tuple[list[Use], list[tuple[Loc, str]]]:
    """Every derived name of the stack, and the problems with any single one of them."""
    cloud = spec.cloud.name
    found: list[Use] = []
    bad: list[tuple[Loc, str]] = []

    def name(rule: str, value: str, loc: Loc, space: tuple[str, ...] | None = None, ci: bool = False) -> None:
        problem = RULES[rule].problem(value)
        if problem:
            bad.append((loc, problem))
        if space is not None:
            found.append(Use(space, RULES[rule].what, value, loc, ci))

    name("registry", registry_name(cloud, "0" * REGISTRY_SUFFIX), ("cloud", "name"))
    # Azure names are unique within the group; every resource is in the cloud's one group,
    # so a group known only at deploy time is one name space all the same.
    given = spec.cloud.resource_group
    group = "(known at deploy time)" if isinstance(given, Deferred) else given.lower()
    for i, res in enumerate(spec.resources):
        at: Loc = ("resources", i, "name")
        pools = getattr(getattr(res, "cluster", None), "node_pools", [])
        pool_locs = [(p.name, ("resources", i, "cluster", "nodePools", k, "name")) for k, p in enumerate(pools)]
        if isinstance(res, AzureResource):
            # Azure names ignore case: `Default` and `default` are one name.
            # An adopted resource keeps the name its ID gives it (config/adopt.py).
            cluster = res.adopt.name_of("cluster") or aks_cluster_name(cloud, res.name)
            name("aks_cluster", cluster, at, ("aks-cluster", group), ci=True)
            name("aks_dns_prefix", aks_dns_prefix(cloud, res.name), at)
            identity = res.adopt.name_of("identity") or azure_identity_name(cloud, res.name)
            name("azure_identity", identity, at, ("identity", group), ci=True)
            name("azure_identity", azure_workload_identity_name(cloud, res.name), at, ("identity", group), ci=True)
            network = res.cluster.network
            if network is not None and network.created:
                name("azure_vnet", azure_vnet_name(cloud, res.name), at, ("vnet", group), ci=True)
            if res.storage.bucket is None and res.adopt.storage_account is None:
                name("storage_account", storage_account_name(cloud, res.name, "0" * STORAGE_ACCOUNT_SUFFIX), at)
            # Pool names are the user's (config.types.AksPoolName checks them): only their URNs derive.
            for pool, loc in pool_locs:
                found.append(Use(("urn", "AgentPool"), "Pulumi logical name", pool_logical_name(res.name, pool), loc))
        elif isinstance(res, AwsResource):
            name("eks_cluster", eks_cluster_name(cloud, res.name), at, ("eks-cluster", res.region))
            for role in aws_role_logical_names(res.name):
                name("iam_role", iam_role_autoname(role), at)
            if res.storage.bucket is None:
                name("s3_bucket", s3_bucket_name(cloud, res.name, "0" * S3_SUFFIX), at)
            found.append(
                Use(("urn", "NodeGroup"), "Pulumi logical name", node_group_logical_name(res.name, SYSTEM_POOL), at)
            )
            for pool, loc in pool_locs:
                name("eks_node_group", pool, loc)
                found.append(
                    Use(("urn", "NodeGroup"), "Pulumi logical name", node_group_logical_name(res.name, pool), loc)
                )
        elif isinstance(res, GcpResource):
            # GCP names are unique within a project; projects known only at deploy time count
            # as one project, so that a collision there is reported rather than missed.
            project = "(known at deploy time)" if isinstance(res.project, Deferred) else res.project
            name("gke_cluster", gke_cluster_name(cloud, res.name), at, ("gke-cluster", project, res.region))
            name("gcp_account", gcp_account_id(cloud, res.name), at, ("gcp-account", project))
            name("gcp_account", gcp_workload_account_id(cloud, res.name), at, ("gcp-account", project))
            name("gcp_account", gke_node_account_id(cloud, res.name), at, ("gcp-account", project))
            if res.cluster.network is None:
                name("gcp_network", gke_network_name(cloud, res.name), at, ("gcp-network", project))
            if res.storage.bucket is None:
                name("gcs_bucket", gcs_bucket_name(cloud, res.name, "0" * GCS_SUFFIX), at)
            found.append(Use(("urn", "NodePool"), "Pulumi logical name", pool_logical_name(res.name, SYSTEM_POOL), at))
            for pool, loc in pool_locs:
                name("gke_pool", pool, loc)
                found.append(Use(("urn", "NodePool"), "Pulumi logical name", pool_logical_name(res.name, pool), loc))
    return found, bad


def _path(loc: Loc) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


def check_names(spec: StackSpec) -> list[tuple[Loc, str]]:
    """Problems as (config location, message): invalid derived names, then collisions,
    each collision reported at the later path and naming the earlier one."""
    found, problems = _uses(spec)
    seen: dict[tuple[tuple[str, ...], str], Use] = {}
    for use in found:
        key = (use.space, use.name.lower() if use.case_insensitive else use.name)
        first = seen.setdefault(key, use)
        if first is use:
            continue
        other = f"{_path(first.loc)} ({_resource_name(spec, first.loc)})"
        case = " (the cloud ignores case)" if use.case_insensitive and first.name != use.name else ""
        problems.append(
            (use.loc, f"gives the {use.what} {use.name!r}, which collides with {other}{case}; rename one of them")
        )
    return problems


def _resource_name(spec: StackSpec, loc: Loc) -> str:
    return spec.resources[loc[1]].name if loc[0] == "resources" else spec.cloud.name
