"""The platform's records and their buckets: registrations (platform.md 1), storage and
the console's CORS rule (platform.md 2)."""

from __future__ import annotations

from pack import (
    ADVISORY,
    CRITICAL,
    HIGH,
    MANDATORY,
    MEDIUM,
    Policy,
    Settings,
    array_of_strings,
    policy,
    stack_resources,
)
from pulumi_policy import ResourceValidationArgs
from rules import aws_iam, eks, gcp_iam, gke, platform, registration, stack, storage
from rules.options import offline_option
from rules.plan_records import BUCKET_POLICY, GCS_BUCKET
from rules.values import MISSING, get, type_is

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
    if type_is(kind, GCS_BUCKET):
        return storage.GCS_CORS
    return None


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
    if type_is(kind, BUCKET_POLICY):
        return aws_iam.bucket_policy_problems(args.props)
    if storage.is_s3_bucket(kind):
        return storage.s3_bucket_problems(args.props) + aws_iam.bucket_policy_problems(args.props)
    return []


def check_gcs_storage(args: ResourceValidationArgs, _: Settings) -> list[str]:
    if type_is(args.resource_type, GCS_BUCKET):
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


POLICIES: list[Policy] = [
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
        "Cloud resource registrations are replaced exactly when a path the platform fixes changes (name, "
        "location, parent cloud, each property), never for anything else, and deleted before they are "
        "re-created: deleteBeforeReplace, and replaceOnChanges on those paths (offline only).",
        level=MANDATORY,
        severity=HIGH,
        remediation="The platform refuses to change a registration's name, location, cloud or properties and names "
        "are unique on the cloud, so the resource needs delete_before_replace=True and replace_on_changes on exactly "
        "those paths (components/registration.py sets both from REGISTRATION_REPLACING_PATHS); '*' would also replace "
        "it on an apiVersion change, which the platform takes as an update.",
        check=check_registration_replacement,
    ),
    policy(
        "registration-order",
        "The first cloud resource registration is 'default' with provider Azure, each later one depends on "
        "the one before it, and names are unique within the cloud, ignoring case. The order is the one the "
        "engine keeps, read from each registration's dependencies and parent chain, not from the order of the "
        "records in a plan.",
        level=MANDATORY,
        severity=HIGH,
        remediation="Put the AKS primary named 'default' first in anyscale-cloud:resources, give every resource a "
        "name no other one has (Azure compares names without case), and keep each registration depending on the "
        "one before it (components/cloud.py chains them; a registration added by hand needs depends_on=[previous]).",
        stack_check=lambda args, _: stack.registration_order_findings(stack_resources(args)),
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
        stack_check=lambda args, _: stack.s3_guard_findings(stack_resources(args)),
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
        stack_check=lambda args, _: eks.tls_only_findings(stack_resources(args)),
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
        stack_check=lambda args, config: stack.cors_coverage_findings(stack_resources(args), cors_rule(config)),
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
        on=(GCS_BUCKET,),
    ),
]
