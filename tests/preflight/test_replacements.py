"""A day-2 change through the provider's replace rule to the diff (preflight/replacements.py):
what pulumi-azure-native replaces is shown as a replacement, and on the fixed-name AKS cluster
refused with the way through; never as an in-place update. Paths are literals from upstream
(pulumi-azure-native provider/pkg/gen/replacement.go, forceNewMap)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from preflight.changes import Change, diff_plans
from preflight.replacements import PROVIDER_REPLACES, TERRAFORM_FORCE_NEW
from tests.conftest import stack_values
from tests.plans import recorded

TWO_RESOURCES = Path(__file__).parents[1] / "fixtures" / "plans" / "two_resources.json"
GOLDEN_EXAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "golden" / "plan-example.json"


def rows(type_token: str) -> set[str]:
    return {path for pattern, paths in PROVIDER_REPLACES if pattern == type_token for path in paths}


def test_the_aks_rows_are_the_providers() -> None:
    assert {
        "networkProfile.serviceCidr",
        "networkProfile.dnsServiceIP",
        "networkProfile.podCidr",
        "networkProfile.networkPlugin",
        "networkProfile.networkPluginMode",
        "networkProfile.networkDataplane",
        "networkProfile.networkPolicy",
        "networkProfile.outboundType",
        "dnsPrefix",
    } <= rows("azure-native:containerservice:ManagedCluster")
    assert rows("azure-native:containerservice:AgentPool") == {
        "gpuInstanceProfile",
        "vmSize",
        "networkProfile.nodePublicIPTags",
    }
    assert rows("azure-native:storage:StorageAccount") == {"isHnsEnabled", "location"}


def change_of(changes: list[Change], name: str) -> Change:
    return next(c for c in changes if c.name == name)


def dev_with(cluster: dict[str, Any]) -> dict[str, Any]:
    values = stack_values("dev")
    values["anyscale-cloud:resources"][0]["cluster"] = cluster
    return values


def test_adding_a_network_to_an_aks_cluster_replaces_it_and_is_refused() -> None:
    """The issue's case: `cluster.network` on a cluster created without one sets podCidr,
    serviceCidr and dnsServiceIP; the provider replaces the cluster, create-first, under the
    same name, which AKS refuses."""
    base = recorded("dev", stack_values("dev")).to_json()
    head = recorded("dev", dev_with({"network": {"podCidr": "10.244.0.0/16"}})).to_json()
    cluster = change_of(diff_plans(base, head), "default-aks")
    assert cluster.action == "replace" and cluster.disruptive
    forcing = sorted(p.path for p in cluster.properties if p.forces_replacement)
    assert forcing == ["networkProfile.dnsServiceIP", "networkProfile.podCidr", "networkProfile.serviceCidr"]
    assert any(
        reason.startswith('REFUSED: the replacement keeps the name "aks-ml-platform-dev-default"')
        for reason in cluster.reasons
    )


@pytest.mark.parametrize(
    ("path", "value", "action"),
    [
        ("vmSize", "Standard_D32s_v5", "replace"),  # forceNewMap: a new VM size is a new pool
        ("maxCount", 7, "update"),  # not in the provider's rules: in place
    ],
)
def test_an_agent_pool_follows_the_providers_rule(path: str, value: object, action: str) -> None:
    base = recorded("dev", stack_values("dev")).to_json()
    head = copy.deepcopy(base)
    pool = next(r for r in head["resources"] if r["name"] == "default-pool-cpu")
    pool["inputs"][path] = value
    # The program's own replaceOnChanges left out: the provider's rule alone decides.
    pool["options"]["replaceOnChanges"] = []
    assert change_of(diff_plans(base, head), "default-pool-cpu").action == action


# --------------------------------------------------------------------------------
# The Terraform providers' ForceNew fields behind pulumi-aws and pulumi-gcp


def test_the_terraform_rows_are_pinned_to_their_sources() -> None:
    """Each row as read upstream: type, input path, file:line (the schema key's line), commit.
    Google rows: terraform-provider-google-beta FEATURE-BRANCH-major-release-8.0.0 at 526c796a
    (pulumi-gcp 10.x tracks google-beta v8; the tag behind 10.2.0 is not stored here)."""
    got = {(row.type, row.path): row.source for row in TERRAFORM_FORCE_NEW}
    assert got[("gcp:container:Cluster", "network")] == (
        "google-beta/services/container/resource_container_cluster.go:1814"
    )
    assert got[("gcp:container:Cluster", "ipAllocationPolicy.clusterSecondaryRangeName")] == (
        "google-beta/services/container/resource_container_cluster.go:2093"
    )
    # The cluster's node_config is the pool's schema (schemaNodeConfig): its scopes and
    # service account replace the cluster.
    assert got[("gcp:container:Cluster", "nodeConfig.serviceAccount")] == (
        "google-beta/services/container/node_config.go:643"
    )
    assert got[("gcp:container:NodePool", "nodeConfig.guestAccelerators")] == (
        "google-beta/services/container/node_config.go:316"
    )
    assert got[("gcp:storage:Bucket", "location")] == "google-beta/services/storage/resource_storage_bucket.go:193"
    assert got[("aws:eks:Cluster", "roleArn")] == "internal/service/eks/cluster.go:385"
    assert got[("aws:eks:NodeGroup", "subnetIds")] == "internal/service/eks/node_group.go:248"
    assert got[("aws:s3:Bucket", "bucket")] == "internal/service/s3/bucket.go:46"
    commits = {row.type.split(":")[0]: set() for row in TERRAFORM_FORCE_NEW}
    for row in TERRAFORM_FORCE_NEW:
        commits[row.type.split(":")[0]].add(row.commit)
    assert commits["gcp"] == {"526c796ae0b989c66edc516454f8be806958c5c2"}
    assert commits["aws"] == {
        "00555dc5b38f92abbfa230badea0ed0754cea81e",
        "012e0a32f0686212f447447fd3d81c3d0ce256ad",
        "0070bcd12c952f14c5434a6f351ef7b6fa791226",
    }
    # Neither pin's upstream tag could be read: no row claims to be verified.
    assert not any(row.verified for row in TERRAFORM_FORCE_NEW)
    # The types whose replacement loses data or service are all covered.
    assert {row.type for row in TERRAFORM_FORCE_NEW} == {
        "gcp:container:Cluster",
        "gcp:container:NodePool",
        "gcp:storage:Bucket",
        "gcp:serviceaccount:Account",
        "aws:eks:Cluster",
        "aws:eks:NodeGroup",
        "aws:s3:Bucket",
        "aws:s3:BucketV2",
    }
    # Updatable upstream: no row (GKE resizes a pool's machines and disks in place; only the
    # ip_allocation_policy block's range names are ForceNew, not the block; EKS updates a
    # cluster's subnets and endpoint access, and a node group's sizes and version).
    assert not {
        ("gcp:container:NodePool", "nodeConfig.machineType"),
        ("gcp:container:NodePool", "nodeConfig.diskSizeGb"),
        ("gcp:container:NodePool", "nodeConfig.diskType"),
        ("gcp:container:Cluster", "minMasterVersion"),
        ("gcp:container:Cluster", "ipAllocationPolicy"),
        ("aws:eks:Cluster", "vpcConfig.subnetIds"),
        ("aws:eks:Cluster", "version"),
        ("aws:eks:NodeGroup", "scalingConfig.maxSize"),
        ("aws:eks:NodeGroup", "version"),
    } & set(got)
    assert all(len(row.commit) == 40 and row.source.rsplit(":", 1)[1].isdigit() for row in TERRAFORM_FORCE_NEW)


@pytest.mark.parametrize(
    ("edit", "ignore", "action"),
    [
        # schemaNodeConfig's oauth_scopes is ForceNew, on the cluster too: the program's
        # ignoreChanges ["nodeConfig"] on the cluster is what keeps it from replacing.
        ({"nodeConfig": {"oauthScopes": ["https://www.googleapis.com/auth/devstorage.read_only"]}}, [], "replace"),
        ({"nodeConfig": {"oauthScopes": ["https://www.googleapis.com/auth/devstorage.read_only"]}}, None, "same"),
        # ip_allocation_policy: its range names are ForceNew, its stack_type is not.
        ({"ipAllocationPolicy": {"servicesSecondaryRangeName": "svc2"}}, [], "replace"),
        ({"ipAllocationPolicy": {"stackType": "IPV4_IPV6"}}, [], "update"),
    ],
)
def test_a_gke_cluster_change_follows_the_terraform_rule(
    edit: dict[str, dict[str, object]], ignore: list[str] | None, action: str
) -> None:
    base = json.loads(GOLDEN_EXAMPLE.read_text())
    head = copy.deepcopy(base)
    cluster = next(r for r in head["resources"] if r["type"] == "gcp:container/cluster:Cluster")
    cluster["options"]["replaceOnChanges"] = []
    if ignore is not None:
        cluster["options"]["ignoreChanges"] = ignore
    for block, fields in edit.items():
        cluster["inputs"][block].update(fields)
    assert change_of(diff_plans(base, head), cluster["name"]).action == action


@pytest.mark.parametrize(
    ("name", "path", "value", "action"),
    [
        # ForceNew upstream, and not in the program's replaceOnChanges: the provider's rule decides.
        ("aws-usw2-eks", ["accessConfig"], {"bootstrapClusterCreatorAdminPermissions": False}, "replace"),
        ("aws-usw2-eks", ["vpcConfig", "endpointPublicAccess"], False, "update"),
        ("aws-usw2-cpu", ["subnetIds"], ["subnet-other"], "replace"),
        ("aws-usw2-cpu", ["scalingConfig", "maxSize"], 7, "update"),
    ],
)
def test_an_eks_change_follows_the_terraform_rule(name: str, path: list[str], value: object, action: str) -> None:
    base = json.loads(TWO_RESOURCES.read_text())
    head = copy.deepcopy(base)
    resource = next(r for r in head["resources"] if r["name"] == name)
    resource["options"]["replaceOnChanges"] = []
    target = resource["inputs"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    change = change_of(diff_plans(base, head), name)
    assert change.action == action
    if name == "aws-usw2-eks" and action == "replace":
        # The cluster keeps its name: refused with the way through.
        assert any(reason.startswith("REFUSED: the replacement keeps the name") for reason in change.reasons)


def test_an_s3_region_change_replaces_the_bucket_under_its_name_and_is_refused() -> None:
    # terraform-provider-aws v6 (pulumi-aws 7): changing `region` forces replacement; the
    # bucket keeps its name (the suffix ignores the region) and the retained old bucket holds it.
    base = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "golden" / "plan-example.json").read_text())
    head = copy.deepcopy(base)
    for resource in head["resources"]:
        if resource["type"].startswith("aws:s3") and resource["name"].startswith("aws-usw2-"):
            resource["inputs"]["region"] = "us-east-2"
    changes = diff_plans(base, head)
    bucket = change_of(changes, "aws-usw2-bucket")
    assert bucket.action == "replace"
    assert any(reason.startswith("REFUSED") for reason in bucket.reasons), bucket.reasons
    assert change_of(changes, "aws-usw2-versioning").action == "replace"
