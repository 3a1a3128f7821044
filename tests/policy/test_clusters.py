"""The clusters and what runs in them (policy/catalog/clusters.py): AKS settings, GKE node
pools' service accounts, the Anyscale operator's settings and chart keys, and pinned chart
versions. Every policy is called directly on records of the multicloud plan (its GKE node
pools are the program's own), compliant as recorded and changed to violate it. CASES holds
each policy's row (settings, planted violations: tests/policy/cases.py)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from pulumi_policy.proxy import UNKNOWN_BOOLEAN_VALUE

from tests.policy.helpers import (
    CONSOLE,
    ROOT,
    Plant,
    PolicyCase,
    changed,
    drop_at,
    one,
    record,
    set_at,
    set_setting,
    validate,
)

CONTROL_PLANE = ("inputs", "configurationSettings", "global.controlPlaneURL")
NODE_ACCOUNT = ("inputs", "nodeConfig", "serviceAccount")
COMPUTE_DEFAULT = "123456789012-compute@developer.gserviceaccount.com"

CASES = [
    PolicyCase(
        "aks-rbac", planted=(Plant("default-aks", set_at(("inputs", "enableRBAC"), False), "enable_rbac=True"),)
    ),
    PolicyCase(
        "aks-workload-identity",
        planted=(
            Plant("default-aks", set_at(("inputs", "oidcIssuerProfile", "enabled"), False), "oidc_issuer_profile"),
        ),
    ),
    PolicyCase(
        "aks-entra-only-access",
        planted=(Plant("default-aks", set_at(("inputs", "disableLocalAccounts"), True), "aadProfile.managed"),),
    ),
    PolicyCase("aks-local-accounts"),  # advisory
    PolicyCase(
        "aks-sku-tier",  # advisory
        config_default={"disallowedTiers": ["Free"]},
        violate=lambda plan: changed(plan, "default-aks", set_at(("inputs", "sku", "tier"), "Free")),
        allow={"disallowedTiers": []},
    ),
    PolicyCase("aks-public-api-server"),  # advisory
    PolicyCase("aks-network-policy"),  # advisory
    PolicyCase("eks-public-endpoint"),  # advisory
    PolicyCase("eks-access-entries"),  # advisory
    PolicyCase(
        "gke-node-service-account",
        planted=(
            Plant("gcp-usc1-pool-cpu", drop_at(NODE_ACCOUNT), "Compute Engine default service account"),
            Plant(
                "gcp-usc1-pool-system",
                set_at(NODE_ACCOUNT, COMPUTE_DEFAULT),
                "give nodeConfig.serviceAccount a service account of their own",
            ),
        ),
    ),
    PolicyCase("gke-default-network"),  # advisory
    PolicyCase(
        "operator-iam-identity",
        planted=(
            Plant(
                "default-operator-extension",
                drop_at(("inputs", "configurationSettings", "global.auth.iamIdentity")),
                "client ID",
            ),
            Plant(
                "gcp-usc1-anyscale-operator",
                drop_at(("inputs", "values", "global", "auth", "iamIdentity")),
                "service account email",
            ),
        ),
    ),
    PolicyCase(
        "operator-control-plane",
        config_default={"controlPlaneUrl": "https://console.azure.anyscale.com"},  # platform.md 4
        violate=lambda plan: changed(
            plan, "default-operator-extension", set_at(CONTROL_PLANE, "https://console.anyscale.com")
        ),
        allow={"controlPlaneUrl": "https://console.anyscale.com"},
        planted=(Plant("default-operator-extension", set_at(CONTROL_PLANE, CONSOLE + "/"), "drop the trailing slash"),),
    ),
    PolicyCase(
        "operator-chart-keys",
        config_default={"extraAllowedKeys": []},
        violate=lambda plan: changed(
            plan,
            "default-operator-extension",
            set_at(("inputs", "configurationSettings", "global.newThing"), "x"),
        ),
        allow={"extraAllowedKeys": ["global.newThing"]},
        planted=(
            Plant(
                "default-operator-extension",
                set_at(("inputs", "configurationSettings", "networking.gateway.className"), "eg"),
                "remove it",
            ),
            Plant(
                "aws-usw2-anyscale-operator",
                set_at(("inputs", "values", "networking", "gateway", "className"), "eg"),
                "remove it",
            ),
        ),
    ),
    PolicyCase(
        "chart-versions-pinned",
        planted=(
            Plant("default-envoy-gateway", drop_at(("inputs", "version")), "pin version"),
            Plant("default-kuberay", set_at(("inputs", "version"), ">=1.0.0"), "exact version"),
            Plant("default-operator-extension", set_at(("inputs", "version"), "latest"), "exact version"),
        ),
    ),
]


# --- AKS -----------------------------------------------------------------------------------------


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


def test_aks_rbac(plan):
    assert validate("aks-rbac", record(plan, "default-aks")) == []
    rec = copy.deepcopy(record(plan, "default-aks"))
    rec["inputs"]["enableRBAC"] = False
    one(validate("aks-rbac", rec), "enableRBAC: false", "enable_rbac=True")
    rec["inputs"]["enableRBAC"] = UNKNOWN_BOOLEAN_VALUE
    assert validate("aks-rbac", rec) == []
    del rec["inputs"]["enableRBAC"]
    assert validate("aks-rbac", rec) == []  # on by default


# --- GKE node pools ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["gcp-usc1-pool-system", "gcp-usc1-pool-cpu", "gcp-usc1-pool-cpuspot"])
def test_gke_node_pools_run_as_their_own_service_account(plan: dict[str, Any], name: str) -> None:
    """The program's pools name the nodes' account by its email, an output known at apply."""
    assert record(plan, name)["inputs"]["nodeConfig"]["serviceAccount"] == "${gcp-usc1-node-sa.email}"
    assert validate("gke-node-service-account", record(plan, name)) == []
    own = changed(plan, name, set_at(NODE_ACCOUNT, "gke-nodes@my-gcp-project.iam.gserviceaccount.com"))
    assert validate("gke-node-service-account", own) == []
    # An empty account (or one of another type) is no account: GKE uses the default one. (A null is
    # what a first preview may hold: tests/policy/test_policy_unknowns.py.)
    for account in (COMPUTE_DEFAULT, "default", "", "  ", 0):
        one(
            validate("gke-node-service-account", changed(plan, name, set_at(NODE_ACCOUNT, account))),
            "the pool's nodes run as the Compute Engine default service account",
        )
    one(
        validate("gke-node-service-account", changed(plan, name, drop_at(NODE_ACCOUNT))),
        "give nodeConfig.serviceAccount a service account of their own",
    )


# --- charts --------------------------------------------------------------------------------------


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


def test_the_chart_key_list_is_the_reference_list():
    # Every `.Values` key the chart's templates read, listed from its templates at 1.8.0 (the
    # workplace's reference list, kept with the tests: tests/fixtures/reference/).
    reference = ROOT / "tests" / "fixtures" / "reference" / "anyscale-operator-1.8.0-template-keys.txt"
    from rules.chart_keys import TEMPLATE_KEYS

    assert {line.strip() for line in reference.read_text().splitlines() if line.strip()} == TEMPLATE_KEYS


# --- the Anyscale operator -----------------------------------------------------------------------


OPERATORS = [
    "default-operator-extension",
    "aws-usw2-anyscale-operator",
    "gcp-usc1-anyscale-operator",
    "onprem-anyscale-operator",
]


@pytest.mark.parametrize("name", OPERATORS)
def test_operator_control_plane(plan, name):
    assert validate("operator-control-plane", record(plan, name)) == []
    for value, fragment in [
        (CONSOLE + "/", "drop the trailing slash"),
        ("https://console.anyscale.com", "wrong control plane"),
    ]:
        rec = copy.deepcopy(record(plan, name))
        set_setting(rec, "global.controlPlaneURL", value)
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
    set_setting(rec, "networking.gateway.className", "eg")
    one(validate("operator-chart-keys", rec), "networking.gateway.className", "remove it")
    rec = copy.deepcopy(record(plan, name))
    set_setting(rec, "global.controlPlaneUrl", CONSOLE)
    one(validate("operator-chart-keys", rec), "global.controlPlaneUrl", "does not read", "fix the spelling")


def test_operator_chart_keys_reads_a_list_item_as_its_list():
    # The AKS extension's flat settings spell a list's items with an index.
    from rules.chart_keys import listed_or_under

    assert listed_or_under("workloads.managedNamespaces[0]")
    assert listed_or_under("workloads.managedNamespaces[12]")
    assert not listed_or_under("workloads.managedNamespace[0]")


def test_operator_chart_keys_under_a_map_key_and_configurable(plan):
    rec = copy.deepcopy(record(plan, "aws-usw2-anyscale-operator"))
    set_setting(rec, "operator.nodeSelector", {"kubernetes.io/os": "linux"})
    set_setting(rec, "workloads.accelerator.nodeSelectors", {"aws": {"T4": "g4dn"}})
    assert validate("operator-chart-keys", rec) == []
    set_setting(rec, "global.newThing", True)
    one(validate("operator-chart-keys", rec), "global.newThing")
    assert validate("operator-chart-keys", rec, {"extraAllowedKeys": ["global.newThing"]}) == []


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
    set_setting(rec, "global.auth.iamIdentity", "")
    one(validate("operator-iam-identity", rec), "not set")


def test_operator_iam_identity_not_for_generic(plan):
    rec = record(plan, "onprem-anyscale-operator")
    assert "iamIdentity" not in json.dumps(rec["inputs"])
    assert validate("operator-iam-identity", rec) == []
