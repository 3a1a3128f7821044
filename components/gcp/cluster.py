"""The regional GKE cluster in its network (components/gcp/network.py), and its kubeconfig."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_gcp as gcp

from components.cloud_args import known
from components.gcp.identity import NodeAccount
from components.gcp.names import kubeconfig
from components.gcp.network import Network
from components.gcp.pools import OAUTH_SCOPES
from components.scope import Scope
from config import GcpResource
from config.names import gke_cluster_name


def build_cluster(
    scope: Scope, spec: GcpResource, network: Network, nodes: NodeAccount | None = None
) -> gcp.container.Cluster:
    cluster = spec.cluster
    # The default pool GKE creates with the cluster (removed once it is up) runs as the nodes'
    # own account, and without external IPs where the program's network has a Cloud NAT: it
    # lives only minutes, but the organisation policies on external IPs and on the Compute
    # Engine default account refuse it even so. The account waits for its grants.
    default_pool: dict[str, Any] = {}
    after = list(network.resources)
    if nodes is not None:
        default_pool["node_config"] = {"service_account": nodes.account.email, "oauth_scopes": OAUTH_SCOPES}
        after += nodes.grants
    if network.private_nodes:
        # The provider sends it as the cluster's networkConfig.defaultEnablePrivateNodes at
        # creation, and as an in-place update of that default later (which changes no
        # existing pool): terraform-provider-google-beta v7.45.0,
        # google-beta/services/container/resource_container_cluster.go lines 3245 and 4119.
        default_pool["private_cluster_config"] = {"enable_private_nodes": True}
    return gcp.container.Cluster(
        f"{spec.name}-gke",
        name=gke_cluster_name(scope.ctx.cloud_name, spec.name),
        location=spec.region,  # a region: the control plane and pools span its zones
        min_master_version=cluster.kubernetes_version,
        release_channel={"channel": cluster.release_channel},
        # Pools are NodePool resources of their own; GKE needs a default one to start with,
        # deleted once the cluster is up (the provider's documented pair for separate pools).
        remove_default_node_pool=True,
        initial_node_count=1,
        # `node_config` describes the default pool only, so it is ignored after creation:
        # once the default pool is gone a refresh reads another pool's config into it, and
        # the diff would then plan an update or a replacement of the cluster.
        **default_pool,
        network=network.network,
        subnetwork=network.subnetwork,
        networking_mode="VPC_NATIVE",
        # Pods and services get the subnet's secondary ranges (alias IPs).
        ip_allocation_policy={
            "cluster_secondary_range_name": network.pods_range,
            "services_secondary_range_name": network.services_range,
        },
        workload_identity_config={"workload_pool": pulumi.Output.concat(known(spec.project), ".svc.id.goog")},
        deletion_protection=scope.ctx.protect,
        # Ignored for the reason above (and for clusters deployed with it set).
        opts=scope.guarded(depends_on=after, ignore_changes=["nodeConfig"]),
    )


def cluster_kubeconfig(spec: GcpResource, cluster: gcp.container.Cluster) -> pulumi.Output[str]:
    return pulumi.Output.secret(
        pulumi.Output.all(
            cluster.name, cluster.endpoint, cluster.master_auth.cluster_ca_certificate, known(spec.project)
        ).apply(lambda args: kubeconfig(f"gke_{args[3]}_{spec.region}_{args[0]}", args[1], args[2]))
    )
