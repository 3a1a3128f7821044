"""The anyscale-cloud policies: the platform's rules (shared/docs/platform.md) as
CrossGuard policies, over what `pulumi preview` (or `preflight policy`) would deploy.

Every policy is one `policy(...)` declaration below (pack.py): name, description,
level, severity, how to fix it, settings and its check. The checks are the plain
functions of `rules/`; what is here only picks the resources they read. A value not
known yet is never a violation by itself. Checks that need a resource option the engine
does not pass to policies (replaceOnChanges, retainOnDelete) or the placeholder text of
a recorded plan run only offline, under `python -m preflight policy`; their descriptions
say "(offline only)". docs/policies.md is generated from this list
(`python -m policy.reference --write`).
"""

from __future__ import annotations

from typing import Any

from pack import ADVISORY, CRITICAL, HIGH, LOW, MANDATORY, MEDIUM, Policy, Settings, policy
from pulumi_policy import EnforcementLevel, ResourceValidationArgs, StackValidationArgs
from rules import aks, aws_iam, clusters, eks, gcp_iam, gke, identity, platform, registration, secrets, stack, storage
from rules.options import PlanResourceOptions, offline_option
from rules.registry import REGISTRY, registry_problems
from rules.values import MISSING, get, setting, type_is

PACK_NAME = "anyscale-cloud"
# Every policy sets its own level; this is only the fallback for one that does not.
DEFAULT_LEVEL = EnforcementLevel.MANDATORY


def array_of_strings(default: list[str], description: str, enum: list[str] | None = None) -> dict[str, Any]:
    items: dict[str, Any] = {"type": "string", **({"enum": enum} if enum else {})}
    return {"type": "array", "items": items, "default": default, "description": description}


# The console's CORS rule (platform.md 2): console-cors and console-cors-coverage take the same settings.
CORS_SETTINGS = {
    "origin": {
        "type": "string",
        "default": platform.CONSOLE_ORIGIN,
        "description": "the console's origin that every bucket must allow",
    },
    "methods": array_of_strings(list(platform.CORS_METHODS), "methods the console's rule must allow"),
    "exposedHeaders": array_of_strings(
        list(platform.CORS_EXPOSED_HEADERS), "response headers the rule must expose (or '*')"
    ),
}


def cors_rule(config: Settings) -> storage.CorsRule:
    return storage.CorsRule(config["origin"], list(config["methods"]), list(config["exposedHeaders"]))


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


# --- checks that read more than one resource type ----------------------------------------------


def check_registration_properties(args: ResourceValidationArgs, _: Settings) -> list[str]:
    if not registration.is_registration(args.resource_type, args.props):
        return []
    return registration.property_problems(args.props)


def check_registration_replacement(args: ResourceValidationArgs, _: Settings) -> list[str]:
    if not registration.is_registration(args.resource_type, args.props):
        return []
    return registration.replacement_problems(
        args.opts.delete_before_replace if args.opts is not None else None,
        offline_option(args.opts, "replace_on_changes"),
    )


def check_azure_storage(args: ResourceValidationArgs, config: Settings) -> list[str]:
    if type_is(args.resource_type, storage.STORAGE_ACCOUNT):
        return storage.azure_account_problems(args.props, list(config["minimumTlsVersions"]))
    return storage.azure_container_problems(args.props)


def check_s3_storage(args: ResourceValidationArgs, _: Settings) -> list[str]:
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


def check_gcs_storage(args: ResourceValidationArgs, _: Settings) -> list[str]:
    if type_is(args.resource_type, storage.GCS_BUCKET):
        return storage.gcs_bucket_problems(args.props)
    return gcp_iam.bucket_public_problems(args.resource_type, args.props)


def check_retain_on_delete(args: ResourceValidationArgs, _: Settings) -> list[str]:
    if offline_option(args.opts, "retain_on_delete") is False:
        return [
            "retainOnDelete is off: removing this resource from the stack (or a replacement) deletes the bucket "
            "with its logs and workspace snapshots; set storage.retainOnDelete: true in the stack"
        ]
    return []


def check_console_cors(args: ResourceValidationArgs, config: Settings) -> list[str]:
    shape = cors_shape(args)
    return storage.cors_problems(args.props, shape, cors_rule(config)) if shape else []


def check_cors_origins(args: ResourceValidationArgs, config: Settings) -> list[str]:
    shape = cors_shape(args)
    if shape is None:
        return []
    return storage.cors_origin_problems(args.props, shape, platform.CONSOLE_ORIGIN, list(config["extraOrigins"]))


def check_role_assignments(args: ResourceValidationArgs, config: Settings) -> list[str]:
    forbidden = {guid.lower(): name for guid, name in dict(config["forbiddenRoles"]).items()}
    return identity.role_assignment_problems(args.props, forbidden)


def check_principal_vs_client(args: ResourceValidationArgs, _: Settings) -> list[str]:
    kind = args.resource_type
    if type_is(kind, identity.ROLE_ASSIGNMENT):
        return identity.principal_problems(args.props)
    if registration.is_registration(kind, args.props):
        return identity.registration_identity_problems(args.props)
    if type_is(kind, clusters.EXTENSION):
        settings = clusters.operator_settings(kind, args.props)
        return identity.operator_identity_problems(settings) if isinstance(settings, dict) else []
    return []


def check_clear_secrets(args: ResourceValidationArgs, _: Settings) -> list[str]:
    """Offline only: a real engine hands a policy secrets as plain values (see rules/secrets.py)."""
    if not isinstance(args.opts, PlanResourceOptions):
        return []
    return secrets.clear_secret_problems(args.props)


def check_operator_identity(args: ResourceValidationArgs, _: Settings) -> list[str]:
    settings = clusters.operator_settings(args.resource_type, args.props)
    if not isinstance(settings, dict):
        return []
    provider = "Azure" if type_is(args.resource_type, clusters.EXTENSION) else setting(settings, "global.cloudProvider")
    return identity.operator_iam_identity_problems(settings, provider)


def check_control_plane(args: ResourceValidationArgs, config: Settings) -> list[str]:
    settings = clusters.operator_settings(args.resource_type, args.props)
    return clusters.control_plane_problems(settings, config["controlPlaneUrl"])


def check_chart_keys(args: ResourceValidationArgs, config: Settings) -> list[str]:
    settings = clusters.operator_settings(args.resource_type, args.props)
    return clusters.chart_key_problems(settings, list(config["extraAllowedKeys"]))


def resources(args: StackValidationArgs) -> list[Any]:
    return list(args.resources)


# --- the pack ----------------------------------------------------------------------------------

ALL_POLICIES: list[Policy] = [
    # --- cloud resource registrations (platform.md 1) ---
    policy(
        "registration-properties",
        "Cloud resource registrations (Anyscale.Platform/clouds/cloudResources) carry valid properties: "
        "provider Azure/AWS/GCP/Generic, computeStack K8S, a valid region, a bucket URI of the provider's "
        "scheme without sub-path, a bare https endpoint (Azure), an operator identity (all but Generic), "
        "and no property the ARM type does not define.",
        level=MANDATORY,
        severity=HIGH,
        remediation="The platform refuses (or misroutes) a registration with these properties. Fix the resource's "
        "entry in anyscale-cloud:resources (provider, region, storage.bucket, storage.endpoint) and run "
        "`python -m preflight validate` on the stack file; a registration built outside the stack config must set "
        "the properties the message names, spelled as the ARM type spells them.",
        check=check_registration_properties,
    ),
    policy(
        "registration-replacement",
        "Cloud resource registrations are replaced, never updated, and deleted before they are re-created: "
        "deleteBeforeReplace, and replaceOnChanges ['*'] (offline only).",
        level=MANDATORY,
        severity=HIGH,
        remediation="Every property of a registration is immutable and its name is unique on the cloud, so the "
        "resource needs delete_before_replace=True and replace_on_changes=['*'] in its ResourceOptions "
        "(components/registration.py sets both; keep them when changing it).",
        check=check_registration_replacement,
    ),
    policy(
        "registration-order",
        "The first cloud resource registration is 'default' with provider Azure, each later one depends on "
        "the one before it, and names are unique within the cloud, ignoring case.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Put the AKS primary named 'default' first in anyscale-cloud:resources, give every resource a "
        "name no other one has (Azure compares names without case), and keep each registration depending on the "
        "one before it (components/cloud.py chains them; a registration added by hand needs depends_on=[previous]).",
        stack_check=lambda args, _: stack.registration_order_findings(resources(args)),
    ),
    # --- storage (platform.md 2) ---
    policy(
        "storage-azure-secure",
        "Azure storage accounts are HTTPS only with a minimum TLS version of 1.2, allow no public blob access "
        "and no shared-key access; blob containers are private.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set the account's enable_https_traffic_only=True, minimum_tls_version TLS1_2 (or TLS1_3), "
        "allow_blob_public_access=False and allow_shared_key_access=False, and give containers "
        "public_access=None (components/azure/bucket.py does; the operator reaches the account with its managed "
        "identity, never a key).",
        check=check_azure_storage,
        on=(storage.STORAGE_ACCOUNT, storage.BLOB_CONTAINER),
        settings={
            "minimumTlsVersions": array_of_strings(
                ["TLS1_2", "TLS1_3"], "accepted values of minimumTlsVersion", enum=["TLS1_2", "TLS1_3"]
            )
        },
    ),
    policy(
        "storage-s3-secure",
        "S3 public access blocks set all four flags, default encryption uses AES256 or KMS, no bucket has "
        "a public canned ACL, and no bucket policy allows everyone ('*' without a Condition) or a wildcard action.",
        level=MANDATORY,
        severity=CRITICAL,
        remediation="Set all four flags of the bucket's BucketPublicAccessBlock to true, give its encryption "
        "configuration an AES256 or aws:kms default, drop public canned ACLs, and grant bucket policy access to the "
        "operator's role with the actions it needs instead of '*' (components/aws/bucket.py and policies.py).",
        check=check_s3_storage,
    ),
    policy(
        "storage-s3-coverage",
        "Every S3 bucket has a public access block and a default encryption configuration.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Add an aws.s3.BucketPublicAccessBlock (all four flags true) and an "
        "aws.s3.BucketServerSideEncryptionConfiguration (AES256 or aws:kms) for the bucket the message names, "
        "or create the bucket with components/aws/bucket.py, which adds both.",
        stack_check=lambda args, _: stack.s3_guard_findings(resources(args)),
    ),
    policy(
        "storage-s3-tls-only",
        "Every S3 bucket we create has a bucket policy denying requests without TLS "
        "(aws:SecureTransport false, Principal '*').",
        level=MANDATORY,
        severity=MEDIUM,
        remediation="Add a bucket policy statement with Effect Deny, Principal '*', Action 's3:*' on the bucket "
        "and its objects and Condition {'Bool': {'aws:SecureTransport': 'false'}}, merged into the bucket's one "
        "policy (components/aws/policies.py deny_insecure_transport).",
        stack_check=lambda args, _: eks.tls_only_findings(resources(args)),
    ),
    policy(
        "storage-gcs-secure",
        "GCS buckets enforce uniform bucket-level access and public access prevention, and no bucket IAM grant or "
        "ACL names allUsers or allAuthenticatedUsers.",
        level=MANDATORY,
        severity=CRITICAL,
        remediation="Create the bucket with uniform_bucket_level_access=True and public_access_prevention='enforced' "
        "(components/gcp/bucket.py does), and grant it to the operator's service account only, never allUsers or "
        "allAuthenticatedUsers.",
        check=check_gcs_storage,
    ),
    policy(
        "storage-retain-on-delete",
        "Buckets and storage accounts are kept when removed from the stack (retainOnDelete). Advisory, "
        "offline only: a dev stack may want them gone.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Set storage.retainOnDelete: true on the resource in the stack, so that removing it (or a "
        "replacement) leaves the bucket with its logs and workspace snapshots; leave it off for a throw-away stack.",
        check=check_retain_on_delete,
        on=storage.DATA_STORES,
    ),
    # --- the console's CORS rule (platform.md 2) ---
    policy(
        "console-cors",
        "Every CORS setting on our buckets (Azure blob service, S3 CORS configuration, GCS bucket) has the "
        "console's rule: its origin, the methods GET/HEAD/PUT/POST/DELETE, all request headers, and the "
        "range headers exposed. GCS buckets must carry it.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Add (or complete) the CORS rule for the console's origin: methods GET, HEAD, PUT, POST and "
        "DELETE, allowed headers '*', and Accept-Ranges, Content-Range and Content-Length exposed; without it the "
        "console cannot read logs from the bucket. The program's bucket builders use the rule of "
        "policy/rules/platform.py.",
        check=check_console_cors,
        settings=CORS_SETTINGS,
    ),
    policy(
        "cors-origins",
        "CORS settings on our buckets allow no origin beyond the console's: never '*', never plain http, no "
        "other site unless listed in extraOrigins.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Remove the other origins from the bucket's CORS rules. An https origin that must read the "
        "bucket from a browser goes into this policy's extraOrigins setting; '*' and http:// origins are never "
        "accepted.",
        check=check_cors_origins,
        settings={
            "extraOrigins": array_of_strings(
                [], "https origins allowed next to the console's ('*' and http:// are never accepted)"
            )
        },
    ),
    policy(
        "console-cors-coverage",
        "Every storage account we create has a BlobServiceProperties with the console's CORS rule, and every "
        "S3 bucket a CORS configuration with it.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Add a storage.BlobServiceProperties (Azure) or aws.s3.BucketCorsConfiguration (S3) with the "
        "console's rule for the account or bucket the message names, or create it with the program's bucket "
        "builders, which add it.",
        stack_check=lambda args, config: stack.cors_coverage_findings(resources(args), cors_rule(config)),
        settings=CORS_SETTINGS,
    ),
    policy(
        "gcs-cors-all-headers",
        "GCS bucket CORS rules list '*' in responseHeaders: on GCS that list is also the allowed request headers, "
        "and the console's uploads and ranged reads send Content-Type and Range.",
        level=MANDATORY,
        severity=MEDIUM,
        remediation="Set responseHeaders to ['*'] in every CORS rule of the bucket (components/gcp/bucket.py does).",
        check=lambda args, _: gke.gcs_cors_header_problems(args.props),
        on=(gke.GCS_BUCKET,),
    ),
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
        "(system:serviceaccount:anyscale-operator:anyscale-operator) with audience api://AzureADTokenExchange.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set the credential's subject to system:serviceaccount:anyscale-operator:anyscale-operator, its "
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
        "serviceAccount:<project>.svc.id.goog[anyscale-operator/anyscale-operator].",
        level=MANDATORY,
        severity=HIGH,
        remediation="Bind roles/iam.workloadIdentityUser on the operator's service account to "
        "serviceAccount:<project>.svc.id.goog[anyscale-operator/anyscale-operator] only "
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
    # --- AKS ---
    policy(
        "aks-rbac",
        "AKS clusters keep Kubernetes RBAC on.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set enable_rbac=True on the ManagedCluster (components/azure/cluster.py does). RBAC cannot be "
        "turned on for an existing cluster: a cluster created without it must be recreated.",
        check=lambda args, _: clusters.aks_rbac_problems(args.props),
        on=(clusters.MANAGED_CLUSTER,),
    ),
    policy(
        "aks-workload-identity",
        "AKS clusters have the OIDC issuer and workload identity enabled (the operator's identity is federated).",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set oidc_issuer_profile={'enabled': True} and "
        "security_profile={'workload_identity': {'enabled': True}} on the ManagedCluster "
        "(components/azure/cluster.py does); the operator's identity is federated to that issuer.",
        check=lambda args, _: clusters.aks_identity_problems(args.props),
        on=(clusters.MANAGED_CLUSTER,),
    ),
    policy(
        "aks-entra-only-access",
        "AKS clusters without local accounts have managed Entra ID integration with admin groups "
        "(otherwise AKS rejects them or nobody can administer them).",
        level=MANDATORY,
        severity=HIGH,
        remediation="With cluster.disableLocalAccounts: true, set cluster.adminGroupObjectIds in the stack to the "
        "Entra ID groups of the cluster's admins (`az ad group show --group <name> --query id`); the program then "
        "enables managed Entra ID integration.",
        check=lambda args, _: aks.entra_only_problems(args.props),
        on=(clusters.MANAGED_CLUSTER,),
    ),
    policy(
        "aks-local-accounts",
        "AKS clusters disable local accounts (Entra ID only). Advisory: it needs Entra RBAC set up first.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Once Entra ID RBAC for the cluster is set up, set cluster.disableLocalAccounts: true and "
        "cluster.adminGroupObjectIds in the stack; the static admin kubeconfig then stops working.",
        check=lambda args, _: clusters.aks_local_account_problems(args.props),
        on=(clusters.MANAGED_CLUSTER,),
    ),
    policy(
        "aks-sku-tier",
        "AKS clusters do not run on the Free tier (no API server SLA). Advisory: fine for a sandbox.",
        level=ADVISORY,
        severity=LOW,
        remediation="Set cluster.skuTier: Standard (or Premium) in the stack for a cluster users depend on; the "
        "tier can be changed in place.",
        check=lambda args, config: clusters.aks_sku_problems(args.props, list(config["disallowedTiers"])),
        on=(clusters.MANAGED_CLUSTER,),
        settings={
            "disallowedTiers": array_of_strings(
                ["Free"], "AKS sku tiers to warn about", ["Free", "Standard", "Premium"]
            )
        },
    ),
    policy(
        "aks-public-api-server",
        "AKS API servers are private or restricted to authorized IP ranges. Advisory: Entra ID or the "
        "cluster certificate still guards a public one.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Set cluster.apiServer.authorizedIpRanges in the stack to the ranges of your offices, VPN and "
        "CI runners (include where `pulumi up` runs), or cluster.apiServer.private: true when deploys run inside "
        "the network.",
        check=lambda args, _: aks.public_api_problems(args.props),
        on=(clusters.MANAGED_CLUSTER,),
    ),
    policy(
        "aks-network-policy",
        "AKS clusters run a network policy engine (azure, calico or cilium). Advisory: without one, "
        "NetworkPolicy objects are ignored.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Set cluster.network.networkPolicy (azure, calico or cilium) in the stack; it needs "
        "cluster.network and is fixed when the cluster is created, so an existing cluster is replaced.",
        check=lambda args, _: aks.network_policy_problems(args.props),
        on=(clusters.MANAGED_CLUSTER,),
    ),
    # --- EKS ---
    policy(
        "eks-public-endpoint",
        "EKS clusters with a public API endpoint restrict it to listed CIDRs (not 0.0.0.0/0). "
        "Advisory: EKS's default, and a restricted endpoint needs every deployer's and CI runner's address.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Set cluster.endpointPublicAccessCidrs in the stack to the ranges of your offices, VPN and CI "
        "runners (the nodes use the private endpoint), or cluster.endpointPublicAccess: false when deploys run "
        "inside the VPC.",
        check=lambda args, _: eks.public_endpoint_problems(args.props),
        on=(eks.EKS_CLUSTER,),
    ),
    policy(
        "eks-access-entries",
        "EKS clusters with API authentication have access entries beyond the creating identity. "
        "Advisory: a single-operator sandbox may need none.",
        level=ADVISORY,
        severity=MEDIUM,
        remediation="Add cluster.accessEntries in the stack (principalArn and policy) for the team members and CI "
        "roles that use the cluster; otherwise only the identity that created it can.",
        stack_check=lambda args, _: eks.access_entry_findings(resources(args)),
    ),
    # --- GKE ---
    policy(
        "gke-node-service-account",
        "GKE nodes (clusters' default pools and node pools) run as a service account of their own, never the Compute "
        "Engine default one.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Give every node pool (and a cluster's default pool, unless it is removed) "
        "nodeConfig.serviceAccount, a service account with the node roles only (components/gcp/pools.py does).",
        check=lambda args, _: gke.node_account_problems(args.resource_type, args.props),
    ),
    policy(
        "gke-default-network",
        "GKE clusters do not run on the project's `default` VPC (often absent; SSH and RDP open to the internet). "
        "Advisory: an existing stack may have to stay there.",
        level=ADVISORY,
        severity=LOW,
        remediation="Leave cluster.network unset in the stack (the program creates a VPC) or name a network of your "
        "own; moving an existing cluster to another network replaces it.",
        check=lambda args, _: gke.default_network_problems(args.props),
        on=(gke.CLUSTER,),
    ),
    # --- the Anyscale operator and charts (platform.md 4) ---
    policy(
        "operator-iam-identity",
        "The Anyscale operator on Azure, AWS or GCP has global.auth.iamIdentity set (its cloud identity).",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set global.auth.iamIdentity to the operator's cloud identity: the managed identity's client ID "
        "(Azure), the IAM role ARN (AWS) or the service account email (GCP); the program's addons set it.",
        check=check_operator_identity,
    ),
    policy(
        "operator-control-plane",
        "The Anyscale operator (AKS extension or Helm chart) has global.controlPlaneURL set to exactly the "
        "Azure control plane.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Set global.controlPlaneURL to exactly the control plane (no trailing slash); the program's "
        "addons set it. Another control plane goes into this policy's controlPlaneUrl setting.",
        check=check_control_plane,
        settings={
            "controlPlaneUrl": {
                "type": "string",
                "default": platform.CONSOLE_ORIGIN,
                "description": "the control plane the operator must talk to",
            }
        },
    ),
    policy(
        "operator-chart-keys",
        "The Anyscale operator sets only keys its chart reads (Helm ignores any other silently), and never "
        "networking.gateway.className.",
        level=MANDATORY,
        severity=MEDIUM,
        remediation="Fix the key's spelling or remove it (the chart's keys are listed in policy/rules/chart_keys.py); "
        "keys of a newer chart go into this policy's extraAllowedKeys setting.",
        check=check_chart_keys,
        settings={
            "extraAllowedKeys": array_of_strings(
                [], "chart keys to accept beyond the 1.8.0 list (e.g. for a newer chart)"
            )
        },
    ),
    policy(
        "chart-versions-pinned",
        "Helm releases pin one exact chart version (not a range like '>=1.0.0', '~1.2', '*' or a tag like "
        "'latest'); the operator's AKS extension pins its version the same way, without minor auto-upgrades.",
        level=MANDATORY,
        severity=MEDIUM,
        remediation="Pin each chart to one exact version (components/defaults.py holds the program's pins; "
        "addons.*.version in the stack overrides them), and set auto_upgrade_minor_version=False on the operator's "
        "AKS extension.",
        check=lambda args, _: clusters.chart_version_problems(args.resource_type, args.props),
        on=(*clusters.HELM_RELEASES, clusters.EXTENSION),
    ),
]
