"""Policy checks that must not pass when a key is absent, and the
registration-order policy over indirect chains (A -> X -> B through intermediates).
Each case starts from a compliant record of the example stack's real plan."""

from __future__ import annotations

import copy
import threading
from typing import Any

import pytest

from preflight.runtime import Plan
from tests.policy.helpers import validate, validate_stack

# (policy, record, the key removed, a fragment of the one violation expected).
ABSENT: list[tuple[str, str, tuple[str, ...], str]] = [
    # platform.md 4 / chart-versions-pinned: a pinned extension must not upgrade its minor by itself;
    # Azure's default for autoUpgradeMinorVersion is true, so leaving it out turns it on.
    ("chart-versions-pinned", "default-operator-extension", ("autoUpgradeMinorVersion",), "autoUpgradeMinorVersion"),
    ("chart-versions-pinned", "default-operator-extension", ("version",), "version is not pinned"),
    ("chart-versions-pinned", "aws-usw2-anyscale-operator", ("version",), "has no version"),
    # GCS: publicAccessPrevention defaults to "inherited" (public grants allowed) when unset.
    ("storage-gcs-secure", "gcp-usc1-storage", ("publicAccessPrevention",), "publicAccessPrevention is not set"),
    ("storage-gcs-secure", "gcp-usc1-storage", ("uniformBucketLevelAccess",), "uniformBucketLevelAccess is not true"),
    # platform.md 2: HTTPS only, TLS 1.2, no public blob access, no shared keys: explicit, not API defaults.
    ("storage-azure-secure", "default-storage", ("enableHttpsTrafficOnly",), "enableHttpsTrafficOnly"),
    ("storage-azure-secure", "default-storage", ("minimumTlsVersion",), "minimumTlsVersion is not set"),
    ("storage-azure-secure", "default-storage", ("allowBlobPublicAccess",), "allowBlobPublicAccess"),
    ("storage-azure-secure", "default-storage", ("allowSharedKeyAccess",), "allowSharedKeyAccess"),
    ("storage-s3-secure", "aws-usw2-public-access-block", ("blockPublicAcls",), "blockPublicAcls"),
    ("storage-s3-secure", "aws-usw2-public-access-block", ("blockPublicPolicy",), "blockPublicPolicy"),
    ("storage-s3-secure", "aws-usw2-public-access-block", ("ignorePublicAcls",), "ignorePublicAcls"),
    ("storage-s3-secure", "aws-usw2-public-access-block", ("restrictPublicBuckets",), "restrictPublicBuckets"),
    # platform.md 3: the operator's identity is federated to the cluster's OIDC issuer.
    ("aks-workload-identity", "default-aks", ("oidcIssuerProfile",), "OIDC issuer is off"),
    ("aks-workload-identity", "default-aks", ("securityProfile",), "workload identity is off"),
    (
        "identity-federated-subject",
        "default-operator-federation",
        ("subject",),
        "the federated subject is not set",
    ),
    (
        "identity-federated-subject",
        "default-operator-federation",
        ("audiences",),
        "the federated audiences are not set",
    ),
    # platform.md 4: the operator's control plane and cloud identity.
    (
        "operator-control-plane",
        "default-operator-extension",
        ("configurationSettings", "global.controlPlaneURL"),
        "global.controlPlaneURL",
    ),
    (
        "operator-iam-identity",
        "default-operator-extension",
        ("configurationSettings", "global.auth.iamIdentity"),
        "global.auth.iamIdentity is not set",
    ),
    (
        "operator-iam-identity",
        "aws-usw2-anyscale-operator",
        ("values", "global", "auth", "iamIdentity"),
        "global.auth.iamIdentity is not set",
    ),
    # platform.md 1.1: cloudStorageBucketEndpoint is required by the ARM type (empty where unused).
    (
        "registration-properties",
        "aws-usw2-registration",
        ("properties", "cloudStorageBucketEndpoint"),
        "cloudStorageBucketEndpoint",
    ),
    # platform.md 9.4: without nodeConfig.serviceAccount, GKE nodes run as the Compute Engine default account.
    ("gke-node-service-account", "gcp-usc1-pool-cpu", ("nodeConfig", "serviceAccount"), "default service account"),
]


def record(plan: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in plan["resources"] if r["name"] == name)


def without_key(rec: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    rec = copy.deepcopy(rec)
    node = rec["inputs"]
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return rec


@pytest.mark.parametrize(
    ("policy", "name", "path", "fragment"), ABSENT, ids=[f"{a[0]}:{'.'.join(a[2])}" for a in ABSENT]
)
def test_an_absent_key_is_a_violation(
    example_plan: Plan, policy: str, name: str, path: tuple[str, ...], fragment: str
) -> None:
    rec = record(example_plan.to_json(), name)
    assert validate(policy, rec) == []  # compliant as the program sends it
    found = validate(policy, without_key(rec, path))
    assert len(found) == 1, found
    assert fragment in found[0], found[0]


# --- registration-order over indirect chains ----------------------------------------------------


def chained(plan: Plan, links: dict[str, list[str]]) -> dict[str, Any]:
    """The example plan with each named resource's dependsOn replaced by the given names'
    URNs (an empty list: no dependency at all)."""
    doc = copy.deepcopy(plan.to_json())
    urns = {r["name"]: r["urn"] for r in doc["resources"]}
    for name, targets in links.items():
        record(doc, name)["dependsOn"] = sorted(urns[t] for t in targets)
    return doc


def findings(doc: dict[str, Any]) -> list[tuple[str | None, str]]:
    return validate_stack("registration-order", doc)


def test_a_chain_through_one_intermediate_is_a_chain(example_plan: Plan) -> None:
    # gcp-usc1 -> its cluster -> aws-usw2: gcp-usc1 is created after aws-usw2.
    doc = chained(example_plan, {"gcp-usc1-registration": ["gcp-usc1-gke"], "gcp-usc1-gke": ["aws-usw2-registration"]})
    assert findings(doc) == []


def test_a_chain_through_several_intermediates_is_a_chain(example_plan: Plan) -> None:
    doc = chained(
        example_plan,
        {
            "gcp-usc1-registration": ["gcp-usc1-pool-cpu"],
            "gcp-usc1-pool-cpu": ["gcp-usc1-gke"],
            "gcp-usc1-gke": ["gcp-usc1-vpc"],
            "gcp-usc1-vpc": ["aws-usw2-registration"],
        },
    )
    assert findings(doc) == []


def test_intermediates_that_never_reach_the_previous_registration_break_the_chain(example_plan: Plan) -> None:
    doc = chained(
        example_plan,
        {
            "gcp-usc1-registration": ["gcp-usc1-pool-cpu"],
            "gcp-usc1-pool-cpu": ["gcp-usc1-gke"],
            "gcp-usc1-gke": ["gcp-usc1-vpc"],
            "gcp-usc1-vpc": [],
        },
    )
    ((urn, message),) = findings(doc)
    assert urn == record(doc, "gcp-usc1-registration")["urn"]
    assert message.startswith("registration 'gcp-usc1' does not depend on 'aws-usw2', the registration before it")


def test_a_cycle_among_intermediates_ends_and_is_reported(example_plan: Plan) -> None:
    doc = chained(
        example_plan,
        {
            "gcp-usc1-registration": ["gcp-usc1-gke"],
            "gcp-usc1-gke": ["gcp-usc1-vpc"],
            "gcp-usc1-vpc": ["gcp-usc1-gke"],
        },
    )
    # In a thread: a walk that revisits nodes would spin forever; fail instead of hanging the suite.
    result: list[list[tuple[str | None, str]]] = []
    walker = threading.Thread(target=lambda: result.append(findings(doc)), daemon=True)
    walker.start()
    walker.join(timeout=20)
    assert result, "the registration-order policy did not finish on a cycle of intermediates"
    ((urn, _),) = result[0]
    assert urn == record(doc, "gcp-usc1-registration")["urn"]


def test_a_chain_through_an_earlier_registration_does_not_count(example_plan: Plan) -> None:
    """Depending on the registration two places back (default) is not waiting for aws-usw2."""
    doc = chained(example_plan, {"gcp-usc1-registration": ["default-registration"]})
    ((urn, message),) = findings(doc)
    assert urn == record(doc, "gcp-usc1-registration")["urn"]
    assert "does not depend on 'aws-usw2'" in message
