"""AKS access and networks: Entra-only clusters with a non-interactive
kubelogin, the nodes' network (created or existing), the API server's exposure, storage
reachability from the node subnet, and the policies for them."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
import yaml

from components.azure.cluster import noninteractive_kubeconfig
from config import SpecError, load_spec
from preflight.runtime import Plan
from tests.conftest import stack_values
from tests.example_spec import entra_only_pair
from tests.plans import recorded, recorded_raw
from tests.policy.helpers import validate

SUBNET_ID = (
    "/subscriptions/0b1f6471-1bf0-4dda-aec3-111122223333/resourceGroups/rg-hub"
    "/providers/Microsoft.Network/virtualNetworks/vnet-hub/subnets/aks-nodes"
)
# The same subnet in another subscription.
OTHER_SUBNET_ID = SUBNET_ID.replace("0b1f6471-1bf0-4dda-aec3-111122223333", "5c2e8d41-9a7b-4c3d-8e2f-444455556666")
GROUP = "8f3b5a9e-7c21-4d0e-9a6b-0c1d2e3f4a5b"
NETWORK_CONTRIBUTOR = (
    "/subscriptions/${azure.subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/"
    "4d97b98b-1d4f-4787-a291-c67834d212e7"
)
AKS_SERVER_APP = "6dae42f8-4368-4678-94ff-3960e28e3630"
# The user kubeconfig AKS answers for format=exec (az aks get-credentials --format exec).
AKS_EXEC_KUBECONFIG = """apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTi==
    server: https://ml-default-1a2b3c4d.hcp.eastus2.azmk8s.io:443
  name: aks-ml-default
contexts:
- context:
    cluster: aks-ml-default
    user: clusterUser_rg-ml_aks-ml-default
  name: aks-ml-default
current-context: aks-ml-default
kind: Config
preferences: {}
users:
- name: clusterUser_rg-ml_aks-ml-default
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      args:
      - get-token
      - --environment
      - AzurePublicCloud
      - --server-id
      - 6dae42f8-4368-4678-94ff-3960e28e3630
      - --client-id
      - 80faf920-1908-4b52-b5ef-a8e7bedfc67a
      - --tenant-id
      - 72f988bf-86f1-41af-91ab-2d7cd011db47
      - --login
      - devicecode
      command: kubelogin
      env: null
      provideClusterInfo: false
"""


def values_with(cluster: dict[str, Any], storage: dict[str, Any] | None = None) -> dict[str, Any]:
    values = stack_values("dev")
    primary = values["anyscale-cloud:resources"][0]
    primary["cluster"] = cluster
    if storage is not None:
        primary["storage"] = storage
    return values


def problems(cluster: dict[str, Any]) -> list[str]:
    values = values_with(cluster)
    with pytest.raises(SpecError) as error:
        load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"])
    return [str(p) for p in error.value.problems]


def accepted(cluster: dict[str, Any]) -> Any:
    values = values_with(cluster)
    return load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"]).resources[0].cluster


def inputs(plan: Plan, name: str) -> dict[str, Any]:
    return plan.named(name)["inputs"]


# --- spec: Entra ID and kubelogin ------------------------------------------------------------


def test_local_accounts_off_needs_admin_groups() -> None:
    assert problems({"disableLocalAccounts": True}) == [
        "resources[0].cluster (default): adminGroupObjectIds is required with disableLocalAccounts: true: without "
        "local accounts only Entra ID admins reach the cluster; list the object IDs of the Entra ID groups to make "
        "cluster admins (`az ad group show --group <name> --query id`), or set disableLocalAccounts: false"
    ]


def test_admin_groups_are_guids() -> None:
    assert problems({"disableLocalAccounts": True, "adminGroupObjectIds": [GROUP, "platform-admins"]}) == [
        "resources[0].cluster.adminGroupObjectIds (default): must be Entra ID group object IDs (GUIDs like "
        "00000000-0000-0000-0000-000000000000), not 'platform-admins'"
    ]


def test_kubelogin_never_devicecode() -> None:
    base = {"disableLocalAccounts": True, "adminGroupObjectIds": [GROUP]}
    assert problems({**base, "kubeloginMode": "devicecode"}) == [
        "resources[0].cluster.kubeloginMode (default): 'devicecode' waits for a person at a browser, which hangs a CI "
        "`pulumi up`; use one of azurecli, workloadidentity, spn"
    ]
    assert problems({**base, "kubeloginMode": "msal"}) == [
        "resources[0].cluster.kubeloginMode (default): 'msal' is not a non-interactive kubelogin login mode: use one "
        "of azurecli, workloadidentity, spn"
    ]
    assert accepted(base).kubelogin_mode == "azurecli"
    assert accepted({**base, "kubeloginMode": "workloadidentity"}).kubelogin_mode == "workloadidentity"


def test_kubelogin_mode_without_entra_only_has_no_effect() -> None:
    assert problems({"kubeloginMode": "spn"}) == [
        "resources[0].cluster.kubeloginMode (default): has no effect while local accounts are enabled (the kubeconfig "
        "is the cluster's admin credential): remove it, or set disableLocalAccounts: true"
    ]


# --- spec: networks ----------------------------------------------------------------------------


def test_created_network_defaults() -> None:
    net = accepted({"network": {}}).network
    assert (net.address_space, net.node_subnet, net.existing_subnet_id) == ("10.224.0.0/12", "10.224.0.0/16", None)
    assert (net.pod_cidr, net.service_cidr, net.dns_service_ip) == ("10.244.0.0/16", "10.0.0.0/16", "10.0.0.10")
    # Left out: Azure CNI powered by Cilium, which enforces NetworkPolicy.
    assert (net.dataplane, net.network_policy) == ("cilium", "cilium")
    assert accepted({"network": {"dataplane": "azure"}}).network.network_policy == "azure"
    calico = accepted({"network": {"networkPolicy": "calico"}}).network
    assert (calico.dataplane, calico.network_policy) == ("azure", "calico")
    assert accepted({"network": {"networkPolicy": "cilium"}}).network.dataplane == "cilium"


def test_existing_subnet_id_form() -> None:
    net = accepted({"network": {"existingSubnetId": SUBNET_ID}}).network
    assert (net.existing_subnet_id, net.address_space, net.node_subnet) == (SUBNET_ID, None, None)
    # ARM IDs ignore the case of their fixed segments (the portal shows resourcegroups).
    assert accepted({"network": {"existingSubnetId": SUBNET_ID.replace("resourceGroups", "resourcegroups")}}).network
    for bad in [
        SUBNET_ID.replace("0b1f6471-1bf0-4dda-aec3-111122223333", "my-subscription"),
        SUBNET_ID.rsplit("/subnets/", 1)[0],  # the VNet, not a subnet
        SUBNET_ID + "/",
        SUBNET_ID + "/extra",
    ]:
        assert problems({"network": {"existingSubnetId": bad}}) == [
            f"resources[0].cluster.network.existingSubnetId (default): {bad!r} is not a subnet's ARM ID: use the form "
            "/subscriptions/<subscription GUID>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>"
            "/subnets/<subnet>"
        ]
    # A trailing newline (fullmatch, platform.md 9.3) is caught before the form.
    assert problems({"network": {"existingSubnetId": SUBNET_ID + "\n"}}) == [
        "resources[0].cluster.network.existingSubnetId (default): contains the control or format character U+000A; remove it"
    ]


def test_existing_subnet_or_created_vnet_not_both() -> None:
    assert problems({"network": {"existingSubnetId": SUBNET_ID, "nodeSubnet": "10.1.0.0/24"}}) == [
        "resources[0].cluster.network (default): give either existingSubnetId or addressSpace/nodeSubnet (a VNet the "
        "program creates), not both"
    ]


def test_node_subnet_inside_address_space() -> None:
    assert problems({"network": {"addressSpace": "10.10.0.0/16", "nodeSubnet": "10.11.0.0/24"}}) == [
        "resources[0].cluster.network (default): nodeSubnet 10.11.0.0/24 is not inside addressSpace 10.10.0.0/16"
    ]


@pytest.mark.parametrize(
    ("network", "message"),
    [
        ({"podCidr": "10.0.128.0/17"}, "podCidr 10.0.128.0/17 overlaps serviceCidr 10.0.0.0/16"),
        ({"podCidr": "10.224.5.0/24"}, "podCidr 10.224.5.0/24 overlaps addressSpace 10.224.0.0/12"),
        (
            {"addressSpace": "10.0.0.0/8", "nodeSubnet": "10.1.0.0/24", "podCidr": "192.168.0.0/16"},
            "serviceCidr 10.0.0.0/16 overlaps addressSpace 10.0.0.0/8",
        ),
    ],
)
def test_ranges_do_not_overlap(network: dict[str, Any], message: str) -> None:
    assert problems({"network": network}) == [
        f"resources[0].cluster.network (default): {message}: pod, service and node (VNet) ranges must not overlap; "
        "pick disjoint ranges"
    ]


def test_pod_and_service_ranges_checked_against_each_other_with_an_existing_subnet() -> None:
    assert problems(
        {"network": {"existingSubnetId": SUBNET_ID, "serviceCidr": "10.244.0.0/20", "dnsServiceIp": "10.244.0.10"}}
    ) == [
        "resources[0].cluster.network (default): podCidr 10.244.0.0/16 overlaps serviceCidr 10.244.0.0/20: pod, "
        "service and node (VNet) ranges must not overlap; pick disjoint ranges"
    ]


def test_cidrs_are_networks() -> None:
    assert problems({"network": {"serviceCidr": "10.0.0.1/16"}}) == [
        "resources[0].cluster.network.serviceCidr (default): '10.0.0.1/16' is not an IPv4 network (10.0.0.1/16 has host "
        "bits set); e.g. 10.0.0.0/16"
    ]


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        # Notations Python reads as networks and the clouds' APIs do not.
        (
            "podCidr",
            "10.244.0.0/255.255.0.0",
            "'10.244.0.0/255.255.0.0' is not an IPv4 network (write it as address/prefix length, e.g. 10.0.0.0/16); e.g. 10.224.0.0/16",
        ),
        (
            "podCidr",
            "10.244.0.1",
            "'10.244.0.1' is not an IPv4 network (write it as address/prefix length, e.g. 10.0.0.0/16); e.g. 10.224.0.0/16",
        ),
        (
            "podCidr",
            "10.244.0.0/0.0.255.255",
            "'10.244.0.0/0.0.255.255' is not an IPv4 network (write it as address/prefix length, e.g. 10.0.0.0/16); e.g. 10.224.0.0/16",
        ),
        # Ranges that route nowhere, and those Azure and AKS keep.
        (
            "podCidr",
            "224.0.0.0/16",
            "'224.0.0.0/16' overlaps 224.0.0.0/4, multicast (IANA special-purpose registry): use a range such as 10.224.0.0/16",
        ),
        (
            "podCidr",
            "127.0.0.0/16",
            "'127.0.0.0/16' overlaps 127.0.0.0/8, loopback (IANA special-purpose registry): use a range such as 10.224.0.0/16",
        ),
        (
            "podCidr",
            "169.254.0.0/16",
            "'169.254.0.0/16' overlaps 169.254.0.0/16, link-local (IANA special-purpose registry): use a range such as 10.224.0.0/16",
        ),
        (
            "podCidr",
            "240.0.0.0/12",
            "'240.0.0.0/12' overlaps 240.0.0.0/4, reserved (class E) (IANA special-purpose registry): use a range such as 10.224.0.0/16",
        ),
        (
            "podCidr",
            "168.0.0.0/8",
            "'168.0.0.0/8' overlaps 168.63.129.16/32, Azure's platform DNS and health endpoint (Azure Virtual Network FAQ): use a range such as 10.224.0.0/16",
        ),
        (
            "podCidr",
            "172.30.0.0/16",
            "'172.30.0.0/16' overlaps 172.30.0.0/16, reserved by AKS (AKS IP address planning): use a range such as 10.224.0.0/16",
        ),
        (
            "serviceCidr",
            "192.0.2.0/24",
            "'192.0.2.0/24' overlaps 192.0.2.0/24, reserved by AKS (AKS IP address planning): use a range such as 10.0.0.0/16",
        ),
        # A service range past /12 (kube-apiserver refuses it).
        (
            "serviceCidr",
            "10.0.0.0/11",
            "'10.0.0.0/11' is larger than a /12, the largest service range Kubernetes takes: use a /12 or smaller",
        ),
    ],
)
def test_network_ranges_the_clouds_refuse_are_refused(key: str, value: str, expected: str) -> None:
    found = [p for p in problems({"network": {key: value}}) if f"network.{key} " in p]
    assert found == [f"resources[0].cluster.network.{key} (default): {expected}"]


def test_unusual_valid_ranges_are_still_taken() -> None:
    # Shared address space (RFC 6598) for pods and a /12 service range are valid.
    network = accepted(
        {"network": {"podCidr": "100.64.0.0/16", "serviceCidr": "10.16.0.0/12", "dnsServiceIp": "10.16.0.10"}}
    ).network
    assert (network.pod_cidr, network.service_cidr) == ("100.64.0.0/16", "10.16.0.0/12")


def test_api_server_ranges_may_be_the_whole_internet_but_not_a_range_that_routes_nowhere() -> None:
    assert accepted({"apiServer": {"authorizedIpRanges": ["0.0.0.0/0"]}}).api_server.authorized_ip_ranges == [
        "0.0.0.0/0"
    ]
    assert problems({"apiServer": {"authorizedIpRanges": ["127.0.0.1/32"]}}) == [
        "resources[0].cluster.apiServer.authorizedIpRanges (default): '127.0.0.1/32' is inside 127.0.0.0/8, "
        "loopback (IANA special-purpose registry): use a range such as 203.0.113.0/24 or 203.0.113.7/32"
    ]


def test_dns_service_ip() -> None:
    assert problems({"network": {"dnsServiceIp": "10.1.0.10"}}) == [
        "resources[0].cluster.network (default): dnsServiceIp 10.1.0.10 is not inside serviceCidr 10.0.0.0/16"
    ]
    for reserved in ("10.0.0.0", "10.0.0.1", "10.0.255.255"):
        assert problems({"network": {"dnsServiceIp": reserved}}) == [
            f"resources[0].cluster.network (default): dnsServiceIp {reserved} is a reserved address of serviceCidr "
            "10.0.0.0/16 (its network, first or broadcast address; the first goes to the `kubernetes` service): use "
            "e.g. 10.0.0.10"
        ]
    assert problems({"network": {"dnsServiceIp": "10.0.0.300"}}) == [
        "resources[0].cluster.network.dnsServiceIp (default): '10.0.0.300' is not an IPv4 address; e.g. 10.0.0.10"
    ]


def test_network_policy_matches_the_dataplane() -> None:
    assert problems({"network": {"dataplane": "azure", "networkPolicy": "cilium"}}) == [
        "resources[0].cluster.network.networkPolicy (default): 'cilium' is not a network policy engine the azure data "
        "plane runs: use azure or calico (or dataplane: cilium for cilium)"
    ]
    assert problems({"network": {"dataplane": "cilium", "networkPolicy": "calico"}}) == [
        "resources[0].cluster.network.networkPolicy (default): 'calico' is not a network policy engine the cilium data "
        "plane runs: use cilium"
    ]


def test_api_server() -> None:
    assert problems({"apiServer": {"private": True, "authorizedIpRanges": ["203.0.113.0/24"]}}) == [
        "resources[0].cluster.apiServer (default): authorizedIpRanges apply to a public API server only (AKS rejects "
        "them on a private cluster): remove them, or set private: false"
    ]
    assert problems({"apiServer": {"authorizedIpRanges": ["203.0.113.7/24"]}}) == [
        "resources[0].cluster.apiServer.authorizedIpRanges (default): '203.0.113.7/24' is not an IPv4 network "
        "(203.0.113.7/24 has host bits set); e.g. 203.0.113.0/24 or 203.0.113.7/32"
    ]


# --- the plan: default, created network, existing subnet ------------------------------------------


@pytest.fixture(scope="module")
def default_plan() -> Plan:
    return recorded("dev", stack_values("dev"))  # the dev stack's own recording (dev_plan): shared


def test_default_plan_has_no_network_of_its_own(default_plan: Plan) -> None:
    aks = inputs(default_plan, "default-aks")
    # AKS manages the VNet; the data plane and engine are Cilium's, so NetworkPolicy is enforced.
    assert aks["networkProfile"] == {
        "networkPlugin": "azure",
        "networkPluginMode": "overlay",
        "loadBalancerSku": "standard",
        "networkDataplane": "cilium",
        "networkPolicy": "cilium",
    }
    assert "aadProfile" not in aks and "apiServerAccessProfile" not in aks
    assert "vnetSubnetID" not in aks["agentPoolProfiles"][0]
    assert "vnetSubnetID" not in inputs(default_plan, "default-pool-cpu")
    assert "networkRuleSet" not in inputs(default_plan, "default-storage")
    assert not default_plan.of_type("azure-native:network:VirtualNetwork")
    assert not default_plan.of_type("azure-native:network:Subnet")
    assert "default-cluster-network" not in {r["name"] for r in default_plan.resources}


@pytest.fixture(scope="module")
def created_plan() -> Plan:
    # Entra ID admin groups too (with local accounts on), which only
    # test_admin_groups_with_local_accounts_on asserts on: the network's tests read no aadProfile.
    return recorded(
        "test",
        values_with(
            {
                "adminGroupObjectIds": [GROUP],
                "network": {
                    "addressSpace": "10.40.0.0/16",
                    "nodeSubnet": "10.40.0.0/20",
                    "podCidr": "192.168.0.0/16",
                    "serviceCidr": "172.16.0.0/16",
                    "dnsServiceIp": "172.16.0.10",
                    "networkPolicy": "calico",
                },
                "apiServer": {"authorizedIpRanges": ["203.0.113.0/24", "198.51.100.7/32"]},
            }
        ),
    )


def test_created_network_exact(created_plan: Plan) -> None:
    assert inputs(created_plan, "default-vnet") == {
        "virtualNetworkName": "vnet-ml-platform-dev-default",
        "resourceGroupName": "rg-ml-platform-dev",
        "location": "eastus2",
        "addressSpace": {"addressPrefixes": ["10.40.0.0/16"]},
        "tags": {},
        # SDK defaults the provider sends anyway
        "enableDdosProtection": False,
        "enableVmProtection": False,
    }
    assert inputs(created_plan, "default-nodes") == {
        "subnetName": "nodes",
        "virtualNetworkName": "${default-vnet.name}",
        "resourceGroupName": "rg-ml-platform-dev",
        "addressPrefix": "10.40.0.0/20",
        "serviceEndpoints": [{"service": "Microsoft.Storage"}],
        "privateEndpointNetworkPolicies": "Disabled",
        "privateLinkServiceNetworkPolicies": "Enabled",
    }


def test_created_network_wiring(created_plan: Plan) -> None:
    aks = inputs(created_plan, "default-aks")
    assert aks["networkProfile"] == {
        "networkPlugin": "azure",
        "networkPluginMode": "overlay",
        "loadBalancerSku": "standard",
        "networkDataplane": "azure",
        "networkPolicy": "calico",
        "podCidr": "192.168.0.0/16",
        "serviceCidr": "172.16.0.0/16",
        "dnsServiceIP": "172.16.0.10",
    }
    assert aks["agentPoolProfiles"][0]["vnetSubnetID"] == "${default-nodes.id}"
    for pool in created_plan.of_type("azure-native:containerservice:AgentPool"):
        assert pool["inputs"]["vnetSubnetID"] == "${default-nodes.id}", pool["name"]
    assert aks["apiServerAccessProfile"] == {"authorizedIPRanges": ["203.0.113.0/24", "198.51.100.7/32"]}
    assert created_plan.named("default-nodes")["urn"] in created_plan.named("default-aks")["dependsOn"]


def test_cluster_identity_is_network_contributor_on_the_created_subnet_only(created_plan: Plan) -> None:
    assert inputs(created_plan, "default-cluster-network") == {
        "principalId": "${default-aks.identity.principalId}",
        "principalType": "ServicePrincipal",
        "roleDefinitionId": NETWORK_CONTRIBUTOR,
        "scope": "${default-nodes.id}",
    }
    # The registration waits for it, like for every other grant the cluster needs.
    assert (
        created_plan.named("default-cluster-network")["urn"] in created_plan.named("default-registration")["dependsOn"]
    )


def test_a_grant_on_a_subnet_in_another_subscription_names_that_subscription(existing_plan: Plan) -> None:
    plan = existing_plan  # its second Azure resource, `othersub`
    grant = inputs(plan, "othersub-cluster-network")
    assert grant["scope"] == OTHER_SUBNET_ID
    assert grant["roleDefinitionId"] == (
        "/subscriptions/5c2e8d41-9a7b-4c3d-8e2f-444455556666/providers/Microsoft.Authorization/roleDefinitions/"
        "4d97b98b-1d4f-4787-a291-c67834d212e7"
    )
    # Grants on what the program creates stay in the provider's subscription.
    registry_grant = next(
        r
        for r in plan.of_type("azure-native:authorization:RoleAssignment")
        if r["name"].startswith("othersub-") and r["name"].endswith("acrpull")
    )
    assert registry_grant["inputs"]["roleDefinitionId"].startswith("/subscriptions/${azure.subscriptionId}/")


def test_storage_admits_the_created_subnet_and_stays_open_to_the_console(created_plan: Plan) -> None:
    assert inputs(created_plan, "default-storage")["networkRuleSet"] == {
        "defaultAction": "Allow",
        "bypass": "AzureServices",
        "virtualNetworkRules": [{"virtualNetworkResourceId": "${default-nodes.id}", "action": "Allow"}],
    }


def test_no_storage_rule_for_a_bucket_in_another_region() -> None:
    plan = recorded("test", values_with({"network": {}}, storage={"region": "westus3"}))
    assert "networkRuleSet" not in inputs(plan, "default-storage")
    assert inputs(plan, "default-nodes")["serviceEndpoints"] == [{"service": "Microsoft.Storage"}]


@pytest.fixture(scope="module")
def existing_plan() -> Plan:
    """The primary on an existing subnet; a second Azure resource, `othersub`, on a subnet in
    another subscription (test_a_grant_on_a_subnet_in_another_subscription_names_that_subscription
    asserts on it): neither creates a network, so what this plan has of none holds for both."""
    values = values_with(
        {"network": {"existingSubnetId": SUBNET_ID, "dataplane": "cilium"}, "apiServer": {"private": True}}
    )
    values["anyscale-cloud:resources"].append(
        {
            "name": "othersub",
            "provider": "Azure",
            "region": "eastus2",
            "cluster": {"network": {"existingSubnetId": OTHER_SUBNET_ID}},
        }
    )
    return recorded("test", values)


def test_existing_subnet_exact(existing_plan: Plan) -> None:
    assert not existing_plan.of_type("azure-native:network:VirtualNetwork")
    assert not existing_plan.of_type("azure-native:network:Subnet")
    aks = inputs(existing_plan, "default-aks")
    assert aks["agentPoolProfiles"][0]["vnetSubnetID"] == SUBNET_ID
    assert inputs(existing_plan, "default-pool-cpuspot")["vnetSubnetID"] == SUBNET_ID
    assert aks["networkProfile"] == {
        "networkPlugin": "azure",
        "networkPluginMode": "overlay",
        "loadBalancerSku": "standard",
        "networkDataplane": "cilium",
        "networkPolicy": "cilium",
        "podCidr": "10.244.0.0/16",
        "serviceCidr": "10.0.0.0/16",
        "dnsServiceIP": "10.0.0.10",
    }
    assert aks["apiServerAccessProfile"] == {"enablePrivateCluster": True}
    assert inputs(existing_plan, "default-cluster-network") == {
        "principalId": "${default-aks.identity.principalId}",
        "principalType": "ServicePrincipal",
        # Named in the subnet's subscription, not the deployer's (ARM rewrites it to the scope's).
        "roleDefinitionId": "/subscriptions/0b1f6471-1bf0-4dda-aec3-111122223333/providers/Microsoft.Authorization"
        "/roleDefinitions/4d97b98b-1d4f-4787-a291-c67834d212e7",
        "scope": SUBNET_ID,
    }
    # Its owner decides on its service endpoints: no rule the subnet may not satisfy.
    assert "networkRuleSet" not in inputs(existing_plan, "default-storage")


# --- the plan: Entra ID only, and the kubeconfig the program uses ------------------------------------


@pytest.fixture(scope="module")
def kubeconfigs_sent() -> tuple[Plan, dict[str, dict[str, Any]]]:
    """The program on two Entra-only AKS resources, the primary with the default kubelogin mode
    (azurecli) and `spn` with kubeloginMode: spn; return the plan and the (secret) kubeconfig
    each one's Kubernetes provider got, by resource: the clear inputs of the recording
    (tests/raw_inputs.py), shared with test_cluster_values.py, which runs the same stack."""
    raw = recorded_raw("test", entra_only_pair(GROUP))
    providers = sorted(r["name"] for r in raw.plan.of_type("pulumi:providers:kubernetes"))
    assert providers == ["default-k8s", "spn-k8s"]  # registered in either order
    sent = {name.removesuffix("-k8s"): raw.inputs[name]["kubeconfig"] for name in providers}
    return raw.plan, {owner: yaml.safe_load(kubeconfig) for owner, kubeconfig in sent.items()}


def test_entra_only_cluster_and_azurecli_kubeconfig(kubeconfigs_sent: tuple[Plan, dict[str, Any]]) -> None:
    plan, sent = kubeconfigs_sent
    kubeconfig = sent["default"]
    aks = inputs(plan, "default-aks")
    assert aks["disableLocalAccounts"] is True
    assert aks["aadProfile"] == {"managed": True, "enableAzureRBAC": True, "adminGroupObjectIDs": [GROUP]}
    (user,) = kubeconfig["users"]
    assert user["user"]["exec"]["command"] == "kubelogin"
    assert user["user"]["exec"]["args"] == ["get-token", "--login", "azurecli", "--server-id", AKS_SERVER_APP]
    assert kubeconfig["clusters"][0]["cluster"]["server"] == "https://${aks-ml-platform-dev-default.fqdn}:443"
    provider = next(r for r in plan.of_type("pulumi:providers:kubernetes") if r["name"].startswith("default"))
    assert provider["inputs"]["kubeconfig"] == "[secret]"


def test_spn_kubeconfig_keeps_tenant_not_the_aks_client(kubeconfigs_sent: tuple[Plan, dict[str, Any]]) -> None:
    kubeconfig = kubeconfigs_sent[1]["spn"]
    assert kubeconfig["users"][0]["user"]["exec"]["args"] == [
        "get-token",
        "--login",
        "spn",
        "--server-id",
        AKS_SERVER_APP,
        "--tenant-id",
        "${azure.tenantId}",
        "--environment",
        "AzurePublicCloud",
    ]


def test_admin_groups_with_local_accounts_on(created_plan: Plan) -> None:
    """Entra ID for people, the local admin credential for the program: the plan's kubeconfig
    stays the admin one (no kubelogin needed where `pulumi up` runs)."""
    aks = inputs(created_plan, "default-aks")  # adminGroupObjectIds: [GROUP], disableLocalAccounts left out
    assert aks["aadProfile"] == {"managed": True, "enableAzureRBAC": True, "adminGroupObjectIDs": [GROUP]}
    assert aks["disableLocalAccounts"] is False


@pytest.mark.parametrize(
    ("mode", "args"),
    [
        ("azurecli", ["get-token", "--login", "azurecli", "--server-id", AKS_SERVER_APP]),
        ("workloadidentity", ["get-token", "--login", "workloadidentity", "--server-id", AKS_SERVER_APP]),
        (
            "spn",
            [
                "get-token",
                "--login",
                "spn",
                "--server-id",
                AKS_SERVER_APP,
                "--tenant-id",
                "72f988bf-86f1-41af-91ab-2d7cd011db47",
                "--environment",
                "AzurePublicCloud",
            ],
        ),
    ],
)
def test_noninteractive_kubeconfig(mode: str, args: list[str]) -> None:
    out = yaml.safe_load(noninteractive_kubeconfig(AKS_EXEC_KUBECONFIG, mode))
    original = yaml.safe_load(AKS_EXEC_KUBECONFIG)
    assert out["users"][0]["user"]["exec"]["args"] == args
    # Everything else is AKS's answer, unchanged.
    out["users"][0]["user"]["exec"]["args"] = original["users"][0]["user"]["exec"]["args"]
    assert out == original


def test_kubeconfig_without_kubelogin_is_an_error() -> None:
    admin = yaml.safe_load(AKS_EXEC_KUBECONFIG)
    admin["users"][0]["user"] = {"client-certificate-data": "x", "client-key-data": "y"}
    with pytest.raises(ValueError, match="has no kubelogin exec user"):
        noninteractive_kubeconfig(yaml.safe_dump(admin), "azurecli")


# --- policies --------------------------------------------------------------------------------------


def cluster_record(plan: Plan) -> dict[str, Any]:
    return copy.deepcopy(plan.named("default-aks"))


def test_public_api_server_without_ranges_is_flagged(
    default_plan: Plan, created_plan: Plan, existing_plan: Plan
) -> None:
    assert validate("aks-public-api-server", cluster_record(default_plan)) == [
        "the API server is public with no authorized IP ranges: anyone on the internet can reach it; set "
        "cluster.apiServer.authorizedIpRanges (include where `pulumi up` runs) or cluster.apiServer.private: true"
    ]
    assert validate("aks-public-api-server", cluster_record(created_plan)) == []
    assert validate("aks-public-api-server", cluster_record(existing_plan)) == []
    rec = cluster_record(created_plan)
    rec["inputs"]["apiServerAccessProfile"] = {"authorizedIPRanges": []}
    assert len(validate("aks-public-api-server", rec)) == 1


def test_cluster_without_network_policy_is_flagged(default_plan: Plan, created_plan: Plan) -> None:
    assert validate("aks-network-policy", cluster_record(default_plan)) == []  # Cilium by default
    assert validate("aks-network-policy", cluster_record(created_plan)) == []
    rec = cluster_record(default_plan)
    del rec["inputs"]["networkProfile"]["networkPolicy"]
    assert validate("aks-network-policy", rec) == [
        "the cluster has no network policy engine: NetworkPolicy objects are accepted but not enforced, and every pod "
        "can reach every other; set cluster.network.networkPolicy (azure, calico or cilium; it needs cluster.network "
        "and is fixed at creation)"
    ]
    rec = cluster_record(created_plan)
    rec["inputs"]["networkProfile"]["networkPolicy"] = "none"
    assert len(validate("aks-network-policy", rec)) == 1
    rec["inputs"]["networkProfile"]["networkPolicy"] = "<unknown>"
    assert validate("aks-network-policy", rec) == []


def test_entra_only_access(default_plan: Plan) -> None:
    rec = cluster_record(default_plan)
    assert validate("aks-entra-only-access", rec) == []  # local accounts on: not this policy's business
    rec["inputs"]["disableLocalAccounts"] = True
    assert validate("aks-entra-only-access", rec) == [
        "local accounts are disabled without managed Entra ID integration (aadProfile.managed): AKS rejects the "
        "cluster; set cluster.adminGroupObjectIds in the stack"
    ]
    rec["inputs"]["aadProfile"] = {"managed": True, "enableAzureRBAC": True, "adminGroupObjectIDs": []}
    assert validate("aks-entra-only-access", rec) == [
        "local accounts are disabled and no Entra ID admin group is set (aadProfile.adminGroupObjectIDs): nobody is "
        "a cluster admin; set cluster.adminGroupObjectIds in the stack"
    ]
    rec["inputs"]["aadProfile"]["adminGroupObjectIDs"] = [GROUP]
    assert validate("aks-entra-only-access", rec) == []


def test_policy_levels() -> None:
    from pulumi_policy import EnforcementLevel

    from tests.policy.helpers import POLICIES

    assert POLICIES["aks-public-api-server"].enforcement_level is EnforcementLevel.ADVISORY
    assert POLICIES["aks-network-policy"].enforcement_level is EnforcementLevel.ADVISORY
    assert POLICIES["aks-entra-only-access"].enforcement_level is EnforcementLevel.MANDATORY
    assert json.dumps(sorted(POLICIES))  # every name is plain text
