"""The regional GKE cluster in its network (components/gcp/network.py), and its kubeconfig."""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from components.gcp.names import kubeconfig
from components.gcp.network import Network
from components.gcp.pools import OAUTH_SCOPES
from components.names import gke_cluster_name
from components.scope import Scope
from spec import GcpResource


def build_cluster(
    scope: Scope, spec: GcpResource, network: Network, node_account: pulumi.Input[str]
) -> gcp.container.Cluster:
    cluster = spec.cluster
    return gcp.container.Cluster(
        f"{spec.name}-gke",
        name=gke_cluster_name(scope.ctx.cloud_name, spec.name),
        location=spec.region,  # a region: the control plane and pools span its zones
        min_master_version=cluster.kubernetes_version,
        release_channel={"channel": cluster.release_channel},
        # Pools are NodePool resources of their own; GKE needs one to start with.
        remove_default_node_pool=True,
        initial_node_count=1,
        # Even the short-lived default pool runs as the nodes' account, not the Compute
        # Engine default one (which an organisation policy may have stripped or removed).
        node_config={"service_account": node_account, "oauth_scopes": OAUTH_SCOPES},
        network=network.network,
        subnetwork=network.subnetwork,
        networking_mode="VPC_NATIVE",
        # Pods and services get the subnet's secondary ranges (alias IPs).
        ip_allocation_policy={
            "cluster_secondary_range_name": network.pods_range,
            "services_secondary_range_name": network.services_range,
        },
        workload_identity_config={"workload_pool": f"{spec.project}.svc.id.goog"},
        deletion_protection=scope.ctx.protect,
        opts=scope.guarded(depends_on=network.resources),
    )


def cluster_kubeconfig(spec: GcpResource, cluster: gcp.container.Cluster) -> pulumi.Output[str]:
    return pulumi.Output.secret(
        pulumi.Output.all(cluster.name, cluster.endpoint, cluster.master_auth.cluster_ca_certificate).apply(
            lambda args: kubeconfig(f"gke_{spec.project}_{spec.region}_{args[0]}", args[1], args[2])
        )
    )
