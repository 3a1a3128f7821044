"""Identities: least privilege for every principal we grant a role, and the right ID
of a managed identity in the right place (platform.md 3)."""
from __future__ import annotations

import re
from typing import Any

from rules.values import get, reference, sample

ROLE_ASSIGNMENT = "azure-native:authorization:RoleAssignment"
# A whole subscription (or anything above it: a management group, the tenant root).
BROAD_SCOPE_RE = re.compile(
    r"^(/subscriptions/[^/]+|/providers/Microsoft\.Management/managementGroups/[^/]+|)/?$", re.IGNORECASE
)
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
    return problems


def principal_problems(props: Any) -> list[str]:
    """A role assignment takes the identity's principal (object) ID."""
    principal = reference(props, "principalId")
    if _refers(principal, CLIENT_ID_REF):
        return [f"principalId is {principal}, a client ID: role assignments take the identity's principal_id"]
    return []


def registration_identity_problems(props: Any) -> list[str]:
    """The registration records the managed identity's principal (object) ID."""
    identity = reference(props, "properties", "anyscaleOperatorIamIdentity")
    if get(props, "properties", "provider") == "Azure" and _refers(identity, CLIENT_ID_REF):
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
