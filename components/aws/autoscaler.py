"""The Kubernetes Cluster Autoscaler: managed node groups keep their size until something
changes it, so without it a worker pool with minCount 0 never gets a node. EKS only (AKS
and GKE scale their pools themselves), which is why it is here and not in addons."""

from __future__ import annotations

import json

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s

from components.aws.iam import Irsa
from components.scope import Scope
from config import AwsResource
from config.data.versions import CLUSTER_AUTOSCALER_RELEASES, CLUSTER_AUTOSCALER_REPO

AUTOSCALER_NAMESPACE = "kube-system"
AUTOSCALER_SERVICE_ACCOUNT = "cluster-autoscaler"
# The autoscaler's documented policy for auto-discovery (kubernetes/autoscaler,
# cluster-autoscaler/cloudprovider/aws/README.md, "Full Cluster Autoscaler Features
# Policy"): read-only calls on any resource, as documented; the two that change an Auto
# Scaling group only on this cluster's groups (AUTOSCALER_OWNED_TAG).
AUTOSCALER_READ_ACTIONS = (
    "autoscaling:DescribeAutoScalingGroups",
    "autoscaling:DescribeAutoScalingInstances",
    "autoscaling:DescribeLaunchConfigurations",
    "autoscaling:DescribeScalingActivities",
    "ec2:DescribeImages",
    "ec2:DescribeInstanceTypes",
    "ec2:DescribeLaunchTemplateVersions",
    "ec2:GetInstanceTypesFromInstanceRequirements",
    "eks:DescribeNodegroup",  # a scaled-to-zero group's labels and taints (see pools.py)
)
AUTOSCALER_WRITE_ACTIONS = ("autoscaling:SetDesiredCapacity", "autoscaling:TerminateInstanceInAutoScalingGroup")
# EKS tags the Auto Scaling group of every managed node group with this key (value
# "owned") and with `k8s.io/cluster-autoscaler/enabled`: the two keys the chart's
# auto-discovery looks for, and the one the write statement is conditioned on.
AUTOSCALER_OWNED_TAG = "k8s.io/cluster-autoscaler/{}"
# Flags for Ray: worker pools are alike but for the zone, Ray pods keep /tmp/ray and
# /dev/shm in emptyDir (local storage), and the system pool's own pods must not pin its
# nodes forever.
AUTOSCALER_ARGS = {
    "balance-similar-node-groups": True,
    "expander": "least-waste",  # the pool that leaves the least idle CPU and memory
    "skip-nodes-with-local-storage": False,
    "skip-nodes-with-system-pods": False,
}


def autoscaler_policy(cluster: str) -> str:
    """Describe anything; resize and shrink only the Auto Scaling groups EKS tagged as
    this cluster's own."""
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {"Sid": "Discover", "Effect": "Allow", "Action": list(AUTOSCALER_READ_ACTIONS), "Resource": "*"},
                {
                    "Sid": "ScaleOwnGroups",
                    "Effect": "Allow",
                    "Action": list(AUTOSCALER_WRITE_ACTIONS),
                    "Resource": "*",
                    "Condition": {"StringEquals": {f"aws:ResourceTag/{AUTOSCALER_OWNED_TAG.format(cluster)}": "owned"}},
                },
            ],
        }
    )


def build_autoscaler(
    scope: Scope, spec: AwsResource, irsa: Irsa, cluster: aws.eks.Cluster, kubernetes: k8s.Provider
) -> k8s.helm.v3.Release:
    """With its own IRSA role, discovering the node groups by the tags EKS puts on their
    Auto Scaling groups. It runs on the system pool (the only untainted one), so it
    needs no tolerations."""
    role = irsa.role(
        f"{spec.name}-autoscaler",
        AUTOSCALER_NAMESPACE,
        AUTOSCALER_SERVICE_ACCOUNT,
        f"Cluster Autoscaler of cloud resource {spec.name} (cloud {scope.ctx.cloud_name})",
    )
    policy = aws.iam.RolePolicy(
        f"{spec.name}-autoscaler-asg", role=role.id, policy=cluster.name.apply(autoscaler_policy), opts=scope.opts()
    )
    # The release of the cluster's minor (the spec accepts only minors in the table).
    chart, image = CLUSTER_AUTOSCALER_RELEASES[spec.cluster.minor]
    return k8s.helm.v3.Release(
        f"{spec.name}-cluster-autoscaler",
        name="cluster-autoscaler",
        chart="cluster-autoscaler",
        version=chart,
        repository_opts={"repo": CLUSTER_AUTOSCALER_REPO},
        namespace=AUTOSCALER_NAMESPACE,
        values={
            "cloudProvider": "aws",
            # Explicit: the chart's default is its appVersion, the .0 patch of the minor.
            "image": {"tag": image},
            "awsRegion": spec.region,
            "autoDiscovery": {"clusterName": cluster.name},
            "rbac": {
                "serviceAccount": {
                    "create": True,
                    "name": AUTOSCALER_SERVICE_ACCOUNT,
                    "annotations": {"eks.amazonaws.com/role-arn": role.arn},
                }
            },
            "extraArgs": AUTOSCALER_ARGS,
        },
        atomic=True,
        cleanup_on_fail=True,
        opts=pulumi.ResourceOptions(
            parent=scope.parent,
            provider=kubernetes,
            # Gone with the cluster, like every add-on; its permissions come first.
            deleted_with=cluster,
            depends_on=[policy],
        ),
    )
