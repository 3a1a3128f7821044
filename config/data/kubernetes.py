"""The Kubernetes support calendar per provider: when each minor became available for new
clusters, when its standard support ends and when its extended support (AKS: LTS) ends.
The one place where a cluster's `kubernetesVersion` is judged (config/currency.py), and
where each provider's default minor is chosen.

Read 2026-12-01 (READ_ON) from the providers' own documents:
- AKS: MicrosoftDocs/azure-aks-docs@f988e7e articles/aks/supported-kubernetes-versions.md
  ("AKS Kubernetes release calendar", "LTS versions"; ms.date 08/05/2026; a month without a
  day means its last day) and @b44d4f5 articles/aks/long-term-support.md.
- EKS: awsdocs/amazon-eks-user-guide@0138560 latest/ug/versioning/kubernetes-versions.adoc
  ("Amazon EKS Kubernetes release calendar", UTC dates; newest row 1.34). 1.35 and 1.36 are
  confirmed available by AWS ("Review release notes for Kubernetes versions on standard
  support"), their dates only by third parties (endoflife.date/amazon-eks, release notes
  citing the AWS calendar): `verified=False`.
- GKE: https://cloud.google.com/kubernetes-engine/versioning (about 14 months of standard
  support from availability in the Regular channel, 24 in all with the Extended channel);
  the Regular and Extended channel release-note feeds (1.35 the default for new clusters in
  both since 2026-09). The release-schedule table could not be read: every GKE date is
  endoflife.date's (`verified=False`), the extended end computed as 24 months.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Final

READ_ON: Final = date(2026, 12, 1)
# How long after READ_ON `preflight validate` says the calendar itself needs reading again.
STALE_AFTER_DAYS: Final = 90
# The advisory's lead time before the end of standard support (the rule).
WARN_DAYS: Final = 60


@dataclass(frozen=True)
class Support:
    minor: str
    available: date  # new clusters can be created at this minor (provider GA)
    standard_end: date  # last day of standard (AKS: community) support
    extended_end: date  # last day of extended support (AKS: LTS; GKE: the Extended channel)
    verified: bool  # all three dates read in the provider's own document


# What each provider's extended support needs, in the words the messages use.
EXTENSION: Final[dict[str, str]] = {
    "Azure": "long-term support: skuTier: Premium and supportPlan: AKSLongTermSupport",
    "AWS": "EKS extended support, billed per cluster hour on top of the standard control-plane price",
    "GCP": "the Extended release channel (releaseChannel: EXTENDED)",
}
SOURCE: Final[dict[str, str]] = {
    "Azure": "the AKS release calendar",
    "AWS": "the EKS release calendar",
    "GCP": "the GKE release schedule",
}

# Patches. No source read for this file lists the patch releases of a minor (the calendars
# above and ../shared/reference/versions-2026-12.md give minors and dates only), and a list
# copied here would not stay true: AKS's supported-kubernetes-versions.md (read at 031ed68)
# says patch releases are "more frequent (sometimes weekly)" and that AKS "may support any
# number of patches ... reserves the right to deprecate any of these patches at any given
# time". So no patch is checked against a list. What each provider takes:
# - EKS: a minor only. Its versions are minors: `aws eks describe-cluster-versions` answers
#   clusterVersion "1.31" with kubernetesPatchVersion "1.31.3", the patch EKS runs (the EKS
#   source above, "Get version information with AWS CLI").
# - AKS: a minor, for which it runs "the minor version's latest GA patch" (the same AKS doc,
#   "Alias minor version"), or a patch it offers (learn.microsoft.com,
#   ManagedClusterProperties.KubernetesVersion: "Both patch version (major.minor.patch) ...
#   and (major.minor) ... are supported").
# - GKE: 1.X, or 1.X.Y for the newest gke.N build of that patch, among the versions its
#   getServerConfig lists (Container API v1, Cluster.initialClusterVersion).
# None: the provider takes no patch; otherwise the command that lists the patches it offers.
PATCH_LIST: Final[dict[str, str | None]] = {
    "Azure": "az aks get-versions --location {region}",
    "AWS": None,
    "GCP": "gcloud container get-server-config --region {region}",
}

CALENDAR: Final[dict[str, tuple[Support, ...]]] = {
    "Azure": (
        Support("1.31", date(2024, 11, 30), date(2025, 11, 1), date(2026, 11, 30), True),
        Support("1.32", date(2025, 4, 30), date(2026, 3, 31), date(2027, 3, 31), True),
        Support("1.33", date(2025, 6, 30), date(2026, 7, 31), date(2027, 7, 31), True),
        Support("1.34", date(2025, 11, 30), date(2026, 11, 30), date(2027, 11, 30), True),
        Support("1.35", date(2026, 3, 31), date(2027, 3, 31), date(2028, 3, 31), True),
        Support("1.36", date(2026, 6, 30), date(2027, 6, 30), date(2028, 6, 30), True),
        # Planned for Oct 2026 in the 2026-08-05 doc; whether it happened is unverified.
        Support("1.37", date(2026, 10, 31), date(2027, 10, 31), date(2028, 10, 31), False),
    ),
    "AWS": (
        Support("1.31", date(2024, 9, 26), date(2025, 11, 26), date(2026, 11, 26), True),
        Support("1.32", date(2025, 1, 23), date(2026, 3, 23), date(2027, 3, 23), True),
        Support("1.33", date(2025, 5, 29), date(2026, 7, 29), date(2027, 7, 29), True),
        Support("1.34", date(2025, 10, 2), date(2026, 12, 2), date(2027, 12, 2), True),
        Support("1.35", date(2026, 1, 27), date(2027, 3, 27), date(2028, 3, 27), False),
        Support("1.36", date(2026, 6, 2), date(2027, 8, 2), date(2028, 8, 2), False),
    ),
    "GCP": (
        # endoflife.date/google-kubernetes-engine (generated 2026-04-10): release, and the
        # end of "Maintenance Support" as the end of standard support (14 months).
        Support("1.34", date(2025, 9, 30), date(2026, 10, 1), date(2027, 9, 30), False),
        Support("1.35", date(2026, 2, 11), date(2027, 4, 11), date(2028, 2, 11), False),
    ),
}

# The default minor per provider, chosen from the calendar on READ_ON. The rule: a minor
# that new clusters get in standard support for at least six months (to 2027-06-01).
# - AKS 1.36: community support to 2027-06-30 (1.35 ends 2027-03-31, 1.34 needs LTS now).
# - EKS 1.36: standard support to about 2027-08-02 (1.34 leaves it 2026-12-02, 1.35
#   2027-03-27); available per AWS, dates unverified.
# - GKE 1.35: the verified default for new clusters in the Regular channel (1.36 in Regular
#   is unverified, and `minMasterVersion` above the channel's offer fails). Its standard
#   support ends about 2027-04-11, inside six months, but a cluster in a release channel is
#   upgraded by GKE before its minor leaves standard support: the version is a floor.
# Renovate proposes a new default when endoflife.date lists a newer cycle (renovate.json).
DEFAULT_MINOR: Final[dict[str, str]] = {
    # renovate: datasource=endoflife-date depName=azure-kubernetes-service
    "Azure": "1.36",
    # renovate: datasource=endoflife-date depName=amazon-eks
    "AWS": "1.36",
    # renovate: datasource=endoflife-date depName=google-kubernetes-engine
    "GCP": "1.35",
}
