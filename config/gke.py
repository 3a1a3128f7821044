"""GKE: the cluster spec of a GCP resource (`cluster`): its node pools and zones, the
network (created or existing) and its ranges, and the GCP resource itself.

Left out, a created network's ranges take the GKE_* defaults: the checks use them as they
will be (`GkeClusterSpec.ranges`), and config/load.py fills them in once the stack is valid.
"""

from __future__ import annotations

import re
from typing import Annotated, ClassVar, Literal

from annotated_types import MinLen
from pydantic import AfterValidator, Field, StringConstraints, ValidationError, model_validator

from config.capacity import gke_ranges
from config.data import networks
from config.data.subnets import GKE_SMALLEST_SERVICE_PREFIX
from config.data.zones import GCP_PROJECT_RESTRICTED, GCP_ZONE_LETTERS
from config.doc import shown_default
from config.names import RULES as NAME_RULES
from config.pools import (
    NODE_POOLS_RULE,
    POOL_NAME_PATTERN,
    POOL_NAME_UNIQUE,
    SYSTEM_POOL_RULE,
    UNIQUE_POOL_NAMES,
    ClusterSpec,
    GkeSystemPool,
    NodePoolSpec,
    default_pools,
    kubernetes_version_field,
)
from config.resources import CLUSTER_RULE, ResourceSpec
from config.storage import GcpStorage
from config.types import Deferrable, IPv4Cidr, Unique, detail, fail, first_overlap


class GkeNodePool(NodePoolSpec):
    # The pool's zones (GKE nodeLocations), all in the resource's region; by default the
    # pool spans the cluster's zones. GPU pools: only zones that offer the GPU type
    # (docs/what-it-creates.md, GKE GPU zones), or the pool fails to scale there.
    name: str = Field(pattern=POOL_NAME_PATTERN, description=f"{NAME_RULES['gke_pool'].form}; {POOL_NAME_UNIQUE}")
    zones: Annotated[list[str], MinLen(1), Unique("zone", "zones must be unique")] | None = Field(
        None,
        description="the pool's zones (nodeLocations), each `<region>-<letter>`, each once. GPU pools: zones that "
        "offer the GPU",
        json_schema_extra=shown_default("the cluster's"),
    )


# GKE address ranges when the program creates the network: RFC 1918, apart from the EKS
# default VPC (10.0.0.0/16) and the AKS overlay defaults (10.244.0.0/16, 10.0.0.0/16),
# so that the defaults can be peered. Pods /14: GKE's default for 110 pods per node.
GKE_NODE_CIDR = "10.10.0.0/20"
GKE_POD_CIDR = "10.12.0.0/14"
GKE_SERVICE_CIDR = "10.16.0.0/20"
RANGE = IPv4Cidr("10.0.0.0/16")
SERVICE_RANGE = IPv4Cidr(
    "10.16.0.0/20",
    largest=networks.LARGEST_SERVICE_PREFIX,
    smallest=(GKE_SMALLEST_SERVICE_PREFIX, "Service range GKE takes (config/data/subnets.py)"),
)
GKE_NETWORK_NAME = r"^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$"
GKE_RANGE_RULE = (
    "an IPv4 network not overlapping the other two: a range of the network the program creates (nodes and pods: "
    "room for every pool at `maxCount` and a surge node each, a /24 of pods per node); with an existing `network` "
    "optional, only for the `peeredWith` check"
)
# An existing network or subnet by name or by path (projects/<p>/global/networks/<n>).
GKE_NETWORK_REF = r"^(projects/[a-z][a-z0-9-]{4,28}[a-z0-9]/(global|regions/[a-z0-9-]+)/(networks|subnetworks)/)?[a-z]([-a-z0-9]{0,61}[a-z0-9])?$"


class GkeClusterSpec(ClusterSpec):
    """Without `network`, the program creates a VPC, a subnet (nodes) with secondary ranges
    (pods, services) and a firewall rule; with it, the cluster joins that subnet."""

    provider: ClassVar[str] = "GCP"
    system_pool: GkeSystemPool = Field(default_factory=GkeSystemPool, description=SYSTEM_POOL_RULE)
    node_pools: Annotated[list[GkeNodePool], UNIQUE_POOL_NAMES] = Field(
        default_factory=lambda: default_pools("GCP", GkeNodePool), description=NODE_POOLS_RULE
    )
    kubernetes_version: str = kubernetes_version_field(
        "GCP",
        "GCP: the minimum version; the release channel upgrades the cluster (and its pools) past it; a patch of it "
        "GKE offers is not checked before deploy (an advisory says so)",
    )
    # EXTENDED: the channel that keeps a minor past GKE standard support (extended support).
    release_channel: Literal["RAPID", "REGULAR", "STABLE", "EXTENDED"] = Field(
        "REGULAR", description="`EXTENDED` keeps a minor after its standard support ends (GKE extended support)"
    )
    network: str | None = Field(
        None,
        pattern=GKE_NETWORK_REF,
        description="an existing VPC (name or `projects/<p>/global/networks/<n>`); then `subnetwork`, "
        "`podsRangeName` and `servicesRangeName` are required. Unset: the program creates the VPC, subnet and "
        "firewall rule ([GKE networking](what-it-creates.md#gke-networking))",
        json_schema_extra=shown_default("created"),
    )
    subnetwork: Deferrable[Annotated[str, StringConstraints(pattern=GKE_NETWORK_REF)]] | None = Field(
        None, description="the existing subnet in the resource's region; only with `network`"
    )
    pods_range_name: Deferrable[Annotated[str, StringConstraints(pattern=GKE_NETWORK_NAME)]] | None = Field(
        None, description="its secondary range for pods; only with `network`"
    )
    services_range_name: Deferrable[Annotated[str, StringConstraints(pattern=GKE_NETWORK_NAME)]] | None = Field(
        None, description="its secondary range for services; only with `network`"
    )
    # The ranges of a created network (left out: the GKE_* defaults, config/load.py); with an
    # existing one, optional: only for the peering check (`peeredWith`).
    node_cidr: Annotated[str, RANGE] | None = Field(
        None, description=GKE_RANGE_RULE, json_schema_extra=shown_default(f"`{GKE_NODE_CIDR}`")
    )
    pod_cidr: Annotated[str, RANGE] | None = Field(
        None, description=GKE_RANGE_RULE, json_schema_extra=shown_default(f"`{GKE_POD_CIDR}`")
    )
    service_cidr: Annotated[str, SERVICE_RANGE] | None = Field(
        None,
        description=GKE_RANGE_RULE + f"; a /{GKE_SMALLEST_SERVICE_PREFIX} or larger",
        json_schema_extra=shown_default(f"`{GKE_SERVICE_CIDR}`"),
    )

    @model_validator(mode="after")
    def _network(self) -> GkeClusterSpec:
        existing = {
            "subnetwork": self.subnetwork,
            "podsRangeName": self.pods_range_name,
            "servicesRangeName": self.services_range_name,
        }
        if self.network is None:
            given = [k for k, v in existing.items() if v is not None]
            if given:
                raise fail(
                    "network", "{k} only go with an existing `network`: set it too, or remove them", k=", ".join(given)
                )
        else:
            missing = [k for k, v in existing.items() if v is None]
            if missing:
                raise fail(
                    "network",
                    "an existing network needs {m}: the subnet in the resource's region and the names of its "
                    "secondary ranges for pods and services (a VPC-native cluster)",
                    m=", ".join(missing),
                )
        if self.network is None:
            # A network the program creates: its ranges must hold the pools (config/capacity.py).
            ranges = self.ranges()
            short = gke_ranges(ranges["nodeCidr"], ranges["podCidr"], [self.system_pool, *self.node_pools])
            if short is not None:
                raise fail("cidr", short[1], at=short[0])
        overlap = first_overlap(list(self.ranges().items()))
        if overlap:
            a, x, b, y = overlap
            raise fail(
                "cidr", "{a} {x} overlaps {b} {y}: nodes, pods and services need distinct ranges", a=a, x=x, b=b, y=y
            )
        return self

    def ranges(self) -> dict[str, str]:
        """nodeCidr, podCidr, serviceCidr -> network: as given, the defaults for a network
        the program creates; with an existing network only those given."""
        created = self.network is None
        given = {
            "nodeCidr": self.node_cidr or (GKE_NODE_CIDR if created else None),
            "podCidr": self.pod_cidr or (GKE_POD_CIDR if created else None),
            "serviceCidr": self.service_cidr or (GKE_SERVICE_CIDR if created else None),
        }
        return {k: v for k, v in given.items() if v}


def _project_restricted(value: str) -> str:
    # Google refuses a project ID containing these (config/data/zones.py).
    found = [word for word in GCP_PROJECT_RESTRICTED if word in value]
    if found:
        raise fail(
            "project",
            "'{v}' contains {w}, which Google does not allow in a project ID ({all}): use the ID of an "
            "existing project",
            v=value,
            w=" and ".join(repr(word) for word in found),
            all=", ".join(GCP_PROJECT_RESTRICTED),
        )
    return value


class GcpResource(ResourceSpec):
    provider_name: ClassVar[str] = "GCP"
    provider: Literal["GCP"]
    # Only the project's ID, which may be another resource's output (a project the consumer
    # creates); the names the program builds in it derive from the resource's name. Its rules sit
    # inside the type, so that a value known only at deploy time gets them too (config.deferred).
    project: Deferrable[
        Annotated[
            str,
            StringConstraints(pattern=r"^[a-z][a-z0-9-]{4,28}[a-z0-9]$"),
            AfterValidator(_project_restricted),
        ]
    ] = Field(
        description="the GCP project ID the cluster and bucket live in (never containing "
        + ", ".join(GCP_PROJECT_RESTRICTED)
        + ", which Google refuses)",
    )
    storage: GcpStorage = Field(default_factory=GcpStorage)
    cluster: GkeClusterSpec = Field(default_factory=GkeClusterSpec, description=CLUSTER_RULE)
    # Enable the project's APIs the resource uses (GCP_APIS); off: they must be enabled already.
    enable_apis: bool = Field(
        False,
        description="enable the project APIs the resource uses (never disabled on destroy); `false`: they must be "
        "enabled already",
    )

    @model_validator(mode="after")
    def _zones(self) -> GcpResource:
        letters = GCP_ZONE_LETTERS.get(self.region)
        zones = [f"{self.region}-{letter}" for letter in letters] if letters else None
        form = re.compile(re.escape(self.region) + r"-[a-z]")
        named = ", ".join(zones) if zones else f"{self.region}-a, -b, ..."
        problems = [
            detail(
                ("cluster", "nodePools", k, "zones", z),
                "zone",
                f"'{name}' is not a zone of {self.region}: use {named}",
            )
            for k, pool in enumerate(self.cluster.node_pools)
            for z, name in enumerate(pool.zones or [])
            if not form.fullmatch(name) or (zones is not None and name not in zones)
        ]
        if problems:
            raise ValidationError.from_exception_data(type(self).__name__, problems)
        return self
