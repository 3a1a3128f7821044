"""EksTarget wiring: the example stack's `aws-usw2` resource (next to the AKS primary),
and a variant with two more AWS resources, run once each under the recording mocks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from components.aws.policies import irsa_trust_policy
from components.aws.resource import PROXY_SERVICE_ANNOTATIONS
from config.data import versions
from preflight.runtime import Plan
from tests.conftest import stack_values
from tests.plans import recorded

# Importing pulumi_aws warns about its deprecated *V2 S3 classes; we use none of them
# (test_bucket_is_kept_and_uses_the_current_sdk_types checks it).
pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated in favor of:DeprecationWarning")

ROLE_ARN = "${aws-usw2-operator.arn}"
# platform.md 7: the taint keys of every pool (literals, not the code's constants).
CAPACITY_TAINT = "node.anyscale.com/capacity-type"
GPU_TAINT = "nvidia.com/gpu"
ACCELERATOR_TAINT = "node.anyscale.com/accelerator-type"
ISSUER_HOST = "oidc.eks.${aws-usw2-eks.region}.amazonaws.com/id/${aws-usw2-eks.identities[0].oidcs[0].id}"


def two_resources(values: dict[str, Any]) -> dict[str, Any]:
    """The example's primary and its AWS resource only (the other providers are built elsewhere)."""
    values["anyscale-cloud:resources"] = values["anyscale-cloud:resources"][:2]
    assert [r["name"] for r in values["anyscale-cloud:resources"]] == ["default", "aws-usw2"]
    return values


@pytest.fixture(scope="module")
def plan(example_plan: Plan) -> Plan:
    return example_plan


@pytest.fixture(scope="module")
def variant() -> Plan:
    """Two more AWS resources: one in another region with a GPU pool and its bucket in a
    third region, one on an existing bucket; protection on."""
    values = two_resources(stack_values("example"))
    values["anyscale-cloud:cloud"]["protect"] = True
    values["anyscale-cloud:resources"] += [
        {
            "name": "aws-euw1",
            "provider": "AWS",
            "region": "eu-west-1",
            "storage": {"region": "eu-central-1"},
            "cluster": {
                "kubernetesVersion": "1.36",
                "availabilityZones": 3,
                "vpcCidr": "10.20.0.0/16",
                "nodePools": [
                    {"name": "gpua10g", "instanceType": "g5.2xlarge", "maxCount": 4, "gpu": {"type": "A10G"}},
                ],
            },
        },
        {"name": "aws-byob", "provider": "AWS", "region": "us-east-1", "storage": {"bucket": "s3://existing-data"}},
    ]
    return recorded("test", values)


def of_resource(plan: Plan, resource: str) -> list[dict[str, Any]]:
    return [r for r in plan.resources if r["name"].startswith(f"{resource}-")]


def registration(plan: Plan, resource: str) -> dict[str, Any]:
    return plan.named(f"{resource}-registration")["inputs"]["properties"]


def policy(record: dict[str, Any], key: str) -> dict[str, Any]:
    return json.loads(record["inputs"][key])


# --- what the platform and the operator see -------------------------------------------------


def test_registration_has_exactly_the_aws_properties(plan: Plan) -> None:
    bucket = plan.named("aws-usw2-bucket")["inputs"]["bucket"]
    assert registration(plan, "aws-usw2") == {
        "provider": "AWS",
        "computeStack": "K8S",
        "region": "us-west-2",
        "cloudStorageBucketName": f"s3://{bucket}",
        "cloudStorageBucketEndpoint": "",
        "cloudStorageBucketRegion": "us-west-2",
        "anyscaleOperatorIamIdentity": ROLE_ARN,
    }
    # Globally unique: the cloud and resource names plus the random suffix.
    assert bucket == "ml-platform-aws-usw2-${aws-usw2-bucket-suffix.result}"


def test_operator_release_gets_the_same_role_arn(plan: Plan) -> None:
    values = plan.named("aws-usw2-anyscale-operator")["inputs"]["values"]
    assert values["global"]["auth"] == {"iamIdentity": ROLE_ARN}
    assert values["global"]["cloudProvider"] == "aws"
    assert values["global"]["aws"] == {"region": "us-west-2"}
    # An NLB reports a hostname, not an IP.
    assert values["networking"]["gateway"]["hostname"] == "${aws-usw2-gateway.status.addresses[0].value}"
    assert "ip" not in values["networking"]["gateway"]


def test_proxy_service_is_an_internet_facing_nlb_of_the_built_in_controller(plan: Plan) -> None:
    proxy = plan.named("aws-usw2-envoy-proxy")["inputs"]["spec"]["provider"]["kubernetes"]["envoyService"]
    assert proxy["type"] == "LoadBalancer"
    assert (
        proxy["annotations"]
        == PROXY_SERVICE_ANNOTATIONS
        == {
            "service.beta.kubernetes.io/aws-load-balancer-type": "nlb",
            "service.beta.kubernetes.io/aws-load-balancer-scheme": "internet-facing",
            # Cross-zone, for the built-in controller and for the LBC should it take over.
            "service.beta.kubernetes.io/aws-load-balancer-cross-zone-load-balancing-enabled": "true",
            "service.beta.kubernetes.io/aws-load-balancer-attributes": "load_balancing.cross_zone.enabled=true",
        }
    )


# --- the bucket ---------------------------------------------------------------------------


def test_bucket_cors_rule_is_exactly_the_consoles(plan: Plan) -> None:
    cors = plan.named("aws-usw2-cors")["inputs"]
    assert cors["bucket"] == "${aws-usw2-bucket.id}"
    assert cors["corsRules"] == [
        {
            "allowedOrigins": ["https://console.azure.anyscale.com"],
            "allowedMethods": ["GET", "HEAD", "PUT", "POST", "DELETE"],
            "allowedHeaders": ["*"],
            "exposeHeaders": ["Accept-Ranges", "Content-Range", "Content-Length"],
            "maxAgeSeconds": 3600,
        }
    ]


def test_bucket_is_private_encrypted_and_owner_enforced(plan: Plan) -> None:
    block = plan.named("aws-usw2-public-access-block")["inputs"]
    assert {
        k: block[k] for k in ("blockPublicAcls", "blockPublicPolicy", "ignorePublicAcls", "restrictPublicBuckets")
    } == dict.fromkeys(("blockPublicAcls", "blockPublicPolicy", "ignorePublicAcls", "restrictPublicBuckets"), True)
    assert plan.named("aws-usw2-ownership")["inputs"]["rule"] == {"objectOwnership": "BucketOwnerEnforced"}
    assert plan.named("aws-usw2-encryption")["inputs"]["rules"] == [
        {"applyServerSideEncryptionByDefault": {"sseAlgorithm": "AES256"}}
    ]
    assert plan.named("aws-usw2-versioning")["inputs"]["versioningConfiguration"] == {"status": "Enabled"}
    lifecycle = plan.named("aws-usw2-lifecycle")
    assert lifecycle["inputs"]["rules"][0]["noncurrentVersionExpiration"] == {"noncurrentDays": 30}
    assert plan.named("aws-usw2-versioning")["urn"] in lifecycle["dependsOn"]


def test_bucket_is_kept_and_uses_the_current_sdk_types(plan: Plan) -> None:
    bucket = plan.named("aws-usw2-bucket")
    assert bucket["type"] == "aws:s3/bucket:Bucket"  # BucketV2 and the *V2 configurations are deprecated in 7.x
    assert bucket["options"]["retainOnDelete"] is True  # the spec's default
    assert bucket["options"]["protect"] is False  # the example stack turns protection off
    assert bucket["inputs"]["forceDestroy"] is False
    assert not [r for r in plan.resources if r["type"].startswith("aws:s3/") and r["type"].endswith("V2")]
    # A retained bucket keeps its settings.
    assert all(r["options"]["retainOnDelete"] for r in plan.resources if r["type"].startswith("aws:s3/"))


# --- identity -----------------------------------------------------------------------------


def test_operator_policy_is_limited_to_the_bucket(plan: Plan) -> None:
    record = plan.named("aws-usw2-operator-s3")
    assert record["inputs"]["role"] == "${aws-usw2-operator.id}"
    arn = "arn:aws:s3:::" + plan.named("aws-usw2-bucket")["inputs"]["bucket"]
    statements = policy(record, "policy")["Statement"]
    assert {s["Resource"] for s in statements} == {arn, f"{arn}/*"}
    assert all(s["Effect"] == "Allow" for s in statements)
    by_resource = {s["Resource"]: set(s["Action"]) for s in statements}
    assert {"s3:ListBucket", "s3:GetBucketLocation"} <= by_resource[arn]
    assert {"s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"} <= by_resource[f"{arn}/*"]
    assert not any("*" in action for s in statements for action in s["Action"])
    # No managed policies on the operator role: the inline one is all it gets.
    assert not [r for r in plan.of_type("aws:iam/rolePolicyAttachment:RolePolicyAttachment") if "operator" in r["name"]]


def test_operator_role_trusts_only_the_operator_service_account(plan: Plan) -> None:
    oidc = plan.named("aws-usw2-oidc")["inputs"]
    assert oidc == {"url": f"https://{ISSUER_HOST}", "clientIdLists": ["sts.amazonaws.com"]}
    (statement,) = policy(plan.named("aws-usw2-operator"), "assumeRolePolicy")["Statement"]
    assert statement["Principal"] == {"Federated": "${aws-usw2-oidc.arn}"}
    assert statement["Action"] == "sts:AssumeRoleWithWebIdentity"
    assert statement["Condition"] == {
        "StringEquals": {
            f"{ISSUER_HOST}:sub": "system:serviceaccount:anyscale-operator:anyscale-operator",
            f"{ISSUER_HOST}:aud": "sts.amazonaws.com",
        }
    }


# --- the Cluster Autoscaler ------------------------------------------------------------------

AUTOSCALER_ROLE_ARN = "${aws-usw2-autoscaler.arn}"
AUTOSCALER_READ_ACTIONS = {
    "autoscaling:DescribeAutoScalingGroups",
    "autoscaling:DescribeAutoScalingInstances",
    "autoscaling:DescribeLaunchConfigurations",
    "autoscaling:DescribeScalingActivities",
    "ec2:DescribeImages",
    "ec2:DescribeInstanceTypes",
    "ec2:DescribeLaunchTemplateVersions",
    "ec2:GetInstanceTypesFromInstanceRequirements",
    "eks:DescribeNodegroup",
}
AUTOSCALER_WRITE_ACTIONS = {"autoscaling:SetDesiredCapacity", "autoscaling:TerminateInstanceInAutoScalingGroup"}


def test_cluster_autoscaler_release_is_pinned_and_discovers_its_own_cluster(plan: Plan) -> None:
    release = plan.named("aws-usw2-cluster-autoscaler")
    assert release["type"] == "kubernetes:helm.sh/v3:Release"
    inputs = release["inputs"]
    assert inputs["name"] == inputs["chart"] == "cluster-autoscaler"
    # The EKS default, 1.36, has no chart with a 1.36 appVersion: the newest chart, 9.59.0
    # (appVersion 1.35.0), with the 1.36 image (tag cluster-autoscaler-1.36.1).
    assert inputs["version"] == "9.59.0"
    assert versions.CLUSTER_AUTOSCALER_VERSION == "9.47.0"  # the Renovate-managed pin: the 1.33 row
    assert inputs["repositoryOpts"] == {"repo": versions.CLUSTER_AUTOSCALER_REPO}
    assert versions.CLUSTER_AUTOSCALER_REPO == "https://kubernetes.github.io/autoscaler"
    assert inputs["namespace"] == "kube-system"
    assert "createNamespace" not in inputs or inputs["createNamespace"] is False
    values = inputs["values"]
    assert values["cloudProvider"] == "aws"
    # The newest 1.36 patch (kubernetes/autoscaler tag cluster-autoscaler-1.36.1), not the chart's v1.35.0.
    assert values["image"] == {"tag": "v1.36.1"}
    assert values["awsRegion"] == "us-west-2"
    # The cluster's own name output (so its dependency), which the chart turns into the
    # auto-discovery tags k8s.io/cluster-autoscaler/enabled and k8s.io/cluster-autoscaler/<name>.
    cluster = plan.named("aws-usw2-eks")
    assert (
        values["autoDiscovery"]
        == {"clusterName": cluster["inputs"]["name"]}
        == {"clusterName": "eks-ml-platform-aws-usw2"}
    )
    assert cluster["urn"] in release["dependsOn"]
    assert values["rbac"] == {
        "serviceAccount": {
            "create": True,
            "name": "cluster-autoscaler",
            "annotations": {"eks.amazonaws.com/role-arn": AUTOSCALER_ROLE_ARN},
        }
    }
    assert values["extraArgs"] == {
        "balance-similar-node-groups": True,
        "expander": "least-waste",
        "skip-nodes-with-local-storage": False,
        "skip-nodes-with-system-pods": False,
    }
    assert "tolerations" not in values  # it runs on the (untainted) system pool
    # The target's own Kubernetes provider, and its permissions before its pod.
    assert release["provider"].startswith(plan.named("aws-usw2-k8s")["urn"] + "::")
    assert plan.named("aws-usw2-autoscaler-asg")["urn"] in release["dependsOn"]


def test_cluster_autoscaler_goes_with_its_cluster(plan: Plan) -> None:
    release = plan.named("aws-usw2-cluster-autoscaler")
    assert release["options"]["deletedWith"] == plan.named("aws-usw2-eks")["urn"]
    (target,) = [r for r in plan.of_type("anyscale-cloud:aws:EksTarget") if r["name"] == "aws-usw2"]
    assert release["parent"] == target["urn"]  # the EKS target's, not the shared add-ons'
    assert release["options"]["protect"] is False


def test_every_eks_resource_gets_its_own_cluster_autoscaler(variant: Plan) -> None:
    releases = {
        r["name"]: r
        for r in variant.of_type("kubernetes:helm.sh/v3:Release")
        if r["inputs"]["chart"] == "cluster-autoscaler"
    }
    resources = {"aws-usw2": "us-west-2", "aws-euw1": "eu-west-1", "aws-byob": "us-east-1"}
    assert sorted(releases) == sorted(f"{name}-cluster-autoscaler" for name in resources)  # none on AKS
    for name, region in resources.items():
        release = releases[f"{name}-cluster-autoscaler"]
        values = release["inputs"]["values"]
        assert values["awsRegion"] == region, name
        assert values["autoDiscovery"]["clusterName"] == f"eks-ml-platform-{name}"
        assert values["rbac"]["serviceAccount"]["annotations"] == {
            "eks.amazonaws.com/role-arn": f"${{{name}-autoscaler.arn}}"
        }
        assert release["options"]["deletedWith"] == variant.named(f"{name}-eks")["urn"]
        assert release["provider"].startswith(variant.named(f"{name}-k8s")["urn"] + "::")
        condition = policy(variant.named(f"{name}-autoscaler-asg"), "policy")["Statement"][1]["Condition"]
        assert condition == {
            "StringEquals": {f"aws:ResourceTag/k8s.io/cluster-autoscaler/eks-ml-platform-{name}": "owned"}
        }
    # Protection covers the cluster, not what goes with it.
    assert releases["aws-euw1-cluster-autoscaler"]["options"]["protect"] is False


def test_autoscaler_role_trusts_only_the_autoscaler_service_account(plan: Plan) -> None:
    role = plan.named("aws-usw2-autoscaler")
    assert role["type"] == "aws:iam/role:Role"
    (statement,) = policy(role, "assumeRolePolicy")["Statement"]
    # The same OIDC provider as the operator's role: one per cluster.
    assert statement["Principal"] == {"Federated": "${aws-usw2-oidc.arn}"}
    assert statement["Action"] == "sts:AssumeRoleWithWebIdentity"
    assert statement["Condition"] == {
        "StringEquals": {
            f"{ISSUER_HOST}:sub": "system:serviceaccount:kube-system:cluster-autoscaler",
            f"{ISSUER_HOST}:aud": "sts.amazonaws.com",
        }
    }
    assert len(plan.of_type("aws:iam/openIdConnectProvider:OpenIdConnectProvider")) == 1
    # Its inline policy is all it gets.
    assert not [
        r for r in plan.of_type("aws:iam/rolePolicyAttachment:RolePolicyAttachment") if "autoscaler" in r["name"]
    ]


def test_irsa_trust_policy_names_the_one_service_account() -> None:
    document = json.loads(
        irsa_trust_policy(
            "arn:aws:iam::1:oidc-provider/x", "https://oidc.example/id/1", ["system:serviceaccount:ns:sa"]
        )
    )
    assert document["Statement"][0]["Condition"]["StringEquals"] == {
        "oidc.example/id/1:sub": "system:serviceaccount:ns:sa",
        "oidc.example/id/1:aud": "sts.amazonaws.com",
    }
    # Several accounts: one condition listing them (StringEquals matches any of its values).
    several = ["system:serviceaccount:a:sa", "system:serviceaccount:b:sa"]
    document = json.loads(irsa_trust_policy("arn:aws:iam::1:oidc-provider/x", "https://oidc.example/id/1", several))
    assert document["Statement"][0]["Condition"]["StringEquals"]["oidc.example/id/1:sub"] == several


def test_autoscaler_may_resize_only_this_clusters_groups(plan: Plan) -> None:
    record = plan.named("aws-usw2-autoscaler-asg")
    assert record["type"] == "aws:iam/rolePolicy:RolePolicy"
    assert record["inputs"]["role"] == "${aws-usw2-autoscaler.id}"
    document = policy(record, "policy")
    assert document["Version"] == "2012-10-17"
    read, write = document["Statement"]
    assert all(s["Effect"] == "Allow" for s in (read, write))
    # Read-only calls, on any resource as the autoscaler's docs have it.
    assert set(read["Action"]) == AUTOSCALER_READ_ACTIONS
    assert read["Resource"] == "*" and "Condition" not in read
    # Scaling only the Auto Scaling groups EKS tagged as this cluster's.
    assert set(write["Action"]) == AUTOSCALER_WRITE_ACTIONS
    assert write["Condition"] == {
        "StringEquals": {"aws:ResourceTag/k8s.io/cluster-autoscaler/eks-ml-platform-aws-usw2": "owned"}
    }
    assert plan.named("aws-usw2-eks")["urn"] in record["dependsOn"]  # the name comes from the cluster
    actions = [a for s in document["Statement"] for a in s["Action"]]
    assert not any("*" in action for action in actions)
    assert len(actions) == len(set(actions))  # nothing granted twice (once without the condition)


def test_node_groups_leave_the_autoscaler_tags_to_eks(plan: Plan) -> None:
    """EKS tags the managed node groups' ASGs for auto-discovery itself, and the autoscaler
    reads a scaled-to-zero group's labels and taints from eks:DescribeNodegroup."""
    for record in plan.of_type("aws:eks/nodeGroup:NodeGroup"):
        tags = record["inputs"].get("tags") or {}
        assert not [k for k in tags if k.startswith("k8s.io/cluster-autoscaler/")], record["name"]
    spot = plan.named("aws-usw2-cpuspot")["inputs"]
    assert spot["scalingConfig"]["minSize"] == 0  # the pool that needs the autoscaler to get a node


# --- providers and ordering ------------------------------------------------------------------


def test_aws_provider_is_explicit_for_the_resource_region(plan: Plan) -> None:
    provider = plan.named("aws-usw2-aws")
    assert provider["type"] == "pulumi:providers:aws"
    assert provider["inputs"]["region"] == "us-west-2"
    (target,) = [r for r in plan.of_type("anyscale-cloud:aws:EksTarget") if r["name"] == "aws-usw2"]
    assert provider["parent"] == target["urn"]  # a child of the target, not a stack-wide default


def test_every_aws_resource_uses_the_explicit_provider(plan: Plan) -> None:
    ref = plan.named("aws-usw2-aws")["urn"] + "::"
    aws_resources = [r for r in plan.resources if r["type"].startswith("aws:")]
    assert len(aws_resources) > 30
    assert [r["name"] for r in aws_resources if not (r["provider"] or "").startswith(ref)] == []


def test_kubeconfig_is_secret_and_waits_for_the_system_pool(plan: Plan) -> None:
    provider = plan.named("aws-usw2-k8s")
    assert provider["type"] == "pulumi:providers:kubernetes"
    assert provider["inputs"]["kubeconfig"] == "[secret]"
    assert provider["inputs"]["enableServerSideApply"] == "true"
    assert plan.named("aws-usw2-system")["urn"] in provider["dependsOn"]
    assert plan.named("aws-usw2-eks")["urn"] in provider["dependsOn"]


def depends_on_transitively(plan: Plan, record: dict[str, Any]) -> set[str]:
    by_urn = {r["urn"]: r for r in plan.resources}
    seen: set[str] = set()
    todo = list(record["dependsOn"])
    while todo:
        urn = todo.pop()
        if urn not in seen:
            seen.add(urn)
            todo += by_urn[urn]["dependsOn"] if urn in by_urn else []
    return seen


def test_clusters_and_node_groups_never_wait_for_a_registration(plan: Plan) -> None:
    registrations = {r["urn"] for r in plan.resources if r["name"].endswith("-registration")}
    assert len(registrations) == 4  # the example's: the AWS resource waits for none, even those before it
    built = plan.of_type("aws:eks/cluster:Cluster") + plan.of_type("aws:eks/nodeGroup:NodeGroup")
    assert len(built) == 4  # the cluster, the system pool, cpu and cpuspot
    for record in built:
        assert not depends_on_transitively(plan, record) & registrations, record["name"]


def test_registration_waits_for_the_whole_target(plan: Plan) -> None:
    deps = set(plan.named("aws-usw2-registration")["dependsOn"])
    for name in ("eks", "system", "cpu", "cpuspot", "bucket", "cors", "public-access-block", "operator", "operator-s3"):
        assert plan.named(f"aws-usw2-{name}")["urn"] in deps, name
    assert plan.named("default-registration")["urn"] in deps  # registrations are serialized


# --- cluster and network ----------------------------------------------------------------------


def test_eks_cluster(plan: Plan) -> None:
    cluster = plan.named("aws-usw2-eks")
    inputs = cluster["inputs"]
    assert inputs["name"] == "eks-ml-platform-aws-usw2"
    assert inputs["version"] == "1.36"
    assert inputs["roleArn"] == "${aws-usw2-cluster-role.arn}"
    assert inputs["accessConfig"] == {"authenticationMode": "API", "bootstrapClusterCreatorAdminPermissions": True}
    assert inputs["vpcConfig"]["endpointPublicAccess"] is True
    assert cluster["options"]["protect"] is False
    attachment = plan.named("aws-usw2-cluster-AmazonEKSClusterPolicy")
    assert attachment["inputs"]["policyArn"] == "arn:aws:iam::aws:policy/AmazonEKSClusterPolicy"
    assert attachment["urn"] in cluster["dependsOn"]


def test_node_groups_are_tainted_and_labelled_like_every_worker_pool(plan: Plan) -> None:
    node_policies = {
        r["inputs"]["policyArn"].rsplit("/", 1)[1]
        for r in plan.of_type("aws:iam/rolePolicyAttachment:RolePolicyAttachment")
        if r["inputs"]["role"] == "${aws-usw2-node-role.name}"
    }
    assert node_policies == {"AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonEC2ContainerRegistryReadOnly"}
    private = ["${aws-usw2-private-0.id}", "${aws-usw2-private-1.id}"]
    system = plan.named("aws-usw2-system")["inputs"]
    assert system["instanceTypes"] == ["m6i.xlarge"] and "taints" not in system
    assert system["subnetIds"] == private
    spot = plan.named("aws-usw2-cpuspot")
    assert spot["inputs"]["capacityType"] == "SPOT"
    assert spot["inputs"]["amiType"] == "AL2023_x86_64_STANDARD"
    assert spot["inputs"]["taints"] == [{"key": CAPACITY_TAINT, "value": "SPOT", "effect": "NO_SCHEDULE"}]
    assert spot["inputs"]["labels"] == {CAPACITY_TAINT: "SPOT"}
    assert spot["inputs"]["scalingConfig"] == {"minSize": 0, "maxSize": 10, "desiredSize": 0}
    assert spot["inputs"]["subnetIds"] == private
    assert spot["options"]["ignoreChanges"] == ["scalingConfig.desiredSize"]
    # Nodes boot only once they can get out (NAT) and their role has its policies.
    for name in ("nat", "private-0-routes", "node-AmazonEKSWorkerNodePolicy"):
        assert plan.named(f"aws-usw2-{name}")["urn"] in spot["dependsOn"], name


def test_network_spans_the_zones_with_tagged_subnets(plan: Plan) -> None:
    assert plan.named("aws-usw2-vpc")["inputs"]["cidrBlock"] == "10.0.0.0/16"
    subnets = {r["name"]: r["inputs"] for r in plan.of_type("aws:ec2/subnet:Subnet")}
    assert sorted(subnets) == ["aws-usw2-private-0", "aws-usw2-private-1", "aws-usw2-public-0", "aws-usw2-public-1"]
    for name, subnet in subnets.items():
        kind, index = name.split("-")[-2:]
        assert subnet["availabilityZone"] == f"${{getAvailabilityZones.names[{index}]}}"
        role = "kubernetes.io/role/elb" if kind == "public" else "kubernetes.io/role/internal-elb"
        assert subnet["tags"][role] == "1"
    assert len({s["cidrBlock"] for s in subnets.values()}) == 4
    (nat,) = plan.of_type("aws:ec2/natGateway:NatGateway")
    assert nat["inputs"]["subnetId"] == "${aws-usw2-public-0.id}"
    routes = {r["name"]: r["inputs"]["routes"] for r in plan.of_type("aws:ec2/routeTable:RouteTable")}
    assert routes == {
        "aws-usw2-public": [{"cidrBlock": "0.0.0.0/0", "gatewayId": "${aws-usw2-igw.id}"}],
        "aws-usw2-private": [{"cidrBlock": "0.0.0.0/0", "natGatewayId": "${aws-usw2-nat.id}"}],
    }


# --- variants: other regions, GPU pools, an existing bucket, protection -------------------------


def test_resources_in_several_regions_each_use_their_own_provider(variant: Plan) -> None:
    regions = {"aws-usw2": "us-west-2", "aws-euw1": "eu-west-1", "aws-byob": "us-east-1"}
    for resource, region in regions.items():
        provider = variant.named(f"{resource}-aws")
        assert provider["inputs"]["region"] == region
        aws_records = [r for r in of_resource(variant, resource) if r["type"].startswith("aws:")]
        assert aws_records and all(r["provider"].startswith(provider["urn"] + "::") for r in aws_records), resource
    assert registration(variant, "aws-euw1")["region"] == "eu-west-1"


def test_gpu_pool_uses_the_nvidia_ami_and_the_gpu_taints(variant: Plan) -> None:
    pool = variant.named("aws-euw1-gpua10g")["inputs"]
    assert pool["amiType"] == "AL2023_x86_64_NVIDIA"
    assert pool["instanceTypes"] == ["g5.2xlarge"]
    assert pool["taints"] == [
        {"key": CAPACITY_TAINT, "value": "ON_DEMAND", "effect": "NO_SCHEDULE"},
        {"key": GPU_TAINT, "value": "present", "effect": "NO_SCHEDULE"},
        {"key": ACCELERATOR_TAINT, "value": "GPU", "effect": "NO_SCHEDULE"},
    ]
    assert pool["labels"]["nvidia.com/gpu.product"] == "NVIDIA-A10G"
    assert pool["labels"]["k8s.amazonaws.com/accelerator"] == "a10g"
    assert variant.named("aws-euw1-nvidia-device-plugin")["type"] == "kubernetes:helm.sh/v3:Release"
    assert not [r for r in variant.resources if r["name"] == "aws-usw2-nvidia-device-plugin"]
    assert variant.named("aws-euw1-eks")["inputs"]["version"] == "1.36"  # EKS takes major.minor only
    assert len([r for r in of_resource(variant, "aws-euw1") if r["type"] == "aws:ec2/subnet:Subnet"]) == 6


def test_bucket_in_another_region_than_the_cluster(variant: Plan) -> None:
    s3 = [r for r in of_resource(variant, "aws-euw1") if r["type"].startswith("aws:s3/")]
    assert len(s3) == 8  # the bucket, its six settings and its TLS-only policy
    assert {r["inputs"]["region"] for r in s3} == {"eu-central-1"}
    assert registration(variant, "aws-euw1")["cloudStorageBucketRegion"] == "eu-central-1"


def test_protection_covers_the_cluster_and_the_bucket(variant: Plan) -> None:
    assert variant.named("aws-euw1-eks")["options"]["protect"] is True
    assert variant.named("aws-euw1-bucket")["options"]["protect"] is True
    assert variant.named("aws-euw1-gpua10g")["options"]["protect"] is False  # pools come and go


def test_existing_bucket_is_used_not_created(variant: Plan) -> None:
    assert not [r for r in of_resource(variant, "aws-byob") if r["type"].startswith(("aws:s3/", "random:"))]
    props = registration(variant, "aws-byob")
    assert props["cloudStorageBucketName"] == "s3://existing-data"
    assert props["cloudStorageBucketRegion"] == "us-east-1"
    assert props["anyscaleOperatorIamIdentity"] == "${aws-byob-operator.arn}"
    statements = policy(variant.named("aws-byob-operator-s3"), "policy")["Statement"]
    assert {s["Resource"] for s in statements} == {"arn:aws:s3:::existing-data", "arn:aws:s3:::existing-data/*"}


def test_target_registers_its_outputs(plan: Plan) -> None:
    outputs = plan.component_outputs
    (target,) = [r["urn"] for r in plan.of_type("anyscale-cloud:aws:EksTarget")]
    assert outputs[target] == {
        "cluster_name": "eks-ml-platform-aws-usw2",
        "vpc_id": "${aws-usw2-vpc.id}",
        "bucket_uri": registration(plan, "aws-usw2")["cloudStorageBucketName"],
        "role_arn": ROLE_ARN,
        "kubeconfig": "[secret]",
    }
