"""Names: the physical names the clouds see and the Pulumi logical names of resources
whose names come from config (platform.md 9.3).

One definition, used twice: the components call these functions to name what they
create, and the spec (config/derived_names.py) calls the same functions to check every
derived name against the cloud's real limits and for collisions, before a resource is
declared. A leaf: it imports nothing of the project, so both sides can import it.
A name the cloud makes globally unique carries a random suffix (a `RandomString` the
component creates); the spec checks such names with the longest suffix there can be.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

# Suffix lengths of the globally unique names (the RandomStrings' `length`).
REGISTRY_SUFFIX = 8
STORAGE_ACCOUNT_SUFFIX = 6
S3_SUFFIX = 8
GCS_SUFFIX = 6
SYSTEM_POOL = "system"
# Reserved prefixes and suffixes of S3 bucket names, and GCS's reserved spellings.
S3_RESERVED = r"^(xn--|sthree-|amzn-s3-demo-)|(-s3alias|--ol-s3|\.mrap|--x-s3|--table-s3)$"
GCS_RESERVED = r"^goog|g[o0]{2}g[l1]e"
# A name that would start with (or hold) a reserved part gets this prefix (or loses it).
SAFE_PREFIX = "anyscale-"
# A name cut at its cloud's limit ends in '-' and this many hex characters of a hash of
# the whole name, so that names which differ only past the cut stay apart (40 resources
# `gcp-usc1-1` ... `gcp-usc1-40` would otherwise all get one service account ID).
HASH_LENGTH = 6


@dataclass(frozen=True)
class Rule:
    """A cloud's limit on one kind of name."""

    what: str
    min_length: int
    max_length: int
    pattern: str  # the whole name must match (re.fullmatch: no trailing newline slips by)
    form: str  # the rule in words, for the error message
    # Parts the cloud reserves even where the pattern allows them (re.search).
    reserved: str | None = None

    def allows(self, name: str) -> bool:
        """Length and pattern (not the reserved parts)."""
        return self.min_length <= len(name) <= self.max_length and re.fullmatch(self.pattern, name) is not None

    def problem(self, name: str) -> str | None:
        if not self.allows(name):
            return f"gives the {self.what} {name!r}, which the cloud rejects: {self.form}"
        if self.reserved and re.search(self.reserved, name):
            return f"gives the {self.what} {name!r}, which uses a part the cloud reserves ({self.reserved})"
        return None


RULES = {
    "registry": Rule("container registry name", 5, 50, r"[a-zA-Z0-9]+", "5-50 letters and digits"),
    "storage_account": Rule("storage account name", 3, 24, r"[a-z0-9]+", "3-24 lowercase letters and digits"),
    "aks_cluster": Rule(
        "AKS cluster name",
        1,
        63,
        r"[a-zA-Z0-9]([-_a-zA-Z0-9]*[a-zA-Z0-9])?",
        "1-63 letters, digits, '-' and '_', starting and ending with a letter or digit",
    ),
    "aks_dns_prefix": Rule(
        "AKS dnsPrefix",
        1,
        54,
        r"[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?",
        "1-54 letters, digits and '-', starting and ending with a letter or digit",
    ),
    # A pool's name is the user's, not derived: the spec's AksPoolName checks it with this rule.
    "aks_pool": Rule(
        "AKS node pool name",
        1,
        12,
        r"[a-z][a-z0-9]{0,11}",
        "at most 12 characters, lowercase letters and digits, starting with a letter",
    ),
    "azure_vnet": Rule(
        "virtual network name",
        2,
        64,
        r"[a-zA-Z0-9]([-._a-zA-Z0-9]*[_a-zA-Z0-9])?",
        "2-64 letters, digits, '-', '.' and '_', starting with a letter or digit, ending with a letter, digit or '_'",
    ),
    "azure_identity": Rule(
        "managed identity name",
        3,
        128,
        r"[a-zA-Z0-9][-_a-zA-Z0-9]*",
        "3-128 letters, digits, '-' and '_', starting with a letter or digit",
    ),
    "eks_cluster": Rule(
        "EKS cluster name",
        1,
        100,
        r"[a-zA-Z0-9][-_a-zA-Z0-9]*",
        "1-100 letters, digits, '-' and '_', starting with a letter or digit",
    ),
    "eks_node_group": Rule(
        "EKS node group name",
        1,
        63,
        r"[a-zA-Z0-9][-_a-zA-Z0-9]*",
        "1-63 letters, digits, '-' and '_', starting with a letter or digit",
    ),
    # Pulumi autonames IAM roles: logical name + "-" + 7 random hex characters.
    "iam_role": Rule(
        "IAM role name", 1, 64, r"[\w+=,.@-]+", "1-64 of letters, digits and +=,.@_- (Pulumi adds 8 characters)"
    ),
    "s3_bucket": Rule(
        "S3 bucket name",
        3,
        63,
        r"[a-z0-9][-.a-z0-9]*[a-z0-9]",
        "3-63 lowercase letters, digits, '.' and '-', starting and ending with a letter or digit",
        # docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
        reserved=S3_RESERVED,
    ),
    "gke_cluster": Rule(
        "GKE cluster name",
        1,
        40,
        r"[a-z]([-a-z0-9]*[a-z0-9])?",
        "1-40 lowercase letters, digits and '-', starting with a letter, not ending with '-'",
    ),
    "gke_pool": Rule(
        "GKE node pool name",
        1,
        40,
        r"[a-z]([-a-z0-9]*[a-z0-9])?",
        "1-40 lowercase letters, digits and '-', starting with a letter, not ending with '-'",
    ),
    "gcp_account": Rule(
        "GCP service account ID",
        6,
        30,
        r"[a-z]([-a-z0-9]*[a-z0-9])",
        "6-30 characters of the form [a-z]([-a-z0-9]*[a-z0-9])",
    ),
    "gcp_network": Rule(
        "GCP network name",
        1,
        63,
        r"[a-z]([-a-z0-9]*[a-z0-9])?",
        "1-63 characters of the form [a-z]([-a-z0-9]*[a-z0-9])?",
    ),
    "gcs_bucket": Rule(
        "GCS bucket name",
        3,
        63,
        r"[a-z0-9][-_a-z0-9]*[a-z0-9]",
        "3-63 lowercase letters, digits, '-' and '_', starting and ending with a letter or digit",
        # cloud.google.com/storage/docs/buckets#naming: no "goog" prefix, no "google" or misspellings
        reserved=GCS_RESERVED,
    ),
}


def name_hash(whole: str) -> str:
    """A short, stable digest of `whole`: lowercase hex, which every rule here admits."""
    return hashlib.sha256(whole.encode()).hexdigest()[:HASH_LENGTH]


def fit(name: str, limit: int, trim: str = "-", whole: str | None = None) -> str:
    """`name` as it always was when it fits (only `trim` stripped from its end); cut, with
    '-' and the hash of `whole` (the name itself unless given), when it does not."""
    if len(name) <= limit:
        return name.rstrip(trim)
    return f"{name[: limit - HASH_LENGTH - 1].rstrip(trim)}-{name_hash(whole or name)}"


# --- Azure ---------------------------------------------------------------------------


def alnum(text: str) -> str:
    return "".join(c for c in text.lower() if c.isascii() and c.isalnum())


def registry_name(cloud: str, suffix: str) -> str:
    """ACR names are global, 5-50 letters and digits: no '-', so never Pulumi's autoname."""
    return f"acr{alnum(cloud)[: 50 - 3 - len(suffix)]}{suffix}"


def storage_account_name(cloud: str, resource: str, suffix: str) -> str:
    """Storage account names are global: 3-24 lowercase letters and digits."""
    return f"as{alnum(cloud + resource)[: 22 - STORAGE_ACCOUNT_SUFFIX]}{suffix}"


def aks_cluster_name(cloud: str, resource: str) -> str:
    return fit(f"aks-{cloud}-{resource}", 63, "-_")


def aks_dns_prefix(cloud: str, resource: str) -> str:
    whole = f"{cloud}-{resource}"
    return fit(whole.replace("_", "-").lstrip("-"), 54, whole=whole)


def azure_vnet_name(cloud: str, resource: str) -> str:
    """The VNet the program creates for an AKS cluster's nodes (cluster.network without existingSubnetId)."""
    return fit(f"vnet-{cloud}-{resource}", 64, "-.")


def azure_identity_name(cloud: str, resource: str) -> str:
    return fit(f"id-{cloud}-{resource}-operator", 128, "")


def azure_workload_identity_name(cloud: str, resource: str) -> str:
    """The Ray pods' identity (service account anyscale-workloads), beside the operator's."""
    return fit(f"id-{cloud}-{resource}-workloads", 128, "")


def azure_history_identity_name(cloud: str, resource: str) -> str:
    """addons.kuberay.historyServer's identity, beside the operator's (same limit)."""
    return fit(f"id-{cloud}-{resource}-history", 128, "")


# --- AWS -----------------------------------------------------------------------------


def aws_role_logical_names(resource: str) -> list[str]:
    """The Pulumi logical names of a resource's IAM roles (aws/iam.py `service_role`,
    aws/resource.py and aws/autoscaler.py's IRSA roles; tests/config/test_names.py keeps them in
    step with the plan). Pulumi autonames each role from it."""
    return [
        f"{resource}-cluster-role",
        f"{resource}-node-role",
        f"{resource}-operator",
        f"{resource}-workloads",
        f"{resource}-autoscaler",
    ]


def iam_role_autoname(logical_name: str) -> str:
    """What Pulumi names the role: the logical name, '-', 7 random hex characters."""
    return f"{logical_name}-{'0' * 7}"


def eks_cluster_name(cloud: str, resource: str) -> str:
    """EKS names: up to 100 of letters, digits, '-' and '_', starting alphanumeric."""
    return fit(f"eks-{cloud}-{resource}", 100, "")


def s3_bucket_name(cloud: str, resource: str, suffix: str) -> str:
    """S3 names are global: 3-63 lowercase letters, digits and '-'."""
    stem = re.sub(r"-+", "-", re.sub(r"[^a-z0-9-]", "-", f"{cloud}-{resource}".lower())).strip("-")
    if re.search(S3_RESERVED, stem + "-"):  # sthree-..., amzn-s3-demo-..., xn--...
        stem = SAFE_PREFIX + stem
    return f"{stem[: 62 - len(suffix)].rstrip('-')}-{suffix}".lstrip("-")


# --- GCP -----------------------------------------------------------------------------


def gcp_name(*parts: str, limit: int) -> str:
    """Lowercase letters, digits and single '-', no '-' at either end, at most `limit`
    (cut with the hash of the parts as given, so `a_b` and `a-b` differ once cut)."""
    whole = "-".join(parts)
    return fit(re.sub(r"[^a-z0-9]+", "-", whole.lower()).strip("-"), limit, whole=whole)


def gke_cluster_name(cloud: str, resource: str) -> str:
    return gcp_name("gke", cloud, resource, limit=40)


def gcp_account_id(cloud: str, resource: str) -> str:
    return gcp_name("anyscale", cloud, resource, limit=30)


def gcp_workload_account_id(cloud: str, resource: str) -> str:
    """The Ray pods' account: 6-30 characters, apart from the operator's `anyscale-...`."""
    return gcp_name("workloads", cloud, resource, limit=30)


def gcp_display_name(cloud: str, resource: str) -> str:
    """A service account's display name: at most 100 bytes of UTF-8 (the IAM API's limit)."""
    text = f"Anyscale operator ({cloud}/{resource})"
    if len(text.encode()) <= 100:
        return text
    return text.encode()[:96].decode("utf-8", "ignore") + "...)"


def gke_node_account_id(cloud: str, resource: str) -> str:
    """The GKE nodes' service account: 6-30 characters, apart from the operator's `anyscale-...`."""
    return gcp_name("nodes", cloud, resource, limit=30)


def gke_network_name(cloud: str, resource: str) -> str:
    """A created GKE VPC, its subnet and firewall rule: 1-63 of lowercase letters, digits and '-'."""
    return gcp_name("anyscale", cloud, resource, limit=63)


def gcs_bucket_name(cloud: str, resource: str, suffix: str) -> str:
    """Bucket names are global (3-63 characters): ours carry a random suffix."""
    stem = re.sub(r"g[o0]{2}g[l1]e", "gcp", gcp_name(cloud, resource, limit=200))
    if stem.startswith("goog"):
        stem = SAFE_PREFIX + stem
    stem = stem[: 62 - len(suffix)].rstrip("-") or "anyscale"
    return f"{stem}-{suffix}"


# --- Pulumi logical names of resources named after config ------------------------------


def pool_logical_name(resource: str, pool: str) -> str:
    """AKS AgentPools and GKE NodePools: `<resource>-pool-<pool>`."""
    return f"{resource}-pool-{pool}"


def node_group_logical_name(resource: str, pool: str) -> str:
    """EKS NodeGroups: `<resource>-<pool>` (kept: renaming would replace every group)."""
    return f"{resource}-{pool}"
