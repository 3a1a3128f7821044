"""AKS planned maintenance (`cluster.maintenance`) and the worker pools' lifecycle: the spot
label declared, pools after the subnet grant, the autoscaler's count never fought."""

from __future__ import annotations

from typing import Any

import pytest

from config import SpecError, load_spec
from preflight.runtime import Plan
from tests.conftest import stack_values
from tests.plans import recorded

SUBNET_ID = (
    "/subscriptions/0b1f6471-1bf0-4dda-aec3-111122223333/resourceGroups/rg-hub"
    "/providers/Microsoft.Network/virtualNetworks/vnet-hub/subnets/aks-nodes"
)
GRANT = "urn:pulumi:test::anyscale-cloud::anyscale-cloud:azure:AksTarget$azure-native:authorization:RoleAssignment::default-cluster-network"


def values_with(cluster: dict[str, Any]) -> dict[str, Any]:
    values = stack_values("dev")
    values["anyscale-cloud:resources"][0]["cluster"] = cluster
    return values


def problems(cluster: dict[str, Any]) -> list[str]:
    values = values_with(cluster)
    with pytest.raises(SpecError) as error:
        load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"])
    return [str(p) for p in error.value.problems]


@pytest.fixture(scope="module")
def default_plan() -> Plan:
    return recorded("dev", stack_values("dev"))  # the dev stack's own recording (dev_plan): shared


def inputs(plan: Plan, name: str) -> dict[str, Any]:
    return plan.named(name)["inputs"]


# --- planned maintenance ---------------------------------------------------------------------


def test_default_window_covers_both_aks_schedules(default_plan: Plan) -> None:
    window = {
        "schedule": {"weekly": {"dayOfWeek": "Sunday", "intervalWeeks": 1}},
        "startTime": "00:00",
        "durationHours": 8,
        "utcOffset": "+00:00",
    }
    for name, config in (
        ("default-maintenance-auto-upgrade", "aksManagedAutoUpgradeSchedule"),
        ("default-maintenance-node-os-upgrade", "aksManagedNodeOSUpgradeSchedule"),
    ):
        record = default_plan.named(name)
        assert record["type"] == "azure-native:containerservice:MaintenanceConfiguration"
        assert record["inputs"] == {
            "configName": config,
            "resourceName": "aks-ml-platform-dev-default",
            "resourceGroupName": "rg-ml-platform-dev",
            "maintenanceWindow": window,
        }
        assert record["options"]["deleteBeforeReplace"] is True
        assert record["provider"] == (
            "urn:pulumi:dev::anyscale-cloud::anyscale-cloud:index:AnyscaleCloud$pulumi:providers:azure-native::"
            "ml-platform-dev-azure::ml-platform-dev-azure-id"
        )
        # The registration waits for the windows, like for the pools: the cluster is ready
        # for workloads once AKS cannot reimage it at any hour.
        assert record["urn"] in default_plan.named("default-registration")["dependsOn"]


# The configured window rides on the plans of test_pools_wait_for_the_subnet_grant (the
# maintenance configurations and the pools' subnet grant are apart): no run of its own.
MAINTENANCE = {"dayOfWeek": "Saturday", "startTime": "22:30", "durationHours": 6, "utcOffset": "-07:00"}
NETWORKS = [
    {"addressSpace": "10.40.0.0/16", "nodeSubnet": "10.40.0.0/20"},
    {"existingSubnetId": SUBNET_ID},
]


def network_plan(network: dict[str, Any]) -> Plan:
    return recorded("test", values_with({"network": network, "maintenance": MAINTENANCE}))


def test_configured_window() -> None:
    plan = network_plan(NETWORKS[0])
    assert inputs(plan, "default-maintenance-node-os-upgrade")["maintenanceWindow"] == {
        "schedule": {"weekly": {"dayOfWeek": "Saturday", "intervalWeeks": 1}},
        "startTime": "22:30",
        "durationHours": 6,
        "utcOffset": "-07:00",
    }


@pytest.mark.parametrize(
    ("window", "message"),
    [
        (
            {"durationHours": 3},
            "resources[0].cluster.maintenance.durationHours (default): Input should be greater than or equal to 4",
        ),
        (
            {"durationHours": 25},
            "resources[0].cluster.maintenance.durationHours (default): Input should be less than or equal to 24",
        ),
        (
            {"startTime": "24:00"},
            "resources[0].cluster.maintenance.startTime (default): '24:00' is not a time of day: use HH:MM from "
            "00:00 to 23:59, e.g. 22:00",
        ),
        (
            {"utcOffset": "+5:30"},
            "resources[0].cluster.maintenance.utcOffset (default): '+5:30' is not a UTC offset: use +HH:MM or "
            "-HH:MM, e.g. +00:00 or -07:00",
        ),
    ],
)
def test_window_bounds(window: dict[str, Any], message: str) -> None:
    assert problems({"maintenance": window}) == [message]


def test_window_limits_accepted() -> None:
    values = values_with({"maintenance": {"durationHours": 4, "startTime": "23:59", "utcOffset": "-12:00"}})
    spec = load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"])
    assert spec.resources[0].cluster.maintenance.duration_hours == 4
    values = values_with({"maintenance": {"durationHours": 24, "startTime": "00:00", "utcOffset": "+14:00"}})
    spec = load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"])
    assert spec.resources[0].cluster.maintenance.duration_hours == 24


# --- pools ----------------------------------------------------------------------------------


def test_spot_pool_declares_aks_spot_label(default_plan: Plan) -> None:
    assert inputs(default_plan, "default-pool-cpuspot")["nodeLabels"] == {
        "node.anyscale.com/capacity-type": "SPOT",
        "kubernetes.azure.com/scalesetpriority": "spot",
    }
    assert inputs(default_plan, "default-pool-cpu")["nodeLabels"] == {"node.anyscale.com/capacity-type": "ON_DEMAND"}


def test_autoscaled_count_is_never_fought(default_plan: Plan) -> None:
    pool = default_plan.named("default-pool-cpu")
    # Sent once at create (the API requires it), then the autoscaler's.
    assert pool["inputs"]["count"] == pool["inputs"]["minCount"] == 0
    assert pool["options"]["ignoreChanges"] == ["count"]


@pytest.mark.parametrize("network", NETWORKS)
def test_pools_wait_for_the_subnet_grant(network: dict[str, Any]) -> None:
    plan = network_plan(network)
    assert GRANT in {r["urn"] for r in plan.resources}
    for name in ("default-pool-cpu", "default-pool-cpuspot"):
        assert GRANT in plan.named(name)["dependsOn"], name


def test_pools_without_a_network_wait_for_no_grant(default_plan: Plan) -> None:
    assert "default-cluster-network" not in {r["name"] for r in default_plan.resources}
    assert default_plan.named("default-pool-cpu")["dependsOn"] == [
        "urn:pulumi:dev::anyscale-cloud::anyscale-cloud:azure:AksTarget$azure-native:containerservice:ManagedCluster::default-aks",
        "urn:pulumi:dev::anyscale-cloud::anyscale-cloud:index:AnyscaleCloud$azure-native:resources:ResourceGroup::ml-platform-dev-rg",
    ]
