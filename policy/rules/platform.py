"""The platform's rules (platform.md 1.1, 1.2, 2, 3) as plain data and pure checks.

The one home of these rules: the policy pack reads them here, and the stack spec
(components/spec.py) wraps the same checks into its pydantic validators. Each check
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
REGISTRATION_REPLACING_PATHS = (
    "resourceName",
    "location",
    "parentResourcePath",
    "resourceGroupName",
    "resourceProviderNamespace",
    "resourceType",
    "properties.provider",
    "properties.computeStack",
    "properties.region",
    "properties.cloudStorageBucketName",
    "properties.cloudStorageBucketEndpoint",
    "properties.cloudStorageBucketRegion",
    "properties.anyscaleOperatorIamIdentity",
)
NAME_RE = re.compile(r"^[a-zA-Z0-9_-]+$")
MAX_NAME = 256
REGION_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_REGION = 35

# --- buckets and endpoints (platform.md 1.1, 2) ----------------------------------------------

# Scheme (and shape) of a bucket URI per provider; none allows a sub-path.
BUCKET_RES: dict[str, re.Pattern[str]] = {
    "Azure": re.compile(
        r"^(abfss://[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])?@[a-z0-9]{3,24}\.dfs\.core\.windows\.net"
        r"|azure://[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])?)$"
    ),
    "AWS": re.compile(r"^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$"),
    "GCP": re.compile(r"^gs://[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$"),
    "Generic": re.compile(r"^[a-z][a-z0-9+.-]*://[^/\s?#]+$"),
}
BUCKET_FORMS = {
    "Azure": "abfss://<container>@<account>.dfs.core.windows.net or azure://<container>",
    "AWS": "s3://<bucket>",
    "GCP": "gs://<bucket>",
    "Generic": "<scheme>://<bucket>",
}
ORIGIN_RE = re.compile(r"^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?$")

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
FEDERATION_AUDIENCE = "api://AzureADTokenExchange"
# GCP: the Workload Identity member bound to the operator's service account.
WORKLOAD_IDENTITY_MEMBER_RE = re.compile(
    rf"serviceAccount:[a-z0-9.:-]+\.svc\.id\.goog\[{OPERATOR_NAMESPACE}/{OPERATOR_SERVICE_ACCOUNT}\]"
)
WORKLOAD_IDENTITY_MEMBER_FORM = f"serviceAccount:<project>.svc.id.goog[{OPERATOR_NAMESPACE}/{OPERATOR_SERVICE_ACCOUNT}]"


# --- checks -----------------------------------------------------------------------------------


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


def bucket_problem(value: str, provider: str, checked: str | None = None) -> str | None:
    """A bucket URI of the provider's scheme: the bucket itself, no sub-path, no trailing '/'."""
    text = value if checked is None else checked
    form = BUCKET_FORMS[provider]
    _, sep, rest = text.partition("://")
    if sep and "/" in rest.rstrip("/"):
        return f"'{value}' has a sub-path; the platform takes the bucket itself only ({form})"
    if text.endswith("/"):
        return f"'{value}' must not end with '/' ({form})"
    if not BUCKET_RES[provider].fullmatch(text):
        return f"'{value}' is not a {provider} bucket URI; use {form}"
    return None


def endpoint_problem(value: str, checked: str | None = None) -> str | None:
    """A bucket endpoint: a bare https origin. A trailing slash silently breaks log delivery."""
    text = value if checked is None else checked
    if text.endswith("/"):
        return (
            f"'{value}' ends with '/': a trailing slash silently breaks log delivery; "
            f"use the bare origin '{value.rstrip('/')}'"
        )
    if not ORIGIN_RE.fullmatch(text):
        return f"'{value}' must be a bare https://<host> origin, with no path, query or trailing slash"
    return None
