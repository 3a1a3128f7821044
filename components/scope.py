"""Where a provider's builders create their resources: under the provider's component,
through the provider's explicit provider resource."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi

from components.target import CloudContext


@dataclass(frozen=True)
class Scope:
    ctx: CloudContext
    parent: pulumi.Resource  # the provider's component: every child's URN hangs off it
    provider: pulumi.ProviderResource  # the cloud's provider (Azure subscription, AWS region, GCP project)

    def opts(self, **extra: Any) -> pulumi.ResourceOptions:
        return pulumi.ResourceOptions(parent=self.parent, provider=self.provider, **extra)

    def guarded(self, **extra: Any) -> pulumi.ResourceOptions:
        """For what holds state (clusters, buckets): protected when the cloud says so."""
        return self.opts(protect=self.ctx.protect, **extra)

    def random(self) -> pulumi.ResourceOptions:
        return pulumi.ResourceOptions(parent=self.parent, provider=self.ctx.random_provider)

    def invoke(self) -> pulumi.InvokeOutputOptions:
        return pulumi.InvokeOutputOptions(parent=self.parent, provider=self.provider)
