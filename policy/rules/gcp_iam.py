"""GCP: no bucket open to the internet, no project-wide owner or editor, and Workload
Identity bound to the operator's Kubernetes service account only (platform.md 2, 3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.documents import bindings, document, listed
from rules.platform import WORKLOAD_IDENTITY_MEMBER_FORM, WORKLOAD_IDENTITY_MEMBER_RE
from rules.values import MISSING, UNKNOWN, elements, forget, get, is_unknown, mark, sample, type_is

PUBLIC_MEMBERS = ("allUsers", "allAuthenticatedUsers")
BROAD_PROJECT_ROLES = ("roles/owner", "roles/editor")
WORKLOAD_IDENTITY_USER = "roles/iam.workloadIdentityUser"

BUCKET_IAM = ("gcp:storage/bucketIAMMember:BucketIAMMember", "gcp:storage/bucketIAMBinding:BucketIAMBinding")
BUCKET_IAM_POLICY = "gcp:storage/bucketIAMPolicy:BucketIAMPolicy"
BUCKET_ACCESS_CONTROLS = (
    "gcp:storage/bucketAccessControl:BucketAccessControl",
    "gcp:storage/defaultObjectAccessControl:DefaultObjectAccessControl",
)
BUCKET_ACLS = ("gcp:storage/bucketACL:BucketACL", "gcp:storage/defaultObjectACL:DefaultObjectACL")
PROJECT_IAM = ("gcp:projects/iAMMember:IAMMember", "gcp:projects/iAMBinding:IAMBinding")
PROJECT_IAM_POLICY = "gcp:projects/iAMPolicy:IAMPolicy"
SERVICE_ACCOUNT_IAM = ("gcp:serviceaccount/iAMMember:IAMMember", "gcp:serviceaccount/iAMBinding:IAMBinding")
SERVICE_ACCOUNT_IAM_POLICY = "gcp:serviceaccount/iAMPolicy:IAMPolicy"


def grants(
    resource_type: str,
    props: Any,
    members_of: tuple[str, ...],
    policy: str,
    *,
    roles: bool = True,
    members_for: Callable[[Any], bool] = lambda role: True,
) -> list[tuple[Any, list[Any]]]:
    """(role, members) granted by an IAM member/binding resource or an IAM policy resource.
    A member/binding resource's role is read only with `roles`, its members only when
    `members_for(role)` (a check reads what it decides on, nothing else)."""
    if type_is(resource_type, *members_of):
        role = get(props, "role") if roles else None
        if not members_for(role):
            return [(role, [])]
        member = get(props, "member")
        return [(role, [member] if member is not MISSING else elements(get(props, "members")))]
    if type_is(resource_type, policy):
        doc = document(props, "policyData")
        return bindings(doc)
    return []


def bucket_public_problems(resource_type: str, props: Any) -> list[str]:
    start = mark()
    members = [m for _, ms in grants(resource_type, props, BUCKET_IAM, BUCKET_IAM_POLICY, roles=False) for m in ms]
    if type_is(resource_type, *BUCKET_ACCESS_CONTROLS):
        members.append(get(props, "entity"))
    if type_is(resource_type, *BUCKET_ACLS):
        members += [e.split(":", 1)[-1] for e in elements(get(props, "roleEntities")) if isinstance(e, str)]
    public = sorted({m for m in members if m in PUBLIC_MEMBERS})
    if not public:
        return []
    forget(start)  # public whatever the others are
    return [
        f"grants the bucket to {', '.join(public)}: anyone (with any Google account) could read users' logs and "
        "snapshots; grant the operator's service account only"
    ]


def project_role_problems(resource_type: str, props: Any) -> list[str]:
    roles = [
        role for role, _ in grants(resource_type, props, PROJECT_IAM, PROJECT_IAM_POLICY, members_for=lambda _: False)
    ]
    broad = sorted({r for r in roles if r in BROAD_PROJECT_ROLES})
    if not broad:
        return []
    return [
        f"grants {', '.join(broad)} on the whole project: full control of every resource in it; grant a narrow role "
        "on the one resource (e.g. roles/storage.objectAdmin on the bucket)"
    ]


def workload_identity_problems(resource_type: str, props: Any) -> list[str]:
    problems = []
    wanted = (SERVICE_ACCOUNT_IAM, SERVICE_ACCOUNT_IAM_POLICY)
    for role, members in grants(resource_type, props, *wanted, members_for=lambda r: r == WORKLOAD_IDENTITY_USER):
        if role != WORKLOAD_IDENTITY_USER:
            continue
        for member in listed(members):
            if member in (UNKNOWN, MISSING) or is_unknown(member) or not isinstance(member, str):
                continue
            if not WORKLOAD_IDENTITY_MEMBER_RE.fullmatch(sample(member)):
                problems.append(
                    f"binds {WORKLOAD_IDENTITY_USER} to {member!r}: only the operator's Kubernetes service account may "
                    f"act as this service account; use {WORKLOAD_IDENTITY_MEMBER_FORM}"
                )
    return problems
