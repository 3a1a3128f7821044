"""EKS access, API endpoint and networks: access entries, node groups
that follow the cluster's version, the Cluster Autoscaler per Kubernetes minor, the
endpoint's CIDRs, the bucket's TLS-only policy, the S3 gateway endpoint, an existing
VPC; the spec's rules with their messages; the policy rules on violating and compliant
plans; first-preview parity."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from config import SpecError, load_spec
from preflight.runtime import Plan
from tests.components.test_first_preview import parity_problems
from tests.conftest import stack_values
from tests.example_spec import standalone
from tests.plans import recorded
from tests.policy.helpers import (
    POLICIES,
    edited,
    multicloud,
    record,
    validate,
    validate_stack,
    without,
)

pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated in favor of:DeprecationWarning")

CI_ROLE = "arn:aws:iam::111122223333:role/platform/ci-deployer"
JANE = "arn:aws:iam::111122223333:user/jane"
PRIVATE = ["subnet-0a1b2c3d4e5f60001", "subnet-0a1b2c3d4e5f60002"]
PUBLIC = ["subnet-0a1b2c3d4e5f60003", "subnet-0a1b2c3d4e5f60004"]
VPC = "vpc-0a1b2c3d4e5f67890"


def resources() -> list[dict[str, Any]]:
    """The example's primary and its AWS resource, this one with access entries and a
    restricted endpoint; a second AWS resource on Kubernetes 1.35 in an existing VPC."""
    values = stack_values("example")["anyscale-cloud:resources"][:2]
    values[1].setdefault("cluster", {}).update(
        accessEntries=[
            {"principalArn": CI_ROLE, "policy": "cluster-admin"},
            {"principalArn": JANE, "policy": "view", "namespaces": ["anyscale-operator", "ray"]},
        ],
        endpointPublicAccessCidrs=["203.0.113.0/24", "198.51.100.7/32"],
    )
    values.append(
        {
            "name": "aws-byovpc",
            "provider": "AWS",
            "region": "us-east-1",
            "cluster": {"kubernetesVersion": "1.35", "vpcId": VPC, "subnetIds": {"private": PRIVATE, "public": PUBLIC}},
        }
    )
    return values


def stack() -> dict[str, Any]:
    values = standalone(stack_values("example"))
    values["anyscale-cloud:resources"] = resources()
    return values


@pytest.fixture(scope="module")
def plan() -> Plan:
    return recorded("parity", stack())  # the name the parity check records under: one run for both


def of(plan: Plan, resource: str, type_token: str) -> list[dict[str, Any]]:
    return [r for r in plan.of_type(type_token) if r["name"].startswith(f"{resource}-")]


# --- access entries -------------------------------------------------------------------------


def test_each_access_entry_is_a_standard_entry_with_its_policy(plan: Plan) -> None:
    cluster = plan.named("aws-usw2-eks")
    # Logical names from the ARN's hash: removing one entry leaves the others alone.
    ci, jane = plan.named("aws-usw2-access-45145c87"), plan.named("aws-usw2-access-b1abda7f")
    for entry, arn in ((ci, CI_ROLE), (jane, JANE)):
        assert entry["type"] == "aws:eks/accessEntry:AccessEntry"
        assert entry["inputs"] == {"clusterName": "eks-ml-platform-aws-usw2", "principalArn": arn, "type": "STANDARD"}
        assert cluster["urn"] in entry["dependsOn"]
    admin = plan.named("aws-usw2-access-45145c87-policy")
    assert admin["type"] == "aws:eks/accessPolicyAssociation:AccessPolicyAssociation"
    assert admin["inputs"] == {
        "clusterName": "eks-ml-platform-aws-usw2",
        "principalArn": CI_ROLE,
        "policyArn": "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy",
        "accessScope": {"type": "cluster"},
    }
    assert ci["urn"] in admin["dependsOn"]  # the principal's entry first
    view = plan.named("aws-usw2-access-b1abda7f-policy")["inputs"]
    assert view["policyArn"] == "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy"
    assert view["accessScope"] == {"type": "namespace", "namespaces": ["anyscale-operator", "ray"]}
    # The creator keeps its bootstrap admin access.
    assert cluster["inputs"]["accessConfig"] == {
        "authenticationMode": "API",
        "bootstrapClusterCreatorAdminPermissions": True,
    }
    assert not of(plan, "aws-byovpc", "aws:eks/accessEntry:AccessEntry")


@pytest.mark.parametrize(
    ("policy", "arn"),
    [
        ("admin", "arn:aws:eks::aws:cluster-access-policy/AmazonEKSAdminPolicy"),
        ("edit", "arn:aws:eks::aws:cluster-access-policy/AmazonEKSEditPolicy"),
    ],
)
def test_the_other_access_policies(policy: str, arn: str) -> None:
    from components.aws.access import ACCESS_POLICIES, ACCESS_POLICY_ARN

    assert ACCESS_POLICY_ARN.format(ACCESS_POLICIES[policy]) == arn


# --- versions: node groups and the Cluster Autoscaler ------------------------------------------


def test_node_groups_follow_the_clusters_version(plan: Plan) -> None:
    for resource, version in (("aws-usw2", "1.36"), ("aws-byovpc", "1.35")):
        cluster = plan.named(f"{resource}-eks")
        assert cluster["inputs"]["version"] == version
        groups = of(plan, resource, "aws:eks/nodeGroup:NodeGroup")
        assert len(groups) == 3  # system, cpu, cpuspot
        for group in groups:
            assert group["inputs"]["version"] == version, group["name"]
            assert cluster["urn"] in group["dependsOn"]


def test_autoscaler_release_and_image_match_the_clusters_minor(plan: Plan) -> None:
    # kubernetes/autoscaler: chart 9.59.0 has appVersion 1.35.0 and is the newest chart (none has
    # a 1.36 appVersion); the newest patches are tags cluster-autoscaler-1.36.1 and -1.35.2.
    for resource, chart, image in (("aws-usw2", "9.59.0", "v1.36.1"), ("aws-byovpc", "9.59.0", "v1.35.2")):
        inputs = plan.named(f"{resource}-cluster-autoscaler")["inputs"]
        assert inputs["version"] == chart
        assert inputs["values"]["image"] == {"tag": image}


# --- the API endpoint -----------------------------------------------------------------------


def test_public_endpoint_is_restricted_to_the_given_cidrs(plan: Plan) -> None:
    config = plan.named("aws-usw2-eks")["inputs"]["vpcConfig"]
    assert config["endpointPublicAccess"] is True
    assert config["endpointPrivateAccess"] is True
    assert config["publicAccessCidrs"] == ["203.0.113.0/24", "198.51.100.7/32"]
    # Not given: EKS's default, sent explicitly (the field is computed: leaving it out after
    # a restriction would keep the old CIDRs); the eks-public-endpoint policy warns about it.
    assert plan.named("aws-byovpc-eks")["inputs"]["vpcConfig"]["publicAccessCidrs"] == ["0.0.0.0/0"]


# --- the bucket -----------------------------------------------------------------------------


def test_bucket_policy_denies_every_request_without_tls(plan: Plan) -> None:
    record_ = plan.named("aws-usw2-tls-only")
    assert record_["type"] == "aws:s3/bucketPolicy:BucketPolicy"
    assert record_["inputs"]["bucket"] == "${aws-usw2-bucket.id}"
    assert record_["inputs"]["region"] == "us-west-2"
    arn = "arn:aws:s3:::ml-platform-aws-usw2-${aws-usw2-bucket-suffix.result}"
    assert json.loads(record_["inputs"]["policy"]) == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "DenyInsecureTransport",
                "Effect": "Deny",
                "Principal": "*",
                "Action": "s3:*",
                "Resource": [arn, f"{arn}/*"],
                "Condition": {"Bool": {"aws:SecureTransport": "false"}},
            }
        ],
    }
    # After the public access block (S3 refuses concurrent writes of access settings), kept with the bucket.
    assert plan.named("aws-usw2-public-access-block")["urn"] in record_["dependsOn"]
    assert record_["options"]["retainOnDelete"] is True
    # One resource policy per bucket: S3 keeps only the last one written.
    assert len(of(plan, "aws-usw2", "aws:s3/bucketPolicy:BucketPolicy")) == 1


def test_merged_bucket_policy_keeps_the_deny_first() -> None:
    from components.aws.policies import bucket_resource_policy

    extra = {
        "Sid": "ReadLogs",
        "Effect": "Allow",
        "Principal": {"AWS": CI_ROLE},
        "Action": "s3:GetObject",
        "Resource": "arn:aws:s3:::b/*",
    }
    statements = json.loads(bucket_resource_policy("b", extra))["Statement"]
    assert [s["Sid"] for s in statements] == ["DenyInsecureTransport", "ReadLogs"]
    assert statements[0]["Resource"] == ["arn:aws:s3:::b", "arn:aws:s3:::b/*"]


# --- networks -------------------------------------------------------------------------------


def test_created_vpc_gets_an_s3_gateway_endpoint_on_its_private_routes(plan: Plan) -> None:
    (endpoint,) = of(plan, "aws-usw2", "aws:ec2/vpcEndpoint:VpcEndpoint")
    assert endpoint["name"] == "aws-usw2-s3-endpoint"
    assert endpoint["inputs"] == {
        "vpcId": "${aws-usw2-vpc.id}",
        "serviceName": "com.amazonaws.us-west-2.s3",
        "vpcEndpointType": "Gateway",
        "routeTableIds": ["${aws-usw2-private.id}"],
        "tags": {"Name": "ml-platform-aws-usw2-s3"},
    }
    # Nodes boot once the routes to S3 are there, like the NAT route.
    system = plan.named("aws-usw2-system")
    assert endpoint["urn"] in system["dependsOn"]


def test_existing_vpc_is_used_not_created(plan: Plan) -> None:
    assert not [r for r in plan.resources if r["name"].startswith("aws-byovpc-") and r["type"].startswith("aws:ec2/")]
    config = plan.named("aws-byovpc-eks")["inputs"]["vpcConfig"]
    assert config["subnetIds"] == PRIVATE + PUBLIC
    for group in of(plan, "aws-byovpc", "aws:eks/nodeGroup:NodeGroup"):
        assert group["inputs"]["subnetIds"] == PRIVATE, group["name"]
    outputs = getattr(plan, "component_outputs", None)
    if outputs is not None:
        (target,) = [r["urn"] for r in plan.of_type("anyscale-cloud:aws:EksTarget") if r["name"] == "aws-byovpc"]
        assert outputs[target]["vpc_id"] == VPC


def test_first_preview_registers_the_same_resources() -> None:
    assert parity_problems(stack()) == []


# --- the spec's rules -----------------------------------------------------------------------


def problems_of(cluster: dict[str, Any]) -> list[str]:
    values = stack_values("example")
    aws = values["anyscale-cloud:resources"][1]
    aws["cluster"] = {**aws.get("cluster", {}), **cluster}
    with pytest.raises(SpecError) as caught:
        load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"][:2])
    return [str(p) for p in caught.value.problems]


CLUSTER = "resources[1].cluster"
WHERE = f"{CLUSTER} (aws-usw2)"


@pytest.mark.parametrize(
    ("cluster", "expected"),
    [
        (
            {"kubernetesVersion": "1.31"},
            f"{CLUSTER}.kubernetesVersion (aws-usw2): Kubernetes 1.31 has no Cluster Autoscaler release pinned for EKS "
            "(its minor must match the cluster's; config/data/versions.py CLUSTER_AUTOSCALER_RELEASES); use one of "
            "1.32, 1.33, 1.34, 1.35, 1.36",
        ),
        (
            {"kubernetesVersion": "1.37.1"},
            f"{CLUSTER}.kubernetesVersion (aws-usw2): Kubernetes 1.37 has no Cluster Autoscaler release pinned for EKS "
            "(its minor must match the cluster's; config/data/versions.py CLUSTER_AUTOSCALER_RELEASES); use one of "
            "1.32, 1.33, 1.34, 1.35, 1.36",
        ),
        (
            {
                "accessEntries": [
                    {"principalArn": "arn:aws:sts::111122223333:assumed-role/Admin/jane", "policy": "view"}
                ]
            },
            f"{CLUSTER}.accessEntries[0].principalArn (aws-usw2): 'arn:aws:sts::111122223333:assumed-role/Admin/jane' is "
            "an STS session, which EKS does not accept in an access entry (it is a new principal each session): use the "
            "role's IAM ARN, arn:aws:iam::<account>:role/Admin (with its path, if any)",
        ),
        (
            {"accessEntries": [{"principalArn": "arn:aws:iam::1111:role/x", "policy": "view"}]},
            f"{CLUSTER}.accessEntries[0].principalArn (aws-usw2): 'arn:aws:iam::1111:role/x' is not an IAM role or user "
            "ARN: use arn:aws:iam::<12-digit account>:role/<name> (a path is allowed) or "
            "arn:aws:iam::<12-digit account>:user/<name>",
        ),
        (
            {"accessEntries": [{"principalArn": "arn:aws:iam::111122223333:group/admins", "policy": "view"}]},
            f"{CLUSTER}.accessEntries[0].principalArn (aws-usw2): 'arn:aws:iam::111122223333:group/admins' is not an IAM "
            "role or user ARN: use arn:aws:iam::<12-digit account>:role/<name> (a path is allowed) or "
            "arn:aws:iam::<12-digit account>:user/<name>",
        ),
        (
            {"accessEntries": [{"principalArn": CI_ROLE, "policy": "owner"}]},
            f"{CLUSTER}.accessEntries[0].policy (aws-usw2): Input should be 'cluster-admin', 'admin', 'edit' or 'view'",
        ),
        (
            {"accessEntries": [{"principalArn": CI_ROLE, "policy": "view", "namespaces": ["Ray"]}]},
            f"{CLUSTER}.accessEntries[0].namespaces (aws-usw2): 'Ray' is not a Kubernetes namespace name: lowercase "
            "letters, digits and '-', at most 63",
        ),
        (
            {
                "accessEntries": [
                    {"principalArn": CI_ROLE, "policy": "view"},
                    {"principalArn": CI_ROLE, "policy": "edit"},
                ]
            },
            f"{CLUSTER}.accessEntries (aws-usw2): {CI_ROLE} is listed twice: EKS takes one access entry per principal; "
            "give it one policy here",
        ),
        (
            {"endpointPublicAccessCidrs": ["10.0.0.1/8"]},
            f"{CLUSTER}.endpointPublicAccessCidrs (aws-usw2): '10.0.0.1/8' is not an IPv4 network (10.0.0.1/8 has host "
            "bits set); e.g. 203.0.113.0/24",
        ),
        (
            {"endpointPublicAccessCidrs": ["203.0.113.0/24"], "endpointPrivateAccess": False},
            f"{WHERE}: endpointPublicAccessCidrs needs endpointPrivateAccess: true, or the nodes, which would reach the "
            "API server from their egress address (the NAT gateway's, not known before deploy), cannot join",
        ),
        (
            {"endpointPublicAccess": False, "endpointPrivateAccess": False},
            f"{WHERE}: endpointPublicAccess and endpointPrivateAccess are both false: the API server would be unreachable",
        ),
        (
            {"endpointPublicAccess": False, "endpointPublicAccessCidrs": ["203.0.113.0/24"]},
            f"{WHERE}: endpointPublicAccessCidrs is set but endpointPublicAccess is false: remove one of them",
        ),
        (
            {"vpcId": VPC},
            f"{WHERE}: vpcId and subnetIds go together: give both to use an existing VPC, or neither",
        ),
        (
            {"vpcId": "vpc-123", "subnetIds": {"private": PRIVATE}},
            f"{CLUSTER}.vpcId (aws-usw2): 'vpc-123' is not a VPC ID: vpc- and 8 or 17 hex digits, e.g. vpc-0a1b2c3d4e5f67890",
        ),
        (
            {"vpcId": VPC, "subnetIds": {"private": PRIVATE[:1]}},
            f"{CLUSTER}.subnetIds.private (aws-usw2): needs at least two private subnets, in different availability "
            "zones: EKS requires two zones for the cluster and the node groups",
        ),
        (
            {"vpcId": VPC, "subnetIds": {"private": [PRIVATE[0], PRIVATE[0]]}},
            f"{CLUSTER}.subnetIds.private (aws-usw2): needs at least two private subnets, in different availability "
            "zones: EKS requires two zones for the cluster and the node groups",
        ),
        (
            {"vpcId": VPC, "subnetIds": {"private": [*PRIVATE, "sn-1"]}},
            f"{CLUSTER}.subnetIds.private (aws-usw2): 'sn-1' is not a subnet ID: subnet- and 8 or 17 hex digits, "
            "e.g. subnet-0a1b2c3d4e5f67890",
        ),
        (
            {"vpcId": VPC, "subnetIds": {"private": PRIVATE, "public": [PRIVATE[1]]}},
            f"{CLUSTER}.subnetIds (aws-usw2): subnets are listed twice (or as both public and private): {PRIVATE[1]}",
        ),
        (
            {"vpcId": VPC, "subnetIds": {"private": PRIVATE}, "vpcCidr": "10.1.0.0/16", "availabilityZones": 3},
            f"{WHERE}: vpcCidr and availabilityZones describe the VPC the program creates: remove them when using "
            "vpcId and subnetIds",
        ),
    ],
)
def test_spec_rules(cluster: dict[str, Any], expected: str) -> None:
    assert problems_of(cluster) == [expected]


def test_valid_access_and_network_settings_load() -> None:
    spec = load_spec(stack()["anyscale-cloud:cloud"], resources())
    eks = spec.resources[1].cluster
    assert [(e.principal_arn, e.policy, e.namespaces) for e in eks.access_entries] == [
        (CI_ROLE, "cluster-admin", None),
        (JANE, "view", ["anyscale-operator", "ray"]),
    ]
    existing = spec.resources[2].cluster
    assert (existing.vpc_id, existing.subnet_ids.private, existing.subnet_ids.public) == (VPC, PRIVATE, PUBLIC)
    assert existing.minor == "1.35"


# --- the policy rules -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def policy_plan(dev_plan: Plan) -> dict[str, Any]:
    return multicloud(dev_plan)


def eks_record(name: str, vpc_config: dict[str, Any], access: dict[str, Any] | None = None) -> dict[str, Any]:
    urn = f"urn:pulumi:dev::anyscale-cloud::anyscale-cloud:aws:EksTarget$aws:eks/cluster:Cluster::{name}"
    return {
        "urn": urn,
        "type": "aws:eks/cluster:Cluster",
        "name": name,
        "custom": True,
        "dependsOn": [],
        "inputs": {
            "name": f"eks-{name}",
            "accessConfig": access or {"authenticationMode": "API", "bootstrapClusterCreatorAdminPermissions": True},
            "vpcConfig": vpc_config,
        },
        "options": {},
    }


def entry_record(name: str, cluster: dict[str, Any], kind: str = "STANDARD") -> dict[str, Any]:
    return {
        "urn": f"urn:pulumi:dev::anyscale-cloud::anyscale-cloud:aws:EksTarget$aws:eks/accessEntry:AccessEntry::{name}",
        "type": "aws:eks/accessEntry:AccessEntry",
        "name": name,
        "custom": True,
        "dependsOn": [cluster["urn"]],
        "inputs": {"clusterName": cluster["inputs"]["name"], "principalArn": CI_ROLE, "type": kind},
        "options": {},
    }


def test_eks_public_endpoint_is_advisory_and_wants_cidrs() -> None:
    assert POLICIES["eks-public-endpoint"].enforcement_level.value == "advisory"
    message = (
        "the cluster's public API endpoint admits every address (0.0.0.0/0): set cluster.endpointPublicAccessCidrs "
        "to the ranges of your offices, VPN and CI runners (nodes use the private endpoint), or "
        "cluster.endpointPublicAccess: false when deploys run inside the VPC"
    )
    assert validate("eks-public-endpoint", eks_record("c", {"endpointPublicAccess": True})) == [message]
    assert validate(
        "eks-public-endpoint", eks_record("c", {"endpointPublicAccess": True, "publicAccessCidrs": ["0.0.0.0/0"]})
    ) == [message]
    assert (
        validate(
            "eks-public-endpoint",
            eks_record("c", {"endpointPublicAccess": True, "publicAccessCidrs": ["203.0.113.0/24"]}),
        )
        == []
    )
    assert (
        validate("eks-public-endpoint", eks_record("c", {"endpointPublicAccess": False, "endpointPrivateAccess": True}))
        == []
    )
    assert (
        validate(
            "eks-public-endpoint", eks_record("c", {"endpointPublicAccess": True, "publicAccessCidrs": ["${ip.cidr}"]})
        )
        == []
    )


def test_eks_access_entries_is_advisory_and_wants_an_entry_beyond_the_creator() -> None:
    assert POLICIES["eks-access-entries"].enforcement_level.value == "advisory"
    cluster = eks_record("c", {"endpointPublicAccess": False})
    found = validate_stack("eks-access-entries", {"resources": [cluster]})
    assert found == [
        (
            cluster["urn"],
            "EKS cluster c has no access entries: only the identity that created it can use it, so a team member or CI "
            "role other than the creator is locked out; add cluster.accessEntries (principalArn and policy)",
        )
    ]
    nobody = eks_record("c", {}, {"authenticationMode": "API", "bootstrapClusterCreatorAdminPermissions": False})
    assert "no one can use it" in validate_stack("eks-access-entries", {"resources": [nobody]})[0][1]
    assert validate_stack("eks-access-entries", {"resources": [cluster, entry_record("e", cluster)]}) == []
    # A node role's entry is not a person's.
    assert (
        len(validate_stack("eks-access-entries", {"resources": [cluster, entry_record("e", cluster, "EC2_LINUX")]}))
        == 1
    )
    # aws-auth clusters are out of scope.
    legacy = eks_record("c", {}, {"authenticationMode": "CONFIG_MAP"})
    assert validate_stack("eks-access-entries", {"resources": [legacy]}) == []


def test_eks_access_entries_passes_on_the_programs_plan(plan: Plan) -> None:
    found = validate_stack("eks-access-entries", plan.to_json())
    # Only the resource without accessEntries is flagged.
    assert [urn for urn, _ in found] == [plan.named("aws-byovpc-eks")["urn"]]


def test_storage_s3_tls_only_is_mandatory(policy_plan: dict[str, Any]) -> None:
    assert POLICIES["storage-s3-tls-only"].enforcement_level.value == "mandatory"
    assert validate_stack("storage-s3-tls-only", policy_plan) == []
    bucket = record(policy_plan, "aws-usw2-bucket")["urn"]
    message = (
        "S3 bucket aws-usw2-bucket accepts requests over plain HTTP: add a bucket policy statement with Effect Deny, "
        "Principal '*', Action 's3:*' on the bucket and its objects, and Condition {'Bool': {'aws:SecureTransport': "
        "'false'}} (components/aws/policies.py deny_insecure_transport)"
    )
    assert validate_stack("storage-s3-tls-only", without(policy_plan, "aws-usw2-tls-only")) == [(bucket, message)]

    def allow_instead(rec: dict[str, Any]) -> None:
        doc = json.loads(rec["inputs"]["policy"])
        doc["Statement"][0]["Condition"] = {"Bool": {"aws:SecureTransport": "true"}}
        rec["inputs"]["policy"] = json.dumps(doc)

    assert validate_stack("storage-s3-tls-only", edited(policy_plan, "aws-usw2-tls-only", allow_instead)) == [
        (bucket, message)
    ]
    # The deny inline on the bucket counts too.
    inline = copy.deepcopy(without(policy_plan, "aws-usw2-tls-only"))
    policy = record(policy_plan, "aws-usw2-tls-only")["inputs"]["policy"]
    record(inline, "aws-usw2-bucket")["inputs"]["policy"] = policy
    assert validate_stack("storage-s3-tls-only", inline) == []


def test_the_programs_tls_policy_passes_the_other_bucket_checks(plan: Plan) -> None:
    tls = plan.named("aws-usw2-tls-only")
    assert validate("storage-s3-secure", tls) == []
    assert validate_stack("storage-s3-tls-only", plan.to_json()) == []
