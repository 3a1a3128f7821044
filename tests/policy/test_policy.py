"""The policy pack (policy/): every policy called directly with a real
`ResourceValidationArgs` / `StackValidationArgs` on a violating and a compliant
fixture; `python -m preflight policy` end to end; and the pack itself, booted the way
the Pulumi CLI boots it and asked over gRPC."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pulumi_policy import (
    EnforcementLevel,
    PolicyCustomTimeouts,
    PolicyResourceOptions,
    ResourceValidationArgs,
    StackValidationPolicy,
)
from pulumi_policy.proxy import UNKNOWN_BOOLEAN_VALUE, UNKNOWN_STRING_VALUE, UnknownValueError, unknown_checking_proxy

from preflight import policy as runner
from preflight.runtime import Plan

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "policy"
PACK = runner.load_pack()
POLICIES = {p.name: p for p in PACK.ALL_POLICIES}
CONSOLE = "https://console.azure.anyscale.com"
OWNER = "8e3af657-a8ff-443c-a75c-2fe8c4bcb635"


# --- helpers --------------------------------------------------------------------------------


def fixture_records(name: str) -> list[dict[str, Any]]:
    return json.loads((FIXTURES / f"{name}.json").read_text())["resources"]


def multicloud(dev_plan: Plan) -> dict[str, Any]:
    """The dev plan (real, recorded) plus hand-made AWS, GCP and Generic cloud resources."""
    plan = copy.deepcopy(dev_plan.to_json())
    for name in ("aws", "gcp", "generic"):
        plan["resources"] += fixture_records(name)
    return plan


def record(plan: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in plan["resources"] if r["name"] == name)


def edited(plan: dict[str, Any], name: str, edit: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """A copy of `plan` with one record changed by `edit`."""
    plan = copy.deepcopy(plan)
    edit(record(plan, name))
    return plan


def without(plan: dict[str, Any], name: str) -> dict[str, Any]:
    plan = copy.deepcopy(plan)
    plan["resources"] = [r for r in plan["resources"] if r["name"] != name]
    return plan


def reports(policy: Any, args: Any) -> tuple[list[tuple[str | None, str]], str | None]:
    """The violations (urn, message) `policy` reports for `args`, and the message of the
    UnknownValueError naming what it could not check (None when it checked everything),
    which the engine shows as an advisory: tests/policy/test_policy_unknowns.py tests those."""
    found: list[tuple[str | None, str]] = []
    try:
        policy.validate(args, lambda message, urn=None: found.append((urn, message)))
    except UnknownValueError as error:
        return found, error.message
    return found, None


def violations(policy: Any, args: Any) -> list[str]:
    return [message for _, message in reports(policy, args)[0]]


def validate(policy: str, rec: dict[str, Any], config: dict[str, Any] | None = None) -> list[str]:
    """The violations `policy` reports for one plan record, through its validate function."""
    args = runner.resource_args(rec, config=config)
    assert isinstance(args, ResourceValidationArgs)
    return violations(POLICIES[policy], args)


def validate_stack(policy: str, plan: dict[str, Any]) -> list[tuple[str | None, str]]:
    return reports(POLICIES[policy], runner.stack_args(plan["resources"]))[0]


def one(messages: list[str], *fragments: str) -> None:
    assert len(messages) == 1, messages
    for fragment in fragments:
        assert fragment in messages[0], messages[0]


@pytest.fixture(scope="module")
def plan(dev_plan: Plan) -> dict[str, Any]:
    return multicloud(dev_plan)


# --- the pack -----------------------------------------------------------------------------------


def test_the_pack_is_named_and_holds_every_declaration():
    """What each declaration carries is tests/policy/test_policy_pack.py's; the levels, severities and
    settings of all of them are docs/policies.md's (tests/policy/test_policy_reference.py)."""
    assert PACK.PACK_NAME == "anyscale-cloud"
    assert len(POLICIES) == len(PACK.ALL_POLICIES)


# Every configurable setting and its default, as the platform documents it (literals, not the
# pack's constants): platform.md 2 (the console's CORS rule), 3 (roles), 4 (controlPlaneURL);
# Azure built-in roles (learn.microsoft.com/azure/role-based-access-control/built-in-roles).
CORS_DEFAULTS = {
    "origin": "https://console.azure.anyscale.com",
    "methods": ["GET", "HEAD", "PUT", "POST", "DELETE"],
    "exposedHeaders": ["Accept-Ranges", "Content-Range", "Content-Length"],
}
CONFIG_DEFAULTS = {
    "console-cors": CORS_DEFAULTS,
    "console-cors-coverage": CORS_DEFAULTS,
    "storage-azure-secure": {"minimumTlsVersions": ["TLS1_2", "TLS1_3"]},
    "cors-origins": {"extraOrigins": []},
    "identity-role-assignments": {
        "forbiddenRoles": {
            OWNER: "Owner",
            "b24988ac-6180-42a0-ab88-20f7382dd24c": "Contributor",
            "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9": "User Access Administrator",
            "f58310d9-a9f6-439a-9e8d-f62e7b41a168": "Role Based Access Control Administrator",
            "17d1049b-9a84-46fb-8f53-869881c3d3ab": "Storage Account Contributor",
        }
    },
    "operator-control-plane": {"controlPlaneUrl": "https://console.azure.anyscale.com"},
    "operator-chart-keys": {"extraAllowedKeys": []},
    "aks-sku-tier": {"disallowedTiers": ["Free"]},
}


@pytest.mark.parametrize("policy", sorted(CONFIG_DEFAULTS))
def test_config_defaults_are_the_platforms(policy):
    schema = POLICIES[policy].config_schema
    assert schema is not None, f"{policy} has no settings"
    assert {name: spec["default"] for name, spec in schema.properties.items()} == CONFIG_DEFAULTS[policy]


def _violating(plan: dict[str, Any], policy: str) -> dict[str, Any]:
    """A record that breaks `policy` under its defaults only (what each default forbids)."""
    if policy == "console-cors":
        rec = copy.deepcopy(record(plan, "default-blob-cors"))
        _rule(rec)["allowedOrigins"] = ["https://console.anyscale.com"]  # another control plane
    elif policy == "storage-azure-secure":
        rec = copy.deepcopy(record(plan, "default-storage"))
        rec["inputs"]["minimumTlsVersion"] = "TLS1_1"
    elif policy == "cors-origins":
        rec = copy.deepcopy(record(plan, "default-blob-cors"))
        _rule(rec)["allowedOrigins"] = [CONSOLE, "https://notebooks.example.com"]
    elif policy == "identity-role-assignments":
        rec = copy.deepcopy(record(plan, "default-operator-storage"))
        rec["inputs"]["roleDefinitionId"] = rec["inputs"]["roleDefinitionId"].rsplit("/", 1)[0] + "/" + OWNER
    elif policy == "operator-control-plane":
        rec = copy.deepcopy(record(plan, "default-operator-extension"))
        rec["inputs"]["configurationSettings"]["global.controlPlaneURL"] = "https://console.anyscale.com"
    elif policy == "operator-chart-keys":
        rec = copy.deepcopy(record(plan, "default-operator-extension"))
        rec["inputs"]["configurationSettings"]["global.newThing"] = "x"
    else:
        assert policy == "aks-sku-tier", policy
        rec = copy.deepcopy(record(plan, "default-aks"))
        rec["inputs"]["sku"]["tier"] = "Free"
    return rec


@pytest.mark.parametrize("policy", sorted(set(CONFIG_DEFAULTS) - {"console-cors-coverage"}))
def test_config_defaults_are_what_the_checks_use(plan, policy):
    """Without config, a check applies exactly the documented defaults: the same findings as
    with the defaults passed explicitly, and a violation that only the defaults forbid."""
    rec = _violating(plan, policy)
    defaults = copy.deepcopy(CONFIG_DEFAULTS[policy])
    found = validate(policy, rec)
    assert len(found) == 1, found
    assert validate(policy, rec, defaults) == found
    # ...and the setting is what decides it: allowing the value lifts the violation.
    allowing = {
        "console-cors": {"origin": "https://console.anyscale.com"},
        "storage-azure-secure": {"minimumTlsVersions": ["TLS1_1", "TLS1_2"]},
        "cors-origins": {"extraOrigins": ["https://notebooks.example.com"]},
        "identity-role-assignments": {"forbiddenRoles": {}},
        "operator-control-plane": {"controlPlaneUrl": "https://console.anyscale.com"},
        "operator-chart-keys": {"extraAllowedKeys": ["global.newThing"]},
        "aks-sku-tier": {"disallowedTiers": []},
    }[policy]
    config_problems = runner.config_problems({policy: allowing}, PACK.ALL_POLICIES)
    if policy == "storage-azure-secure":
        # TLS 1.2 is the floor: the schema's enum refuses a config that would lower it.
        assert config_problems and "minimumTlsVersions[0]: must be one of" in config_problems[0]
    else:
        assert config_problems == []
        assert validate(policy, rec, allowing) == []


def test_coverage_config_defaults_are_what_the_check_uses(plan):
    """The stack policy too: compliant under its defaults, and its origin read from the config."""
    assert validate_stack("console-cors-coverage", plan) == []
    moved = {**CORS_DEFAULTS, "origin": "https://console.anyscale.com"}
    assert violations(POLICIES["console-cors-coverage"], runner.stack_args(plan["resources"], moved))


def test_the_chart_key_list_is_the_reference_list():
    reference = ROOT.parent / "shared" / "reference" / "anyscale-operator-1.8.0-template-keys.txt"
    if not reference.exists():
        pytest.skip("shared/reference is not here")
    from rules.chart_keys import TEMPLATE_KEYS

    assert {line.strip() for line in reference.read_text().splitlines() if line.strip()} == TEMPLATE_KEYS


# --- registration-properties --------------------------------------------------------------------


def _props(rec: dict[str, Any]) -> dict[str, Any]:
    return rec["inputs"]["properties"]


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
    _props(rec)[key] = value
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
    _props(rec)[key] = spec_value
    assert validate("registration-properties", rec) == [f"properties.{key} {message}"]


@pytest.mark.parametrize(
    "key", ["provider", "computeStack", "region", "cloudStorageBucketName", "cloudStorageBucketEndpoint"]
)
def test_registration_properties_required(plan, key):
    rec = copy.deepcopy(record(plan, "aws-usw2-registration"))
    del _props(rec)[key]
    assert any(f"properties {key} are required" in m for m in validate("registration-properties", rec))


def test_registration_identity_missing_is_a_violation(plan):
    rec = copy.deepcopy(record(plan, "aws-usw2-registration"))
    del _props(rec)["anyscaleOperatorIamIdentity"]
    one(validate("registration-properties", rec), "IAM role ARN")


def test_unknown_registration_values_are_not_violations(plan):
    """Values only the cloud knows: plan placeholders, the engine's sentinels, None."""
    rec = copy.deepcopy(record(plan, "default-registration"))
    for key in ("region", "cloudStorageBucketName", "cloudStorageBucketEndpoint", "anyscaleOperatorIamIdentity"):
        _props(rec)[key] = "${default-thing." + key + "}"
    assert validate("registration-properties", rec) == []
    for key in _props(rec):
        _props(rec)[key] = UNKNOWN_STRING_VALUE
    assert validate("registration-properties", rec) == []
    rec["inputs"]["properties"] = "<unknown>"
    assert validate("registration-properties", rec) == []


def test_engine_unknowns_go_through_the_sdk_proxy_without_failing(plan):
    """Under a real preview the props are the SDK's unknown-checking proxy: touching an
    unknown raises UnknownValueError, which would skip the whole policy."""
    rec = record(plan, "aws-usw2-registration")
    props = copy.deepcopy(rec["inputs"])
    props["properties"]["anyscaleOperatorIamIdentity"] = UNKNOWN_STRING_VALUE
    props["properties"]["cloudStorageBucketName"] = UNKNOWN_STRING_VALUE
    args = ResourceValidationArgs(
        rec["type"], unknown_checking_proxy(props), rec["urn"], rec["name"], real_engine_options(True), None
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


def real_engine_options(delete_before_replace: bool | None) -> PolicyResourceOptions:
    """Options as the engine passes them: no replaceOnChanges, retainOnDelete, dependsOn."""
    return PolicyResourceOptions(False, [], delete_before_replace, [], PolicyCustomTimeouts(0, 0, 0), [], None)


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
    reordered = edited(plan, "aws-usw2-registration", _undepend)
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


def test_storage_gcs_secure(plan):
    assert validate("storage-gcs-secure", record(plan, "gcp-usc1-storage")) == []
    rec = copy.deepcopy(record(plan, "gcp-usc1-storage"))
    rec["inputs"]["uniformBucketLevelAccess"] = False
    one(validate("storage-gcs-secure", rec), "uniform_bucket_level_access=True")
    rec = copy.deepcopy(record(plan, "gcp-usc1-storage"))
    rec["inputs"]["publicAccessPrevention"] = "inherited"
    one(validate("storage-gcs-secure", rec), "public_access_prevention='enforced'")


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
    return node[0]


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


# --- identities ----------------------------------------------------------------------------------


ROLE_ASSIGNMENTS = [
    "default-operator-acrpush",
    "default-operator-acrtasks",
    "default-kubelet-acrpull",
    "default-operator-storage",
]


@pytest.mark.parametrize("name", ROLE_ASSIGNMENTS)
def test_role_assignments_compliant(plan, name):
    assert validate("identity-role-assignments", record(plan, name)) == []


@pytest.mark.parametrize(
    "role, name",
    [
        (OWNER, "Owner"),
        ("b24988ac-6180-42a0-ab88-20f7382dd24c", "Contributor"),
        ("18D7D88D-D35E-4FB5-A5C3-7773C20A72D9", "User Access Administrator"),
        ("f58310d9-a9f6-439a-9e8d-f62e7b41a168", "Role Based Access Control Administrator"),
        ("17d1049b-9a84-46fb-8f53-869881c3d3ab", "Storage Account Contributor"),
    ],
)
def test_role_assignments_no_broad_roles(plan, role, name):
    rec = copy.deepcopy(record(plan, "default-operator-storage"))
    rec["inputs"]["roleDefinitionId"] = (
        f"/subscriptions/${{azure.subscriptionId}}/providers/Microsoft.Authorization/roleDefinitions/{role}"
    )
    one(validate("identity-role-assignments", rec), f"built-in role {name}", "narrowest role")


@pytest.mark.parametrize(
    "scope",
    [
        "/subscriptions/${azure.subscriptionId}",
        "/subscriptions/0000-1111/",
        "/providers/Microsoft.Management/managementGroups/root",
    ],
)
def test_role_assignments_not_at_subscription_scope(plan, scope):
    rec = copy.deepcopy(record(plan, "default-operator-storage"))
    rec["inputs"]["scope"] = scope
    one(validate("identity-role-assignments", rec), "whole subscription", "scope it to the one resource")


@pytest.mark.parametrize(
    "scope",
    [
        "/subscriptions/0000/resourceGroups/rg-ml-platform-dev",
        "/subscriptions/${azure.subscriptionId}/resourceGroups/rg/",
    ],
)
def test_role_assignments_not_at_resource_group_scope(plan, scope):
    rec = copy.deepcopy(record(plan, "default-operator-storage"))
    rec["inputs"]["scope"] = scope
    one(validate("identity-role-assignments", rec), "a whole resource group", "scope it to the one resource")


@pytest.mark.parametrize(
    "scope",
    [
        "${default-storage.id}",
        "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/acct",
        "/subscriptions/0000/resourceGroups/${rg.name}/providers/Microsoft.ContainerRegistry/registries/reg",
    ],
)
def test_role_assignments_resource_scope_is_fine(plan, scope):
    rec = copy.deepcopy(record(plan, "default-operator-storage"))
    rec["inputs"]["scope"] = scope
    assert validate("identity-role-assignments", rec) == []


def test_role_assignments_forbidden_roles_are_configurable(plan):
    blob = "ba92f5b4-2d11-453d-a403-e96b0029c9fe"
    config = {"forbiddenRoles": {blob: "Storage Blob Data Contributor"}}
    one(
        validate("identity-role-assignments", record(plan, "default-operator-storage"), config),
        "Storage Blob Data Contributor",
    )


def test_principal_vs_client(plan):
    for name in ("default-registration", "default-operator-extension", "default-operator-storage"):
        assert validate("identity-principal-vs-client", record(plan, name)) == [], name
    reg = copy.deepcopy(record(plan, "default-registration"))
    _props(reg)["anyscaleOperatorIamIdentity"] = "${default-operator-identity.clientId}"
    one(validate("identity-principal-vs-client", reg), "use identity.principal_id")
    ext = copy.deepcopy(record(plan, "default-operator-extension"))
    ext["inputs"]["configurationSettings"]["global.auth.iamIdentity"] = "${default-operator-identity.principalId}"
    one(validate("identity-principal-vs-client", ext), "use identity.client_id")
    grant = copy.deepcopy(record(plan, "default-operator-storage"))
    grant["inputs"]["principalId"] = "${default-operator-identity.clientId}"
    one(validate("identity-principal-vs-client", grant), "principal_id")


# --- clusters and the operator ------------------------------------------------------------------


def test_aks_workload_identity(plan):
    assert validate("aks-workload-identity", record(plan, "default-aks")) == []
    rec = copy.deepcopy(record(plan, "default-aks"))
    rec["inputs"]["oidcIssuerProfile"] = {"enabled": False}
    one(validate("aks-workload-identity", rec), "oidc_issuer_profile")
    rec = copy.deepcopy(record(plan, "default-aks"))
    del rec["inputs"]["securityProfile"]
    one(validate("aks-workload-identity", rec), "workload_identity")
    rec["inputs"]["securityProfile"] = {"workloadIdentity": {"enabled": UNKNOWN_BOOLEAN_VALUE}}
    assert validate("aks-workload-identity", rec) == []


def test_aks_local_accounts_is_advisory(plan):
    one(validate("aks-local-accounts", record(plan, "default-aks")), "disableLocalAccounts: true")
    rec = copy.deepcopy(record(plan, "default-aks"))
    rec["inputs"]["disableLocalAccounts"] = True
    assert validate("aks-local-accounts", rec) == []


def test_aks_sku_tier_is_advisory(plan):
    assert validate("aks-sku-tier", record(plan, "default-aks")) == []
    rec = copy.deepcopy(record(plan, "default-aks"))
    rec["inputs"]["sku"]["tier"] = "Free"
    one(validate("aks-sku-tier", rec), "skuTier: Standard")
    assert validate("aks-sku-tier", rec, {"disallowedTiers": []}) == []


@pytest.mark.parametrize(
    "name", ["default-envoy-gateway", "default-kuberay", "default-operator-extension", "aws-usw2-anyscale-operator"]
)
def test_chart_versions_pinned_compliant(plan, name):
    assert validate("chart-versions-pinned", record(plan, name)) == []


def test_chart_versions_pinned(plan):
    rec = copy.deepcopy(record(plan, "default-kuberay"))
    del rec["inputs"]["version"]
    one(validate("chart-versions-pinned", rec), "chart 'kuberay-operator' has no version", "pin version")
    ext = copy.deepcopy(record(plan, "default-operator-extension"))
    ext["inputs"]["autoUpgradeMinorVersion"] = True
    one(validate("chart-versions-pinned", ext), "auto_upgrade_minor_version=False")
    del ext["inputs"]["version"]
    one(validate("chart-versions-pinned", ext), "not pinned")


OPERATORS = [
    "default-operator-extension",
    "aws-usw2-anyscale-operator",
    "gcp-usc1-anyscale-operator",
    "onprem-anyscale-operator",
]


def _set_setting(rec: dict[str, Any], key: str, value: Any) -> None:
    if "configurationSettings" in rec["inputs"]:
        rec["inputs"]["configurationSettings"][key] = value
        return
    node = rec["inputs"]["values"]
    *parents, leaf = key.split(".")
    for part in parents:
        node = node.setdefault(part, {})
    node[leaf] = value


@pytest.mark.parametrize("name", OPERATORS)
def test_operator_control_plane(plan, name):
    assert validate("operator-control-plane", record(plan, name)) == []
    for value, fragment in [
        (CONSOLE + "/", "drop the trailing slash"),
        ("https://console.anyscale.com", "wrong control plane"),
    ]:
        rec = copy.deepcopy(record(plan, name))
        _set_setting(rec, "global.controlPlaneURL", value)
        one(validate("operator-control-plane", rec), fragment, CONSOLE)


def test_operator_control_plane_must_be_set(plan):
    rec = copy.deepcopy(record(plan, "aws-usw2-anyscale-operator"))
    del rec["inputs"]["values"]["global"]["controlPlaneURL"]
    one(validate("operator-control-plane", rec), "not set", "another control plane")
    rec = copy.deepcopy(record(plan, "default-operator-extension"))
    del rec["inputs"]["configurationSettings"]["global.controlPlaneURL"]
    one(validate("operator-control-plane", rec), "not set")


def test_operator_control_plane_ignores_other_charts(plan):
    rec = copy.deepcopy(record(plan, "default-kuberay"))
    rec["inputs"]["values"] = {"global": {"controlPlaneURL": "https://elsewhere"}}
    assert validate("operator-control-plane", rec) == []


@pytest.mark.parametrize("name", OPERATORS)
def test_operator_chart_keys(plan, name):
    assert validate("operator-chart-keys", record(plan, name)) == []
    rec = copy.deepcopy(record(plan, name))
    _set_setting(rec, "networking.gateway.className", "eg")
    one(validate("operator-chart-keys", rec), "networking.gateway.className", "remove it")
    rec = copy.deepcopy(record(plan, name))
    _set_setting(rec, "global.controlPlaneUrl", CONSOLE)
    one(validate("operator-chart-keys", rec), "global.controlPlaneUrl", "does not read", "fix the spelling")


def test_operator_chart_keys_under_a_map_key_and_configurable(plan):
    rec = copy.deepcopy(record(plan, "aws-usw2-anyscale-operator"))
    _set_setting(rec, "operator.nodeSelector", {"kubernetes.io/os": "linux"})
    _set_setting(rec, "workloads.accelerator.nodeSelectors", {"aws": {"T4": "g4dn"}})
    assert validate("operator-chart-keys", rec) == []
    _set_setting(rec, "global.newThing", True)
    one(validate("operator-chart-keys", rec), "global.newThing")
    assert validate("operator-chart-keys", rec, {"extraAllowedKeys": ["global.newThing"]}) == []


# --- gaps in the rules, each planted in a real record, and its compliant form -------------------


def retyped(rec: dict[str, Any], kind: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """A real record turned into another resource type (one our program does not create)."""
    rec = copy.deepcopy(rec)
    name = rec["name"]
    rec.update(type=kind, inputs=inputs, urn=rec["urn"].rsplit("$", 1)[0] + f"${kind}::{name}")
    return rec


def doc(*statements: dict[str, Any]) -> str:
    return json.dumps({"Version": "2012-10-17", "Statement": list(statements)})


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


def test_registry_private(plan):
    assert validate("registry-private", record(plan, "ml-platform-dev-registry")) == []
    rec = copy.deepcopy(record(plan, "ml-platform-dev-registry"))
    del rec["inputs"]["adminUserEnabled"], rec["inputs"]["anonymousPullEnabled"]
    assert validate("registry-private", rec) == []  # both default to off
    for key, fix in [
        ("adminUserEnabled", "admin_user_enabled=False"),
        ("anonymousPullEnabled", "anonymous_pull_enabled=False"),
    ]:
        rec = copy.deepcopy(record(plan, "ml-platform-dev-registry"))
        rec["inputs"][key] = True
        one(validate("registry-private", rec), f"{key} is true", fix)
        rec["inputs"][key] = UNKNOWN_BOOLEAN_VALUE
        assert validate("registry-private", rec) == []


BUCKET_POLICY = "aws:s3/bucketPolicy:BucketPolicy"
PUBLIC_READ = {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}
DENY_HTTP = {
    "Effect": "Deny",
    "Principal": "*",
    "Action": "s3:*",
    "Resource": ["arn:aws:s3:::b", "arn:aws:s3:::b/*"],
    "Condition": {"Bool": {"aws:SecureTransport": "false"}},
}


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


def test_aws_policies_compliant(plan):
    for name in ("aws-usw2-operator-s3", "aws-usw2-operator"):
        assert validate("identity-aws-policies", record(plan, name)) == [], name


@pytest.mark.parametrize("action, shown", [("*", "'*'"), ("s3:*", "'s3:*'"), (["s3:GetObject", "iam:*"], "'iam:*'")])
def test_aws_policies_wildcard_actions(plan, action, shown):
    rec = copy.deepcopy(record(plan, "aws-usw2-operator-s3"))
    rec["inputs"]["policy"] = doc({"Effect": "Allow", "Action": action, "Resource": "*"})
    one(validate("identity-aws-policies", rec), f"allows {shown}", "list the actions")
    rec["inputs"]["policy"] = doc({"Effect": "Deny", "Action": action, "Resource": "*"})
    assert validate("identity-aws-policies", rec) == []
    role = copy.deepcopy(record(plan, "aws-usw2-operator"))
    role["inputs"]["inlinePolicies"] = [
        {"name": "extra", "policy": doc({"Effect": "Allow", "Action": action, "Resource": "*"})}
    ]
    one(validate("identity-aws-policies", role), "inline policy 'extra'", shown)


@pytest.mark.parametrize(
    "arn", ["arn:aws:iam::aws:policy/AdministratorAccess", "arn:aws-us-gov:iam::aws:policy/IAMFullAccess"]
)
def test_aws_policies_broad_managed_policies(plan, arn):
    attachment = retyped(
        record(plan, "aws-usw2-operator"),
        "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
        {"policyArn": arn, "role": "${aws-usw2-operator.name}"},
    )
    one(validate("identity-aws-policies", attachment), f"attaches {arn}")
    role = copy.deepcopy(record(plan, "aws-usw2-operator"))
    role["inputs"]["managedPolicyArns"] = ["arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess", arn]
    one(validate("identity-aws-policies", role), f"attaches {arn}")
    attachment["inputs"]["policyArn"] = "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy"
    assert validate("identity-aws-policies", attachment) == []


def _trust(rec: dict[str, Any]) -> dict[str, Any]:
    return json.loads(rec["inputs"]["assumeRolePolicy"])


def _with_trust(rec: dict[str, Any], trust: dict[str, Any]) -> dict[str, Any]:
    rec = copy.deepcopy(rec)
    rec["inputs"]["assumeRolePolicy"] = json.dumps(trust)
    return rec


def test_aws_trust_compliant(plan):
    operator = record(plan, "aws-usw2-operator")
    assert validate("identity-aws-trust", operator) == []
    service = _with_trust(
        operator,
        {"Statement": [{"Effect": "Allow", "Principal": {"Service": "eks.amazonaws.com"}, "Action": "sts:AssumeRole"}]},
    )
    assert validate("identity-aws-trust", service) == []
    unknown = copy.deepcopy(operator)
    unknown["inputs"]["assumeRolePolicy"] = "${aws-usw2-trust.json}"
    assert validate("identity-aws-trust", unknown) == []


def test_aws_trust_violations(plan):
    operator = record(plan, "aws-usw2-operator")
    trust = _trust(operator)
    conditions = trust["Statement"][0]["Condition"]["StringEquals"]
    sub = next(k for k in conditions if k.endswith(":sub"))
    assert conditions[sub] == "system:serviceaccount:anyscale-operator:anyscale-operator"  # the real one

    no_condition = copy.deepcopy(trust)
    del no_condition["Statement"][0]["Condition"]
    one(validate("identity-aws-trust", _with_trust(operator, no_condition)), "no ':sub' condition", "any pod")

    audience_only = copy.deepcopy(trust)
    del audience_only["Statement"][0]["Condition"]["StringEquals"][sub]
    one(validate("identity-aws-trust", _with_trust(operator, audience_only)), "no ':sub' condition")

    wildcard = copy.deepcopy(trust)
    wildcard["Statement"][0]["Condition"] = {"StringLike": {sub: "system:serviceaccount:*"}}
    one(validate("identity-aws-trust", _with_trust(operator, wildcard)), "'system:serviceaccount:*'", "wildcard")

    for principal in ("*", {"AWS": "*"}, {"Federated": "*"}):
        anyone = copy.deepcopy(trust)
        anyone["Statement"][0]["Principal"] = principal
        one(validate("identity-aws-trust", _with_trust(operator, anyone)), "any principal ('*')")


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


@pytest.mark.parametrize(
    "kind, inputs",
    [
        (
            "gcp:projects/iAMMember:IAMMember",
            {"project": "p", "role": "roles/owner", "member": "serviceAccount:${sa.email}"},
        ),
        (
            "gcp:projects/iAMBinding:IAMBinding",
            {"project": "p", "role": "roles/editor", "members": ["serviceAccount:${sa.email}"]},
        ),
        (
            "gcp:projects/iAMPolicy:IAMPolicy",
            {
                "project": "p",
                "policyData": json.dumps({"bindings": [{"role": "roles/owner", "members": ["user:a@example.com"]}]}),
            },
        ),
    ],
)
def test_gcp_project_roles(plan, kind, inputs):
    rec = retyped(record(plan, "gcp-usc1-operator-storage-objects"), kind, inputs)
    one(validate("identity-gcp-project-roles", rec), "on the whole project", "grant a narrow role")
    narrow = json.loads(
        json.dumps(inputs)
        .replace("roles/owner", "roles/logging.logWriter")
        .replace("roles/editor", "roles/logging.logWriter")
    )
    assert validate("identity-gcp-project-roles", retyped(rec, kind, narrow)) == []


def test_gcp_project_roles_ignore_bucket_grants(plan):
    rec = copy.deepcopy(record(plan, "gcp-usc1-operator-storage-objects"))
    rec["inputs"]["role"] = "roles/owner"  # a bucket-level grant: not this policy's concern
    assert validate("identity-gcp-project-roles", rec) == []


@pytest.mark.parametrize(
    "member",
    [
        "serviceAccount:my-gcp-project.svc.id.goog[default/default]",
        "serviceAccount:my-gcp-project.svc.id.goog[anyscale-operator/other]",
        "serviceAccount:ci@my-gcp-project.iam.gserviceaccount.com",
        "allAuthenticatedUsers",
    ],
)
def test_gcp_workload_identity_violations(plan, member):
    rec = copy.deepcopy(record(plan, "gcp-usc1-operator-workload-identity"))
    rec["inputs"]["member"] = member
    one(validate("identity-gcp-workload-identity", rec), repr(member), "[anyscale-operator/anyscale-operator]")
    binding = retyped(
        rec,
        "gcp:serviceaccount/iAMBinding:IAMBinding",
        {"role": "roles/iam.workloadIdentityUser", "serviceAccountId": "x", "members": [member]},
    )
    one(validate("identity-gcp-workload-identity", binding), repr(member))


@pytest.mark.parametrize(
    "member",
    [
        "serviceAccount:my-gcp-project.svc.id.goog[anyscale-operator/anyscale-operator]",
        "serviceAccount:${gcp-usc1-operator-sa.project}.svc.id.goog[anyscale-operator/anyscale-operator]",
        "${some.member}",
    ],
)
def test_gcp_workload_identity_compliant(plan, member):
    rec = copy.deepcopy(record(plan, "gcp-usc1-operator-workload-identity"))
    rec["inputs"]["member"] = member
    assert validate("identity-gcp-workload-identity", rec) == []
    rec["inputs"].update(role="roles/iam.serviceAccountUser", member="user:a@example.com")
    assert validate("identity-gcp-workload-identity", rec) == []  # another role: not this policy's concern


def test_aks_rbac(plan):
    assert validate("aks-rbac", record(plan, "default-aks")) == []
    rec = copy.deepcopy(record(plan, "default-aks"))
    rec["inputs"]["enableRBAC"] = False
    one(validate("aks-rbac", rec), "enableRBAC: false", "enable_rbac=True")
    rec["inputs"]["enableRBAC"] = UNKNOWN_BOOLEAN_VALUE
    assert validate("aks-rbac", rec) == []
    del rec["inputs"]["enableRBAC"]
    assert validate("aks-rbac", rec) == []  # on by default


def test_federated_subject(plan):
    rec = record(plan, "default-operator-federation")
    assert validate("identity-federated-subject", rec) == []
    for subject in ("system:serviceaccount:default:default", "system:serviceaccount:anyscale-operator:*", ""):
        bad = copy.deepcopy(rec)
        bad["inputs"]["subject"] = subject
        one(
            validate("identity-federated-subject", bad),
            repr(subject),
            "system:serviceaccount:anyscale-operator:anyscale-operator",
        )
    bad = copy.deepcopy(rec)
    bad["inputs"]["audiences"] = ["api://AzureADTokenExchange", "https://evil.example.com"]
    one(validate("identity-federated-subject", bad), "audiences", "api://AzureADTokenExchange")
    unknown = copy.deepcopy(rec)
    unknown["inputs"]["subject"] = "system:serviceaccount:${ns.name}:anyscale-operator"
    assert validate("identity-federated-subject", unknown) == []


@pytest.mark.parametrize(
    "name, kind",
    [
        ("default-operator-extension", "client ID"),
        ("aws-usw2-anyscale-operator", "IAM role ARN"),
        ("gcp-usc1-anyscale-operator", "service account email"),
    ],
)
def test_operator_iam_identity(plan, name, kind):
    assert validate("operator-iam-identity", record(plan, name)) == []
    rec = copy.deepcopy(record(plan, name))
    if "configurationSettings" in rec["inputs"]:
        del rec["inputs"]["configurationSettings"]["global.auth.iamIdentity"]
    else:
        del rec["inputs"]["values"]["global"]["auth"]["iamIdentity"]
    one(validate("operator-iam-identity", rec), "global.auth.iamIdentity is not set", kind)
    _set_setting(rec, "global.auth.iamIdentity", "")
    one(validate("operator-iam-identity", rec), "not set")


def test_operator_iam_identity_not_for_generic(plan):
    rec = record(plan, "onprem-anyscale-operator")
    assert "iamIdentity" not in json.dumps(rec["inputs"])
    assert validate("operator-iam-identity", rec) == []


@pytest.mark.parametrize(
    "version", ["*", ">=1.0.0", "~1.2", "^1.8.0", "latest", "1.x", "1.8", "1.8.0 - 1.9.0", " 1.8.0"]
)
def test_chart_versions_must_be_exact(plan, version):
    for name in ("default-kuberay", "aws-usw2-anyscale-operator", "default-operator-extension"):
        rec = copy.deepcopy(record(plan, name))
        rec["inputs"]["version"] = version
        one(validate("chart-versions-pinned", rec), repr(version), "exact version")


@pytest.mark.parametrize("version", ["1.8.0", "v1.7.0", "1.8.0-rc.1", "0.17.1+build.5", "${versions.kuberay}"])
def test_chart_versions_exact_compliant(plan, version):
    for name in ("default-kuberay", "default-operator-extension"):
        rec = copy.deepcopy(record(plan, name))
        rec["inputs"]["version"] = version
        assert validate("chart-versions-pinned", rec) == [], (name, version)


KUBECONFIG = "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: 'https://k8s.example.com'}\nusers:\n- name: u\n  user: {token: abc}\n"
JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2lnbmF0dXJl"


def test_secrets_in_clear_compliant(plan):
    for rec in plan["resources"]:
        assert validate("secrets-not-in-clear", rec) == [], rec["name"]


@pytest.mark.parametrize(
    "name, path, value, where, what",
    [
        ("default-k8s", ("kubeconfig",), KUBECONFIG, "kubeconfig", "a kubeconfig"),
        (
            "default-k8s",
            ("kubeconfig",),
            json.dumps({"apiVersion": "v1", "kind": "Config"}),
            "kubeconfig",
            "a kubeconfig",
        ),
        ("default-k8s", ("kubeconfig",), "plain-text-token", "kubeconfig", "a credential"),
        (
            "onprem-anyscale-operator",
            ("values", "global", "auth", "anyscaleCliToken"),
            "aph0_secret",
            "values.global.auth.anyscaleCliToken",
            "a credential",
        ),
        (
            "default-operator-extension",
            ("configurationProtectedSettings",),
            {"global.auth.anyscaleCliToken": "aph0_x"},
            "configurationProtectedSettings.global.auth.anyscaleCliToken",
            "a credential",
        ),
        ("default-storage", ("tags",), {"note": JWT}, "tags.note", "a token (JWT)"),
        ("default-envoy-gateway", ("values",), {"config": {"kube": KUBECONFIG}}, "values.config.kube", "a kubeconfig"),
    ],
)
def test_secrets_in_clear(plan, name, path, value, where, what):
    rec = copy.deepcopy(record(plan, name))
    node = rec["inputs"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    messages = validate("secrets-not-in-clear", rec)
    one(messages, f"{where} holds {what} in clear", "Pulumi secret")
    assert "abc" not in messages[0] and "aph0" not in messages[0] and "eyJ" not in messages[0]  # never echoed
    args = ResourceValidationArgs(
        rec["type"], runner.props_of(rec), rec["urn"], rec["name"], real_engine_options(None), None
    )
    # A real engine hands secrets over in plain: offline only.
    assert violations(POLICIES["secrets-not-in-clear"], args) == []


def test_registration_names_equal_but_for_case(plan):
    for other in ("AWS-USW2", "Aws-Usw2"):
        twice = edited(plan, "gcp-usc1-registration", lambda r, other=other: r["inputs"].update(resourceName=other))
        found = validate_stack("registration-order", twice)
        assert [u for u, _ in found] == [record(plan, "gcp-usc1-registration")["urn"]]
        assert f"'{other}' equals 'aws-usw2' (aws-usw2-registration) but for case" in found[0][1]
        assert "case-insensitive" in found[0][1]
    renamed = edited(plan, "gcp-usc1-registration", lambda r: r["inputs"].update(resourceName="aws-usw3"))
    assert validate_stack("registration-order", renamed) == []


# --- preflight policy ------------------------------------------------------------------------------


def test_dev_stack_passes(capsys):
    assert runner.main(["--stack", "dev"]) == 0
    out = capsys.readouterr().out
    assert "0 mandatory" in out


def test_multicloud_plan_has_no_mandatory_violation(plan):
    assert [v for v in runner.check_plan(plan) if v.mandatory] == []


def test_example_stack_has_no_mandatory_violation(example_plan: Plan):
    """The real example stack, every provider: a program error fails here (no skip)."""
    recorded = example_plan.to_json()
    assert {r["type"] for r in recorded["resources"]} >= {
        "azure-native:containerservice:ManagedCluster",
        "aws:eks/cluster:Cluster",
        "gcp:container/cluster:Cluster",
        "kubernetes:helm.sh/v3:Release",
    }
    assert [v for v in runner.check_plan(recorded) if v.mandatory] == []


def _set(path: tuple[str, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(rec: dict[str, Any]) -> None:
        node = rec
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


def _drop(path: tuple[str, ...]) -> Callable[[dict[str, Any]], None]:
    def edit(rec: dict[str, Any]) -> None:
        node = rec
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return edit


def _undepend(rec: dict[str, Any]) -> None:
    rec["dependsOn"] = [u for u in rec["dependsOn"] if not u.endswith("::default-registration")]


def _rename(rec: dict[str, Any]) -> None:
    rec["inputs"]["resourceName"] = "secondary"


def _retype(kind: str, inputs: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def edit(rec: dict[str, Any]) -> None:
        rec.update(retyped(rec, kind, inputs))

    return edit


def _untrust(rec: dict[str, Any]) -> None:
    trust = json.loads(rec["inputs"]["assumeRolePolicy"])
    del trust["Statement"][0]["Condition"]
    rec["inputs"]["assumeRolePolicy"] = json.dumps(trust)


# (policy, multicloud?, record, edit or None to remove it, resource named in the output, the fix)
PLANTED = [
    (
        "registration-properties",
        False,
        "default-registration",
        _set(("inputs", "properties", "provider"), "azure"),
        "default-registration",
        "write 'Azure'",
    ),
    (
        "registration-replacement",
        False,
        "default-registration",
        _set(("options", "deleteBeforeReplace"), False),
        "default-registration",
        "delete_before_replace=True",
    ),
    ("registration-order", False, "default-registration", _rename, "default-registration", "must be named 'default'"),
    ("registration-order", True, "aws-usw2-registration", _undepend, "aws-usw2-registration", "depends_on"),
    (
        "storage-azure-secure",
        False,
        "default-storage",
        _set(("inputs", "allowSharedKeyAccess"), True),
        "default-storage",
        "allow_shared_key_access=False",
    ),
    (
        "storage-s3-secure",
        True,
        "aws-usw2-public-access-block",
        _set(("inputs", "blockPublicPolicy"), False),
        "aws-usw2-public-access-block",
        "set all four",
    ),
    (
        "storage-s3-coverage",
        True,
        "aws-usw2-encryption",
        None,
        "aws-usw2-bucket",
        "BucketServerSideEncryptionConfiguration",
    ),
    (
        "storage-gcs-secure",
        True,
        "gcp-usc1-storage",
        _set(("inputs", "uniformBucketLevelAccess"), False),
        "gcp-usc1-storage",
        "uniform_bucket_level_access=True",
    ),
    (
        "console-cors",
        False,
        "default-blob-cors",
        _set(("inputs", "cors", "corsRules", 0, "allowedMethods"), ["GET"]),
        "default-blob-cors",
        "allow GET, HEAD, PUT, POST, DELETE",
    ),
    ("console-cors-coverage", False, "default-blob-cors", None, "default-storage", "BlobServiceProperties"),
    (
        "identity-role-assignments",
        False,
        "default-operator-storage",
        _set(
            ("inputs", "roleDefinitionId"),
            f"/subscriptions/s/providers/Microsoft.Authorization/roleDefinitions/{OWNER}",
        ),
        "default-operator-storage",
        "narrowest role",
    ),
    (
        "identity-role-assignments",
        False,
        "default-kubelet-acrpull",
        _set(("inputs", "scope"), "/subscriptions/${azure.subscriptionId}"),
        "default-kubelet-acrpull",
        "scope it to the one resource",
    ),
    (
        "identity-principal-vs-client",
        False,
        "default-registration",
        _set(("inputs", "properties", "anyscaleOperatorIamIdentity"), "${default-operator-identity.clientId}"),
        "default-registration",
        "identity.principal_id",
    ),
    (
        "aks-workload-identity",
        False,
        "default-aks",
        _set(("inputs", "oidcIssuerProfile", "enabled"), False),
        "default-aks",
        "oidc_issuer_profile",
    ),
    (
        "chart-versions-pinned",
        False,
        "default-envoy-gateway",
        _drop(("inputs", "version")),
        "default-envoy-gateway",
        "pin version",
    ),
    (
        "operator-control-plane",
        False,
        "default-operator-extension",
        _set(("inputs", "configurationSettings", "global.controlPlaneURL"), CONSOLE + "/"),
        "default-operator-extension",
        "drop the trailing slash",
    ),
    (
        "operator-chart-keys",
        False,
        "default-operator-extension",
        _set(("inputs", "configurationSettings", "networking.gateway.className"), "eg"),
        "default-operator-extension",
        "remove it",
    ),
    (
        "operator-chart-keys",
        True,
        "aws-usw2-anyscale-operator",
        _set(("inputs", "values", "networking", "gateway", "className"), "eg"),
        "aws-usw2-anyscale-operator",
        "remove it",
    ),
    (
        "cors-origins",
        False,
        "default-blob-cors",
        _set(("inputs", "cors", "corsRules", 0, "allowedOrigins"), [CONSOLE, "*"]),
        "default-blob-cors",
        "any web page",
    ),
    (
        "cors-origins",
        True,
        "gcp-usc1-storage",
        _set(("inputs", "cors", 0, "origins"), [CONSOLE, "http://localhost:8080"]),
        "gcp-usc1-storage",
        "'http://localhost:8080'",
    ),
    (
        "registry-private",
        False,
        "ml-platform-dev-registry",
        _set(("inputs", "anonymousPullEnabled"), True),
        "ml-platform-dev-registry",
        "anonymous_pull_enabled=False",
    ),
    (
        "identity-role-assignments",
        False,
        "default-operator-storage",
        _set(("inputs", "scope"), "/subscriptions/${azure.subscriptionId}/resourceGroups/rg-ml-platform-dev"),
        "default-operator-storage",
        "a whole resource group",
    ),
    (
        "identity-role-assignments",
        False,
        "default-operator-acrpush",
        _set(
            ("inputs", "roleDefinitionId"),
            "/subscriptions/s/providers/Microsoft.Authorization/roleDefinitions/f58310d9-a9f6-439a-9e8d-f62e7b41a168",
        ),
        "default-operator-acrpush",
        "Role Based Access Control Administrator",
    ),
    (
        "storage-s3-secure",
        True,
        "aws-usw2-bucket",
        _set(("inputs", "policy"), doc(PUBLIC_READ)),
        "aws-usw2-bucket",
        "to everyone",
    ),
    (
        "identity-aws-policies",
        True,
        "aws-usw2-operator-s3",
        _set(("inputs", "policy"), doc({"Effect": "Allow", "Action": "s3:*", "Resource": "*"})),
        "aws-usw2-operator-s3",
        "list the actions",
    ),
    (
        "identity-aws-policies",
        True,
        "aws-usw2-operator",
        _set(("inputs", "managedPolicyArns"), ["arn:aws:iam::aws:policy/AdministratorAccess"]),
        "aws-usw2-operator",
        "AdministratorAccess",
    ),
    ("identity-aws-trust", True, "aws-usw2-operator", _untrust, "aws-usw2-operator", "no ':sub' condition"),
    (
        "storage-gcs-secure",
        True,
        "gcp-usc1-operator-storage-objects",
        _set(("inputs", "member"), "allUsers"),
        "gcp-usc1-operator-storage-objects",
        "allUsers",
    ),
    (
        "identity-gcp-project-roles",
        True,
        "gcp-usc1-operator-storage-objects",
        _retype(
            "gcp:projects/iAMMember:IAMMember",
            {
                "project": "my-gcp-project",
                "role": "roles/owner",
                "member": "serviceAccount:${gcp-usc1-operator-sa.email}",
            },
        ),
        "gcp-usc1-operator-storage-objects",
        "on the whole project",
    ),
    (
        "identity-gcp-workload-identity",
        True,
        "gcp-usc1-operator-workload-identity",
        _set(("inputs", "member"), "serviceAccount:my-gcp-project.svc.id.goog[default/default]"),
        "gcp-usc1-operator-workload-identity",
        "[anyscale-operator/anyscale-operator]",
    ),
    ("aks-rbac", False, "default-aks", _set(("inputs", "enableRBAC"), False), "default-aks", "enable_rbac=True"),
    (
        "aks-entra-only-access",
        False,
        "default-aks",
        _set(("inputs", "disableLocalAccounts"), True),
        "default-aks",
        "aadProfile.managed",
    ),
    (
        "identity-federated-subject",
        False,
        "default-operator-federation",
        _set(("inputs", "subject"), "system:serviceaccount:default:default"),
        "default-operator-federation",
        "system:serviceaccount:anyscale-operator:anyscale-operator",
    ),
    (
        "operator-iam-identity",
        False,
        "default-operator-extension",
        _drop(("inputs", "configurationSettings", "global.auth.iamIdentity")),
        "default-operator-extension",
        "client ID",
    ),
    (
        "operator-iam-identity",
        True,
        "gcp-usc1-anyscale-operator",
        _drop(("inputs", "values", "global", "auth", "iamIdentity")),
        "gcp-usc1-anyscale-operator",
        "service account email",
    ),
    (
        "chart-versions-pinned",
        False,
        "default-kuberay",
        _set(("inputs", "version"), ">=1.0.0"),
        "default-kuberay",
        "exact version",
    ),
    (
        "chart-versions-pinned",
        False,
        "default-operator-extension",
        _set(("inputs", "version"), "latest"),
        "default-operator-extension",
        "exact version",
    ),
    (
        "secrets-not-in-clear",
        False,
        "default-k8s",
        _set(("inputs", "kubeconfig"), KUBECONFIG),
        "default-k8s",
        "kubeconfig holds a kubeconfig in clear",
    ),
    (
        "secrets-not-in-clear",
        True,
        "onprem-anyscale-operator",
        _set(("inputs", "values", "global", "auth", "anyscaleCliToken"), JWT),
        "onprem-anyscale-operator",
        "a token (JWT) in clear",
    ),
    (
        "registration-order",
        True,
        "gcp-usc1-registration",
        _set(("inputs", "resourceName"), "AWS-USW2"),
        "gcp-usc1-registration",
        "but for case",
    ),
    ("storage-s3-tls-only", True, "aws-usw2-tls-only", None, "aws-usw2-bucket", "accepts requests over plain HTTP"),
    (
        "gcs-cors-all-headers",
        True,
        "gcp-usc1-storage",
        _set(("inputs", "cors", 0, "responseHeaders"), ["Content-Range"]),
        "gcp-usc1-storage",
        "set responseHeaders to ['*']",
    ),
    (
        "gke-node-service-account",
        True,
        "gcp-usc1-operator-sa",
        _retype(
            "gcp:container/nodePool:NodePool", {"cluster": "gke-x", "nodeConfig": {"machineType": "e2-standard-4"}}
        ),
        "gcp-usc1-operator-sa",
        "Compute Engine default service account",
    ),
]


def test_every_mandatory_policy_has_a_planted_violation():
    """A mandatory policy is one `preflight policy` fails a plan on: it is shown doing so."""
    mandatory = [p.name for p in PACK.ALL_POLICIES if p.enforcement_level is EnforcementLevel.MANDATORY]
    planted = {case[0] for case in PLANTED}
    missing = [name for name in mandatory if name not in planted]
    assert not missing, (
        f"no planted violation for the mandatory {', '.join(missing)}: add to PLANTED in tests/policy/test_policy.py a "
        "(policy, multicloud?, record name, edit of that record or None to remove it, resource named in the "
        "output, fragment of the fix) that makes `preflight policy` fail on it, then "
        "venv/bin/python -m tests.policy.test_policy_messages"
    )
    assert planted <= set(POLICIES), f"PLANTED names policies the pack does not have: {sorted(planted - set(POLICIES))}"


@pytest.mark.parametrize("policy, multi, name, edit, resource, fix", PLANTED, ids=[f"{c[0]}:{c[2]}" for c in PLANTED])
def test_planted_violation_fails(tmp_path, capsys, dev_plan, policy, multi, name, edit, resource, fix):
    base = multicloud(dev_plan) if multi else copy.deepcopy(dev_plan.to_json())
    bad = edited(base, name, edit) if edit is not None else without(base, name)
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(bad))
    assert runner.main(["--plan", str(path)]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith(f"{resource} ("))
    block = []
    for line in lines[header + 1 :]:
        if not line.startswith("  "):
            break
        block.append(line)
    assert any(f"[mandatory] {policy}:" in line and fix in line for line in block), out


def test_a_clean_plan_file_passes(tmp_path, dev_plan):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(dev_plan.to_json()))
    assert runner.main(["--plan", str(path)]) == 0


def test_config_can_turn_a_policy_advisory(tmp_path, capsys, dev_plan):
    bad = edited(dev_plan.to_json(), "default-aks", _set(("inputs", "oidcIssuerProfile", "enabled"), False))
    (tmp_path / "plan.json").write_text(json.dumps(bad))
    (tmp_path / "config.json").write_text(json.dumps({"aks-workload-identity": "advisory"}))
    args = ["--plan", str(tmp_path / "plan.json"), "--config", str(tmp_path / "config.json")]
    assert runner.main(args) == 0
    assert "[advisory] aks-workload-identity" in capsys.readouterr().out
    (tmp_path / "config.json").write_text(json.dumps({"aks-workload-identity": {"enforcementLevel": "disabled"}}))
    assert runner.main(args) == 0
    assert "aks-workload-identity" not in capsys.readouterr().out


@pytest.mark.parametrize(
    "content, fragment",
    [
        ("this is { not json", "is not valid JSON"),
        ("[1, 2]", "not a plan"),
        ('{"resources": [{"urn": 1}]}', "resources[0] is not a plan record"),
    ],
)
def test_bad_plan_file_exits_2(tmp_path, capsys, content, fragment):
    path = tmp_path / "plan.json"
    path.write_text(content)
    assert runner.main(["--plan", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0]


def test_missing_plan_and_stack_files_exit_2(tmp_path, capsys):
    assert runner.main(["--plan", str(tmp_path / "nope.json")]) == 2
    assert runner.main(["--stack", "no-such-stack"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("error: ") for line in lines)
    assert "Traceback" not in "".join(lines)


def test_check_plan_is_pure(dev_plan):
    plan = dev_plan.to_json()
    before = json.dumps(plan, sort_keys=True)
    first = runner.check_plan(plan)
    assert runner.check_plan(plan) == first
    assert json.dumps(plan, sort_keys=True) == before


def test_dispatcher_routes_policy(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text("not json")
    done = subprocess.run(
        [sys.executable, "-m", "preflight", "policy", "--plan", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stderr.startswith("error: ") and "Traceback" not in done.stderr


# --- the pack for real: uploaded alone, booted as the Pulumi CLI boots it, asked over gRPC --------------


@pytest.fixture(scope="module")
def uploaded_pack(tmp_path_factory) -> Path:
    """What `pulumi policy publish` uploads: a copy of policy/ and nothing else."""
    import shutil

    target = tmp_path_factory.mktemp("upload") / "anyscale-cloud-pack"
    shutil.copytree(ROOT / "policy", target, ignore=shutil.ignore_patterns("venv", "__pycache__"))
    return target


@pytest.fixture(scope="module")
def analyzer(uploaded_pack):
    """`python -u -m pulumi.policy <engine> <pack dir>` is what the CLI's
    pulumi-analyzer-policy-python runs; the pack prints the port it serves on. It runs
    the uploaded copy (policy/ alone) with an isolated interpreter (-I: no current
    directory, PYTHONPATH or user site-packages), as after `pulumi policy publish`."""
    import grpc
    from pulumi.runtime.proto import analyzer_pb2_grpc

    process = subprocess.Popen(
        [sys.executable, "-I", "-u", "-m", "pulumi.policy", "127.0.0.1:1", str(uploaded_pack)],
        cwd=uploaded_pack,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = process.stdout.readline().strip()
        assert port.isdigit(), process.stderr.read()
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        yield analyzer_pb2_grpc.AnalyzerStub(channel)
        channel.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


def _request(rec: dict[str, Any], props: dict[str, Any] | None = None) -> Any:
    from google.protobuf import json_format, struct_pb2
    from pulumi.runtime.proto import analyzer_pb2

    properties = struct_pb2.Struct()
    json_format.ParseDict(runner.engine_value(props if props is not None else rec["inputs"]), properties)
    options = analyzer_pb2.AnalyzerResourceOptions(
        deleteBeforeReplace=rec["options"]["deleteBeforeReplace"], deleteBeforeReplaceDefined=True
    )
    return analyzer_pb2.AnalyzeRequest(
        type=rec["type"], properties=properties, urn=rec["urn"], name=rec["name"], options=options
    )


def test_real_pack_describes_its_policies(analyzer):
    from google.protobuf import empty_pb2
    from pulumi.runtime.proto import analyzer_pb2

    info = analyzer.GetAnalyzerInfo(empty_pb2.Empty())
    assert info.name == "anyscale-cloud"
    assert info.repository == runner.pack_module("pack").REPOSITORY
    assert [p.name for p in info.policies] == [p.name for p in PACK.ALL_POLICIES]
    levels = {"mandatory": analyzer_pb2.MANDATORY, "advisory": analyzer_pb2.ADVISORY}
    severities = {
        s: getattr(analyzer_pb2, f"POLICY_SEVERITY_{s.upper()}") for s in ("low", "medium", "high", "critical")
    }
    # Every declaration's metadata reaches the engine (and Pulumi Cloud) as declared.
    for sent, declared in zip(info.policies, PACK.ALL_POLICIES, strict=True):
        assert sent.description == declared.description, declared.name
        assert sent.enforcementLevel == levels[declared.enforcement_level.value], declared.name
        assert sent.severity == severities[declared.severity.value], declared.name
        assert sent.remediation_steps == declared.remediation_steps, declared.name
        assert sent.url == declared.url, declared.name
        assert set(sent.configSchema.properties) == set(
            declared.config_schema.properties if declared.config_schema else {}
        )
    assert levels["mandatory"] == next(p for p in info.policies if p.name == "registration-properties").enforcementLevel
    cors = next(p for p in info.policies if p.name == "console-cors")
    assert cors.configSchema.properties["origin"]["default"] == CONSOLE


def test_real_pack_analyzes_a_preview(analyzer, plan):
    from pulumi.runtime.proto import analyzer_pb2

    reg = record(plan, "aws-usw2-registration")
    props = copy.deepcopy(reg["inputs"])
    props["properties"]["anyscaleOperatorIamIdentity"] = "<unknown>"  # the engine's unknown
    props["properties"]["cloudStorageBucketName"] = "<unknown>"
    # No violation, and one advisory naming what could not be checked (the identity not known
    # yet is an output feeding it: set).
    unchecked = (
        "can't run policy 'registration-properties' from policy pack 'anyscale-cloud@v0.0.1' during preview: "
        "could not check properties.cloudStorageBucketName: unknown until apply; checked again on pulumi up"
    )
    clean = analyzer.Analyze(_request(reg, props)).diagnostics
    assert [(d.policyName, d.enforcementLevel, d.message) for d in clean] == [
        ("registration-properties", analyzer_pb2.ADVISORY, unchecked)
    ]
    props["properties"]["provider"] = "aws"
    found = analyzer.Analyze(_request(reg, props)).diagnostics
    # The violation reported before the unknown is kept, next to the advisory.
    assert [(d.policyName, d.enforcementLevel) for d in found] == [
        ("registration-properties", analyzer_pb2.MANDATORY),
        ("registration-properties", analyzer_pb2.ADVISORY),
    ]
    assert "write 'AWS'" in found[0].message and found[1].message == unchecked


def test_real_pack_analyzes_the_stack(analyzer, plan):
    from google.protobuf import json_format, struct_pb2
    from pulumi.runtime.proto import analyzer_pb2

    def resource(rec: dict[str, Any], deps: list[str]) -> Any:
        properties = struct_pb2.Struct()
        json_format.ParseDict(runner.engine_value(rec["inputs"]), properties)
        return analyzer_pb2.AnalyzerResource(
            type=rec["type"], properties=properties, urn=rec["urn"], name=rec["name"], dependencies=deps
        )

    first, second = record(plan, "default-registration"), record(plan, "aws-usw2-registration")
    chained = analyzer.AnalyzeStack(
        analyzer_pb2.AnalyzeStackRequest(resources=[resource(first, []), resource(second, [first["urn"]])])
    )
    assert [d.policyName for d in chained.diagnostics] == []
    unchained = analyzer.AnalyzeStack(
        analyzer_pb2.AnalyzeStackRequest(resources=[resource(first, []), resource(second, [])])
    )
    assert [(d.policyName, d.urn) for d in unchained.diagnostics] == [("registration-order", second["urn"])]
    # The primary's provider not known yet: the chain is still checked (the violation kept), and
    # the advisory, which has no URN, names the resource and its property.
    unknown = copy.deepcopy(first)
    unknown["inputs"]["properties"]["provider"] = "<unknown>"  # the engine's unknown
    found = analyzer.AnalyzeStack(
        analyzer_pb2.AnalyzeStackRequest(resources=[resource(unknown, []), resource(second, [])])
    ).diagnostics
    assert [(d.policyName, d.enforcementLevel, d.urn, d.message) for d in found] == [
        ("registration-order", analyzer_pb2.MANDATORY, second["urn"], unchained.diagnostics[0].message),
        (
            "registration-order",
            analyzer_pb2.ADVISORY,
            "",
            "can't run policy 'registration-order' from policy pack 'anyscale-cloud@v0.0.1' during preview: "
            "could not check default-registration.properties.provider: unknown until apply; checked again on pulumi up",
        ),
    ]


# Run in the uploaded copy, by an interpreter that sees only that folder and the venv's packages:
# -I drops the current directory, PYTHONPATH and the user's site-packages.
ISOLATED_IMPORT = """
import importlib.util, json, sys
pack = sys.argv[1]
sys.path.insert(0, pack)
importable = {name: importlib.util.find_spec(name) is not None for name in ("components", "preflight", "policy")}
import policies
ours = sorted(
    m.__file__ for m in list(sys.modules.values())
    if getattr(m, "__file__", None) and not m.__file__.startswith((sys.prefix, sys.base_prefix))
)
print(json.dumps({
    "importable": importable,
    "pack": policies.PACK_NAME,
    "policies": [p.name for p in policies.ALL_POLICIES],
    "loaded": ours,
}))
"""


def test_uploaded_pack_imports_nothing_outside_its_folder(uploaded_pack):
    done = subprocess.run(
        [sys.executable, "-I", "-c", ISOLATED_IMPORT, str(uploaded_pack)],
        cwd=uploaded_pack.parent,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    # The simulation holds: the project's packages cannot be imported there.
    assert found["importable"] == {"components": False, "preflight": False, "policy": False}
    assert found["pack"] == "anyscale-cloud"
    assert found["policies"] == [p.name for p in PACK.ALL_POLICIES]
    assert {"registration-properties", "console-cors", "operator-chart-keys"} <= set(found["policies"])
    outside = [f for f in found["loaded"] if not f.startswith(str(uploaded_pack))]
    assert outside == []
    assert str(uploaded_pack / "rules" / "platform.py") in found["loaded"]
