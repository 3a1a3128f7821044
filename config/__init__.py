"""The stack spec: pydantic models of `anyscale-cloud:cloud` and `anyscale-cloud:resources`.

The ONE place where the platform's rules (platform.md 1.1 and 1.2) are enforced, and where
the defaults are filled in. No Pulumi or cloud SDK is imported here, so that
`preflight validate` stays fast. Read a stack with `load_spec`; the components take the
models below.
"""

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
