"""Buckets we create: locked down (no public access, TLS, no shared keys, encrypted) and
carrying the console's CORS rule (platform.md 2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.plan_records import GCS_BUCKET
from rules.values import MISSING, UNKNOWN, could_be, elements, forget, get, is_list, mark, strings, type_is

STORAGE_ACCOUNT = "azure-native:storage:StorageAccount"
BLOB_CONTAINER = "azure-native:storage:BlobContainer"
BLOB_SERVICE = "azure-native:storage:BlobServiceProperties"
S3_BUCKETS = ("aws:s3/bucket:Bucket", "aws:s3/bucketV2:BucketV2")
S3_PUBLIC_ACCESS_BLOCK = ("aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock",)
S3_ENCRYPTION = (
    "aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration",
    "aws:s3/bucketServerSideEncryptionConfigurationV2:BucketServerSideEncryptionConfigurationV2",
)
S3_CORS = (
    "aws:s3/bucketCorsConfiguration:BucketCorsConfiguration",
    "aws:s3/bucketCorsConfigurationV2:BucketCorsConfigurationV2",
)
S3_ACL = ("aws:s3/bucketAcl:BucketAcl", "aws:s3/bucketAclV2:BucketAclV2")
# The resources that hold data: what retainOnDelete is about.
DATA_STORES = (STORAGE_ACCOUNT, BLOB_CONTAINER, *S3_BUCKETS, GCS_BUCKET)

S3_BLOCK_FLAGS = ("blockPublicAcls", "blockPublicPolicy", "ignorePublicAcls", "restrictPublicBuckets")
S3_PUBLIC_ACLS = {"public-read", "public-read-write", "authenticated-read"}
S3_SSE_ALGORITHMS = {"AES256", "aws:kms", "aws:kms:dsse"}


def is_s3_bucket(resource_type: str) -> bool:
    return type_is(resource_type, *S3_BUCKETS)


# --- Azure ------------------------------------------------------------------------------


def azure_account_problems(props: Any, tls_versions: list[str]) -> list[str]:
    """Explicit settings, not the API's defaults: the defaults differ between API versions
    and a reviewer should see the choice."""
    problems = []
    https = get(props, "enableHttpsTrafficOnly")
    if https is not UNKNOWN and https is not True:
        problems.append("enableHttpsTrafficOnly is not true: set enable_https_traffic_only=True (HTTPS only)")
    tls = get(props, "minimumTlsVersion")
    if tls is not UNKNOWN and tls not in tls_versions:
        got = "not set" if tls is MISSING else f"{tls!r}"
        problems.append(f"minimumTlsVersion is {got}: set minimum_tls_version to {' or '.join(tls_versions)}")
    public = get(props, "allowBlobPublicAccess")
    if public is not UNKNOWN and public is not False:
        problems.append("allowBlobPublicAccess is not false: set allow_blob_public_access=False (no anonymous reads)")
    shared_key = get(props, "allowSharedKeyAccess")
    if shared_key is not UNKNOWN and shared_key is not False:
        problems.append(
            "allowSharedKeyAccess is not false: set allow_shared_key_access=False (Entra ID only; "
            "account keys grant full access and cannot be scoped)"
        )
    return problems


def azure_container_problems(props: Any) -> list[str]:
    access = get(props, "publicAccess")
    if access in (UNKNOWN, MISSING, "None"):
        return []
    return [f"publicAccess is {access!r}: the container must be private; set public_access='None'"]


# --- S3 ---------------------------------------------------------------------------------


def s3_block_problems(props: Any) -> list[str]:
    off = [flag for flag in S3_BLOCK_FLAGS if get(props, flag) not in (True, UNKNOWN)]
    if not off:
        return []
    return [f"{', '.join(off)} not true: block all public access (set all four of {', '.join(S3_BLOCK_FLAGS)} to true)"]


def s3_encryption_problems(rules: Any) -> list[str]:
    """`rules`: the rules of an encryption configuration resource (a list), or the inline
    `rule` of a bucket's `serverSideEncryptionConfiguration` (one map)."""
    if rules is UNKNOWN:
        return []
    start = mark()
    listed = elements(rules) if is_list(rules) else [rules]
    algorithms = [get(rule, "applyServerSideEncryptionByDefault", "sseAlgorithm") for rule in listed]
    if any(isinstance(a, str) and a in S3_SSE_ALGORITHMS for a in algorithms):
        forget(start)  # one known rule is enough
        return []
    if UNKNOWN in algorithms:
        return []
    return [
        "has no default encryption rule: add one with apply_server_side_encryption_by_default "
        f"sse_algorithm {' or '.join(sorted(S3_SSE_ALGORITHMS))}"
    ]


def s3_acl_problems(props: Any) -> list[str]:
    acl = get(props, "acl")
    if isinstance(acl, str) and acl in S3_PUBLIC_ACLS:
        return [f"acl is {acl!r}: the bucket must be private; remove the canned ACL"]
    return []


def s3_inline_encryption(props: Any) -> Any:
    """A bucket's own (older, inline) encryption rule: UNKNOWN, MISSING or the rule."""
    return get(props, "serverSideEncryptionConfiguration", "rule")


def s3_bucket_problems(props: Any) -> list[str]:
    problems = s3_acl_problems(props)
    inline = s3_inline_encryption(props)
    if inline is not MISSING:
        problems += s3_encryption_problems(inline)
    return problems


# --- GCS --------------------------------------------------------------------------------


def gcs_bucket_problems(props: Any) -> list[str]:
    problems = []
    uniform = get(props, "uniformBucketLevelAccess")
    if uniform is not UNKNOWN and uniform is not True:
        problems.append(
            "uniformBucketLevelAccess is not true: set uniform_bucket_level_access=True (IAM only, no object ACLs)"
        )
    prevention = get(props, "publicAccessPrevention")
    if prevention is not UNKNOWN and prevention != "enforced":
        got = "not set" if prevention is MISSING else f"{prevention!r}"
        problems.append(f"publicAccessPrevention is {got}: set public_access_prevention='enforced'")
    return problems


# --- the console's CORS rule --------------------------------------------------------------


@dataclass(frozen=True)
class CorsShape:
    """Where each provider keeps the parts of a CORS rule."""

    rules: tuple[str, ...]  # path to the list of rules
    origins: str
    methods: str
    allowed_headers: str | None  # GCS has no allowed-headers setting
    exposed_headers: str


AZURE_CORS = CorsShape(("cors", "corsRules"), "allowedOrigins", "allowedMethods", "allowedHeaders", "exposedHeaders")
S3_CORS_SHAPE = CorsShape(("corsRules",), "allowedOrigins", "allowedMethods", "allowedHeaders", "exposeHeaders")
GCS_CORS = CorsShape(("cors",), "origins", "methods", None, "responseHeaders")


@dataclass(frozen=True)
class CorsRule:
    origin: str
    methods: list[str]
    exposed_headers: list[str]


def cors_problems(props: Any, shape: CorsShape, want: CorsRule) -> list[str]:
    """The problems of the best rule for the console's origin ([] when one is complete)."""
    rules = get(props, *shape.rules)
    if rules is UNKNOWN:
        return []
    if rules is MISSING or not is_list(rules) or not len(rules):
        return [_no_rule(want)]
    candidates = []
    for rule in elements(rules):
        origins = strings(get(rule, shape.origins)) if rule is not UNKNOWN else UNKNOWN
        if origins is UNKNOWN or UNKNOWN in origins:
            return []  # this rule may be the one: cannot tell before the value is known
        if want.origin in origins:
            candidates.append(rule)
    if not candidates:
        return [_no_rule(want)]
    findings = [_rule_problems(rule, shape, want) for rule in candidates]
    return [] if [] in findings else findings[0]


def _no_rule(want: CorsRule) -> str:
    return (
        f"has no CORS rule for the console origin {want.origin}: the console reads logs straight from "
        f"the bucket; add a rule allowing {', '.join(want.methods)} from {want.origin}, headers *, "
        f"exposing {', '.join(want.exposed_headers)}"
    )


def _rule_problems(rule: Any, shape: CorsShape, want: CorsRule) -> list[str]:
    problems = []
    methods = strings(get(rule, shape.methods))
    if methods is not UNKNOWN and UNKNOWN not in methods:
        have = {m.upper() for m in methods}
        lacking = [m for m in want.methods if m.upper() not in have]
        if lacking:
            problems.append(
                f"the CORS rule for {want.origin} lacks methods {', '.join(lacking)}: allow {', '.join(want.methods)}"
            )
    if shape.allowed_headers is not None:
        headers = strings(get(rule, shape.allowed_headers))
        if headers is not UNKNOWN and UNKNOWN not in headers and "*" not in headers:
            problems.append(
                f"the CORS rule for {want.origin} must allow all request headers: set allowed headers to ['*']"
            )
    exposed = strings(get(rule, shape.exposed_headers))
    if exposed is not UNKNOWN and UNKNOWN not in exposed and "*" not in exposed:
        have = {h.lower() for h in exposed}
        lacking = [h for h in want.exposed_headers if h.lower() not in have]
        if lacking:
            problems.append(
                f"the CORS rule for {want.origin} does not expose {', '.join(lacking)}: the console needs them "
                "for ranged reads of logs; expose them (or '*')"
            )
    return problems


def cors_origin_problems(props: Any, shape: CorsShape, console: str, extra: list[str]) -> list[str]:
    """Origins allowed beyond the console's: a bucket readable from any web page (`*`), over
    plain http, or from a site nobody listed. `extra`: https origins a team added on purpose."""
    rules = get(props, *shape.rules)
    if not is_list(rules):
        return []
    allowed = {console, *(o for o in extra if o != "*" and o.startswith("https://"))}
    found: list[str] = []
    for rule in elements(rules):
        origins = strings(get(rule, shape.origins)) if rule is not UNKNOWN else UNKNOWN
        if origins is UNKNOWN:
            continue
        # An origin with placeholders counts by its known parts: flagged when no allowed
        # origin could be what it becomes.
        found += [o for o in origins if o is not UNKNOWN and not could_be(o, sorted(allowed)) and o not in found]
    if not found:
        return []
    worst = " ('*' lets any web page read the bucket with the user's browser)" if "*" in found else ""
    return [
        f"the CORS rules also allow {', '.join(repr(o) for o in found)}{worst}: only the console ({console}) reads "
        "logs from the browser; remove them (or list a needed https origin in the cors-origins policy's extraOrigins)"
    ]
