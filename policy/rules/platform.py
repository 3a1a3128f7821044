"""The platform's rules (platform.md 1.1, 1.2, 2, 3) as plain data and pure checks.

The one home of these rules: the policy pack reads them here, and the stack spec
(config/) wraps the same checks into its pydantic validators. Each check
takes a value and answers None (fine) or the problem in words a user can act on,
without naming where the value came from: the caller adds that (`resources[1].region`
in the spec, `properties.region` in the pack).

Standard library only, and no import of the rest of the pack: the Pulumi CLI uploads
and runs policy/ alone (`pulumi policy publish`), and the project imports this module
as `policy.rules.platform` without the pack's folder on sys.path.
"""

from __future__ import annotations

import re

PROVIDERS = ("Azure", "AWS", "GCP", "Generic")

# --- names and regions (platform.md 1.1) ---------------------------------------------------

# Registration input paths whose change the platform refuses ("Cannot update fields in
# the existing cloud resource", 1.2): every property of the type (1.1), the record's name,
# its location and the cloud it belongs to (the rest of its ARM ID). Anything else
# (apiVersion) is a plain update, since an unchanged PUT is a no-op on the platform. The
# read-only fields (cloudResourceId, provisioningState) are not listed: azure-native diffs
# the stored inputs, never the outputs, and one that a refresh copies into the stored
# inputs then shows as a removal, an update, never a replacement.
# The registration's properties in the platform's order (platform.md 1.1), and the ones the
# platform fills in itself (read-only: accepted, never compared).
REGISTRATION_PROPERTIES = (
    "provider",
    "computeStack",
    "region",
    "cloudStorageBucketName",
    "cloudStorageBucketEndpoint",
    "cloudStorageBucketRegion",
    "anyscaleOperatorIamIdentity",
)
REGISTRATION_READ_ONLY = ("cloudResourceId", "provisioningState")
REGISTRATION_REPLACING_PATHS = (
    "resourceName",
    "location",
    "parentResourcePath",
    "resourceGroupName",
    "resourceProviderNamespace",
    "resourceType",
    *(f"properties.{key}" for key in REGISTRATION_PROPERTIES),
)
NAME_RE = re.compile(r"^[a-zA-Z0-9_-]+$")
MAX_NAME = 256
REGION_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_REGION = 35

# --- buckets and endpoints (platform.md 1.1, 2) ----------------------------------------------

BUCKET_FORMS = {
    "Azure": "abfss://<container>@<account>.dfs.core.windows.net or azure://<container>",
    "AWS": "s3://<bucket>",
    "GCP": "gs://<bucket>",
    "Generic": "<scheme>://<bucket>",
}
BUCKET_SCHEMES = {"Azure": ("abfss", "azure"), "AWS": ("s3",), "GCP": ("gs",), "Generic": ()}
SCHEME_RE = re.compile(r"^[a-z][a-z0-9+.-]*$")
AZURE_DFS_SUFFIX = ".dfs.core.windows.net"
AZURE_BLOB_SUFFIX = ".blob.core.windows.net"

# Naming rules, each checked against its cloud's documentation on 2026-12-01:
# S3: docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html (general purpose
# buckets): 3-63 characters of a-z 0-9 . -, a letter or digit at each end, no "..", not an
# IP address, and the reserved prefixes and suffixes below.
S3_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
S3_RESERVED_PREFIXES = ("xn--", "sthree-", "amzn-s3-demo-")
S3_RESERVED_SUFFIXES = ("-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3")
# GCS: cloud.google.com/storage/docs/buckets#naming: a-z 0-9 - _ ., a letter or digit at
# each end, 3-63 characters (up to 222 with dots, each dot-separated part at most 63), not
# an IP address, not starting with "goog", not containing "google".
GCS_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*[a-z0-9]$")
# Azure: learn.microsoft.com/azure/storage/common/storage-account-overview#storage-account-name
# (3-24 lowercase letters and digits) and learn.microsoft.com/rest/api/storageservices/
# naming-and-referencing-containers--blobs--and-metadata (containers: 3-63 of a-z 0-9 -, a
# letter or digit first, every hyphen between letters or digits).
AZURE_ACCOUNT_RE = re.compile(r"^[a-z0-9]{3,24}$")
AZURE_CONTAINER_RE = re.compile(r"^[a-z0-9](?:-?[a-z0-9])*$")
# A DNS host name (RFC 1123): labels of 1-63 letters, digits and inner hyphens, 253 in all.
HOST_LABEL_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
MAX_HOST = 253
IPV4_RE = re.compile(r"^[0-9]+(\.[0-9]+){3}$")

# --- the Azure control plane (platform.md 2, 4) ----------------------------------------------

CONSOLE_ORIGIN = "https://console.azure.anyscale.com"  # every bucket's CORS origin, the operator's controlPlaneURL
# Lists, as the provider SDKs take them (components/defaults.py can hand them on as they are).
CORS_METHODS = ["GET", "HEAD", "PUT", "POST", "DELETE"]
# S3 and GCS take explicit exposed headers (Azure Blob accepts "*"): ranged reads of logs.
CORS_EXPOSED_HEADERS = ["Accept-Ranges", "Content-Range", "Content-Length"]

# --- Azure built-in roles (platform.md 3; the same GUID in every tenant) ---------------------

# Checked against Microsoft's "Azure built-in roles" reference (learn.microsoft.com/azure/
# role-based-access-control/built-in-roles).
AZURE_ROLES: dict[str, str] = {
    "8e3af657-a8ff-443c-a75c-2fe8c4bcb635": "Owner",
    "b24988ac-6180-42a0-ab88-20f7382dd24c": "Contributor",
    "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9": "User Access Administrator",
    "f58310d9-a9f6-439a-9e8d-f62e7b41a168": "Role Based Access Control Administrator",
    "17d1049b-9a84-46fb-8f53-869881c3d3ab": "Storage Account Contributor",
    "acdd72a7-3385-48ef-bd42-f606fba81ae7": "Reader",
    "ba92f5b4-2d11-453d-a403-e96b0029c9fe": "Storage Blob Data Contributor",
    "b7e6dc6d-f1e8-4753-8033-0f276bb0955b": "Storage Blob Data Owner",
    "2a2b9908-6ea1-4ae2-8e65-a410df84e7d1": "Storage Blob Data Reader",
    "7f951dda-4ed3-4680-a7ca-43fe172d538d": "AcrPull",
    "8311e382-0749-4cb8-b61a-304f252e45ec": "AcrPush",
    "fb382eab-e894-4461-af04-94435c366c3f": "Container Registry Tasks Contributor",
    "4d97b98b-1d4f-4787-a291-c67834d212e7": "Network Contributor",
}
# Roles no identity of ours needs: they grant everything, the right to grant roles, or the
# storage account's keys (Storage Account Contributor: full data access through shared keys).
BROAD_ROLES: dict[str, str] = {
    guid: name
    for guid, name in AZURE_ROLES.items()
    if name
    in (
        "Owner",
        "Contributor",
        "User Access Administrator",
        "Role Based Access Control Administrator",
        "Storage Account Contributor",
    )
}

# --- the operator's identity (platform.md 3) -------------------------------------------------

OPERATOR_NAMESPACE = "anyscale-operator"
OPERATOR_SERVICE_ACCOUNT = "anyscale-operator"
# Azure: the subject (and audience) of the federated identity credential.
OPERATOR_SUBJECT = f"system:serviceaccount:{OPERATOR_NAMESPACE}:{OPERATOR_SERVICE_ACCOUNT}"
# Ray pods run as a service account of their own in the operator's namespace, with no
# Kubernetes rights and a cloud identity of its own (the bucket only): the chart's
# workloads.serviceAccount.name (anyscale-operator 1.8.0 templates/configmap_patches.yaml).
WORKLOAD_SERVICE_ACCOUNT = "anyscale-workloads"
WORKLOAD_SUBJECT = f"system:serviceaccount:{OPERATOR_NAMESPACE}:{WORKLOAD_SERVICE_ACCOUNT}"
# The service accounts a federated credential may trust: the operator's, and the Ray pods' in
# the operator's namespace or in any namespace of workloads.managedNamespaces (which the spec
# checks are Kubernetes namespace names: an RFC 1123 label, config/workloads.py).
NAMESPACE_PATTERN = r"[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?"
FEDERATED_SUBJECT_RE = re.compile(
    rf"system:serviceaccount:(?:{OPERATOR_NAMESPACE}:{OPERATOR_SERVICE_ACCOUNT}|{NAMESPACE_PATTERN}:{WORKLOAD_SERVICE_ACCOUNT})"
)
FEDERATED_SUBJECT_FORM = (
    f"{OPERATOR_SUBJECT} or system:serviceaccount:<namespace>:{WORKLOAD_SERVICE_ACCOUNT} (the Ray pods', in "
    f"{OPERATOR_NAMESPACE} or a managed namespace)"
)
FEDERATION_AUDIENCE = "api://AzureADTokenExchange"
# GCP: the Workload Identity member bound to the operator's service account, or to the Ray
# pods' in the operator's namespace or a managed one.
WORKLOAD_IDENTITY_MEMBER_RE = re.compile(
    rf"serviceAccount:[a-z0-9.:-]+\.svc\.id\.goog\[(?:{OPERATOR_NAMESPACE}/{OPERATOR_SERVICE_ACCOUNT}|{NAMESPACE_PATTERN}/{WORKLOAD_SERVICE_ACCOUNT})\]"
)
WORKLOAD_IDENTITY_MEMBER_FORM = (
    f"serviceAccount:<project>.svc.id.goog[{OPERATOR_NAMESPACE}/{OPERATOR_SERVICE_ACCOUNT}] "
    f"(or ...[<namespace>/{WORKLOAD_SERVICE_ACCOUNT}] for the Ray pods' account, in {OPERATOR_NAMESPACE} or a "
    "managed namespace)"
)

# --- checks -----------------------------------------------------------------------------------


def a_or_an(word: str) -> str:
    """`word` after its article, as English reads it: 'an Azure', 'an AWS', 'a GCP', 'a Generic'."""
    return f"{'an' if word[:1].lower() in tuple('aeiou') else 'a'} {word}"


def provider_spelling(value: object) -> str | None:
    """The platform's spelling of a provider name given in any casing (None: not a provider)."""
    if isinstance(value, str):
        for provider in PROVIDERS:
            if value.strip().lower() == provider.lower():
                return provider
    return None


def name_problem(value: str) -> str | None:
    """A cloud's or cloud resource's name: ^[a-zA-Z0-9_-]+$, at most 256 characters."""
    if len(value) > MAX_NAME:
        return f"must be at most {MAX_NAME} characters (it has {len(value)})"
    if not NAME_RE.fullmatch(value):
        return f"'{value}' may contain only letters, digits, '-' and '_' ({NAME_RE.pattern})"
    if not any(char.isalnum() for char in value):
        return (
            f"'{value}' must contain at least one letter or digit (names of only '-' and '_' make no valid cloud names)"
        )
    return None


def region_problem(value: str, checked: str | None = None) -> str | None:
    """A region's pattern and length (whether the provider has it is the caller's concern).
    `checked`: the text to check when it differs from what is shown (a plan value with
    its placeholders sampled); `value` is what the message quotes."""
    text = value if checked is None else checked
    if len(text) > MAX_REGION:
        return f"must be at most {MAX_REGION} characters (it has {len(text)})"
    if not REGION_RE.fullmatch(text):
        hint = (
            f" (did you mean '{value.lower()}'? casing is never converted)" if REGION_RE.fullmatch(text.lower()) else ""
        )
        return f"'{value}' must be lowercase letters and digits in dash-separated groups ({REGION_RE.pattern}){hint}"
    return None


def _authority_problem(authority: str) -> str | None:
    """What is wrong with a URI's authority part (`host[:port]`), if anything."""
    if "@" in authority:
        return "carries user information (`user[:password]@`): credentials never go in a URI"
    host, colon, port = authority.rpartition(":") if ":" in authority else (authority, "", "")
    if colon and (not port.isascii() or not port.isdigit() or not 1 <= int(port) <= 65535):
        return f"has the port '{port}'; a port is a number from 1 to 65535"
    return host_problem(host)


def host_problem(host: str) -> str | None:
    """A host name of DNS labels, or an IPv4 address; None when it is one."""
    if not host:
        return "has no host"
    if IPV4_RE.fullmatch(host):
        return (
            None
            if all(int(part) <= 255 and str(int(part)) == part for part in host.split("."))
            else (f"has the host '{host}', which is not an IPv4 address")
        )
    if len(host) > MAX_HOST:
        return f"has a host of {len(host)} characters; a host name has at most {MAX_HOST}"
    bad = next((label for label in host.split(".") if not HOST_LABEL_RE.fullmatch(label)), None)
    if bad is not None:
        return (
            f"has the host label '{bad}'; each dot-separated label is 1-63 letters, digits and "
            "hyphens, with no hyphen at either end"
        )
    return None


def s3_name_problem(name: str) -> str | None:
    if not S3_NAME_RE.fullmatch(name):
        return "an S3 bucket name is 3-63 lowercase letters, digits, '.' and '-', a letter or digit at each end"
    if ".." in name:
        return "an S3 bucket name has no two adjacent periods"
    if IPV4_RE.fullmatch(name):
        return "an S3 bucket name is not formatted as an IP address"
    if name.startswith(S3_RESERVED_PREFIXES) or name.endswith(S3_RESERVED_SUFFIXES):
        return "an S3 bucket name does not start with xn--, sthree- or amzn-s3-demo-, nor end with a reserved suffix"
    return None


def gcs_name_problem(name: str) -> str | None:
    parts = name.split(".")
    longest = 222 if len(parts) > 1 else 63
    if not GCS_NAME_RE.fullmatch(name) or not 3 <= len(name) <= longest or any(not p for p in parts):
        return (
            "a GCS bucket name is 3-63 lowercase letters, digits, '-', '_' and '.' (up to 222 with dots), "
            "a letter or digit at each end"
        )
    if any(len(p) > 63 for p in parts):
        return "each dot-separated part of a GCS bucket name is at most 63 characters"
    if IPV4_RE.fullmatch(name):
        return "a GCS bucket name is not formatted as an IP address"
    if name.startswith("goog") or "google" in name:
        return "a GCS bucket name does not start with 'goog' nor contain 'google'"
    return None


def azure_container_problem(name: str) -> str | None:
    if not 3 <= len(name) <= 63 or not AZURE_CONTAINER_RE.fullmatch(name):
        return (
            "an Azure container name is 3-63 lowercase letters, digits and '-', a letter or digit first, "
            "each hyphen between letters or digits"
        )
    return None


def azure_account_of(bucket: str) -> str | None:
    """The storage account an `abfss://<container>@<account>.dfs.core.windows.net` URI names."""
    _, _, rest = bucket.partition("://")
    if not bucket.startswith("abfss://") or "@" not in rest:
        return None
    host = rest.rsplit("@", 1)[1]
    return host[: -len(AZURE_DFS_SUFFIX)] if host.endswith(AZURE_DFS_SUFFIX) else None


def _bucket_name_problem(scheme: str, rest: str, provider: str) -> str | None:
    if scheme == "abfss":
        container, at, host = rest.partition("@")
        if not at or not host.endswith(AZURE_DFS_SUFFIX):
            return "has no storage account: use abfss://<container>@<account>.dfs.core.windows.net"
        account = host[: -len(AZURE_DFS_SUFFIX)]
        if not AZURE_ACCOUNT_RE.fullmatch(account):
            return f"names the storage account '{account}'; an account name is 3-24 lowercase letters and digits"
        return azure_container_problem(container)
    if "@" in rest:
        return "carries user information (`user[:password]@`): credentials never go in a URI"
    if scheme == "azure":
        return azure_container_problem(rest)
    if scheme == "s3" and provider == "AWS":
        return s3_name_problem(rest)
    if scheme == "gs":
        return gcs_name_problem(rest)
    # Generic: any scheme (S3-compatible stores have their own naming rules), an authority.
    return _authority_problem(rest)


USERINFO_RE = re.compile(r"(//)[^/?#]*@")


def masked(value: str) -> str:
    """A URI as a message may show it: user information (a password) never echoed. An
    abfss:// URI's `container@account` is its bucket, not user information."""
    if value.lower().startswith("abfss://"):
        return value
    return USERINFO_RE.sub(r"\1***@", value)


def _masked_problem(value: str, problem: str | None) -> str | None:
    """A URI check's message, showing the value with its user information masked."""
    if problem is None or not isinstance(value, str):
        return problem
    return problem.replace(value, masked(value)).replace(value.rstrip("/"), masked(value.rstrip("/")))


def bucket_problem(value: str, provider: str, checked: str | None = None) -> str | None:
    return _masked_problem(value, _bucket_problem(value, provider, checked))


def endpoint_problem(value: str, checked: str | None = None) -> str | None:
    return _masked_problem(value, _endpoint_problem(value, checked))


def _bucket_problem(value: str, provider: str, checked: str | None = None) -> str | None:
    """A bucket URI of the provider's scheme: the bucket itself, no sub-path, no trailing '/',
    a name its cloud accepts, never user information. `checked`: the text to check when
    it differs from what is shown (placeholders sampled)."""
    text = value if checked is None else checked
    form = BUCKET_FORMS[provider]
    scheme, sep, rest = text.partition("://")
    if sep and "/" in rest.rstrip("/"):
        return f"'{value}' has a sub-path; the platform takes the bucket itself only ({form})"
    if text.endswith("/"):
        return f"'{value}' must not end with '/' ({form})"
    schemes = BUCKET_SCHEMES[provider]
    if (
        not sep
        or not SCHEME_RE.fullmatch(scheme)
        or (schemes and scheme not in schemes)
        or any(c in rest for c in "?#")
    ):
        return f"'{value}' is not {a_or_an(provider)} bucket URI; use {form}"
    if any(c.isspace() for c in rest) or not rest:
        return f"'{value}' is not {a_or_an(provider)} bucket URI; use {form}"
    problem = _bucket_name_problem(scheme, rest, provider)
    return f"'{value}' {problem}" if problem else None


def _endpoint_problem(value: str, checked: str | None = None) -> str | None:
    """A bucket endpoint: a bare https origin. A trailing slash silently breaks log delivery."""
    text = value if checked is None else checked
    if text.endswith("/"):
        return (
            f"'{value}' ends with '/': a trailing slash silently breaks log delivery; "
            f"use the bare origin '{value.rstrip('/')}'"
        )
    scheme, sep, authority = text.partition("://")
    if scheme != "https" or not sep or any(c in authority for c in "/?#") or any(c.isspace() for c in authority):
        return f"'{value}' must be a bare https://<host> origin, with no path, query or trailing slash"
    problem = _authority_problem(authority)
    return f"'{value}' {problem}" if problem else None


def azure_endpoint_problem(
    bucket: str, endpoint: str, checked_bucket: str | None = None, checked_endpoint: str | None = None
) -> str | None:
    """An existing Azure bucket's endpoint is its own storage account's blob endpoint."""
    account = azure_account_of(bucket if checked_bucket is None else checked_bucket)
    if account is None:
        return None  # azure://<container> names no account
    checked = endpoint if checked_endpoint is None else checked_endpoint
    if checked.lower() != f"https://{account}{AZURE_BLOB_SUFFIX}":
        shown = azure_account_of(bucket) or account
        return (
            f"'{endpoint}' is not the blob endpoint of the bucket's storage account '{shown}'; "
            f"use https://{shown}{AZURE_BLOB_SUFFIX}"
        )
    return None
