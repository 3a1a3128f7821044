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
        """No Cluster Autoscaler tags here, on purpose. EKS itself tags the Auto Scaling
        group of every managed node group with `k8s.io/cluster-autoscaler/enabled` and
        `k8s.io/cluster-autoscaler/<cluster>` (owned): that is what the autoscaler's
        auto-discovery and its IAM condition match. Nor node-template tags for scaling up
        from zero: for a managed node group the autoscaler (1.24 on) reads the labels and
        taints from eks:DescribeNodegroup (cloudprovider/aws/README.md), and from 1.29 on it
        adds the capacity type as `eks.amazonaws.com/capacityType`, the label the operator's
        Ray pods select on (aws_wrapper.go getManagedNodegroupInfo; kubernetes/autoscaler
        7ffb662fda, in every pinned release: config/data/versions.py); and EKS does not copy
        a node group's `tags` to its Auto Scaling group, so they would not be seen."""
        worker = pool if isinstance(pool, NodePoolSpec) else None  # None: the system pool
        gpu = worker is not None and worker.gpu is not None
        return aws.eks.NodeGroup(
            node_group_logical_name(self.spec.name, name),
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
