"""Where Anyscale on Azure is available: data for an advisory check, not a rule.

Anyscale on Azure is in preview in a limited set of Azure regions (platform seed
"What is a cloud resource on Anyscale on Azure?": "available in a limited set of
regions"). The spec (`config/load.py`, `advisories`) compares the cloud's
`location`, every Azure resource's `region` and an Azure `storage.region` with this
list and reports a region outside it as a warning, never an error: the list changes
as the preview grows, access to other regions can be requested, and a region can be
enabled for a subscription before the page says so.

Set `AVAILABLE_REGIONS` to None to turn the check off (nothing is reported).

Source: Microsoft Learn, "Anyscale on Azure supported regions"
(https://learn.microsoft.com/azure/anyscale-on-azure/supported-regions), the page's
source file at ms.date 2026-07-23 ("Available regions and region names"; regions not
listed can be requested from support). Gathered 2026-11-30. A later revision of the
page (ms.date 2026-10-05) exists but could not be read here: check the page when a
warning names a region you know to be enabled, and update this list.
"""

from typing import Final

SOURCE: Final[str] = (
    "Microsoft Learn 'Anyscale on Azure supported regions', 2026-07-23 (config/data/azure_availability.py)"
)

AVAILABLE_REGIONS: frozenset[str] | None = frozenset(
    {
        "westcentralus",
        "eastus",
        "eastus2",
        "westus2",
        "westus3",
        "southcentralus",
        "westeurope",
        "northeurope",
        "swedencentral",
        "uksouth",
        "australiaeast",
        "southeastasia",
    }
)
