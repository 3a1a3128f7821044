"""The regional GKE cluster on the project's default VPC, and its kubeconfig."""
from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from components.gcp.names import kubeconfig
from components.names import gke_cluster_name
from components.scope import Scope
from components.spec import GcpResource

# The project's default VPC. A VPC of our own could not be deleted on destroy: GKE
# leaves behind the forwarding and firewall rules of LoadBalancer Services (the gateway).
NETWORK = "default"
# GKE-managed pod and service ranges of the default sizes, chosen by GKE in the subnet.
POD_RANGE = "/14"
SERVICE_RANGE = "/20"


def build_cluster(scope: Scope, spec: GcpResource) -> gcp.container.Cluster:
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
        network=NETWORK,
        networking_mode="VPC_NATIVE",
        ip_allocation_policy={"cluster_ipv4_cidr_block": POD_RANGE, "services_ipv4_cidr_block": SERVICE_RANGE},
        workload_identity_config={"workload_pool": f"{spec.project}.svc.id.goog"},
        deletion_protection=scope.ctx.protect,
        opts=scope.guarded(),
    )


def cluster_kubeconfig(spec: GcpResource, cluster: gcp.container.Cluster) -> pulumi.Output[str]:
    return pulumi.Output.secret(
        pulumi.Output.all(cluster.name, cluster.endpoint, cluster.master_auth.cluster_ca_certificate).apply(
            lambda args: kubeconfig(f"gke_{spec.project}_{spec.region}_{args[0]}", args[1], args[2])
        )
    )
