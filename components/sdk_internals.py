"""The one place components use a private part of a Pulumi SDK.

Nothing else in components/ may reach into an SDK's underscore modules: when an SDK
upgrade moves one of these, tests/test_sdk_internals.py fails and names it here.
"""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_kubernetes as k8s
from pulumi.output import UNKNOWN


def kubernetes_plugin_version() -> str:
    """The pulumi-kubernetes plugin version the SDK's own resources request. A raw
    `pulumi.CustomResource` of a Kubernetes type needs it too, or the engine may pick
    another plugin version than the typed resources next to it use."""
    return str(k8s._utilities.get_version())


def unknown() -> pulumi.Output[Any]:
    """An Output whose value is not known yet, as the engine hands out during a preview.

    `pulumi.output.UNKNOWN` is the SDK's singleton unknown value (public module, but not
    in the documented API); an Output holding it is marked not known, so `apply`
    callbacks downstream do not run during the preview."""
    return pulumi.Output.from_input(UNKNOWN)
