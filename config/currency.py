"""Is a cluster's Kubernetes minor one its provider still creates, on a given day? And is a
patch of it one the provider takes at all (EKS takes none)?

Judged against the calendar in config/data/kubernetes.py. The day is an input: `preflight
validate --today`, or ANYSCALE_CLOUD_TODAY for `pulumi up` (the date the calendar is
read against must be reproducible, and no test may depend on the real date).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from config.data.kubernetes import (
    CALENDAR,
    DEFAULT_MINOR,
    EXTENSION,
    PATCH_LIST,
    READ_ON,
    SOURCE,
    STALE_AFTER_DAYS,
    WARN_DAYS,
)
from config.data.kubernetes import Support as Support
from config.types import minor_of

TODAY_VARIABLE = "ANYSCALE_CLOUD_TODAY"
SERVICE = {"Azure": "AKS", "AWS": "EKS", "GCP": "GKE"}


class TodayError(ValueError):
    """The given day is not a YYYY-MM-DD date."""


def parse_day(value: str, where: str) -> date:
    try:
        # Exactly YYYY-MM-DD: date.fromisoformat also takes compact and week forms (20261201).
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
            raise ValueError(value)
        return date.fromisoformat(value)
    except ValueError:
        raise TodayError(f"{where}: {value!r} is not a date; write YYYY-MM-DD, e.g. 2026-12-01") from None


def today(environ: Any = os.environ) -> date:
    """The day versions are judged on: ANYSCALE_CLOUD_TODAY when set, else today in UTC."""
    value = environ.get(TODAY_VARIABLE)
    if value:
        return parse_day(value, TODAY_VARIABLE)
    return datetime.now(UTC).date()


@dataclass(frozen=True)
class Verdict:
    refusal: str | None = None
    advisory: str | None = None
    # The refusal holds only because of the day: a minor whose support ended since. A deploy
    # that worked must not start failing because the calendar says a date passed (the cloud
    # refuses a minor it no longer creates on its own), so `pulumi up` warns and proceeds;
    # `preflight validate` still refuses it, so a pull request's check says so loudly.
    dated: bool = False


def _key(minor: str) -> tuple[int, ...]:
    return tuple(int(part) for part in minor.split("."))


def _creatable(row: Support, day: date, extended: bool) -> bool:
    end = row.extended_end if extended else row.standard_end
    return row.available <= day <= end


def creatable(provider: str, day: date, extended: bool = False) -> list[str]:
    """The minors a new cluster can have on `day` (in extended support too, when `extended`)."""
    return [row.minor for row in CALENDAR[provider] if _creatable(row, day, extended)]


def judge(provider: str, version: str, day: date, *, extended: bool) -> Verdict:
    """`extended`: the cluster has what its provider's extended support needs (AKS: the LTS
    plan; GKE: the Extended channel; EKS: always, extended support is on by default)."""
    minor, service = minor_of(version), SERVICE[provider]
    rows = {row.minor: row for row in CALENDAR[provider]}
    offer = creatable(provider, day, extended)
    use = f"use one of {', '.join(offer)}" if offer else "no minor is known to be creatable; update the calendar"
    where = f"{SOURCE[provider]}, config/data/kubernetes.py, read {READ_ON.isoformat()}"
    row = rows.get(minor)
    if row is None:
        newest = max(rows, key=_key)
        if _key(minor) > _key(newest):
            return Verdict(refusal=f"Kubernetes {minor} is not released on {service} ({where}): {use}")
        return Verdict(refusal=f"Kubernetes {minor} is no longer created on {service} ({where}): {use}")
    if day < row.available:
        return Verdict(
            refusal=f"Kubernetes {minor} is not available on {service} before {row.available.isoformat()} "
            f"({where}): {use}"
        )
    if day > row.extended_end:
        return Verdict(
            refusal=f"Kubernetes {minor} left {service} extended support on {row.extended_end.isoformat()}, "
            f"so {service} no longer creates it ({where}): {use}",
            dated=True,
        )
    note = "" if row.verified else " (a date not confirmed in the provider's own document)"
    if day > row.standard_end:
        ended = f"Kubernetes {minor} left {service} standard support on {row.standard_end.isoformat()}"
        if not extended:
            return Verdict(
                refusal=f"{ended} ({where}); {service} creates it only with {EXTENSION[provider]} (until "
                f"{row.extended_end.isoformat()}): {use}, or set up that extension",
                dated=True,
            )
        return Verdict(
            advisory=f"{ended} and runs in {EXTENSION[provider]}, until {row.extended_end.isoformat()}{note}: "
            f"upgrade one minor at a time towards {DEFAULT_MINOR[provider]}"
        )
    left = (row.standard_end - day).days
    if left <= WARN_DAYS:
        after = ("it runs in " if provider == "AWS" else "it is created only with ") + EXTENSION[provider]
        return Verdict(
            advisory=f"Kubernetes {minor} leaves {service} standard support on {row.standard_end.isoformat()} "
            f"({left} days){note}; after that {after}: plan the upgrade, one minor at a time"
        )
    return Verdict()


# What `pulumi up` adds to a dated refusal it only warns about.
DEPLOYING_ANYWAY = (
    "; deploying anyway: a date alone never fails a deploy (the cloud refuses a minor it no longer creates), "
    "and `preflight validate` reports it as a problem"
)


def patch(provider: str, version: str, region: str) -> Verdict:
    """A patch (1.36.2) rather than a minor: refused where the provider takes a minor only
    (EKS). AKS and GKE take the patches they offer, which config/data/kubernetes.py does not
    list (PATCH_LIST): an advisory says it is checked at deploy only, and where to look."""
    minor, service = minor_of(version), SERVICE[provider]
    if version == minor:
        return Verdict()
    listed = PATCH_LIST[provider]
    if listed is None:
        return Verdict(
            refusal=f"{version} is a patch, and {service} takes a minor only (it runs its own patch of it; "
            f"config/data/kubernetes.py PATCH_LIST): write {minor}"
        )
    return Verdict(
        advisory=f"{version} is a patch: {service} creates only the {minor} patches it offers in {region}, and "
        "config/data/kubernetes.py keeps no list of them, so only the deploy checks it; "
        f"`{listed.format(region=region)}` lists them, or write {minor} ({service} picks the newest)"
    )


def stale(day: date) -> str | None:
    """An advisory when the calendar was read long before `day`: its dates may have moved."""
    age = (day - READ_ON).days
    if age <= STALE_AFTER_DAYS:
        return None
    return (
        f"the Kubernetes support calendar (config/data/kubernetes.py) was read on {READ_ON.isoformat()}, {age} days "
        "ago: check the AKS, EKS and GKE calendars and update it (its defaults too)"
    )
