"""Known regions per provider, used to validate the ``region`` of an Anyscale cloud.

Platform rule: a cloud's ``region`` must match ``^[a-z0-9]+(-[a-z0-9]+)*$``, be at
most 35 characters long and, for Azure, AWS and GCP, be one of the known regions of
that provider listed here. Casing is never converted: ``"EastUS2"`` is not
``"eastus2"``.

These are plain data sets of public commercial regions. Sovereign, government and
isolated partitions are deliberately left out (AWS China / GovCloud / ISO /
European Sovereign Cloud; Azure China / US Gov; GCP sovereign-partner regions).

Sources, gathered 2026-11-29:

* AWS: the ``aws`` partition of botocore 1.43.11 (``botocore/data/endpoints.json``
  and ``partitions.json``, May 2026), cross-checked against the AWS Regions page
  (https://docs.aws.amazon.com/global-infrastructure/latest/regions/aws-regions.html)
  as captured in a public region audit dated 2026-05-16. Announced but not yet
  named regions (Chile, Saudi Arabia) are not included.
* Azure: Microsoft's "Azure regions list"
  (https://learn.microsoft.com/azure/reliability/regions-list; source
  MicrosoftDocs/reliability-docs ``articles/reliability/regions-list.md``), which
  gives the programmatic (ARM) names, plus physical restricted-access regions that
  ARM lists as locations (``az account list-locations`` outputs and ARM provider
  location lists in public repositories, Azure Storage docs region lists).
  Logical/geography names (``unitedstates``, ``europe``, ``global``, ...), staging
  (``*stage``, ``*stg``) and canary (``*euap``) locations are excluded, as are
  unannounced capacity-only locations (e.g. ``southcentralus2``, ``southeastus*``,
  ``southwestus``, ``northeastus5``, ``eastus3``, ``indiasouthcentral``,
  ``westcentralusfre``, ``eastusslv``, ``*foundational``) and ``brazilus``.
  ``saudiarabiaeast`` is included: Microsoft confirmed customer availability from
  Q4 2026 and the name already appears in ARM location lists.
* GCP: Compute Engine "Regions and zones"
  (https://cloud.google.com/compute/docs/regions-zones) and Google Cloud product
  location pages (Workload Manager, Memorystore, Unified Maintenance), cross-checked
  with the Cloud Logging API location list (which adds ``asia-southeast3``
  Bangkok and ``europe-north3`` Oslo), the AlloyDB release notes (Bangkok
  ``asia-southeast3``, January 2026), the Cloud Interconnect colocation list
  (Oslo -> ``europe-north3``) and the Google Cloud SDK 528.0.0 region lists.
  Restricted or private regions seen only in SDK lists (``us-central2``,
  ``us-east7``, ``us-west8``) are excluded.
"""

from typing import Final

AZURE_REGIONS: Final[frozenset[str]] = frozenset(
    {
        "australiacentral",
        "australiacentral2",  # restricted access
        "australiaeast",
        "australiasoutheast",
        "austriaeast",
        "belgiumcentral",
        "brazilsouth",
        "brazilsoutheast",  # restricted access
        "canadacentral",
        "canadaeast",
        "centralindia",
        "centralus",
        "chilecentral",
        "denmarkeast",
        "eastasia",
        "eastus",
        "eastus2",
        "francecentral",
        "francesouth",  # restricted access
        "germanynorth",  # restricted access
        "germanywestcentral",
        "indonesiacentral",
        "israelcentral",
        "israelnorthwest",  # restricted access
        "italynorth",
        "japaneast",
        "japanwest",
        "jioindiacentral",  # restricted access
        "jioindiawest",  # restricted access
        "koreacentral",
        "koreasouth",
        "malaysiasouth",  # restricted access
        "malaysiawest",
        "mexicocentral",
        "newzealandnorth",
        "northcentralus",
        "northeurope",
        "norwayeast",
        "norwaywest",  # restricted access
        "polandcentral",
        "qatarcentral",
        "saudiarabiaeast",  # customer availability from Q4 2026
        "southafricanorth",
        "southafricawest",  # restricted access
        "southcentralus",
        "southeastasia",
        "southindia",
        "spaincentral",
        "swedencentral",
        "swedensouth",  # restricted access
        "switzerlandnorth",
        "switzerlandwest",  # restricted access
        "taiwannorth",  # restricted access
        "taiwannorthwest",  # restricted access
        "uaecentral",  # restricted access
        "uaenorth",
        "uksouth",
        "ukwest",
        "westcentralus",
        "westeurope",
        "westindia",
        "westus",
        "westus2",
        "westus3",
    }
)

AWS_REGIONS: Final[frozenset[str]] = frozenset(
    {
        "af-south-1",
        "ap-east-1",
        "ap-east-2",
        "ap-northeast-1",
        "ap-northeast-2",
        "ap-northeast-3",
        "ap-south-1",
        "ap-south-2",
        "ap-southeast-1",
        "ap-southeast-2",
        "ap-southeast-3",
        "ap-southeast-4",
        "ap-southeast-5",
        "ap-southeast-6",
        "ap-southeast-7",
        "ca-central-1",
        "ca-west-1",
        "eu-central-1",
        "eu-central-2",
        "eu-north-1",
        "eu-south-1",
        "eu-south-2",
        "eu-west-1",
        "eu-west-2",
        "eu-west-3",
        "il-central-1",
        "me-central-1",
        "me-south-1",
        "mx-central-1",
        "sa-east-1",
        "us-east-1",
        "us-east-2",
        "us-west-1",
        "us-west-2",
    }
)

GCP_REGIONS: Final[frozenset[str]] = frozenset(
    {
        "africa-south1",
        "asia-east1",
        "asia-east2",
        "asia-northeast1",
        "asia-northeast2",
        "asia-northeast3",
        "asia-south1",
        "asia-south2",
        "asia-southeast1",
        "asia-southeast2",
        "asia-southeast3",
        "australia-southeast1",
        "australia-southeast2",
        "europe-central2",
        "europe-north1",
        "europe-north2",
        "europe-north3",
        "europe-southwest1",
        "europe-west1",
        "europe-west10",
        "europe-west12",
        "europe-west2",
        "europe-west3",
        "europe-west4",
        "europe-west6",
        "europe-west8",
        "europe-west9",
        "me-central1",
        "me-central2",
        "me-west1",
        "northamerica-northeast1",
        "northamerica-northeast2",
        "northamerica-south1",
        "southamerica-east1",
        "southamerica-west1",
        "us-central1",
        "us-east1",
        "us-east4",
        "us-east5",
        "us-south1",
        "us-west1",
        "us-west2",
        "us-west3",
        "us-west4",
    }
)

KNOWN_REGIONS: Final[dict[str, frozenset[str]]] = {
    "Azure": AZURE_REGIONS,
    "AWS": AWS_REGIONS,
    "GCP": GCP_REGIONS,
}

# Every entry above is lowercase, matches ^[a-z0-9]+(-[a-z0-9]+)*$ and is at most
# 35 characters long (the longest, "northamerica-northeast1", has 23); this was
# checked when the lists were written, so no runtime check is done here.
