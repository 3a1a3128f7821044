"""AKS: the cluster spec of an Azure resource (`cluster`), its node pools, network and
API server access, and the Azure resource itself.

Left out, the network of a created VNet (`addressSpace`, `nodeSubnet`) and the network
policy engine take defaults: the checks here use them as they will be (`vnet`,
`policy_engine`), and config/load.py fills them in once the stack is valid.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Annotated, ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from config.capacity import aks_node_subnet
from config.data import networks, quotas
from config.doc import one_of, shown_default
from config.maintenance import MaintenanceWindow
from config.names import RULES as NAME_RULES
from config.pools import (
    AKS_MAX_DISK_GB,
    NODE_POOLS_RULE,
    POOL_NAME_UNIQUE,
    SYSTEM_POOL_RULE,
    UNIQUE_POOL_NAMES,
    AksSystemPool,
    ClusterSpec,
    NodePoolSpec,
    default_pools,
    kubernetes_version_field,
)
from config.resources import CLUSTER_RULE, ResourceSpec
from config.storage import AzureStorage
from config.types import AksPoolName, Deferrable, Deferred, IPv4Cidr, Strict, fail, first_overlap

AKS_POOL = NAME_RULES["aks_pool"]


class AksNodePool(NodePoolSpec):
    name: AksPoolName = Field(description=f"`^{AKS_POOL.pattern}$`: {AKS_POOL.form}; {POOL_NAME_UNIQUE}")

    @field_validator("disk_size_gb")
    @classmethod
    def _aks_disk(cls, value: int | None) -> int | None:
        # The AKS API's osDiskSizeGB: 0-2048 (containerservice AgentPool); EKS/GKE go higher.
        if value is not None and value > AKS_MAX_DISK_GB:
            raise fail(
                "disk", "{v} GiB is more than AKS allows for a node's OS disk ({max})", v=value, max=AKS_MAX_DISK_GB
            )
        return value


GUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# The ARM ID of a subnet; ARM treats the fixed segments' case as insignificant.
AKS_SUBNET_ID_RE = re.compile(
    r"/subscriptions/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"/resourceGroups/[-\w._()]{0,89}[-\w_()]"
    r"/providers/Microsoft\.Network/virtualNetworks/[A-Za-z0-9][-\w.]{0,62}[\w]"
    r"/subnets/[A-Za-z0-9]([-\w.]{0,78}[\w])?",
    re.IGNORECASE,
)
SUBNET_ID_FORM = "/subscriptions/<subscription GUID>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>"
# kubelogin login modes that need no person at a browser (platform.md 9.4).
KUBELOGIN_MODES = ("azurecli", "workloadidentity", "spn")
# What each data plane can enforce (AKS: Cilium policies need the Cilium data plane, and
# the Cilium data plane enforces only its own).
NETWORK_POLICIES = {"azure": ("azure", "calico"), "cilium": ("cilium",)}
# The data plane and engine of an AKS network left out or given without them: Azure CNI
# powered by Cilium, the engine AKS moves its users to (Azure Network Policy Manager's
# support ends on Linux nodes; "Secure traffic between pods by using network policies in
# AKS", learn.microsoft.com/azure/aks/use-network-policies, read 2026-12-01).
DEFAULT_DATAPLANE: Literal["cilium"] = "cilium"
# The VNet and node subnet the program creates when no existing subnet is given.
AKS_ADDRESS_SPACE = "10.224.0.0/12"
AKS_NODE_SUBNET = "10.224.0.0/16"
# The ranges of an AKS network (a created VNet's, the pods' and the services').
# What an AKS network range may not overlap, besides the ranges that route nowhere.
RESERVED = networks.AZURE_RESERVED + networks.AKS_RESERVED
NETWORK = IPv4Cidr("10.224.0.0/16", reserved=RESERVED)
SERVICE_NETWORK = IPv4Cidr("10.0.0.0/16", reserved=RESERVED, largest=networks.LARGEST_SERVICE_PREFIX)


class ApiServerSpec(Strict):
    """Who can reach the cluster's API server."""

    # Private: the API server has a private IP in the node network; whatever runs
    # `pulumi up` (and kubectl) must then be inside or peered to that network.
    private: bool = Field(
        False,
        description="`true`: the API server has a private address only; `pulumi up` must run inside or peered to "
        "the network",
    )
    # Public API server: only these source ranges (the program's own runner included).
    authorized_ip_ranges: Annotated[list[str], IPv4Cidr("203.0.113.0/24 or 203.0.113.7/32", allow_list=True)] = Field(
        default_factory=list,
        max_length=200,
        description="IPv4 CIDRs allowed to reach the public API server (include where `pulumi up` runs); not with "
        "`private: true`",
    )

    @model_validator(mode="after")
    def _private_or_ranges(self) -> ApiServerSpec:
        if self.private and self.authorized_ip_ranges:
            raise fail(
                "apiServer",
                "authorizedIpRanges apply to a public API server only (AKS rejects them on a private cluster): "
                "remove them, or set private: false",
            )
        return self


class AksNetworkSpec(Strict):
    """The nodes' network: a VNet the program creates, or a subnet that exists already.
    Pods use Azure CNI overlay addresses (podCidr), never the subnet's."""

    address_space: Annotated[str, NETWORK] | None = Field(
        None,
        description="the VNet the program creates (IPv4 CIDR); not with `existingSubnetId`",
        json_schema_extra=shown_default(f"`{AKS_ADDRESS_SPACE}`"),
    )
    node_subnet: Annotated[str, NETWORK] | None = Field(
        None,
        description="the node subnet, inside `addressSpace`: room for every node at `maxCount` and each pool's upgrade "
        "surge (Azure keeps 5 addresses)",
        json_schema_extra=shown_default(f"`{AKS_NODE_SUBNET}`"),
    )
    existing_subnet_id: Deferrable[str] | None = Field(
        None, description=f"an existing subnet's ARM ID, `{SUBNET_ID_FORM}`; not with `addressSpace`/`nodeSubnet`"
    )
    pod_cidr: Annotated[str, NETWORK] = Field(
        "10.244.0.0/16",
        description="the pods' overlay addresses; pod, service and VNet ranges must not overlap",
    )
    service_cidr: Annotated[str, SERVICE_NETWORK] = Field(
        "10.0.0.0/16", description="the services' addresses, at most a /12"
    )
    dns_service_ip: str = Field(
        "10.0.0.10", description="inside `serviceCidr`, not its network, first or broadcast address"
    )
    # Left out: azure for the engines only it runs (azure, calico), else cilium (config/load.py).
    dataplane: Literal["azure", "cilium"] | None = Field(
        None,
        description="the data plane: `azure` or `cilium`",
        json_schema_extra=shown_default(f"`azure` with networkPolicy azure or calico, else `{DEFAULT_DATAPLANE}`"),
    )
    # Left out: the data plane's first engine (config/load.py).
    network_policy: str | None = Field(
        None,
        description="the network policy engine, one the data plane runs: "
        + "; ".join(f"{d}: {one_of(engines)}" for d, engines in NETWORK_POLICIES.items()),
        json_schema_extra=shown_default(", ".join(f"`{e[0]}` on {d}" for d, e in NETWORK_POLICIES.items())),
    )

    @field_validator("existing_subnet_id")
    @classmethod
    def _subnet_id(cls, value: Deferrable[str] | None) -> Deferrable[str] | None:
        if isinstance(value, str) and not AKS_SUBNET_ID_RE.fullmatch(value):
            raise fail("subnet", "'{v}' is not a subnet's ARM ID: use the form {f}", v=value, f=SUBNET_ID_FORM)
        return value

    @field_validator("dns_service_ip")
    @classmethod
    def _dns_ip(cls, value: str) -> str:
        try:
            ipaddress.IPv4Address(value)
        except ValueError:
            raise fail("ip", "'{v}' is not an IPv4 address; e.g. 10.0.0.10", v=value) from None
        return value

    @field_validator("network_policy")
    @classmethod
    def _policy(cls, value: str | None, info: ValidationInfo) -> str | None:
        if "dataplane" not in info.data:
            return value  # reported on dataplane
        dataplane = info.data["dataplane"]
        if dataplane is None:
            return value  # the data plane follows the engine (data_plane)
        supported = NETWORK_POLICIES[dataplane]
        if value is not None and value not in supported:
            raise fail(
                "networkPolicy",
                "'{v}' is not a network policy engine the {d} data plane runs: use {s}",
                v=value,
                d=dataplane,
                s=" or ".join(supported) + (" (or dataplane: cilium for cilium)" if dataplane == "azure" else ""),
            )
        return value

    @model_validator(mode="after")
    def _ranges(self) -> AksNetworkSpec:
        existing = self.existing_subnet_id is not None
        if existing and (self.address_space or self.node_subnet):
            raise fail(
                "network",
                "give either existingSubnetId or addressSpace/nodeSubnet (a VNet the program creates), not both",
            )
        ranges: list[tuple[str, str]] = [("podCidr", self.pod_cidr), ("serviceCidr", self.service_cidr)]
        if self.vnet is not None:
            address_space, node_subnet = self.vnet
            if not ipaddress.IPv4Network(node_subnet).subnet_of(ipaddress.IPv4Network(address_space)):
                raise fail("network", "nodeSubnet {s} is not inside addressSpace {v}", s=node_subnet, v=address_space)
            ranges.append(("addressSpace", address_space))
        overlap = first_overlap(ranges)
        if overlap:
            a, x, b, y = overlap
            raise fail(
                "network",
                "{a} {x} overlaps {b} {y}: pod, service and node (VNet) ranges must not overlap; pick disjoint ranges",
                a=a,
                x=x,
                b=b,
                y=y,
            )
        service, dns = ipaddress.IPv4Network(self.service_cidr), ipaddress.IPv4Address(self.dns_service_ip)
        if dns not in service:
            raise fail(
                "network", "dnsServiceIp {d} is not inside serviceCidr {s}", d=self.dns_service_ip, s=self.service_cidr
            )
        if dns in (service.network_address, service.network_address + 1, service.broadcast_address):
            raise fail(
                "network",
                "dnsServiceIp {d} is a reserved address of serviceCidr {s} (its network, first or broadcast address; "
                "the first goes to the `kubernetes` service): use e.g. {e}",
                d=self.dns_service_ip,
                s=self.service_cidr,
                e=str(service.network_address + 10),
            )
        return self

    @property
    def created(self) -> bool:
        return self.existing_subnet_id is None

    @property
    def vnet(self) -> tuple[str, str] | None:
        """The VNet the program creates and its node subnet, defaults where left out;
        None with an existing subnet."""
        if not self.created:
            return None
        return self.address_space or AKS_ADDRESS_SPACE, self.node_subnet or AKS_NODE_SUBNET

    def policy_engine(self) -> str:
        """The network policy engine: as given, else the data plane's first."""
        return self.network_policy or NETWORK_POLICIES[self.data_plane()][0]

    def data_plane(self) -> Literal["azure", "cilium"]:
        """The data plane: as given, else the one that runs the engine (cilium by default)."""
        if self.dataplane is not None:
            return self.dataplane
        return "azure" if self.network_policy in NETWORK_POLICIES["azure"] else DEFAULT_DATAPLANE


class AksClusterSpec(ClusterSpec):
    provider: ClassVar[str] = "Azure"
    system_pool: AksSystemPool = Field(default_factory=AksSystemPool, description=SYSTEM_POOL_RULE)
    node_pools: Annotated[list[AksNodePool], UNIQUE_POOL_NAMES] = Field(
        default_factory=lambda: default_pools("Azure", AksNodePool), description=NODE_POOLS_RULE
    )
    # Local accounts give a static admin credential; off means Entra ID only (managed Entra
    # integration with Azure RBAC, and admin groups: platform.md 9.4).
    disable_local_accounts: bool = Field(
        False,
        description="`true`: Entra ID only (managed Entra integration with Azure RBAC); requires "
        "`adminGroupObjectIds`; the kubeconfig is a non-interactive kubelogin exec config",
    )
    # Entra ID groups whose members are cluster admins (object IDs); required without local accounts.
    admin_group_object_ids: list[Deferrable[str]] = Field(
        default_factory=list,
        max_length=10,
        description="object IDs (GUIDs) of the Entra ID groups whose members are cluster admins; required with "
        "`disableLocalAccounts: true`; with local accounts on, enables Entra ID for people while the program "
        "keeps the admin credential",
    )
    # How the Entra ID kubeconfig's kubelogin gets a token: never interactively (CI has no browser).
    kubelogin_mode: str = Field(
        "azurecli",
        description=one_of(KUBELOGIN_MODES)
        + " (never `devicecode`/`interactive`: they wait for a browser); only with `disableLocalAccounts: true`",
    )
    kubernetes_version: str = kubernetes_version_field(
        "Azure", "Azure: or a patch of it AKS offers in the region (not checked before deploy: an advisory says so)"
    )
    sku_tier: Literal["Free", "Standard", "Premium"] = Field("Standard", description="the AKS pricing tier")
    # Long-term support: a minor one more year after its community support ends (AKS's
    # long-term-support doc: Premium tier plus this plan).
    support_plan: Literal["KubernetesOfficial", "AKSLongTermSupport"] = Field(
        "KubernetesOfficial",
        description="`AKSLongTermSupport`: AKS long-term support (a minor a year past community support); "
        "requires `skuTier: Premium`",
    )
    # The nodes' network; without it AKS manages one (Azure CNI overlay, Cilium data plane and policy).
    network: AksNetworkSpec | None = Field(
        None,
        description="the nodes' network, see [AKS networks](what-it-creates.md#aks-networks): a VNet the program "
        "creates (`addressSpace`, `nodeSubnet`) or `existingSubnetId`; unset: AKS manages one (Azure CNI overlay "
        "powered by Cilium, which enforces NetworkPolicy)",
        json_schema_extra=shown_default("none (AKS-managed VNet)"),
    )
    api_server: ApiServerSpec | None = Field(
        None, description="who can reach the API server", json_schema_extra=shown_default("public")
    )

    @model_validator(mode="after")
    def _cluster_limits(self) -> AksClusterSpec:
        """AKS's limits across the cluster (config/data/quotas.py): pools, and nodes at max."""
        pools = 1 + len(self.node_pools)  # the system pool too
        if pools > quotas.AKS_MAX_NODE_POOLS:
            raise fail(
                "limit",
                "nodePools: {n} pools with the system pool, more than the {m} AKS allows in a cluster; merge pools",
                n=pools,
                m=quotas.AKS_MAX_NODE_POOLS,
            )
        nodes = self.system_pool.max_count + sum(pool.max_count for pool in self.node_pools)
        if nodes > quotas.AKS_MAX_NODES:
            raise fail(
                "limit",
                "nodePools: the pools' maxCount add up to {n} nodes with the system pool's, more than the {m} AKS "
                "allows in a cluster; lower some maxCount",
                n=nodes,
                m=quotas.AKS_MAX_NODES,
            )
        return self

    @model_validator(mode="after")
    def _node_subnet_size(self) -> AksClusterSpec:
        """The node subnet the program creates holds every node (config/capacity.py)."""
        vnet = self.network.vnet if self.network is not None else None
        if vnet is not None:
            short = aks_node_subnet(vnet[1], [self.system_pool, *self.node_pools])
            if short is not None:
                raise fail("network", short, at="network.nodeSubnet")
        return self

    # AKS's auto-upgrades (patch channel, node images) run only inside this window.
    maintenance: MaintenanceWindow = Field(
        default_factory=MaintenanceWindow,
        description="the weekly window for AKS's Kubernetes patch upgrades and node image upgrades",
    )

    @field_validator("admin_group_object_ids")
    @classmethod
    def _admin_groups(cls, groups: list[Deferrable[str]]) -> list[Deferrable[str]]:
        bad = [g for g in groups if not isinstance(g, Deferred) and not GUID_RE.fullmatch(g)]
        if bad:
            raise fail(
                "guid",
                "must be Entra ID group object IDs (GUIDs like 00000000-0000-0000-0000-000000000000), not {b}",
                b=", ".join(repr(g) for g in bad),
            )
        return groups

    @model_validator(mode="after")
    def _lts_tier(self) -> AksClusterSpec:
        if self.support_plan == "AKSLongTermSupport" and self.sku_tier != "Premium":
            raise fail(
                "lts",
                "AKSLongTermSupport requires skuTier: Premium (AKS rejects the plan on the {t} tier): set "
                "skuTier: Premium, or supportPlan: KubernetesOfficial",
                t=self.sku_tier,
                at="supportPlan",
            )
        return self

    @model_validator(mode="after")
    def _entra_admins(self) -> AksClusterSpec:
        if self.disable_local_accounts and not self.admin_group_object_ids:
            raise fail(
                "entra",
                "adminGroupObjectIds is required with disableLocalAccounts: true: without local accounts only Entra ID "
                "admins reach the cluster; list the object IDs of the Entra ID groups to make cluster admins "
                "(`az ad group show --group <name> --query id`), or set disableLocalAccounts: false",
            )
        return self

    @field_validator("kubelogin_mode")
    @classmethod
    def _kubelogin_mode(cls, value: str, info: ValidationInfo) -> str:
        if value not in KUBELOGIN_MODES:
            why = (
                " waits for a person at a browser, which hangs a CI `pulumi up`;"
                if value in ("devicecode", "interactive")
                else ""
            )
            raise fail(
                "kubelogin",
                "'{v}'{w} use one of {m}",
                v=value,
                w=why or " is not a non-interactive kubelogin login mode:",
                m=", ".join(KUBELOGIN_MODES),
            )
        if not info.data.get("disable_local_accounts"):
            raise fail(
                "kubelogin",
                "has no effect while local accounts are enabled (the kubeconfig is the cluster's admin credential): "
                "remove it, or set disableLocalAccounts: true",
            )
        return value


class AzureResource(ResourceSpec):
    provider_name: ClassVar[str] = "Azure"
    ENFORCES_NETWORK_POLICY: ClassVar[bool] = True  # a policy engine on every AKS network (AksNetworkSpec)
    provider: Literal["Azure"]
    storage: AzureStorage = Field(default_factory=AzureStorage)
    cluster: AksClusterSpec = Field(default_factory=AksClusterSpec, description=CLUSTER_RULE)
