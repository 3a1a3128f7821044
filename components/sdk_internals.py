"""The one place components use a private part of a Pulumi SDK.

Nothing else in components/ may reach into an SDK's underscore modules: when an SDK
upgrade moves one of these, tests/test_sdk_internals.py fails and names it here.
"""
from __future__ import annotations

import pulumi_kubernetes as k8s


def kubernetes_plugin_version() -> str:
    """The pulumi-kubernetes plugin version the SDK's own resources request. A raw
    `pulumi.CustomResource` of a Kubernetes type needs it too, or the engine may pick
    another plugin version than the typed resources next to it use."""
    return k8s._utilities.get_version()
