"""The anyscale-cloud policies: the platform's rules (shared/docs/platform.md) as
CrossGuard policies, over what `pulumi preview` (or `preflight policy`) would deploy.

Each policy wraps plain checks from `rules/`. A value not known yet is never a
violation by itself. Checks that need a resource option the engine does not pass to
policies (replaceOnChanges, retainOnDelete) or the placeholder text of a recorded plan
run only offline, under `python -m preflight policy`; they are marked "(offline only)".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pulumi_policy import (
    EnforcementLevel,
    PolicyConfigSchema,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)
from rules import aks, aws_iam, clusters, gcp_iam, gke, identity, platform, registration, secrets, stack, storage
from rules.eks import EKS_POLICIES
from rules.options import PlanResourceOptions, offline_option
from rules.registry import REGISTRY, registry_problems
from rules.values import MISSING, get, setting, type_is

PACK_NAME = "anyscale-cloud"
# Every policy sets its own level; this is only the fallback for one that does not.
DEFAULT_LEVEL = EnforcementLevel.MANDATORY
MANDATORY = EnforcementLevel.MANDATORY
ADVISORY = EnforcementLevel.ADVISORY

Config = dict[str, Any]
ResourceCheck = Callable[[ResourceValidationArgs, Config], Iterable[str]]
StackCheck = Callable[[StackValidationArgs, Config], Iterable[tuple[str, str]]]


def settings_of(args: ResourceValidationArgs | StackValidationArgs, schema: dict[str, dict[str, Any]]) -> Config:
    """The policy's config (from --policy-pack-config) over the schema's defaults."""
    config = {name: spec["default"] for name, spec in schema.items()}
    config.update(dict(args.get_config() or {}))
    return config


def resource_policy(
    name: str,
    description: str,
    level: EnforcementLevel,
    check: ResourceCheck,
    schema: dict[str, dict[str, Any]] | None = None,
) -> ResourceValidationPolicy:
    schema = schema or {}

    def validate(args: ResourceValidationArgs, report: ReportViolation) -> None:
        for message in check(args, settings_of(args, schema)):
            report(message, None)

    return ResourceValidationPolicy(
        name=name,
        description=description,
        validate=validate,
        enforcement_level=level,
        config_schema=PolicyConfigSchema(properties=schema) if schema else None,
    )


def stack_policy(
    name: str,
    description: str,
    level: EnforcementLevel,
    check: StackCheck,
    schema: dict[str, dict[str, Any]] | None = None,
) -> StackValidationPolicy:
    schema = schema or {}

    def validate(args: StackValidationArgs, report: ReportViolation) -> None:
        for urn, message in check(args, settings_of(args, schema)):
            report(message, urn)

    return StackValidationPolicy(
        name=name,
        description=description,
        validate=validate,
        enforcement_level=level,
        config_schema=PolicyConfigSchema(properties=schema) if schema else None,
    )


# --- config schemas (JSON schema; `default` is what applies without config) ---------------

CORS_SCHEMA = {
    "origin": {
        "type": "string",
        "default": platform.CONSOLE_ORIGIN,
        "description": "the console's origin that every bucket must allow",
    },
    "methods": {
        "type": "array",
        "items": {"type": "string"},
        "default": list(platform.CORS_METHODS),
        "description": "methods the console's rule must allow",
    },
    "exposedHeaders": {
        "type": "array",
        "items": {"type": "string"},
        "default": list(platform.CORS_EXPOSED_HEADERS),
        "description": "response headers the rule must expose (or '*')",
    },
}


def cors_rule(config: Config) -> storage.CorsRule:
    return storage.CorsRule(config["origin"], list(config["methods"]), list(config["exposedHeaders"]))


# --- registrations ---------------------------------------------------------------------------


def check_registration_properties(args: ResourceValidationArgs, _: Config) -> list[str]:
    if not registration.is_registration(args.resource_type, args.props):
        return []
    return registration.property_problems(args.props)


def check_registration_replacement(args: ResourceValidationArgs, _: Config) -> list[str]:
    if not registration.is_registration(args.resource_type, args.props):
        return []
    return registration.replacement_problems(
        args.opts.delete_before_replace if args.opts is not None else None,
        offline_option(args.opts, "replace_on_changes"),
    )


def check_registration_order(args: StackValidationArgs, _: Config) -> list[tuple[str, str]]:
    return stack.registration_order_findings(list(args.resources))


# --- storage -----------------------------------------------------------------------------------


def check_azure_storage(args: ResourceValidationArgs, config: Config) -> list[str]:
    if type_is(args.resource_type, storage.STORAGE_ACCOUNT):
        return storage.azure_account_problems(args.props, list(config["minimumTlsVersions"]))
    if type_is(args.resource_type, storage.BLOB_CONTAINER):
        return storage.azure_container_problems(args.props)
    return []


def check_s3_storage(args: ResourceValidationArgs, _: Config) -> list[str]:
    kind = args.resource_type
    if type_is(kind, *storage.S3_PUBLIC_ACCESS_BLOCK):
        return storage.s3_block_problems(args.props)
    if type_is(kind, *storage.S3_ENCRYPTION):
        return storage.s3_encryption_problems(get(args.props, "rules"))
    if type_is(kind, *storage.S3_ACL):
        return storage.s3_acl_problems(args.props)
    if type_is(kind, aws_iam.BUCKET_POLICY):
        return aws_iam.bucket_policy_problems(args.props)
    if storage.is_s3_bucket(kind):
        return storage.s3_bucket_problems(args.props) + aws_iam.bucket_policy_problems(args.props)
    return []


def check_s3_coverage(args: StackValidationArgs, _: Config) -> list[tuple[str, str]]:
    return stack.s3_guard_findings(list(args.resources))


def check_gcs_storage(args: ResourceValidationArgs, _: Config) -> list[str]:
    if type_is(args.resource_type, storage.GCS_BUCKET):
        return storage.gcs_bucket_problems(args.props)
    return gcp_iam.bucket_public_problems(args.resource_type, args.props)


def check_retain_on_delete(args: ResourceValidationArgs, _: Config) -> list[str]:
    if not type_is(args.resource_type, *storage.DATA_STORES):
        return []
    if offline_option(args.opts, "retain_on_delete") is False:
        return [
            "retainOnDelete is off: removing this resource from the stack (or a replacement) deletes the bucket "
            "with its logs and workspace snapshots; set storage.retainOnDelete: true in the stack"
        ]
    return []


# --- the console's CORS rule ---------------------------------------------------------------


def cors_shape(args: ResourceValidationArgs) -> storage.CorsShape | None:
    """Where this resource keeps CORS rules; None when it has none to check (an S3 bucket
    carries them only when it sets corsRules inline)."""
    kind = args.resource_type
    if type_is(kind, storage.BLOB_SERVICE):
        return storage.AZURE_CORS
    if type_is(kind, *storage.S3_CORS):
        return storage.S3_CORS_SHAPE
    if storage.is_s3_bucket(kind) and get(args.props, "corsRules") is not MISSING:
        return storage.S3_CORS_SHAPE
    if type_is(kind, storage.GCS_BUCKET):
        return storage.GCS_CORS
    return None


def check_console_cors(args: ResourceValidationArgs, config: Config) -> list[str]:
    shape = cors_shape(args)
    return storage.cors_problems(args.props, shape, cors_rule(config)) if shape else []


def check_cors_origins(args: ResourceValidationArgs, config: Config) -> list[str]:
    shape = cors_shape(args)
    if shape is None:
        return []
    return storage.cors_origin_problems(args.props, shape, platform.CONSOLE_ORIGIN, list(config["extraOrigins"]))


def check_cors_coverage(args: StackValidationArgs, config: Config) -> list[tuple[str, str]]:
    return stack.cors_coverage_findings(list(args.resources), cors_rule(config))


# --- identities --------------------------------------------------------------------------------


def check_role_assignments(args: ResourceValidationArgs, config: Config) -> list[str]:
    if not type_is(args.resource_type, identity.ROLE_ASSIGNMENT):
        return []
    forbidden = {guid.lower(): name for guid, name in dict(config["forbiddenRoles"]).items()}
    return identity.role_assignment_problems(args.props, forbidden)


def check_principal_vs_client(args: ResourceValidationArgs, _: Config) -> list[str]:
    kind = args.resource_type
    if type_is(kind, identity.ROLE_ASSIGNMENT):
        return identity.principal_problems(args.props)
    if registration.is_registration(kind, args.props):
        return identity.registration_identity_problems(args.props)
    if type_is(kind, clusters.EXTENSION):
        settings = clusters.operator_settings(kind, args.props)
        return identity.operator_identity_problems(settings) if isinstance(settings, dict) else []
    return []


def check_federated_subject(args: ResourceValidationArgs, _: Config) -> list[str]:
    if type_is(args.resource_type, identity.FEDERATED_CREDENTIAL):
        return identity.federated_subject_problems(args.props)
    return []


def check_aws_permissions(args: ResourceValidationArgs, _: Config) -> list[str]:
    return aws_iam.permissions_problems(args.resource_type, args.props)


def check_aws_trust(args: ResourceValidationArgs, _: Config) -> list[str]:
    if type_is(args.resource_type, aws_iam.ROLE):
        return aws_iam.trust_problems(args.props)
    return []


def check_gcp_project_roles(args: ResourceValidationArgs, _: Config) -> list[str]:
    return gcp_iam.project_role_problems(args.resource_type, args.props)


def check_gcp_workload_identity(args: ResourceValidationArgs, _: Config) -> list[str]:
    return gcp_iam.workload_identity_problems(args.resource_type, args.props)


def check_registry(args: ResourceValidationArgs, _: Config) -> list[str]:
    if type_is(args.resource_type, REGISTRY):
        return registry_problems(args.props)
    return []


def check_clear_secrets(args: ResourceValidationArgs, _: Config) -> list[str]:
    """Offline only: a real engine hands a policy secrets as plain values (see rules/secrets.py)."""
    if not isinstance(args.opts, PlanResourceOptions):
        return []
    return secrets.clear_secret_problems(args.props)


# --- clusters and the operator ---------------------------------------------------------------


def check_aks_rbac(args: ResourceValidationArgs, _: Config) -> list[str]:
    if type_is(args.resource_type, clusters.MANAGED_CLUSTER):
        return clusters.aks_rbac_problems(args.props)
    return []


def check_operator_identity(args: ResourceValidationArgs, _: Config) -> list[str]:
    settings = clusters.operator_settings(args.resource_type, args.props)
    if not isinstance(settings, dict):
        return []
    provider = "Azure" if type_is(args.resource_type, clusters.EXTENSION) else setting(settings, "global.cloudProvider")
    return identity.operator_iam_identity_problems(settings, provider)


def check_aks_identity(args: ResourceValidationArgs, _: Config) -> list[str]:
    if type_is(args.resource_type, clusters.MANAGED_CLUSTER):
        return clusters.aks_identity_problems(args.props)
    return []


def check_aks_local_accounts(args: ResourceValidationArgs, _: Config) -> list[str]:
    if type_is(args.resource_type, clusters.MANAGED_CLUSTER):
        return clusters.aks_local_account_problems(args.props)
    return []


def check_aks_sku(args: ResourceValidationArgs, config: Config) -> list[str]:
    if type_is(args.resource_type, clusters.MANAGED_CLUSTER):
        return clusters.aks_sku_problems(args.props, list(config["disallowedTiers"]))
    return []


def check_chart_versions(args: ResourceValidationArgs, _: Config) -> list[str]:
    if type_is(args.resource_type, *clusters.HELM_RELEASES, clusters.EXTENSION):
        return clusters.chart_version_problems(args.resource_type, args.props)
    return []


def check_control_plane(args: ResourceValidationArgs, config: Config) -> list[str]:
    settings = clusters.operator_settings(args.resource_type, args.props)
    return clusters.control_plane_problems(settings, config["controlPlaneUrl"])


def check_chart_keys(args: ResourceValidationArgs, config: Config) -> list[str]:
    settings = clusters.operator_settings(args.resource_type, args.props)
    return clusters.chart_key_problems(settings, list(config["extraAllowedKeys"]))


# --- the pack --------------------------------------------------------------------------------

ALL_POLICIES: list[ResourceValidationPolicy | StackValidationPolicy] = [
    resource_policy(
        "registration-properties",
        "Cloud resource registrations (Anyscale.Platform/clouds/cloudResources) carry valid properties: "
        "provider Azure/AWS/GCP/Generic, computeStack K8S, a valid region, a bucket URI of the provider's "
        "scheme without sub-path, a bare https endpoint (Azure), an operator identity (all but Generic), "
        "and no property the ARM type does not define.",
        MANDATORY,
        check_registration_properties,
    ),
    resource_policy(
        "registration-replacement",
        "Cloud resource registrations are replaced, never updated, and deleted before they are re-created: "
        "deleteBeforeReplace, and replaceOnChanges ['*'] (offline only).",
        MANDATORY,
        check_registration_replacement,
    ),
    stack_policy(
        "registration-order",
        "The first cloud resource registration is 'default' with provider Azure, each later one depends on "
        "the one before it, and names are unique within the cloud, ignoring case.",
        MANDATORY,
        check_registration_order,
    ),
    resource_policy(
        "storage-azure-secure",
        "Azure storage accounts are HTTPS only with a minimum TLS version of 1.2, allow no public blob access "
        "and no shared-key access; blob containers are private.",
        MANDATORY,
        check_azure_storage,
        {
            "minimumTlsVersions": {
                "type": "array",
                "items": {"type": "string", "enum": ["TLS1_2", "TLS1_3"]},
                "default": ["TLS1_2", "TLS1_3"],
                "description": "accepted values of minimumTlsVersion",
            }
        },
    ),
    resource_policy(
        "storage-s3-secure",
        "S3 public access blocks set all four flags, default encryption uses AES256 or KMS, no bucket has "
        "a public canned ACL, and no bucket policy allows everyone ('*' without a Condition) or a wildcard action.",
        MANDATORY,
        check_s3_storage,
    ),
    stack_policy(
        "storage-s3-coverage",
        "Every S3 bucket has a public access block and a default encryption configuration.",
        MANDATORY,
        check_s3_coverage,
    ),
    resource_policy(
        "storage-gcs-secure",
        "GCS buckets enforce uniform bucket-level access and public access prevention, and no bucket IAM grant or "
        "ACL names allUsers or allAuthenticatedUsers.",
        MANDATORY,
        check_gcs_storage,
    ),
    resource_policy(
        "console-cors",
        "Every CORS setting on our buckets (Azure blob service, S3 CORS configuration, GCS bucket) has the "
        "console's rule: its origin, the methods GET/HEAD/PUT/POST/DELETE, all request headers, and the "
        "range headers exposed. GCS buckets must carry it.",
        MANDATORY,
        check_console_cors,
        CORS_SCHEMA,
    ),
    resource_policy(
        "cors-origins",
        "CORS settings on our buckets allow no origin beyond the console's: never '*', never plain http, no "
        "other site unless listed in extraOrigins.",
        MANDATORY,
        check_cors_origins,
        {
            "extraOrigins": {
                "type": "array",
                "items": {"type": "string"},
                "default": [],
                "description": "https origins allowed next to the console's ('*' and http:// are never accepted)",
            }
        },
    ),
    stack_policy(
        "console-cors-coverage",
        "Every storage account we create has a BlobServiceProperties with the console's CORS rule, and every "
        "S3 bucket a CORS configuration with it.",
        MANDATORY,
        check_cors_coverage,
        CORS_SCHEMA,
    ),
    resource_policy(
        "identity-role-assignments",
        "No role assignment grants Owner, Contributor, User Access Administrator, Role Based Access Control "
        "Administrator or Storage Account Contributor, and none is scoped to a whole resource group, subscription "
        "(or above).",
        MANDATORY,
        check_role_assignments,
        {
            "forbiddenRoles": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "default": dict(platform.BROAD_ROLES),
                "description": "role definition GUIDs no assignment may grant, with their names",
            }
        },
    ),
    resource_policy(
        "identity-principal-vs-client",
        "A managed identity's principal ID goes to the registration and to role assignments, its client ID to "
        "the operator (offline only: read from the plan's placeholders).",
        MANDATORY,
        check_principal_vs_client,
    ),
    resource_policy(
        "identity-federated-subject",
        "A federated identity credential trusts exactly the operator's service account "
        "(system:serviceaccount:anyscale-operator:anyscale-operator) with audience api://AzureADTokenExchange.",
        MANDATORY,
        check_federated_subject,
    ),
    resource_policy(
        "identity-aws-policies",
        "AWS permissions policies allow no '*' or '<service>:*' action, and no role or user gets "
        "AdministratorAccess, PowerUserAccess or IAMFullAccess.",
        MANDATORY,
        check_aws_permissions,
    ),
    resource_policy(
        "identity-aws-trust",
        "IAM role trust policies let no '*' principal assume the role, and a web-identity (IRSA) trust names one "
        "service account in a ':sub' condition without wildcards.",
        MANDATORY,
        check_aws_trust,
    ),
    resource_policy(
        "identity-gcp-project-roles",
        "No project-level IAM grant of roles/owner or roles/editor.",
        MANDATORY,
        check_gcp_project_roles,
    ),
    resource_policy(
        "identity-gcp-workload-identity",
        "roles/iam.workloadIdentityUser is granted only to "
        "serviceAccount:<project>.svc.id.goog[anyscale-operator/anyscale-operator].",
        MANDATORY,
        check_gcp_workload_identity,
    ),
    resource_policy(
        "registry-private",
        "The container registry has the admin user and anonymous pull off.",
        MANDATORY,
        check_registry,
    ),
    resource_policy(
        "secrets-not-in-clear",
        "No kubeconfig, token or key in clear in the plan: values under credential keys and strings shaped like a "
        "kubeconfig or a JWT must be Pulumi secrets (offline only).",
        MANDATORY,
        check_clear_secrets,
    ),
    resource_policy(
        "aks-rbac",
        "AKS clusters keep Kubernetes RBAC on.",
        MANDATORY,
        check_aks_rbac,
    ),
    resource_policy(
        "operator-iam-identity",
        "The Anyscale operator on Azure, AWS or GCP has global.auth.iamIdentity set (its cloud identity).",
        MANDATORY,
        check_operator_identity,
    ),
    resource_policy(
        "aks-workload-identity",
        "AKS clusters have the OIDC issuer and workload identity enabled (the operator's identity is federated).",
        MANDATORY,
        check_aks_identity,
    ),
    resource_policy(
        "chart-versions-pinned",
        "Helm releases pin one exact chart version (not a range like '>=1.0.0', '~1.2', '*' or a tag like "
        "'latest'); the operator's AKS extension pins its version the same way, without minor auto-upgrades.",
        MANDATORY,
        check_chart_versions,
    ),
    resource_policy(
        "operator-control-plane",
        "The Anyscale operator (AKS extension or Helm chart) has global.controlPlaneURL set to exactly the "
        "Azure control plane.",
        MANDATORY,
        check_control_plane,
        {
            "controlPlaneUrl": {
                "type": "string",
                "default": platform.CONSOLE_ORIGIN,
                "description": "the control plane the operator must talk to",
            }
        },
    ),
    resource_policy(
        "operator-chart-keys",
        "The Anyscale operator sets only keys its chart reads (Helm ignores any other silently), and never "
        "networking.gateway.className.",
        MANDATORY,
        check_chart_keys,
        {
            "extraAllowedKeys": {
                "type": "array",
                "items": {"type": "string"},
                "default": [],
                "description": "chart keys to accept beyond the 1.8.0 list (e.g. for a newer chart)",
            }
        },
    ),
    resource_policy(
        "aks-local-accounts",
        "AKS clusters disable local accounts (Entra ID only). Advisory: it needs Entra RBAC set up first.",
        ADVISORY,
        check_aks_local_accounts,
    ),
    resource_policy(
        "aks-sku-tier",
        "AKS clusters do not run on the Free tier (no API server SLA). Advisory: fine for a sandbox.",
        ADVISORY,
        check_aks_sku,
        {
            "disallowedTiers": {
                "type": "array",
                "items": {"type": "string", "enum": ["Free", "Standard", "Premium"]},
                "default": ["Free"],
                "description": "AKS sku tiers to warn about",
            }
        },
    ),
    *gke.POLICIES,
    resource_policy(
        "storage-retain-on-delete",
        "Buckets and storage accounts are kept when removed from the stack (retainOnDelete). Advisory, "
        "offline only: a dev stack may want them gone.",
        ADVISORY,
        check_retain_on_delete,
    ),
    *EKS_POLICIES,
    *aks.POLICIES,
]
