"""The rules across adopted IDs and the rest of the stack (config/adopt.py has the keys):
what an import would find that the stack can know offline, and the adoptions that would
replace a registration whatever Azure holds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from config.adopt import AZURE_ONLY, ResourceAdoptSpec, parse_arm_id
from config.types import Deferred

# The whole stack (config/stack.py's StackSpec, which calls these rules): typed loosely
# here, since naming it would make the two modules import each other.
StackSpec = Any

Loc = tuple[Any, ...]
CONTAINER_NAME = "anyscale"  # the container the program creates (components/azure/bucket.py)
NEVER_CHANGES = (
    "the platform never changes a registration's properties (platform.md 1.2), so the import fails, or once "
    "imported `pulumi up` deletes and re-creates it"
)


def expected_bucket(res: Any) -> tuple[str, str] | None:
    """The registration's bucket name and endpoint as the stack decides them offline, or None
    when the program creates the bucket (a random name, known only after the deploy)."""
    if res.storage.bucket is not None:
        return res.storage.bucket, res.storage.endpoint or ""
    account = res.adopt.name_of("storageAccount")
    if res.provider_name == "Azure" and account:
        container = res.adopt.name_of("container") or CONTAINER_NAME
        # Blob and DFS endpoints of an account in Azure's public cloud, where the platform runs.
        return f"abfss://{container}@{account}.dfs.core.windows.net", f"https://{account}.blob.core.windows.net"
    return None


def expected_properties(res: Any) -> dict[str, str | None]:
    """The registration properties the stack decides offline (None: known only after the deploy)."""
    bucket = expected_bucket(res)
    return {
        "provider": res.provider_name,
        "computeStack": "K8S",
        "region": res.region,
        "cloudStorageBucketName": bucket[0] if bucket else None,
        "cloudStorageBucketEndpoint": bucket[1] if bucket else None,
        "cloudStorageBucketRegion": res.bucket_region,
    }


def _where(i: int, key: str) -> Loc:
    return ("resources", i, "adopt", key)


def _ids(spec: StackSpec) -> Iterator[tuple[Loc, str]]:
    for key, value in (
        ("resourceGroup", spec.cloud.adopt.resource_group),
        ("registry", spec.cloud.adopt.registry),
        ("cloud", spec.cloud.adopt.cloud),
    ):
        if value is not None:
            yield ("cloud", "adopt", key), value
    for i, res in enumerate(spec.resources):
        for key, value in res.adopt.ids().items():
            yield _where(i, key), value


def adoption_problems(spec: StackSpec) -> list[tuple[Loc, str]]:
    """Every problem as (config location, message)."""
    problems: list[tuple[Loc, str]] = []
    cloud = spec.cloud
    group = cloud.resource_group
    first_subscription: tuple[Loc, str] | None = None
    for loc, value in _ids(spec):
        parsed = parse_arm_id(value)
        if parsed is None:  # refused by the field's own check
            continue
        # A group given as another resource's Output is not known here: the import itself
        # checks it then.
        if not isinstance(group, Deferred) and parsed.resource_group != group:
            problems.append(
                (
                    loc,
                    f"names resource group '{parsed.resource_group}', but the program keeps the cloud in "
                    f"cloud.resourceGroup '{group}' and imports it there, so the import would fail; set "
                    "cloud.resourceGroup to the group the existing cloud is in",
                )
            )
        if first_subscription is None:
            first_subscription = (loc, parsed.subscription)
        elif parsed.subscription != first_subscription[1]:
            problems.append(
                (
                    loc,
                    f"is in subscription {parsed.subscription}, but {_path(first_subscription[0])} is in "
                    f"{first_subscription[1]}: the program deploys to one subscription",
                )
            )
    adopt = cloud.adopt
    record = parse_arm_id(adopt.cloud) if adopt.cloud else None
    if record is not None and record.name != cloud.name:
        problems.append(
            (
                ("cloud", "adopt", "cloud"),
                f"names the cloud '{record.name}', but cloud.name is '{cloud.name}': the record's name is part of its "
                f"ID and never changes; set cloud.name to '{record.name}'",
            )
        )
    if adopt.cloud and not adopt.resource_group:
        problems.append(
            (
                ("cloud", "adopt", "resourceGroup"),
                "an existing cloud's resource group exists too: adopt it as well, or the program tries to create it",
            )
        )
    for i, res in enumerate(spec.resources):
        problems += _resource_problems(i, res, spec)
    return problems


def _path(loc: Loc) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


def _resource_problems(i: int, res: Any, spec: StackSpec) -> list[tuple[Loc, str]]:
    adopt: ResourceAdoptSpec = res.adopt
    problems: list[tuple[Loc, str]] = []
    if res.provider_name != "Azure":
        for key in AZURE_ONLY:
            if key in adopt.ids():
                problems.append(
                    (
                        _where(i, key),
                        f"only an Azure (AKS) resource adopts a {key}; this {res.provider_name} resource adopts its "
                        "registration only",
                    )
                )
    if adopt.storage_account and res.storage.bucket is not None:
        problems.append(
            (
                _where(i, "storageAccount"),
                "storage.bucket names an existing bucket, so the program creates no storage account to adopt: "
                "drop one of the two",
            )
        )
    container = parse_arm_id(adopt.container) if adopt.container else None
    if container is not None and container.names()[0] != adopt.name_of("storageAccount"):
        problems.append(
            (
                _where(i, "container"),
                f"is in storage account '{container.names()[0]}', not the adopted '{adopt.name_of('storageAccount')}'",
            )
        )
    extension = parse_arm_id(adopt.operator_extension) if adopt.operator_extension else None
    if extension is not None and extension.names()[0] != adopt.name_of("cluster"):
        problems.append(
            (
                _where(i, "operatorExtension"),
                f"is on cluster '{extension.names()[0]}', not the adopted '{adopt.name_of('cluster')}'",
            )
        )
    if adopt.registration:
        problems += _registration_problems(i, res, spec)
    return problems


def _registration_problems(i: int, res: Any, spec: StackSpec) -> list[tuple[Loc, str]]:
    adopt: ResourceAdoptSpec = res.adopt
    parsed = parse_arm_id(str(adopt.registration))
    if parsed is None:
        return []
    at = _where(i, "registration")
    problems: list[tuple[Loc, str]] = []
    cloud_name, name = parsed.names()
    if cloud_name != spec.cloud.name:
        problems.append((at, f"is a cloud resource of cloud '{cloud_name}', not of cloud.name '{spec.cloud.name}'"))
    if name != res.name:
        problems.append(
            (
                at,
                f"names the cloud resource '{name}', but this resource is named '{res.name}': the name is part of "
                f"its ID and never changes; set resources[{i}].name to '{name}'",
            )
        )
    if not spec.cloud.adopt.cloud:
        problems.append((at, "a registration is a child of its cloud record: adopt it too (cloud.adopt.cloud)"))
    # What the registration records that the program would make anew: a new value there
    # replaces the registration, whatever the rest matches.
    if expected_bucket(res) is None:
        how = "adopt.storageAccount" if res.provider_name == "Azure" else "storage.bucket"
        problems.append(
            (
                at,
                "the registration records its bucket, and the program would create a new one with a new name: "
                f"{NEVER_CHANGES}; name the existing bucket ({how})",
            )
        )
    if res.provider_name == "Azure" and not adopt.identity:
        problems.append(
            (
                at,
                "the registration records the operator identity's principal ID, and the program would create a new "
                f"identity: {NEVER_CHANGES}; adopt the identity (adopt.identity)",
            )
        )
    if res.provider_name in ("AWS", "GCP"):
        problems.append(
            (
                at,
                f"the registration records the operator's {res.provider_name} identity, which this program creates "
                f"anew (it adopts Azure resources only): {NEVER_CHANGES}",
            )
        )
    problems += _property_problems(i, res)
    return problems


def _property_problems(i: int, res: Any) -> list[tuple[Loc, str]]:
    """The existing registration's properties (as copied into the stack) against the stack's."""
    existing = res.adopt.registration_properties
    if existing is None:
        return []
    problems: list[tuple[Loc, str]] = []
    for key, ours in expected_properties(res).items():
        theirs = existing.get(key)
        if ours is None or theirs is None or theirs == ours:
            continue  # known only after the deploy, or not copied
        problems.append(
            (
                _where(i, "registrationProperties") + (key,),
                f"the existing registration has {key} '{theirs}', but the stack sends '{ours}': {NEVER_CHANGES}; "
                "change the stack to match",
            )
        )
    identity = existing.get("anyscaleOperatorIamIdentity")
    if res.provider_name == "Generic" and identity:
        problems.append(
            (
                _where(i, "registrationProperties") + ("anyscaleOperatorIamIdentity",),
                f"the existing registration has an operator identity '{identity}', but a Generic resource has none: "
                f"{NEVER_CHANGES}",
            )
        )
    return problems
