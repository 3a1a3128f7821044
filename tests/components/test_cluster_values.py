"""Clusters, registry and registrations at the exact values a user depends on: the registry's admin user and anonymous pull,
the Generic registration's bucket endpoint, GKE pools that start empty, the kubeconfig
the program uses per cluster (AKS admin vs Entra-only user credentials, the EKS token's
region), and `preflight diff` calling every provider's cluster delete disruptive.
Expected values are literals with their source, never imported from the code under test."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
import yaml

from preflight.changes import diff_plans
from preflight.runtime import Plan
from tests.example_spec import entra_only_pair
from tests.raw_inputs import Raw, example, run_raw

ADMIN_CREDENTIALS = "azure-native:containerservice:listManagedClusterAdminCredentials"
USER_CREDENTIALS = "azure-native:containerservice:listManagedClusterUserCredentials"
# kubelogin's docs ("Using kubelogin with AKS"): the AKS AAD server application, the same in every tenant.
AKS_SERVER_APP = "6dae42f8-4368-4678-94ff-3960e28e3630"
GROUP = "8f3b5a9e-7c21-4d0e-9a6b-0c1d2e3f4a5b"


@pytest.fixture(scope="module")
def raw() -> Raw:
    return example()


@pytest.fixture(scope="module")
def plan(raw: Raw) -> Plan:
    return raw.plan


# --- the container registry and the Generic registration ----------------------------------------


def test_registry_has_no_admin_user_and_no_anonymous_pull(plan: Plan) -> None:
    """platform.md 3: images are pulled with the kubelet's identity (AcrPull) and pushed with
    the operator's (AcrPush); a shared admin password or anonymous pull bypasses both.
    ARM Microsoft.ContainerRegistry/registries: `adminUserEnabled`, `anonymousPullEnabled`."""
    registry = plan.named("ml-platform-registry")["inputs"]
    assert registry["adminUserEnabled"] is False
    assert registry["anonymousPullEnabled"] is False


def test_generic_registration_sends_the_s3_compatible_endpoint(plan: Plan) -> None:
    """platform.md 1.1: `cloudStorageBucketEndpoint` is set for S3-compatible storage at a
    custom endpoint (the example stack's MinIO); without it the platform reads AWS S3."""
    assert plan.named("onprem-registration")["inputs"]["properties"] == {
        "provider": "Generic",
        "computeStack": "K8S",
        "region": "dc1-rack7",
        "cloudStorageBucketName": "s3://ray-data",
        "cloudStorageBucketEndpoint": "https://minio.dc1.example.com",
        "cloudStorageBucketRegion": "us-east-1",
    }
    assert plan.outputs["cloudResources"]["onprem"]["bucketEndpoint"] == "https://minio.dc1.example.com"


# --- GKE pools ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pool", "initial", "low", "high", "policy"),
    [("cpu", 0, 0, 10, "BALANCED"), ("cpuspot", 0, 0, 10, "ANY"), ("system", 1, 1, 3, "BALANCED")],
)
def test_gke_pools_start_at_their_minimum(
    plan: Plan, pool: str, initial: int, low: int, high: int, policy: str
) -> None:
    """GKE's `initialNodeCount` is per zone of a regional pool (us-central1: 3 zones): a
    worker pool with minCount 0 (the example's, platform.md 7: 0-10) must start with no
    node, or it bills three n2-standard-16 until the autoscaler shrinks it."""
    inputs = plan.named(f"gcp-usc1-pool-{pool}")["inputs"]
    assert inputs["initialNodeCount"] == initial
    assert inputs["autoscaling"] == {"locationPolicy": policy, "totalMinNodeCount": low, "totalMaxNodeCount": high}


# --- the kubeconfig each Kubernetes provider gets -----------------------------------------------


def test_eks_token_command_names_the_clusters_region(raw: Raw) -> None:
    """The exec user `aws eks update-kubeconfig` writes: `aws eks get-token --cluster-name
    <name> --region <region>` (AWS CLI reference). Without --region the CLI signs for its
    default region and the token is refused by a cluster elsewhere."""
    kubeconfig = json.loads(raw.inputs["aws-usw2-k8s"]["kubeconfig"])
    (user,) = kubeconfig["users"]
    assert user["user"]["exec"]["command"] == "aws"
    assert user["user"]["exec"]["args"] == [
        "eks",
        "get-token",
        "--cluster-name",
        "eks-ml-platform-aws-usw2",
        "--region",
        "us-west-2",
        "--output",
        "json",
    ]
    assert raw.plan.named("aws-usw2-k8s")["inputs"]["kubeconfig"] == "[secret]"


def test_aks_with_local_accounts_uses_the_admin_credential(raw: Raw) -> None:
    """Local accounts on (the example's default): the static admin kubeconfig, no kubelogin
    needed where `pulumi up` runs."""
    tokens = [token for token, _ in raw.invokes]
    assert ADMIN_CREDENTIALS in tokens
    assert USER_CREDENTIALS not in tokens
    kubeconfig = raw.inputs["default-k8s"]["kubeconfig"]
    assert "kubelogin" not in kubeconfig
    assert kubeconfig == "${aks-ml-platform-default.kubeconfig}"  # the mock's admin credential, decoded


def test_aks_without_local_accounts_uses_the_user_credential_with_kubelogin() -> None:
    """platform.md 9.4: `disableLocalAccounts` leaves no admin credential: the user
    credential in exec format, its kubelogin rewritten to log in without a person."""
    # Beside it `spn`, Entra-only too (one run with test_aks_access_network.py's kubeconfigs_sent).
    raw = run_raw("test", entra_only_pair(GROUP))
    # Neither Entra-only resource asks for the admin credential; the primary's call is looked at.
    assert {token for token, _ in raw.invokes if token in (ADMIN_CREDENTIALS, USER_CREDENTIALS)} == {USER_CREDENTIALS}
    calls = {
        token: args
        for token, args in raw.invokes
        if token in (ADMIN_CREDENTIALS, USER_CREDENTIALS) and args["resourceName"] == "aks-ml-platform-dev-default"
    }
    assert list(calls) == [USER_CREDENTIALS]
    assert calls[USER_CREDENTIALS]["format"] == "exec"
    kubeconfig = yaml.safe_load(raw.inputs["default-k8s"]["kubeconfig"])
    (user,) = kubeconfig["users"]
    assert user["user"]["exec"]["command"] == "kubelogin"
    assert user["user"]["exec"]["args"] == ["get-token", "--login", "azurecli", "--server-id", AKS_SERVER_APP]


# --- preflight diff: every provider's cluster --------------------------------------------------


def without(plan: dict[str, Any], name: str) -> dict[str, Any]:
    head = copy.deepcopy(plan)
    head["resources"] = [r for r in head["resources"] if r["name"] != name]
    return head


@pytest.mark.parametrize("cluster", ["default-aks", "aws-usw2-eks", "gcp-usc1-gke"])
def test_deleting_any_providers_cluster_is_disruptive(plan: Plan, cluster: str) -> None:
    base = plan.to_json()
    change = next(c for c in diff_plans(base, without(base, cluster)) if c.name == cluster)
    assert change.action == "delete" and change.disruptive
    assert change.reasons == [
        "Deleting the cluster destroys its running workloads and everything in it (operators, gateway, Ray clusters)."
    ]


@pytest.mark.parametrize(("cluster", "key"), [("default-aks", "location"), ("gcp-usc1-gke", "location")])
def test_replacing_any_providers_cluster_is_disruptive(plan: Plan, cluster: str, key: str) -> None:
    base = plan.to_json()
    head = copy.deepcopy(base)
    record = next(r for r in head["resources"] if r["name"] == cluster)
    record["options"]["replaceOnChanges"] = [key]
    record["inputs"][key] = "elsewhere1"
    change = next(c for c in diff_plans(base, head) if c.name == cluster)
    assert change.action == "replace" and change.disruptive
    assert change.reasons[0].startswith("Replacing the cluster destroys its running workloads")
