"""The pack's records and their buckets (policy/catalog/records.py): cloud resource
registrations (properties, replacement, order), storage on Azure, S3 and GCS, and the
console's CORS rule. Every policy is called directly with a real `ResourceValidationArgs` /
`StackValidationArgs` on records of the multicloud plan, compliant as recorded and changed to
violate it. CASES holds each policy's row (settings, planted violations: tests/policy/cases.py)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from pulumi_policy import ResourceValidationArgs, StackValidationPolicy
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE, unknown_checking_proxy

from preflight import policy as runner
from tests.policy.helpers import (
    CONSOLE,
    PACK,
    POLICIES,
    Plant,
    PolicyCase,
    changed,
    doc,
    edited,
    one,
    props,
    real_engine_options,
    record,
    reports,
    retyped,
    set_at,
    undepend,
    validate,
    validate_stack,
    violations,
    without,
)

# The console's CORS rule, as the platform documents it (platform.md 2): literals, not the pack's constants.
CORS_DEFAULTS = {
    "origin": "https://console.azure.anyscale.com",
    "methods": ["GET", "HEAD", "PUT", "POST", "DELETE"],
    "exposedHeaders": ["Accept-Ranges", "Content-Range", "Content-Length"],
}
BLOB_ORIGINS = ("inputs", "cors", "corsRules", 0, "allowedOrigins")
BUCKET_POLICY = "aws:s3/bucketPolicy:BucketPolicy"
PUBLIC_READ = {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}
DENY_HTTP = {
    "Effect": "Deny",
    "Principal": "*",
    "Action": "s3:*",
    "Resource": ["arn:aws:s3:::b", "arn:aws:s3:::b/*"],
    "Condition": {"Bool": {"aws:SecureTransport": "false"}},
}


def _rename(rec: dict[str, Any]) -> None:
    rec["inputs"]["resourceName"] = "secondary"


CASES = [
    PolicyCase(
        "registration-properties",
        planted=(
            Plant("default-registration", set_at(("inputs", "properties", "provider"), "azure"), "write 'Azure'"),
        ),
    ),
    PolicyCase(
        "registration-replacement",
        planted=(
            Plant(
                "default-registration", set_at(("options", "deleteBeforeReplace"), False), "delete_before_replace=True"
            ),
        ),
    ),
    PolicyCase(
        "registration-order",
        planted=(
            Plant("default-registration", _rename, "must be named 'default'"),
            Plant("aws-usw2-registration", undepend, "depends_on"),
            Plant("gcp-usc1-registration", set_at(("inputs", "resourceName"), "AWS-USW2"), "but for case"),
        ),
    ),
    PolicyCase(
        "storage-azure-secure",
        config_default={"minimumTlsVersions": ["TLS1_2", "TLS1_3"]},
        violate=lambda plan: changed(plan, "default-storage", set_at(("inputs", "minimumTlsVersion"), "TLS1_1")),
        allow={"minimumTlsVersions": ["TLS1_1", "TLS1_2"]},
        # TLS 1.2 is the floor: the schema's enum refuses a config that would lower it.
        refused="minimumTlsVersions[0]: must be one of",
        planted=(
            Plant("default-storage", set_at(("inputs", "allowSharedKeyAccess"), True), "allow_shared_key_access=False"),
        ),
    ),
    PolicyCase(
        "storage-s3-secure",
        planted=(
            Plant("aws-usw2-public-access-block", set_at(("inputs", "blockPublicPolicy"), False), "set all four"),
            Plant("aws-usw2-bucket", set_at(("inputs", "policy"), doc(PUBLIC_READ)), "to everyone"),
        ),
    ),
    PolicyCase(
        "storage-s3-coverage",
        planted=(Plant("aws-usw2-encryption", None, "BucketServerSideEncryptionConfiguration", "aws-usw2-bucket"),),
    ),
    PolicyCase(
        "storage-s3-tls-only",
        planted=(Plant("aws-usw2-tls-only", None, "accepts requests over plain HTTP", "aws-usw2-bucket"),),
    ),
    PolicyCase(
        "storage-gcs-secure",
        planted=(
            Plant(
                "gcp-usc1-storage",
                set_at(("inputs", "uniformBucketLevelAccess"), False),
                "uniform_bucket_level_access=True",
            ),
            Plant("gcp-usc1-operator-storage-objects", set_at(("inputs", "member"), "allUsers"), "allUsers"),
        ),
    ),
    PolicyCase("storage-retain-on-delete"),  # advisory, offline only
    PolicyCase(
        "console-cors",
        config_default=CORS_DEFAULTS,
        # The console of another control plane.
        violate=lambda plan: changed(plan, "default-blob-cors", set_at(BLOB_ORIGINS, ["https://console.anyscale.com"])),
        allow={"origin": "https://console.anyscale.com"},
        planted=(
            Plant(
                "default-blob-cors",
                set_at(("inputs", "cors", "corsRules", 0, "allowedMethods"), ["GET"]),
                "allow GET, HEAD, PUT, POST, DELETE",
            ),
        ),
    ),
    PolicyCase(
        "cors-origins",
        config_default={"extraOrigins": []},
        violate=lambda plan: changed(
            plan, "default-blob-cors", set_at(BLOB_ORIGINS, [CONSOLE, "https://notebooks.example.com"])
        ),
        allow={"extraOrigins": ["https://notebooks.example.com"]},
        planted=(
            Plant("default-blob-cors", set_at(BLOB_ORIGINS, [CONSOLE, "*"]), "any web page"),
            Plant(
                "gcp-usc1-storage",
                set_at(("inputs", "cors", 0, "origins"), [CONSOLE, "http://localhost:8080"]),
                "'http://localhost:8080'",
            ),
        ),
    ),
    PolicyCase(
        "console-cors-coverage",
        config_default=CORS_DEFAULTS,  # a stack policy: test_coverage_config_defaults_are_what_the_check_uses
        planted=(Plant("default-blob-cors", None, "BlobServiceProperties", "default-storage"),),
    ),
    PolicyCase(
        "gcs-cors-all-headers",
        planted=(
            Plant(
                "gcp-usc1-storage",
                set_at(("inputs", "cors", 0, "responseHeaders"), ["Content-Range"]),
                "set responseHeaders to ['*']",
            ),
        ),
    ),
]


def test_coverage_config_defaults_are_what_the_check_uses(plan):
    """The stack policy too: compliant under its defaults, and its origin read from the config."""
    assert validate_stack("console-cors-coverage", plan) == []
    moved = {**CORS_DEFAULTS, "origin": "https://console.anyscale.com"}
    assert violations(POLICIES["console-cors-coverage"], runner.stack_args(plan["resources"], moved))


# --- registration-properties --------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["default-registration", "aws-usw2-registration", "gcp-usc1-registration", "onprem-registration"]
)
def test_registration_properties_compliant(plan, name):
    assert validate("registration-properties", record(plan, name)) == []


@pytest.mark.parametrize(
    "name, key, value, fragments",
    [
        ("aws-usw2-registration", "provider", "aws", ["exactly one of Azure, AWS, GCP, Generic", "write 'AWS'"]),
        ("aws-usw2-registration", "provider", "Kubernetes", ["exactly one of"]),
        ("default-registration", "computeStack", "VM", ["must be 'K8S'"]),
        ("default-registration", "region", "EastUS2", ["did you mean 'eastus2'"]),
        ("default-registration", "region", "a" * 36, ["at most 35"]),
        ("gcp-usc1-registration", "cloudStorageBucketRegion", "US-CENTRAL1", ["cloudStorageBucketRegion", "casing"]),
        ("aws-usw2-registration", "cloudStorageBucketName", "s3://ray-data/prefix", ["sub-path", "s3://<bucket>"]),
        (
            "aws-usw2-registration",
            "cloudStorageBucketName",
            "gs://ray-data",
            ["not an AWS bucket URI", "s3://<bucket>"],
        ),
        ("gcp-usc1-registration", "cloudStorageBucketName", "s3://ray-data", ["not a GCP bucket URI", "gs://<bucket>"]),
        ("default-registration", "cloudStorageBucketName", "s3://ray-data", ["not an Azure bucket URI", "abfss://"]),
        (
            "default-registration",
            "cloudStorageBucketEndpoint",
            "https://acct${default-storage-suffix.result}.blob.core.windows.net/",
            [
                "trailing slash silently breaks log delivery",
                "'https://acct${default-storage-suffix.result}.blob.core.windows.net'",
            ],
        ),
        (
            "default-registration",
            "cloudStorageBucketEndpoint",
            "https://acct.blob.core.windows.net/logs",
            ["bare https://<host> origin"],
        ),
        (
            "default-registration",
            "cloudStorageBucketEndpoint",
            "http://acct.blob.core.windows.net",
            ["bare https://<host> origin"],
        ),
        ("default-registration", "cloudStorageBucketEndpoint", "", ["blob endpoint"]),
        ("onprem-registration", "cloudStorageBucketEndpoint", "https://minio.example.com/", ["trailing slash"]),
        ("gcp-usc1-registration", "anyscaleOperatorIamIdentity", "", ["service account email"]),
        ("onprem-registration", "anyscaleOperatorIamIdentity", "token-user", ["Generic has no cloud identity"]),
        ("default-registration", "cloudResourceId", "cldrsrc_123", ["cloudResourceId do not exist", "read-only"]),
        ("default-registration", "sku", "Premium", ["sku do not exist", "remove them"]),
    ],
)
def test_registration_properties_violations(plan, name, key, value, fragments):
    rec = copy.deepcopy(record(plan, name))
    props(rec)[key] = value
    one(validate("registration-properties", rec), *fragments)


@pytest.mark.parametrize(
    "spec_path, spec_value, name, key, message",
    [
        (
            (1, "region"),
            "US-West-2",
            "aws-usw2-registration",
            "region",
            "'US-West-2' must be lowercase letters and digits in dash-separated groups (^[a-z0-9]+(-[a-z0-9]+)*$) "
            "(did you mean 'us-west-2'? casing is never converted)",
        ),
        (
            (1, "storage", "bucket"),
            "s3://ray-data/logs",
            "aws-usw2-registration",
            "cloudStorageBucketName",
            "'s3://ray-data/logs' has a sub-path; the platform takes the bucket itself only (s3://<bucket>)",
        ),
        (
            (2, "storage", "bucket"),
            "s3://ray-data",
            "gcp-usc1-registration",
            "cloudStorageBucketName",
            "'s3://ray-data' is not a GCP bucket URI; use gs://<bucket>",
        ),
        (
            (3, "storage", "endpoint"),
            "https://minio.example.com/",
            "onprem-registration",
            "cloudStorageBucketEndpoint",
            "'https://minio.example.com/' ends with '/': a trailing slash silently breaks log delivery; use the bare "
            "origin 'https://minio.example.com'",
        ),
    ],
)
def test_spec_and_pack_share_one_rule(plan, spec_path, spec_value, name, key, message):
    """One check (policy/rules/platform.py), two wrappers: the stack spec names the config
    path, the pack the registration's property; the rule's words are the same."""
    from config import SpecError, load_spec
    from tests.conftest import stack_values

    values = stack_values("example")
    resources = values["anyscale-cloud:resources"]
    index, *path = spec_path
    node = resources[index]
    for part in path[:-1]:
        node = node.setdefault(part, {})
    node[path[-1]] = spec_value
    with pytest.raises(SpecError) as caught:
        load_spec(values["anyscale-cloud:cloud"], resources)
    assert [p.message for p in caught.value.problems] == [message]
    rec = copy.deepcopy(record(plan, name))
    props(rec)[key] = spec_value
    assert validate("registration-properties", rec) == [f"properties.{key} {message}"]


@pytest.mark.parametrize(
    "key", ["provider", "computeStack", "region", "cloudStorageBucketName", "cloudStorageBucketEndpoint"]
)
def test_registration_properties_required(plan, key):
    rec = copy.deepcopy(record(plan, "aws-usw2-registration"))
    del props(rec)[key]
    assert any(f"properties {key} are required" in m for m in validate("registration-properties", rec))


def test_registration_identity_missing_is_a_violation(plan):
    rec = copy.deepcopy(record(plan, "aws-usw2-registration"))
    del props(rec)["anyscaleOperatorIamIdentity"]
    one(validate("registration-properties", rec), "IAM role ARN")


def test_unknown_registration_values_are_not_violations(plan):
    """Values only the cloud knows: plan placeholders, the engine's sentinels, None."""
    rec = copy.deepcopy(record(plan, "default-registration"))
    for key in ("region", "cloudStorageBucketName", "cloudStorageBucketEndpoint", "anyscaleOperatorIamIdentity"):
        props(rec)[key] = "${default-thing." + key + "}"
    assert validate("registration-properties", rec) == []
    for key in props(rec):
        props(rec)[key] = UNKNOWN_STRING_VALUE
    assert validate("registration-properties", rec) == []
    rec["inputs"]["properties"] = "<unknown>"
    assert validate("registration-properties", rec) == []


def test_engine_unknowns_go_through_the_sdk_proxy_without_failing(plan):
    """Under a real preview the props are the SDK's unknown-checking proxy: touching an
    unknown raises UnknownValueError, which would skip the whole policy."""
    rec = record(plan, "aws-usw2-registration")
    inputs = copy.deepcopy(rec["inputs"])
    inputs["properties"]["anyscaleOperatorIamIdentity"] = UNKNOWN_STRING_VALUE
    inputs["properties"]["cloudStorageBucketName"] = UNKNOWN_STRING_VALUE
    args = ResourceValidationArgs(
        rec["type"], unknown_checking_proxy(inputs), rec["urn"], rec["name"], real_engine_options(True), None
    )
    unchecked = {}
    for policy in PACK.ALL_POLICIES:
        if not isinstance(policy, StackValidationPolicy):
            found, advisory = reports(policy, args)
            assert found == [], (policy.name, found)
            if advisory is not None:
                unchecked[policy.name] = advisory
    # The identity not known yet is an output feeding it: set. The bucket's URI cannot be checked.
    assert unchecked == {
        "registration-properties": "could not check properties.cloudStorageBucketName: unknown until apply; "
        "checked again on pulumi up"
    }


# --- registration-replacement ---------------------------------------------------------------------


def test_registration_replacement(plan):
    rec = record(plan, "default-registration")
    assert validate("registration-replacement", rec) == []
    no_dbr = copy.deepcopy(rec)
    no_dbr["options"]["deleteBeforeReplace"] = False
    one(validate("registration-replacement", no_dbr), "delete_before_replace=True")
    narrowed = copy.deepcopy(rec)
    narrowed["options"]["replaceOnChanges"] = [
        p for p in rec["options"]["replaceOnChanges"] if p != "properties.cloudStorageBucketRegion"
    ]
    one(
        validate("registration-replacement", narrowed),
        "replaceOnChanges misses ['properties.cloudStorageBucketRegion']: the platform refuses to change them",
    )
    # "*" replaced the record on an apiVersion bump, which the platform takes as an update.
    for broad in (["*"], ["properties"]):
        everything = copy.deepcopy(rec)
        everything["options"]["replaceOnChanges"] = [*rec["options"]["replaceOnChanges"], *broad]
        one(
            validate("registration-replacement", everything),
            f"replaceOnChanges is {everything['options']['replaceOnChanges']!r}: that replaces the cloud resource on any change",
        )


def test_registration_replacement_under_a_real_engine_checks_delete_before_replace_only(plan):
    rec = record(plan, "default-registration")

    def check(dbr: bool | None) -> list[str]:
        args = ResourceValidationArgs(
            rec["type"], runner.props_of(rec), rec["urn"], rec["name"], real_engine_options(dbr), None
        )
        return violations(POLICIES["registration-replacement"], args)

    assert check(True) == []  # replaceOnChanges is not visible: not checked
    one(check(None), "deleteBeforeReplace is not set")


# --- registration-order (stack) -------------------------------------------------------------------


def test_registration_order_compliant(plan, dev_plan):
    assert validate_stack("registration-order", plan) == []
    assert validate_stack("registration-order", dev_plan.to_json()) == []


def test_registration_order_first_must_be_default_on_azure(plan):
    """aws-usw2 first in the graph (default waits for it, it waits for no registration);
    where the records sit in the list does not matter (tests/policy/test_registration_order.py)."""
    default, aws = record(plan, "default-registration"), record(plan, "aws-usw2-registration")
    reordered = edited(plan, "aws-usw2-registration", undepend)
    record(reordered, "default-registration")["dependsOn"].append(aws["urn"])
    found = validate_stack("registration-order", reordered)
    messages = [m for urn, m in found if urn == aws["urn"]]
    assert any("must be named 'default'" in m for m in messages)
    assert any("must have provider AZURE" in m for m in messages)
    assert default["urn"] not in [urn for urn, _ in found]  # it waits for the one before it


def test_registration_order_each_waits_for_the_previous(plan):
    broken = edited(
        plan,
        "gcp-usc1-registration",
        lambda r: r.update(dependsOn=[d for d in r["dependsOn"] if "aws-usw2-registration" not in d]),
    )
    found = validate_stack("registration-order", broken)
    assert len(found) == 1
    urn, message = found[0]
    assert urn == record(plan, "gcp-usc1-registration")["urn"]
    assert "'gcp-usc1' does not depend on 'aws-usw2'" in message and "depends_on" in message


def test_registration_order_names_are_unique(plan):
    twice = edited(plan, "gcp-usc1-registration", lambda r: r["inputs"].update(resourceName="aws-usw2"))
    found = validate_stack("registration-order", twice)
    assert [m for _, m in found if "already used" in m and "HTTP 409" in m]


def test_registration_names_equal_but_for_case(plan):
    for other in ("AWS-USW2", "Aws-Usw2"):
        twice = edited(plan, "gcp-usc1-registration", lambda r, other=other: r["inputs"].update(resourceName=other))
        found = validate_stack("registration-order", twice)
        assert [u for u, _ in found] == [record(plan, "gcp-usc1-registration")["urn"]]
        assert f"'{other}' equals 'aws-usw2' (aws-usw2-registration) but for case" in found[0][1]
        assert "case-insensitive" in found[0][1]
    renamed = edited(plan, "gcp-usc1-registration", lambda r: r["inputs"].update(resourceName="aws-usw3"))
    assert validate_stack("registration-order", renamed) == []


# --- storage ----------------------------------------------------------------------------------------


def test_storage_azure_secure(plan):
    assert validate("storage-azure-secure", record(plan, "default-storage")) == []
    assert validate("storage-azure-secure", record(plan, "default-container")) == []
    cases = {
        "enableHttpsTrafficOnly": (False, "enable_https_traffic_only=True"),
        "minimumTlsVersion": ("TLS1_0", "minimum_tls_version to TLS1_2"),
        "allowBlobPublicAccess": (True, "allow_blob_public_access=False"),
        "allowSharedKeyAccess": (True, "allow_shared_key_access=False"),
    }
    for key, (value, fix) in cases.items():
        rec = copy.deepcopy(record(plan, "default-storage"))
        rec["inputs"][key] = value
        one(validate("storage-azure-secure", rec), fix)
        del rec["inputs"][key]  # the API's default is not good enough: it must be explicit
        one(validate("storage-azure-secure", rec), fix)
    container = edited(plan, "default-container", lambda r: r["inputs"].update(publicAccess="Blob"))
    one(validate("storage-azure-secure", record(container, "default-container")), "public_access='None'")


def test_storage_azure_secure_tls_is_configurable(plan):
    rec = record(plan, "default-storage")
    one(validate("storage-azure-secure", rec, {"minimumTlsVersions": ["TLS1_3"]}), "TLS1_3")


def test_storage_s3_secure(plan):
    for name in ("aws-usw2-bucket", "aws-usw2-public-access-block", "aws-usw2-encryption"):
        assert validate("storage-s3-secure", record(plan, name)) == [], name
    block = copy.deepcopy(record(plan, "aws-usw2-public-access-block"))
    block["inputs"]["restrictPublicBuckets"] = False
    del block["inputs"]["ignorePublicAcls"]
    one(validate("storage-s3-secure", block), "ignorePublicAcls, restrictPublicBuckets not true")
    sse = copy.deepcopy(record(plan, "aws-usw2-encryption"))
    sse["inputs"]["rules"] = [{"bucketKeyEnabled": True}]
    one(validate("storage-s3-secure", sse), "sse_algorithm")
    public = copy.deepcopy(record(plan, "aws-usw2-bucket"))
    public["inputs"]["acl"] = "public-read"
    one(validate("storage-s3-secure", public), "must be private")


def test_storage_s3_coverage(plan):
    assert validate_stack("storage-s3-coverage", plan) == []
    bucket = record(plan, "aws-usw2-bucket")["urn"]
    found = validate_stack("storage-s3-coverage", without(plan, "aws-usw2-public-access-block"))
    assert found == [(bucket, found[0][1])] and "BucketPublicAccessBlock" in found[0][1]
    found = validate_stack("storage-s3-coverage", without(plan, "aws-usw2-encryption"))
    assert found == [(bucket, found[0][1])] and "BucketServerSideEncryptionConfiguration" in found[0][1]
    inline = edited(
        without(plan, "aws-usw2-encryption"),
        "aws-usw2-bucket",
        lambda r: r["inputs"].update(
            serverSideEncryptionConfiguration={
                "rule": {"applyServerSideEncryptionByDefault": {"sseAlgorithm": "aws:kms"}}
            }
        ),
    )
    assert validate_stack("storage-s3-coverage", inline) == []


@pytest.mark.parametrize(
    "statement, fragments",
    [
        (PUBLIC_READ, ["'s3:GetObject' to everyone"]),
        ({**PUBLIC_READ, "Principal": {"AWS": "*"}}, ["to everyone"]),
        ({**PUBLIC_READ, "Principal": {"AWS": ["arn:aws:iam::1:root", "*"]}}, ["to everyone"]),
        ({**PUBLIC_READ, "Principal": {"AWS": "${aws-usw2-operator.arn}"}, "Action": "s3:*"}, ["allows 's3:*'"]),
        (
            {**PUBLIC_READ, "Principal": {"AWS": "${aws-usw2-operator.arn}"}, "Action": ["s3:GetObject", "*"]},
            ["allows '*'"],
        ),
    ],
)
def test_s3_bucket_policy_violations(plan, statement, fragments):
    bucket = record(plan, "aws-usw2-bucket")
    rec = retyped(bucket, BUCKET_POLICY, {"bucket": "${aws-usw2-bucket.id}", "policy": doc(DENY_HTTP, statement)})
    one(validate("storage-s3-secure", rec), *fragments)
    inline = copy.deepcopy(bucket)
    inline["inputs"]["policy"] = doc(statement)
    one(validate("storage-s3-secure", inline), *fragments)


@pytest.mark.parametrize(
    "policy",
    [
        doc(DENY_HTTP),  # Principal '*' in a Deny: the usual TLS-only guard
        doc({**PUBLIC_READ, "Condition": {"StringEquals": {"aws:SourceVpce": "vpce-1"}}}),
        doc({**PUBLIC_READ, "Principal": {"AWS": "${aws-usw2-operator.arn}"}}),
        "${aws-usw2-bucket-policy.json}",
        "<unknown>",
    ],
)
def test_s3_bucket_policy_compliant(plan, policy):
    rec = retyped(record(plan, "aws-usw2-bucket"), BUCKET_POLICY, {"bucket": "b", "policy": policy})
    assert validate("storage-s3-secure", rec) == []


def test_storage_gcs_secure(plan):
    assert validate("storage-gcs-secure", record(plan, "gcp-usc1-storage")) == []
    rec = copy.deepcopy(record(plan, "gcp-usc1-storage"))
    rec["inputs"]["uniformBucketLevelAccess"] = False
    one(validate("storage-gcs-secure", rec), "uniform_bucket_level_access=True")
    rec = copy.deepcopy(record(plan, "gcp-usc1-storage"))
    rec["inputs"]["publicAccessPrevention"] = "inherited"
    one(validate("storage-gcs-secure", rec), "public_access_prevention='enforced'")


def test_gcs_bucket_not_public(plan):
    grant = record(plan, "gcp-usc1-operator-storage-objects")
    assert validate("storage-gcs-secure", grant) == []
    public = copy.deepcopy(grant)
    public["inputs"]["member"] = "allUsers"
    one(validate("storage-gcs-secure", public), "grants the bucket to allUsers")
    binding = retyped(
        grant,
        "gcp:storage/bucketIAMBinding:BucketIAMBinding",
        {
            "bucket": "b",
            "role": "roles/storage.objectViewer",
            "members": ["serviceAccount:${sa.email}", "allAuthenticatedUsers"],
        },
    )
    one(validate("storage-gcs-secure", binding), "allAuthenticatedUsers")
    policy_data = json.dumps({"bindings": [{"role": "roles/storage.objectViewer", "members": ["allUsers"]}]})
    one(
        validate(
            "storage-gcs-secure",
            retyped(grant, "gcp:storage/bucketIAMPolicy:BucketIAMPolicy", {"bucket": "b", "policyData": policy_data}),
        ),
        "allUsers",
    )
    acl = retyped(
        grant,
        "gcp:storage/bucketACL:BucketACL",
        {"bucket": "b", "roleEntities": ["OWNER:project-owners-1", "READER:allUsers"]},
    )
    one(validate("storage-gcs-secure", acl), "allUsers")
    binding["inputs"]["members"] = ["serviceAccount:${sa.email}"]
    assert validate("storage-gcs-secure", binding) == []


def test_storage_retain_on_delete_is_advisory_and_offline_only(plan):
    assert validate("storage-retain-on-delete", record(plan, "default-storage")) == []
    rec = copy.deepcopy(record(plan, "gcp-usc1-storage"))
    rec["options"]["retainOnDelete"] = False
    one(validate("storage-retain-on-delete", rec), "storage.retainOnDelete: true")
    args = ResourceValidationArgs(
        rec["type"], runner.props_of(rec), rec["urn"], rec["name"], real_engine_options(None), None
    )
    assert violations(POLICIES["storage-retain-on-delete"], args) == []


# --- console CORS -----------------------------------------------------------------------------------


CORS_RECORDS = {
    "default-blob-cors": ("cors", "corsRules"),
    "aws-usw2-cors": ("corsRules",),
    "gcp-usc1-storage": ("cors",),
}
FIELDS = {  # (origins, methods, exposed headers) per provider
    "default-blob-cors": ("allowedOrigins", "allowedMethods", "exposedHeaders"),
    "aws-usw2-cors": ("allowedOrigins", "allowedMethods", "exposeHeaders"),
    "gcp-usc1-storage": ("origins", "methods", "responseHeaders"),
}


def _rule(rec: dict[str, Any]) -> dict[str, Any]:
    node = rec["inputs"]
    for key in CORS_RECORDS[rec["name"]]:
        node = node[key]
    return node[0]  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", list(CORS_RECORDS))
def test_console_cors(plan, name):
    assert validate("console-cors", record(plan, name)) == []
    origins, methods, exposed = FIELDS[name]
    rec = copy.deepcopy(record(plan, name))
    _rule(rec)[origins] = ["https://console.anyscale.com"]
    one(validate("console-cors", rec), f"no CORS rule for the console origin {CONSOLE}")
    rec = copy.deepcopy(record(plan, name))
    _rule(rec)[methods] = ["GET", "HEAD"]
    one(validate("console-cors", rec), "lacks methods PUT, POST, DELETE")
    rec = copy.deepcopy(record(plan, name))
    _rule(rec)[exposed] = ["Content-Length"]
    one(validate("console-cors", rec), "does not expose Accept-Ranges, Content-Range")
    rec = copy.deepcopy(record(plan, name))
    _rule(rec)[origins] = ["${some.origin}"]
    assert validate("console-cors", rec) == []  # not known yet: maybe the right one


def test_console_cors_needs_all_request_headers(plan):
    rec = copy.deepcopy(record(plan, "aws-usw2-cors"))
    _rule(rec)["allowedHeaders"] = ["Content-Type"]
    one(validate("console-cors", rec), "allowed headers to ['*']")


def test_console_cors_gcs_bucket_must_carry_the_rule(plan):
    rec = copy.deepcopy(record(plan, "gcp-usc1-storage"))
    del rec["inputs"]["cors"]
    one(validate("console-cors", rec), "has no CORS rule", "GET, HEAD, PUT, POST, DELETE")


def test_console_cors_origin_is_configurable(plan):
    one(
        validate("console-cors", record(plan, "aws-usw2-cors"), {"origin": "https://console.example.com"}),
        "console.example.com",
    )


def test_console_cors_coverage(plan):
    assert validate_stack("console-cors-coverage", plan) == []
    found = validate_stack("console-cors-coverage", without(plan, "default-blob-cors"))
    assert [u for u, _ in found] == [record(plan, "default-storage")["urn"]]
    assert "BlobServiceProperties" in found[0][1]
    found = validate_stack("console-cors-coverage", without(plan, "aws-usw2-cors"))
    assert [u for u, _ in found] == [record(plan, "aws-usw2-bucket")["urn"]]
    assert "aws.s3.BucketCorsConfiguration" in found[0][1]
    inline = edited(
        without(plan, "aws-usw2-cors"),
        "aws-usw2-bucket",
        lambda r: r["inputs"].update(corsRules=record(plan, "aws-usw2-cors")["inputs"]["corsRules"]),
    )
    assert validate_stack("console-cors-coverage", inline) == []


@pytest.mark.parametrize("name", list(CORS_RECORDS))
def test_cors_origins(plan, name):
    origins = FIELDS[name][0]
    assert validate("cors-origins", record(plan, name)) == []
    for extra, fragment in [
        ("*", "any web page"),
        ("http://console.azure.anyscale.com", "'http://console.azure.anyscale.com'"),
        ("https://evil.example.com", "'https://evil.example.com'"),
    ]:
        rec = copy.deepcopy(record(plan, name))
        _rule(rec)[origins] = [CONSOLE, extra]
        one(validate("cors-origins", rec), fragment, f"only the console ({CONSOLE})")
        assert validate("console-cors", rec) == []  # the console's rule itself is complete
    rec = copy.deepcopy(record(plan, name))
    _rule(rec)[origins] = [CONSOLE, "https://notebooks.example.com", "${some.origin}"]
    assert validate("cors-origins", rec, {"extraOrigins": ["https://notebooks.example.com"]}) == []
    _rule(rec)[origins] = [CONSOLE, "*"]
    one(validate("cors-origins", rec, {"extraOrigins": ["*"]}), "'*'")  # never configurable


def test_cors_origins_in_a_second_rule(plan):
    rec = copy.deepcopy(record(plan, "aws-usw2-cors"))
    rec["inputs"]["corsRules"].append({"allowedMethods": ["GET"], "allowedOrigins": ["*"]})
    one(validate("cors-origins", rec), "'*'")
