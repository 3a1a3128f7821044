"""The stack spec: pydantic models of `anyscale-cloud:cloud` and `anyscale-cloud:resources`.

The ONE place where the platform's rules (platform.md 1.1 and 1.2) are enforced, and where
the defaults are filled in. No Pulumi or cloud SDK is imported here, so that
`preflight validate` stays fast. Read a stack with `load_spec`; the components take the
models below.

Its names are imported on first use (PEP 562): a command that needs only a leaf module
(`config.raw`, `config.data`) does not load every model and pydantic with it, which kept
`preflight diff` and `cost` half a second slower to start.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from config.addons import AddonsSpec
    from config.aks import AksClusterSpec, AksNetworkSpec, AksNodePool, AzureResource
    from config.eks import AccessEntrySpec, AwsResource, EksClusterSpec
    from config.generic import GenericResource
    from config.gke import GcpResource, GkeClusterSpec, GkeNodePool
    from config.kuberay import KubeRaySpec, QueueQuotaSpec
    from config.load import Problem, SpecError, advisories, clear_secret_advisories, load_spec
    from config.pools import NodePoolSpec, SystemPoolSpec
    from config.resources import ResourceSpec
    from config.stack import MAX_RESOURCES, CloudSpec, StackSpec
    from config.types import Secret

_FROM: dict[str, str] = {
    "AddonsSpec": "config.addons",
    "AksClusterSpec": "config.aks",
    "AksNetworkSpec": "config.aks",
    "AksNodePool": "config.aks",
    "AzureResource": "config.aks",
    "AccessEntrySpec": "config.eks",
    "AwsResource": "config.eks",
    "EksClusterSpec": "config.eks",
    "GenericResource": "config.generic",
    "GcpResource": "config.gke",
    "GkeClusterSpec": "config.gke",
    "GkeNodePool": "config.gke",
    "KubeRaySpec": "config.kuberay",
    "QueueQuotaSpec": "config.kuberay",
    "Problem": "config.load",
    "SpecError": "config.load",
    "advisories": "config.load",
    "clear_secret_advisories": "config.load",
    "load_spec": "config.load",
    "NodePoolSpec": "config.pools",
    "SystemPoolSpec": "config.pools",
    "ResourceSpec": "config.resources",
    "MAX_RESOURCES": "config.stack",
    "CloudSpec": "config.stack",
    "StackSpec": "config.stack",
    "Secret": "config.types",
}


def __getattr__(name: str) -> Any:
    module = _FROM.get(name)
    if module is None:
        # `config.<submodule>` as the eager imports made it available before.
        try:
            return importlib.import_module(f"config.{name}")
        except ModuleNotFoundError as error:
            raise AttributeError(f"module 'config' has no attribute {name!r}") from error
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_FROM})


__all__ = [
    "MAX_RESOURCES",
    "AccessEntrySpec",
    "AddonsSpec",
    "AksClusterSpec",
    "AksNetworkSpec",
    "AksNodePool",
    "AwsResource",
    "AzureResource",
    "CloudSpec",
    "EksClusterSpec",
    "GcpResource",
    "GenericResource",
    "GkeClusterSpec",
    "GkeNodePool",
    "KubeRaySpec",
    "NodePoolSpec",
    "Problem",
    "QueueQuotaSpec",
    "ResourceSpec",
    "Secret",
    "SpecError",
    "StackSpec",
    "SystemPoolSpec",
    "advisories",
    "clear_secret_advisories",
    "load_spec",
]
