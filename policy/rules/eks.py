"""EKS and its bucket: who can reach the API server (the public endpoint's CIDRs, the
access entries beyond the creator) and buckets that accept plain-HTTP requests."""

from __future__ import annotations

from typing import Any

from pulumi_policy import PolicyResource
from rules.documents import document, listed, public_principal, statements
from rules.plan_records import BUCKET_POLICY, EKS_CLUSTER
from rules.stack import Finding, _companions
from rules.storage import is_s3_bucket
from rules.values import MISSING, UNKNOWN, elements, forget, get, in_passing, is_map, mark, type_is

ACCESS_ENTRY = "aws:eks/accessEntry:AccessEntry"
OPEN = "0.0.0.0/0"


# --- the public API endpoint --------------------------------------------------------------


def public_endpoint_problems(props: Any) -> list[str]:
    """Public access on (EKS's default) with no CIDRs, or with 0.0.0.0/0 among them."""
    public = get(props, "vpcConfig", "endpointPublicAccess")
    if public is UNKNOWN or public is False:
        return []
    cidrs = get(props, "vpcConfig", "publicAccessCidrs")
    if cidrs is UNKNOWN:
        return []
    listed_cidrs = [] if cidrs is MISSING else elements(cidrs)
    if UNKNOWN in listed_cidrs:
        return []
    if listed_cidrs and OPEN not in listed_cidrs:
        return []
    return [
        "the cluster's public API endpoint admits every address (0.0.0.0/0): set cluster.endpointPublicAccessCidrs "
        "to the ranges of your offices, VPN and CI runners (nodes use the private endpoint), or "
        "cluster.endpointPublicAccess: false when deploys run inside the VPC"
    ]


# --- access entries ------------------------------------------------------------------------


def access_entry_findings(resources: list[PolicyResource]) -> list[Finding]:
    """Clusters with API authentication and no STANDARD access entry of ours: only the
    identity that created the cluster can use it (or nobody, without the bootstrap)."""
    entries = [r for r in resources if type_is(r.resource_type, ACCESS_ENTRY)]
    findings = []
    for cluster in (r for r in resources if type_is(r.resource_type, EKS_CLUSTER)):
        mode = get(cluster.props, "accessConfig", "authenticationMode")
        if mode not in ("API", "API_AND_CONFIG_MAP"):
            continue  # CONFIG_MAP (aws-auth) or not known yet
        if any(_may_belong(entry, cluster) for entry in entries):
            continue
        with in_passing():  # only words the message
            bootstrap = get(cluster.props, "accessConfig", "bootstrapClusterCreatorAdminPermissions")
        who = "only the identity that created it" if bootstrap is not False else "no one"
        findings.append(
            (
                cluster.urn,
                f"EKS cluster {cluster.name} has no access entries: {who} can use it, so a team member or CI role "
                "other than the creator is locked out; add cluster.accessEntries (principalArn and policy)",
            )
        )
    return findings


def _may_belong(entry: PolicyResource, cluster: PolicyResource) -> bool:
    """A STANDARD entry (not a node role's) that names the cluster or cannot be told apart yet.
    Whose it is comes first: another cluster's entry is read no further."""
    depends = any(dep.urn == cluster.urn for dep in entry.dependencies or []) or any(
        dep.urn == cluster.urn for deps in (entry.property_dependencies or {}).values() for dep in deps
    )
    if not depends:
        name = get(entry.props, "clusterName")
        if name is not UNKNOWN and not (isinstance(name, str) and name == get(cluster.props, "name")):
            return False
    return get(entry.props, "type") in ("STANDARD", MISSING, UNKNOWN)


# --- TLS-only buckets ------------------------------------------------------------------------


def denies_insecure_transport(doc: Any) -> bool:
    """A statement denying everyone any request with aws:SecureTransport false."""
    for statement in statements(doc):
        if statement.get("Effect") != "Deny" or not public_principal(statement.get("Principal")):
            continue
        condition = statement.get("Condition")
        test = condition.get("Bool") if is_map(condition) else None
        values = listed(test.get("aws:SecureTransport", MISSING)) if is_map(test) else []
        if any(str(v).lower() == "false" for v in values):
            return True
    return False


def tls_only_findings(resources: list[PolicyResource]) -> list[Finding]:
    """Each S3 bucket we create refuses plain-HTTP requests, through its bucket policy
    (a BucketPolicy for it, or the bucket's own inline `policy`)."""
    findings = []
    for bucket in (r for r in resources if is_s3_bucket(r.resource_type)):
        start = mark()
        docs = [document(bucket.props, "policy")]
        docs += [
            document(p.props, "policy") for p in _companions(resources, bucket, (BUCKET_POLICY,), "bucket", "bucket")
        ]
        if any(denies_insecure_transport(d) for d in docs):
            forget(start)  # one known document that denies is enough
            continue
        if UNKNOWN in docs:
            continue
        findings.append(
            (
                bucket.urn,
                f"S3 bucket {bucket.name} accepts requests over plain HTTP: add a bucket policy statement with Effect "
                "Deny, Principal '*', Action 's3:*' on the bucket and its objects, and Condition "
                "{'Bool': {'aws:SecureTransport': 'false'}} (components/aws/policies.py deny_insecure_transport)",
            )
        )
    return findings
