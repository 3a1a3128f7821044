"""AKS planned maintenance: the weekly window for the cluster's auto-upgrades.

The cluster auto-upgrades on the `patch` channel and takes node images weekly
(`NodeImage`); each upgrade reimages and drains nodes. These two maintenance
configurations keep both inside `cluster.maintenance` (config names fixed by AKS: the
planned maintenance page, learn.microsoft.com/azure/aks/planned-maintenance, read
2026-12-01; shape: the SDK's containerservice MaintenanceWindow)."""

from __future__ import annotations

from typing import Any

from pulumi_azure_native import containerservice

from components.scope import Scope
from config import AzureResource

# AKS's names for the two schedules; any other name is its legacy `default` kind.
SCHEDULES = {
    "auto-upgrade": "aksManagedAutoUpgradeSchedule",  # Kubernetes patch versions (upgrade channel)
    "node-os-upgrade": "aksManagedNodeOSUpgradeSchedule",  # node images (node OS upgrade channel)
}


def maintenance_window(spec: AzureResource) -> dict[str, Any]:
    window = spec.cluster.maintenance
    return {
        "schedule": {"weekly": {"day_of_week": window.day_of_week, "interval_weeks": 1}},
        "start_time": window.start_time,
        "duration_hours": window.duration_hours,
        "utc_offset": window.utc_offset,
    }


def build_maintenance(
    scope: Scope, spec: AzureResource, cluster: containerservice.ManagedCluster
) -> list[containerservice.MaintenanceConfiguration]:
    return [
        containerservice.MaintenanceConfiguration(
            f"{spec.name}-maintenance-{suffix}",
            config_name=config_name,
            resource_name_=cluster.name,
            resource_group_name=scope.ctx.resource_group_name,
            maintenance_window=maintenance_window(spec),
            # The config name is its identity under the cluster: a new one after the old is gone.
            opts=scope.opts(delete_before_replace=True),
        )
        for suffix, config_name in SCHEDULES.items()
    ]
