"""EKS managed add-ons: the pod network (vpc-cni, kube-proxy), the pod-identity agent,
CoreDNS and the EBS CSI driver, at the versions of config/data/eks.py for the cluster's minor.

EKS installs vpc-cni, kube-proxy and CoreDNS itself as self-managed manifests that never
move with a version bump; as managed add-ons they are upgraded with the cluster's minor.
`OVERWRITE` on create adopts the self-managed objects EKS put there."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_aws as aws

from components.aws.iam import MANAGED_POLICY, Irsa
from components.scope import Scope
from config import AwsResource
from config.data.eks import COREDNS, EBS_CSI_DRIVER, EKS_ADDON_VERSIONS, KUBE_PROXY, POD_IDENTITY_AGENT, VPC_CNI

# Node-level add-ons (DaemonSets): before the node groups, so nodes join with them; as
# terraform-aws-eks's `before_compute`. A DaemonSet with no node yet is ready.
BEFORE_NODES = (VPC_CNI, KUBE_PROXY, POD_IDENTITY_AGENT)
# Deployments: EKS reports them ACTIVE only once their pods run, so after the system
# pool (the only untainted one), or the create waits until it times out, DEGRADED.
AFTER_SYSTEM_POOL = (COREDNS, EBS_CSI_DRIVER)
# The EBS CSI controller's service account (the add-on's default) and its AWS policy.
EBS_CSI_NAMESPACE = "kube-system"
EBS_CSI_SERVICE_ACCOUNT = "ebs-csi-controller-sa"
EBS_CSI_POLICY = "service-role/AmazonEBSCSIDriverPolicy"


@dataclass(frozen=True)
class Addons:
    scope: Scope
    spec: AwsResource
    cluster: aws.eks.Cluster

    def version(self, name: str) -> pulumi.Input[str]:
        """The pinned version for the cluster's minor, or EKS's default for that minor."""
        pinned = EKS_ADDON_VERSIONS.get(self.spec.cluster.minor, {}).get(name)
        if pinned is not None:
            return pinned
        found = aws.eks.get_addon_version_output(
            addon_name=name, kubernetes_version=self.spec.cluster.minor, most_recent=False, opts=self.scope.invoke()
        )
        version: pulumi.Output[str] = found.apply(lambda result: str(result.version))
        return version

    def build(self, name: str, after: list[pulumi.Resource], role: pulumi.Input[str] | None = None) -> aws.eks.Addon:
        return aws.eks.Addon(
            f"{self.spec.name}-addon-{name}",
            cluster_name=self.cluster.name,
            addon_name=name,
            addon_version=self.version(name),
            service_account_role_arn=role,
            resolve_conflicts_on_create="OVERWRITE",
            resolve_conflicts_on_update="OVERWRITE",
            # Gone with the cluster: a destroy does not remove them one by one first.
            opts=self.scope.opts(depends_on=after, deleted_with=self.cluster),
        )


def node_addons(scope: Scope, spec: AwsResource, cluster: aws.eks.Cluster) -> list[aws.eks.Addon]:
    addons = Addons(scope, spec, cluster)
    return [addons.build(name, []) for name in BEFORE_NODES]


def cluster_addons(
    scope: Scope, spec: AwsResource, cluster: aws.eks.Cluster, irsa: Irsa, system_pool: aws.eks.NodeGroup
) -> list[pulumi.Resource]:
    """CoreDNS and the EBS CSI driver (with its IRSA role), after the system pool."""
    addons = Addons(scope, spec, cluster)
    role = irsa.role(
        f"{spec.name}-ebs-csi",
        EBS_CSI_NAMESPACE,
        EBS_CSI_SERVICE_ACCOUNT,
        f"EBS CSI driver of cloud resource {spec.name} (cloud {scope.ctx.cloud_name})",
    )
    attachment = aws.iam.RolePolicyAttachment(
        f"{spec.name}-ebs-csi-policy",
        role=role.name,
        policy_arn=MANAGED_POLICY.format(EBS_CSI_POLICY),
        opts=scope.opts(),
    )
    coredns = addons.build(COREDNS, [system_pool])
    ebs = addons.build(EBS_CSI_DRIVER, [system_pool, attachment], role.arn)
    return [role, attachment, coredns, ebs]
