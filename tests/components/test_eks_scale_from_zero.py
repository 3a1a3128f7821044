"""EKS pools at zero grow: a Ray pod's node selector, through the Cluster Autoscaler's template
node, to the node group (components/aws/pools.py).

The operator chart (1.8.0, `cloudProvider: aws`) puts `eks.amazonaws.com/capacityType` in every
Ray pod's node selector. For a managed node group at zero nodes the autoscaler builds its
template node from the Auto Scaling group's `k8s.io/cluster-autoscaler/node-template/label/...`
tags and eks:DescribeNodegroup, which gives the capacity type only as a bare `capacityType`
label (kubernetes/autoscaler, cluster-autoscaler/cloudprovider/aws/aws_manager.go,
buildNodeFromTemplate). So every node group's Auto Scaling group carries the label as a tag,
and the scheduling view models the template, not a running node. Literals from upstream."""

from __future__ import annotations

import copy
from typing import Any

from preflight.runtime import Plan
from preflight.scheduling import scheduling

TAG = "aws:autoscaling/tag:Tag"
TEMPLATE_KEY = "k8s.io/cluster-autoscaler/node-template/label/eks.amazonaws.com/capacityType"


def test_every_node_group_tags_its_auto_scaling_group_with_the_capacity_label(example_plan: Plan) -> None:
    tags = {r["name"]: r for r in example_plan.of_type(TAG)}
    assert {name: r["inputs"] for name, r in tags.items()} == {
        f"aws-usw2-{pool}-template-capacitytype": {
            "autoscalingGroupName": f"${{aws-usw2-{pool}.resources[0].autoscalingGroups[0].name}}",
            "tag": {"key": TEMPLATE_KEY, "value": market, "propagateAtLaunch": False},
        }
        for pool, market in (("system", "ON_DEMAND"), ("cpu", "ON_DEMAND"), ("cpuspot", "SPOT"))
    }
    for pool in ("system", "cpu", "cpuspot"):
        tag, group = tags[f"aws-usw2-{pool}-template-capacitytype"], example_plan.named(f"aws-usw2-{pool}")
        # The group's own Auto Scaling group, through the EKS target's AWS provider.
        assert tag["dependsOn"] == [group["urn"]]
        assert tag["provider"] == group["provider"]
        assert tag["parent"] == group["parent"]
        # Its Auto Scaling group goes with the group, and the tag with it.
        assert tag["options"]["deletedWith"] == group["urn"]


def test_the_label_is_what_the_operator_selects_on_and_the_node_group_declares_the_rest(example_plan: Plan) -> None:
    operator = example_plan.named("aws-usw2-anyscale-operator")["inputs"]["values"]
    assert operator["global"]["cloudProvider"] == "aws"
    for pool in ("cpu", "cpuspot"):
        labels = example_plan.named(f"aws-usw2-{pool}")["inputs"]["labels"]
        # EKS refuses node group labels under eks.amazonaws.com/: the tag is the only way.
        assert not [key for key in labels if key.startswith("eks.amazonaws.com/")]


def view(plan: dict[str, Any]) -> dict[str, tuple[list[str], list[str]]]:
    (aws,) = [v for v in scheduling(plan) if v.provider == "AWS"]
    return {p.instance_type.name: (p.pools["ON_DEMAND"], p.pools["SPOT"]) for p in aws.placements}


def test_a_ray_pod_of_each_market_fits_a_pool_at_zero(example_plan: Plan) -> None:
    placements = view(example_plan.to_json())
    assert placements["15CPU-56GB"] == (["cpu"], ["cpuspot"])
    assert placements["2CPU-8GB"] == (["system", "cpu"], ["cpuspot"])


def test_without_the_tags_no_pool_at_zero_takes_a_ray_pod(example_plan: Plan) -> None:
    # The flow this guards: the same plan without the ASG tags, as the program made it before.
    plan = copy.deepcopy(example_plan.to_json())
    plan["resources"] = [r for r in plan["resources"] if r["type"] != TAG]
    placements = view(plan)
    assert placements["15CPU-56GB"] == ([], [])
    assert all(found == ([], []) for found in placements.values())
