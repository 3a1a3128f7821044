"""EKS: the managed add-ons and their order, availabilityZones against the region, and the
node-group scaling design (refresh always; `preflight diff` names a bound EKS may refuse)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from config import SpecError, load_spec
from preflight.changes import Change, diff_plans
from preflight.runtime import Plan
from tests.conftest import stack_values
from tests.example_spec import standalone
from tests.plans import recorded

pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated in favor of:DeprecationWarning")

ROOT = Path(__file__).resolve().parents[2]
NAME = "aws-usw2"
CLUSTER = "eks-ml-platform-aws-usw2"
# EKS's add-on names (aws eks describe-addon-versions), written out here on purpose.
ADDONS = ("vpc-cni", "kube-proxy", "eks-pod-identity-agent", "coredns", "aws-ebs-csi-driver")


def aws_values(**cluster: Any) -> dict[str, Any]:
    values = stack_values("example")
    default, aws = values["anyscale-cloud:resources"][:2]
    assert aws["name"] == NAME
    if cluster:
        aws["cluster"] = {**aws.get("cluster", {}), **cluster}
    values["anyscale-cloud:resources"] = [default, aws]
    return values


# Three alike groups of `aws-scale`, each test changing the bounds of its own: the module's
# plan is the base and one changed plan serves the three tests (a diff's changes are per resource).
SCALED = "aws-scale"
RAISE_MIN, LOWER_MAX, WIDEN = "cpu", "cpumax", "cpuwide"


def scaled(bounds: dict[str, tuple[int, int]]) -> dict[str, Any]:
    """The AWS resource `aws-scale` with the three groups of `bounds` and a spot group."""
    aws = aws_values()["anyscale-cloud:resources"][1]
    pools: list[dict[str, Any]] = [
        {"name": name, "instanceType": "m6i.4xlarge", "minCount": low, "maxCount": high}
        for name, (low, high) in bounds.items()
    ]
    pools.append({"name": "cpuspot", "instanceType": "m6i.4xlarge", "capacityType": "SPOT"})
    return {**aws, "name": SCALED, "cluster": {**aws.get("cluster", {}), "nodePools": pools}}


BASE_BOUNDS = {RAISE_MIN: (1, 10), LOWER_MAX: (1, 10), WIDEN: (1, 10)}


def side_by_side() -> dict[str, Any]:
    """aws-usw2 as the example has it (1.36), aws-k133 on 1.33, aws-k134 on 1.34, aws-k135 on
    1.35 and `aws-scale` with the base bounds, side by side in one stack: one run for the
    minors, the scaling base and every test of aws-usw2 (each resource's add-ons and groups are
    its own, and every assertion names the resource it is about)."""
    values = aws_values()
    aws = values["anyscale-cloud:resources"][1]
    for name, minor in (("aws-k133", "1.33"), ("aws-k134", "1.34"), ("aws-k135", "1.35")):
        values["anyscale-cloud:resources"].append({**aws, "name": name, "cluster": {"kubernetesVersion": minor}})
    values["anyscale-cloud:resources"].append(scaled(BASE_BOUNDS))
    return values


@pytest.fixture(scope="module")
def plan() -> Plan:
    return recorded("test", side_by_side())


def addon(plan: Plan, name: str, resource: str = NAME) -> dict[str, Any]:
    return plan.named(f"{resource}-addon-{name}")


def dep_names(plan: Plan, record: dict[str, Any]) -> set[str]:
    by_urn = {r["urn"]: r["name"] for r in plan.resources}
    return {by_urn[u] for u in record["dependsOn"]}


# --- the add-ons ----------------------------------------------------------------------------


def test_every_managed_addon_is_installed_adopting_what_eks_put_there(plan: Plan) -> None:
    records = [r for r in plan.of_type("aws:eks/addon:Addon") if r["name"].startswith(NAME)]
    assert sorted(r["inputs"]["addonName"] for r in records) == sorted(ADDONS)
    for record in records:
        inputs = record["inputs"]
        assert inputs["clusterName"] == CLUSTER
        # The self-managed vpc-cni, kube-proxy and CoreDNS objects EKS installed are adopted.
        assert inputs["resolveConflictsOnCreate"] == "OVERWRITE"
        assert inputs["resolveConflictsOnUpdate"] == "OVERWRITE"
        assert record["options"]["deletedWith"] == plan.named(f"{NAME}-eks")["urn"]


def test_addon_versions_follow_the_clusters_minor(plan: Plan) -> None:
    # kube-proxy pinned (AWS docs, "kube-proxy versions", read 2026-12-01); the others
    # EKS's default for the minor, read at deploy time.
    assert addon(plan, "kube-proxy")["inputs"]["addonVersion"] == "${getAddonVersion[kube-proxy@1.36].version}"
    assert addon(plan, "coredns")["inputs"]["addonVersion"] == "${getAddonVersion[coredns@1.36].version}"
    # The other minors, side by side in the same plan (side_by_side()).
    assert addon(plan, "kube-proxy", "aws-k133")["inputs"]["addonVersion"] == "v1.33.5-eksbuild.2"
    assert addon(plan, "coredns", "aws-k133")["inputs"]["addonVersion"] == "${getAddonVersion[coredns@1.33].version}"
    assert addon(plan, "kube-proxy", "aws-k134")["inputs"]["addonVersion"] == "v1.34.1-eksbuild.2"
    assert addon(plan, "vpc-cni", "aws-k134")["inputs"]["addonVersion"] == "${getAddonVersion[vpc-cni@1.34].version}"
    assert (
        addon(plan, "kube-proxy", "aws-k135")["inputs"]["addonVersion"] == "${getAddonVersion[kube-proxy@1.35].version}"
    )


def test_node_addons_come_before_every_node_group(plan: Plan) -> None:
    groups = [r for r in plan.of_type("aws:eks/nodeGroup:NodeGroup") if r["name"].startswith(NAME)]
    assert len(groups) == 3
    for group in groups:
        assert {f"{NAME}-addon-{n}" for n in ("vpc-cni", "kube-proxy", "eks-pod-identity-agent")} <= dep_names(
            plan, group
        ), group["name"]
    for name in ("vpc-cni", "kube-proxy", "eks-pod-identity-agent"):
        assert dep_names(plan, addon(plan, name)) == {f"{NAME}-eks"}


def test_coredns_and_ebs_csi_wait_for_the_system_pool(plan: Plan) -> None:
    assert dep_names(plan, addon(plan, "coredns")) == {f"{NAME}-eks", f"{NAME}-system"}
    assert dep_names(plan, addon(plan, "aws-ebs-csi-driver")) == {
        f"{NAME}-eks",
        f"{NAME}-system",
        f"{NAME}-ebs-csi",
        f"{NAME}-ebs-csi-policy",
    }


def test_ebs_csi_driver_runs_with_its_own_irsa_role(plan: Plan) -> None:
    ebs = addon(plan, "aws-ebs-csi-driver")["inputs"]
    assert ebs["serviceAccountRoleArn"] == f"${{{NAME}-ebs-csi.arn}}"
    policy = json.loads(plan.named(f"{NAME}-ebs-csi")["inputs"]["assumeRolePolicy"])
    (statement,) = policy["Statement"]
    assert statement["Principal"] == {"Federated": f"${{{NAME}-oidc.arn}}"}
    condition = statement["Condition"]["StringEquals"]
    subjects = {v for k, v in condition.items() if k.endswith(":sub")}
    assert subjects == {"system:serviceaccount:kube-system:ebs-csi-controller-sa"}
    attachment = plan.named(f"{NAME}-ebs-csi-policy")["inputs"]
    assert attachment == {
        "role": f"${{{NAME}-ebs-csi.name}}",
        "policyArn": "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy",
    }


def test_registration_waits_for_the_addons(plan: Plan) -> None:
    deps = dep_names(plan, plan.named(f"{NAME}-registration"))
    assert {f"{NAME}-addon-{n}" for n in ADDONS} <= deps


def test_first_preview_knows_the_pinned_version_and_the_cluster_name() -> None:
    first = recorded("test", aws_values(kubernetesVersion="1.33"), first_preview=True)
    assert addon(first, "kube-proxy")["inputs"]["addonVersion"] == "v1.33.5-eksbuild.2"
    assert addon(first, "coredns")["inputs"]["clusterName"] == CLUSTER


# --- availability zones --------------------------------------------------------------------


def problems(region: str, zones: int) -> list[str]:
    values = aws_values(availabilityZones=zones)
    values["anyscale-cloud:resources"][1]["region"] = region
    with pytest.raises(SpecError) as caught:
        load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"])
    return [str(p) for p in caught.value.problems]


def test_more_zones_than_the_region_has_are_refused_at_their_path() -> None:
    assert problems("us-west-1", 3) == [
        "resources[1].cluster.availabilityZones (aws-usw2): availabilityZones is 3, but us-west-1 has 2 "
        "availability zones for every account: use at most 2"
    ]
    assert problems("eu-west-1", 4) == [
        "resources[1].cluster.availabilityZones (aws-usw2): availabilityZones is 4, but eu-west-1 has 3 "
        "availability zones for every account: use at most 3"
    ]


@pytest.mark.parametrize(("region", "zones"), [("us-west-2", 4), ("us-east-1", 4), ("eu-west-1", 3)])
def test_zones_the_region_has_are_accepted(region: str, zones: int) -> None:
    values = aws_values(availabilityZones=zones)
    values["anyscale-cloud:resources"][1]["region"] = region
    spec = load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"])
    assert spec.resources[1].cluster.availability_zones == zones


def test_an_account_with_fewer_zones_gets_a_message_not_an_index_error() -> None:
    from components.aws.network import zone_at

    assert zone_at(["us-west-1a", "us-west-1c"], 1, "us-west-1") == "us-west-1c"
    with pytest.raises(ValueError, match=r"^us-west-1 offers this account 2 availability zone\(s\) "):
        zone_at(["us-west-1a", "us-west-1c"], 2, "us-west-1")


# --- node-group scaling ------------------------------------------------------------------------


def test_the_project_refreshes_before_every_operation() -> None:
    project = yaml.safe_load((ROOT / "Pulumi.yaml").read_text())
    assert project["options"] == {"refresh": "always"}


def test_node_groups_send_only_the_bounds(plan: Plan) -> None:
    cpu = plan.named(f"{NAME}-cpu")
    assert cpu["inputs"]["scalingConfig"] == {"minSize": 0, "maxSize": 10, "desiredSize": 0}
    assert cpu["options"]["ignoreChanges"] == ["scalingConfig.desiredSize"]


@pytest.fixture(scope="module")
def base_plan(plan: Plan) -> dict[str, Any]:
    return plan.to_json()  # aws-scale with BASE_BOUNDS


@pytest.fixture(scope="module")
def changed_plan() -> dict[str, Any]:
    """The primary and aws-scale alone, with the changed bounds: the resources of the base it
    leaves out are deletions in the diff, and each test looks at the change of its own group."""
    values = standalone(aws_values())  # the primary's MultiKueue worker, aws-usw2, is not in it
    values["anyscale-cloud:resources"][1] = scaled({RAISE_MIN: (3, 10), LOWER_MAX: (1, 4), WIDEN: (0, 20)})
    return recorded("test", values).to_json()


def group_change(base: dict[str, Any], head: dict[str, Any], pool: str) -> Change:
    return next(c for c in diff_plans(base, head) if c.name == f"{SCALED}-{pool}")


def test_raising_min_count_is_named(base_plan: dict[str, Any], changed_plan: dict[str, Any]) -> None:
    change = group_change(base_plan, changed_plan, RAISE_MIN)
    assert change.action == "update" and change.disruptive
    assert change.reasons == [
        "Node group 'cpu': minCount 1 -> 3. EKS refuses the update (and changes nothing) while the group runs "
        "fewer than 3 nodes; if it does, first scale it up: aws eks update-nodegroup-config --nodegroup-name cpu "
        "--scaling-config desiredSize=3"
    ]


def test_lowering_max_count_is_named(base_plan: dict[str, Any], changed_plan: dict[str, Any]) -> None:
    change = group_change(base_plan, changed_plan, LOWER_MAX)
    assert change.action == "update" and change.disruptive
    assert change.reasons == [
        "Node group 'cpumax': maxCount 10 -> 4. EKS refuses the update (and changes nothing) while the group runs "
        "more than 4 nodes; let the autoscaler scale it down first (idle nodes go after about 10 minutes), or "
        "drain the surplus nodes yourself."
    ]


def test_raising_max_or_lowering_min_is_a_plain_update(base_plan: dict[str, Any], changed_plan: dict[str, Any]) -> None:
    change = group_change(base_plan, changed_plan, WIDEN)
    assert change.action == "update"
    assert change.reasons == [] and not change.disruptive
    assert sorted(p.path for p in change.properties) == ["scalingConfig.maxSize", "scalingConfig.minSize"]
