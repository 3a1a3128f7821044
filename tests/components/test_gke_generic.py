"""GKE, Generic and every provider: the GKE network (created or existing),
node service account, signBlob, pool zones and project APIs; the operator chart's extra
values (Helm and the AKS extension, secrets kept secret); S3-compatible credentials on
Generic; address ranges of peered resources; the GKE policies."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from config import SpecError, load_spec
from preflight.policy import resource_args
from preflight.runtime import Plan
from tests.conftest import stack_values
from tests.example_spec import standalone
from tests.plans import recorded

EXAMPLE = stack_values("example")
NAME = "gcp-usc1"
NODE_EMAIL = "${gcp-usc1-node-sa.email}"
OPERATOR_EMAIL = "${gcp-usc1-operator-sa.email}"
SECRET = {"secure": "v1:example-ciphertext/pull-token=="}
VALUES_AT = "addons.anyscaleOperator.values"


def config() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return copy.deepcopy(EXAMPLE["anyscale-cloud:cloud"]), copy.deepcopy(EXAMPLE["anyscale-cloud:resources"])


def problems(resources: list[dict[str, Any]]) -> list[str]:
    cloud, _ = config()
    with pytest.raises(SpecError) as caught:
        load_spec(cloud, resources)
    return [str(p) for p in caught.value.problems]


def edited(index: int, **changes: Any) -> list[dict[str, Any]]:
    _, resources = config()
    resources[index].update(changes)
    return resources


def with_values(index: int, values: Any) -> list[dict[str, Any]]:
    return edited(index, addons={"anyscaleOperator": {"version": "1.8.0", "values": values}})


GPU_POOL = {"name": "gpul4", "instanceType": "g2-standard-8", "gpu": {"type": "L4"}, "maxCount": 2}
OPERATOR_VALUES = {
    "operator": {
        "replicas": 2,
        "nodeSelector": {"kubernetes.io/os": "linux"},
        "imagePullSecrets": [{"name": "regcred"}],
    },
    "workloads": {"enableZoneSelector": True},
}


@pytest.fixture(scope="module")
def plan(example_plan: Plan) -> Plan:
    """The example stack: GKE in a network of its own (the suite's shared recording of it:
    nothing asserted here depends on the stack's name, which only URNs carry)."""
    return example_plan


@pytest.fixture(scope="module")
def apis_plan() -> Plan:
    """The example stack with two edits on different resources, each asserted by its own test:
    GKE's project APIs enabled (gcp-usc1) and Generic storage without credentials (onprem).
    The stack name is the example's, so that its URNs compare with `plan`'s."""
    values = copy.deepcopy(EXAMPLE)
    values["anyscale-cloud:resources"][2]["enableApis"] = True
    values["anyscale-cloud:resources"][3]["storage"] = {"bucket": "s3://ray-data"}
    return recorded("example", values)


@pytest.fixture(scope="module")
def custom_plan() -> Plan:
    """GKE on an existing network with zoned GPU pool and APIs enabled; operator values on
    AKS (extension) and GKE (Helm), one a secret; MinIO credentials on Generic. The example's
    AWS resource (and so the primary's MultiKueue worker) is left out: nothing here is about it."""
    values = standalone(copy.deepcopy(EXAMPLE))
    default, aws, gcp, onprem = values["anyscale-cloud:resources"]
    assert aws["provider"] == "AWS"
    values["anyscale-cloud:resources"] = [default, gcp, onprem]
    secret_values = copy.deepcopy(OPERATOR_VALUES)
    secret_values["operator"]["container"] = {"additionalEnv": [{"name": "TOKEN", "value": SECRET}]}
    default["addons"] = {"anyscaleOperator": {"version": "1.8.0", "values": secret_values}}
    gcp["addons"] = {"anyscaleOperator": {"version": "1.8.0", "values": secret_values}}
    gcp["enableApis"] = True
    gcp["cluster"] = {
        "network": "shared-vpc",
        "subnetwork": "gke-usc1",
        "podsRangeName": "gke-pods",
        "servicesRangeName": "gke-services",
        "nodePools": [
            {"name": "cpu", "instanceType": "n2-standard-16"},
            {**GPU_POOL, "zones": ["us-central1-a", "us-central1-c"]},
        ],
    }
    onprem["storage"] = {
        "bucket": "s3://ray-data",
        "endpoint": "https://minio.dc1.example.com",
        "region": "us-east-1",
        "credentials": {
            "accessKeyId": {"secure": "v1:example-ciphertext/access-key=="},
            "secretAccessKey": {"secure": "v1:example-ciphertext/secret-key=="},
            "addressingStyle": "path",
        },
    }
    return recorded("test", values)


# --- GKE: the network -------------------------------------------------------------------------


def test_created_network(plan: Plan) -> None:
    vpc = plan.named(f"{NAME}-vpc")
    assert vpc["type"] == "gcp:compute/network:Network"
    assert vpc["inputs"] == {
        "name": "anyscale-ml-platform-gcp-usc1",
        "autoCreateSubnetworks": False,
        "routingMode": "REGIONAL",
    }
    subnet = plan.named(f"{NAME}-subnet")["inputs"]
    assert subnet == {
        "name": "anyscale-ml-platform-gcp-usc1",
        "network": "${gcp-usc1-vpc.id}",
        "region": "us-central1",
        "ipCidrRange": "10.10.0.0/20",
        "secondaryIpRanges": [
            {"rangeName": "pods", "ipCidrRange": "10.12.0.0/14"},
            {"rangeName": "services", "ipCidrRange": "10.16.0.0/20"},
        ],
        "privateIpGoogleAccess": True,
    }


def test_firewall_denies_ssh_and_rdp_from_the_internet(plan: Plan) -> None:
    rules = plan.of_type("gcp:compute/firewall:Firewall")
    assert [r["name"] for r in rules] == [f"{NAME}-deny-remote-access"]
    assert rules[0]["inputs"] == {
        "name": "anyscale-ml-platform-gcp-usc1-deny-ssh-rdp",
        "network": "${gcp-usc1-vpc.id}",
        "direction": "INGRESS",
        "priority": 900,  # before any allow at the default 1000
        "sourceRanges": ["0.0.0.0/0"],
        "denies": [{"protocol": "tcp", "ports": ["22", "3389"]}],
        "description": "No SSH or RDP from the internet (GKE creates the rules it needs itself)",
    }


def test_cluster_uses_the_created_subnet_and_its_ranges(plan: Plan) -> None:
    cluster = plan.named(f"{NAME}-gke")
    assert cluster["inputs"]["network"] == "${gcp-usc1-vpc.id}"
    assert cluster["inputs"]["subnetwork"] == "${gcp-usc1-subnet.id}"
    assert cluster["inputs"]["ipAllocationPolicy"] == {
        "clusterSecondaryRangeName": "pods",
        "servicesSecondaryRangeName": "services",
    }
    urns = {plan.named(f"{NAME}-{n}")["urn"] for n in ("vpc", "subnet", "deny-remote-access")}
    assert urns <= set(cluster["dependsOn"])


def test_existing_network(custom_plan: Plan) -> None:
    assert not [r for r in custom_plan.resources if r["type"].startswith("gcp:compute/")]
    cluster = custom_plan.named(f"{NAME}-gke")["inputs"]
    assert (cluster["network"], cluster["subnetwork"]) == ("shared-vpc", "gke-usc1")
    assert cluster["ipAllocationPolicy"] == {
        "clusterSecondaryRangeName": "gke-pods",
        "servicesSecondaryRangeName": "gke-services",
    }


# --- GKE: identities, pools, bucket, APIs -------------------------------------------------------


def test_every_pool_runs_as_the_node_account(plan: Plan) -> None:
    account = plan.named(f"{NAME}-node-sa")["inputs"]
    assert account["accountId"] == "nodes-ml-platform-gcp-usc1"
    pools = plan.of_type("gcp:container/nodePool:NodePool")
    assert sorted(p["name"] for p in pools if p["name"].startswith(NAME)) == [
        f"{NAME}-pool-cpu",
        f"{NAME}-pool-cpuspot",
        f"{NAME}-pool-system",
    ]
    assert {p["inputs"]["nodeConfig"]["serviceAccount"] for p in pools if p["name"].startswith(NAME)} == {NODE_EMAIL}
    # The cluster's node config is the default pool's (removed once the cluster is up): the
    # same account, and ignored after creation (a refresh reads another pool's into it).
    cluster = plan.named(f"{NAME}-gke")
    assert cluster["inputs"]["nodeConfig"]["serviceAccount"] == NODE_EMAIL
    assert cluster["options"]["ignoreChanges"] == ["nodeConfig"]
    grants = {
        (g["inputs"]["project"], g["inputs"]["role"], g["inputs"]["member"])
        for g in plan.of_type("gcp:projects/iAMMember:IAMMember")
    }
    assert grants == {
        ("my-gcp-project", "roles/container.defaultNodeServiceAccount", f"serviceAccount:{NODE_EMAIL}"),
        ("my-gcp-project", "roles/artifactregistry.reader", f"serviceAccount:{NODE_EMAIL}"),
    }


def test_operator_may_sign_blobs_as_itself(plan: Plan) -> None:
    binding = plan.named(f"{NAME}-operator-sign-blob")
    assert binding["type"] == "gcp:serviceaccount/iAMMember:IAMMember"
    assert binding["inputs"]["role"] == "roles/iam.serviceAccountTokenCreator"
    assert binding["inputs"]["member"] == f"serviceAccount:{OPERATOR_EMAIL}"
    assert binding["inputs"]["serviceAccountId"].endswith(f"/serviceAccounts/{OPERATOR_EMAIL}")
    assert binding["urn"] in plan.named(f"{NAME}-registration")["dependsOn"]


def test_gcs_cors_allows_every_header(plan: Plan) -> None:
    assert plan.named(f"{NAME}-storage")["inputs"]["cors"][0]["responseHeaders"] == ["*"]


def test_gpu_pool_zones(custom_plan: Plan) -> None:
    assert custom_plan.named(f"{NAME}-pool-gpul4")["inputs"]["nodeLocations"] == ["us-central1-a", "us-central1-c"]
    assert "nodeLocations" not in custom_plan.named(f"{NAME}-pool-cpu")["inputs"]


def test_project_apis_enabled_first(custom_plan: Plan, plan: Plan) -> None:
    services = custom_plan.of_type("gcp:projects/service:Service")
    assert sorted(
        (s["inputs"]["project"], s["inputs"]["service"], s["inputs"]["disableOnDestroy"]) for s in services
    ) == [
        ("my-gcp-project", f"{api}.googleapis.com", False)
        for api in ("cloudresourcemanager", "compute", "container", "iam", "iamcredentials", "storage")
    ]
    urns = {s["urn"] for s in services}
    for name in (f"{NAME}-gke", f"{NAME}-node-sa", f"{NAME}-operator-sa", f"{NAME}-pool-gpul4", f"{NAME}-storage"):
        assert urns <= set(custom_plan.named(name)["dependsOn"]), name
    assert plan.of_type("gcp:projects/service:Service") == []  # off by default


# --- operator values: Helm and the AKS extension -------------------------------------------------


def test_operator_values_reach_the_helm_chart(custom_plan: Plan) -> None:
    values = custom_plan.named(f"{NAME}-anyscale-operator")["inputs"]["values"]
    assert values["operator"]["replicas"] == 2
    assert values["operator"]["nodeSelector"] == {"kubernetes.io/os": "linux"}
    assert values["operator"]["imagePullSecrets"] == [{"name": "regcred"}]
    assert values["operator"]["container"] == {"additionalEnv": [{"name": "TOKEN", "value": "[secret]"}]}
    assert values["workloads"]["enableZoneSelector"] is True
    # The program's own keys are untouched next to them.
    assert values["operator"]["serviceAccount"] == {"name": "anyscale-operator"}
    assert values["global"]["gcp"] == {"projectId": "my-gcp-project"}


def test_operator_values_reach_the_aks_extension(custom_plan: Plan) -> None:
    ext = custom_plan.named("default-operator-extension")["inputs"]
    settings = ext["configurationSettings"]
    assert {
        k: v
        for k, v in settings.items()
        if k.startswith(("operator.replicas", "operator.nodeSelector", "operator.imagePull", "workloads.enableZone"))
    } == {
        "operator.replicas": "2",
        "operator.nodeSelector.kubernetes\\.io/os": "linux",
        "operator.imagePullSecrets[0].name": "regcred",
        "workloads.enableZoneSelector": "true",
    }
    # The secret value goes to the protected settings only; its clear sibling stays here.
    assert [k for k in settings if k.startswith("operator.container")] == ["operator.container.additionalEnv[0].name"]
    assert ext["configurationProtectedSettings"] == "[secret]"


def test_operator_values_split_secrets_from_clear() -> None:
    from components.addons.operator import nest, operator_values

    cloud, _ = config()
    spec = load_spec(
        cloud,
        with_values(2, {"operator": {"replicas": 3, "container": {"additionalEnv": [{"name": "T", "value": SECRET}]}}}),
    )
    flat = spec.resources[2].addons.anyscale_operator.values
    clear, secret = operator_values(flat)
    assert clear == {"operator.replicas": 3, "operator.container.additionalEnv[0].name": "T"}
    assert list(secret) == ["operator.container.additionalEnv[0].value"]
    assert nest(clear) == {"operator": {"replicas": 3, "container": {"additionalEnv": [{"name": "T"}]}}}


# --- Generic: S3-compatible credentials ------------------------------------------------------------


def test_generic_s3_credentials(custom_plan: Plan) -> None:
    values = custom_plan.named("onprem-anyscale-operator")["inputs"]["values"]
    assert values["credentialMount"] == {
        "aws": {
            "enabled": True,
            "createSecret": {
                "create": True,
                "accessKeyId": "[secret]",
                "secretAccessKey": "[secret]",
                "endpointUrl": "https://minio.dc1.example.com",
                "addressingStyle": "path",
            },
        }
    }
    # The bucket's real region: the S3 config file's `region`, and the registration's.
    assert values["global"]["aws"] == {"region": "us-east-1"}
    props = custom_plan.named("onprem-registration")["inputs"]["properties"]
    assert (props["region"], props["cloudStorageBucketRegion"]) == ("dc1-rack7", "us-east-1")
    assert custom_plan.named("onprem-anyscale-operator")["options"]["additionalSecretOutputs"] == ["values"]


def test_generic_without_credentials_sets_no_credential_keys(apis_plan: Plan) -> None:
    # onprem's storage: a bucket without credentials (apis_plan).
    values = apis_plan.named("onprem-anyscale-operator")["inputs"]["values"]
    assert "credentialMount" not in values
    assert "aws" not in values["global"]


# --- the spec: exact messages -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "where", "message"),
    [
        (
            {"operator": {"replicsa": 2}},
            "operator.replicsa",
            "operator.replicsa is not a key the anyscale-operator 1.8.0 chart reads (Helm would ignore it); did you mean operator.replicas?",
        ),
        (
            {"global": {"controlPlaneURL": "https://console.anyscale.com"}},
            "global.controlPlaneURL",
            "global.controlPlaneURL is set by the program and cannot be overridden: the program sets it to exactly the Azure control plane",
        ),
        (
            {"global": {"auth": {"iamIdentity": "someone"}}},
            "global.auth",
            "global.auth is set by the program and cannot be overridden: the operator's identity is the one the program "
            "creates (the CLI token on Generic: `cliToken`)",
        ),
        (
            {"networking": {"gateway": {"className": "eg"}}},
            "networking.gateway",
            "networking.gateway is set by the program and cannot be overridden: the program installs the gateway and "
            "configures the operator with its address",
        ),
        (
            {"credentialMount": {"aws": {"createSecret": {"accessKeyId": "x"}}}},
            "credentialMount.aws.createSecret",
            "credentialMount.aws.createSecret is set by the program and cannot be overridden: set storage.credentials "
            "(Generic) instead: the program keeps the keys secret",
        ),
        (
            {"workloads": {"serviceAccount": {"name": "mine"}}},
            "workloads.serviceAccount.name",
            "workloads.serviceAccount.name is set by the program and cannot be overridden: Ray pods run as the "
            "service account anyscale-workloads the program creates, with no Kubernetes rights and a cloud identity "
            "with the bucket only",
        ),
        (
            {"credentialMount": {"gcp": 1}},
            "credentialMount.gcp",
            "is a mapping in the chart (keys createSecret, enabled, fromSecret), not a single value",
        ),
        (
            {"operator": {"replicas": None}},
            "operator.replicas",
            "an empty or null value cannot be passed (the AKS extension takes flat keys); leave the key out",
        ),
        (
            {"operator.replicas": 2},
            "operator.replicas",
            "a chart key is a non-empty name without dots: nest the parts as a mapping",
        ),
    ],
)
def test_operator_values_rules(values: dict[str, Any], where: str, message: str) -> None:
    assert problems(with_values(2, values)) == [f"resources[2].{VALUES_AT}.{where} (gcp-usc1): {message}"]


def test_operator_values_accept_secrets_and_any_shape_under_a_chart_key() -> None:
    cloud, _ = config()
    spec = load_spec(
        cloud,
        with_values(
            0,
            {
                "operator": {"tolerations": [{"key": "a", "operator": "Exists"}]},
                "patches": [{"kind": "Pod", "x": SECRET}],
            },
        ),
    )
    flat = spec.resources[0].addons.anyscale_operator.values
    assert sorted(flat) == [
        "operator.tolerations[0].key",
        "operator.tolerations[0].operator",
        "patches[0].kind",
        "patches[0].x",
    ]
    assert flat["patches[0].x"].encrypted is True


def test_existing_network_needs_its_subnet_and_ranges() -> None:
    assert problems(edited(2, cluster={"network": "shared-vpc"})) == [
        "resources[2].cluster (gcp-usc1): an existing network needs subnetwork, podsRangeName, servicesRangeName: the "
        "subnet in the resource's region and the names of its secondary ranges for pods and services (a VPC-native cluster)"
    ]
    assert problems(edited(2, cluster={"subnetwork": "gke-usc1", "podsRangeName": "p"})) == [
        "resources[2].cluster (gcp-usc1): subnetwork, podsRangeName only go with an existing `network`: set it too, or remove them"
    ]


def test_gke_ranges_are_networks_and_do_not_overlap() -> None:
    assert problems(edited(2, cluster={"podCidr": "10.10.0.0/14"})) == [
        "resources[2].cluster.podCidr (gcp-usc1): '10.10.0.0/14' is not an IPv4 network (10.10.0.0/14 has host bits set); e.g. 10.0.0.0/16"
    ]
    assert problems(edited(2, cluster={"serviceCidr": "10.12.0.0/20"})) == [
        "resources[2].cluster (gcp-usc1): podCidr 10.12.0.0/14 overlaps serviceCidr 10.12.0.0/20: nodes, pods and services need distinct ranges"
    ]


def test_pool_zones_are_in_the_region_and_unique() -> None:
    assert problems(edited(2, cluster={"nodePools": [{**GPU_POOL, "zones": ["us-central1-a", "us-east1-b"]}]})) == [
        "resources[2].cluster.nodePools[0].zones[1] (gcp-usc1): 'us-east1-b' is not a zone of us-central1: use us-central1-a, us-central1-b, us-central1-c, us-central1-f"
    ]
    assert problems(edited(2, cluster={"nodePools": [{**GPU_POOL, "zones": ["us-central1-a", "us-central1-a"]}]})) == [
        "resources[2].cluster.nodePools[0].zones (gcp-usc1): zones must be unique"
    ]


def test_generic_credentials_rules() -> None:
    keys = {"accessKeyId": "minio", "secretAccessKey": SECRET}
    _, resources = config()
    resources[3]["storage"] = {"bucket": "gs://ray-data", "region": "us-east-1", "credentials": keys}
    assert problems(resources) == [
        "resources[3].storage (onprem): credentials are for S3-compatible buckets (s3://...), not gs://; remove them or use an s3:// bucket"
    ]
    resources[3]["storage"] = {"bucket": "s3://ray-data", "credentials": keys}
    assert problems(resources) == [
        "resources[3].storage (onprem): set storage.region to the bucket's real region (the S3 client signs requests for it; "
        "MinIO's default is us-east-1)"
    ]
    resources[3]["storage"]["region"] = "us-east-1"
    cloud, _ = config()
    credentials = load_spec(cloud, resources).resources[3].storage.credentials
    assert (
        credentials is not None and credentials.secret_access_key.encrypted and not credentials.access_key_id.encrypted
    )


# --- peered networks ---------------------------------------------------------------------------


def test_peered_names_must_exist() -> None:
    assert problems(edited(2, peeredWith=["nope", "gcp-usc1"])) == [
        "resources[2].peeredWith[0] (gcp-usc1): 'nope' is not the name of a cloud resource of this stack",
        "resources[2].peeredWith[1] (gcp-usc1): 'gcp-usc1' is this resource itself",
    ]


def test_peered_ranges_must_not_overlap() -> None:
    resources = edited(2, peeredWith=["aws-usw2"], cluster={"nodeCidr": "10.0.16.0/20"})
    assert problems(resources) == [
        "resources[2].peeredWith[0] (gcp-usc1): cluster.nodeCidr 10.0.16.0/20 overlaps aws-usw2's cluster.vpcCidr "
        "10.0.0.0/16: peered networks need distinct address ranges; change one of them"
    ]
    # Listed on both sides: reported once, at the first.
    resources[1]["peeredWith"] = ["gcp-usc1"]
    assert problems(resources) == [
        "resources[1].peeredWith[0] (aws-usw2): cluster.vpcCidr 10.0.0.0/16 overlaps gcp-usc1's cluster.nodeCidr "
        "10.0.16.0/20: peered networks need distinct address ranges; change one of them"
    ]


def test_peered_defaults_do_not_overlap_and_unknown_ranges_pass() -> None:
    cloud, _ = config()
    resources = edited(2, peeredWith=["aws-usw2", "onprem"])  # Generic: no known ranges
    assert load_spec(cloud, resources).resources[2].peered_with == ["aws-usw2", "onprem"]
    from config.peering import network_cidrs

    spec = load_spec(cloud, resources)
    assert network_cidrs(spec.resources[2]) == {
        "cluster.nodeCidr": "10.10.0.0/20",
        "cluster.podCidr": "10.12.0.0/14",
        "cluster.serviceCidr": "10.16.0.0/20",
    }
    assert network_cidrs(spec.resources[1]) == {"cluster.vpcCidr": "10.0.0.0/16"}
    assert network_cidrs(spec.resources[3]) == {}


# --- policies -------------------------------------------------------------------------------------


def check(policy: str, record: dict[str, Any]) -> list[str]:
    from tests.policy.helpers import POLICIES, violations

    return violations(POLICIES[policy], resource_args(record))


def rec(kind: str, inputs: dict[str, Any]) -> dict[str, Any]:
    return {"type": kind, "name": "x", "urn": f"urn:pulumi:t::p::{kind}::x", "inputs": inputs, "options": {}}


CLUSTER = "gcp:container/cluster:Cluster"
POOL = "gcp:container/nodePool:NodePool"


def test_policy_default_network(plan: Plan) -> None:
    assert check("gke-default-network", plan.named(f"{NAME}-gke")) == []
    assert check("gke-default-network", rec(CLUSTER, {"network": "shared-vpc"})) == []
    for network in ({"network": "default"}, {"network": "projects/p/global/networks/default"}, {}):
        found = check("gke-default-network", rec(CLUSTER, network))
        assert len(found) == 1 and found[0].startswith("runs on the project's `default` VPC"), network


def test_policy_node_service_account(plan: Plan) -> None:
    for name in (f"{NAME}-gke", f"{NAME}-pool-cpu", f"{NAME}-pool-system"):
        assert check("gke-node-service-account", plan.named(name)) == [], name
    message = (
        "the pool's nodes run as the Compute Engine default service account (Editor on the project in many projects): "
        "a compromised node gets all of it; give nodeConfig.serviceAccount a service account of their own"
    )
    assert check("gke-node-service-account", rec(POOL, {"nodeConfig": {"machineType": "e2-standard-4"}})) == [message]
    assert check(
        "gke-node-service-account",
        rec(POOL, {"nodeConfig": {"serviceAccount": "123456789-compute@developer.gserviceaccount.com"}}),
    ) == [message]
    assert check("gke-node-service-account", rec(CLUSTER, {"removeDefaultNodePool": False})) == [
        message.replace("the pool's nodes", "the default pool's nodes")
    ]
    # The default pool removed and no node config: nothing to check.
    assert check("gke-node-service-account", rec(CLUSTER, {"removeDefaultNodePool": True})) == []


def test_policy_gcs_cors_headers(plan: Plan) -> None:
    bucket = plan.named(f"{NAME}-storage")
    assert check("gcs-cors-all-headers", bucket) == []
    bad = copy.deepcopy(bucket)
    bad["inputs"]["cors"][0]["responseHeaders"] = ["Accept-Ranges", "Content-Range", "Content-Length"]
    assert check("gcs-cors-all-headers", bad) == [
        "the CORS rule for https://console.azure.anyscale.com lists responseHeaders ['Accept-Ranges', 'Content-Range', "
        "'Content-Length']: on GCS this list is also the request headers a preflight may ask for, so the console's PUT "
        "(Content-Type) and ranged reads (Range) fail their preflight; set responseHeaders to ['*']"
    ]


def test_node_account_ids_cut_at_the_limit_stay_distinct() -> None:
    cloud, resources = config()
    cloud["name"] = "a-very-long-cloud-name-for-test"
    resources.append({**resources[2], "name": "gcp-usc1-x"})
    load_spec(cloud, resources)  # each cut ID ends in a hash of the whole name: no collision


# --- rendered with the real chart (tests/charts) ---------------------------------------------


@pytest.fixture(scope="module")
def rendered(custom_plan: Plan, render_cache: Path) -> dict[str, list[dict[str, Any]]]:
    from tests.components.test_charts import rendered_operator

    cache = render_cache
    return {
        name: rendered_operator(custom_plan, name, provider, cache)
        for name, provider in (("onprem", "Generic"), ("gcp-usc1", "GCP"), ("default", "Azure"))
    }


def _one(objects: list[dict[str, Any]], kind: str, name: str) -> dict[str, Any]:
    (found,) = [o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name]
    return found


def test_generic_credentials_render_into_the_charts_secret(rendered: dict[str, list[dict[str, Any]]]) -> None:
    import base64

    objects = rendered["onprem"]
    secret = _one(objects, "Secret", "anyscale-aws-credentials")
    config_file = base64.b64decode(secret["data"]["config"]).decode()
    assert config_file.splitlines() == [
        "[default]",
        "region = us-east-1",
        "endpoint_url = https://minio.dc1.example.com",
        "s3 =",
        "  addressing_style = path",
    ]
    assert base64.b64decode(secret["data"]["credentials"]).decode().startswith("[default]\naws_access_key_id = ")
    operator = _one(objects, "Deployment", "anyscale-operator")
    env = {e["name"]: e.get("value") for e in operator["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env["ANYSCALE_S3_USE_PATH_STYLE"] == "true"


@pytest.mark.parametrize("resource", ["gcp-usc1", "default"])
def test_operator_values_render(rendered: dict[str, list[dict[str, Any]]], resource: str) -> None:
    operator = _one(rendered[resource], "Deployment", "anyscale-operator")
    assert operator["spec"]["replicas"] == 2
    pod = operator["spec"]["template"]["spec"]
    assert pod["nodeSelector"] == {"kubernetes.io/os": "linux"}
    assert pod["imagePullSecrets"] == [{"name": "regcred"}]


def test_enabled_apis_add_to_the_dependencies_a_resource_asked_for(plan: Plan, apis_plan: Plan) -> None:
    # AfterApis rewrites every GCP resource's depends_on: it must add the APIs to what the
    # builder asked for (the cluster's network, the identity binding's cluster), never
    # replace it. Compared resource by resource with the same stack without enableApis
    # (apis_plan's other edit, onprem's storage, changes no GCP resource).
    with_apis = apis_plan
    apis = {r["urn"] for r in with_apis.of_type("gcp:projects/service:Service")}
    assert len(apis) == 6  # cloudresourcemanager, compute, container, iam, iamcredentials, storage
    before = {r["urn"]: set(r["dependsOn"]) for r in plan.resources}
    checked = 0
    for resource in with_apis.resources:
        if resource["urn"] in apis or not resource["type"].startswith("gcp:"):
            continue
        assert set(resource["dependsOn"]) == before[resource["urn"]] | apis, resource["name"]
        checked += 1
    assert checked >= 10
    # The two the review named, spelled out.
    cluster = with_apis.named(f"{NAME}-gke")["dependsOn"]
    assert with_apis.named(f"{NAME}-vpc")["urn"] in cluster
    assert with_apis.named(f"{NAME}-subnet")["urn"] in cluster
    binding = with_apis.named(f"{NAME}-operator-workload-identity")["dependsOn"]
    assert with_apis.named(f"{NAME}-gke")["urn"] in binding
