"""GkeTarget: the GKE cloud resource's cluster, pools, bucket, identity and their wiring.

The program runs once per scenario (module-scoped fixtures) under the recording mock
runtime; the stack is the example's primary plus its `gcp-usc1` resource.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from components.gcp.names import kubeconfig
from config.names import gcp_account_id as account_id
from config.names import gcs_bucket_name as bucket_name
from config.names import gke_cluster_name as cluster_name
from preflight.runtime import Plan
from tests.conftest import stack_values
from tests.example_spec import standalone
from tests.plans import recorded

NAME = "gcp-usc1"
EMAIL = "${gcp-usc1-operator-sa.email}"  # only GCP knows it: the mock's placeholder
NODE_EMAIL = "${gcp-usc1-node-sa.email}"
SUFFIX = "${gcp-usc1-storage-suffix.result}"
BUCKET = f"ml-platform-gcp-usc1-{SUFFIX}"
GCP_TYPES = {
    "gcp:container/cluster:Cluster",
    "gcp:container/nodePool:NodePool",
    "gcp:storage/bucket:Bucket",
    "gcp:serviceaccount/account:Account",
    "gcp:serviceaccount/iAMMember:IAMMember",
    "gcp:storage/bucketIAMMember:BucketIAMMember",
    "gcp:compute/network:Network",
    "gcp:compute/subnetwork:Subnetwork",
    "gcp:compute/firewall:Firewall",
    "gcp:compute/router:Router",
    "gcp:compute/routerNat:RouterNat",
    "gcp:projects/iAMMember:IAMMember",
}


def gcp_values(**resource: Any) -> dict[str, Any]:
    """The example stack with only `default` and `gcp-usc1` (updated with `resource`)."""
    values = standalone(stack_values("example"))
    default, gcp = values["anyscale-cloud:resources"][0], values["anyscale-cloud:resources"][2]
    assert gcp["name"] == NAME
    values["anyscale-cloud:resources"] = [default, {**gcp, **resource}]
    return values


@pytest.fixture(scope="module")
def plan() -> Plan:
    return recorded("test", gcp_values())


@pytest.fixture(scope="module")
def gpu_plan() -> Plan:
    """A GPU pool, protection on, and a bucket that goes with the stack."""
    values = gcp_values(
        cluster={
            "nodePools": [
                {"name": "cpu", "instanceType": "n2-standard-16", "minCount": 2, "maxCount": 8},
                {
                    "name": "gput4",
                    "instanceType": "n1-standard-16",
                    "maxCount": 4,
                    "capacityType": "SPOT",
                    "gpu": {"type": "T4", "count": 2},
                },
            ]
        },
        storage={"retainOnDelete": False},
    )
    values["anyscale-cloud:cloud"]["protect"] = True
    return recorded("test", values)


@pytest.fixture(scope="module")
def existing_bucket_plan() -> Plan:
    return recorded("test", gcp_values(storage={"bucket": "gs://ray-data-usc1", "region": "us-east1"}))


def gcp_provider(plan: Plan) -> dict[str, Any]:
    return plan.named(f"{NAME}-gcp")


def provider_ref(record: dict[str, Any]) -> str:
    return f"{record['urn']}::{record['name']}-id"


def registration_urns(plan: Plan) -> set[str]:
    return {
        r["urn"]
        for r in plan.of_type("azure-native:resources:Resource")
        if r["inputs"].get("resourceType") == "cloudResources"
    }


# --- the registration and the operator --------------------------------------------------


def test_registration_properties(plan: Plan) -> None:
    assert plan.named(f"{NAME}-registration")["inputs"]["properties"] == {
        "provider": "GCP",
        "computeStack": "K8S",
        "region": "us-central1",
        "cloudStorageBucketName": f"gs://{BUCKET}",
        "cloudStorageBucketEndpoint": "",
        "cloudStorageBucketRegion": "us-central1",
        "anyscaleOperatorIamIdentity": EMAIL,
    }


def test_operator_gets_the_same_email_and_the_project(plan: Plan) -> None:
    values = plan.named(f"{NAME}-anyscale-operator")["inputs"]["values"]
    assert values["global"]["auth"] == {"iamIdentity": EMAIL}
    assert values["global"]["cloudProvider"] == "gcp"
    assert values["global"]["gcp"] == {"projectId": "my-gcp-project"}
    # The chart's service account carries iam.gke.io/gcp-service-account from iamIdentity;
    # Ray pods run as their own account, with their own identity (test_workload_identity.py).
    assert values["workloads"]["serviceAccount"]["name"] == "anyscale-workloads"
    assert values["networking"]["gateway"]["ip"] == "${gcp-usc1-gateway.status.addresses[0].value}"


def test_registration_waits_for_cluster_pools_bucket_and_identity(plan: Plan) -> None:
    depends_on = set(plan.named(f"{NAME}-registration")["dependsOn"])
    for name in (
        "gke",
        "pool-system",
        "pool-cpu",
        "pool-cpuspot",
        "storage",
        "operator-sa",
        "operator-workload-identity",
        "operator-storage-objects",
        "operator-storage-bucket",
    ):
        assert plan.named(f"{NAME}-{name}")["urn"] in depends_on, name


def test_no_cluster_or_pool_waits_for_a_registration(plan: Plan) -> None:
    registrations = registration_urns(plan)
    assert len(registrations) == 2
    built = plan.of_type("gcp:container/cluster:Cluster") + plan.of_type("gcp:container/nodePool:NodePool")
    assert len(built) == 4
    for record in built:
        assert not registrations & set(record["dependsOn"]), record["name"]


# --- providers --------------------------------------------------------------------------


def test_gcp_provider_has_the_project_and_region(plan: Plan) -> None:
    provider = gcp_provider(plan)
    assert provider["type"] == "pulumi:providers:gcp"
    assert provider["inputs"] == {"project": "my-gcp-project", "region": "us-central1"}
    assert provider["parent"] == plan.of_type("anyscale-cloud:gcp:GkeTarget")[0]["urn"]
    assert len(plan.of_type("pulumi:providers:gcp")) == 1


def test_every_gcp_resource_uses_the_explicit_provider(plan: Plan) -> None:
    ref = provider_ref(gcp_provider(plan))
    gcp_resources = [r for r in plan.resources if r["type"].startswith("gcp:")]
    assert {r["type"] for r in gcp_resources} == GCP_TYPES
    assert {r["name"]: r["provider"] for r in gcp_resources} == {r["name"]: ref for r in gcp_resources}


def test_every_child_has_the_target_as_parent(plan: Plan) -> None:
    target = plan.of_type("anyscale-cloud:gcp:GkeTarget")[0]["urn"]
    children = [
        r
        for r in plan.resources
        if r["type"].startswith(("gcp:", "random:", "pulumi:providers:")) and NAME in r["name"]
    ]
    # provider, cluster, 3 pools, bucket + suffix, operator SA + 2 bindings + 2 bucket
    # grants, node SA + 2 project grants, VPC, subnet, firewall, router, NAT, workloads' SA +
    # its binding + its bucket grant
    assert len(children) == 24
    assert {r["parent"] for r in children} == {target}


def test_kubeconfig_is_secret_in_the_plan(plan: Plan) -> None:
    k8s = plan.named(f"{NAME}-k8s")
    assert k8s["inputs"]["kubeconfig"] == "[secret]"
    assert k8s["inputs"]["enableServerSideApply"] == "true"
    # In-cluster objects wait for nodes to run on: the default pool is removed.
    assert plan.named(f"{NAME}-pool-system")["urn"] in k8s["dependsOn"]


def test_kubeconfig_uses_the_gke_auth_plugin() -> None:
    config = json.loads(kubeconfig("gke_p_r_c", "34.1.2.3", "Q0EtUEVN"))
    assert config["clusters"] == [
        {"name": "gke_p_r_c", "cluster": {"server": "https://34.1.2.3", "certificate-authority-data": "Q0EtUEVN"}}
    ]
    assert config["current-context"] == "gke_p_r_c"
    exec_ = config["users"][0]["user"]["exec"]
    assert exec_["command"] == "gke-gcloud-auth-plugin"
    assert exec_["apiVersion"] == "client.authentication.k8s.io/v1beta1"
    assert "token" not in config["users"][0]["user"]  # no static credential


# --- cluster and pools ---------------------------------------------------------------------


def test_cluster(plan: Plan) -> None:
    cluster = plan.named(f"{NAME}-gke")
    assert cluster["inputs"] == {
        "name": "gke-ml-platform-gcp-usc1",
        "location": "us-central1",
        "minMasterVersion": "1.35",
        "releaseChannel": {"channel": "REGULAR"},
        "removeDefaultNodePool": True,
        "initialNodeCount": 1,
        "network": "${gcp-usc1-vpc.id}",
        "subnetwork": "${gcp-usc1-subnet.id}",
        "networkingMode": "VPC_NATIVE",
        "ipAllocationPolicy": {"clusterSecondaryRangeName": "pods", "servicesSecondaryRangeName": "services"},
        "workloadIdentityConfig": {"workloadPool": "my-gcp-project.svc.id.goog"},
        "deletionProtection": False,
        # The default pool (removed once the cluster is up) runs as the nodes' own account,
        # and without external IPs in the network the program made with a Cloud NAT.
        "nodeConfig": {"serviceAccount": NODE_EMAIL, "oauthScopes": ["https://www.googleapis.com/auth/cloud-platform"]},
        "privateClusterConfig": {"enablePrivateNodes": True},
    }
    assert cluster["options"]["protect"] is False
    # The default pool's account has its grants before the cluster is made.
    grants = {plan.named(f"{NAME}-node-sa-{k}")["urn"] for k in ("node", "images")}
    assert grants <= set(cluster["dependsOn"])


def test_system_pool(plan: Plan) -> None:
    pool = plan.named(f"{NAME}-pool-system")["inputs"]
    assert pool["name"] == "system"
    assert pool["cluster"] == "gke-ml-platform-gcp-usc1"
    assert pool["location"] == "us-central1"
    assert pool["autoscaling"] == {"totalMinNodeCount": 1, "totalMaxNodeCount": 3, "locationPolicy": "BALANCED"}
    assert pool["nodeConfig"]["machineType"] == "e2-standard-4"
    assert pool["nodeConfig"]["workloadMetadataConfig"] == {"mode": "GKE_METADATA"}
    assert "taints" not in pool["nodeConfig"]  # the add-ons run here


def test_worker_pools_are_tainted_and_labelled(plan: Plan) -> None:
    cpu = plan.named(f"{NAME}-pool-cpu")["inputs"]
    spot = plan.named(f"{NAME}-pool-cpuspot")["inputs"]
    assert cpu["nodeConfig"]["taints"] == [
        {"key": "node.anyscale.com/capacity-type", "value": "ON_DEMAND", "effect": "NO_SCHEDULE"}
    ]
    assert spot["nodeConfig"]["taints"] == [
        {"key": "node.anyscale.com/capacity-type", "value": "SPOT", "effect": "NO_SCHEDULE"}
    ]
    assert cpu["nodeConfig"]["labels"] == {"node.anyscale.com/capacity-type": "ON_DEMAND"}
    assert (cpu["nodeConfig"]["spot"], spot["nodeConfig"]["spot"]) == (False, True)
    assert cpu["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 10, "locationPolicy": "BALANCED"}
    assert spot["autoscaling"]["locationPolicy"] == "ANY"
    for pool in (cpu, spot):
        assert pool["nodeConfig"]["machineType"] == "n2-standard-16"
        assert pool["nodeConfig"]["workloadMetadataConfig"] == {"mode": "GKE_METADATA"}
        assert "guestAccelerators" not in pool["nodeConfig"]


def test_gpu_pool(gpu_plan: Plan) -> None:
    pool = gpu_plan.named(f"{NAME}-pool-gput4")["inputs"]
    assert pool["nodeConfig"]["guestAccelerators"] == [
        {"type": "nvidia-tesla-t4", "count": 2, "gpuDriverInstallationConfig": {"gpuDriverVersion": "LATEST"}}
    ]
    assert pool["nodeConfig"]["taints"] == [
        {"key": "node.anyscale.com/capacity-type", "value": "SPOT", "effect": "NO_SCHEDULE"},
        {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"},
        {"key": "node.anyscale.com/accelerator-type", "value": "GPU", "effect": "NO_SCHEDULE"},
    ]
    assert pool["nodeConfig"]["labels"] == {
        "node.anyscale.com/capacity-type": "SPOT",
        # No nvidia.com/gpu.product: GKE labels cloud.google.com/gke-accelerator from
        # the accelerator type, which the operator chart selects on GCP.
        "nvidia.com/gpu.count": "2",
        "node.anyscale.com/accelerator-type": "GPU",
    }
    assert pool["nodeConfig"]["spot"] is True
    # Ray images and spilling: the reference modules' 500 GB pd-ssd (platform.md 9.2).
    assert (pool["nodeConfig"]["diskSizeGb"], pool["nodeConfig"]["diskType"]) == (500, "pd-ssd")
    assert pool["autoscaling"]["totalMaxNodeCount"] == 4
    assert gpu_plan.named(f"{NAME}-pool-cpu")["inputs"]["autoscaling"]["totalMinNodeCount"] == 2


def test_gke_runs_its_own_device_plugin(gpu_plan: Plan) -> None:
    """GKE installs the driver and the device plugin on GPU nodes: no second one."""
    assert not [r for r in gpu_plan.resources if r["name"] == f"{NAME}-nvidia-device-plugin"]
    # ...while the AKS primary with its T4 pool does get it.
    assert gpu_plan.named("default-nvidia-device-plugin")["type"] == "kubernetes:helm.sh/v3:Release"


def test_protection_follows_the_cloud(gpu_plan: Plan) -> None:
    cluster = gpu_plan.named(f"{NAME}-gke")
    assert cluster["inputs"]["deletionProtection"] is True
    assert cluster["options"]["protect"] is True
    bucket = gpu_plan.named(f"{NAME}-storage")
    assert bucket["options"]["protect"] is True
    assert bucket["options"]["retainOnDelete"] is False


def test_accelerator_types_are_the_charts_gcp_node_selector_values() -> None:
    """GKE labels cloud.google.com/gke-accelerator with the pool's accelerator type, and
    the operator chart (1.8.0) selects GPU nodes on GCP by exactly these values."""
    from components.gcp.pools import accelerator
    from config import GkeClusterSpec

    chart = {
        "T4": "nvidia-tesla-t4",
        "L4": "nvidia-l4",
        "A100-40G": "nvidia-tesla-a100",
        "A100-80G": "nvidia-a100-80gb",
        "H100": "nvidia-h100-80gb",
    }
    machines = {
        "T4": "n1-standard-16",
        "L4": "g2-standard-8",
        "A100-40G": "a2-highgpu-1g",
        "A100-80G": "a2-ultragpu-1g",
        "H100": "a3-highgpu-8g",
    }
    pools = GkeClusterSpec.model_validate(
        {"nodePools": [{"name": f"p{i}", "instanceType": machines[t], "gpu": {"type": t}} for i, t in enumerate(chart)]}
    ).node_pools
    assert {p.gpu.type: accelerator(p)[0]["type"] for p in pools if p.gpu} == chart


# --- bucket and identity -----------------------------------------------------------------


def test_bucket(plan: Plan) -> None:
    bucket = plan.named(f"{NAME}-storage")
    assert bucket["inputs"] == {
        "name": BUCKET,
        "location": "US-CENTRAL1",
        "uniformBucketLevelAccess": True,
        "publicAccessPrevention": "enforced",
        "forceDestroy": False,
        "cors": [
            {
                "origins": ["https://console.azure.anyscale.com"],
                "methods": ["GET", "HEAD", "PUT", "POST", "DELETE"],
                # GCS: the allowed request headers too, so every header (the console's PUT
                # sends Content-Type, its ranged reads Range).
                "responseHeaders": ["*"],
                "maxAgeSeconds": 3600,
            }
        ],
    }
    assert bucket["options"]["retainOnDelete"] is True  # the spec's default
    assert bucket["options"]["protect"] is False  # the example stack turns protection off
    suffix = plan.named(f"{NAME}-storage-suffix")
    assert suffix["provider"].startswith(plan.named("ml-platform-random")["urn"] + "::")
    assert suffix["inputs"] == {"length": 6, "special": False, "upper": False}


def test_workload_identity_binding(plan: Plan) -> None:
    binding = plan.named(f"{NAME}-operator-workload-identity")
    assert (
        binding["inputs"]["member"] == "serviceAccount:my-gcp-project.svc.id.goog[anyscale-operator/anyscale-operator]"
    )
    assert binding["inputs"]["role"] == "roles/iam.workloadIdentityUser"
    assert binding["inputs"]["serviceAccountId"].endswith(f"/serviceAccounts/{EMAIL}")
    # The project's workload pool exists only once a cluster with Workload Identity does.
    assert plan.named(f"{NAME}-gke")["urn"] in binding["dependsOn"]
    account = plan.named(f"{NAME}-operator-sa")["inputs"]
    assert account["accountId"] == "anyscale-ml-platform-gcp-usc1"


def test_bucket_access_is_on_the_bucket_only(plan: Plan) -> None:
    grants = plan.of_type("gcp:storage/bucketIAMMember:BucketIAMMember")
    assert sorted((g["inputs"]["bucket"], g["inputs"]["role"], g["inputs"]["member"]) for g in grants) == [
        (BUCKET, "roles/storage.legacyBucketReader", f"serviceAccount:{EMAIL}"),
        (BUCKET, "roles/storage.objectAdmin", f"serviceAccount:{EMAIL}"),
        (BUCKET, "roles/storage.objectAdmin", "serviceAccount:${gcp-usc1-workloads-sa.email}"),
    ]
    bucket_urn = plan.named(f"{NAME}-storage")["urn"]
    assert all(bucket_urn in g["dependsOn"] for g in grants)


def test_project_level_iam_is_the_node_accounts_only(plan: Plan) -> None:
    project_iam = [r for r in plan.resources if re.match(r"gcp:(projects|organizations|folder)/", r["type"])]
    assert sorted(
        (r["type"], r["inputs"]["project"], r["inputs"]["role"], r["inputs"]["member"]) for r in project_iam
    ) == [
        (
            "gcp:projects/iAMMember:IAMMember",
            "my-gcp-project",
            "roles/artifactregistry.reader",
            f"serviceAccount:{NODE_EMAIL}",
        ),
        (
            "gcp:projects/iAMMember:IAMMember",
            "my-gcp-project",
            "roles/container.defaultNodeServiceAccount",
            f"serviceAccount:{NODE_EMAIL}",
        ),
    ]
    iam = [r for r in plan.resources if r["type"].startswith("gcp:") and "IAM" in r["type"]]
    assert {r["type"] for r in iam} == {
        "gcp:projects/iAMMember:IAMMember",
        "gcp:serviceaccount/iAMMember:IAMMember",
        "gcp:storage/bucketIAMMember:BucketIAMMember",
    }


def test_existing_bucket_is_used_and_granted_by_name(existing_bucket_plan: Plan) -> None:
    plan = existing_bucket_plan
    assert plan.of_type("gcp:storage/bucket:Bucket") == []
    assert [r for r in plan.of_type("random:index/randomString:RandomString") if NAME in r["name"]] == []
    properties = plan.named(f"{NAME}-registration")["inputs"]["properties"]
    assert properties["cloudStorageBucketName"] == "gs://ray-data-usc1"
    assert properties["cloudStorageBucketRegion"] == "us-east1"
    grants = plan.of_type("gcp:storage/bucketIAMMember:BucketIAMMember")
    assert {(g["inputs"]["bucket"], g["inputs"]["role"]) for g in grants} == {
        ("ray-data-usc1", "roles/storage.objectAdmin"),
        ("ray-data-usc1", "roles/storage.legacyBucketReader"),
    }


# --- names -----------------------------------------------------------------------------------


def test_names_fit_gcp_limits() -> None:
    cloud, resource = "ML_Platform-" + "x" * 60, "GCP_us-central1-" + "y" * 60
    assert re.fullmatch(r"[a-z][a-z0-9-]{0,38}[a-z0-9]", cluster_name(cloud, resource))
    assert re.fullmatch(r"[a-z][a-z0-9-]{4,28}[a-z0-9]", account_id(cloud, resource))
    name = bucket_name(cloud, resource, "abc123")
    assert len(name) <= 63 and name.endswith("-abc123")
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]*[a-z0-9]", name)
    assert account_id("a", "b") == "anyscale-a-b"
