"""EksTarget: an EKS-backed cloud resource's network, cluster, bucket, operator role and Cluster Autoscaler."""

from __future__ import annotations

import pulumi
import pulumi_aws as aws

from components import defaults
from components.aws.access import build_access_entries
from components.aws.addons import cluster_addons, node_addons
from components.aws.autoscaler import build_autoscaler
from components.aws.bucket import build_bucket
from components.aws.cluster import build_cluster, cluster_kubeconfig
from components.aws.history import ROLE_ANNOTATION, build_history_identity
from components.aws.iam import Irsa
from components.aws.network import build_network
from components.aws.policies import bucket_policy
from components.aws.pools import node_groups
from components.kube import kubernetes_provider
from components.operator_shapes import instance_type_settings
from components.scope import Scope
from components.target import CloudContext, Target, WorkloadIdentity
from config import AwsResource
from config.names import SYSTEM_POOL

# The proxy Service as an internet-facing NLB. These are the annotations of the service
# controller that EKS runs itself (cloud-provider-aws), so a stock cluster honours them.
# The AWS Load Balancer Controller's set (`aws-load-balancer-type: external` with
# `nlb-target-type: ip`) is ignored by that controller and would leave the Service, and
# so the Gateway, without an address. The scheme annotation is the LBC's (the built-in
# controller is internet-facing unless `-internal` is set): should the LBC be installed
# later and take the Service over, it keeps the NLB public instead of its `internal` default.
# Cross-zone: an NLB node sends only to targets in its own zone unless this is on, so a
# zone without a healthy proxy (externalTrafficPolicy: Local) would drop its share of the
# traffic. The first annotation is the built-in controller's, the attribute the LBC's.
PROXY_SERVICE_ANNOTATIONS = {
    "service.beta.kubernetes.io/aws-load-balancer-type": "nlb",
    "service.beta.kubernetes.io/aws-load-balancer-scheme": "internet-facing",
    "service.beta.kubernetes.io/aws-load-balancer-cross-zone-load-balancing-enabled": "true",
    "service.beta.kubernetes.io/aws-load-balancer-attributes": "load_balancing.cross_zone.enabled=true",
}


class EksTarget(pulumi.ComponentResource):
    """A VPC (public and private subnets, one NAT gateway, an S3 gateway endpoint) or an
    existing one, EKS with API access entries and IRSA, managed node groups tainted like
    every worker pool and sized by the Cluster
    Autoscaler, an S3 bucket with the console's CORS rule, and the operator's IAM role
    trusted by its service account."""

    target: Target

    def __init__(self, spec: AwsResource, ctx: CloudContext, opts: pulumi.ResourceOptions | None = None):
        # The type token predates the class name: it is part of every child's URN.
        super().__init__("anyscale-cloud:aws:EksTarget", spec.name, None, opts)
        # Our own provider: resources of several regions coexist in one stack.
        provider = aws.Provider(
            f"{spec.name}-aws",
            region=spec.region,
            default_tags={"tags": ctx.tags} if ctx.tags else None,
            opts=pulumi.ResourceOptions(parent=self),
        )
        scope = Scope(ctx, self, provider)
        network = build_network(scope, spec)
        eks = build_cluster(scope, spec, network)
        cluster = eks.cluster
        irsa = Irsa.of(scope, spec.name, cluster)
        build_access_entries(scope, spec, cluster)  # not needed by the registration: not in `ready`
        # The pod network's add-ons first: nodes join with the managed vpc-cni and kube-proxy.
        early = node_addons(scope, spec, cluster)
        groups = node_groups(
            scope, spec, cluster, network.private_subnet_ids, [*eks.attachments, *network.egress, *early]
        )
        system_pool = groups.build(SYSTEM_POOL, spec.cluster.system_pool)
        pools = [groups.build(pool.name, pool) for pool in spec.cluster.node_pools]
        late = cluster_addons(scope, spec, cluster, irsa, system_pool)
        bucket = build_bucket(scope, spec)
        role = irsa.role(
            f"{spec.name}-operator",
            defaults.OPERATOR_NAMESPACE,
            defaults.OPERATOR_SERVICE_ACCOUNT,
            f"Anyscale operator of cloud resource {spec.name} (cloud {ctx.cloud_name})",
        )
        policy = aws.iam.RolePolicy(
            f"{spec.name}-operator-s3", role=role.id, policy=bucket.name.apply(bucket_policy), opts=scope.opts()
        )
        # The Ray pods' own role: their service account only, the bucket only (the same S3
        # actions as the operator's; nothing else the operator's role may do).
        # Its trust names the account in every namespace the operator runs Ray pods in.
        workload_role = irsa.role_of(
            f"{spec.name}-workloads",
            spec.workload_accounts,
            f"Ray pods of cloud resource {spec.name} (cloud {ctx.cloud_name})",
        )
        workload_policy = aws.iam.RolePolicy(
            f"{spec.name}-workloads-s3",
            role=workload_role.id,
            policy=bucket.name.apply(bucket_policy),
            opts=scope.opts(),
        )
        workloads = WorkloadIdentity({ROLE_ANNOTATION: workload_role.arn}, [workload_role, workload_policy])
        history = (
            build_history_identity(irsa, spec, bucket.name, ctx.cloud_name)
            if spec.addons.kuberay.history_server
            else None
        )
        kubeconfig = cluster_kubeconfig(spec, cluster)
        # Worker pools are tainted: the add-ons run on the system pool, so wait for it.
        kubernetes = kubernetes_provider(spec.name, kubeconfig, self, [system_pool])
        build_autoscaler(scope, spec, irsa, cluster, kubernetes)
        self.target = Target(
            provider="AWS",
            region=spec.region,
            kubernetes=kubernetes,
            kubeconfig=kubeconfig,
            cluster=cluster,
            bucket_uri=bucket.uri,
            bucket_endpoint=spec.storage.endpoint or "",
            bucket_region=spec.bucket_region,
            registration_identity=role.arn,  # the same ARN in both places
            operator_identity=role.arn,
            operator_settings={
                "global.aws.region": spec.region,
                **instance_type_settings("AWS", spec.cluster.node_pools),
            },
            proxy_service_annotations=PROXY_SERVICE_ANNOTATIONS,
            gateway_address_kind="hostname",  # NLBs have DNS names, not IPs
            load_balancer_outlives_cluster=True,  # the NLB would block the VPC delete
            install_device_plugin=any(p.gpu for p in spec.cluster.node_pools),
            history_identity=history,
            workload_identity=workloads,
            cluster_name=cluster.name,
            cluster_id=cluster.arn,
            oidc_issuer=irsa.issuer,
            ready=[cluster, irsa.oidc, system_pool, *pools, *early, *late, *bucket.resources, role, policy],
        )
        self.register_outputs(
            {
                "cluster_name": cluster.name,
                "vpc_id": network.vpc_id,
                "bucket_uri": bucket.uri,
                "role_arn": role.arn,
                "kubeconfig": kubeconfig,
            }
        )
