"""The contract between provider packages and the shared pieces.

Each provider package (azure, aws, gcp, generic) has one component class, a
`TargetBuilder`: it builds the cluster, bucket and identity and describes the result
with a `Target`. `cloud.py`, `registration.py` and `addons/` only ever see this
description, so they are written once for every provider.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import pulumi
import pulumi_kubernetes as k8s

from config import ResourceSpec


@dataclass(frozen=True)
class OperatorExtension:
    """AKS only: install the operator as the cluster extension instead of Helm."""

    cluster_name: pulumi.Input[str]
    resource_group_name: pulumi.Input[str]
    azure_provider: pulumi.ProviderResource
    name: str = "anyscale-operator"  # an adopted extension keeps its own (config/adopt.py)
    import_id: str | None = None  # the existing extension's ID, imported instead of created


@dataclass(frozen=True)
class HistoryIdentity:
    """The cloud identity the History Server and its collectors use for the bucket: the
    annotations that bind a Kubernetes service account to it, and what it waits for."""

    service_account_annotations: dict[str, pulumi.Input[str]]
    ready: list[pulumi.Resource]
    # The storage backend's variables (components/kuberay/history.storage_env adds the rest).
    storage_variables: dict[str, pulumi.Input[str]] = field(default_factory=dict)
    # Labels the server's pod needs (Azure: the workload identity webhook's opt-in).
    pod_labels: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class WorkloadIdentity:
    """The cloud identity Ray pods get through their own service account (anyscale-workloads,
    which ClusterAddons creates with no RoleBinding): the annotations that bind the account
    to it, and the identity's resources the operator waits for. None of either on Generic:
    the bucket's credentials come from the user's secret there."""

    service_account_annotations: dict[str, pulumi.Input[str]] = field(default_factory=dict)
    ready: list[pulumi.Resource] = field(default_factory=list)


@dataclass(frozen=True)
class Target:
    """One Kubernetes deployment target: everything the registration and the add-ons use."""

    provider: Literal["Azure", "AWS", "GCP", "Generic"]
    region: str
    kubernetes: k8s.Provider
    # How to reach the cluster; exported per resource. Always a Pulumi secret.
    kubeconfig: pulumi.Output[str]
    # The cluster we created (None for Generic): in-cluster objects are deleted with it.
    cluster: pulumi.Resource | None
    bucket_uri: pulumi.Input[str]
    bucket_endpoint: pulumi.Input[str]  # "" unless the platform needs it
    bucket_region: str
    # Recorded on the registration: Azure principal ID, AWS role ARN, GCP SA email.
    registration_identity: pulumi.Input[str] | None
    # Configured on the operator: Azure client ID, AWS role ARN, GCP SA email.
    operator_identity: pulumi.Input[str] | None
    # Provider-specific operator settings (flat dotted chart keys).
    operator_settings: dict[str, Any] = field(default_factory=dict)
    # Annotations on the Envoy proxy Service (e.g. an internet-facing NLB on AWS).
    proxy_service_annotations: dict[str, str] = field(default_factory=dict)
    # How the load balancer reports its address: AWS NLBs have hostnames.
    gateway_address_kind: Literal["ip", "hostname"] = "ip"
    # EKS and GKE leave a LoadBalancer Service's cloud load balancer behind when the
    # cluster goes (platform.md 9.4): the Gateway that owns it is then really deleted,
    # before the cluster and its network, not `deletedWith` the cluster.
    load_balancer_outlives_cluster: bool = False
    # The NVIDIA device plugin chart: where GPU pools exist and the platform does not
    # bring its own (GKE installs drivers and the plugin itself).
    install_device_plugin: bool = False
    operator_extension: OperatorExtension | None = None
    # Secret settings only the operator sees (Generic: the CLI token); values are secrets.
    protected_settings: dict[str, pulumi.Input[str]] = field(default_factory=dict)
    # The cluster's data plane is Cilium (AKS's default): the API server is then an entity of
    # its own that only a CiliumNetworkPolicy allows (components/kuberay/network_policy.py).
    cilium_data_plane: bool = False
    # addons.kuberay.historyServer: its own identity on the bucket (providers that build one).
    history_identity: HistoryIdentity | None = None
    # The Ray pods' own cloud identity (the bucket only); none on Generic.
    workload_identity: WorkloadIdentity = field(default_factory=WorkloadIdentity)
    # Resources the registration must wait for (cluster, bucket, identity and grants).
    ready: list[pulumi.Resource] = field(default_factory=list)
    # What runbooks and other stacks read (the component's outputs); None for Generic.
    cluster_name: pulumi.Input[str] | None = None
    cluster_id: pulumi.Input[str] | None = None  # ARM ID, EKS ARN, GKE `projects/../clusters/..`
    oidc_issuer: pulumi.Input[str] | None = None


@dataclass(frozen=True)
class CloudContext:
    """What the cloud shares with every provider module (never config: already a spec)."""

    cloud_name: str
    resource_group_name: pulumi.Input[str]
    azure_provider: pulumi.ProviderResource  # the cloud's subscription
    random_provider: pulumi.ProviderResource
    registry_id: pulumi.Input[str]
    tags: dict[str, str]
    protect: bool
    # The primary runs managed image builds, so only its operator may push to the registry.
    is_primary: bool


class TargetBuilder(Protocol):
    """A provider's component (`AksTarget`, `EksTarget`, `GkeTarget`, `GenericTarget`):
    built from its resource's spec and the cloud's context, it exposes its `Target`."""

    target: Target

    def __init__(self, spec: ResourceSpec, ctx: CloudContext, opts: pulumi.ResourceOptions | None = None) -> None: ...
