"""Who may do what: identities and their grants (platform.md 3), the registry, secrets."""

from __future__ import annotations

from pack import (
    CRITICAL,
    HIGH,
    MANDATORY,
    Policy,
    Settings,
    policy,
)
from pulumi_policy import ResourceValidationArgs
from rules import aws_iam, clusters, gcp_iam, identity, platform, registration, secrets
from rules.options import PlanResourceOptions
from rules.plan_records import EXTENSION, REGISTRY
from rules.registry import registry_problems
from rules.values import type_is


def check_role_assignments(args: ResourceValidationArgs, config: Settings) -> list[str]:
    forbidden = {guid.lower(): name for guid, name in dict(config["forbiddenRoles"]).items()}
    return identity.role_assignment_problems(args.props, forbidden)


def check_principal_vs_client(args: ResourceValidationArgs, _: Settings) -> list[str]:
    kind = args.resource_type
    if type_is(kind, identity.ROLE_ASSIGNMENT):
        return identity.principal_problems(args.props)
    if registration.is_registration(kind, args.props):
        return identity.registration_identity_problems(args.props)
    if type_is(kind, EXTENSION):
        settings = clusters.operator_settings(kind, args.props)
        return identity.operator_identity_problems(settings) if isinstance(settings, dict) else []
    return []


def check_clear_secrets(args: ResourceValidationArgs, _: Settings) -> list[str]:
    """Offline only: a real engine hands a policy secrets as plain values (see rules/secrets.py)."""
    if not isinstance(args.opts, PlanResourceOptions):
        return []
    return secrets.clear_secret_problems(args.props)


POLICIES: list[Policy] = [
    # --- identities (platform.md 3) ---
    policy(
        "identity-role-assignments",
        "No role assignment grants Owner, Contributor, User Access Administrator, Role Based Access Control "
        "Administrator or Storage Account Contributor, and none is scoped to a whole resource group, subscription "
        "(or above).",
        level=MANDATORY,
        severity=HIGH,
        remediation="Grant the narrowest built-in role that does the job (Storage Blob Data Contributor for the "
        "operator, AcrPull for the kubelet) on the one resource it is for, never a resource group or subscription. "
        "A role that must be allowed can be removed from this policy's forbiddenRoles setting.",
        check=check_role_assignments,
        on=(identity.ROLE_ASSIGNMENT,),
        settings={
            "forbiddenRoles": {
                "type": "object",
                # Keyed by GUID: a role's name never matches the roleDefinitionId an assignment
                # carries, and the map replaces the defaults, so names would forbid nothing.
                "propertyNames": {
                    "pattern": "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
                    # A pattern's `$` also matches before a final newline in some engines (Python's).
                    "maxLength": 36,
                    "description": "a role definition GUID (e.g. 8e3af657-a8ff-443c-a75c-2fe8c4bcb635 for Owner)",
                },
                "additionalProperties": {"type": "string"},
                "default": dict(platform.BROAD_ROLES),
                "description": "role definition GUIDs no assignment may grant, with their names",
            }
        },
    ),
    policy(
        "identity-principal-vs-client",
        "A managed identity's principal ID goes to the registration and to role assignments, its client ID to "
        "the operator (offline only: read from the plan's placeholders).",
        level=MANDATORY,
        severity=HIGH,
        remediation="Pass the identity's principal_id to the registration's anyscaleOperatorIamIdentity and to role "
        "assignments' principal_id, and its client_id to the operator's global.auth.iamIdentity; "
        "`python -m preflight plan` shows which output feeds which input.",
        check=check_principal_vs_client,
    ),
    policy(
        "identity-federated-subject",
        "A federated identity credential trusts exactly the operator's service account "
        "(system:serviceaccount:anyscale-operator:anyscale-operator) or the Ray pods' "
        "(system:serviceaccount:<namespace>:anyscale-workloads, in anyscale-operator or a managed namespace) with "
        "audience api://AzureADTokenExchange.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set the credential's subject to system:serviceaccount:anyscale-operator:anyscale-operator (the "
        "operator's identity) or system:serviceaccount:<namespace>:anyscale-workloads (the workloads', one credential "
        "per namespace they run in), its "
        "audiences to exactly ['api://AzureADTokenExchange'] and its issuer to the cluster's OIDC issuer URL "
        "(components/azure/identity.py does).",
        check=lambda args, _: identity.federated_subject_problems(args.props),
        on=(identity.FEDERATED_CREDENTIAL,),
    ),
    policy(
        "identity-aws-policies",
        "AWS permissions policies allow no '*' or '<service>:*' action, and no role or user gets "
        "AdministratorAccess, PowerUserAccess or IAMFullAccess.",
        level=MANDATORY,
        severity=HIGH,
        remediation="List the actions the identity needs (the operator's S3 policy in components/aws/policies.py "
        "lists ten) instead of wildcards, and attach a policy of those actions instead of AdministratorAccess, "
        "PowerUserAccess or IAMFullAccess.",
        check=lambda args, _: aws_iam.permissions_problems(args.resource_type, args.props),
    ),
    policy(
        "identity-aws-trust",
        "IAM role trust policies let no '*' principal assume the role, and a web-identity (IRSA) trust names one "
        "service account in a ':sub' condition without wildcards.",
        level=MANDATORY,
        severity=CRITICAL,
        remediation="Name the cluster's OIDC provider (Federated) or the AWS service as the trust's principal, and "
        "add StringEquals <issuer>:sub = system:serviceaccount:anyscale-operator:anyscale-operator to a "
        "web-identity trust (components/aws/iam.py does).",
        check=lambda args, _: aws_iam.trust_problems(args.props),
        on=(aws_iam.ROLE,),
    ),
    policy(
        "identity-gcp-project-roles",
        "No project-level IAM grant of roles/owner or roles/editor.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Grant a narrow role on the one resource instead (e.g. roles/storage.objectAdmin on the bucket "
        "for the operator's service account).",
        check=lambda args, _: gcp_iam.project_role_problems(args.resource_type, args.props),
    ),
    policy(
        "identity-gcp-workload-identity",
        "roles/iam.workloadIdentityUser is granted only to "
        "serviceAccount:<project>.svc.id.goog[anyscale-operator/anyscale-operator] or "
        "serviceAccount:<project>.svc.id.goog[<namespace>/anyscale-workloads] (the Ray pods', in anyscale-operator or "
        "a managed namespace).",
        level=MANDATORY,
        severity=HIGH,
        remediation="Bind roles/iam.workloadIdentityUser on the operator's service account to "
        "serviceAccount:<project>.svc.id.goog[anyscale-operator/anyscale-operator] only, and on the workloads' to "
        "serviceAccount:<project>.svc.id.goog[<namespace>/anyscale-workloads] only, once per namespace the Ray pods "
        "run in "
        "(components/gcp/identity.py does).",
        check=lambda args, _: gcp_iam.workload_identity_problems(args.resource_type, args.props),
    ),
    # --- the registry and secrets ---
    policy(
        "registry-private",
        "The container registry has the admin user and anonymous pull off.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set admin_user_enabled=False and anonymous_pull_enabled=False on the registry: the kubelet "
        "pulls with AcrPull and the operator pushes with AcrPush, both through their identities.",
        check=lambda args, _: registry_problems(args.props),
        on=(REGISTRY,),
    ),
    policy(
        "secrets-not-in-clear",
        "No kubeconfig, token or key in clear in the plan: values under credential keys and strings shaped like a "
        "kubeconfig or a JWT must be Pulumi secrets (offline only).",
        level=MANDATORY,
        severity=CRITICAL,
        remediation="Pass the value as a Pulumi secret: `{secure: ...}` in the stack (`pulumi config set --secret`), "
        "or pulumi.Output.secret in code. A value that was in clear is in earlier states and previews: rotate it.",
        check=check_clear_secrets,
    ),
]
