"""Managed node groups: the system group and one per spec pool, tainted like every worker pool."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_aws as aws

from components.aws.iam import NODE_POLICIES, service_role
from components.nodepools import pool_labels, pool_taints
from components.scope import Scope
from config import AwsResource, NodePoolSpec, SystemPoolSpec
from config.names import node_group_logical_name

# Kubernetes taint effects as the EKS API spells them.
TAINT_EFFECTS = {"NoSchedule": "NO_SCHEDULE", "NoExecute": "NO_EXECUTE", "PreferNoSchedule": "PREFER_NO_SCHEDULE"}
AUTOSCALER_GPU_LABEL = "k8s.amazonaws.com/accelerator"
# The label the operator chart (1.8.0, `cloudProvider: aws`) puts in every Ray pod's node
# selector (workloads.marketType), and the Auto Scaling group tag through which the Cluster
# Autoscaler sees it on a node group at zero: for a managed node group it builds the template
# node from the group's labels and taints (eks:DescribeNodegroup), which carry the capacity
# type only as a bare `capacityType` label, plus the ASG's `node-template/label/` tags
# (kubernetes/autoscaler cluster-autoscaler/cloudprovider/aws/aws_manager.go,
# buildNodeFromTemplate and extractLabelsFromAsg; managed node group cache: labels
# diskSize, amiType, capacityType, k8sVersion). EKS refuses node group labels under
# `eks.amazonaws.com/`, so the tag is the only way.
EKS_CAPACITY_LABEL = "eks.amazonaws.com/capacityType"
TEMPLATE_LABEL_TAG = "k8s.io/cluster-autoscaler/node-template/label/"
CPU_AMI, GPU_AMI = "AL2023_x86_64_STANDARD", "AL2023_x86_64_NVIDIA"
# What EKS cannot change on an existing node group (the provider replaces it).
# The provider replaces a node group on these itself (ForceNew); listing them makes the
# offline diff say so too. `diskSize` included: a managed node group cannot resize disks.
REPLACED_ON = ["instanceTypes", "capacityType", "amiType", "diskSize"]


def worker_labels(pool: NodePoolSpec) -> dict[str, str]:
    labels = pool_labels(pool, "AWS")
    if pool.gpu is not None:
        # The autoscaler treats nodes with this label as GPU nodes still starting until
        # the device plugin reports the GPUs, instead of adding more of them meanwhile.
        labels[AUTOSCALER_GPU_LABEL] = pool.gpu.type.lower()
    return labels


@dataclass(frozen=True)
class NodeGroups:
    """Where the node groups go: the cluster, its private subnets, the node role, and
    what must exist before a node boots (role policies, the way out of the VPC)."""

    scope: Scope
    spec: AwsResource
    cluster: aws.eks.Cluster
    subnet_ids: list[pulumi.Input[str]]
    role: aws.iam.Role
    before: list[pulumi.Resource]

    def build(self, name: str, pool: NodePoolSpec | SystemPoolSpec) -> aws.eks.NodeGroup:
        """No discovery tags here: EKS itself tags the Auto Scaling group of every managed
        node group with `k8s.io/cluster-autoscaler/enabled` and `.../<cluster>` (owned),
        which the autoscaler's auto-discovery and its IAM condition match. The labels and
        taints a worker group declares reach the autoscaler's template through
        eks:DescribeNodegroup; the capacity-type label does not (see EKS_CAPACITY_LABEL), so
        each worker group's Auto Scaling group gets it as a node-template tag."""
        worker = pool if isinstance(pool, NodePoolSpec) else None  # None: the system pool
        gpu = worker is not None and worker.gpu is not None
        logical = node_group_logical_name(self.spec.name, name)
        group = aws.eks.NodeGroup(
            logical,
            cluster_name=self.cluster.name,
            node_group_name=name,
            node_role_arn=self.role.arn,
            subnet_ids=self.subnet_ids,
            # The cluster's version, as EKS reports it: an upgrade of the cluster moves the
            # groups after it (a group without `version` stays on its old minor).
            version=self.cluster.version,
            instance_types=[pool.instance_type],
            ami_type=GPU_AMI if gpu else CPU_AMI,
            capacity_type=worker.capacity_type if worker else "ON_DEMAND",
            scaling_config={"min_size": pool.min_count, "max_size": pool.max_count, "desired_size": pool.min_count},
            labels=worker_labels(worker) if worker else None,
            disk_size=worker.disk_size_gb if worker else None,
            taints=[{"key": t.key, "value": t.value, "effect": TAINT_EFFECTS[t.effect]} for t in pool_taints(worker)]
            if worker
            else None,
            # The Cluster Autoscaler owns the current size; only the bounds are ours, and
            # `desired_size` is the creation size. On a bounds update the provider re-sends
            # the size from the state, which `refresh: always` (Pulumi.yaml) has made the
            # live one, so the update never resets the autoscaler's nodes; EKS refuses
            # (changing nothing) bounds that exclude the live size, and `preflight diff`
            # names those changes (preflight/scaling.py). The group's name is fixed: a
            # replacement deletes the old group first, or the new one fails with "already
            # exists" (platform.md 9.4).
            opts=self.scope.opts(
                depends_on=self.before,
                ignore_changes=["scalingConfig.desiredSize"],
                replace_on_changes=REPLACED_ON,
                delete_before_replace=True,
            ),
        )
        # Every group, the system group too: a Ray pod of the on-demand market may land there.
        self.template_label(logical, group, EKS_CAPACITY_LABEL, worker.capacity_type if worker else "ON_DEMAND")
        return group

    def template_label(self, logical: str, group: aws.eks.NodeGroup, label: str, value: str) -> aws.autoscaling.Tag:
        """`label: value` on the node the autoscaler imagines for `group` at zero (an ASG tag:
        EKS does not copy a node group's own `tags` to its Auto Scaling group). Not
        propagated to the instances: the kubelet gets the real label from EKS."""
        return aws.autoscaling.Tag(
            f"{logical}-template-{label.rsplit('/', 1)[-1].lower()}",
            autoscaling_group_name=group.resources.apply(lambda r: r[0].autoscaling_groups[0].name),
            tag={"key": TEMPLATE_LABEL_TAG + label, "value": value, "propagate_at_launch": False},
            # The group's Auto Scaling group goes with the group, and the tag with it.
            opts=self.scope.opts(deleted_with=group),
        )


def node_groups(
    scope: Scope,
    spec: AwsResource,
    cluster: aws.eks.Cluster,
    subnet_ids: list[pulumi.Input[str]],
    before: list[pulumi.Resource],
) -> NodeGroups:
    """The node role first: every group waits for its policies, and for `before`."""
    role = service_role(scope, spec.name, "node", "ec2.amazonaws.com", NODE_POLICIES)
    return NodeGroups(scope, spec, cluster, subnet_ids, role.role, [*before, *role.attachments])
