"""AKS planned maintenance (`cluster.maintenance`): the weekly window in which AKS may
run the cluster's auto-upgrades and node OS image upgrades.

Without one, AKS applies the `patch` channel and the weekly node images at any hour,
reimaging and draining nodes mid-job. One window governs both of AKS's configurations,
`aksManagedAutoUpgradeSchedule` and `aksManagedNodeOSUpgradeSchedule` (the AKS planned
maintenance page, learn.microsoft.com/azure/aks/planned-maintenance, read 2026-12-01).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from config.types import Strict, fail

# The API's bounds (containerservice MaintenanceWindow): startTime '00:00' to '23:59',
# durationHours 4 to 24, utcOffset +/-HH:mm.
START_RE = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")
OFFSET_RE = re.compile(r"[+-](0[0-9]|1[0-4]):[0-5][0-9]")
MIN_HOURS, MAX_HOURS = 4, 24


class MaintenanceWindow(Strict):
    """A weekly window, in the cluster's chosen UTC offset. The default, Sunday from 00:00
    UTC for 8 hours, is the quietest time for most batch fleets; pick your own."""

    day_of_week: Literal["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] = Field(
        "Sunday", description="the day the window opens"
    )
    start_time: str = Field("00:00", description="`HH:MM`, 24-hour, in `utcOffset`")
    duration_hours: int = Field(
        8, ge=MIN_HOURS, le=MAX_HOURS, description=f"hours the window stays open (AKS needs at least {MIN_HOURS})"
    )
    utc_offset: str = Field("+00:00", description="`+HH:MM` or `-HH:MM`")

    @field_validator("start_time")
    @classmethod
    def _start(cls, value: str) -> str:
        if not START_RE.fullmatch(value):
            raise fail("time", "'{v}' is not a time of day: use HH:MM from 00:00 to 23:59, e.g. 22:00", v=value)
        return value

    @field_validator("utc_offset")
    @classmethod
    def _offset(cls, value: str) -> str:
        if not OFFSET_RE.fullmatch(value):
            raise fail("offset", "'{v}' is not a UTC offset: use +HH:MM or -HH:MM, e.g. +00:00 or -07:00", v=value)
        return value
