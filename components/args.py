"""Generated from config/ by `make generate`: do not edit.

The typed arguments of `AnyscaleCloud` (components/cloud.py): the stack config's shape as
TypedDicts. Plain values, except the secrets and the values that only reach a resource
property (`pulumi.Input[...]`), which may be Pulumi Outputs. The docstring under each key is
its description in the component package's schema.
"""

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

import pulumi


class CloudAdoptConfig(TypedDict):
    """The existing cloud's own records, by Azure resource ID."""

    resource_group: NotRequired[str]
    """the existing `cloud.resourceGroup`, e.g. `/subscriptions/<s>/resourceGroups/<group>`"""

    registry: NotRequired[str]
    """the existing container registry of the cloud's `acrResourceId` (`.../providers/Microsoft.ContainerRegistry/registries/<name>`); the program keeps its name"""

    cloud: NotRequired[str]
    """the existing `Anyscale.Platform/clouds` record (`.../providers/Anyscale.Platform/clouds/<name>`); its name must be `cloud.name`"""


class CloudConfig(TypedDict):
    """The Anyscale cloud: its ARM record and where it lives."""

    name: str
    """`^[a-zA-Z0-9_-]+$`, at most 256 characters: the ARM name of the cloud"""

    location: str
    """the Azure region holding the ARM records (not where compute runs): a known Azure region, never case-converted; outside the regions where Anyscale on Azure is available (preview): a warning, not an error"""

    resource_group: pulumi.Input[str]
    """the Azure resource group, created by the program (or adopted: `adopt.resourceGroup`)"""

    api_version: NotRequired[str]
    """the `Anyscale.Platform` API version (older templates use `2026-02-01-preview`). Default: `2026-09-01`"""

    protect: NotRequired[bool]
    """protect the resource group, registry, cloud record, registrations, clusters and storage from deletion. Default: `true`"""

    registry_sku: NotRequired[str]
    """the container registry for managed image builds (one of `Basic`, `Standard`, `Premium`). Default: `Premium`"""

    tags: NotRequired[Mapping[str, str]]
    """tags on the Azure resources"""

    adopt: NotRequired[CloudAdoptConfig]
    """an existing cloud's records to import instead of creating them (docs/adopting.md)"""


class EnvoyGatewayConfig(TypedDict):
    version: NotRequired[str]
    """one exact chart version (no range, `*` or `latest`). Default: `v1.7.0`"""


class MetricsConfig(TypedDict):
    """Prometheus Operator objects for the operator and the Ray pods."""

    enabled: NotRequired[bool]
    """Prometheus Operator objects for the operator and the Ray pods. Default: `false`"""

    install_prometheus: NotRequired[bool]
    """install kube-prometheus-stack (pinned) in `monitoring`; needs `enabled`. Default: `false`"""


class QueueQuotaConfig(TypedDict):
    """The Kueue ClusterQueue's nominal quota, when the pools cannot size it."""

    cpu: int
    """vCPUs"""

    memory_gi: int
    """GiB"""

    gpu: NotRequired[int]
    """nvidia.com/gpu. Default: `0`"""


class KubeRayConfig(TypedDict):
    """The KubeRay operator and what it works with (docs/what-it-creates.md, KubeRay options)."""

    version: NotRequired[str]
    """the KubeRay operator chart, one exact version. Default: `1.7.0`"""

    batch_scheduler: NotRequired[str]
    """`yunikorn` needs KubeRay >= 1.2.2, `scheduler-plugins` needs KubeRay >= 1.4.0, `kai` needs KubeRay >= 1.5.0; `scheduler-plugins` needs a Kubernetes minor it has a chart for; `kai` and `scheduler-plugins` not with `smokeTest` (one of `none`, `volcano`, `yunikorn`, `kueue`, `scheduler-plugins`, `kai`). Default: `none`"""

    feature_gates: NotRequired[Mapping[str, bool]]
    """KubeRay operator feature gates by name, e.g. `{RayCronJob: true}`: each one of the chart's own list at `version` (chart `1.6.2` or `1.7.0`); the others keep the chart's defaults"""

    history_server: NotRequired[bool]
    """KubeRay's History Server (alpha) reading Ray clusters' events and logs from the resource's bucket under `ray-history/`, and its RayClusterHistoryServer gate; needs `version` `1.7.0`; Azure (the container this program creates), AWS and GCP resources; with `authentication: token` it proxies live clusters in token mode; opened by port-forward. Default: `false`"""

    metrics: NotRequired[MetricsConfig]
    """`true` is short for `{enabled: true}`. Default: off"""

    authentication: NotRequired[str]
    """`token` needs KubeRay >= 1.5.1, `kubernetes-rbac` needs KubeRay >= 1.6.0 (one of `none`, `token`, `kubernetes-rbac`). Default: `none`"""

    network_policy: NotRequired[bool]
    """KubeRay's RayClusterNetworkPolicy gate (a NetworkPolicy per RayCluster) and the platform's allow policies (operator, gateway, Prometheus, DNS, HTTPS, the API server) for pods labelled `anyscale-cloud/network-policy: <mode>`; needs `version` `1.7.0` and a cluster that enforces NetworkPolicy: AKS (every AKS cluster runs a policy engine) or Generic; not EKS or GKE (this program turns on no policy engine there). Default: `false`"""

    smoke_test: NotRequired[bool]
    """run a small RayJob that `pulumi up` waits on. Default: `false`"""

    gpu_smoke_test: NotRequired[bool]
    """also run a RayJob whose worker asks for one GPU on the first GPU pool, which `pulumi up` waits on (it scales that pool up from zero: minutes and a GPU node's cost); needs `smokeTest` and a GPU pool. Default: `false`"""

    queue_quota: NotRequired[QueueQuotaConfig]
    """Kueue only: the ClusterQueue's quota; default: the worker pools' size at `maxCount`; required on Generic"""

    queue_namespaces: NotRequired[Sequence[str]]
    """Kueue only: the namespaces that get the LocalQueue `ray-queue` (each created by the program, except `default`), where labelled RayJobs and RayClusters are queued; not a namespace the platform runs in"""

    multi_kueue_workers: NotRequired[Sequence[str]]
    """the primary only, with `batchScheduler: kueue`: MultiKueue with this cluster as manager, dispatching the jobs of LocalQueue `ray-multikueue` to these cloud resources by name: EKS or GKE resources of this stack, each with `batchScheduler: kueue` (docs/what-it-creates.md, MultiKueue)"""


class AnyscaleOperatorConfig(TypedDict):
    version: NotRequired[str]
    """one exact chart version (no range, `*` or `latest`). Default: `1.8.0`"""

    values: NotRequired[Mapping[str, Any]]
    """extra operator chart values, nested; keys checked against the chart's (chart 1.8.0), the program's own refused, `{secure: ...}` allowed ([In every cluster](https://github.com/anyscale/anyscale-cloud/blob/main/docs/what-it-creates.md#in-every-cluster))"""


class NvidiaDevicePluginConfig(TypedDict):
    version: NotRequired[str]
    """one exact chart version (no range, `*` or `latest`). Default: `0.17.1`"""


class AddonsConfig(TypedDict):
    """Pinned versions of what runs inside every cluster."""

    envoy_gateway: NotRequired[EnvoyGatewayConfig]
    """Envoy Gateway (chart `gateway-helm`) and its CRDs"""

    kuberay: NotRequired[KubeRayConfig]
    """the KubeRay operator and its options ([KubeRay options](https://github.com/anyscale/anyscale-cloud/blob/main/docs/what-it-creates.md#kuberay-options))"""

    anyscale_operator: NotRequired[AnyscaleOperatorConfig]
    """the Anyscale operator: the Helm chart, on AKS the cluster extension of that version"""

    nvidia_device_plugin: NotRequired[NvidiaDevicePluginConfig]
    """installed on AKS and EKS clusters with GPU pools (GKE brings its own; not on Generic)"""


class CloudResourceAdoptConfig(TypedDict):
    """An existing cloud resource's registration and (AKS) the resources behind it, by Azure resource ID; the program imports each instead of creating it and takes its name from the ID."""

    registration: NotRequired[str]
    """the existing `Anyscale.Platform/clouds/cloudResources` record (`.../providers/Anyscale.Platform/clouds/<cloud>/cloudResources/<name>`); its cloud must be `cloud.name` and its name this resource's `name`"""

    registration_properties: NotRequired[Mapping[str, str]]
    """the existing registration's `properties`, copied from `az resource show --ids <registration> --query properties`: `preflight validate` then compares every property the stack decides offline (the platform never changes them: a difference fails the import or replaces the registration)"""

    cluster: NotRequired[str]
    """Azure only: the existing AKS cluster"""

    storage_account: NotRequired[str]
    """Azure only: the existing storage account (ADLS Gen2) of the resource's bucket"""

    container: NotRequired[str]
    """Azure only, with `storageAccount`: the existing blob container of the bucket (`.../storageAccounts/<account>/blobServices/default/containers/<name>`); unset: the program's `anyscale`"""

    identity: NotRequired[str]
    """Azure only: the operator's existing user-assigned identity"""

    operator_extension: NotRequired[str]
    """Azure only, with `cluster`: the Anyscale operator's existing AKS cluster extension (`.../managedClusters/<cluster>/providers/Microsoft.KubernetesConfiguration/extensions/<name>`)"""


class CredentialsConfig(TypedDict):
    """Keys for an S3-compatible bucket (MinIO, Ceph, ...): the operator chart writes them to a Secret mounted into the operator and the Ray pods (`credentialMount.aws`)."""

    access_key_id: pulumi.Input[str]
    """a Pulumi secret"""

    secret_access_key: pulumi.Input[str]
    """a Pulumi secret"""

    addressing_style: NotRequired[str]
    """`path` for most S3-compatible stores (MinIO); unset: the client's default (one of `path`, `virtual`)"""

    signature_version: NotRequired[str]
    """unset: the client's default (one of `s3v4`, `s3`)"""


class StorageConfig(TypedDict):
    bucket: NotRequired[pulumi.Input[str]]
    """Azure: an existing bucket to use instead of creating one (unset: the program creates it): Azure `abfss://<container>@<account>.dfs.core.windows.net or azure://<container>`; AWS `s3://<bucket>`; GCP `gs://<bucket>`; never a sub-path (`s3://b/prefix` is rejected). Default: created; Generic: the existing bucket: any `<scheme>://<bucket>`, never a sub-path (the program creates no bucket for a Generic cluster)"""

    endpoint: NotRequired[str]
    """a bare `https://<host>` origin: no path, no trailing slash (a trailing slash silently breaks log delivery); unset: sent empty. **Required** with an existing Azure bucket (its blob endpoint `https://<account>.blob.core.windows.net`); elsewhere only for S3-compatible storage at a custom endpoint. Only with `storage.bucket`: for a bucket the program creates it sets the endpoint itself, and an `endpoint` alone is an error"""

    region: NotRequired[str]
    """where the bucket lives; same rules as `region`. Azure: outside the regions where Anyscale on Azure is available (preview): a warning, not an error. Default: `region`"""

    retain_on_delete: NotRequired[bool]
    """keep the bucket when it is removed from the stack (it holds logs and workspace snapshots). On Azure the storage account lives in `cloud.resourceGroup`, so that group is then kept too. Default: `true`"""

    credentials: NotRequired[CredentialsConfig]
    """Generic only: keys for an `s3://` bucket (MinIO, Ceph), as Pulumi secrets; need `storage.region` set explicitly (the region the S3 client signs for; MinIO's default is `us-east-1`). See [Generic](https://github.com/anyscale/anyscale-cloud/blob/main/docs/what-it-creates.md#generic-resources)"""

    existing_secret: NotRequired[str]
    """Generic only: instead of `credentials`: the name of a Secret you keep in namespace `anyscale-operator`, with the keys `credentials` and `config` (AWS credentials and config files; `config` holds `endpoint_url`), as the operator chart mounts it"""


class SystemPoolConfig(TypedDict):
    instance_type: NotRequired[str]
    """Azure: Default: `Standard_D4s_v5`; AWS: Default: `m6i.xlarge`; GCP: Default: `e2-standard-4`"""

    min_count: NotRequired[int]
    """at most `maxCount`. Default: `1`"""

    max_count: NotRequired[int]
    """Default: `3`"""


class GpuConfig(TypedDict):
    type: str
    """the operator chart's accelerator name on the provider ([GPU pools](https://github.com/anyscale/anyscale-cloud/blob/main/docs/what-it-creates.md#gpu-pools-instance-types-and-disks)): Azure `T4 A10 A100 H100`; AWS `V100 T4 L4 A10G L40S A100-40G A100-80G H100`; GCP `T4 L4 A100-40G A100-80G H100 H100-MEGA RTX-PRO-6000`; it must be what the instance type carries"""

    count: NotRequired[int]
    """must equal what the instance type carries; types with attached GPUs take GCP T4 1, 2 or 4 (default: the fewest the type takes)"""


class ShapeConfig(TypedDict):
    """A node's capacity as the cloud sells it, for instance types not in the program's instance-type table. The operator's instance type is sized from it."""

    cpu: int
    """vCPUs"""

    memory_gb: float
    """memory in GiB"""

    gpus: NotRequired[int]
    """must equal `gpu.count`; more than 0 needs `gpu`. Default: `0`"""


class NodePoolConfig(TypedDict):
    """A worker pool. Tainted so that only Anyscale workloads land on it."""

    name: str
    """Azure: `^[a-z][a-z0-9]{0,11}$`: at most 12 characters, lowercase letters and digits, starting with a letter; unique within the cluster, not `system` (the system pool's name); AWS: unique within the cluster, not `system` (the system pool's name); GCP: 1-40 lowercase letters, digits and '-', starting with a letter, not ending with '-'; unique within the cluster, not `system` (the system pool's name)"""

    instance_type: str
    """a type in the program's instance-type table for the provider (29 Azure, 45 AWS, 43 GCP), or any with `shape`"""

    min_count: NotRequired[int]
    """at most `maxCount`. Default: `0`"""

    max_count: NotRequired[int]
    """Default: `10`"""

    capacity_type: NotRequired[str]
    """tainted `node.anyscale.com/capacity-type=<value>:NoSchedule` (one of `ON_DEMAND`, `SPOT`). Default: `ON_DEMAND`"""

    gpu: NotRequired[GpuConfig]
    """`{type, count}`: required on a GPU instance type, and must match what it carries"""

    shape: NotRequired[ShapeConfig]
    """the node's size as sold, for an instance type not in the program's instance-type table; the operator's instance type is sized from it. Default: from the table"""

    disk_size_gb: NotRequired[int]
    """root disk in GiB: EKS `disk_size`, GKE `pd-ssd` `disk_size_gb`, AKS `osDiskSizeGB` (at most 2048 on AKS). Default: AWS `500`; GCP `500`; Azure: the platform's"""

    zones: NotRequired[Sequence[str]]
    """GCP only: the pool's zones (nodeLocations), each `<region>-<letter>`, each once. GPU pools: zones that offer the GPU. Default: the cluster's"""


class ApiServerConfig(TypedDict):
    """Who can reach the cluster's API server."""

    private: NotRequired[bool]
    """`true`: the API server has a private address only; `pulumi up` must run inside or peered to the network. Default: `false`"""

    authorized_ip_ranges: NotRequired[Sequence[str]]
    """IPv4 CIDRs allowed to reach the public API server (include where `pulumi up` runs); not with `private: true`"""


class MaintenanceConfig(TypedDict):
    """A weekly window, in the cluster's chosen UTC offset. The default, Sunday from 00:00 UTC for 8 hours, is the quietest time for most batch fleets; pick your own."""

    day_of_week: NotRequired[str]
    """the day the window opens (one of `Monday`, `Tuesday`, `Wednesday`, `Thursday`, `Friday`, `Saturday`, `Sunday`). Default: `Sunday`"""

    start_time: NotRequired[str]
    """`HH:MM`, 24-hour, in `utcOffset`. Default: `00:00`"""

    duration_hours: NotRequired[int]
    """hours the window stays open (AKS needs at least 4). Default: `8`"""

    utc_offset: NotRequired[str]
    """`+HH:MM` or `-HH:MM`. Default: `+00:00`"""


class SubnetIdsConfig(TypedDict):
    """Subnets of an existing VPC: nodes (and the API server's network interfaces) in `private`, internet-facing load balancers in `public`."""

    public: NotRequired[Sequence[pulumi.Input[str]]]
    """subnet IDs (`^subnet-([0-9a-f]{8}|[0-9a-f]{17})$`) for internet-facing load balancers"""

    private: Sequence[pulumi.Input[str]]
    """subnet IDs (`^subnet-([0-9a-f]{8}|[0-9a-f]{17})$`) for the nodes and the API server: at least two, in two availability zones; no ID listed twice (or in both lists)"""


class AccessEntryConfig(TypedDict):
    """One IAM principal (a person's role, the CI role) with one EKS access policy."""

    principal_arn: str
    """an IAM role (with its path) or user ARN, `^arn:aws:iam::[0-9]{12}:(role|user)/([\\w+=,.@-]+/)*[\\w+=,.@-]{1,128}$`; not an STS assumed-role session ARN; one entry per principal"""

    policy: str
    """the EKS access policy of that name (one of `cluster-admin`, `admin`, `edit`, `view`)"""

    namespaces: NotRequired[Sequence[str]]
    """Kubernetes namespaces (`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`), each once: the policy applies there only. Default: the whole cluster"""


class ClusterConfig(TypedDict):
    """Without `network`, the program creates a VPC, a subnet (nodes) with secondary ranges (pods, services) and a firewall rule; with it, the cluster joins that subnet."""

    kubernetes_version: NotRequired[str]
    """Azure: a minor the provider creates on the day of the check (a refusal lists them); move it one minor at a time ([Upgrades](https://github.com/anyscale/anyscale-cloud/blob/main/docs/operations.md#upgrades)); Azure: or a patch of it AKS offers in the region (not checked before deploy: an advisory says so). Default: `1.36`; AWS: a minor the provider creates on the day of the check (a refusal lists them); move it one minor at a time ([Upgrades](https://github.com/anyscale/anyscale-cloud/blob/main/docs/operations.md#upgrades)); AWS: a minor only, no patch (EKS runs its own patch of it), with a pinned Cluster Autoscaler release (1.32, 1.33, 1.34, 1.35, 1.36). Default: `1.36`; GCP: a minor the provider creates on the day of the check (a refusal lists them); move it one minor at a time ([Upgrades](https://github.com/anyscale/anyscale-cloud/blob/main/docs/operations.md#upgrades)); GCP: the minimum version; the release channel upgrades the cluster (and its pools) past it; a patch of it GKE offers is not checked before deploy (an advisory says so). Default: `1.35`"""

    system_pool: NotRequired[SystemPoolConfig]
    """the system pool (autoscaling); given only the counts, it keeps the provider's instance type: Azure `Standard_D4s_v5`; AWS `m6i.xlarge`; GCP `e2-standard-4`. A new `instanceType` is not applied on AKS and replaces the EKS node group, deleting it first (see [Edit node pools](https://github.com/anyscale/anyscale-cloud/blob/main/docs/operations.md#edit-node-pools))"""

    node_pools: NotRequired[Sequence[NodePoolConfig]]
    """the worker pools, tainted for Anyscale workloads. Default: an on-demand `cpu` and a spot `cpuspot` pool, 0-10 nodes of Azure `Standard_D16s_v5`; AWS `m6i.4xlarge`; GCP `n2-standard-16`. Changing a pool's `gpu` or `capacityType` replaces it, deleting the old one first; so does its `instanceType` or `diskSizeGb` on AKS and EKS (GKE changes them in place, recreating the nodes). See [Edit node pools](https://github.com/anyscale/anyscale-cloud/blob/main/docs/operations.md#edit-node-pools)"""

    disable_local_accounts: NotRequired[bool]
    """Azure only: `true`: Entra ID only (managed Entra integration with Azure RBAC); requires `adminGroupObjectIds`; the kubeconfig is a non-interactive kubelogin exec config. Default: `false`"""

    admin_group_object_ids: NotRequired[Sequence[pulumi.Input[str]]]
    """Azure only: object IDs (GUIDs) of the Entra ID groups whose members are cluster admins; required with `disableLocalAccounts: true`; with local accounts on, enables Entra ID for people while the program keeps the admin credential"""

    kubelogin_mode: NotRequired[str]
    """Azure only: `azurecli`, `workloadidentity` or `spn` (never `devicecode`/`interactive`: they wait for a browser); only with `disableLocalAccounts: true`. Default: `azurecli`"""

    sku_tier: NotRequired[str]
    """Azure only: the AKS pricing tier (one of `Free`, `Standard`, `Premium`). Default: `Standard`"""

    support_plan: NotRequired[str]
    """Azure only: `AKSLongTermSupport`: AKS long-term support (a minor a year past community support); requires `skuTier: Premium` (one of `KubernetesOfficial`, `AKSLongTermSupport`). Default: `KubernetesOfficial`"""

    network: NotRequired[Any]
    """Azure: the nodes' network, see [AKS networks](https://github.com/anyscale/anyscale-cloud/blob/main/docs/what-it-creates.md#aks-networks): a VNet the program creates (`addressSpace`, `nodeSubnet`) or `existingSubnetId`; unset: AKS manages one (Azure CNI overlay powered by Cilium, which enforces NetworkPolicy). Default: none (AKS-managed VNet); GCP: an existing VPC (name or `projects/<p>/global/networks/<n>`); then `subnetwork`, `podsRangeName` and `servicesRangeName` are required. Unset: the program creates the VPC, subnet and firewall rule ([GKE networking](https://github.com/anyscale/anyscale-cloud/blob/main/docs/what-it-creates.md#gke-networking)). Default: created"""

    api_server: NotRequired[ApiServerConfig]
    """Azure only: who can reach the API server. Default: public"""

    maintenance: NotRequired[MaintenanceConfig]
    """Azure only: the weekly window for AKS's Kubernetes patch upgrades and node image upgrades"""

    vpc_cidr: NotRequired[str]
    """AWS only: the IPv4 network (/16 to /24) of the VPC the program creates, an eighth of it per private subnet: room for every node at `maxCount` with the addresses the VPC CNI takes for it with each group's update surge; not with `vpcId`. Default: `10.0.0.0/16`"""

    availability_zones: NotRequired[int]
    """AWS only: zones of the VPC the program creates; not with `vpcId`. Default: `2`"""

    vpc_id: NotRequired[pulumi.Input[str]]
    """AWS only: an existing VPC, `^vpc-([0-9a-f]{8}|[0-9a-f]{17})$`; requires `subnetIds` ([EKS networking](https://github.com/anyscale/anyscale-cloud/blob/main/docs/what-it-creates.md#eks-networking)). Default: none (a VPC is created)"""

    subnet_ids: NotRequired[SubnetIdsConfig]
    """AWS only: the existing VPC's subnets; requires `vpcId`"""

    access_entries: NotRequired[Sequence[AccessEntryConfig]]
    """AWS only: who besides the identity that creates the cluster may use it"""

    endpoint_public_access: NotRequired[bool]
    """AWS only: the API server's public endpoint; `false` needs `pulumi up` to run inside the VPC. Default: `true`"""

    endpoint_private_access: NotRequired[bool]
    """AWS only: the private endpoint (nodes reach the API inside the VPC); at least one of the two must be on. Default: `true`"""

    endpoint_public_access_cidrs: NotRequired[Sequence[str]]
    """AWS only: IPv4 networks allowed to reach the public endpoint; requires `endpointPublicAccess` and `endpointPrivateAccess`; include the addresses `pulumi up` and `kubectl` run from. Default: none (EKS: `0.0.0.0/0`)"""

    release_channel: NotRequired[str]
    """GCP only: `EXTENDED` keeps a minor after its standard support ends (GKE extended support) (one of `RAPID`, `REGULAR`, `STABLE`, `EXTENDED`). Default: `REGULAR`"""

    subnetwork: NotRequired[pulumi.Input[str]]
    """GCP only: the existing subnet in the resource's region; only with `network`"""

    pods_range_name: NotRequired[pulumi.Input[str]]
    """GCP only: its secondary range for pods; only with `network`"""

    services_range_name: NotRequired[pulumi.Input[str]]
    """GCP only: its secondary range for services; only with `network`"""

    node_cidr: NotRequired[str]
    """GCP only: an IPv4 network not overlapping the other two: a range of the network the program creates (nodes and pods: room for every pool at `maxCount` and a surge node each, a /24 of pods per node); with an existing `network` optional, only for the `peeredWith` check. Default: `10.10.0.0/20`"""

    pod_cidr: NotRequired[str]
    """GCP only: an IPv4 network not overlapping the other two: a range of the network the program creates (nodes and pods: room for every pool at `maxCount` and a surge node each, a /24 of pods per node); with an existing `network` optional, only for the `peeredWith` check. Default: `10.12.0.0/14`"""

    service_cidr: NotRequired[str]
    """GCP only: an IPv4 network not overlapping the other two: a range of the network the program creates (nodes and pods: room for every pool at `maxCount` and a surge node each, a /24 of pods per node); with an existing `network` optional, only for the `peeredWith` check; a /27 or larger. Default: `10.16.0.0/20`"""


class CloudResourceConfig(TypedDict):
    """One cloud resource (an entry of `anyscale-cloud:resources`); `provider` says which of the keys apply (each is marked with its providers)."""

    name: str
    """`^[a-zA-Z0-9_-]+$`, at most 256 characters; unique within the cloud, ignoring case; the first resource is the primary and must be named `default`"""

    provider: str
    """one of `Azure`, `AWS`, `GCP`, `Generic`"""

    region: str
    """`^[a-z0-9]+(-[a-z0-9]+)*$`, at most 35 characters, never case-converted; Azure, AWS, GCP: a known region of the provider; Generic: a free-form routing label. Azure: outside the regions where Anyscale on Azure is available (preview): a warning, not an error"""

    addons: NotRequired[AddonsConfig]
    """Pinned versions of what runs inside every cluster."""

    adopt: NotRequired[CloudResourceAdoptConfig]
    """an existing registration (and on Azure its cluster, storage, identity and operator extension) to import instead of creating them (docs/adopting.md)"""

    peered_with: NotRequired[Sequence[str]]
    """names of other resources of the stack whose networks are peered with this one's: their address ranges must not overlap (checked: EKS `vpcCidr`, GKE node/pod/service ranges, AKS network ranges where set; Generic and existing networks without ranges are not checked)"""

    storage: NotRequired[StorageConfig]
    """the cluster's existing bucket: required on Generic"""

    cluster: NotRequired[ClusterConfig]
    """Azure, AWS, GCP only: the cluster the program creates (a Generic resource brings its own: `kubeconfig`)"""

    project: NotRequired[pulumi.Input[str]]
    """GCP only: the GCP project ID the cluster and bucket live in (never containing google, null, undefined, ssl, which Google refuses)"""

    enable_apis: NotRequired[bool]
    """GCP only: enable the project APIs the resource uses (never disabled on destroy); `false`: they must be enabled already. Default: `false`"""

    kubeconfig: NotRequired[pulumi.Input[str]]
    """Generic only: a Pulumi secret"""

    cli_token: NotRequired[pulumi.Input[str]]
    """Generic only: a Pulumi secret: the Anyscale CLI token the operator authenticates with"""

    gateway_address: NotRequired[str]
    """Generic only: how your cluster's load balancers report their address; the operator gets `networking.gateway.ip` or `.hostname` (one of `ip`, `hostname`). Default: `ip`"""


class CredentialsSecretsConfig(TypedDict):
    """the secrets under the resource's `storage.credentials`"""

    access_key_id: NotRequired[pulumi.Input[str]]
    """a Pulumi secret (an Output may be given)"""

    secret_access_key: NotRequired[pulumi.Input[str]]
    """a Pulumi secret (an Output may be given)"""


class StorageSecretsConfig(TypedDict):
    """the secrets under the resource's `storage`"""

    credentials: NotRequired[CredentialsSecretsConfig]
    """the secrets under the resource's `storage.credentials`"""


class ResourceSecretsConfig(TypedDict):
    """A cloud resource's secrets, given by its name instead of inside its entry."""

    kubeconfig: NotRequired[pulumi.Input[str]]
    """a Pulumi secret (an Output may be given)"""

    cli_token: NotRequired[pulumi.Input[str]]
    """a Pulumi secret (an Output may be given)"""

    storage: NotRequired[StorageSecretsConfig]
    """the secrets under the resource's `storage`"""


class AnyscaleCloudArgs(TypedDict):
    """The arguments of `AnyscaleCloud`: the stack config's `anyscale-cloud:cloud`, `anyscale-cloud:resources` and `anyscale-cloud:secrets`, with the same keys (snake_case here, camelCase in the schema and the stack file)."""

    cloud: CloudConfig
    """The cloud: its ARM record and where it lives."""

    resources: Sequence[CloudResourceConfig]
    """The cloud resources, in registration order: the AKS primary first."""

    secrets: NotRequired[Mapping[str, ResourceSecretsConfig]]
    """each cloud resource's secrets by its name, instead of inside `anyscale-cloud:resources` (so that a Pulumi ESC environment can supply them); a secret is given in one of the two places only"""
