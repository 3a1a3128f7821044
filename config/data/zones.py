"""Compute Engine zones per GCP region, and the strings a GCP project ID may not contain.

Zones. Google's "Regions and zones" table (https://cloud.google.com/compute/docs/regions-zones,
"Available regions and zones"), read 2026-12-02 through a stored copy and a repository's table
that cites it (GCP_REGIONS in a public JavaScript file, docs.cloud.google.com/compute/docs/
regions-zones): every region of config/data/regions.py has zones a, b and c except us-central1
(a, b, c, f), us-east1 (b, c, d) and europe-west1 (b, c, d). Two regions were not in either
list (asia-southeast3, europe-north3): their zones are left unknown, and a zone there is only
checked for its form, `<region>-<letter>`. The stack names GCP zones only (AKS and EKS pools
take none; EKS's count of zones is checked against config/data/eks.py).

Project IDs. "Creating and managing projects"
(https://cloud.google.com/resource-manager/docs/creating-managing-projects, "Project ID"
requirements), read 2026-12-02: a project ID "cannot contain restricted strings, such as
google, null, undefined, and ssl". An older wording of the page lists google and ssl as
restricted and advises against null and undefined; all four are refused here.
"""

from __future__ import annotations

from typing import Final

from config.data.regions import GCP_REGIONS

_NOT_ABC: Final[dict[str, tuple[str, ...]]] = {
    "us-central1": ("a", "b", "c", "f"),
    "us-east1": ("b", "c", "d"),
    "europe-west1": ("b", "c", "d"),
}
_UNKNOWN: Final = frozenset({"asia-southeast3", "europe-north3"})

# region -> its zones' letters; a known region missing here (_UNKNOWN) is checked for form only.
GCP_ZONE_LETTERS: Final[dict[str, tuple[str, ...]]] = {
    region: _NOT_ABC.get(region, ("a", "b", "c")) for region in sorted(GCP_REGIONS - _UNKNOWN)
}

GCP_PROJECT_RESTRICTED: Final = ("google", "null", "undefined", "ssl")
