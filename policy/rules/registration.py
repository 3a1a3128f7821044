"""Cloud resource registrations: `Anyscale.Platform/clouds/cloudResources` (platform.md 1.1).

The program declares each one as the generic ARM resource
`azure-native:resources:Resource`; its `properties` are exactly the ARM type's."""

from __future__ import annotations

from typing import Any

from rules.plan_records import GENERIC_RESOURCE
from rules.platform import (
    PROVIDERS,
    REGISTRATION_PROPERTIES,
    REGISTRATION_READ_ONLY,
    REGISTRATION_REPLACING_PATHS,
    a_or_an,
    azure_endpoint_problem,
    bucket_problem,
    endpoint_problem,
    provider_spelling,
    region_problem,
)
from rules.values import MISSING, UNKNOWN, forget, get, in_passing, is_map, keys, mark, sample, type_is, unchecked

NAMESPACE = "anyscale.platform"
ARM_TYPE = "anyscale.platform/clouds/cloudresources"
KNOWN_PROPERTIES = REGISTRATION_PROPERTIES
# The ARM type marks these required; the endpoint is sent as "" where it does not apply.
REQUIRED_PROPERTIES = ("provider", "computeStack", "region", "cloudStorageBucketName", "cloudStorageBucketEndpoint")
READ_ONLY = set(REGISTRATION_READ_ONLY)


def is_registration(resource_type: str, props: Any) -> bool:
    """Inputs name the namespace and type; outputs (what a stack policy sees for a resource
    that already exists) carry the full ARM `type` instead. One whose namespace or type is
    not known yet is noted (`may_be_registration`): a registration check could not run."""
    return _registration(resource_type, props) is True


def may_be_registration(resource_type: str, props: Any) -> bool:
    """A generic ARM resource whose namespace or type is not known yet (a preview can hand
    over None): it may be a registration, so nothing that depends on the chain's order
    (which one is first) can be said around it."""
    return _registration(resource_type, props) is None


def _registration(resource_type: str, props: Any) -> bool | None:
    """Whether the resource is a registration; None when that is not known yet. Only the
    unknowns that leave it open are noted (a known namespace of another service settles it)."""
    if not type_is(resource_type, GENERIC_RESOURCE):
        return False
    start = mark()
    namespace, kind = get(props, "resourceProviderNamespace"), get(props, "resourceType")
    if isinstance(namespace, str) and isinstance(kind, str):
        return namespace.lower() == NAMESPACE and kind.split("/")[-1].lower() == "cloudresources"
    arm_type = get(props, "type")
    if isinstance(arm_type, str) and arm_type.lower() == ARM_TYPE:
        forget(start)
        return True
    if namespace is UNKNOWN or kind is UNKNOWN:
        ours = namespace is UNKNOWN or (isinstance(namespace, str) and namespace.lower() == NAMESPACE)
        cloud_resources = kind is UNKNOWN or (isinstance(kind, str) and kind.split("/")[-1].lower() == "cloudresources")
        if ours and cloud_resources:
            return None
    elif arm_type is UNKNOWN and namespace is MISSING and kind is MISSING:
        return None
    forget(start)
    return False


def registration_name(props: Any, fallback: str) -> Any:
    """The cloud resource's name on the platform (inputs: resourceName; outputs: name)."""
    for key in ("resourceName", "name"):
        value = get(props, key)
        if value is not MISSING:
            return value
    return fallback


def property_problems(props: Any) -> list[str]:
    properties = get(props, "properties")
    if properties is UNKNOWN:
        return []
    if properties is MISSING or not is_map(properties):
        return [
            "has no `properties`: a cloud resource needs provider, computeStack, region, "
            "cloudStorageBucketName and cloudStorageBucketEndpoint"
        ]
    provider = get(properties, "provider")
    problems = _unknown_keys(properties) + _missing_keys(properties)
    problems += _provider(provider)
    problems += _compute_stack(get(properties, "computeStack"))
    problems += _region("region", get(properties, "region"))
    problems += _region("cloudStorageBucketRegion", get(properties, "cloudStorageBucketRegion"), optional=True)
    known_provider = provider if provider in PROVIDERS else None
    problems += _bucket(get(properties, "cloudStorageBucketName"), known_provider)
    problems += _endpoint(get(properties, "cloudStorageBucketEndpoint"), known_provider)
    problems += _account(get(properties, "cloudStorageBucketName"), get(properties, "cloudStorageBucketEndpoint"))
    with in_passing():  # not known yet: an output feeds it, so it is set (see _identity)
        identity = get(properties, "anyscaleOperatorIamIdentity")
    if identity is UNKNOWN and known_provider == "Generic":
        unchecked(properties, "anyscaleOperatorIamIdentity")
    problems += _identity(identity, known_provider)
    return problems


def _unknown_keys(properties: Any) -> list[str]:
    extra = sorted(set(keys(properties)) - set(KNOWN_PROPERTIES))
    if not extra:
        return []
    read_only = [k for k in extra if k in READ_ONLY]
    hint = f" ({', '.join(read_only)} is read-only, assigned by the platform)" if read_only else ""
    return [
        f"properties {', '.join(extra)} do not exist on the ARM type{hint}: the platform rejects or "
        f"ignores them; remove them (the properties are {', '.join(KNOWN_PROPERTIES)})"
    ]


def _missing_keys(properties: Any) -> list[str]:
    missing = [k for k in REQUIRED_PROPERTIES if k not in keys(properties)]
    if not missing:
        return []
    return [
        f"properties {', '.join(missing)} are required by the ARM type: set them "
        '(cloudStorageBucketEndpoint as "" where it does not apply)'
    ]


def _provider(value: Any) -> list[str]:
    if value in (UNKNOWN, MISSING) or value in PROVIDERS:
        return []
    spelled = provider_spelling(value)
    hint = f"; write '{spelled}'" if spelled else ""
    return [
        f"properties.provider is {value!r}: it must be exactly one of {', '.join(PROVIDERS)} (case-sensitive in ARM){hint}"
    ]


def _compute_stack(value: Any) -> list[str]:
    if value in (UNKNOWN, MISSING, "K8S"):
        return []
    return [f"properties.computeStack is {value!r}: it must be 'K8S' (virtual-machine stacks are not supported)"]


def _region(key: str, value: Any, optional: bool = False) -> list[str]:
    if value in (UNKNOWN, MISSING) or (optional and value == ""):
        return []
    if not isinstance(value, str):
        return [f"properties.{key} must be a string like 'eastus2' (got {value!r})"]
    problem = region_problem(value, sample(value))
    return [f"properties.{key} {problem}"] if problem else []


def _bucket(value: Any, provider: str | None) -> list[str]:
    if value in (UNKNOWN, MISSING):
        return []
    if not isinstance(value, str) or not value:
        return ["properties.cloudStorageBucketName must be the bucket's URI, e.g. s3://<bucket>"]
    problem = bucket_problem(value, provider or "Generic", sample(value))
    return [f"properties.cloudStorageBucketName {problem}"] if problem else []


def _endpoint(value: Any, provider: str | None) -> list[str]:
    if value is UNKNOWN:
        return []
    if value is MISSING or value == "":
        if provider == "Azure":
            return [
                "properties.cloudStorageBucketEndpoint is empty: an Azure cloud resource needs the "
                "storage account's blob endpoint, https://<account>.blob.core.windows.net (no trailing slash)"
            ]
        return []
    if not isinstance(value, str):
        return [f"properties.cloudStorageBucketEndpoint must be a string (got {value!r})"]
    problem = endpoint_problem(value, sample(value))
    return [f"properties.cloudStorageBucketEndpoint {problem}"] if problem else []


def _account(bucket: Any, endpoint: Any) -> list[str]:
    """An abfss:// bucket's endpoint is its own account's blob endpoint (known parts compared)."""
    if not isinstance(bucket, str) or not isinstance(endpoint, str) or not endpoint:
        return []
    if bucket_problem(bucket, "Azure", sample(bucket)) or endpoint_problem(endpoint, sample(endpoint)):
        return []  # reported above
    problem = azure_endpoint_problem(bucket, endpoint, sample(bucket), sample(endpoint))
    return [f"properties.cloudStorageBucketEndpoint {problem}"] if problem else []


def _identity(value: Any, provider: str | None) -> list[str]:
    """Set (non-empty) on every cloud but Generic. An unknown value is an output feeding it:
    set, unless the cloud resource is Generic, where it should not be there at all."""
    if value is UNKNOWN or provider is None:
        return []
    absent = value is MISSING or value == ""
    if provider == "Generic":
        if absent:
            return []
        return [
            "properties.anyscaleOperatorIamIdentity is set on a Generic cloud resource: Generic has no "
            "cloud identity (the operator uses a CLI token); remove it"
        ]
    if absent:
        kind = {"Azure": "managed identity's principal ID", "AWS": "IAM role ARN", "GCP": "service account email"}[
            provider
        ]
        return [
            f"properties.anyscaleOperatorIamIdentity is not set: {a_or_an(provider)} cloud resource needs the operator's {kind}"
        ]
    return []


def replacement_problems(delete_before_replace: Any, replace_on_changes: Any) -> list[str]:
    """Properties are immutable and names unique (platform.md 1.2): a change of one the
    platform fixes must be a delete, then a create with the same name; anything else is an
    update. `replace_on_changes` is None where the caller cannot see it (a real engine does
    not pass it to policies)."""
    problems = []
    if delete_before_replace is not True:
        problems.append(
            "deleteBeforeReplace is not set: names are unique on the cloud, so the old registration "
            "must be deleted before its replacement is created; set delete_before_replace=True"
        )
    if replace_on_changes is not None:
        given = [str(p) for p in replace_on_changes]
        if "*" in given or "properties" in given:
            problems.append(
                f"replaceOnChanges is {given!r}: that replaces the cloud resource on any change, an apiVersion bump "
                "or a read-only field included, which the platform takes in place; list only the paths it fixes "
                "(the name, location, parent cloud and each property)"
            )
        missing = [p for p in REGISTRATION_REPLACING_PATHS if p not in given]
        if missing:
            problems.append(
                f"replaceOnChanges misses {missing!r}: the platform refuses to change them ('Cannot update fields "
                "in the existing cloud resource'), so a change must replace the record; list every fixed path"
            )
    return problems
