"""The cluster's network: a VPC of its own (no auto subnets, no default firewall rules),
one subnet with secondary ranges for pods and services, and a firewall rule that keeps
SSH and RDP closed to the internet; or the existing subnet named in the spec.

GKE needs no rule of ours: it creates its own (`gke-<cluster>-...`: control plane to
nodes, node to node, pod ranges) and, per LoadBalancer Service, the rules for the
load balancer and Google's health checks. Everything else inbound is denied by the
VPC's implied rule."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_gcp as gcp

from components.cloud_args import known
from components.scope import Scope
from config import GcpResource
from config.names import gke_network_name as network_name

PODS_RANGE = "pods"
SERVICES_RANGE = "services"
# Before any allow rule at the default priority 1000 (a deny wins at equal priority, and
# GKE's own rules use 1000): no later rule can open SSH or RDP to the whole internet.
DENY_PRIORITY = 900
INTERNET = "0.0.0.0/0"
REMOTE_ACCESS_PORTS = ["22", "3389"]


@dataclass(frozen=True)
class Network:
    network: pulumi.Input[str]
    subnetwork: pulumi.Input[str]
    pods_range: pulumi.Input[str]
    services_range: pulumi.Input[str]
    resources: list[pulumi.Resource]  # ours (none for an existing network)
    # Nodes without external IPs: only in the network we create, which has a Cloud NAT
    # (an existing network's way out is its owner's).
    private_nodes: bool = False


def build_network(scope: Scope, spec: GcpResource) -> Network:
    cluster = spec.cluster
    if cluster.network is not None:
        assert cluster.subnetwork and cluster.pods_range_name and cluster.services_range_name  # the spec's rule
        return Network(
            cluster.network,
            known(cluster.subnetwork),
            known(cluster.pods_range_name),
            known(cluster.services_range_name),
            [],
        )
    name = network_name(scope.ctx.cloud_name, spec.name)
    vpc = gcp.compute.Network(
        f"{spec.name}-vpc",
        name=name,
        auto_create_subnetworks=False,  # one subnet, in the cluster's region, with our ranges
        routing_mode="REGIONAL",
        opts=scope.opts(),
    )
    subnet = gcp.compute.Subnetwork(
        f"{spec.name}-subnet",
        name=name,
        network=vpc.id,
        region=spec.region,
        ip_cidr_range=cluster.node_cidr,
        secondary_ip_ranges=[
            {"range_name": PODS_RANGE, "ip_cidr_range": cluster.pod_cidr},
            {"range_name": SERVICES_RANGE, "ip_cidr_range": cluster.service_cidr},
        ],
        # Nodes reach Google APIs (GCS, Artifact Registry) over Google's network.
        private_ip_google_access=True,
        opts=scope.opts(),
    )
    firewall = gcp.compute.Firewall(
        f"{spec.name}-deny-remote-access",
        name=f"{name[:50].rstrip('-')}-deny-ssh-rdp",
        network=vpc.id,
        direction="INGRESS",
        priority=DENY_PRIORITY,
        source_ranges=[INTERNET],
        denies=[{"protocol": "tcp", "ports": REMOTE_ACCESS_PORTS}],
        description="No SSH or RDP from the internet (GKE creates the rules it needs itself)",
        opts=scope.opts(),
    )
    nat = build_nat(scope, spec, name, vpc)
    return Network(vpc.id, subnet.id, PODS_RANGE, SERVICES_RANGE, [vpc, subnet, firewall, *nat], private_nodes=True)


def build_nat(scope: Scope, spec: GcpResource, name: str, vpc: gcp.compute.Network) -> list[pulumi.Resource]:
    """The nodes' way out (image pulls from Docker Hub and other registries): a Cloud
    Router and Cloud NAT in the cluster's region. With it the nodes need no external IP,
    which the organisation policy constraints/compute.vmExternalIpAccess often forbids."""
    router = gcp.compute.Router(
        f"{spec.name}-router",
        name=f"{name[:56].rstrip('-')}-router",
        network=vpc.id,
        region=spec.region,
        opts=scope.opts(),
    )
    nat = gcp.compute.RouterNat(
        f"{spec.name}-nat",
        name=f"{name[:59].rstrip('-')}-nat",
        router=router.name,
        region=spec.region,
        nat_ip_allocate_option="AUTO_ONLY",
        # The VPC is ours, with the one subnet: nodes and pods (alias ranges) alike.
        source_subnetwork_ip_ranges_to_nat="ALL_SUBNETWORKS_ALL_IP_RANGES",
        log_config={"enable": True, "filter": "ERRORS_ONLY"},
        opts=scope.opts(),
    )
    return [router, nat]
