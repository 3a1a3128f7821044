"""GkeTarget: a GKE-backed cloud resource's cluster, bucket and operator identity."""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from components.cloud_args import known
from components.gcp.apis import AfterApis, build_apis
from components.gcp.bucket import build_bucket
from components.gcp.cluster import build_cluster, cluster_kubeconfig
from components.gcp.history import build_history_identity
from components.gcp.identity import build_account, build_node_account, build_workload_account
from components.gcp.network import build_network
from components.gcp.pools import PoolArgs, build_pools, build_system_pool
from components.kube import kubernetes_provider
from components.operator_shapes import instance_type_settings
from components.scope import Scope
from components.target import CloudContext, Target
from config import GcpResource


class GkeTarget(pulumi.ComponentResource):
    """A regional GKE cluster with Workload Identity in a VPC of its own (or the one given),
    its nodes running as a service account of their own, a GCS bucket with the console's
    CORS rule, and the operator's service account bound to its Kubernetes service account."""

    target: Target

    def __init__(self, spec: GcpResource, ctx: CloudContext, opts: pulumi.ResourceOptions | None = None):
        # The type token predates the class name: it is part of every child's URN.
        super().__init__("anyscale-cloud:gcp:GkeTarget", spec.name, None, opts)
        provider = gcp.Provider(
            f"{spec.name}-gcp",
            project=known(spec.project),
            region=spec.region,
            opts=pulumi.ResourceOptions(parent=self),
        )
        apis = build_apis(Scope(ctx, self, provider), spec)
        scope = AfterApis(ctx, self, provider, tuple(apis))
        network = build_network(scope, spec)
        nodes = build_node_account(scope, spec)
        cluster = build_cluster(scope, spec, network, nodes)
        # Pools wait for their account's grants: a node without them cannot pull images
        # from Artifact Registry or write its logs, and GKE reports the pool unhealthy.
        shared = PoolArgs(cluster, nodes.account.email, network.private_nodes, list(nodes.grants))
        system_pool = build_system_pool(scope, spec, shared)
        pools = [system_pool, *build_pools(scope, spec, shared)]
        operator = build_account(scope, spec, cluster)
        bucket = build_bucket(scope, spec, operator.member)
        kubeconfig = cluster_kubeconfig(spec, cluster)
        email = operator.account.email
        workloads = build_workload_account(scope, spec, cluster, bucket.uri)
        history = (
            build_history_identity(scope, spec, cluster, bucket.uri) if spec.addons.kuberay.history_server else None
        )
        self.target = Target(
            provider="GCP",
            region=spec.region,
            # The default pool is removed: until the system pool is up there is no node to
            # run the add-ons, and their atomic Helm releases would time out waiting.
            kubernetes=kubernetes_provider(spec.name, kubeconfig, self, [system_pool]),
            kubeconfig=kubeconfig,
            cluster=cluster,
            bucket_uri=bucket.uri,
            bucket_endpoint=spec.storage.endpoint or "",
            bucket_region=spec.bucket_region,
            registration_identity=email,  # GCP: the same email in both places
            operator_identity=email,
            # The chart annotates its service account with iam.gke.io/gcp-service-account
            # itself, from global.auth.iamIdentity, when cloudProvider is gcp.
            operator_settings={
                "global.gcp.projectId": known(spec.project),
                **instance_type_settings("GCP", spec.cluster.node_pools),
            },
            gateway_address_kind="ip",
            load_balancer_outlives_cluster=True,  # its forwarding rules would stay billed
            # GKE installs the drivers and its own device plugin on GPU nodes; a second
            # plugin would crash-loop and fail the atomic release.
            install_device_plugin=False,
            history_identity=history,
            workload_identity=workloads,
            cluster_name=cluster.name,
            cluster_id=cluster.id,
            # GKE's issuer for a cluster's service account tokens (Workload Identity).
            oidc_issuer=cluster.id.apply(lambda i: f"https://container.googleapis.com/v1/{i}"),
            ready=[
                cluster,
                *pools,
                *bucket.resources,
                operator.account,
                operator.workload_identity,
                operator.token_creator,
                *bucket.grants,
                *nodes.grants,
            ],
        )
        self.register_outputs(
            {
                "cluster_name": cluster.name,
                "bucket_uri": bucket.uri,
                "service_account_email": email,
                "kubeconfig": kubeconfig,
            }
        )
