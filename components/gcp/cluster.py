"""The regional GKE cluster in its network (components/gcp/network.py), and its kubeconfig."""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from components.cloud_args import known
from components.gcp.names import kubeconfig
from components.gcp.network import Network
from components.scope import Scope
from config import GcpResource
from config.names import gke_cluster_name


def build_cluster(scope: Scope, spec: GcpResource, network: Network) -> gcp.container.Cluster:
    cluster = spec.cluster
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
        # No `node_config`: it describes the default pool, and the provider's docs advise
        # against it beside NodePool resources; after the default pool is gone a refresh
        # reads another pool's config into it, and the diff then plans an update or a
        # replacement of the cluster. The short-lived default pool runs as the project's
        # Compute Engine default account.
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
        opts=scope.guarded(depends_on=network.resources, ignore_changes=["nodeConfig"]),
    )


def cluster_kubeconfig(spec: GcpResource, cluster: gcp.container.Cluster) -> pulumi.Output[str]:
    return pulumi.Output.secret(
        pulumi.Output.all(
            cluster.name, cluster.endpoint, cluster.master_auth.cluster_ca_certificate, known(spec.project)
        ).apply(lambda args: kubeconfig(f"gke_{args[3]}_{spec.region}_{args[0]}", args[1], args[2]))
    )
