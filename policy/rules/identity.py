"""Identities: least privilege for every principal we grant a role, and the right ID
of a managed identity in the right place (platform.md 3)."""

from __future__ import annotations

import re
from typing import Any

from rules.platform import FEDERATED_SUBJECT_FORM, FEDERATED_SUBJECT_RE, FEDERATION_AUDIENCE, a_or_an
from rules.values import (
    MISSING,
    UNKNOWN,
    elements,
    forget,
    get,
    is_list,
    is_unknown,
    mark,
    reference,
    sample,
    setting,
    unchecked,
)

ROLE_ASSIGNMENT = "azure-native:authorization:RoleAssignment"
FEDERATED_CREDENTIAL = "azure-native:managedidentity:FederatedIdentityCredential"
# A whole subscription (or anything above it: a management group, the tenant root).
BROAD_SCOPE_RE = re.compile(
    r"^(/subscriptions/[^/]+|/providers/Microsoft\.Management/managementGroups/[^/]+|)/?$", re.IGNORECASE
)
# A whole resource group: every resource in it, not the one the grant is for.
GROUP_SCOPE_RE = re.compile(r"^/subscriptions/[^/]+/resourceGroups/[^/]+/?$", re.IGNORECASE)
# Placeholders of a preflight plan name the output they stand for.
CLIENT_ID_REF = re.compile(r"\$\{[^}]*\.clientId\}")
PRINCIPAL_ID_REF = re.compile(r"\$\{[^}]*\.principalId\}")


def role_id(role_definition_id: str) -> str:
    """The role's GUID: the last segment of `/subscriptions/<s>/providers/.../roleDefinitions/<guid>`."""
    return role_definition_id.rstrip("/").rsplit("/", 1)[-1].lower()


def role_assignment_problems(props: Any, forbidden: dict[str, str]) -> list[str]:
    problems = []
    role = get(props, "roleDefinitionId")
    if isinstance(role, str):
        name = forbidden.get(role_id(role))
        if name is not None:
            problems.append(
                f"assigns the built-in role {name} ({role_id(role)}): grant the narrowest role that does the job "
                "(e.g. Storage Blob Data Contributor on the storage account)"
            )
    scope = get(props, "scope")
    if isinstance(scope, str) and BROAD_SCOPE_RE.match(sample(scope)):
        problems.append(
            f"is scoped to '{scope}', a whole subscription (or more): scope it to the one resource it is for "
            "(the storage account, the registry)"
        )
    elif isinstance(scope, str) and GROUP_SCOPE_RE.match(sample(scope)):
        problems.append(
            f"is scoped to '{scope}', a whole resource group (every resource in it): scope it to the one resource "
            "it is for (the storage account, the registry)"
        )
    return problems


def federated_subject_problems(props: Any) -> list[str]:
    """An identity trusts the cluster's tokens for one of our service accounts only: the
    operator's or the Ray pods' (each identity its own, components/azure/identity.py), theirs
    in the operator's namespace or in a managed one."""
    problems = []
    subject = get(props, "subject")
    known = subject is not UNKNOWN and not (isinstance(subject, str) and sample(subject) != subject)
    if subject is not UNKNOWN and not known:
        unchecked(props, "subject")  # a placeholder inside: the subject must be exactly one text
    if known and not (isinstance(subject, str) and FEDERATED_SUBJECT_RE.fullmatch(subject)):
        got = "not set" if subject is MISSING else repr(subject)
        problems.append(
            f"the federated subject is {got}: any pod running as that service account would get this "
            f"cloud identity; use exactly {FEDERATED_SUBJECT_FORM}"
        )
    audiences = get(props, "audiences")
    if audiences is MISSING:
        # Not set is not "the default": the rule needs exactly this audience (an absent key
        # used to pass this check).
        problems.append(f"the federated audiences are not set: use exactly [{FEDERATION_AUDIENCE!r}]")
    # elements(): an audience the preview does not know yet is UNKNOWN, not an error. A list of
    # another length, or a known audience that is not the one, is wrong whatever the rest is.
    start = mark()
    listed = elements(audiences)
    known_audiences = [a for a in listed if a is not UNKNOWN and not is_unknown(a)]
    if is_list(audiences) and (len(listed) != 1 or any(a != FEDERATION_AUDIENCE for a in known_audiences)):
        forget(start)  # decided by the known ones
        problems.append(f"the federated audiences are {listed!r}: use exactly [{FEDERATION_AUDIENCE!r}]")
    return problems


# global.cloudProvider -> what global.auth.iamIdentity holds there (Generic uses a CLI token).
IAM_IDENTITY_KIND = {
    "azure": "the managed identity's client ID",
    "aws": "the IAM role ARN",
    "gcp": "the service account email",
}


def operator_iam_identity_problems(settings: Any, cloud_provider: Any) -> list[str]:
    """The operator on a cloud gets its cloud identity: without it, it has no credentials."""
    if not isinstance(settings, dict) or not isinstance(cloud_provider, str):
        return []
    kind = IAM_IDENTITY_KIND.get(cloud_provider.lower())
    if kind is None:
        return []
    start = mark()
    value = setting(settings, "global.auth.iamIdentity")
    if "global.auth.iamIdentity" in settings:
        forget(start)  # the value itself not known yet: an output feeds it, so it is set
    if value is not MISSING and value != "":
        return []
    return [
        f"global.auth.iamIdentity is not set on {a_or_an(cloud_provider)} operator: it would run without cloud credentials "
        f"(no access to the bucket); set it to {kind}"
    ]


def principal_problems(props: Any) -> list[str]:
    """A role assignment takes the identity's principal (object) ID."""
    principal = reference(props, "principalId")
    if _refers(principal, CLIENT_ID_REF):
        return [f"principalId is {principal}, a client ID: role assignments take the identity's principal_id"]
    return []


def registration_identity_problems(props: Any) -> list[str]:
    """The registration records the managed identity's principal (object) ID."""
    identity = reference(props, "properties", "anyscaleOperatorIamIdentity")
    if _refers(identity, CLIENT_ID_REF) and get(props, "properties", "provider") == "Azure":
        return [
            f"anyscaleOperatorIamIdentity is {identity}, the identity's client ID: the registration takes its "
            "principal (object) ID; use identity.principal_id (the operator gets the client ID)"
        ]
    return []


def operator_identity_problems(settings: Any) -> list[str]:
    """The operator authenticates as the managed identity: it is configured with the client ID."""
    identity = reference(settings, "global.auth.iamIdentity")
    if _refers(identity, PRINCIPAL_ID_REF):
        return [
            f"global.auth.iamIdentity is {identity}, the identity's principal ID: the operator takes its "
            "client ID; use identity.client_id (the registration gets the principal ID)"
        ]
    return []


def _refers(value: str | None, pattern: re.Pattern[str]) -> bool:
    return value is not None and pattern.search(value) is not None
