"""The few places where we rely on more than the Pulumi SDK's documented surface.

Kept in one module so that an SDK upgrade has one place to check; tests/test_sdk_compat.py
is the canary that fails when an upgrade removes what is used here."""
from __future__ import annotations

from typing import Any

import pulumi
from pulumi.output import UNKNOWN


def unknown() -> pulumi.Output[Any]:
    """An Output whose value is not known yet, as the engine hands out during a preview.

    `pulumi.output.UNKNOWN` is the SDK's singleton unknown value; an Output holding it is
    marked not known, so `apply` callbacks downstream do not run during the preview."""
    return pulumi.Output.from_input(UNKNOWN)
